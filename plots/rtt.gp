# rtt.gp - measured round-trip time RTT(p) (min and avg) with the fitted t_rtt(p)
# (thesis 2.3.6.1.1, figures 2.31 and 2.33); one panel per operation.
#   gnuplot -e "dir='DATA'" plots/rtt.gp                   -> ./rtt.png
#   gnuplot -e "dir='DATA'; term='svg'; out='rtt.svg'" plots/rtt.gp
# Reads DIR/<op>-<post>-rtt.csv (lopbench) and, if present, the fitted curves of
# lopfit -o: DIR/curve-<series>-rtt-<stat>.csv, else the rtt_us column of
# DIR/lop-<series>-<stat>.csv, with their 95 % bands where they have intervals.
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
ops = ops_of(series)
# which fits exist, for the key
fits_min = words(with_fit(series, "rtt", "min", "has")) > 0
fits_avg = words(with_fit(series, "rtt", "avg", "has")) > 0
bands = words(with_fit(series, "rtt", "min", "band")) + words(with_fit(series, "rtt", "avg", "band")) > 0

set multiplot layout 1, words(ops) \
    title title2("Round-trip time RTT(p): measured" . (fits_min || fits_avg ? " and fitted" : ""), \
                 provenance(file(word(series, 1)))) font ",13"
set xlabel plabel(file(word(series, 1)), "peers addressed at once, thesis scenario 2") noenhanced
set ylabel "RTT(p) [µs]"
# one y range for every panel, so that the operations compare by eye
yr = range_of(sh(dir) . "/*-rtt.csv", "min_us,avg_us")
ylo = real(word(yr, 1)); yhi = real(word(yr, 2))
eval yaxis(yr)
if (yhi >= 4 * ylo) { set yrange [ylo / 1.15 : yhi * 1.15] } else { set yrange [0 : yhi * 1.05] }
# x: the measured p (fitted curves are drawn over the p range of their fit)
pmax = real(word(range_of(sh(dir) . "/*-rtt.csv", "p"), 2))
set xrange [0 : pmax + 0.5]
if (pmax < 10) { set xtics 1 }
set key below maxrows 3
set bmargin 6.5
KEY_FITS = fit_key(bands, 0)
do for [op in ops] {
    list = series_of(series, op)
    set title op noenhanced
    CMD = "plot NaN notitle" . \
        fit_clauses(list, "rtt", "min", "lw 1.8", "notitle") . \
        fit_clauses(list, "rtt", "avg", "lw 0.9", "notitle") . \
        clause(list, 'for [s in list] file(s) using "p":"min_us" with points pt 7 ps 0.7 \
                      lc rgb scolor(s) title s . " min" noenhanced') . \
        clause(list, 'for [s in list] file(s) using "p":"avg_us" with points pt 6 ps 0.7 \
                      lc rgb scolor(s) title s . " avg" noenhanced') . \
        (fits_min ? ', NaN with lines lw 1.8 lc rgb "black" title "fit of min"' : '') . \
        (fits_avg ? ', NaN with lines lw 0.9 lc rgb "black" title "fit of avg"' : '') . \
        KEY_FITS
    @RUN
}
unset multiplot
