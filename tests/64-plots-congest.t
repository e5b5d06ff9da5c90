#!/bin/sh
# 64-plots-congest.t - the figures of barriers under background traffic
# (lopbench --barrier --congest): distribution.gp (Petrini et al.'s latency
# distributions, figures 11, 12) and impact.gp (GPCNeT's Congestion Impact
# Factor) render from the made-up run in tests/data/congest (mkfixture.sh),
# plot.sh makes them, and a malformed file is refused in one line naming
# its file:line, with no figure written.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/data/congest
PLOTS=$ROOT/plots
. "$ROOT/tests/data/plots/plots-lib.sh"


# ---- the fixture is what the spec says: counts sum to reps, impacts divide
sums_ok() {
    awk -F, '/^#/ { next } !h[FILENAME]++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; f++; next }
        f == 1 { reps[$c["executor"] "," $c["alg"] "," $c["condition"]] = $c["reps"]; next }
        f == 2 { reps[$c["executor"] "," $c["alg"] "," $c["condition"]] = $c["reps"]; next }
        { s[$c["executor"] "," $c["alg"] "," $c["condition"]] += $c["count"] }
        END { for (k in s) { n++; if (s[k] != reps[k]) bad++ } exit !(n == 10 && !bad) }' \
        "$FIX/barrier.csv" "$FIX/barrier-congested.csv" "$FIX/barrier-hist.csv"
}
check "fixture: the 10 histograms' counts each sum to their row's reps" sums_ok
impacts_ok() {
    awk -F, '/^#/ { next } !h[FILENAME]++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; f++; next }
        f == 1 { a[$c["executor"] $c["alg"]] = $c["avg_us"]; q[$c["executor"] $c["alg"]] = $c["p99_us"]; next }
        { k = $c["executor"] $c["alg"]; n++
          d1 = $c["impact_avg"] - $c["avg_us"] / a[k]; d2 = $c["impact_p99"] - $c["p99_us"] / q[k]
          if (d1 * d1 > 1e-10 || d2 * d2 > 1e-10 || $c["condition"] != "congested:incast") bad++ }
        END { exit !(n == 5 && !bad) }' "$FIX/barrier.csv" "$FIX/barrier-congested.csv"
}
check "fixture: impact_avg, impact_p99 are congested / isolated avg_us, p99_us" impacts_ok

# ---- both figures render, without warnings
for f in distribution impact; do
    gp "$f" "$FIX" "$T/$f.png" "cmdlog='$T/$f.cmd'"
    check "$f.gp renders a PNG from the fixture" is_png "$T/$f.png"
    check "... without gnuplot warnings" test ! -s "$T/err"
    [ ! -s "$T/err" ] || diag "$(cat "$T/err")"
done
check "distribution.gp: one panel per algorithm (4 and MPI_Barrier), then the key" \
    test "$(grep -c '^plot for \[j = ' "$T/distribution.cmd")" -eq 5 -a \
    "$(grep -c 'keyentry' "$T/distribution.cmd")" -eq 1
check "impact.gp: impact_avg and impact_p99 as bars from 1, and the line at 1" \
    sh -c "grep -q '\$IMP using (\$1 - BW / 2):2:(\$1 - BW):(\$1):(1):2 with boxxyerror' '$T/impact.cmd' &&
           grep -q '\$IMP using (\$1 + BW / 2):3:(\$1):(\$1 + BW):(1):3 with boxxyerror' '$T/impact.cmd' &&
           grep -q \"1 with lines .*title 'no impact (1)'\" '$T/impact.cmd'"
gp distribution "$FIX" "$T/distribution.svg" "term='svg'"
check "term='svg': the distribution's title names the pattern" \
    sh -c "grep -q '<svg' '$T/distribution.svg' && grep -q 'under incast background traffic' '$T/distribution.svg'"
gp impact "$FIX" "$T/impact.svg" "term='svg'"
check "term='svg': the impact figure's subtitle is the run's # congest: line" \
    sh -c "grep -q '<svg' '$T/impact.svg' && grep -q 'incast, 4 of 8 ranks congest' '$T/impact.svg'"

