# latency.gp - the LoP latency L(p) of every series (thesis 2.3.4, 2.3.7, figure 2.36),
# L^list(p) where a list overhead was measured, and LogP's linear shape beside it;
# one panel per statistic (min, avg).
#   gnuplot -e "dir='DATA'" plots/latency.gp               -> ./latency.png
# Reads DIR/lop-<series>-<stat>.csv (lopfit) and DIR/params.csv.  Without lop-*
# tables L(p) = t_rtt(p)/2 - (t_ov(p) + t_ov(1)) is drawn from params.csv alone
# (e.g. the shipped data/mozart-2005).  The LogP line is the same formula with the
# linear fits (lopfit --compare) of RTT, and of o_s where one was made.
fig = "latency"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 600
load here . "/common.gp"

table(s, st) = dir . "/lop-" . s . "-" . st . ".csv"
tabled(st) = names("lop-*-" . st . ".csv", "lop-", "-" . st . ".csv")
# series with an rtt and an os fit for st but no lop table: drawn from the fits
fitted(st) = FIT_n == 0 ? "" : system("awk -F, -v st=" . st . " -v have=" . sh(" " . tabled(st) . " ") . \
    " '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }" . \
    " $c[\"stat\"] == st && $c[\"quantity\"] == \"rtt\" && $c[\"model\"] == \"rtt\" { r[$c[\"series\"]] = 1 }" . \
    " $c[\"stat\"] == st && $c[\"quantity\"] == \"os\" && $c[\"model\"] == \"ov\" { o[$c[\"series\"]] = 1 }" . \
    " END { for (s in r) if ((s in o) && index(have, \" \" s \" \") == 0) print s }' " . sh(params) . " | tr '\\n' ' '")
fitted_ordered(st) = ordered(fitted(st))
stats_all = ""
do for [st in "min avg median"] {
    if (words(tabled(st)) + words(fitted(st)) > 0) { stats_all = stats_all . " " . st }
}
if (words(stats_all) == 0) {
    print sprintf("%s: %s: no lop-<series>-<stat>.csv tables and no rtt+os fits in params.csv to plot", fig, dir)
    exit status 1
}

# L(p) and L^list(p) from the fits (thesis 2.3.4), and LogP's linear variant
rtt_i(s, st, m) = fit_find(s, "rtt", st, m)
os_i(s, st) = fit_find(s, "os", st, "ov")
oslist_i(s, st) = fit_find(opof(s) . "-list", "os", st, "ov")
os_lin_i(s, st) = fit_find(s, "os", st, "linear") ? fit_find(s, "os", st, "linear") : os_i(s, st)
L_fit(s, st, p) = fit_at(rtt_i(s, st, "rtt"), p) / 2 - (fit_at(os_i(s, st), p) + fit_at(os_i(s, st), 1))
Llist_fit(s, st, p) = fit_at(rtt_i(s, st, "rtt"), p) / 2 - \
    (p * fit_at(oslist_i(s, st), p) + fit_at(oslist_i(s, st), 1))
L_logp(s, st, p) = rtt_i(s, st, "linear") == 0 ? NaN : \
    fit_at(rtt_i(s, st, "linear"), p) / 2 - (fit_at(os_lin_i(s, st), p) + fit_at(os_lin_i(s, st), 1))
