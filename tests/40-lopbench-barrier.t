#!/bin/sh
# 40-lopbench-barrier.t - lopbench --barrier: every algorithm passes --check on
# p2p and shm at -np 2, 3, 4 (oversubscribed here) with each witness, a
# broken schedule is refused, and run anyway (a test hook) caught by each
# witness, a timed run writes barrier.csv, --with-scenarios measures the
# scenarios first in the same launch, and bad input stops every rank.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
B=$BIN/lopbench

# The executors' matrix, in GSL test.c's manner (a line per failing run, one
# test point per -np): --check of every algorithm with a schedule (n = 1..3
# where it takes one, lopredict --list-algs) on every executor that runs
# here (lopbench's default: p2p, shm and MPI_Barrier at least; verbs where
# there is an RDMA device, 50-verbs-vm.t), at -np 2, 3, 4.
N_SCHED=$(algs schedule=yes | wc -l) # the algorithms with a schedule
matrix_want() { # the runs the executors that ran in $1 must have made
    for x in $(awk '/^check / && $2 != "mpi" { print $2 }' "$1" | sort -u); do
        for a in $(algs schedule=yes takes_n=no); do echo "$x $a n=-"; done
        for a in $(algs schedule=yes takes_n=yes); do
            for n in 1 2 3; do echo "$x $a n=$n"; done
        done
    done
    echo "mpi MPI_Barrier n=-"
}
# Each witness (bench/witness.h): the one-sided counter auto takes on one
# node, and the two-sided one auto takes across nodes, forced here.
for w in one-sided two-sided; do
for np in 2 3 4; do
    run_mpi $np "$B" --barrier --check --check-witness $w --n 1..3 --reps 12 --warmup 2 --quiet \
        >"$T/check$np" 2>&1
    rc=$?
    awk '/^check / { print $2, $3, $4 }' "$T/check$np" | sort >"$T/ran$np"
    matrix_want "$T/check$np" | sort >"$T/want$np"
    runs=$(wc -l <"$T/want$np")
    bad=$(grep '^check ' "$T/check$np" | grep -v ' ok (' | sed "s/^/FAIL -np $np: /"
          comm -3 "$T/want$np" "$T/ran$np" |
              awk -F'\t' '{ print ($1 == "" ? "run, not wanted: " $2 : "wanted, not run: " $1) }')
    [ -z "$bad" ] || diag "$bad"
    [ $rc -eq 0 ] || diag "$(tail -n 5 "$T/check$np")"
    execs=$(cut -d' ' -f1 "$T/want$np" | uniq | paste -sd ' ')
    check "$w witness, -np $np: $runs runs (executors $execs, every algorithm and n), all ok" \
        sh -c "[ $rc -eq 0 ] && grep -qx -- '--check: all $runs runs ok ($w witness)' '$T/check$np' &&
               cmp -s '$T/want$np' '$T/ran$np' && grep -q '^p2p ' '$T/ran$np' &&
               grep -q '^shm ' '$T/ran$np'"
done
run_mpi 3 "$B" --barrier --check --check-witness $w --executor shm --alg diss,comb --rma put \
    --reps 12 --quiet >"$T/put" 2>&1
check "$w witness, --rma put (atomic put + flush): --check passes" \
    grep -q '^--check: all 2 runs ok' "$T/put"
done
run_mpi 2 "$B" --barrier --check --executor p2p --alg diss --reps 4 >"$T/auto" 2>&1
check "on one node auto takes the one-sided witness, and says so" \
    sh -c "grep -q '^lopbench: --check.s witness: one-sided (' '$T/auto' &&
           grep -qx -- '--check: all 1 runs ok (one-sided witness)' '$T/auto'"

# A schedule that is not a barrier: dissemination for 4 ranks without rank
# 1's round-1 message to rank 3, so rank 3 never hears of ranks 0 and 1.
"$BIN/lopredict" --schedule --alg diss --p 4 >"$T/diss4.csv"
grep -v -e '^1,1,send,3$' -e '^3,1,recv,1$' "$T/diss4.csv" >"$T/broken.csv"
check "the broken schedule lost exactly two operations" \
    test "$(($(wc -l <"$T/diss4.csv") - $(wc -l <"$T/broken.csv")))" -eq 2
# The checker refuses it before any rank runs it (tests/42-lopbench-schedule-file.t).
for x in p2p shm; do
    mpi_refuses "$x: a schedule that is no barrier is refused before it runs" \
        "option --schedule: not run: .*broken.csv: schedule diss: not a barrier: rank 3 ends without knowing" 4 \
        "$B" --barrier --check --executor $x --schedule "$T/broken.csv" --reps 40 -o "$T/o"