# ---- the data behind the curves: cumulative fractions from 0 to 1
awk -F, -f "$PLOTS/congest.awk" -v fig=distribution -v mode=setup \
    "$FIX/barrier-hist.csv" "$FIX/barrier.csv" "$FIX/barrier-congested.csv" >"$T/setup"
cdf_ok() {
    sed -n '/^\$CDF << EOD$/,/^EOD$/p' "$T/setup" | awk -F, '
        /EOD/ || NF < 2 { if (n) { blocks++; if (last != 1) bad++ }; n = 0; next }
        { if (n == 0 && $2 != 0) bad++; if ($2 + 0 < last && n) bad++; last = $2 + 0; n++ }
        END { exit !(blocks == 10 && !bad) }'
}
check "congest.awk: 10 curves (5 panels x isolated, congested), each rising from 0 to 1" cdf_ok
check "congest.awk: the x axis spans the smallest bin's lower edge to the largest's upper" \
    test "$(grep -e '^xlo' -e '^xhi' "$T/setup" | tr '\n' ' ')" = "xlo = 1.2589250000000001 xhi = 1000 "
check "congest.awk: MPI_Barrier's panel comes last" grep -qx 'PTITLE\[5\] = "MPI_Barrier"' "$T/setup"

# ---- fewer inputs: an isolated-only run, a histogram alone
mkdir "$T/iso"
grep -v 'congested:' "$FIX/barrier-hist.csv" >"$T/iso/barrier-hist.csv"
gp distribution "$T/iso" "$T/iso.png"
check "distribution.gp draws a run without --congest (histogram alone, isolated only)" is_png "$T/iso.png"
check "... without warnings" test ! -s "$T/err"
gp distribution "$FIX" "$T/p9.png" "p=9" || true
check "distribution.gp at a P without a histogram: one line" \
    one_line "$T/err" "^distribution: $FIX/barrier-hist.csv: no histogram at P = 9$"
gp impact "$FIX" "$T/p9.png" "p=9" || true
check "impact.gp at a P without rows: one line" \
    one_line "$T/err" "^impact: $FIX/barrier-congested.csv: no congested rows at P = 9$"
check "... and no figure" test ! -e "$T/p9.png"

# ---- missing input: one line, no file
mkdir "$T/empty"
for f in distribution impact; do
    gp "$f" "$T/empty" "$T/empty/$f.png" && fail "$f.gp fails without its input" ||
        pass "$f.gp fails without its input"
    check "... naming the missing file in one line" one_line "$T/err" "^$f: $T/empty/barrier-"
    check "... and leaves no output file" test ! -e "$T/empty/$f.png"
done

# ---- malformed files: refused in one line naming file:line, nothing written
# broken NAME FILE SED: a copy of the fixture with FILE edited by SED
broken() {
    rm -rf "$T/$1"
    mkdir "$T/$1"
    cp "$FIX"/barrier*.csv "$T/$1/"
    sed "$3" "$FIX/$2" >"$T/$1/$2"
}
# refused FIG NAME FILE LINE WHAT: FIG on $T/NAME fails with one line
# "FIG: DIR/FILE:LINE: WHAT...", and so does plot.sh, leaving no file
refused() {
    _want="^$1: $T/$2/$3:$4: $5"
    if gp "$1" "$T/$2" "$T/$2/$1.png"; then fail "$1 refuses $2"; return; fi
    check "$1 refuses $2 in one line naming $3:$4" one_line "$T/err" "$_want"
    [ "$(wc -l <"$T/err")" -eq 1 ] || diag "$(cat "$T/err")"
    sh "$PLOTS/plot.sh" "$T/$2" "$T/$2-out" "$1" >"$T/out" 2>&1 && fail "plot.sh fails on $2" ||
        check "plot.sh: $2 is '$1 failed:' and the same line, then the count" \
            test "$(sed -n 1p "$T/out" | grep -c "^plot.sh: $1 failed: $1: $T/$2/$3:$4: $5")" -eq 1 -a \
            "$(wc -l <"$T/out")" -eq 2
    check "... no $1 figure, no temporary file" test -z "$(ls -A "$T/$2-out")" -a ! -e "$T/$2/$1.png"
}
hline() { grep -n "$1" "$FIX/barrier-hist.csv" | head -n 1 | cut -d: -f1; }
broken nocount barrier-hist.csv 's/,count$/,n_in_bin/'
refused distribution nocount barrier-hist.csv "$(hline '^executor,')" "no column 'count' (expected barrier-hist.csv)"
broken nolo barrier-hist.csv 's/,lo_us,/,low_us,/'
refused distribution nolo barrier-hist.csv "$(hline '^executor,')" "no column 'lo_us'"
l=$(hline ',diss,,4,isolated,')
broken notnum barrier-hist.csv "${l}s/,[0-9]*\$/,many/"
refused distribution notnum barrier-hist.csv "$l" "count 'many' is not a whole number"
broken sum barrier-hist.csv "${l}s/,\\([0-9]*\\)\$/,1\\1/"
refused distribution sum barrier-hist.csv "$l" \
    "the counts of p2p diss at p = 4 isolated sum to 1[0-9][0-9], but $T/sum/barrier.csv:[0-9]* says reps 100"
