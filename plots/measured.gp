# measured.gp - measured barrier time per algorithm and executor next to the LogP
# and LoP predictions, with MPI_Barrier as the reference (thesis figure 4.6), at one P.
#   gnuplot -e "dir='DATA'" plots/measured.gp              -> ./measured.png
#   gnuplot -e "dir='DATA'; p=4" plots/measured.gp         (default: the largest P measured)
# Reads DIR/barrier.csv (lopbench --barrier) and, if present, DIR/measured.csv: the
# predictions for the same runs, any CSV with alg,n,p,logp_us,lop_us (+ executor,
# sim_logp_us, sim_lop_us), e.g. lopredict --measured DIR/barrier.csv --csv > DIR/measured.csv
# or lopredict --alg all --p 4 --simulate --csv > DIR/measured.csv; drawn as markers
# on the bar of the executor they predict (see measured.awk).
fig = "measured"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 600
load here . "/common.gp"

data = dir . "/barrier.csv"
pred = dir . "/measured.csv"
if (!readable(data)) {
    print sprintf("%s: %s: no such file (lopbench --barrier output)", fig, data)
    exit status 1
}
inputs = sh(data) . (readable(pred) ? " " . sh(pred) : "")
if (!exists("p")) {
    p = real(system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=p " . sh(data) . \
        " | awk 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m + 0 }'"))
}
join(mode) = "awk -F, -f " . sh(here . "/measured.awk") . sprintf(" -v P=%d -v mode=", p) . mode . " " . inputs
load "< " . join("setup")
if (NC == 0) {
    print sprintf("%s: %s: no barrier rows at P = %d besides MPI_Barrier", fig, data, p)
    exit status 1
}
set output out
over = meta(data, "oversubscribed")
# the predictions' parameter set: lopredict --measured names a series per row
# (pred_series: "p2p send-normal, shm rdmaw-normal"), lopredict --alg in # series:
pred_set = !readable(pred) ? "" : pred_series eq "" ? predicted_by(pred) : \
    enh(pred_series . " " . meta(pred, "stat") . \
        (meta(pred, "params") eq "" ? "" : " of " . short(meta(pred, "params"))))
setup = sprintf("P = %d", p) . (over eq "yes" ? ", oversubscribed: more ranks than cores" : "") . \
    (!readable(pred) ? ", no measured.csv: predictions not drawn" : \
     pred_set eq "" ? "" : "; predictions: " . pred_set)

set title title2("Barrier time: measured (bars: avg, line: median, whiskers: min to p99) " . \
    "and predicted (thesis figure 4.6)", setup) font ",13"
set ylabel "time per barrier [µs]"
set xlabel "algorithm"
set xrange [0.5 : NC + 0.5]
set xtics scale 0 nomirror
set grid noxtics ytics
yr = system(join("data") . " | awk -F, 'NR > 1 { $1 = $2 = \"\"; print }' | awk -f " . sh(here . "/range.awk"))
ymin = real(word(yr, 1)); ymax = real(word(yr, 2))
ymin = mpi_us == mpi_us && mpi_us < ymin ? mpi_us : ymin
ymax = mpi_us == mpi_us && mpi_us > ymax ? mpi_us : ymax
eval yaxis(sprintf("%g %g", ymin, ymax))
if (ymax >= 4 * ymin) { set yrange [ymin / 1.5 : ymax * 1.5] } else { set yrange [0 : ymax * 1.15] }
set style fill solid 0.75 border rgb "#333333"
set boxwidth bar_width absolute
set key below horizontal width 1 maxrows 2
set bmargin 7
barcolor(name) = name eq "p2p" ? "#6fa0d8" : name eq "shm" ? "#8fd3dd" : name eq "verbs" ? "#9fd49f" : "#bbbbbb"
src = "< " . join("data")
# the predictions, as markers on the bar they predict (absent ones are not drawn)
marker(c, pt, ps, color, what) = sprintf(', src using "x":"%s" with points pt %d ps %g lw 1.5 lc rgb "%s" title "%s"', \
    c, pt, ps, color, what)
# its 95 % interval as an error bar, where lopredict gave one
interval(c, color) = sprintf(', src using "x":"%s":"%s_lo":"%s_hi" with yerrorbars pt -1 lw 1.2 lc rgb "%s" notitle', \
    c, c, c, color)
CMD = "plot for [b = 1:NB] src using 'x':(column('bar') == b ? column('us') : NaN) with boxes " . \
         "lc rgb barcolor(BAR[b]) title 'measured ' . BAR[b] noenhanced, " . \
     "src using 'x':'lo':(0):(column('hi') - column('lo')) with vectors heads size screen 0.004, 90 " . \
         "lc rgb '#222222' lw 1 notitle" . \
     (has_median ? ", src using (column('x') - 0.4 * bar_width):'med':(0.8 * bar_width):(0) with vectors nohead " . \
         "lw 2.5 lc rgb '#222222' title 'measured median'" : "") . \
     (has_logp ? marker("logp", 5, 1.0, "#b8860b", "LogP closed form") : "") . \
     (has_lop ? marker("lop", 7, 1.0, "#d1462f", "LoP closed form") : "") . \
     (has_sim_logp ? marker("sim_logp", 4, 1.9, "#b8860b", "LogP simulated") : "") . \
     (has_sim_lop ? marker("sim_lop", 6, 1.9, "#d1462f", "LoP simulated") : "") . \
     (band_logp ? interval("logp", "#b8860b") : "") . (band_lop ? interval("lop", "#d1462f") : "") . \
     (band_sim_logp ? interval("sim_logp", "#b8860b") : "") . (band_sim_lop ? interval("sim_lop", "#d1462f") : "") . \
     (band_logp || band_lop || band_sim_logp || band_sim_lop ? \
         ", keyentry with yerrorbars pt -1 lw 1.2 lc rgb '#555555' title '95 % interval of a prediction'" : "") . \
     ", mpi_us with lines dt (10, 6) lw 2 lc rgb 'black' title sprintf('MPI\\_Barrier %.3g µs', mpi_us)"
@RUN
