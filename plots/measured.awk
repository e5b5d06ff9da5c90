# measured.awk - join lopbench --barrier rows (barrier.csv) with predictions
# (any CSV with alg,n,p,logp_us,lop_us and optionally sim_us or sim_lop_us, e.g.
# lopredict --measured --csv, or lopredict --alg all --p P --simulate --csv) at
# one P, for measured.gp's clustered bars.  Other columns (executor,
# measured_us, ...) are ignored.
#   awk -F, -f measured.awk -v P=4 -v mode=setup barrier.csv [predictions.csv]
#     -> gnuplot commands: NB, NC, BAR[] titles, xtics, mpi_us, has_median
#   awk -F, -f measured.awk -v P=4 -v mode=data  barrier.csv [predictions.csv]
#     -> CSV x,bar,us,lo,hi,med (one row per bar; lo/hi/med = min/p99/median
#        for measurements, empty for predictions)
# A cluster is one (alg, n) measured by an executor other than mpi; its bars are
# the executors in the order p2p, shm, verbs, others, then LogP, LoP, sim.  The
# executor mpi (MPI_Barrier) is the reference line: the mean avg_us of its rows.
# An algorithm without n has n = 0 in barrier.csv and an empty n in lopredict's
# CSV: both mean "no n".
function num(s) { return s ~ /^[ \t]*[-+]?[0-9.]+([eE][-+]?[0-9]+)?[ \t]*$/ }
function non(s) { return s ~ /^[ \t]*$/ ? 0 : s }
function same_n(a, b) { a = non(a); b = non(b); return a == b || (num(a) && num(b) && a + 0 == b + 0) }
function need(c) { if (!(c in col)) { print FILENAME ": no column '" c "'" > "/dev/stderr"; bad = 1; exit 1 } }
function predbar(name, c, us) { printf "%.6f,%d,%s,,,\n", c + (barno[name] - (nb + 1) / 2) * w, barno[name], us }
function addbar(name) { if (!(name in barno)) { barno[name] = ++nb; bar[nb] = name } }
/^#/ || /^[ \t]*$/ { next }
!hdr[FILENAME] {
    hdr[FILENAME] = 1; file++
    split("", col)
    for (i = 1; i <= NF; i++) col[$i] = i
    if (file == 1) { split("executor alg n p min_us avg_us p99_us", cs, " ") }
    else { split("alg n p logp_us lop_us", cs, " ") }
    for (i = 1; i in cs; i++) need(cs[i])
    simcol = file != 2 ? "" : ("sim_us" in col) ? "sim_us" : ("sim_lop_us" in col) ? "sim_lop_us" : ""
    medcol = file == 1 && ("median_us" in col)
    next
}
$col["p"] + 0 != P + 0 { next }
file == 1 && $col["executor"] == "mpi" { mpi += $col["avg_us"]; nmpi++; next }
file == 1 {
    key = $col["alg"] SUBSEP $col["n"]
    if (!(key in clno)) { clno[key] = ++nc; calg[nc] = $col["alg"]; cn[nc] = $col["n"] }
    ex[$col["executor"]] = 1
    m = ++nm; mcl[m] = clno[key]; mex[m] = $col["executor"]
    mavg[m] = $col["avg_us"]; mlo[m] = $col["min_us"]; mhi[m] = $col["p99_us"]
    mmed[m] = medcol ? $col["median_us"] : ""; anymed = anymed || num(mmed[m])
    next
}
file == 2 {
    for (c = 1; c <= nc; c++)
        if (calg[c] == $col["alg"] && same_n(cn[c], $col["n"]) && !(c in pred_logp)) {
            pred_logp[c] = $col["logp_us"]; pred_lop[c] = $col["lop_us"]
            pred_sim[c] = simcol != "" ? $col[simcol] : ""
            haspred = 1; anysim = anysim || num(pred_sim[c])
        }
}
END {
    if (bad) exit 1
    split("p2p shm verbs", order, " ")
    for (i = 1; i in order; i++) if (order[i] in ex) addbar(order[i])
    for (e in ex) addbar(e)
    if (haspred) { addbar("LogP"); addbar("LoP") }
    if (anysim) addbar("sim")
    w = 0.8 / (nb ? nb : 1)
    if (mode == "setup") {
        printf "NB = %d\nNC = %d\nmpi_us = %s\nhas_median = %d\n", nb, nc,
            nmpi ? sprintf("%.17g", mpi / nmpi) : "NaN", anymed
        if (nb) printf "array BAR[%d]\n", nb
        for (b = 1; b <= nb; b++) printf "BAR[%d] = \"%s\"\n", b, bar[b]
        printf "bar_width = %.6f\n", w
        if (nc) {
            printf "set xtics ("
            for (c = 1; c <= nc; c++)
                printf "%s\"%s%s\" %d", (c > 1 ? ", " : ""), calg[c], cn[c] == "" || cn[c] == "0" ? "" : "\\nn=" cn[c], c
            print ")"
        }
        exit 0
    }
    print "x,bar,us,lo,hi,med"
    for (m = 1; m <= nm; m++)
        printf "%.6f,%d,%s,%s,%s,%s\n", mcl[m] + (barno[mex[m]] - (nb + 1) / 2) * w, barno[mex[m]],
            mavg[m], mlo[m], mhi[m], mmed[m]
    for (c = 1; c <= nc; c++) {
        if (!(c in pred_logp)) continue
        predbar("LogP", c, pred_logp[c])
        predbar("LoP", c, pred_lop[c])
        if (anysim) predbar("sim", c, pred_sim[c])
    }
}
