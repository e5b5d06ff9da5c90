#!/bin/sh
# validate.sh - how right are the predictions on this machine?  Measure
# (lopbench scenarios 1, 2 and 3, the gap) and run every barrier algorithm, in
# one launch (lopbench --barrier --with-scenarios) -> fit (lopfit) -> predict
# (lopredict --measured) -> the fidelity table:
# per executor x algorithm x P the measured time and p99, each model's
# prediction with its 95 % interval, the error and whether the measurement is
# inside; per model the median |error| and the share inside; a figure.
# Settings (environment or make variables; make validate MACHINE=lab ...):
#   MACHINE, NODES, NIC, MPI, NP  the machine (scripts/machine.sh)
#   REPS=200       repetitions of every measurement and barrier
#   STAT=median    the statistic fitted, predicted and compared: min, avg, median
#   IDLE_US=1000   scenario 2's cool-down after each round's barrier (machine.sh)
#   OUT=out/validate-<machine>-<date>   where it goes: complete, or not there
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOL=validate.sh
. "$ROOT/scripts/machine.sh"
REPS=${REPS:-200}
STAT=${STAT:-median}

OUT=${OUT:-out/validate-$MACHINE-$(date +%Y%m%d-%H%M%S)}

# ---- every setting checked before anything is written
machine_check
case $STAT in min | avg | median) ;; *) die "STAT=$STAT: expected min, avg or median" ;; esac
whole REPS "$REPS"
[ "$REPS" -ge 10 ] || die "REPS=$REPS: at least 10 (a tenth of them warm up)"
case $OUT in *'
'* | *"'"*) die "OUT=$OUT: a directory name with a newline or a single quote (gnuplot's strings)" ;; esac
[ ! -e "$OUT" ] || die "OUT=$OUT exists: the table goes into a new directory"

# ---- build, then the directory: work in OUT.partial, renamed at the end
machine_build
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
W=$OUT.partial
cleanup() {
    machine_down
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$W"
mkdir "$W" "$W/data"
D=$W/data
start=$(date +%s)

machine_up

# One launch measures the model's parameters and then times the barriers:
# a machine whose speed differs from launch to launch (this guest's did, 2x)
# is then predicted in the state it runs the barriers in.
say "[1/3] lopbench scenarios 1, 2 and 3, then every algorithm for real ($REPS repetitions, $REPS barriers each)"
bench "$W" bench --barrier --with-scenarios --scenario 1,2,3 --idle-us "$IDLE_US" --reps "$REPS" \
    --warmup $((REPS / 10)) --max-post 8 -o "$D" --quiet
say "[2/3] lopfit ($STAT and the others)"
fit_series "$BIN/lopfit" "$D" >"$W/fit.txt"
say "[3/3] lopredict --measured --stat $STAT: the fidelity table"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat "$STAT" --csv >"$D/measured.csv"

secs=$(($(date +%s) - start))
fidelity "$W" "$D" "$STAT" "$REPS" "$secs"
mv "$W" "$OUT"
cat "$OUT/fidelity.txt"
say "done in $secs s: $OUT (fidelity.txt, fidelity.csv, fidelity.png, data/)"
