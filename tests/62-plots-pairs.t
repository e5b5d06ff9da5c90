#!/bin/sh
# 62-plots-pairs.t - plots/pairs.gp draws the L and o matrices of a lopbench
# --pairs file as heat maps (Meyer and Elster, figure 9) from the fixture in
# tests/data/pairs (real tool output, see its mkfixture.sh), plot.sh runs it,
# and it fails clearly without its input.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/data/pairs
PLOTS=$ROOT/plots
. "$ROOT/tests/data/plots/plots-lib.sh"


gp pairs "$FIX" "$T/pairs.png"
check "pairs.gp renders pairs.csv (issend, 4 ranks, the diagonal without L) as a PNG" is_png "$T/pairs.png"
check "... without gnuplot warnings" test ! -s "$T/err"
[ -s "$T/err" ] && diag "$(cat "$T/err")"
gp pairs "$FIX" "$T/series.svg" "term='svg'; file='pairs-send-normal.csv'"
check "file='pairs-send-normal.csv', term='svg': an SVG with both panels" \
    sh -c "grep -q '<svg' '$T/series.svg' && grep -q 'latency L' '$T/series.svg' && grep -q 'send overhead o' '$T/series.svg'"
check "... whose title names the series" grep -q 'send-normal' "$T/series.svg"
gp pairs "$FIX" "$T/machine.png" "file='machine-rr.csv'"
check "a 20-rank matrix without # stat: (lopredict --write-costs) renders" is_png "$T/machine.png"

mkdir "$T/empty"
if gp pairs "$T/empty" "$T/empty/pairs.png"; then fail "pairs.gp fails without pairs.csv"
else pass "pairs.gp fails without pairs.csv"; fi
check "... in one line naming the file" \
    sh -c "test \$(wc -l <'$T/err') -eq 1 && grep -q '^pairs: $T/empty/pairs.csv: no such file' '$T/err'"
check "... and leaves no output file" test ! -e "$T/empty/pairs.png"

# plot.sh: the pairs figure when pairs.csv is there, a reason when it is not
mkdir "$T/data" "$T/out"
cp "$FIX/pairs.csv" "$T/data/"
sh "$PLOTS/plot.sh" "$T/data" "$T/out" >"$T/plot.out" 2>&1
check "plot.sh renders pairs.png from a directory with pairs.csv" is_png "$T/out/pairs.png"
check "plot.sh says it wrote it" grep -q "^plot.sh: wrote $T/out/pairs.png" "$T/plot.out"
sh "$PLOTS/plot.sh" "$ROOT/tests/data/plots" "$T/out2" pairs >"$T/plot2.out" 2>&1
check "plot.sh names why pairs is skipped without pairs.csv" \
    grep -q '^plot.sh: skipped pairs: no pairs.csv (lopbench --pairs)' "$T/plot2.out"
done_testing
