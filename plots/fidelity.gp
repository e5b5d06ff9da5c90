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
# the models: every err_M column of the file (fidelity.awk keeps lopredict's)
models = system("awk -F, '!/^#/ { for (i = 1; i <= NF; i++) if ($i ~ /^err_/) " . \
    "printf \"%s \", substr($i, 5); exit }' " . sh(in))
us_cols = ""
do for [k = 1:words(models)] { us_cols = us_cols . "," . word(models, k) . "_us" }
r = range_of(sh(in), "measured_us" . us_cols)
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
# each known model's look; another one gets the next of the cycle and its name
KNOWN = "logp lop sim_logp sim_lop loop bucket"
PTS = "6 4 7 5 9 11"; PSZ = "1.2 1.2 0.8 0.8 1.6 1.4"
COLS = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b"
known(s) = sum [i = 1:words(KNOWN)] (word(KNOWN, i) eq s ? i : 0)
look(k) = known(word(models, k)) ? known(word(models, k)) : (k - 1) % words(KNOWN) + 1
title_of(s) = s eq "logp" ? "LogP closed form" : s eq "lop" ? "LoP closed form" : \
    s eq "sim_logp" ? "LogP simulation" : s eq "sim_lop" ? "LoP simulation" : \
    s eq "loop" ? "loop (RTT(1), PRTT's gap)" : \
    s eq "bucket" ? "bucket (the loop, token-bucket adapters)" : s
name(k) = title_of(word(models, k))
plot x with lines lc rgb "#000000" title "predicted = measured", \
     1.2 * x with lines dt 2 lc rgb "#888888" title "±20 %", 0.8 * x with lines dt 2 lc rgb "#888888" notitle, \
     for [k = 1:words(models)] m(word(models, k) . "_us") using 1:2 with points \
         pt int(word(PTS, look(k))) ps real(word(PSZ, look(k))) lc rgb word(COLS, look(k)) title name(k)
