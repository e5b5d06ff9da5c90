# measured.awk - join lopbench --barrier rows (barrier.csv) with predictions at
# one P, for measured.gp: one bar per measurement, the predictions as markers on it.
#   awk -F, -f measured.awk -v P=4 -v mode=setup barrier.csv [predictions.csv]
#     -> gnuplot commands: NB, NC, BAR[] (executors), xtics, mpi_us, bar_width,
#        has_median, has_logp, has_lop, has_sim_logp, has_sim_lop, band_<same>, pred_series
#   awk -F, -f measured.awk -v P=4 -v mode=data  barrier.csv [predictions.csv]
#     -> CSV x,bar,us,lo,hi,med,logp,lop,sim_logp,sim_lop, then logp_lo,logp_hi,
#        ... sim_lop_lo,sim_lop_hi: one row per measured bar (avg, min, p99,
#        median) with the predictions for it and their 95 % intervals (lopredict's
#        X_lo_us, X_hi_us; empty if none)
# The predictions are any CSV with alg,n,p,logp_us,lop_us and optionally
# executor, series, sim_logp_us and sim_lop_us (or sim_us): lopredict --measured
# --csv, or lopredict --alg all --p P --simulate --csv.  A prediction row with an
# executor belongs to that executor's bars, one without to every executor's; of
# several rows for the same bar the first counts.  Other columns are ignored.
# A cluster is one (alg, n) measured by an executor other than mpi; its bars are
# the executors in the order p2p, shm, verbs, then others.  The executor mpi
# (MPI_Barrier) is the reference line: the mean avg_us of its rows.
# An algorithm without n has n = 0 in barrier.csv and an empty n in lopredict's
# CSV: both mean "no n".
function num(s) { return s ~ /^[ \t]*[-+]?[0-9.]+([eE][-+]?[0-9]+)?[ \t]*$/ }
function non(s) { return num(s) ? s + 0 : s ~ /^[ \t]*$/ ? 0 : s }
function need(c) { if (!(c in col)) { print FILENAME ": no column '" c "'" > "/dev/stderr"; bad = 1; exit 1 } }
function get(c) { return (c in col) ? $col[c] : "" }
function addbar(name) { if (!(name in barno)) { barno[name] = ++nb; bar[nb] = name } }
# the prediction key of executor e, algorithm a, parameter n
function pkey(e, a, n) { return e SUBSEP a SUBSEP non(n) }
function pred(k, what) { return (k, what) in pv ? pv[k, what] : "" }
/^#/ || /^[ \t]*$/ { next }
!hdr[FILENAME] {
    hdr[FILENAME] = 1; file++
    split("", col)
    for (i = 1; i <= NF; i++) col[$i] = i
    if (file == 1) { split("executor alg n p min_us avg_us p99_us", cs, " ") }
    else { split("alg n p logp_us lop_us", cs, " ") }
    for (i = 1; i in cs; i++) need(cs[i])
    simlop = ("sim_lop_us" in col) ? "sim_lop_us" : "sim_us"
    next
}
$col["p"] + 0 != P + 0 { next }
file == 1 && $col["executor"] == "mpi" { mpi += $col["avg_us"]; nmpi++; next }
file == 1 {
    key = $col["alg"] SUBSEP non($col["n"])
    if (!(key in clno)) { clno[key] = ++nc; calg[nc] = $col["alg"]; cn[nc] = non($col["n"]) }
    ex[$col["executor"]] = 1
    m = ++nm; mcl[m] = clno[key]; mex[m] = $col["executor"]
    mavg[m] = $col["avg_us"]; mlo[m] = $col["min_us"]; mhi[m] = $col["p99_us"]
    mmed[m] = get("median_us"); anymed = anymed || num(mmed[m])
    next
}
file == 2 {
    k = pkey(get("executor"), $col["alg"], $col["n"])
    if ((k, "lop") in pv) next
    pv[k, "logp"] = $col["logp_us"]; pv[k, "lop"] = $col["lop_us"]
    pv[k, "sim_logp"] = get("sim_logp_us"); pv[k, "sim_lop"] = get(simlop)
    split("logp lop sim_logp", stem, " "); stem[4] = simlop; sub(/_us$/, "", stem[4])
    split("logp lop sim_logp sim_lop", wname, " ")
    for (j = 1; j <= 4; j++) {
        pv[k, wname[j] "_lo"] = get(stem[j] "_lo_us"); pv[k, wname[j] "_hi"] = get(stem[j] "_hi_us")
    }
    e = get("executor"); s = get("series")
    if (e != "" && s != "" && !(e in series)) series[e] = s
}
END {
    if (bad) exit 1
    split("p2p shm verbs", order, " ")
    for (i = 1; i in order; i++) if (order[i] in ex) addbar(order[i])
    for (e in ex) addbar(e)
    w = 0.8 / (nb ? nb : 1)
    # the predictions of every bar: its executor's, else those without executor
    split("logp lop sim_logp sim_lop", what, " ")
    for (m = 1; m <= nm; m++) {
        k = pkey(mex[m], calg[mcl[m]], cn[mcl[m]])
        if (!((k, "lop") in pv)) k = pkey("", calg[mcl[m]], cn[mcl[m]])
        for (j = 1; j in what; j++) {
            v = pred(k, what[j]); mp[m, what[j]] = v
            if (num(v)) has[what[j]] = 1
            mp[m, what[j] "_lo"] = pred(k, what[j] "_lo"); mp[m, what[j] "_hi"] = pred(k, what[j] "_hi")
            if (num(mp[m, what[j] "_lo"]) && num(mp[m, what[j] "_hi"])) band[what[j]] = 1
        }
    }
    if (mode == "setup") {
        printf "NB = %d\nNC = %d\nmpi_us = %s\nhas_median = %d\n", nb, nc,
            nmpi ? sprintf("%.17g", mpi / nmpi) : "NaN", anymed
        for (j = 1; j in what; j++) printf "has_%s = %d\nband_%s = %d\n", what[j], what[j] in has, what[j], what[j] in band
        s = ""
        for (b = 1; b <= nb; b++) if (bar[b] in series) s = s (s == "" ? "" : ", ") bar[b] " " series[bar[b]]
        printf "pred_series = \"%s\"\n", s
        if (nb) printf "array BAR[%d]\n", nb
        for (b = 1; b <= nb; b++) printf "BAR[%d] = \"%s\"\n", b, bar[b]
        printf "bar_width = %.6f\n", w
        if (nc) {
            printf "set xtics ("
            for (c = 1; c <= nc; c++)
                printf "%s\"%s%s\" %d", (c > 1 ? ", " : ""), calg[c], cn[c] == 0 ? "" : "\\nn=" cn[c], c
            print ")"
        }
        exit 0
    }
    print "x,bar,us,lo,hi,med,logp,lop,sim_logp,sim_lop,logp_lo,logp_hi,lop_lo,lop_hi," \
        "sim_logp_lo,sim_logp_hi,sim_lop_lo,sim_lop_hi"
    for (m = 1; m <= nm; m++) {
        printf "%.6f,%d,%s,%s,%s,%s,%s,%s,%s,%s", mcl[m] + (barno[mex[m]] - (nb + 1) / 2) * w,
            barno[mex[m]], mavg[m], mlo[m], mhi[m], mmed[m],
            mp[m, "logp"], mp[m, "lop"], mp[m, "sim_logp"], mp[m, "sim_lop"]
        for (j = 1; j in what; j++) printf ",%s,%s", mp[m, what[j] "_lo"], mp[m, what[j] "_hi"]
        printf "\n"
    }
}
