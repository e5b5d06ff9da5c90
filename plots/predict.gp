# predict.gp - predicted barrier time vs P for every algorithm: LogP, and LoP at
# each cnt (consecutive barriers, thesis 2.3.7.1), as the thesis's figure 2.38.
#   gnuplot -e "dir='DATA'" plots/predict.gp               -> ./predict.png
# Reads DIR/predict-cnt<C>.csv, one per cnt, each made by
#   lopredict --alg all --p 2..64 --cnt C --csv > DIR/predict-cnt<C>.csv
# (columns alg,n,p,logp_us,lop_us).  LogP does not depend on cnt: its panel is
# drawn from the file with the smallest cnt.
fig = "predict"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1400
if (!exists("height")) height = 600
load here . "/common.gp"

cnts = system("cd " . sh(dir) . " 2>/dev/null && for f in predict-cnt*.csv; do [ -f \"$f\" ] && " . \
    "f=${f#predict-cnt} && echo ${f%.csv}; done | sort -n | tr '\\n' ' '")
if (words(cnts) == 0) {
    print sprintf("%s: %s: no predict-cnt<C>.csv files (lopredict --csv output) to plot", fig, dir)
    exit status 1
}
file(c) = dir . "/predict-cnt" . c . ".csv"
# the curves: "alg,n" keys of the first file, in file order
keys = system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=alg,n -v distinct=1 " . \
    sh(file(word(cnts, 1))) . " | tr '\\n' ' '")
alg_of(k) = k[1:strstrt(k, ",") - 1]
n_of(k) = k[strstrt(k, ",") + 1:]
label(k) = (n_of(k) eq "" || n_of(k) eq "0") ? alg_of(k) : alg_of(k) . " (n=" . n_of(k) . ")"
curve(c, k, col) = csvsel(file(c), "p," . col, "alg=" . alg_of(k) . ",n=" . n_of(k))
setup = predicted_by(file(word(cnts, 1)))
# the LogP panel's title: lopredict's "# logp: L=4.1435 os=1.5326 or=1.5326 g=0.0000 us"
logp_set = system("printf '%s' " . sh(meta(file(word(cnts, 1)), "logp")) . " | awk '{ s = \"\"; " . \
    "for (i = 1; i <= NF; i++) if (split($i, kv, \"=\") == 2) s = s (s == \"\" ? \"\" : \", \") " . \
    "(kv[1] == \"os\" ? \"o_s\" : kv[1] == \"or\" ? \"o_r\" : kv[1]) \" = \" sprintf(\"%.3g\", kv[2]); " . \
    "print s (s == \"\" ? \"\" : \" µs\") }'")
# hardware-supported barriers (thesis chapter 3) are dashed
hw(k) = alg_of(k)[1:2] eq "hw"

# one y range for all panels, so that LogP and the cnt values compare by eye
yr = range_of(sh(dir) . "/predict-cnt*.csv", "logp_us,lop_us")
ymin = real(word(yr, 1))
ymax = pred_top(yr, range_of(sh(dir) . "/predict-cnt*.csv", "logp_us"))
yr = sprintf("%.17g %.17g", ymin, ymax)
if (ymax <= 0) {
    print sprintf("%s: %s: no positive predicted times to plot on a log scale", fig, file(word(cnts, 1)))
    exit status 1
}

set output out
# panels side by side, the key to the right of the last
npanel = 1 + words(cnts)
left = 0.075; right = 0.855; gap = 0.03
pw = (right - left - (npanel - 1) * gap) / npanel
set multiplot title title2("Predicted barrier time vs P (thesis 2.3.7.1, figure 2.38)", \
    setup eq "" ? "" : "LoP: " . setup) font ",13"
set xlabel "P (processes)"
set logscale x 2
eval yaxis(yr)
set autoscale xfix
set yrange [ymin / 1.15 : ymax * 1.15]
# per LoP panel: a note on the times that cannot be drawn; a second title line
# needs a lower top margin
array NOTE[words(cnts)]
notes = 0
do for [i = 1:words(cnts)] {
    NOTE[i] = off_note(n_off(file(word(cnts, i)), "lop_us", "", ymax * 1.15), file(word(cnts, i)), "")
    notes = notes || NOTE[i] ne ""
}
set tmargin at screen (notes ? 0.83 : 0.86)
set bmargin at screen 0.11
do for [i = 1:npanel] {
    set lmargin at screen left + (i - 1) * (pw + gap)
    set rmargin at screen left + (i - 1) * (pw + gap) + pw
    if (i == 1) {
        set ylabel "predicted time per barrier [µs]"
        set format y "%g"
    } else {
        unset ylabel
        set format y ""
    }
    if (i == npanel) {
        set key at screen right + 0.015, 0.86 left top vertical Left reverse noenhanced
    } else {
        unset key
    }
    if (i == 1) {
        set title "LogP" . (logp_set eq "" ? " (constant L, o)" : ": " . logp_set)
        plot for [j = 1:words(keys)] curve(word(cnts, 1), word(keys, j), "logp_us") \
             using "p":"logp_us" with lines lw 1.8 lc rgb pcolor(j) dt 1 + hw(word(keys, j)) title label(word(keys, j))
    } else {
        c = word(cnts, i - 1)
        set title sprintf("LoP, cnt = %s consecutive barrier%s", c, c eq "1" ? "" : "s") . NOTE[i - 1]
        plot for [j = 1:words(keys)] curve(c, word(keys, j), "lop_us") \
             using "p":"lop_us" with lines lw 1.8 lc rgb pcolor(j) dt 1 + hw(word(keys, j)) title label(word(keys, j))
    }
}
unset multiplot
