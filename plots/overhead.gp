# overhead.gp - measured send and receive overheads o_s(p), o_r(p) per message,
# posted normally, inline or as a list, with the fitted t_ov(p) (thesis 2.3.6.1.2,
# figures 2.32 and 2.34); one panel per operation.
#   gnuplot -e "dir='DATA'" plots/overhead.gp              -> ./overhead.png
#   gnuplot -e "dir='DATA'; stat='avg'" plots/overhead.gp  (default stat: min)
# Reads DIR/<op>-<post>-os.csv, -or.csv (lopbench) and, if present, the fitted
# curves of lopfit -o: DIR/curve-<series>-os-<stat>.csv (-or-), else the os_us,
# or_us columns of DIR/lop-<series>-<stat>.csv, with their 95 % bands.
fig = "overhead"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 600
if (!exists("stat")) stat = "min"
load here . "/common.gp"

os_series = names("*-os.csv", "", "-os.csv")
or_series = names("*-or.csv", "", "-or.csv")
if (words(os_series) + words(or_series) == 0) {
    print sprintf("%s: %s: no *-os.csv or *-or.csv files (lopbench output) to plot", fig, dir)
    exit status 1
}
set output out
file(s, q) = dir . "/" . s . "-" . q . ".csv"
# does any series of list have a fit of q (a key entry for the panel's fitted curves)?
fitted_in(list, q) = words(with_fit(list, q, stat, "has")) > 0
banded_in(list, q) = words(with_fit(list, q, stat, "band")) > 0
ops = ops_of(os_series . " " . or_series)
first = words(os_series) ? file(word(os_series, 1), "os") : file(word(or_series, 1), "or")

set multiplot layout 1, words(ops) \
    title title2(sprintf("Overhead per message (%s): send o_s(p), receive o_r(p)%s", stat, \
                 fitted_in(os_series, "os") || fitted_in(or_series, "or") ? " and fitted" : ""), \
                 provenance(first)) font ",13"
set xlabel plabel(first, "requests posted back to back, thesis scenario 1") noenhanced
set ylabel sprintf("%s overhead per message [µs]", stat)
set logscale x 2
# x: the measured p (fitted curves are drawn over the p range of their fit)
xr = range_of(sh(dir) . "/*-os.csv " . sh(dir) . "/*-or.csv", "p")
set xrange [real(word(xr, 1)) / 1.05 : real(word(xr, 2)) * 1.05]
set offsets 0, 0, graph 0.05, 0
set yrange [0:*]
set key below maxrows 3
set bmargin 7
col = stat . "_us"
do for [op in ops] {
    os_list = series_of(os_series, op)
    or_list = series_of(or_series, op)
    set title op noenhanced
    CMD = "plot NaN notitle" . \
        fit_clauses(os_list, "os", stat, "lw 1.5", "notitle") . \
        fit_clauses(or_list, "or", stat, "lw 0.8", "notitle") . \
        clause(os_list, 'for [s in os_list] file(s, "os") using "p":col with points pt 7 ps 0.7 \
                         lc rgb scolor(s) title "o_s " . s') . \
        clause(or_list, 'for [s in or_list] file(s, "or") using "p":col with points pt 4 ps 0.7 \
                         lc rgb scolor(s) title "o_r " . s') . \
        (fitted_in(os_list, "os") ? ', NaN with lines lw 1.5 lc rgb "black" title "fit of o_s"' : '') . \
        (fitted_in(or_list, "or") ? ', NaN with lines lw 0.8 lc rgb "black" title "fit of o_r"' : '') . \
        fit_key(banded_in(os_list, "os") || banded_in(or_list, "or"), 0)
    @RUN
}
unset multiplot
