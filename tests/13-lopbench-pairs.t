#!/bin/sh
# 13-lopbench-pairs.t - lopbench --pairs at -np 2, 3 and 4 (oversubscribed on
# small machines): pairs.csv (the paper's issend method, P x P rows with the
# diagonal), pairs-<series>.csv (P x (P - 1) rows), placement.csv (P rows),
# finite values, o_us and L_us >= 0, the metadata; --pairs-sample; the
# errors; lopredict --costs reads every file.  Tiny repetition counts: this
# checks the output, not the machine.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null   # not T=$(tmpdir): the trap would remove it at once
T=$_d
B=$BIN/lopbench
SMALL="--transport mpi --reps 3 --warmup 1 --idle-us 0"
# check_pairs NP DIR SAMPLED: every file of a default MPI run
check_pairs() {
    np=$1 dir=$2 sampled=$3
    check "np $np: pairs.csv has the P x P issend matrix (diagonal O_ii)" pairs_ok "$dir/pairs.csv" "$np" 1 "$sampled" 3
    for s in send-normal rdmaw-normal; do
        check "np $np: pairs-$s.csv has P x (P - 1) rows" pairs_ok "$dir/pairs-$s.csv" "$np" 0 "$sampled" 3
        check "np $np: pairs-$s.csv metadata" \
            test "$(meta "$dir/pairs-$s.csv" method)" = series -a "$(meta "$dir/pairs-$s.csv" series)" = "$s" \
                 -a "$(meta "$dir/pairs-$s.csv" transport)" = mpi -a "$(meta "$dir/pairs-$s.csv" p)" = "$np"
    done
    check "np $np: placement.csv '# hosts:' names the one node and its $np ranks" \
        test "$(meta "$dir/placement.csv" hosts)" = "1: $(meta "$dir/placement.csv" host) ($np ranks)"
    check "np $np: pairs.csv metadata (method issend over mpi, stat median)" \
        test "$(meta "$dir/pairs.csv" method)" = issend -a "$(meta "$dir/pairs.csv" transport)" = mpi \
             -a "$(meta "$dir/pairs.csv" stat | cut -d' ' -f1)" = median -a "$(meta "$dir/pairs.csv" ranks)" = "$np"
    check "np $np: # sampled: $( [ "$sampled" = 1 ] && echo yes || echo no)" \
        sh -c "grep -q '^# sampled: $( [ "$sampled" = 1 ] && echo yes || echo no):' '$dir/pairs.csv'"
    check "np $np: placement.csv has $np rows" placement_ok "$dir/placement.csv" "$np"
    check "np $np: exactly the 4 files" test "$(ls "$dir" | wc -l)" -eq 4
    for f in pairs.csv pairs-send-normal.csv pairs-rdmaw-normal.csv; do
        check "np $np: lopredict --costs reads $f" \
            sh -c "'$BIN/lopredict' --costs '$dir/$f' --model logp --alg diss --p $np --simulate --csv >'$T/pred' &&
                   grep -q '^diss,' '$T/pred'"
    done
}

# ---- -np 2, 3 (a bye per round), 4 (oversubscribed on a 2-core machine)
for np in 2 3 4; do
    run_mpi $np "$B" --pairs $SMALL -o "$T/np$np" >"$T/out$np" 2>"$T/err$np"
    check "np $np: exit 0" test $? -eq 0
    check_pairs $np "$T/np$np" 0
done
check "np 2: the summary prints the L matrix" grep -q '^  L_us (median; row i sends to column j)' "$T/out2"
check "np 3: # sampled says 3 rounds" sh -c "grep -q '^# sampled: no: .* 3 rounds' '$T/np3/pairs.csv'"
check "np 4: --pairs shows progress on stderr" grep -q 'pairs round' "$T/err4"

# ---- --pairs-sample: one pair per placement class fills the matrix
run_mpi 4 "$B" --pairs-sample $SMALL -o "$T/sample" --quiet >/dev/null 2>"$T/errs"
check "--pairs-sample: exit 0" test $? -eq 0
check_pairs 4 "$T/sample" 1
check "--pairs-sample: rows of one class carry the same numbers as their source" \
    awk -F, '/^#/ || /^i,/ { next } { key = $15 "," $16; v = $3 "," $4; if (key in val && val[key] != v) bad = 1; val[key] = v }
             END { exit bad }' "$T/sample/pairs-send-normal.csv"

# ---- choices: --method, --pairs-stat
run_mpi 2 "$B" --pairs $SMALL --method issend --pairs-stat min -o "$T/min" --quiet >/dev/null 2>&1
check "--method issend: exit 0" test $? -eq 0
check "--method issend: pairs.csv and placement.csv only" test "$(ls "$T/min" | wc -l)" -eq 2
check "--pairs-stat min: o_us is o_min_us (or 0)" \
    awk -F, '/^#/ || /^i,/ { next } { if ($3 != ($6 < 0 ? 0 : $6)) bad = 1 } END { exit bad }' "$T/min/pairs.csv"
run_mpi 3 "$B" --pairs $SMALL --method series --ops send --post normal -o "$T/series" --quiet >/dev/null 2>&1
check "--method series --ops send: one series file" \
    test "$(ls "$T/series" | tr '\n' ' ')" = "pairs-send-normal.csv placement.csv "

# ---- errors: one line, every rank stops by itself, nothing written
mpi_refuses "--pairs at -np 1" "option --pairs: needs at least 2 MPI ranks" 1 "$B" --pairs $SMALL -o "$T/o"
mpi_refuses "--pairs with --barrier" "options --barrier and --pairs are two modes" 2 "$B" --pairs --barrier -o "$T/o"
mpi_refuses "--method without --pairs" "option --method: only with --pairs" 2 "$B" --method issend -o "$T/o"
mpi_refuses "--method nonsense" "option --method" 2 "$B" --pairs --method nonsense -o "$T/o"
mpi_refuses "--pairs-stat nonsense" "option --pairs-stat" 2 "$B" --pairs --pairs-stat p42 -o "$T/o"
mpi_refuses "--method series with nothing the transport can post" "option --method: nothing to measure" \
    2 "$B" --pairs $SMALL --method series --ops rdmaw --post inline --quiet -o "$T/o"
check "--help documents --pairs" sh -c "'$B' --help | grep -q -- '--pairs-sample'"

done_testing
