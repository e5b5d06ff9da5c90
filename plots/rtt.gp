# rtt.gp - measured round-trip time RTT(p) (min and avg) with the fitted t_rtt(p)
# (thesis 2.3.6.1.1, figures 2.31 and 2.33); one panel per operation.
#   gnuplot -e "dir='DATA'" plots/rtt.gp                   -> ./rtt.png
#   gnuplot -e "dir='DATA'; term='svg'; out='rtt.svg'" plots/rtt.gp
# Reads DIR/<op>-<post>-rtt.csv (lopbench) and, if present, DIR/params.csv (lopfit).
fig = "rtt"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 600
load here . "/common.gp"

series = names("*-rtt.csv", "", "-rtt.csv")
if (words(series) == 0) {
    print sprintf("%s: %s: no *-rtt.csv files (lopbench output) to plot", fig, dir)
    exit status 1
}
set output out
file(s) = dir . "/" . s . "-rtt.csv"
rtt_fit(s, st) = fit_find(s, "rtt", st, "rtt")
ops = ops_of(series)

set multiplot layout 1, words(ops) \
    title title2("Round-trip time RTT(p): measured" . (any_fit("rtt", "rtt") ? " and fitted t_{rtt}(p)" : ""), \
                 provenance(file(word(series, 1)))) font ",13"
set xlabel plabel(file(word(series, 1)), "peers addressed at once, thesis scenario 2") noenhanced
set ylabel "RTT(p) [µs]"
# one y range for every panel, so that the operations compare by eye
yr = range_of(sh(dir) . "/*-rtt.csv", "min_us,avg_us")
ylo = real(word(yr, 1)); yhi = real(word(yr, 2))
eval yaxis(yr)
if (yhi >= 4 * ylo) { set yrange [ylo / 1.15 : yhi * 1.15] } else { set yrange [0 : yhi * 1.05] }
# x: the measured p (fitted curves are sampled up to the largest pmax of any fit)
pmax = real(word(range_of(sh(dir) . "/*-rtt.csv", "p"), 2))
set xrange [0 : pmax + 0.5]
if (pmax < 10) { set xtics 1 }
set key below maxrows 3
set bmargin 6.5
do for [op in ops] {
    list = series_of(series, op)
    set title op noenhanced
    eval "plot NaN notitle" . \
        clause(list, 'for [s in list] file(s) using "p":"min_us" with points pt 7 ps 0.7 \
                      lc rgb scolor(s) title s . " min" noenhanced') . \
        clause(list, 'for [s in list] file(s) using "p":"avg_us" with points pt 6 ps 0.7 \
                      lc rgb scolor(s) title s . " avg" noenhanced') . \
        clause(list, 'for [s in list] ' . PSAMPLE . ' using (q):(fit_at(rtt_fit(s, "min"), q)) \
                      with lines lw 1.5 lc rgb scolor(s) notitle') . \
        clause(list, 'for [s in list] ' . PSAMPLE . ' using (q):(fit_at(rtt_fit(s, "avg"), q)) \
                      with lines lw 1.5 dt 2 lc rgb scolor(s) notitle') . \
        (any_fit("rtt", "rtt") ? ', NaN with lines lw 1.5 lc rgb "black" title "t_{rtt} fit of min"' . \
                                 ', NaN with lines lw 1.5 dt 2 lc rgb "black" title "t_{rtt} fit of avg"' : '')
}
unset multiplot
