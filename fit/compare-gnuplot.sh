#!/bin/sh
# compare-gnuplot.sh - the SSR lopfit reaches next to the SSR of gnuplot's
# own `fit` command (Marquardt-Levenberg) from gnuplot's default start
# values, every parameter 1: what a user gets without hand-tuned starts.
#
#   fit/compare-gnuplot.sh [-s min,avg] [-p PARAMS] FILE...
#
# -p PARAMS starts gnuplot from the parameters of the same series, quantity
# and stat in the parameter set PARAMS instead (e.g. the generating
# parameters of lopfit --synth data): does a local fit from the right basin
# find a lower minimum than lopfit's global search?
# FILEs are lopbench CSVs (quantity rtt, os or or; others are skipped).
# gnuplot fits the model lopfit chose for the file (--model auto; the
# report's model column), with the expression of that model's descriptor
# (lopfit --gnuplot-expr MODEL, src/model.c): no formula is retyped here.
# Prints one row per file and statistic:
#   series quantity stat model n ssr_lopfit ssr_gnuplot ratio lopfit_ms gnuplot_ms gnuplot_status
# ratio = ssr_gnuplot / ssr_lopfit.  gnuplot_ms is the wall time of the
# gnuplot process (start-up included); lopfit_ms is lopfit's own fit time.
# gnuplot_status is "converged", "not converged" or the error gnuplot gave.
# Environment: LOPFIT (default: bin/lopfit beside this script), GNUPLOT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
LOPFIT=${LOPFIT:-$here/../bin/lopfit}
GNUPLOT=${GNUPLOT:-gnuplot}
stats=min,avg
params=
while [ $# -gt 1 ]; do
    case $1 in
    -s) stats=$2; shift 2 ;;
    -p) params=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: $0 [-s min,avg] [-p PARAMS] FILE..." >&2; exit 2; }
command -v "$GNUPLOT" >/dev/null || { echo "$0: $GNUPLOT not found" >&2; exit 2; }

# The function of model $1 as a gnuplot expression, and its parameters
# l1..lk as gnuplot's via list: from the model's descriptor.
model_expr() { "$LOPFIT" --gnuplot-expr "$1"; }
model_via() { model_expr "$1" | grep -o 'l[1-9]' | sort -u | paste -s -d, -; }

meta() { sed -n "s/^# *$1: *//p" "$2" | head -n 1; }
# 1-based index of column $1 in the header row of file $2
column_of() {
    grep -v '^#' "$2" | grep -v '^ *$' | head -n 1 | tr ',' '\n' | grep -n -x "$1" | cut -d: -f1
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# start values "l1 = ...; ..." for series $1 quantity $2 stat $3: from
# PARAMS (columns 9..14 are l1..l6; empty for unused ones) or all 1 (PARAMS
# must hold the same model as lopfit chose: other λ mean other things)
start_values() {
    row=
    [ -z "$params" ] || row=$(grep -v '^#' "$params" | awk -F, -v s="$1" -v q="$2" -v t="$3" \
        '$2 == s && $3 == q && $4 == t { print; exit }')
    [ -n "$params" ] && [ -z "$row" ] && echo "$0: no $1 $2 $3 row in $params" >&2
    for i in 1 2 3 4 5 6; do
        v=$(echo "$row" | cut -s -d, -f$((8 + i)))
        printf 'l%d = %s; ' "$i" "${v:-1}"
    done
}

# gnuplot fit of column $2 of file $1 with model $3 from start values $4;
# prints "ssr|ms|status"
gnuplot_fit() {
    f=$(model_expr "$3") && via=$(model_via "$3") || { echo "-|0|failed: no model $3"; return; }
    start=$(now_ms)
    out=$("$GNUPLOT" 2>&1 <<EOF
set datafile separator ','
set fit quiet
set fit logfile '/dev/null'
f(x) = $f
$4
fit f(x) '$1' using 1:$2 via $via
print sprintf('RESULT %.10g %d', FIT_WSSR, FIT_CONVERGED)
EOF
)
    ms=$(( $(now_ms) - start ))
    res=$(printf '%s\n' "$out" | sed -n 's/^RESULT //p')
    if [ -n "$res" ]; then
        set -- $res
        [ "$2" = 1 ] && st=converged || st="not converged"
        echo "$1|$ms|$st"
    else
        err=$(printf '%s\n' "$out" | grep -v '^ *$' | tail -n 1 | tr '|' '/')
        echo "-|$ms|failed: $err"
    fi
}

printf '%-14s %-4s %-4s %-9s %3s %14s %14s %10s %9s %10s  %s\n' series qty stat model n ssr_lopfit \
    ssr_gnuplot ratio lopfit_ms gnuplot_ms gnuplot_status
for file in "$@"; do
    quantity=$(meta quantity "$file")
    case $quantity in
    rtt | os | or) ;;
    *) echo "# $file: quantity '$quantity' skipped" >&2; continue ;;
    esac
    rows=$("$LOPFIT" --csv --stat "$stats" "$file") || exit 1
    # params.csv columns: 2 series, 4 stat, 5 model, 6 n, 15 ssr; the last is fit_ms
    printf '%s\n' "$rows" | tail -n +2 | while IFS=, read -r line; do
        series=$(echo "$line" | cut -d, -f2)
        stat=$(echo "$line" | cut -d, -f4)
        model=$(echo "$line" | cut -d, -f5)
        n=$(echo "$line" | cut -d, -f6)
        ssr=$(echo "$line" | cut -d, -f15)
        ms=$(echo "$line" | awk -F, '{print $NF}')
        col=$(column_of "${stat}_us" "$file")
        IFS='|' read -r gssr gms gst <<EOF
$(gnuplot_fit "$file" "$col" "$model" "$(start_values "$series" "$quantity" "$stat")")
EOF
        ratio=$(awk -v a="$gssr" -v b="$ssr" 'BEGIN { if (a == "-" || b == 0) print "-"; else printf "%.6g", a / b }')
        [ "$gssr" = - ] || gssr=$(printf '%.8g' "$gssr")
        printf '%-14s %-4s %-4s %-9s %3s %14.8g %14s %10s %9s %10s  %s\n' "$series" "$quantity" \
            "$stat" "$model" "$n" "$ssr" "$gssr" "$ratio" "$ms" "$gms" "$gst"
    done
done
