#!/bin/sh
# vs-mpi.sh - lop's p2p executor against the MPI library's own barrier of
# the same pattern: MPI_Barrier forced to one algorithm (Open MPI's
# coll/tuned, MPICH's CVARs) and lop's schedule of that pattern, timed in
# the same lopbench --barrier run, ROUNDS runs each; then MPI's default
# MPI_Barrier against lop's fastest algorithm.  Prints one table, medians
# of the runs' medians (us) and lop's time relative to MPI's: the median of
# the runs' ratios, both rows of a ratio from one launch (on a machine
# whose speed changes from launch to launch, a ratio of medians of
# different launches would mix those changes in), as an entry of
# perf/README.md (perf/lib.sh).
#   MACHINE, NODES, NIC, MPI, NP  the machine (scripts/machine.sh)
#   REPS=200       barriers timed per algorithm and run
#   ROUNDS=3       runs per pairing (their medians are reported)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOL=vs-mpi.sh
. "$ROOT/scripts/machine.sh"
. "$ROOT/perf/lib.sh"
REPS=${REPS:-200}
ROUNDS=${ROUNDS:-3}
machine_check
whole REPS "$REPS"; whole ROUNDS "$ROUNDS"
[ "$REPS" -ge 10 ] || die "REPS=$REPS: at least 10 (a tenth of them warm up)"
[ "$ROUNDS" -ge 1 ] || die "ROUNDS=$ROUNDS: at least 1"

# The pairings: MPI's name of the pattern, the launcher words that force it,
# lop's algorithm of the same pattern.  Open MPI 4.1 coll/tuned numbers its
# barriers 1 linear, 2 double ring, 3 recursive doubling, 4 bruck, 5 two
# processes, 6 tree (a binomial fan-in to rank 0 and fan-out: rank 0
# receives from 1, 2, 4 ... and releases 4, 2, 1, lop's tour, not bst,
# whose tree is another); MPICH 4.0
# offers dissemination by name (the device's own collectives off).  "default"
# is the library's own choice against lop's fastest algorithm.
pairings() {
    if [ "$MPI" = openmpi ]; then
        F="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_barrier_algorithm"
        echo "linear|$F 1|cc"
        echo "recursive doubling|$F 3|pe"
        echo "bruck|$F 4|diss"
        echo "tree|$F 6|tour"
    else
        echo "dissemination|-genv MPIR_CVAR_DEVICE_COLLECTIVES none -genv MPIR_CVAR_BARRIER_INTRA_ALGORITHM dissemination|diss"
    fi
    echo "default||all"
}

machine_build
W=$(mktemp -d /tmp/lop-vs-mpi.XXXXXX)
trap 'machine_down; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
machine_up

# median FILE: the middle of the numbers in FILE, one a line
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
perf_title "MACHINE=$MACHINE${CLUSTER:+ NODES=$NODES}$([ "$MACHINE" = lab ] && echo " NIC=$NIC") MPI=$MPI REPS=$REPS ROUNDS=$ROUNDS sh perf/vs-mpi.sh"
echo "$WHAT; $MPI_VERSION; load $(perf_load) at the start."
echo
perf_header "MPI's pattern" "MPI_Barrier (us)" "lop p2p" "lop (us)" "lop vs MPI"
pairings | while IFS='|' read -r pattern words alg; do
    : >"$W/mpi" && : >"$W/lop" && : >"$W/ratio"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        r=$((r + 1))
        LAUNCH=$words bench "$W" run --barrier --executor p2p,mpi --alg "$alg" --reps "$REPS" \
            --warmup $((REPS / 10)) -o "$W/d$r" --quiet
        f=$W/d$r/barrier.csv
        awk -F, '$1 == "mpi" { print $9 }' "$f" >>"$W/mpi"
        # the fastest of lop's rows (one row unless alg is all)
        awk -F, '$1 == "p2p" && (best == "" || $9 < best) { best = $9; name = $3 } END { print best, name }' "$f" >>"$W/lop"
        awk -F, '$1 == "mpi" { m = $9 } $1 == "p2p" && (best == "" || $9 < best) { best = $9 }
                 END { print best / m }' "$f" >>"$W/ratio"
        rm -rf "$W/d$r"
    done
    m=$(median "$W/mpi")
    l=$(cut -d' ' -f1 "$W/lop" >"$W/lopv" && median "$W/lopv")
    name=$(sort -g "$W/lop" | awk 'NR == 1 { print $2 }')
    [ "$alg" = all ] && name="$name (fastest)"
    perf_row "$pattern" "$(printf %.2f "$m")" "$name" "$(printf %.2f "$l")" \
        "$(median "$W/ratio" | awk '{ printf "%+.0f %%", ($1 - 1) * 100 }')"
done
echo
echo "Medians of $ROUNDS runs' medians of $REPS barriers each, and of their ratios; load $(perf_load) at the end."
