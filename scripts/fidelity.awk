# fidelity.awk - how right the predictions are: lopredict --measured --csv's
# rows joined with lopbench --barrier's barrier.csv (for p99), one row per
# executor x algorithm x P, and a summary per model.
#   awk -F, -f fidelity.awk -v mode=csv|text|summary barrier.csv measured.csv
# mode=csv: the columns executor,alg,n,p,measured_us,p99_us, then for each
#   model M of lopredict (each err_M column of measured.csv, in its order:
#   logp, lop, sim_logp, sim_lop, loop, bucket) M_us,M_lo_us,M_hi_us,
#   err_M,inside_M, as lopredict wrote them (errors are fractions, inside
#   yes/no/empty), then flags.  measured_us is lopredict's (the statistic of
#   its --stat); p99_us is barrier.csv's.
# mode=text: the same, aligned, errors in per cent, one model a column group.
# mode=summary: per model the rows with a time, the median and the largest
#   |error|, the rows within 20 %, and how many measured times lie inside the
#   95 % interval of the rows that have one; then the 'alike' line: of the
#   rows of one executor and P that every simulation prices alike (one
#   pattern of messages: at P = 2 cc, tour and bst are one ping-pong), the
#   group measured furthest apart.  That spread is the machine's, not a
#   model's: no prediction is nearer all of a group than about half of it.
# Rows of executor mpi (MPI_Barrier) are measurements only and are left out.
function num(s) { return s ~ /^[ \t]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
function get(c) { return (c in col) ? $col[c] : "" }
function key(e, a, n, p) { return e SUBSEP a SUBSEP (n + 0) SUBSEP (p + 0) }
function csvq(s) { return s ~ /[",\n]/ ? "\"" s "\"" : s }
function pct(v) { return num(v) ? sprintf("%+.0f%%", 100 * v) : "-" }
function t(v) { return num(v) ? sprintf("%.4g", v) : "-" }
function abs(v) { return v < 0 ? -v : v }
/^#/ || /^[ \t]*$/ { next }
!hdr[FILENAME] {
    hdr[FILENAME] = 1; file++
    split("", col)
    for (i = 1; i <= NF; i++) col[$i] = i
    for (i = 1; i <= NF && file == 2; i++) # the models: lopredict's err_M columns
        if ($i ~ /^err_/) M[++nm] = substr($i, 5)
    need = file == 1 ? "executor alg n p p99_us" : "executor alg n p measured_us err_lop inside_lop flags"
    k = split(need, cs, " ")
    for (i = 1; i <= k; i++)
        if (!(cs[i] in col)) { print FILENAME ": no column '" cs[i] "'" > "/dev/stderr"; bad = 1; exit 1 }
    next
}
file == 1 { p99[key(get("executor"), get("alg"), get("n"), get("p"))] = get("p99_us"); next }
get("executor") == "mpi" { next }
{
    r = ++n
    ex[r] = get("executor"); al[r] = get("alg"); nn[r] = get("n"); pp[r] = get("p")
    ms[r] = get("measured_us"); q[r] = p99[key(ex[r], al[r], nn[r], pp[r])]; fl[r] = get("flags")
    for (j = 1; j <= nm; j++) {
        m = M[j]
        us[r, j] = get(m "_us"); lo[r, j] = get(m "_lo_us"); hi[r, j] = get(m "_hi_us")
        er[r, j] = get("err_" m); in_[r, j] = get("inside_" m)
    }
}
# The 'alike' line (mode=summary).
function alike(    r, j, g, k, ng, best, name) {
    for (r = 1; r <= n; r++) {
        g = ex[r] SUBSEP pp[r]; k = 0
        for (j = 1; j <= nm && g != ""; j++)
            if (M[j] != "logp" && M[j] != "lop") { g = num(us[r, j]) ? g SUBSEP sprintf("%.9g", us[r, j]) : ""; k++ }
        if (g == "" || !k || !(num(ms[r]) && ms[r] > 0)) continue
        if (!(g in cnt)) { G[++ng] = g; lo_[g] = hi_[g] = ms[r]; first[g] = r }
        name = al[r] (nn[r] == "" ? "" : "(" nn[r] ")")
        members[g] = members[g] (cnt[g]++ ? " " : "") name
        if (ms[r] < lo_[g]) lo_[g] = ms[r]
        if (ms[r] > hi_[g]) hi_[g] = ms[r]
    }
    for (k = 1; k <= ng; k++)
        if (cnt[G[k]] > 1 && (best == "" || hi_[G[k]] / lo_[G[k]] > hi_[best] / lo_[best])) best = G[k]
    if (best == "") { print "alike: no two rows of one executor and P that every simulation prices alike"; return }
    printf "alike: %s at P = %s, %s, priced alike by every simulation, measured %s..%s us: %.0f%% apart, the machine's own spread (no prediction is nearer them all than about half of it)\n",
        ex[first[best]], pp[first[best]], members[best], t(lo_[best]), t(hi_[best]), 100 * (hi_[best] / lo_[best] - 1)
}
function median(a, k,    i, j, x) { # sorts a[1..k] in place (insertion: tables are small)
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
END {
    if (bad) exit 1
    if (mode == "csv") {
        printf "executor,alg,n,p,measured_us,p99_us"
        for (j = 1; j <= nm; j++) printf ",%s_us,%s_lo_us,%s_hi_us,err_%s,inside_%s", M[j], M[j], M[j], M[j], M[j]
        print ",flags"
        for (r = 1; r <= n; r++) {
            printf "%s,%s,%s,%s,%s,%s", ex[r], al[r], nn[r], pp[r], ms[r], q[r]
            for (j = 1; j <= nm; j++) printf ",%s,%s,%s,%s,%s", us[r, j], lo[r, j], hi[r, j], er[r, j], in_[r, j]
            print "," csvq(fl[r])
        }
    } else if (mode == "text") {
        printf "%-8s %-6s %2s %4s %10s %10s", "executor", "alg", "n", "P", "measured", "p99"
        for (j = 1; j <= nm; j++) printf "  %-27s", M[j] " [us] (95 %) err in"
        print ""
        for (r = 1; r <= n; r++) {
            printf "%-8s %-6s %2s %4s %10s %10s", ex[r], al[r], nn[r] == "" ? "-" : nn[r], pp[r], t(ms[r]), t(q[r])
            for (j = 1; j <= nm; j++)
                printf "  %8s %-9s %5s %-3s", t(us[r, j]),
                    num(lo[r, j]) ? t(lo[r, j]) ".." t(hi[r, j]) : "-", pct(er[r, j]), in_[r, j] == "" ? "-" : in_[r, j]
            print ""
        }
    } else {
        printf "%-9s %5s %12s %11s %10s %14s\n", "model", "rows", "median|err|", "max|err|", "within20%", "inside(95%)"
        for (j = 1; j <= nm; j++) {
            k = 0; w = 0; ni = 0; yi = 0; mx = 0; split("", a)
            for (r = 1; r <= n; r++) {
                if (num(er[r, j])) { a[++k] = abs(er[r, j]); w += abs(er[r, j]) <= 0.2; if (abs(er[r, j]) > mx) mx = abs(er[r, j]) }
                if (in_[r, j] != "") { ni++; yi += in_[r, j] == "yes" }
            }
            printf "%-9s %5d %12s %11s %10s %14s\n", M[j], k, k ? sprintf("%.1f%%", 100 * median(a, k)) : "-",
                k ? sprintf("%.1f%%", 100 * mx) : "-", k ? sprintf("%d/%d", w, k) : "-",
                ni ? sprintf("%d/%d", yi, ni) : "no intervals"
        }
        alike()
    }
}
