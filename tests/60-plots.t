#!/bin/sh
# 60-plots.t - the gnuplot figures (plots/) render from the fixture data in
# tests/data/plots (real tool output, see its mkfixture.sh) and fail clearly
# without their input.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/data/plots
PLOTS=$ROOT/plots
FIGS="rtt overhead latency predict ndiss measured hybrid"
. "$FIX/plots-lib.sh"


# ---- every script renders its figure from the fixture data
for f in $FIGS; do
    gp "$f" "$FIX" "$T/$f.png"
    check "$f.gp renders a PNG from the fixture" is_png "$T/$f.png"
    if [ -s "$T/err" ]; then diag "$f.gp said:" "$(cat "$T/err")"; fi
done
check "the fixture renders without gnuplot warnings" test ! -s "$T/err"

# ---- ... and fails with one clear line, and no output file, without its input
mkdir "$T/empty"
for f in $FIGS; do
    if gp "$f" "$T/empty" "$T/empty/$f.png"; then fail "$f.gp fails on an empty directory"
    else pass "$f.gp fails on an empty directory"; fi
    check "$f.gp names the missing input in one line" one_line "$T/err" "^$f: $T/empty"
    check "$f.gp leaves no output file behind" test ! -e "$T/empty/$f.png"
done
gp rtt "$T/nowhere" "$T/x.png" || true
check "a missing directory is one line" one_line "$T/err" "^rtt: $T/nowhere: no such directory"
gp rtt "$FIX" "$T/x.png" "term='gif'" || true
check "an unknown term is one line" one_line "$T/err" "^rtt: term 'gif': expected png, svg or pdf"

# ---- formats
gp predict "$FIX" "$T/predict.svg" "term='svg'"
check "term='svg' writes SVG" grep -q '<svg' "$T/predict.svg"
gp ndiss "$FIX" "$T/ndiss.pdf" "term='pdf'"
check "term='pdf' writes PDF" sh -c "head -c 5 '$T/ndiss.pdf' | grep -q '%PDF-'"

# ---- variants: fewer inputs still give a figure
mkdir "$T/fitsonly" "$T/nopred" "$T/nofit" "$T/paramsonly"
cp "$FIX"/lop-*.csv "$T/fitsonly/"
gp latency "$T/fitsonly" "$T/lat-fits.png"
check "latency.gp draws L(p) from lopfit's tables alone" is_png "$T/lat-fits.png"
cp "$FIX/params.csv" "$T/paramsonly/"
gp latency "$T/paramsonly" "$T/lat-params.png" || true
check "latency.gp evaluates no parameter set: params.csv alone is one line asking for the tables" \
    one_line "$T/err" "^latency: $T/paramsonly: no lop-<series>-<stat>.csv tables"
cp "$FIX/barrier.csv" "$T/nopred/"
gp measured "$T/nopred" "$T/meas-p2.png" "p=2"
check "measured.gp without predictions, at p=2" is_png "$T/meas-p2.png"
gp measured "$T/nopred" "$T/meas-p9.png" "p=9" || true
check "measured.gp at a P with no rows says so" one_line "$T/err" "no barrier rows at P = 9"
cp "$FIX"/send-*-rtt.csv "$T/nofit/"
gp rtt "$T/nofit" "$T/rtt-nofit.png"
check "rtt.gp without params.csv draws the measurements" is_png "$T/rtt-nofit.png"

# ---- the join of barrier.csv with predictions (n = 0 there, empty in lopredict's CSV)
# predicted PREDICTIONS: how many of the measured bars at P = 4 got all four predictions
predicted() {
    awk -F, -f "$PLOTS/measured.awk" -v P=4 -v mode=data "$FIX/barrier.csv" "$1" |
        awk -F, 'NR > 1 && $7 != "" && $8 != "" && $9 != "" && $10 != ""' | wc -l
}
nbar=$(awk -F, -f "$PLOTS/csvsel.awk" -v cols=executor -v where=p=4 "$FIX/barrier.csv" | grep -vc -e '^mpi$' -e '^executor$')
check "measured.awk: every one of the $nbar bars gets its executor's predictions (lopredict --measured)" \
    test "$(predicted "$FIX/measured.csv")" -eq "$nbar" -a "$nbar" -gt 0
