# impact.gp - how much background traffic slows each barrier: the Congestion
# Impact Factor of GPCNeT (Chunduri et al., Cray's network_load_test.c),
# congested / isolated, of the mean (impact_avg) and of the 99th percentile
# (impact_p99), per algorithm and executor, at one P.
#   gnuplot -e "dir='DATA'" plots/impact.gp          -> ./impact.png
#   gnuplot -e "dir='DATA'; p=4" plots/impact.gp     (default: the largest P)
# Reads DIR/barrier-congested.csv (lopbench --barrier --congest), columns
# executor, alg, n, p, condition, impact_avg, impact_p99.  A bar from 1 to
# the factor: up where the traffic slows the barrier down; a line at 1 (no
# impact); the executors in groups, MPI_Barrier last.
fig = "impact"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1100
if (!exists("height")) height = 560
load here . "/common.gp"

data = dir . "/barrier-congested.csv"
if (!readable(data)) {
    print sprintf("%s: %s: no such file (lopbench --barrier --congest output)", fig, data)
    exit status 1
}
congest(mode) = "awk -F, -f " . sh(here . "/congest.awk") . " -v fig=impact -v mode=" . mode . \
    (exists("p") ? sprintf(" -v P=%d", p) : "") . " " . sh(data)
why = system(congest("check") . " 2>&1")
if (why ne "") {
    print sprintf("%s: %s", fig, why)
    exit status 1
}
load "< " . congest("setup")
set output out

traffic = meta(data, "congest") eq "" ? conds : meta(data, "congest")
cores = meta(data, "congest_cores")
set title title2("Congestion impact factor of each barrier: congested / isolated, " . \
    "mean and 99th percentile (GPCNeT)", sprintf("P = %d; ", P) . enh(traffic) . \
    (cores eq "" ? "" : enh("; cores " . cores)) . \
    (meta(data, "oversubscribed") eq "yes" ? ", oversubscribed: more ranks than cores" : "")) font ",13"
set ylabel "congested / isolated"
set xlabel "algorithm"
set xrange [0.4 : NX + 0.6]
set xtics scale 0 nomirror noenhanced
set grid noxtics ytics
eval yaxis(sprintf("%g %g", ymin, ymax))
if (ymax >= 4 * ymin) { set yrange [ymin / 1.3 : ymax * 1.6] } else { set yrange [0 : ymax * 1.2] }
do for [e = 1:NE] {
    set label (EXE[e] eq "mpi" ? "MPI_Barrier" : EXE[e]) at first EXEX[e], graph 0.96 center \
        font ",11" noenhanced
}
set style fill solid 0.8 border rgb "#333333"
set key below horizontal maxrows 1 width 1
set bmargin 6
BW = 0.36
# boxxyerror: x, y, x from, x to, y from 1 to the factor
CMD = "plot $IMP using ($1 - BW / 2):2:($1 - BW):($1):(1):2 with boxxyerror lc rgb '#1f5fa8' " . \
        "title 'impact\\_avg: mean congested / mean isolated', " . \
    "$IMP using ($1 + BW / 2):3:($1):($1 + BW):(1):3 with boxxyerror lc rgb '#e08a00' " . \
        "title 'impact\\_p99: p99 congested / p99 isolated', " . \
    "1 with lines dt (10, 6) lw 2 lc rgb 'black' title 'no impact (1)'"
@RUN