done
# Run anyway (the test hook), each witness catches a rank 3 that leaves
# before rank 0 or 1 entered, on either executor, and passes the intact file.
for w in one-sided two-sided; do
    for x in p2p shm; do
        LOP_TEST_SCHEDULE_UNCHECKED=1 run_mpi 4 "$B" --barrier --check --check-witness $w \
            --executor $x --schedule "$T/broken.csv" --reps 100 >"$T/caught" 2>&1
        rc=$?
        check "$w witness, $x: the broken schedule's early exits caught (exit $rc)" \
            sh -c "[ $rc -eq 1 ] && grep -q '^check $x  *file:broken.csv .* FAILED ([0-9]* exits, [1-9][0-9]* early)' '$T/caught' &&
                   grep -q 'lopbench: --check: 1 of 1 runs let a rank leave a barrier before every rank had entered it ($w witness)' '$T/caught'"
        [ $rc -eq 1 ] || diag "$(tail -n 4 "$T/caught")"
    done
    LOP_TEST_SCHEDULE_UNCHECKED=1 run_mpi 4 "$B" --barrier --check --check-witness $w \
        --executor p2p,shm --schedule "$T/diss4.csv" --reps 20 --quiet >"$T/good" 2>&1
    check "$w witness: the intact schedule file passes --check on p2p and shm" \
        grep -qx -- "--check: all 2 runs ok ($w witness)" "$T/good"
done
check "the hook says it runs a schedule that is no barrier" \
    grep -q '^lopbench: warning: LOP_TEST_SCHEDULE_UNCHECKED: running it anyway: .*broken.csv: schedule diss: not a barrier' "$T/caught"

# A timed run: every executor that can run here, every algorithm, one file.
run_mpi 2 "$B" --barrier --reps 20 --warmup 2 -o "$T/run" --quiet >"$T/timed" 2>&1
csv=$T/run/barrier.csv
check "timed run writes barrier.csv" test -s "$csv"
check "... '# hosts:' names the one node and its ranks" \
    test "$(meta "$csv" hosts)" = "1: $(meta "$csv" host) ($(meta "$csv" ranks) ranks)"
check "header" grep -qx 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p90_us,p99_us,p999_us,max_us,condition,impact_avg,impact_p99' "$csv"
for key in executors ranks oversubscribed timer repetitions unit; do
    check "metadata '$key'" grep -q "^# $key: " "$csv"
done
check "rows: p2p and shm for $N_SCHED algorithms, one MPI_Barrier" \
    test "$(grep -c -e '^p2p,' -e '^shm,' "$csv"),$(grep -c '^mpi,,MPI_Barrier,,2,' "$csv")" = "$((2 * N_SCHED)),1"
check "series: each executor's own (p2p send-normal, shm rdmaw-normal, none for MPI_Barrier)" \
    awk -F, '/^#/ || $1 == "executor" { next }
             { want = $1 == "p2p" ? "send-normal" : $1 == "shm" ? "rdmaw-normal" : "" }
             $2 != want { bad = 1 }
             END { exit bad }' "$csv"
"$BIN/lopredict" --measured "$csv" --csv >"$T/measured.csv" 2>"$T/measured.err"
check "lopredict --measured reads the series column (no warning)" \
    sh -c "[ $? -eq 0 ] && [ ! -s '$T/measured.err' ] && grep -q '^p2p,diss,,2,send-normal,' '$T/measured.csv'"
check "n is empty exactly for algorithms that take none (as in lopredict)" awk -F, \
    -v takes_n="^($(algs takes_n=yes | paste -sd '|'))\$" '
    /^#/ || $1 == "executor" { next }
    ($3 ~ takes_n) != ($4 ~ /^[1-9][0-9]*$/) { bad = 1 }
    $4 != "" && $4 !~ /^[1-9][0-9]*$/ { bad = 1 }
    END { exit bad }' "$csv"
check "every time is finite, positive and min <= avg <= max; isolated, no impact" awk -F, '
    /^#/ || $1 == "executor" { next }
    { for (i = 7; i <= 13; i++) if ($i !~ /^[0-9.]+$/ || $i <= 0) bad = 1
      if ($7 > $8 || $8 > $13) bad = 1
      if ($14 != "isolated" || $15 != "" || $16 != "") bad = 1 }
    END { exit bad }' "$csv"
check "the definition says what summarise computes (the slowest-mean rank's iterations)" \
    grep -q "^# definition: .*min/median/p90/p99/p999/max over the per-iteration times of that slowest-mean rank" "$csv"
check "barrier-hist.csv beside it (every timed run)" test -s "$T/run/barrier-hist.csv"
check "the summary compares with MPI_Barrier" grep -q 'avg / MPI_Barrier' "$T/timed"

