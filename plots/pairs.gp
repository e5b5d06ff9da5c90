# pairs.gp - the P x P matrices L and o of one lopbench --pairs file as heat
# maps in shades of grey, darker = cheaper, row i sending to column j (Meyer and
# Elster, figure 9: the darker blocks are ranks that share a chip).
#   gnuplot -e "dir='DATA'" plots/pairs.gp                       -> ./pairs.png
#   gnuplot -e "dir='DATA'; file='pairs-send-normal.csv'" plots/pairs.gp
# Reads DIR/FILE (default pairs.csv: the paper's issend method), columns i, j,
# L_us and o_us (the file's chosen statistic, "# stat:"); a pair without a
# value (L on the diagonal) is left blank (light orange).  Up to 16 ranks each cell shows its
# value.
fig = "pairs"
here = system("dirname '" . ARG0 . "'")
if (!exists("width")) width = 1300
if (!exists("height")) height = 640
load here . "/common.gp"

if (!exists("file")) file = "pairs.csv"
data = dir . "/" . file
if (!readable(data)) {
    print sprintf("%s: %s: no such file (lopbench --pairs output)", fig, data)
    exit status 1
}
# P: "# p:" of the file, else one more than the largest rank
P = int(real(system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=i,j " . sh(data) . \
    " | awk -F, -v p=" . sh(meta(data, "p")) . " 'NR > 1 { m = $1 > m ? $1 : m; m = $2 > m ? $2 : m; n++ } " . \
    "END { print (p + 0 > 0 ? p : n ? m + 1 : 0) }'")))
if (P < 1) {
    print sprintf("%s: %s: no rows i,j", fig, data)
    exit status 1
}
# cells(col): every cell (i, j) of the P x P matrix as "i,j,value", NaN where
# the file has no value, for 'with image'
cells(col) = "< awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=i,j," . col . " " . sh(data) . \
    " | awk -F, -v P=" . P . " 'NR > 1 && $3 != \"\" { v[$1 \",\" $2] = $3 } " . \
    "END { for (i = 0; i < P; i++) for (j = 0; j < P; j++) { k = i \",\" j; " . \
    "print i \",\" j \",\" (k in v ? v[k] : \"NaN\") } }'"

set output out
sampled = meta(data, "sampled")
method = meta(data, "method") . (meta(data, "series") eq meta(data, "method") ? "" : " " . meta(data, "series"))
setup = enh(method . ", " . \
    word(meta(data, "stat"), 1) . " of " . meta(data, "repetitions") . " repetitions, " . \
    sprintf("P = %d", P) . (sampled[1:3] eq "yes" ? ", sampled: one pair per placement class" : "")) . \
    (provenance(data) eq "" ? "" : "; " . provenance(data))
set multiplot layout 1, 2 title title2("Cost of a message from rank i (row) to rank j (column), " . \
    "per pair (Meyer and Elster, figure 9): " . enh(file), setup) font ",13"
set palette defined (0 "#262626", 1 "#f2f2f2")
set size ratio -1
set xrange [-0.5 : P - 0.5]
set yrange [P - 0.5 : -0.5]
set xlabel "j (receiver)"
set ylabel "i (sender)"
unset x2tics
unset y2tics
set xtics out nomirror
set ytics out nomirror
if (P <= 16) { set xtics 1; set ytics 1 } else { set xtics autofreq; set ytics autofreq }
unset grid
set cblabel "µs"
set cbrange [0 : *] # from 0: a factor between pairs shows as such, noise does not
set key off
# pairs without a value (the diagonal of L) stay blank: transparent pixels on
# a background no grey of the palette has
set object 1 rectangle from graph 0, 0 to graph 1, 1 behind fillcolor rgb "#fbe3c4" fillstyle solid noborder
label(col) = P <= 16 ? sprintf(", src using 2:1:(valid(3) ? sprintf('%%.3g', $3) : '') " . \
    "with labels font ',9' tc rgb '#f06c00'") : ""
do for [q in "L_us o_us"] {
    src = cells(q)
    set title (q eq "L_us" ? "latency L_{ij}" : "send overhead o_{ij}") . " [µs]"
    eval "plot src using 2:1:3 with image pixels" . label(q)
}
unset multiplot
