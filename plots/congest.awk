# congest.awk - barriers under background traffic (lopbench --barrier
# --congest) for distribution.gp and impact.gp: checks the files and turns
# them into gnuplot commands and a data block.
#   awk -F, -f congest.awk -v fig=distribution [-v P=4] -v mode=M barrier-hist.csv [barrier.csv ...]
#   awk -F, -f congest.awk -v fig=impact [-v P=4] -v mode=M barrier-congested.csv
# mode=check prints nothing, or the first fault as one line "FILE:LINE: what"
# (on stderr, exit status 1); mode=count prints the number of panels
# (distribution) or bars (impact) at P; mode=setup prints the gnuplot
# commands.  P defaults to the largest P of the histogram (distribution) or
# of the congested rows (impact).
# distribution: a file with a 'count' column is barrier-hist.csv
# (executor,series,alg,n,p,condition,lo_us,hi_us,count), the others are row
# files (barrier.csv, barrier-congested.csv) whose 'reps' each histogram group
# (executor, alg, n, p, condition) must sum to.  Setup: one panel per (alg,
# n), MPI_Barrier last, and in it one curve per (executor, condition): the
# cumulative fraction of barriers up to each bin's upper edge, from 0 at the
# lower edge of the first bin (the bins' contents are not known inside them).
# impact: rows whose condition is not 'isolated', impact_avg and impact_p99
# (congested / isolated, GPCNeT's Congestion Impact Factor) drawn per (executor,
# alg, n), the executors in groups.
function isnum(s) { return s ~ /^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
function isint(s) { return s ~ /^[ \t]*[0-9]+[ \t]*$/ }
function fault(where, msg) {
    if (!failed) print where ": " msg > "/dev/stderr"
    failed = 1
    exit 1
}
function bad(msg) { fault(FILENAME ":" FNR, msg) }
function need(list,   c, i) {
    split(list, c, " ")
    for (i = 1; i in c; i++) if (!(c[i] in col)) fault(FILENAME ":" FNR, "no column '" c[i] "'")
}
function posnum(name) {
    if (!isnum($col[name]) || $col[name] + 0 <= 0) bad(name " '" $col[name] "' is not a positive number")
    return $col[name] + 0
}
# an algorithm's n: lopbench writes 0 or nothing for "no n"
function nkey(s) { return isnum(s) ? s + 0 : 0 }
function label(a, n) { return a (n == 0 ? "" : " n=" n) }
# the executors in the order p2p, shm, verbs, others, mpi (MPI_Barrier, the reference)
function erank(e) { return e == "p2p" ? 1 : e == "shm" ? 2 : e == "verbs" ? 3 : e == "mpi" ? 5 : 4 }
function addexe(e) { if (!(e in eno)) { eno[e] = ++ne; exe[ne] = e } }
function sortexe(   i, j, v) {
    for (i = 2; i <= ne; i++) {
        v = exe[i]
        for (j = i - 1; j >= 1 && erank(exe[j]) > erank(v); j--) exe[j + 1] = exe[j]
        exe[j + 1] = v
    }
    for (i = 1; i <= ne; i++) eno[exe[i]] = i
}
function q(s) { gsub(/["\\]/, "\\\\&", s); return "\"" s "\"" }
BEGIN { SUBSEP = "\034" }
FNR == 1 { hdr = 0 }
{ sub(/\r$/, "") }
/^#/ || /^[ \t]*$/ { next }
!hdr {
    hdr = 1; nf = NF
    split("", col)
    for (i = 1; i <= NF; i++) col[$i] = i
    hist = fig == "distribution" && ++nfile == 1
    if (nfile <= 1) first_file = FILENAME
    if (hist && !("count" in col)) bad("no column 'count' (expected barrier-hist.csv)")
    if (hist) need("executor alg n p condition lo_us hi_us count")
    else if (fig == "distribution") need("executor alg n p reps")
    else need("executor alg n p condition impact_avg impact_p99")
    next
}
NF != nf { bad(sprintf("%d fields, the header has %d", NF, nf)) }
!isint($col["p"]) || $col["p"] + 0 < 1 { bad("p '" $col["p"] "' is not a positive whole number") }
hist { histrow(); next }
fig == "distribution" {
    if (!isint($col["reps"])) bad("reps '" $col["reps"] "' is not a whole number")
    c = ("condition" in col) && $col["condition"] != "" ? $col["condition"] : "isolated"
    k = $col["executor"] SUBSEP $col["alg"] SUBSEP nkey($col["n"]) SUBSEP $col["p"] + 0 SUBSEP c
    if (!(k in reps)) { reps[k] = $col["reps"] + 0; repsat[k] = FILENAME ":" FNR }
    next
}
{ impactrow() }
function histrow(   k, lo, hi) {
    lo = posnum("lo_us"); hi = posnum("hi_us")
    if (lo >= hi) bad("lo_us " $col["lo_us"] " is not below hi_us " $col["hi_us"])
    if (!isint($col["count"])) bad("count '" $col["count"] "' is not a whole number")
    k = $col["executor"] SUBSEP $col["alg"] SUBSEP nkey($col["n"]) SUBSEP $col["p"] + 0 SUBSEP $col["condition"]
    if (!(k in nb)) { group[++ng] = k; at[k] = FILENAME ":" FNR }
    else if (lo < top[k] * (1 - 1e-6)) bad("bin [" $col["lo_us"] ", " $col["hi_us"] ") overlaps the one before it")
    top[k] = hi
    n = ++nb[k]; blo[k, n] = lo; bhi[k, n] = hi; sum[k] += $col["count"]
    bsum[k, n] = sum[k]
}
function impactrow(   k, c) {
    c = $col["condition"]
    if (c == "isolated") return
    k = $col["executor"] SUBSEP $col["alg"] SUBSEP nkey($col["n"]) SUBSEP $col["p"] + 0
    if (k in iat) bad("a second row for " $col["executor"] " " label($col["alg"], nkey($col["n"])) \
        " at p = " $col["p"] + 0 " (the first at " iat[k] ")")
    iat[k] = FILENAME ":" FNR
    ia[k] = posnum("impact_avg"); ip[k] = posnum("impact_p99")
    row[++nr] = k
    if (!(c in seencond)) { seencond[c] = 1; conds = conds (conds == "" ? "" : ", ") c }
}
END {
    if (failed) exit 1
    if (fig == "distribution") dist_end(); else impact_end()
}
# P: the largest p of the keys list[1..n] (field 4), unless given
function pick(list, n,   i, f) {
    if (P != "") return
    P = 0
    for (i = 1; i <= n; i++) { split(list[i], f, SUBSEP); if (f[4] + 0 > P) P = f[4] + 0 }
}
# every histogram counts something, and as many barriers as its row's reps
function dist_sums(   i, f, k) {
    for (i = 1; i <= ng; i++) {
        k = group[i]; split(k, f, SUBSEP)
        if (sum[k] == 0) fault(at[k], "no barrier counted in " f[1] " " label(f[2], f[3]) " " f[5])
        if ((k in reps) && sum[k] != reps[k])
            fault(at[k], "the counts of " f[1] " " label(f[2], f[3]) " at p = " f[4] " " f[5] " sum to " \
                sum[k] ", but " repsat[k] " says reps " reps[k])
    }
}
# the selected curves sel[1..nsel] ordered by panel, executor, condition
# (insertion sort on the key "panel executor condition" in ck[])
function sort_curves(   i, j, f, v, vk) {
    for (i = 1; i <= nsel; i++) {
        split(sel[i], f, SUBSEP)
        ck[i] = sprintf("%04d %04d %04d", pnew[pno[f[2] SUBSEP f[3]]], eno[f[1]], cno[f[5]])
    }
    for (i = 2; i <= nsel; i++) {
        v = ck[i]; vk = sel[i]
        for (j = i - 1; j >= 1 && ck[j] > v; j--) { ck[j + 1] = ck[j]; sel[j + 1] = sel[j] }
        ck[j + 1] = v; sel[j + 1] = vk
    }
}
function dist_end(   i, f, k, pk, c, j, b, xl, xh) {
    dist_sums()
    pick(group, ng)
    for (i = 1; i <= ng; i++) {
        k = group[i]; split(k, f, SUBSEP)
        if (f[4] + 0 != P + 0) continue
        pk = f[2] SUBSEP f[3]
        if (!(pk in pno)) { pno[pk] = ++np; plabel[np] = label(f[2], f[3]); pmpi[np] = f[1] == "mpi" }
        else if (f[1] != "mpi") pmpi[pno[pk]] = 0
        addexe(f[1])
        if (!(f[5] in cno)) { cno[f[5]] = ++nc; cond[nc] = f[5] }
        sel[++nsel] = k
        if (xl == "" || blo[k, 1] < xl) xl = blo[k, 1]
        if (xh == "" || bhi[k, nb[k]] > xh) xh = bhi[k, nb[k]]
    }
    if (!np) fault(first_file, "no histogram at P = " P)
    if (mode == "count") { print np; exit 0 }
    if (mode != "setup") exit 0
    sortexe()
    # isolated first among the conditions
    for (c = 2; c <= nc; c++) if (cond[c] == "isolated") { cond[c] = cond[1]; cond[1] = "isolated" }
    for (c = 1; c <= nc; c++) cno[cond[c]] = c
    # panels: the algorithms in the file's order, MPI_Barrier's last
    j = 0
    for (i = 1; i <= np; i++) if (!pmpi[i]) porder[++j] = i
    for (i = 1; i <= np; i++) if (pmpi[i]) porder[++j] = i
    for (i = 1; i <= np; i++) pnew[porder[i]] = i
    printf "P = %d\nNP = %d\nNE = %d\nNC = %d\nNCURVE = %d\n", P, np, ne, nc, nsel
    printf "xlo = %.17g\nxhi = %.17g\n", xl, xh
    printf "array PTITLE[%d]\narray PFIRST[%d]\narray PLAST[%d]\n", np, np, np
    printf "array EXE[%d]\narray COND[%d]\narray CE[%d]\narray CC[%d]\n", ne, nc, nsel, nsel
    for (i = 1; i <= np; i++) printf "PTITLE[%d] = %s\n", i, q(plabel[porder[i]])
    for (i = 1; i <= ne; i++) printf "EXE[%d] = %s\n", i, q(exe[i])
    for (c = 1; c <= nc; c++) printf "COND[%d] = %s\n", c, q(cond[c])
    # each panel's curves are PFIRST..PLAST
    sort_curves()
    for (i = 1; i <= nsel; i++) {
        split(ck[i], f, " ")
        if (!(f[1] + 0 in pfirst)) pfirst[f[1] + 0] = i
        plast[f[1] + 0] = i
        printf "CE[%d] = %d\nCC[%d] = %d\n", i, f[2] + 0, i, f[3] + 0
    }
    for (i = 1; i <= np; i++) printf "PFIRST[%d] = %d\nPLAST[%d] = %d\n", i, pfirst[i], i, plast[i]
    print "$CDF << EOD"
    for (i = 1; i <= nsel; i++) {
        k = sel[i]
        if (i > 1) printf "\n\n"
        printf "%.9g,0\n", blo[k, 1]
        for (b = 1; b <= nb[k]; b++) printf "%.9g,%.9g\n", bhi[k, b], bsum[k, b] / sum[k]
    }
    print "EOD"
}
function impact_end(   i, f, k, x, e, lo, hi, nbar, first) {
    pick(row, nr)
    for (i = 1; i <= nr; i++) {
        split(row[i], f, SUBSEP)
        if (f[4] + 0 != P + 0) continue
        addexe(f[1]); sel[++nbar] = row[i]
    }
    if (!nbar) fault(first_file, "no congested rows at P = " P)
    if (mode == "count") { print nbar; exit 0 }
    if (mode != "setup") exit 0
    sortexe()
    # bars grouped by executor, a gap of one between groups
    x = 0; lo = hi = 1
    print "$IMP << EOD"
    print "x,avg,p99"
    for (e = 1; e <= ne; e++) {
        first = x + 1
        for (i = 1; i <= nbar; i++) {
            k = sel[i]; split(k, f, SUBSEP)
            if (f[1] != exe[e]) continue
            # "alg\nn=N": gnuplot reads \n in double quotes as a new line
            lab = q(f[2])
            if (f[3] != 0) sub(/"$/, "\\nn=" f[3] "\"", lab)
            xs = xs (xs == "" ? "" : ", ") sprintf("%s %d", lab, ++x)
            printf "%d,%.9g,%.9g\n", x, ia[k], ip[k]
            lo = ia[k] < lo ? ia[k] : lo; lo = ip[k] < lo ? ip[k] : lo
            hi = ia[k] > hi ? ia[k] : hi; hi = ip[k] > hi ? ip[k] : hi
        }
        gx[e] = (first + x) / 2
        x++
    }
    print "EOD"
    printf "P = %d\nNX = %d\nNE = %d\nymin = %.17g\nymax = %.17g\nconds = %s\n", P, x - 1, ne, lo, hi, q(conds)
    printf "set xtics (%s)\n", xs
    printf "array EXE[%d]\narray EXEX[%d]\n", ne, ne
    for (e = 1; e <= ne; e++) printf "EXE[%d] = %s\nEXEX[%d] = %.1f\n", e, q(exe[e]), e, gx[e]
}
