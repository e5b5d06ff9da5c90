#!/bin/sh
# 43-lopbench-hybrid.t - lopbench --barrier --alg hybrid: built from
# --placement (costs per level), --placement + --pairs-file, or the run's own
# placement, it passes
# --check on every executor that runs here at -np 2, 3, 4 (oversubscribed
# above 2), a timed run records its rows, and bad input stops every rank.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
B=$BIN/lopbench

# Two hosts of two ranks; b's ranks on two sockets: three tiers at P = 4.
printf '# lopbench: test\nrank,host,socket,numa,core\n0,a,0,0,0\n1,a,0,0,1\n2,b,0,0,0\n3,b,1,1,0\n' \
    >"$T/placement.csv"
"$BIN/lopredict" --alg diss --p 4 --simulate --model logp --topology 2x2 --level-L 3,0.2 \
    --level-o 0.5,0.1 --write-costs "$T/pairs.csv" >/dev/null

for np in 2 3 4; do
    run_mpi $np "$B" --barrier --check --alg hybrid --placement "$T/placement.csv" --reps 12 \
        --warmup 2 --quiet >"$T/check$np" 2>&1
    rc=$?
    runs=$(grep -c '^check .* hybrid ' "$T/check$np")
    check "-np $np: --check passes for the hybrid on every executor ($runs)" \
        sh -c "test $rc -eq 0 && test $runs -ge 2 && grep -q '^--check: all .* runs ok' '$T/check$np'"
    [ $rc -eq 0 ] || diag "$(cat "$T/check$np")"
done
# Without --placement: the run's own (bench/place_gather.h), with --pairs-file's costs.
run_mpi 3 "$B" --barrier --check --alg hybrid --pairs-file "$T/pairs.csv" --reps 12 --warmup 2 \
    --quiet >"$T/own3" 2>&1
check "-np 3: the run's own placement: --check passes" grep -q '^--check: all .* runs ok' "$T/own3"
run_mpi 4 "$B" --barrier --check --alg hybrid --placement "$T/placement.csv" \
    --pairs-file "$T/pairs.csv" --reps 12 --warmup 2 --quiet >"$T/pairs4" 2>&1
check "-np 4: --pairs-file costs: --check passes" grep -q '^--check: all .* runs ok' "$T/pairs4"

run_mpi 2 "$B" --barrier --alg hybrid,diss --placement "$T/placement.csv" --executor p2p \
    --reps 20 --warmup 2 -o "$T/run" --quiet >"$T/timed" 2>&1
check "a timed run records a hybrid row" grep -q '^p2p,[^,]*,hybrid,,2,20,' "$T/run/barrier.csv"
check "lopredict --measured reads the hybrid rows and says they are not predicted" \
    sh -c "'$BIN/lopredict' --measured '$T/run/barrier.csv' --csv | grep -q '^# hybrid rows: not predicted'"

# Bad input: one line, every rank stops.
refuses_one_line "--placement without --alg hybrid" 2 "option --placement: only with --alg hybrid" \
    "$B" --barrier --alg diss --placement "$T/placement.csv"
run_mpi 2 "$B" --barrier --check --alg hybrid --placement "$T/nosuch.csv" --quiet >"$T/bad" 2>&1
check "a missing placement file stops the run with its name" \
    sh -c "test $? -ne 0 && grep -q 'nosuch.csv' '$T/bad'"

done_testing
