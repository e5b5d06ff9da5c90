#!/bin/sh
# 92-demo-settings.t - make demo (scripts/demo.sh) checks every setting
# before it builds, measures or writes anything: a bad REPS or OUT is one
# line and no OUT (REPS=abc was a shell error at step 2, REPS=0 refused by
# lopbench after OUT/data existed, an OUT with a newline failed at the fit).
# Cheap: nothing here runs the demo (90-demo.t does).
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
NL='
'
# refused NAME PATTERN VAR=VALUE...: demo.sh with these settings fails,
# saying PATTERN in one "demo:" line, and makes no $T/out
refused() {
    _n=$1 _p=$2
    shift 2
    env "$@" sh "$ROOT/scripts/demo.sh" >"$T/log" 2>&1 && fail "$_n: fails" || pass "$_n: fails"
    check "... saying why in one line ($(grep -c '^demo: ' "$T/log") lines)" \
        test "$(grep -c '^demo: ' "$T/log")" -eq 1 -a "$(grep -c "^demo: $_p" "$T/log")" -eq 1
    check "... and writes nothing" test -z "$(ls -A "$T" | grep -v '^log$')"
}
refused "REPS=abc" "REPS=abc: expected a whole number" REPS=abc OUT="$T/out"
refused "REPS=010" "REPS=010: a whole number of repetitions without a leading zero" REPS=010 OUT="$T/out"
refused "REPS=0" "REPS=0: from 10 " REPS=0 OUT="$T/out"
refused "REPS=9" "REPS=9: from 10 " REPS=9 OUT="$T/out"
refused "REPS=10000001" "REPS=10000001: from 10 " REPS=10000001 OUT="$T/out"
refused "REPS=99999999999999999999" "REPS=99999999999999999999: expected a whole number .*at most 8 digits" \
    REPS=99999999999999999999 OUT="$T/out"
# The other numbers as REPS: a number the shell's tests cannot hold was its
# "Illegal number", a leading zero passed the checks and stopped the demo at
# its first arithmetic (NODES=08 after the cluster was up).
for v in NP NODES OVER_NP; do
    refused "$v=abc" "$v=abc: expected a whole number of" $v=abc OUT="$T/out"
    refused "$v=08" "$v=08: a whole number of .* without a leading zero" $v=08 OUT="$T/out"
    refused "$v=99999999999999999999" "$v=99999999999999999999: expected a whole number .*at most 8 digits" \
        $v=99999999999999999999 OUT="$T/out"
done
refused "OUT with a newline, shown as \\x0a" \
    "OUT=$T/a\\\\x0ab: a directory name with a newline or a single quote (gnuplot's strings)\$" OUT="$T/a${NL}b"
refused "OUT with a single quote" "OUT=$T/a'b: a directory name with a newline or a single quote" \
    OUT="$T/a'b"
mkdir "$T/old" && echo keep >"$T/old/mine"
env OUT="$T/old" sh "$ROOT/scripts/demo.sh" >"$T/log" 2>&1 && fail "an OUT that exists: fails" ||
    pass "an OUT that exists: fails"
check "... saying so in one line" test "$(grep -c "^demo: OUT=$T/old exists: " "$T/log")" -eq 1
check "... and leaves it as it was" test "$(ls -A "$T/old")" = mine -a "$(cat "$T/old/mine")" = keep

# The two levels (--pairs) are left out on links too slow for the
# MPI_Issend method's 2 MiB a repetition, said before anything runs: a
# stand-in for make that fails stops the demo at step 1.
mkdir "$T/nomake"
printf '#!/bin/sh\nexit 1\n' >"$T/nomake/make"
chmod +x "$T/nomake/make"
left_out() { # VAR=VALUE...: the demo's line on the two levels, or nothing
    env PATH="$T/nomake:$PATH" OUT="$T/lab" "$@" sh "$ROOT/scripts/demo.sh" 2>&1 |
        sed -n 's/^demo: the two levels (--pairs) will be left out: //p'
}
slow=$(left_out NODES=8 NIC=5mbit)
check "NODES=8 NIC=5mbit: the two levels left out, said before step 1 ($slow)" sh -c \
    "echo '$slow' | grep -q '^not on links shaped to 5mbit: .* about 6711 s at REPS=1000\$'"
check "NODES=2 NIC=1gbit:16000:1500 REPS=200 (about 7 s): measured" test -z "$(left_out NODES=2 NIC=1gbit:16000:1500 REPS=200)"
check "... and neither run wrote anything" test ! -e "$T/lab"

# A reader of the demo's messages that goes away (make demo | head -n 1):
# SIGPIPE ends the demo at its next message, and takes OUT, made by then,
# with it (SIGPIPE once killed the shell past its EXIT trap: OUT/data left).
# A stand-in for make holds the demo at step 1 until the reader is gone.
mkdir "$T/stub"
printf '#!/bin/sh\ni=0\nwhile [ ! -e "%s/gone" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done\n' \
    "$T" >"$T/stub/make"
chmod +x "$T/stub/make"
{ PATH="$T/stub:$PATH" REPS=10 OUT="$T/piped" sh "$ROOT/scripts/demo.sh" 2>&1; echo $? >"$T/piped.rc"; } |
    { head -n 1 >/dev/null; : >"$T/gone"; }
check "a demo whose reader is gone dies of SIGPIPE ($(cat "$T/piped.rc"))" test "$(cat "$T/piped.rc")" -eq 141
check "... and leaves no OUT" test ! -e "$T/piped"
done_testing