"$BIN/lopredict" --alg all --p 4 --simulate --csv >"$T/pred.csv" 2>/dev/null
check "measured.awk: predictions without executor go to every executor's bars (lopredict --alg all)" \
    test "$(predicted "$T/pred.csv")" -eq "$nbar"
has_mpi() {
    awk -F, -f "$PLOTS/measured.awk" -v P=4 -v mode=setup "$FIX/barrier.csv" | grep -q '^mpi_us = [0-9]'
}
check "measured.awk: MPI_Barrier's mean gives the reference line" has_mpi
mkdir "$T/simple"
cp "$FIX/barrier.csv" "$T/pred.csv" "$T/simple/"
mv "$T/simple/pred.csv" "$T/simple/measured.csv"
gp measured "$T/simple" "$T/meas-simple.png"
check "measured.gp with lopredict --alg all --simulate predictions" is_png "$T/meas-simple.png"

# ---- plot.sh
"$PLOTS/plot.sh" "$FIX" "$T/all" >"$T/out" 2>"$T/err"
check "plot.sh renders the fixture" test $? -eq 0
check "plot.sh reports seven figures written" test "$(grep -c '^plot.sh: wrote ' "$T/out")" -eq 7
n=0
for f in $FIGS; do is_png "$T/all/$f.png" && n=$((n + 1)); done
check "plot.sh wrote seven PNGs" test "$n" -eq 7
check "plot.sh leaves no temporary files" test "$(ls -A "$T/all" | wc -l)" -eq 7

"$PLOTS/plot.sh" "$FIX" "$T/some" ndiss predict >"$T/out" 2>&1
check "plot.sh FIGURE...: only the figures asked for" test "$(ls "$T/some" | tr '\n' ' ')" = "ndiss.png predict.png "
check "plot.sh FIGURE...: nothing said about the others" test "$(wc -l <"$T/out")" -eq 2
"$PLOTS/plot.sh" "$FIX" "$T/some" rtt ndis >"$T/out" 2>&1 && fail "plot.sh refuses an unknown figure" ||
    pass "plot.sh refuses an unknown figure"
check "plot.sh: an unknown figure is one line" one_line "$T/out" "^plot.sh: figure 'ndis': expected one of: rtt "

"$PLOTS/plot.sh" "$T/nowhere" >"$T/out" 2>&1 && fail "plot.sh fails on a missing directory" ||
    pass "plot.sh fails on a missing directory"
check "plot.sh: a missing directory is one line" one_line "$T/out" "^plot.sh: $T/nowhere: no such directory"

"$PLOTS/plot.sh" "$T/fitsonly" >"$T/out" 2>&1
check "plot.sh renders what lopfit's tables alone allow" test $? -eq 0
check "plot.sh says why each other figure is skipped" test "$(grep -c '^plot.sh: skipped ' "$T/out")" -eq 9  # rtt overhead predict ndiss measured pairs hybrid distribution impact
check "plot.sh renders latency from the tables alone" is_png "$T/fitsonly/latency.png"

mkdir "$T/bad"
cp "$FIX/predict-cnt2.csv" "$T/bad/"
printf 'alg,n,p,rounds,logp_us,lop_us\ncc,,4,2,1,1\n' >"$T/bad/ndiss.csv"
"$PLOTS/plot.sh" "$T/bad" >"$T/out" 2>&1 && fail "plot.sh fails when a figure fails" ||
    pass "plot.sh fails when a figure fails"
check "plot.sh still renders the other figures" is_png "$T/bad/predict.png"
check "plot.sh names the failed figure" grep -q '^plot.sh: ndiss failed: ndiss: .*no ndiss rows' "$T/out"
check "a failed figure leaves no file" test ! -e "$T/bad/ndiss.png" -a -z "$(ls -A "$T/bad" | grep '^\.')"

