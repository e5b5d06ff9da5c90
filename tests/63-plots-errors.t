#!/bin/sh
# 63-plots-errors.t - plot.sh on inputs it cannot draw says which, in one
# line each: a data file with nothing to plot is named (gnuplot's own last
# words, "empty y range" or "undefined variable: STATS_max", name none), and
# an output directory it cannot write in is refused before any figure (each
# figure once failed with an empty reason after the shell's "cannot create").
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/data/plots
PLOTS=$ROOT/plots
. "$FIX/plots-lib.sh"

# Garbage where lopbench's and lopfit's files belong; the predictions are fine.
mkdir "$T/g"
printf 'garbage\nfoo,bar\n' >"$T/g/lop-x-min.csv"
printf 'p,min_us,avg_us\nx,y,z\n' >"$T/g/send-normal-rtt.csv"
cp "$FIX/predict-cnt2.csv" "$T/g/"
"$PLOTS/plot.sh" "$T/g" "$T/gout" rtt latency predict >"$T/out" 2>"$T/err"
check "garbage inputs: plot.sh fails" test $? -ne 0
check "... rtt's failure names the file and what is wrong with it" \
    grep -qx "plot.sh: rtt failed: $T/g/send-normal-rtt.csv: no row with a number under its header" "$T/err"
check "... latency's too" \
    grep -qx "plot.sh: latency failed: $T/g/lop-x-min.csv: no column 'p' in its header" "$T/err"
check "... one line per failed figure, and the count" \
    test "$(wc -l <"$T/err")" -eq 3 -a "$(tail -n 1 "$T/err")" = "plot.sh: 2 figure(s) failed"
check "... the good figure is still drawn" is_png "$T/gout/predict.png"
printf 'p,min_us,avg_us\n' >"$T/g/send-normal-rtt.csv"
"$PLOTS/plot.sh" "$T/g" "$T/gout" rtt >"$T/out" 2>"$T/err"
check "a header without rows is named the same way" \
    grep -qx "plot.sh: rtt failed: $T/g/send-normal-rtt.csv: no row with a number under its header" "$T/err"

# Garbage with a header and a number, but not the columns a figure plots
# (gnuplot said "undefined variable: STATS_max" or "empty y range"): the file
# and the column are named.
mkdir "$T/h"
for f in send-normal-rtt.csv lop-x-min.csv barrier.csv; do printf 'a,b\n1,x\n' >"$T/h/$f"; done
"$PLOTS/plot.sh" "$T/h" "$T/hout" rtt latency measured >"$T/out" 2>"$T/err"
for fig in rtt:send-normal-rtt.csv:p latency:lop-x-min.csv:p measured:barrier.csv:alg; do
    f=${fig#*:}
    check "a header without the figure's columns: ${fig%%:*}'s failure names ${f%:*} and '${f#*:}'" \
        grep -qx "plot.sh: ${fig%%:*} failed: $T/h/${f%:*}: no column '${f#*:}' in its header" "$T/err"
done
# Where no one file is at fault (times of 0 on a log scale), the files read.
printf 'p,min_us,avg_us\n1,0,0\n2,0,0\n' >"$T/h/send-normal-rtt.csv"
cp "$T/h/send-normal-rtt.csv" "$T/h/send-list-rtt.csv"
rm "$T/h/lop-x-min.csv"
"$PLOTS/plot.sh" "$T/h" "$T/hout" rtt >"$T/out" 2>"$T/err"
check "a failure no file explains names the files read: $(head -n 1 "$T/err")" \
    grep -q "^plot.sh: rtt failed: reading $T/h/send-list-rtt.csv, $T/h/send-normal-rtt.csv: " "$T/err"

# An output directory no file can be made in, even by root: /proc/self/fdinfo.
ro=/proc/self/fdinfo
if [ -d "$ro" ] && ! (: >"$ro/x") 2>/dev/null; then
    "$PLOTS/plot.sh" "$FIX" "$ro" >"$T/out" 2>"$T/err"
    check "an output directory it cannot write in: refused" test $? -ne 0
    check "... in one line, before any figure" \
        test "$(cat "$T/out" "$T/err")" = "plot.sh: $ro: cannot write in it"
else
    skip "no directory here that refuses a new file"
    skip "no directory here that refuses a new file"
fi
: >"$T/plain"
"$PLOTS/plot.sh" "$FIX" "$T/plain/sub" >"$T/out" 2>"$T/err"
check "an output directory below a file: one line" \
    test "$(cat "$T/out" "$T/err")" = "plot.sh: $T/plain/sub: cannot create directory"
done_testing
