# overhead.gp - measured send and receive overheads o_s(p), o_r(p) per message,
# posted normally, inline or as a list, with the fitted t_ov(p) (thesis 2.3.6.1.2,
# figures 2.32 and 2.34); one panel per operation.
#   gnuplot -e "dir='DATA'" plots/overhead.gp              -> ./overhead.png
#   gnuplot -e "dir='DATA'; stat='avg'" plots/overhead.gp  (default stat: min)
# Reads DIR/<op>-<post>-os.csv, -or.csv (lopbench) and, if present, DIR/params.csv.
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
ov_fit(s, q) = fit_find(s, q, stat, "ov")
# does any series of list have a fit of q (a key entry for the panel's fitted curves)?
fitted_in(list, q) = sum [i = 1:words(list)] (ov_fit(word(list, i), q) > 0) > 0
ops = ops_of(os_series . " " . or_series)
first = words(os_series) ? file(word(os_series, 1), "os") : file(word(or_series, 1), "or")

set multiplot layout 1, words(ops) \
    title title2(sprintf("Overhead per message (%s): send o_s(p), receive o_r(p)%s", stat, \
                 any_fit("os", "ov") || any_fit("or", "ov") ? " and fitted t_{ov}(p)" : ""), \
                 provenance(first)) font ",13"
set xlabel plabel(first, "requests posted back to back, thesis scenario 1") noenhanced
set ylabel sprintf("%s overhead per message [µs]", stat)
set logscale x 2
# x: the measured p (fitted curves are sampled up to the largest pmax of any fit)
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
    eval "plot NaN notitle" . \
        clause(os_list, 'for [s in os_list] file(s, "os") using "p":col with points pt 7 ps 0.7 \
                         lc rgb scolor(s) title "o_s " . s') . \
        clause(or_list, 'for [s in or_list] file(s, "or") using "p":col with points pt 4 ps 0.7 \
                         lc rgb scolor(s) title "o_r " . s') . \
        clause(os_list, 'for [s in os_list] ' . PSAMPLE . ' using (q):(fit_at(ov_fit(s, "os"), q)) with lines lw 1.5 \
                         lc rgb scolor(s) notitle') . \
        clause(or_list, 'for [s in or_list] ' . PSAMPLE . ' using (q):(fit_at(ov_fit(s, "or"), q)) with lines lw 1.5 dt 2 \
                         lc rgb scolor(s) notitle') . \
        (fitted_in(os_list, "os") ? ', NaN with lines lw 1.5 lc rgb "black" title "t_{ov} fit of o_s"' : '') . \
        (fitted_in(or_list, "or") ? ', NaN with lines lw 1.5 dt 2 lc rgb "black" title "t_{ov} fit of o_r"' : '')
}
unset multiplot
