# fidelity.gp - how right the predictions are: every measured barrier time
# against each model's prediction (scripts/validate.sh's fidelity.csv), with
# the line of a perfect prediction and a band of +-20 %.
#   gnuplot -e "in='OUT/fidelity.csv'" plots/fidelity.gp      -> ./fidelity.png
#   gnuplot -e "in='...'; out='x.svg'; term='svg'" plots/fidelity.gp
fig = "fidelity"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 800
if (!exists("height")) height = 700
if (!exists("in")) { print "fidelity: set in='FILE' (scripts/validate.sh's fidelity.csv)"; exit status 1 }
dir = system("dirname '" . in . "'")
load here . "/common.gp"
if (!readable(in)) { print sprintf("fidelity: %s: no such file", in); exit status 1 }
r = range_of(sh(in), "measured_us,logp_us,lop_us,sim_logp_us,sim_lop_us,loop_us")
if (words(r) < 2) { print sprintf("fidelity: %s: no positive times in its rows", in); exit status 1 }
lo = real(word(r, 1)) / 1.5; hi = real(word(r, 2)) * 1.5

set output out
set title title2("Predicted against measured barrier time", enh(meta(in, "machine_short") . \
    "; " . meta(in, "mpi_short") . "; stat " . word(meta(in, "stat"), 1))) font ",12"
set logscale xy
eval "set xtics " . LOGTICS; eval "set ytics " . LOGTICS
set xrange [lo : hi]; set yrange [lo : hi]
set xlabel "measured [µs]"
set ylabel "predicted [µs]"
set grid
set key top left box opaque
set size square
m(c) = csvsel(in, "measured_us," . c, "")
plot x with lines lc rgb "#000000" title "predicted = measured", \
     1.2 * x with lines dt 2 lc rgb "#888888" title "±20 %", 0.8 * x with lines dt 2 lc rgb "#888888" notitle, \
     m("logp_us") using 1:2 with points pt 6 ps 1.2 lc rgb "#1f77b4" title "LogP closed form", \
     m("lop_us") using 1:2 with points pt 4 ps 1.2 lc rgb "#d62728" title "LoP closed form", \
     m("sim_logp_us") using 1:2 with points pt 7 ps 0.8 lc rgb "#2ca02c" title "LogP simulation", \
     m("sim_lop_us") using 1:2 with points pt 5 ps 0.8 lc rgb "#ff7f0e" title "LoP simulation", \
     m("loop_us") using 1:2 with points pt 9 ps 1.6 lc rgb "#9467bd" title "loop (RTT(1), PRTT's gap)"
