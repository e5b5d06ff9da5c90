#!/bin/sh
# coverage.sh - how often lopfit's 95 % intervals hold the truth:
# the LoP cost of the dissemination barrier at P = 16 predicted from fits to
# synthetic data made from the thesis's rdmaw-inline parameters.
#
#   fit/measure/coverage.sh [-s SEEDS] [-n SIZES] [-w WEIGHTS] [-r R] [-a S]
#
# For every seed 1..SEEDS (default 40) and both noise kinds, relative R
# (default 0.02: `lopfit --synth --noise R`, timings that scatter in
# proportion to their size) and additive S us (default 0.05:
# `--synth --noise-us S`), the rdmaw-inline RTT and o_s files (stat min) are
# cut to their first N rows for every N of SIZES (default "7 15 63"), fitted
# with `lopfit --stat min --weight W -o DIR` for every W of WEIGHTS (default
# "rel none"; "default" runs lopfit without --weight), and
# `lopredict --params DIR/params.csv --alg diss --p 16 --model lop` gives
# the prediction and its 95 % interval; the truth is the same prediction
# from the shipped parameters.  Prints per noise kind, N and weighting: the
# intervals that hold the truth, the runs, the coverage and the median
# interval width.  A run whose fit or prediction fails counts as not
# covered and is named on stderr.  Environment: LOPFIT, LOPREDICT (default:
# bin/ of this checkout).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
LOPFIT=${LOPFIT:-$root/bin/lopfit}
LOPREDICT=${LOPREDICT:-$root/bin/lopredict}
seeds=40
sizes="7 15 63"
weights="rel none"
rel=0.02
add=0.05
usage() { echo "usage: $0 [-s SEEDS] [-n SIZES] [-w WEIGHTS] [-r R] [-a S]" >&2; exit 2; }
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    -s) seeds=$2 ;;
    -n) sizes=$2 ;;
    -w) weights=$2 ;;
    -r) rel=$2 ;;
    -a) add=$2 ;;
    *) usage ;;
    esac
    shift 2
done
for t in "$LOPFIT" "$LOPREDICT"; do
    [ -x "$t" ] || { echo "$0: $t not built (make tools)" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/coverage.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

set_file=$root/data/mozart-2005/params.csv
# the rdmaw-inline min rows of the shipped set: the truth
{ grep '^#' "$set_file"; grep -v '^#' "$set_file" | head -n 1
  grep '^[^#].*,rdmaw-inline,\(rtt\|os\),min,' "$set_file"; } >"$tmp/truth.csv"
predict() { # params.csv -> "value lo hi" of diss at P = 16, LoP
    "$LOPREDICT" --params "$1" --series rdmaw-inline --stat min --alg diss --p 16 --model lop \
        --csv 2>/dev/null | awk -F, '/^alg,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        function cell(name) { return $c[name] == "" ? "nan" : $c[name] }
        $1 == "diss" { print cell("lop_us"), cell("lop_lo_us"), cell("lop_hi_us") }'
}
truth=$(predict "$tmp/truth.csv" | cut -d' ' -f1)
[ -n "$truth" ] || { echo "$0: no truth from $LOPREDICT" >&2; exit 1; }
echo "# truth: diss at P = 16 (LoP, rdmaw-inline min) = $truth us; $seeds seeds"
echo "# noise: relative $rel (lopfit --synth --noise), additive $add us (--noise-us)"
printf '%-16s %3s %-8s %9s %9s %12s\n' noise N weight covered coverage median_width

for kind in relative additive; do
    noise="--noise $rel"
    [ "$kind" = additive ] && noise="--noise-us $add"
    : >"$tmp/results"
    s=1
    while [ "$s" -le "$seeds" ]; do
        # shellcheck disable=SC2086 # $noise is an option and its value
        "$LOPFIT" --synth "$tmp/truth.csv" $noise --seed "$s" -o "$tmp/syn" 2>/dev/null ||
            { echo "$0: lopfit --synth failed (seed $s)" >&2; exit 1; }
        for n in $sizes; do
            for q in rtt os; do
                awk -v n="$n" '/^#/ || /^p,/ { print; next } ++k <= n' \
                    "$tmp/syn/rdmaw-inline-$q.csv" >"$tmp/$q.csv"
            done
            for w in $weights; do
                opt="--weight $w"
                [ "$w" = default ] && opt=
                rm -rf "$tmp/fit"
                # shellcheck disable=SC2086
                r=$("$LOPFIT" --stat min $opt -o "$tmp/fit" "$tmp/rtt.csv" "$tmp/os.csv" \
                        >/dev/null 2>&1 && predict "$tmp/fit/params.csv")
                [ -n "$r" ] || echo "$0: $kind seed $s N $n weight $w: no interval" >&2
                echo "$n $w ${r:-nan nan nan}" >>"$tmp/results"
            done
        done
        s=$((s + 1))
    done
    for n in $sizes; do
        for w in $weights; do
            awk -v n="$n" -v w="$w" -v t="$truth" -v kind="$kind" '
                $1 == n && $2 == w { runs++
                                     if ($4 == "nan" || $5 == "nan") next
                                     if ($4 + 0 <= t + 0 && t + 0 <= $5 + 0) inside++
                                     width[++k] = $5 - $4 }
                END { m = "-"
                      if (k) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
                                   if (width[j] < width[i]) { x = width[i]; width[i] = width[j]; width[j] = x }
                               m = k % 2 ? width[(k + 1) / 2] : (width[k / 2] + width[k / 2 + 1]) / 2 }
                      printf "%-16s %3d %-8s %4d/%-4d %8.1f%% %12.4g\n", kind, n, w, inside, runs,
                             100 * inside / runs, m }' "$tmp/results"
        done
    done
done
