#!/bin/sh
# 52-mpich.t - lop under MPICH, the second supported MPI: build an MPICH
# flavor of lopbench apart from bin/ (build/mpich/, `make MPICC=mpicc.mpich
# BIN=... TESTBIN=...`), then at -np 2 under mpirun.mpich: the scenarios
# (shared memory and --rma put), --check of every algorithm on p2p and shm
# (each witness; a schedule that is no barrier caught by both), a
# timed run, --pairs, the send-buffer interposer, and the -np 1 error path.  -np 2
# only: MPICH busy-polls, so oversubscribed runs crawl on small machines.
. "$(dirname "$0")/lib.sh"
if ! command -v mpicc.mpich >/dev/null 2>&1 || ! command -v mpirun.mpich >/dev/null 2>&1; then
    echo "1..0 # SKIP MPICH not installed (scripts/deps.sh installs mpich, libmpich-dev)"
    exit 0
fi
tmpdir
T=$_d
OUT=$MPICH_OUT
mpich_build "$T/build"
check "make MPICC=mpicc.mpich builds lopbench into $OUT/bin" test -x "$ROOT/$OUT/bin/lopbench"
[ -x "$ROOT/$OUT/bin/lopbench" ] || diag "$(tail -n 20 "$T/build")"
# counts of algorithms from the default build's lopredict (this build has
# lopbench only): with a schedule, and of those taking an n (--n 1..3: 3 runs)
N_SCHED=$(algs schedule=yes | wc -l)
N_TAKES_N=$(algs schedule=yes takes_n=yes | wc -l)
RUNS=$((2 * (N_SCHED + 2 * N_TAKES_N)))
MPIRUN=mpirun.mpich
BIN=$ROOT/$OUT/bin
TESTBIN=$ROOT/$OUT/tests/bin
B=$BIN/lopbench
check "the MPICH build links MPICH" sh -c "ldd '$B' | grep -q libmpich"
PAIRS_SMALL="--transport mpi --reps 5 --warmup 2 --idle-us 20"
SMALL="$PAIRS_SMALL --max-post 4" # --max-post: the scenarios' alone

run_mpi 2 "$B" $SMALL -o "$T/s" --quiet >"$T/s.out" 2>&1
check "scenarios: exit 0" test $? -eq 0
check "scenarios: the 10 files of an MPI run" test "$(ls "$T/s" | wc -l)" -eq 10
check "scenarios: the device line names MPICH" grep -q '^# device: MPICH' "$T/s/send-normal-rtt.csv"
run_mpi 2 "$B" $SMALL --ops rdmaw --rma put -o "$T/put" --quiet >"$T/put.out" 2>&1
check "--rma put scenarios: exit 0" test $? -eq 0
check "--rma put: rdmaw-normal-rtt.csv" test -s "$T/put/rdmaw-normal-rtt.csv"

run_mpi 2 "$B" --barrier --check --executor p2p,shm --n 1..3 --reps 12 --warmup 2 --quiet \
    >"$T/check" 2>&1
check "--check: every algorithm on p2p and shm ($RUNS runs)" grep -q "^--check: all $RUNS runs ok" "$T/check"
run_mpi 2 "$B" --barrier --check --check-witness two-sided --executor p2p,shm --n 1..3 --reps 12 \
    --warmup 2 --quiet >"$T/check2" 2>&1
check "--check, two-sided witness: every algorithm on p2p and shm ($RUNS runs)" \
    grep -qx -- "--check: all $RUNS runs ok (two-sided witness)" "$T/check2"
# Half a barrier (rank 0 sends, rank 1 waits): rank 0 leaves before rank 1
# entered whenever rank 1's delay is the longer; run by the test hook.
printf '# p: 2\nrank,step,op,peer\n0,0,send,1\n1,0,recv,0\n' >"$T/half.csv"
for w in one-sided two-sided; do
    LOP_TEST_SCHEDULE_UNCHECKED=1 run_mpi 2 "$B" --barrier --check --check-witness $w \
        --executor p2p,shm --schedule "$T/half.csv" --reps 100 >"$T/half.out" 2>&1
    rc=$?
    caught="^lopbench: --check: 2 of 2 runs let a rank leave a barrier before every rank had entered it ($w witness)"
    check "$w witness: half a barrier caught on p2p and shm (exit $rc)" grep -q "$caught" "$T/half.out"
    grep -q "$caught" "$T/half.out" || diag "$(cat "$T/half.out")"
done
run_mpi 2 "$B" --barrier --check --executor shm --rma put --reps 12 --quiet >"$T/check-put" 2>&1
check "--check: every algorithm on shm --rma put" grep -q "^--check: all $N_SCHED runs ok" "$T/check-put"
run_mpi 2 "$B" --barrier --reps 20 --warmup 2 -o "$T/b" --quiet >"$T/timed" 2>&1
check "timed run: barrier.csv with p2p, shm and MPI_Barrier rows" \
    test "$(grep -c -e '^p2p,' -e '^shm,' -e '^mpi,' "$T/b/barrier.csv" 2>/dev/null)" -eq 25

run_mpi 2 "$B" --pairs $PAIRS_SMALL -o "$T/pairs" --quiet >"$T/pairs.out" 2>&1
check "--pairs: exit 0" test $? -eq 0
check "--pairs: pairs.csv (4 rows), 2 series files (2 rows each), placement.csv" \
    test "$(cat "$T/pairs/pairs.csv" "$T/pairs/pairs-send-normal.csv" "$T/pairs/pairs-rdmaw-normal.csv" \
            "$T/pairs/placement.csv" 2>/dev/null | grep -c '^[0-9]')" -eq 10
check "--pairs: lopredict --costs reads pairs.csv" \
    sh -c "'$ROOT/bin/lopredict' --costs '$T/pairs/pairs.csv' --model logp --alg diss --p 2 --simulate >/dev/null"

sendbuf_catches "MPICH"
sendbuf_clean "MPICH -np 2 scenarios" 2 "$B" $SMALL -o "$T/s2" --quiet
sendbuf_clean "MPICH -np 2 barrier --check, every executor" 2 "$B" --barrier --check \
    --executor p2p,shm,mpi --reps 12 --warmup 2 --quiet
sendbuf_clean "MPICH -np 2 barrier timed, every executor" 2 "$B" --barrier \
    --executor p2p,shm,mpi --reps 20 --warmup 2 -o "$T/b2" --quiet

mpi_refuses "MPICH, one rank" "needs at least 2 MPI ranks" 1 "$B" --transport mpi -o "$T/o"
done_testing
