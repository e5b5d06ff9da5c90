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
# series with an rtt and an os fit for st: their L(p) is drawn as a curve from the fits
fitted(st) = FIT_n == 0 ? "" : ordered(system("awk -F, -v st=" . st . \
    " '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }" . \
    " $c[\"stat\"] == st && $c[\"quantity\"] == \"rtt\" && $c[\"model\"] == \"rtt\" { r[$c[\"series\"]] = 1 }" . \
    " $c[\"stat\"] == st && $c[\"quantity\"] == \"os\" && $c[\"model\"] == \"ov\" { o[$c[\"series\"]] = 1 }" . \
    " END { for (s in r) if (s in o) print s }' " . sh(params) . " | tr '\\n' ' '"))
# the words of list a that are (not) in list b
among(a, b) = system("for s in " . a . "; do case ' " . b . " ' in *\" $s \"*) echo $s;; esac; done | tr '\\n' ' '")
except(a, b) = system("for s in " . a . "; do case ' " . b . " ' in *\" $s \"*) ;; *) echo $s;; esac; done | tr '\\n' ' '")
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
# the tables of list (for the current st) with an L^list column that is not empty
listed(list) = system("for s in " . list . "; do awk -F, -f " . sh(here . "/csvsel.awk") . \
    " -v cols=Llist_us " . sh(dir) . "/lop-$s-" . st . ".csv | grep -q '[0-9]' && echo $s; done | tr '\\n' ' '")

# The plot of one statistic: L(p) and LogP's line (lcmd), then L^list(p) (listcmd).
# They read the lists fl (series with fits: a curve), tp (tables of those: their
# points), tl (tables without fits: points joined by lines) and ll (those of tl
# with an L^list column).
lcmd(fl, tp, tl) = "plot NaN notitle" . \
    clause(fl, 'for [s in fl] ' . PSAMPLE . ' using (q):(L_fit(s, st, q)) with lines lw 2 \
                lc rgb scolor(s) title s noenhanced') . \
    clause(tp, 'for [s in tp] table(s, st) using "p":"L_us" with points pt 7 ps 0.5 \
                lc rgb scolor(s) notitle') . \
    clause(tl, 'for [s in tl] table(s, st) using "p":"L_us" with linespoints pt 7 ps 0.45 lw 2 \
                lc rgb scolor(s) title s noenhanced') . \
    clause(fl, 'for [s in fl] ' . PSAMPLE . ' using (q):(L_logp(s, st, q)) with lines lw 1.2 dt 2 \
                lc rgb scolor(s) notitle')
listcmd(fl, ll) = clause(ll, 'for [s in ll] table(s, st) using "p":"Llist_us" with lines lw 1.5 dt 3 \
                lc rgb scolor(s) notitle') . \
    clause(fl, 'for [s in fl] ' . PSAMPLE . ' using (q):(Llist_fit(s, st, q)) with lines lw 1.5 dt 3 \
                lc rgb scolor(s) notitle')
# L^list = RTT/2 - (p o_s^list(p) + o_s^list(1)) falls far below zero for large p;
# the y range follows L(p) and LogP's line (found by a dry run), so it does not
# squeeze them, and L^list leaves the frame where it is below that range.
# log2 p when p spans more than a few powers of 2, else every integer p
if (pmax > 16) { set logscale x 2 } else { set xtics 1 }
set xrange [1:pmax]
set offsets 0, 0, graph 0.05, graph 0.05
array YMIN[words(stats_all)]
array YMAX[words(stats_all)]
do for [i = 1:words(stats_all)] {
    st = word(stats_all, i)
    fl = fitted(st); tp = among(tabled(st), fl); tl = except(tabled(st), fl)
    set table $dry
    eval lcmd(fl, tp, tl)
    unset table
    YMIN[i] = GPVAL_Y_MIN < 0 ? GPVAL_Y_MIN : 0
    YMAX[i] = GPVAL_Y_MAX
}
undefine $dry
set output out

# provenance: the measurements' metadata, else the parameter set's "# cluster:"
rtts = names("*-rtt.csv", "", "-rtt.csv")
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
    fl = fitted(st); tp = among(tabled(st), fl); tl = except(tabled(st), fl); ll = listed(tl)
    has_list = words(ll) > 0
    do for [s in fl] { if (oslist_i(s, st) > 0) { has_list = 1 } }
    set yrange [YMIN[i] - 0.05 * (YMAX[i] - YMIN[i]) : YMAX[i] + 0.05 * (YMAX[i] - YMIN[i])]
    set title st
    eval lcmd(fl, tp, tl) . listcmd(fl, ll) . \
        ', NaN with lines lw 2 lc rgb "black" title "LoP L(p)"' . \
        (words(tp) ? ', NaN with points pt 7 ps 0.5 lc rgb "black" title "lopfit table (lop-*.csv)"' : '') . \
        (has_list ? ', NaN with lines lw 1.5 dt 3 lc rgb "black" title "L^{list}(p)"' : '') . \
        (has_logp ? ', NaN with lines lw 1.2 dt 2 lc rgb "black" title "LogP: linear RTT fit"' : '')
}
unset multiplot
