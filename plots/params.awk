# params.awk - turn a params.csv (lopfit's parameter set, src/model.h) into
# gnuplot commands that fill the FIT_* arrays common.gp evaluates:
#   load "< awk -F, -f params.awk DIR/params.csv"
# Columns are found by their header names; '#' lines are metadata.  Empty
# lambdas become NaN, an empty p range becomes unbounded.  A file without the
# needed columns gives a gnuplot warning and FIT_n = 0 (no curves drawn).
function str(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
function num(s, dflt) { return s ~ /^[ \t]*$/ ? dflt : s + 0 }
/^#/ || /^[ \t]*$/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) col[$i] = i
    split("series quantity stat model pmin pmax l1 l2 l3 l4 l5 l6", need, " ")
    for (i = 1; i in need; i++)
        if (!(need[i] in col)) {
            printf "print %s\n", str(FILENAME ": no column '" need[i] "': fitted curves not drawn")
            bad = 1
        }
    next
}
!bad { row[++n] = $0 }
END {
    if (bad || n == 0) { print "FIT_n = 0"; exit }
    split("series quantity stat model", sname, " ")
    split("pmin pmax l1 l2 l3 l4 l5 l6", nname, " ")
    for (j = 1; j in sname; j++) printf "array FIT_%s[%d]\n", sname[j], n
    for (j = 1; j in nname; j++) printf "array FIT_%s[%d]\n", nname[j], n
    for (r = 1; r <= n; r++) {
        split(row[r], c, ",")
        for (j = 1; j in sname; j++) printf "FIT_%s[%d] = %s\n", sname[j], r, str(c[col[sname[j]]])
        printf "FIT_pmin[%d] = %.17g\n", r, num(c[col["pmin"]], -1e300)
        printf "FIT_pmax[%d] = %.17g\n", r, num(c[col["pmax"]], 1e300)
        for (j = 3; j in nname; j++) {
            v = c[col[nname[j]]]
            printf "FIT_%s[%d] = %s\n", nname[j], r, v ~ /^[ \t]*$/ ? "NaN" : sprintf("%.17g", v + 0)
        }
    }
    printf "FIT_n = %d\n", n
}
