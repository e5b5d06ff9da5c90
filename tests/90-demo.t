#!/bin/sh
# 90-demo.t - make demo (the README's main job) runs end to end with NP=2 and
# produces every expected file.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
tmpdir
T=$_d
make -s -C "$ROOT" demo NP=2 OUT="$T/demo" >"$T/log" 2>&1
rc=$?
check "make demo NP=2 succeeds" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(tail -20 "$T/log")"
check "it says where everything went" grep -q "everything is in $T/demo" "$T/log"
D=$T/demo/data
for f in send-normal-rtt send-normal-os send-normal-or send-list-os rdmaw-normal-rtt \
    rdmaw-normal-os params lop-send-normal-min lop-rdmaw-normal-avg predict-cnt2 \
    predict-cnt5000 ndiss barrier measured; do
    check "data/$f.csv" test -s "$D/$f.csv"
done
for f in summary bench fit verify best barrier measured; do
    check "$f.txt" test -s "$T/demo/$f.txt"
done
for fig in rtt overhead latency predict ndiss measured; do
    check "figures/$fig.png is a PNG" sh -c \
        "head -c 8 '$T/demo/figures/$fig.png' | od -An -c | grep -q 'P   N   G'"
done
for fig in latency predict ndiss; do
    check "figures-mozart/$fig.png" test -s "$T/demo/figures-mozart/$fig.png"
done
S=$T/demo/summary.txt
check "summary: fitted parameters" grep -q '^rdmaw-normal rtt min' "$S"
check "summary: best algorithm per P" grep -q -E '^64 +lop ' "$S"
check "summary: the barriers next to MPI_Barrier" grep -q 'avg / MPI_Barrier' "$S"
check "summary: model errors and a verdict" grep -q '^# closest to the measurements: ' "$S"
check "barrier.csv has MPI_Barrier and both executors at P = 2" \
    test "$(grep -c -e '^p2p,' -e '^shm,' -e '^mpi,' "$D/barrier.csv")" -eq 25
done_testing
