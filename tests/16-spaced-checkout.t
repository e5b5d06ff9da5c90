#!/bin/sh
# 16-spaced-checkout.t - a checkout works wherever it is: a copy of this one
# (sources and what make built, so nothing is rebuilt) under /tmp at a path
# with spaces runs part of the suite through its Makefile: the paths the
# Makefile (LSAN_OPTIONS' suppressions file, under SANITIZE=1 the one that
# broke), lib.sh, the MPI runs, the demo script and the plots build from the
# checkout's location survive spaces.  50-verbs-vm.t gives the VM a checkout
# path under /tmp with a space on every run.
. "$(dirname "$0")/lib.sh"
tmpdir
C="$_d/sp ace/lop checkout"
mkdir -p "$C"
tar -C "$ROOT" --exclude=./.git --exclude=./out --exclude=./build/vm --exclude=./build/fuzz -cf - . | tar -C "$C" -xf -
check "the copy at '$C' has the built tools" test -x "$C/bin/lopbench"
# Tests that run the tools through lib.sh, mpirun, lopfit's output directory
# and gnuplot; then the demo script (which runs make itself), small.
# A unit test, and a shell test through lib.sh that draws figures; the MPI
# runs and lopfit are the demo's, below.
SOME="./tests/bin/test_outdir tests/62-plots-pairs.t"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$C" check SANITIZE="${LOP_SANITIZE:-}" \
    TESTS="$SOME" >"$_d/out" 2>&1
rc=$?
check "make check from a path with spaces passes (exit $rc)" test $rc -eq 0
check "prove ran the 2 test files there and all passed" \
    sh -c "grep -q '^Files=2, Tests=[1-9]' '$_d/out' && grep -q '^All tests successful' '$_d/out'"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$C" demo NP=2 OVER_NP=0 REPS=20 \
    OUT="$_d/demo out" >>"$_d/out" 2>&1
check "make demo from there (NP=2, REPS=20) writes its summary" test -s "$_d/demo out/summary.txt"
check "nothing was rebuilt in the copy" sh -c "! grep -qE '^(cc|mpicc) ' '$_d/out'"
[ "$_tap_failed" -eq 0 ] || diag "$(grep -vE '^(ok|#)' "$_d/out" | tail -n 15)"
done_testing
