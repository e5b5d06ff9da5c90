# hybrid.gp - simulated barrier time vs P of the flat algorithms and of the
# topology-aware hybrid (models/hybrid.h) on a synthetic machine, one panel
# per rank placement (Meyer and Elster's figures 8 and 11).
#   gnuplot -e "dir='DATA'" plots/hybrid.gp               -> ./hybrid.png
# Reads DIR/hybrid-<map>.csv (block, rr, any present), each made by
#   lopredict --simulate --model logp --topology 8x2x4 --level-L 3.0,0.8,0.2 \
#       --level-o 0.5,0.3,0.1 --or 0 --g 0 --map <map> --alg all,hybrid --p 2..64 --csv
# (columns alg,n,p,rounds,logp_us,lop_us,sim_us).  The hybrid is the thick line.
fig = "hybrid"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1300
if (!exists("height")) height = 600
load here . "/common.gp"

maps = system("cd " . sh(dir) . " 2>/dev/null && for m in block rr; do [ -f hybrid-$m.csv ] && " . \
    "echo $m; done | tr '\\n' ' '")
if (words(maps) == 0) {
    print sprintf("%s: %s: no hybrid-block.csv or hybrid-rr.csv (lopredict --alg all,hybrid " . \
        "--simulate --csv) to plot", fig, dir)
    exit status 1
}
file(m) = dir . "/hybrid-" . m . ".csv"
f1 = file(word(maps, 1))
if (system("grep -c '^hybrid,' " . sh(f1)) + 0 == 0) {
    print sprintf("%s: %s: no hybrid rows (--alg all,hybrid)", fig, f1)
    exit status 1
}
# the flat curves: "alg,n" keys of the first file with a simulated time, hybrid last
keys = system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=alg,n,sim_us " . sh(f1) . \
    " | awk -F, 'NR > 1 && $3 != \"\" && $1 != \"hybrid\" && !seen[$1 \",\" $2]++ { print $1 \",\" $2 }' | tr '\\n' ' '")
alg_of(k) = k[1:strstrt(k, ",") - 1]
n_of(k) = k[strstrt(k, ",") + 1:]
label(k) = n_of(k) eq "" ? alg_of(k) : alg_of(k) . " (n=" . n_of(k) . ")"
curve(m, k) = csvsel(file(m), "p,sim_us", "alg=" . alg_of(k) . ",n=" . n_of(k))
machine = enh(meta(f1, "lopredict") eq "" ? "" : "8x2x4, L = 3.0, 0.8, 0.2 µs, o = 0.5, 0.3, 0.1 µs per level")
mapname(m) = m eq "rr" ? "round-robin placement" : "block placement"

yr = range_of(sh(dir) . "/hybrid-*.csv", "sim_us")
ymin = real(word(yr, 1))
ymax = real(word(yr, 2))
if (ymax <= 0) {
    print sprintf("%s: %s: no positive simulated times to plot", fig, f1)
    exit status 1
}

set output out
npanel = words(maps)
left = 0.07; right = 0.84; gap = 0.05
pw = (right - left - (npanel - 1) * gap) / npanel
set multiplot title title2("Flat barriers vs the hybrid (Meyer and Elster VII), simulated LogP", \
    machine) font ",13"
set xlabel "P (processes)"
set logscale x 2
eval yaxis(yr)
set autoscale xfix
set yrange [ymin / 1.15 : ymax * 1.15]
do for [i = 1:npanel] {
    m = word(maps, i)
    set lmargin at screen left + (i - 1) * (pw + gap)
    set rmargin at screen left + (i - 1) * (pw + gap) + pw
    set tmargin at screen 0.86
    set bmargin at screen 0.12
    set title mapname(m)
    set ylabel (i == 1 ? "simulated time (µs)" : "")
    if (i == npanel) { set key outside right top } else { unset key }
    plot for [j = 1:words(keys)] curve(m, word(keys, j)) using 1:2 with lines \
            lw 1 lc rgb pcolor(j) title label(word(keys, j)), \
        csvsel(file(m), "p,sim_us", "alg=hybrid") using 1:2 with lines lw 3.5 lc rgb "black" \
            title "hybrid"
}
unset multiplot
