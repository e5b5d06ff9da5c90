#!/bin/sh
# mkfixture.sh - regenerate the fixture data of tests/62-plots-pairs.t with the
# tools themselves, so that the fixture has exactly their formats.
#
#   sh tests/data/pairs/mkfixture.sh     (needs a built tree and mpirun; a few s)
#
# pairs.csv, pairs-send-normal.csv and placement.csv are the unedited output of
# lopbench --pairs over MPI at 4 ranks on this 2-core machine (oversubscribed,
# few repetitions: the figure's input, not a measurement to quote);
# machine-rr.csv is lopredict's synthetic 2x2x5 machine under round-robin
# placement (20 ranks: the figure without cell labels).
set -eu
FIX=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$FIX/../../.." && pwd)
BIN=${BIN:-$ROOT/bin}
. "$ROOT/tests/mpi-env.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$ROOT"
mpirun -np 4 "$BIN/lopbench" --pairs --transport mpi --ops send --post normal --reps 20 \
    --warmup 2 --idle-us 0 -o "$W/pairs" --quiet >/dev/null
cp "$W/pairs/pairs.csv" "$W/pairs/pairs-send-normal.csv" "$W/pairs/placement.csv" "$FIX/"
"$BIN/lopredict" --topology 2x2x5 --level-L 3,0.8,0.2 --level-o 0.5,0.3,0.1 --map rr \
    --write-costs "$FIX/machine-rr.csv" --model logp --alg diss --p 20 >/dev/null
echo "mkfixture: wrote $FIX/{pairs.csv,pairs-send-normal.csv,placement.csv,machine-rr.csv}"