# ---- fitted curves come from lopfit's -o files, with their 95 % bands
# No script evaluates a model: no formula (exp(), no parameter (l1..l6) in any .gp.
check "no .gp file evaluates a model formula (exp( or a lambda)" \
    test -z "$(grep -l -e 'exp(' -e '[^a-z]l[1-6][^0-9]' -e 'FIT_' "$PLOTS"/*.gp)"
check "no params.awk: nothing turns params.csv into gnuplot" test ! -e "$PLOTS/params.awk"
# tests/data/plots/bands: hand-made curve and table files in lopfit's -o format
# (fit/README.md) for send-normal: min with intervals and extrapolated rows
# p = 8..10 in the table, avg and o_r without intervals.
mkdir "$T/bands"
cp "$FIX"/send-normal-*.csv "$FIX"/bands/*.csv "$T/bands/"
# drawn FIG DIR: run FIG on DIR; the plot commands it ran are in $T/FIG.cmd
drawn() {
    rm -f "$T/$1.cmd"
    gp "$1" "$2" "$T/$1-drawn.png" "cmdlog='$T/$1.cmd'" && is_png "$T/$1-drawn.png" && test ! -s "$T/err"
}
# band FIG Q STAT: how many bands of fitted Q, statistic STAT, FIG drew
band() { grep -o "fit_data(s, \"$2\", \"$3\") using 1:4:5 with filledcurves" "$T/$1.cmd" | wc -l; }
line() { grep -o "fit_data(s, \"$2\", \"$3\") using 1:2 with line" "$T/$1.cmd" | wc -l; }
for f in rtt overhead latency; do
    check "$f.gp renders the curve files without warnings" drawn "$f" "$T/bands"
done
check "rtt.gp: the min fit with its band (intervals), the avg fit without (none)" \
    test "$(line rtt rtt min)$(band rtt rtt min)$(line rtt rtt avg)$(band rtt rtt avg)" = 1110
check "overhead.gp: o_s with its band, o_r without" \
    test "$(line overhead os min)$(band overhead os min)$(line overhead or min)$(band overhead or min)" = 1110
check "latency.gp: L(p) min with its band, avg without" \
    test "$(line latency L min)$(band latency L min)$(line latency L avg)$(band latency L avg)" = 1110
check "latency.gp: the extrapolated key only in the panel with extrapolated rows" \
    test "$(grep -c 'title "extrapolated"' "$T/latency.cmd")" -eq 1
check "latency.gp: the key names the 95 % interval" grep -q 'title "95 % interval"' "$T/latency.cmd"
# curve.awk: solid inside the fitted range, dashed outside, joined at p = 7
awk -F, -f "$PLOTS/curve.awk" -v y=L_us "$FIX/bands/lop-send-normal-min.csv" >"$T/curve.csv"
check "curve.awk: p = 1..6 solid only, p = 7 both, p = 8..10 dashed only" \
    test "$(awk -F, 'NR > 1 { printf "%s", ($2 == "NaN" ? "-" : "s") ($3 == "NaN" ? "-" : "d") }' "$T/curve.csv")" \
    = "s-s-s-s-s-s-sd-d-d-d"
check "curve.awk: the band is the table's L_lo_us, L_hi_us" \
    test "$(awk -F, 'NR == 2 { print $4 "," $5 }' "$T/curve.csv")" = "5.49143,5.62857"
check "curve.awk: empty interval cells, no band" \
    test "$(awk -F, -f "$PLOTS/curve.awk" -v y=L_us -v mode=band "$FIX/bands/lop-send-normal-avg.csv")" = 0
printf 'p,L_us\n1,2\n2,1\n' >"$T/old.csv"
check "curve.awk: no interval columns (an older table), no band" \
    test "$(awk -F, -f "$PLOTS/curve.awk" -v y=L_us -v mode=band "$T/old.csv")" = 0
awk -F, -f "$PLOTS/curve.awk" -v y=nope_us "$FIX/bands/lop-send-normal-min.csv" >/dev/null 2>"$T/err" &&
    fail "curve.awk: a missing column is an error" || pass "curve.awk: a missing column is an error"
check "... naming the file and column" one_line "$T/err" "lop-send-normal-min.csv: no column 'nope_us'"
# a fit of one point (lopfit's curve at p = 1 only: a constant RTT from 2 ranks) is a marker
mkdir "$T/one"
cp "$FIX/send-normal-rtt.csv" "$T/one/"
{ printf '# series: send-normal\np,fit_us,lo_us,hi_us,extrapolated\n'; for i in 1 2 3; do echo 1,5,,,0; done; } \
    >"$T/one/curve-send-normal-rtt-min.csv"
check "rtt.gp draws a fit of one p" drawn rtt "$T/one"
check "... as a marker (there is no line to draw)" \
    grep -q 'fit_data(s, "rtt", "min") using 1:6:4:5 with yerrorbars' "$T/rtt.cmd"
check "curve.awk: the marker column holds the fit once" \
    test "$(awk -F, -f "$PLOTS/curve.awk" -v y=fit_us "$T/one/curve-send-normal-rtt-min.csv" | cut -d, -f6 | tr '\n' ' ')" = "one 5 NaN NaN "
check "... and nothing for a curve over a range of p" \
    test "$(awk -F, -f "$PLOTS/curve.awk" -v y=fit_us -v mode=one "$FIX/curve-send-normal-rtt-min.csv")" = 0
# measured.gp: a prediction's 95 % interval is an error bar on its marker
mkdir "$T/mband"
cp "$FIX/barrier.csv" "$FIX/bands/measured.csv" "$T/mband/"
check "measured.gp renders predictions with intervals" drawn measured "$T/mband"
check "measured.gp: the LoP intervals as error bars, none for the others" \
    test "$(grep -o '"[a-z_]*_lo":"[a-z_]*_hi" with yerrorbars' "$T/measured.cmd" | tr '\n' ' ')" = \
    '"lop_lo":"lop_hi" with yerrorbars '
nband=$(awk -F, -f "$PLOTS/measured.awk" -v P=4 -v mode=data "$FIX/barrier.csv" "$T/mband/measured.csv" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["lop_lo"] != "" && $c["lop_hi"] != "" { n++ } END { print n + 0 }')
check "measured.awk: every one of the $nbar bars at P = 4 gets its LoP interval" test "$nband" -eq "$nbar"
check "measured.gp on predictions without intervals draws no error bars" drawn measured "$T/simple"
check "... (no yerrorbars in its commands)" test "$(grep -c yerrorbars "$T/measured.cmd")" -eq 0
# the real fixture (fits with covariance): a band for every fitted curve of rtt.gp
fits=$(ls "$FIX" | grep -c '^curve-.*-rtt-')
check "rtt.gp on the fixture draws the $fits rtt fits" drawn rtt "$FIX"
# listed FIG WHAT: the series of every "for [s in LIST] fit_data(...) using WHAT" clause
listed() {
    grep -o "for \\[s in \"[^\"]*\"\\] fit_data(s, \"rtt\", \"[a-z]*\") using $2" "$T/$1.cmd" |
        sed 's/^for .s in "//; s/".*//' | tr ' ' '\n' | grep -c .
}
check "... each with its band ($fits curves)" \
    test "$(listed rtt '1:2 with line')" -eq "$fits" -a "$(listed rtt '1:4:5 with filledcurves')" -eq "$fits"
# the Mozart set has no covariance: its tables have no intervals, nothing shaded
"$BIN/lopfit" --from-params "$ROOT/data/mozart-2005/params.csv" -o "$T/mozart" 2>/dev/null
check "latency.gp on tables without intervals draws no band" drawn latency "$T/mozart"
check "... (no filledcurves in its commands)" test "$(grep -c filledcurves "$T/latency.cmd")" -eq 0

done_testing
