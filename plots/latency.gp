# latency.gp - the LoP latency L(p) of every series (thesis 2.3.4, 2.3.7, figure 2.36)
# with its 95 % band, and L^list(p) where a list overhead was measured; one panel
# per statistic (min, avg).
#   gnuplot -e "dir='DATA'" plots/latency.gp               -> ./latency.png
# Reads DIR/lop-<series>-<stat>.csv, the tables lopfit -o writes (also from a
# parameter set alone: lopfit --from-params FILE -o DIR, e.g. the shipped
# data/mozart-2005).  L(p) is drawn from the table's L_us at every integer p,
# solid inside the fitted p range, dashed where the table marks it extrapolated,
# with the band L_lo_us..L_hi_us where the fits had a covariance.
fig = "latency"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 600
load here . "/common.gp"

tabled(st) = names("lop-*-" . st . ".csv", "lop-", "-" . st . ".csv")
stats_all = ""
do for [st in "min avg median"] {
    if (words(tabled(st)) > 0) { stats_all = stats_all . " " . st }
}
if (words(stats_all) == 0) {
    print sprintf("%s: %s: no lop-<series>-<stat>.csv tables to plot (lopfit -o, or lopfit --from-params FILE -o DIR)", fig, dir)
    exit status 1
}

# x range: the tables' p range
pmax = 0
do for [st in stats_all] {
    do for [s in tabled(st)] {
        stats tablefile(s, st) using "p" nooutput
        pmax = STATS_max > pmax ? STATS_max : pmax
    }
}
pmax = pmax > 1 ? pmax : 2
# L(p) with its band (lcmd); L^list(p) = RTT/2 - (p o_s^list(p) + o_s^list(1)),
# dotted, whole (listcmd): it falls far below zero for large p, so the y range
# follows L(p) and its band alone (found by a dry run) and L^list leaves the
# frame where it is below that range.
# (points at every p of the tables: p counts messages, and a fit of few points
# may have a table of one row)
lcmd(tl) = "plot NaN notitle" . band_clause(with_fit(tl, "L", st, "band"), "L", st) . \
    line_clause(with_fit(tl, "L", st, "has"), "L", st, "linespoints", "lw 2 pt 7 ps 0.4", "title s noenhanced")
listcmd(ll) = clause(ll, 'for [s in "' . ll . '"] for [c = 2:3] fit_data(s, "Llist", "' . st . '") ' . \
    'using 1:c with lines lw 1.5 dt 3 lc rgb scolor(s) notitle')
# log2 p when p spans more than a few powers of 2, else every integer p
if (pmax > 16) { set logscale x 2 } else { set xtics 1 }
set xrange [1:pmax]
set offsets 0, 0, graph 0.05, graph 0.05
array YMIN[words(stats_all)]
array YMAX[words(stats_all)]
do for [i = 1:words(stats_all)] {
    st = word(stats_all, i)
    set table $dry
    eval lcmd(tabled(st))
    unset table
    YMIN[i] = GPVAL_Y_MIN < 0 ? GPVAL_Y_MIN : 0
    YMAX[i] = GPVAL_Y_MAX
}
undefine $dry
set output out

# provenance: the measurements' metadata, else the parameter set's "# cluster:"
rtts = names("*-rtt.csv", "", "-rtt.csv")
params = dir . "/params.csv"
origin = words(rtts) ? provenance(dir . "/" . word(rtts, 1) . "-rtt.csv") : \
    (readable(params) && meta(params, "cluster") ne "" ? enh(meta(params, "cluster")) : "")
set multiplot layout 1, words(stats_all) \
    title title2("LoP latency L(p) = RTT(p)/2 - (o_s(p) + o_s(1))  (thesis 2.3.4, 2.3.7, figure 2.36)", \
    origin) font ",13"
set xlabel "p (messages in flight)"
set ylabel "L(p) [µs]"
set key below maxrows 3
set bmargin 6.5
set xzeroaxis lt 1 lc rgb "#888888" lw 1
do for [i = 1:words(stats_all)] {
    st = word(stats_all, i)
    tl = tabled(st)
    ll = with_fit(tl, "Llist", st, "has")
    bl = with_fit(tl, "L", st, "band")
    xl = system("for s in " . tl . "; do awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=extrapolated " . \
        sh(dir) . "/lop-$s-" . st . ".csv 2>/dev/null | grep -qx 1 && echo $s; done | tr '\\n' ' '")
    set yrange [YMIN[i] - 0.05 * (YMAX[i] - YMIN[i]) : YMAX[i] + 0.05 * (YMAX[i] - YMIN[i])]
    set title st
    CMD = lcmd(tl) . listcmd(ll) . \
        ', NaN with lines lw 2 lc rgb "black" title "LoP L(p)"' . \
        (words(ll) ? ', NaN with lines lw 1.5 dt 3 lc rgb "black" title "L^{list}(p)"' : '') . \
        fit_key(words(bl) > 0, words(xl) > 0)
    @RUN
}
unset multiplot
