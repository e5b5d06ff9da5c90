#!/bin/sh
# mkfixture.sh - regenerate the fixture data of tests/60-plots.t with the tools
# themselves, so that the fixture has exactly their formats.
#
#   sh tests/data/plots/mkfixture.sh     (needs a built tree and mpirun; about 10 s)
#   BIN=/other/build/bin sh tests/data/plots/mkfixture.sh
#
# Every CSV here is the unedited output of one command below, run on this
# machine: measurements are real (lopbench over MPI, 8 ranks on 2 cores, so
# oversubscribed and noisy), fits and predictions are computed from them
# (lopredict --measured) or from the shipped Mozart set (predict-*, ndiss).  Trimmed only by the commands' own options (few
# repetitions, --max-post 8, few P and n) to keep the fixture small.  Not
# copied: lopbench's *-oc.csv (no figure draws the completion overhead).
set -eu
FIX=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$FIX/../../.." && pwd)
BIN=${BIN:-$ROOT/bin}
. "$ROOT/tests/mpi-env.sh"
MOZART=data/mozart-2005/params.csv
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$ROOT"

# measurements: scenario 1 (o_s, o_r) and 2 (RTT(p), 7 points: enough for the
# 6-parameter t_rtt fit), and the barrier algorithms at P = 2 and 4
mpirun -np 8 "$BIN/lopbench" --transport mpi --reps 50 --warmup 10 --max-post 8 -o "$W/bench" --quiet
mpirun -np 4 "$BIN/lopbench" --barrier --p 2,4 --reps 50 -o "$W/bench" --quiet
rm -f "$W"/bench/*-oc.csv
# fits (LoP and LogP's line) and the L(p) tables; run in the directory so that
# params.csv names the files without a path
(cd "$W/bench" && "$BIN/lopfit" --compare -o . ./*.csv >/dev/null)
# predictions with the shipped Mozart set (lopredict's default series and stat)
P=2,3,4,6,8,12,16,24,32,48,64
"$BIN/lopredict" --params "$MOZART" --alg all --p "$P" --cnt 2 --csv >"$W/bench/predict-cnt2.csv"
"$BIN/lopredict" --params "$MOZART" --alg all --p "$P" --cnt 5000 --csv >"$W/bench/predict-cnt5000.csv"
"$BIN/lopredict" --params "$MOZART" --alg ndiss --n 1..6 --p 16,64 --cnt 5000 --csv >"$W/bench/ndiss.csv"
# flat algorithms vs the hybrid on the synthetic 8x2x4 machine (plots/hybrid.gp)
for map in block rr; do
    "$BIN/lopredict" --params "$MOZART" --simulate --model logp --topology 8x2x4 --level-L 3.0,0.8,0.2 \
        --level-o 0.5,0.3,0.1 --or 0 --g 0 --map $map --alg all,hybrid --p "$P" --csv \
        >"$W/bench/hybrid-$map.csv"
done
# the predictions for barrier.csv with this machine's fits, as make demo makes them
(cd "$W/bench" && "$BIN/lopredict" --measured barrier.csv --params params.csv --stat min --csv >measured.csv)

rm -f "$FIX"/*.csv
for f in "$W"/bench/*.csv; do cp "$f" "$FIX/"; chmod 644 "$FIX/${f##*/}"; done
ls "$FIX"/*.csv | wc -l | sed 's/$/ files/'
du -ch "$FIX"/*.csv | tail -n 1