lc=$(hline ',ndiss,2,4,congested:incast,')
broken sumc barrier-hist.csv "${lc}s/,\\([0-9]*\\)\$/,1\\1/"
refused distribution sumc barrier-hist.csv "$lc" \
    "the counts of p2p ndiss n=2 at p = 4 congested:incast sum to .*barrier-congested.csv:[0-9]* says reps 100"
broken edges barrier-hist.csv "${l}s/,\\([0-9.]*\\),\\([0-9.]*\\),\\([0-9]*\\)\$/,\\2,\\1,\\3/"
refused distribution edges barrier-hist.csv "$l" "lo_us [0-9.]* is not below hi_us"
broken short barrier-hist.csv "${l}s/,[0-9]*\$//"
refused distribution short barrier-hist.csv "$l" "8 fields, the header has 9"
broken reps barrier.csv 's/^p2p,send-normal,tour,,4,100,/p2p,send-normal,tour,,4,lots,/'
refused distribution reps barrier.csv "$(grep -n '^p2p,send-normal,tour' "$FIX/barrier.csv" | cut -d: -f1)" \
    "reps 'lots' is not a whole number"
li=$(grep -n '^p2p,send-normal,diss' "$FIX/barrier-congested.csv" | cut -d: -f1)
broken impact barrier-congested.csv "${li}s/,[0-9.]*\$/,/"
refused impact impact barrier-congested.csv "$li" "impact_p99 '' is not a positive number"
broken noimpact barrier-congested.csv 's/,impact_avg,/,impact_mean,/'
refused impact noimpact barrier-congested.csv "$(grep -n '^executor,' "$FIX/barrier-congested.csv" | cut -d: -f1)" \
    "no column 'impact_avg'"
broken twice barrier-congested.csv "${li}p"
refused impact twice barrier-congested.csv "$((li + 1))" "a second row for p2p diss at p = 4 (the first at "

# ---- plot.sh
"$PLOTS/plot.sh" "$FIX" "$T/all" >"$T/out" 2>"$T/err"
check "plot.sh renders the fixture" test $? -eq 0
check "plot.sh wrote distribution.png and impact.png" is_png "$T/all/distribution.png"
check "... and impact.png" is_png "$T/all/impact.png"
check "plot.sh says it wrote both" \
    test "$(grep -c -e "^plot.sh: wrote $T/all/distribution.png\$" -e "^plot.sh: wrote $T/all/impact.png\$" "$T/out")" -eq 2
"$PLOTS/plot.sh" "$T/iso" "$T/isoout" >"$T/out" 2>&1
check "plot.sh without barrier-congested.csv says why impact is skipped" \
    grep -qx 'plot.sh: skipped impact: no barrier-congested.csv (lopbench --barrier --congest)' "$T/out"
"$PLOTS/plot.sh" "$ROOT/tests/data/plots" "$T/none" distribution >"$T/out" 2>&1 || true
check "plot.sh without barrier-hist.csv says why distribution is skipped" \
    grep -qx 'plot.sh: skipped distribution: no barrier-hist.csv (lopbench --barrier)' "$T/out"
done_testing
