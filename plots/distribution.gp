# distribution.gp - the distribution of barrier times, isolated and under
# background traffic (Petrini et al., figures 11 and 12: the latency
# distribution of consecutive barriers in an empty network and with uniform
# or complement traffic), at one P.
#   gnuplot -e "dir='DATA'" plots/distribution.gp          -> ./distribution.png
#   gnuplot -e "dir='DATA'; p=4" plots/distribution.gp     (default: the largest P)
# Reads DIR/barrier-hist.csv (lopbench --barrier; with --congest also the
# congested rows) and checks that each histogram's counts sum to the reps of
# its row in DIR/barrier.csv and DIR/barrier-congested.csv where present.
# One panel per algorithm (small multiples: up to ~15 stay readable), in it
# the cumulative fraction of barriers up to each time for every executor
# (colour) and condition (isolated solid, congested dashed), on a shared x
# axis, logarithmic when the times span more than a factor of 10.
fig = "distribution"
here = system("dirname '" . ARG0 . "'")
if (!exists("dir")) dir = "."
hist = dir . "/barrier-hist.csv"
# the files checked with it: the reps its counts must sum to
rowfiles = ""
do for [f in "barrier.csv barrier-congested.csv"] {
    if (system("test -f '" . dir . "/" . f . "' && echo 1") eq "1") { rowfiles = rowfiles . " '" . dir . "/" . f . "'" }
}
congest(mode) = "awk -F, -f '" . here . "/congest.awk' -v fig=distribution -v mode=" . mode . \
    (exists("p") ? sprintf(" -v P=%d", p) : "") . " '" . hist . "'" . rowfiles
# the grid: the panels and one cell for the key, nearly square
npanel = int(system(congest("count") . " 2>/dev/null || echo 0"))
gcols = ceil(sqrt(npanel + 1))
grows = ceil((npanel + 1.0) / gcols)
if (!exists("width")) width = 40 + 290 * (gcols < 3 ? 3 : gcols)
if (!exists("height")) height = 110 + 240 * grows
load here . "/common.gp"

if (!readable(hist)) {
    print sprintf("%s: %s: no such file (lopbench --barrier output)", fig, hist)
    exit status 1
}
why = system(congest("check") . " 2>&1")
if (why ne "") {
    print sprintf("%s: %s", fig, why)
    exit status 1
}
load "< " . congest("setup")
set output out

# the subtitle: P, and the background traffic as lopbench described it
# (# congest:, # congest_cores:) in whichever of the run's files has it
src = hist
do for [f in "barrier-congested.csv barrier.csv"] {
    if (meta(src, "congest") eq "" && readable(dir . "/" . f)) { src = dir . "/" . f }
}
traffic = meta(src, "congest") eq "" ? "" : "; " . meta(src, "congest") . \
    (meta(src, "congest_cores") eq "" ? "" : "; cores " . meta(src, "congest_cores"))
pattern = ""
do for [c = 2:NC] { pattern = pattern . (c > 2 ? ", " : "") . COND[c][strstrt(COND[c], ":") + 1:] }
set multiplot layout grows, gcols title title2("Barrier times " . \
    (NC > 1 ? "isolated and under " . enh(pattern) . " background traffic" : "(isolated: no --congest run)") . \
    " (Petrini et al., figs. 11, 12)", sprintf("P = %d", P) . enh(traffic) . \
    (meta(src, "oversubscribed") eq "yes" ? ", oversubscribed: more ranks than cores" : "")) font ",13"

xlog = xhi > 10 * xlo
if (xlog) { set logscale x; set xtics autofreq } else { unset logscale x; set xtics autofreq }
set xrange [xlo : xhi]
set yrange [0 : 1.02]
set ytics 0, 0.25, 1
set key off
set xlabel "time per barrier [µs]" offset 0, 0.5
# one colour per executor: p2p, shm, verbs as in measured.gp's bars, MPI_Barrier grey
ecolor(e) = e eq "p2p" ? "#1f5fa8" : e eq "shm" ? "#17a2b8" : e eq "verbs" ? "#2a9d3f" : \
    e eq "mpi" ? "#555555" : pcolor(6 + int(strlen(e)))
do for [i = 1:NP] {
    set title PTITLE[i] noenhanced font ",11" offset 0, -0.6
    if ((i - 1) % gcols == 0) { set ylabel "fraction of barriers ≤ time" } else { unset ylabel }
    CMD = sprintf("plot for [j = %d:%d] $CDF index (j - 1) using 1:2 with lines ", PFIRST[i], PLAST[i]) . \
        "lw (CC[j] == 1 ? 1.6 : 2.4) dt CC[j] lc rgb ecolor(EXE[CE[j]]) notitle"
    @RUN
}
# the key in a cell of its own (a line below the frame: keyentry alone draws nothing)
unset title
unset xlabel
unset ylabel
unset logscale x
set xrange [0 : 1]
set yrange [0 : 1]
unset border
unset tics
set key center center box opaque samplen 4 spacing 1.3 font ",10" noenhanced
CMD = "plot -1 notitle, for [e = 1:NE] keyentry with lines lw 2 lc rgb ecolor(EXE[e]) " . \
        "title (EXE[e] eq 'mpi' ? 'MPI_Barrier' : EXE[e]), " . \
    "for [c = 1:NC] keyentry with lines lw (c == 1 ? 1.6 : 2.4) dt c lc rgb 'black' title COND[c]"
@RUN
unset multiplot
