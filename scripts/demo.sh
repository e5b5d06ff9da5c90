#!/bin/sh
# demo.sh - the main job end to end on this machine's local ranks (make demo):
#   lopbench (scenarios 1, 2) -> lopfit -> lopredict --verify, --best ->
#   lopbench --barrier -> lopredict --measured -> figures -> summary.txt
# Settings (environment or make variables):
#   NP=2       ranks for the barrier measurements
#   FIT_NP=8   ranks for scenarios 1 and 2: the 6-parameter RTT model needs
#              RTT(p) for p = 1..6 at least, i.e. 7 or more ranks
#   OUT=out/demo-<date>   where everything goes
#   REPS=1000  repetitions of every measurement
# Every command's failure stops the demo (set -e): the tools exit non-zero on
# bad input and on any failed write (a full disk), so no step works on the
# half output of the one before.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NP=${NP:-2}
FIT_NP=${FIT_NP:-8}
REPS=${REPS:-1000}
OUT=${OUT:-out/demo-$(date +%Y%m%d-%H%M%S)}
BIN=$ROOT/bin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # CI and containers run as root

say() { printf 'demo: %s\n' "$*" >&2; }
step() { say "[$1] $2"; }
# Local ranks, oversubscribed if need be, with any MPI.
run_mpi() {
    np=$1; shift
    if mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
        mpirun --oversubscribe -np "$np" "$@"
    else
        mpirun -np "$np" "$@"
    fi
}

start=$(date +%s)
step 1/8 "dependencies and build"
sh "$ROOT/scripts/deps.sh" --plots
make -s -C "$ROOT" -j2 tools
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
D=$OUT/data
mkdir -p "$D"

step 2/8 "lopbench scenarios 1 and 2 on $FIT_NP local ranks -> $D"
run_mpi "$FIT_NP" "$BIN/lopbench" --reps "$REPS" --warmup $((REPS / 10)) -o "$D" --quiet \
    >"$OUT/bench.txt"

step 3/8 "lopfit: RTT and overhead models, LogP line for comparison"
"$BIN/lopfit" --compare -o "$D" "$D"/*-rtt.csv "$D"/*-os.csv "$D"/*-or.csv >"$OUT/fit.txt"

# The series this machine's predictions use: two-sided sends, minimum times.
PARAMS="--params $D/params.csv --series send-normal --stat min"
step 4/8 "lopredict --verify and --best with the fitted parameters"
"$BIN/lopredict" --verify --p 2..64 $PARAMS >"$OUT/verify.txt"
"$BIN/lopredict" --best --p 2,4,8,16,32,64 $PARAMS >"$OUT/best.txt"
for cnt in 2 5000; do
    "$BIN/lopredict" --alg all --p 2..64 --cnt $cnt --csv $PARAMS >"$D/predict-cnt$cnt.csv"
done
"$BIN/lopredict" --alg ndiss --n 1..10 --p 16,64,256 --cnt 5000 --csv $PARAMS >"$D/ndiss.csv"

step 5/8 "lopbench --barrier on $NP local ranks"
run_mpi "$NP" "$BIN/lopbench" --barrier --reps "$REPS" --warmup $((REPS / 10)) -o "$D" \
    --quiet >"$OUT/barrier.txt"

step 6/8 "lopredict --measured: which model describes this machine"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat min \
    >"$OUT/measured.txt"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat min --csv \
    >"$D/measured.csv"

step 7/8 "figures of this machine, and the thesis's (Mozart 2005) for comparison"
# plot.sh says which figures it skips and why (exit 0); a failure stops the demo
# like any other tool's (set -e), after showing what it said.
sh "$ROOT/plots/plot.sh" "$D" "$OUT/figures" 2>"$OUT/plots.txt" || {
    cat "$OUT/plots.txt" >&2
    exit 1
}
cat "$OUT/plots.txt" >&2
sh "$ROOT/plots/figures-mozart.sh" "$OUT/figures-mozart" >"$OUT/figures-mozart.txt" 2>&1 || {
    cat "$OUT/figures-mozart.txt" >&2
    exit 1
}

step 8/8 "summary"
{
    echo "lop demo, $(date '+%Y-%m-%d %H:%M'), host $(hostname)"
    echo "scenarios on $FIT_NP ranks, barriers on $NP ranks, $(nproc) CPUs, $REPS repetitions"
    echo
    echo "== Measured (lopbench, $D) =="
    cat "$OUT/bench.txt"
    echo
    echo "== Fitted parameters (lopfit) =="
    cat "$OUT/fit.txt"
    echo
    echo "== Best algorithm per P (lopredict --best, send-normal min) =="
    cat "$OUT/best.txt"
    echo
    echo "== Barriers measured (lopbench --barrier) =="
    cat "$OUT/barrier.txt"
    echo
    echo "== Model errors (lopredict --measured) =="
    grep '^#' "$OUT/measured.txt" | grep -v -e '^# lopredict' -e '^# measured'
    echo
    echo "== Figures =="
    cat "$OUT/plots.txt"
    echo "thesis figures 2.36, 2.38, 2.39 from the Mozart set: $OUT/figures-mozart"
} >"$OUT/summary.txt"

say "done in $(($(date +%s) - start)) s; everything is in $OUT:"
say "  summary.txt  fitted parameters, best algorithm per P, model errors"
say "  data/        lopbench, lopfit and lopredict CSVs"
say "  figures/     $(ls "$OUT/figures" 2>/dev/null | tr '\n' ' ')"
say "  figures-mozart/  the thesis's figures 2.36, 2.38, 2.39 from its published parameters"
say "  bench.txt fit.txt verify.txt best.txt barrier.txt measured.txt  tool outputs"
