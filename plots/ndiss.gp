# ndiss.gp - the n-way dissemination barrier: rounds and predicted time vs n for
# a few P (thesis 2.3.7.1.4, figure 2.39).
#   gnuplot -e "dir='DATA'" plots/ndiss.gp                 -> ./ndiss.png
# Reads DIR/ndiss.csv, made by
#   lopredict --alg ndiss --n 1..10 --p 16,64,256 --cnt 5000 --csv > DIR/ndiss.csv
# (columns alg,n,p,rounds,logp_us,lop_us; rows of other algorithms are ignored).
fig = "ndiss"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1200
if (!exists("height")) height = 560
load here . "/common.gp"

data = dir . "/ndiss.csv"
if (!readable(data)) {
    print sprintf("%s: %s: no such file (lopredict --alg ndiss --csv output)", fig, data)
    exit status 1
}
ps = system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=p -v where=alg=ndiss -v distinct=1 " . \
    sh(data) . " | sort -n | tr '\\n' ' '")
if (words(ps) == 0) {
    print sprintf("%s: %s: no ndiss rows", fig, data)
    exit status 1
}
rows(P) = csvsel(data, "n,rounds,logp_us,lop_us", "alg=ndiss,p=" . P)
cnt = meta(data, "cnt")
setup = (cnt eq "" ? "" : "cnt = " . cnt) . (predicted_by(data) eq "" ? "" : \
    (cnt eq "" ? "" : ", ") . "LoP: " . predicted_by(data))

set output out

set multiplot layout 1, 2 \
    title title2("n-way dissemination barrier (thesis 2.3.7.1.4, figure 2.39)", setup) font ",13"
set xlabel "n (messages sent per round)"
set xtics 1
set mxtics 1
set autoscale xfix
set offsets 0.3, 0.3, graph 0.05, 0
set key below maxrows 2 width 1
set bmargin 5.5

set title "rounds ⌈log_{n+1} P⌉"
set ylabel "rounds"
set yrange [0:*]
set ytics 1
# equal round counts of different P overlap: earlier curves are drawn wider
wide(i) = words(ps) - i
plot for [i = 1:words(ps)] rows(word(ps, i)) using "n":"rounds" with linespoints pt 7 \
     ps 0.7 + 0.3 * wide(i) lw 1.8 + 1.3 * wide(i) lc rgb pcolor(i) title "P = " . word(ps, i)

set ylabel "predicted time per barrier [µs]"
set ytics autofreq
set offsets 0.3, 0.3, graph 0.05, graph 0.05
yr = range_of(sh(data), "logp_us,lop_us")
ymax = pred_top(yr, range_of(sh(data), "logp_us"))
eval yaxis(word(yr, 1) . " " . sprintf("%.17g", ymax))
set yrange [*:ymax]
set autoscale yfixmin
set title "predicted time" . off_note(n_off(data, "lop_us", "alg=ndiss", ymax), data, "alg=ndiss")
plot for [i = 1:words(ps)] rows(word(ps, i)) using "n":"lop_us" with linespoints pt 7 ps 0.8 lw 1.8 \
         lc rgb pcolor(i) title "LoP, P = " . word(ps, i), \
     for [i = 1:words(ps)] rows(word(ps, i)) using "n":"logp_us" with linespoints pt 6 ps 0.8 lw 1.2 \
         dt 2 lc rgb pcolor(i) title "LogP, P = " . word(ps, i)
unset multiplot