has_logp = FIT_n > 0 && sum [i = 1:FIT_n] (FIT_model[i] eq "linear" && FIT_quantity[i] eq "rtt" ? 1 : 0) > 0
# x range: the tables' p range, else the fitted p range, else 1..64
pmax = 0
do for [st in stats_all] {
    do for [s in tabled(st)] {
        stats table(s, st) using "p" nooutput
        pmax = STATS_max > pmax ? STATS_max : pmax
    }
}
if (pmax == 0) {
    # L(p) needs both fits: the smaller of the largest finite rtt and os pmax
    prtt = 0; pos = 0
    do for [i = 1:FIT_n] {
        if (FIT_pmax[i] < 1e299 && FIT_quantity[i] eq "rtt" && FIT_pmax[i] > prtt) { prtt = FIT_pmax[i] }
        if (FIT_pmax[i] < 1e299 && FIT_quantity[i] eq "os" && FIT_pmax[i] > pos) { pos = FIT_pmax[i] }
    }
    pmax = prtt > 0 && pos > 0 ? (prtt < pos ? prtt : pos) : (prtt > pos ? prtt : pos)
}
pmax = pmax > 1 ? pmax : 64
# the tables with an L^list column that is not empty
listed(st) = system("for s in " . tabled(st) . "; do awk -F, -f " . sh(here . "/csvsel.awk") . \
    " -v cols=Llist_us " . sh(dir) . "/lop-$s-" . st . ".csv | grep -q '[0-9]' && echo $s; done | tr '\\n' ' '")

# The plot of one statistic: L(p) and LogP's line (lcmd), then L^list(p) (listcmd).
# They read the lists tl (tables), fl (fits only) and ll (tables with L^list).
lcmd(tl, fl) = "plot NaN notitle" . \
    clause(tl, 'for [s in tl] table(s, st) using "p":"L_us" with linespoints pt 7 ps 0.45 lw 2 \
                lc rgb scolor(s) title s noenhanced') . \
    clause(fl, 'for [s in fl] L_fit(s, st, x) with lines lw 2 lc rgb scolor(s) title s noenhanced') . \
    clause(tl . fl, 'for [s in tl . " " . fl] L_logp(s, st, x) with lines lw 1.2 dt 2 \
                lc rgb scolor(s) notitle')
listcmd(ll, fl) = clause(ll, 'for [s in ll] table(s, st) using "p":"Llist_us" with lines lw 1.5 dt 3 \
                lc rgb scolor(s) notitle') . \
    clause(fl, 'for [s in fl] Llist_fit(s, st, x) with lines lw 1.5 dt 3 lc rgb scolor(s) notitle')
# L^list = RTT/2 - (p o_s^list(p) + o_s^list(1)) falls far below zero for large p;
# the y range follows L(p) and LogP's line (found by a dry run), so it does not
# squeeze them, and L^list leaves the frame where it is below that range.
set logscale x 2
set xrange [1:pmax]
set offsets 0, 0, graph 0.05, graph 0.05
array YMIN[words(stats_all)]
array YMAX[words(stats_all)]
do for [i = 1:words(stats_all)] {
    st = word(stats_all, i)
    tl = tabled(st); fl = fitted_ordered(st)
    set table $dry
    eval lcmd(tl, fl)
    unset table
    YMIN[i] = GPVAL_Y_MIN < 0 ? GPVAL_Y_MIN : 0
    YMAX[i] = GPVAL_Y_MAX
}
undefine $dry
set output out

set multiplot layout 1, words(stats_all) \
    title "LoP latency L(p) = RTT(p)/2 - (o_s(p) + o_s(1))  (thesis 2.3.4)" font ",13"
set xlabel "p (messages in flight)"
set ylabel "L(p) [µs]"
set key below maxrows 3
set bmargin 6.5
set xzeroaxis lt 1 lc rgb "#888888" lw 1
do for [i = 1:words(stats_all)] {
    st = word(stats_all, i)
    tl = tabled(st); fl = fitted_ordered(st); ll = listed(st)
    has_list = words(ll) > 0
    do for [s in fl] { if (oslist_i(s, st) > 0) { has_list = 1 } }
    set yrange [YMIN[i] - 0.05 * (YMAX[i] - YMIN[i]) : YMAX[i] + 0.05 * (YMAX[i] - YMIN[i])]
    set title st
    eval lcmd(tl, fl) . listcmd(ll, fl) . \
        ', NaN with lines lw 2 lc rgb "black" title "LoP L(p)"' . \
        (has_list ? ', NaN with lines lw 1.5 dt 3 lc rgb "black" title "L^{list}(p)"' : '') . \
        (has_logp ? ', NaN with lines lw 1.2 dt 2 lc rgb "black" title "LogP: linear RTT fit"' : '')
}
unset multiplot