# Two ranks confined to one CPU (as by a cpuset or a batch system) share it,
# however many CPUs the machine has online.
if command -v taskset >/dev/null 2>&1; then
    run_mpi 2 taskset -c 0 "$B" --barrier --executor mpi --reps 5 -o "$T/one" --quiet \
        >/dev/null 2>&1
    check "2 ranks bound to one CPU are recorded as oversubscribed" \
        grep -qx '# oversubscribed: yes' "$T/one/barrier.csv"
fi

# --barrier --with-scenarios: the scenarios, then the barriers, in one launch
# and one directory (make validate's run: the parameters measured in the
# state the barriers run in).
run_mpi 3 "$B" --barrier --with-scenarios --scenario 3 --max-post 2 --alg cc,diss --executor p2p,mpi \
    --reps 20 --warmup 2 --quiet -o "$T/cal" >"$T/cal.out" 2>&1
check "--barrier --with-scenarios --scenario 3: exit 0" test $? -eq 0
check "... scenario 3's files (prtt, exch, ring) beside barrier.csv" sh -c \
    "cd '$T/cal' && test -s send-normal-prtt.csv && test -s send-normal-exch.csv && test -s send-normal-ring.csv && test -s barrier.csv"
check "... no file of scenarios 1 and 2 (--scenario 3 alone)" \
    sh -c "! ls '$T/cal' | grep -q -e '-rtt.csv\$' -e '-os.csv\$'"
check "... p2p's cc and diss at 3 ranks and MPI_Barrier timed" sh -c \
    "grep -q '^p2p,send-normal,cc,,3,20,' '$T/cal/barrier.csv' && grep -q '^p2p,send-normal,diss,,3,20,' '$T/cal/barrier.csv' && grep -q '^mpi,,MPI_Barrier,,3,20,' '$T/cal/barrier.csv'"
check "... both reports on stdout, the scenarios' first" \
    sh -c "grep -n -e '^send-normal  *prtt' -e '^p2p  *cc' '$T/cal.out' | cut -d: -f2 | cut -c1-3 | tr '\n' ' ' | grep -qx 'sen p2p '"
[ "$_tap_failed" -eq 0 ] || diag "$(tail -n 5 "$T/cal.out")"
mpi_refuses "--with-scenarios without --barrier" "option --with-scenarios: only with --barrier" 2 \
    "$B" --with-scenarios -o "$T/o"
mpi_refuses "--with-scenarios --check" "option --check has no effect with --barrier --with-scenarios" \
    2 "$B" --barrier --with-scenarios --check -o "$T/o"

# Bad input stops every rank with one line and no output.
refuses() {
    name=$1 pattern=$2 np=$3
    shift 3
    mpi_refuses "$name" "$pattern" "$np" "$B" --barrier --reps 2 -o "$T/o" "$@"
}
refuses "more ranks than given" "option --p: 8 needs more ranks than the 4 given" 4 --p 2,8
refuses "unknown executor" "option --executor: unknown value 'tcp'" 2 --executor p2p,tcp
refuses "verbs without a device" "executor verbs: no RDMA device" 2 --executor verbs
refuses "unknown algorithm" "option --alg: unknown algorithm 'fast'" 2 --alg diss,fast
refuses "a cost-only algorithm" "option --alg: 'hwswitch' is a cost model only" 2 --alg hwswitch
refuses "schedule for more ranks" "the schedule is for 4 ranks, only 2 given" 2 \
    --schedule "$T/diss4.csv"
refuses "missing schedule file" "nosuch.csv: cannot open" 2 --schedule "$T/nosuch.csv"
mpi_refuses "--check without --barrier" "option --check: only with --barrier" 2 "$B" --check \
    -o "$T/o"
mpi_refuses "--mcast-nak-ms without --barrier" "option --mcast-nak-ms: only with --barrier" 2 \
    "$B" --mcast-nak-ms 5 -o "$T/o"
# --check-witness's values, and the test hooks (bench/README.md), malformed
LOP_TEST_SCHEDULE_UNCHECKED=yes refuses "LOP_TEST_SCHEDULE_UNCHECKED=yes" \
    "LOP_TEST_SCHEDULE_UNCHECKED: 'yes' is not 1" 2
refuses "--check-witness unknown" "option --check-witness: unknown value 'rma'" 2 --check \
    --check-witness rma
refuses "--check-witness without --check" "option --check-witness: only with --check" 2 \
    --check-witness two-sided
LOP_TEST_MCAST_DROP=1 refuses "LOP_TEST_MCAST_DROP=1" "LOP_TEST_MCAST_DROP: '1' is not RANK:K" 2
done_testing
