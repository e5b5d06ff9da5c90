#!/bin/sh
# figures-mozart.sh - the thesis's figures 2.36, 2.38 and 2.39 regenerated from
# the shipped Mozart parameter set (data/mozart-2005/params.csv).
#
#   plots/figures-mozart.sh OUT_DIR                 (make figures-mozart)
#   PLOT_FORMAT=svg plots/figures-mozart.sh OUT_DIR
#
# Writes into OUT_DIR the data of the figures, made by bin/lopfit and
# bin/lopredict with the thesis's set (series rdmaw-inline, stat min: figure
# 2.38's caption):
#   params.csv             a copy of the parameter set
#   lop-<series>-<stat>.csv, curve-*.csv   lopfit --from-params (figure 2.36 draws them)
#   predict-cnt2.csv       lopredict --alg all --p 2..64 --cnt 2 --csv
#   predict-cnt5000.csv    the same at cnt = 5000
#   ndiss.csv              lopredict --alg ndiss --n 1..10 --p 16,64,256 --cnt 5000 --csv
# and the figures, drawn by plots/plot.sh: latency (2.36), predict (2.38), ndiss (2.39).
# LOPREDICT, LOPFIT name other tools (default: bin/lopredict, bin/lopfit of this tree).
set -u
prog=figures-mozart.sh
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
lopredict=${LOPREDICT:-$root/bin/lopredict}
lopfit=${LOPFIT:-$root/bin/lopfit}
params=$root/data/mozart-2005/params.csv
fmt=${PLOT_FORMAT:-png}

die() { echo "$prog: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: $prog OUT_DIR" >&2; exit 2; }
out=$1
[ -x "$lopredict" ] || die "$lopredict: not built (make)"
[ -x "$lopfit" ] || die "$lopfit: not built (make)"
[ -r "$params" ] || die "$params: no such file"
mkdir -p "$out" || die "$out: cannot create directory"

# predict FILE ARGS...: lopredict ARGS --csv into OUT_DIR/FILE, atomically.
# lopredict's warnings (o and L extrapolated beyond the fitted p range at large
# cnt) go to stderr as they are.
predict() {
    _dst=$out/$1
    shift
    "$lopredict" --params "$params" --series rdmaw-inline --stat min --csv "$@" >"$_dst.tmp.$$" ||
        { rm -f "$_dst.tmp.$$"; die "lopredict $* failed"; }
    mv -f "$_dst.tmp.$$" "$_dst"
    echo "$prog: wrote $_dst"
}

cp "$params" "$out/params.csv.tmp.$$" && mv -f "$out/params.csv.tmp.$$" "$out/params.csv" ||
    die "$out/params.csv: cannot write"
echo "$prog: wrote $out/params.csv"
# the tables (and curves) of the set; lopfit warns on stderr where L^list(p) < 0
"$lopfit" --from-params "$params" -o "$out" || die "lopfit --from-params failed"
echo "$prog: wrote $out/lop-*.csv (lopfit --from-params)"
predict predict-cnt2.csv --alg all --p 2..64 --cnt 2
predict predict-cnt5000.csv --alg all --p 2..64 --cnt 5000
predict ndiss.csv --alg ndiss --n 1..10 --p 16,64,256 --cnt 5000

"$here/plot.sh" "$out" "$out" latency predict ndiss >/dev/null || die "plot.sh failed"
for f in "latency 2.36: L(p), min and avg" "predict 2.38: predicted barrier time vs P, cnt = 2 and 5000" \
    "ndiss 2.39: n-way dissemination rounds and predicted time vs n"; do
    png=$out/${f%% *}.$fmt
    [ -s "$png" ] || die "$png: not written"
    echo "$prog: wrote $png (thesis figure ${f#* })"
done
