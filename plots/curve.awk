# curve.awk - one fitted curve from lopfit's -o files, for gnuplot: the
# curve-<series>-<quantity>-<stat>.csv files (y = fit_us, interval lo_us, hi_us)
# and the columns of the lop-<series>-<stat>.csv tables (y = L_us, interval
# L_lo_us, L_hi_us; likewise rtt_us, os_us, or_us, Llist_us); formats in fit/README.md.
#   awk -F, -f curve.awk -v y=fit_us FILE
#     -> CSV p,in,out,lo,hi,one: 'in' is y where p lies in the fitted range
#        (extrapolated = 0: drawn solid), 'out' is y on the extrapolated parts
#        (dashed), both on the rows where the two meet so the line is unbroken;
#        lo, hi the 95 % interval; 'one' is y when every row has the same p
#        (a fit of one point: no line to draw, a marker instead).  What is not there is NaN, so gnuplot breaks
#        the line or band there.  No interval columns, or no extrapolated
#        column (older files), mean no band and no extrapolation.
#   awk -F, -f curve.awk -v y=fit_us -v mode=has FILE    -> 1 if y has a number, else 0
#   awk -F, -f curve.awk -v y=fit_us -v mode=band FILE   -> 1 if some row has both lo and hi
#   awk -F, -f curve.awk -v y=fit_us -v mode=one FILE    -> 1 if y has a number and every row the same p
# '#' lines are metadata; columns are found by their header names.
function num(s) { return s ~ /^[ \t]*[-+]?[0-9.]+([eE][-+]?[0-9]+)?[ \t]*$/ }
function cell(name) { return (name in col) ? $col[name] : "" }
function out(v) { return num(v) ? v + 0 : "NaN" }
/^#/ || /^[ \t]*$/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) col[$i] = i
    if (!("p" in col) || !(y in col)) {
        print FILENAME ": no column '" (("p" in col) ? y : "p") "'" > "/dev/stderr"
        bad = 1
        exit 1
    }
    base = y; sub(/_us$/, "", base)
    lo = base == "fit" ? "lo_us" : base "_lo_us"
    hi = base == "fit" ? "hi_us" : base "_hi_us"
    next
}
{
    n++
    p[n] = $col["p"]; v[n] = cell(y); l[n] = cell(lo); h[n] = cell(hi)
    ext[n] = cell("extrapolated") + 0 == 1
    spread = spread || p[n] != p[1]
    has = has || num(v[n])
    band = band || (num(l[n]) && num(h[n]))
}
END {
    if (bad) exit 1
    if (mode == "has") { print has ? 1 : 0; exit 0 }
    if (mode == "band") { print band ? 1 : 0; exit 0 }
    if (mode == "one") { print has && !spread ? 1 : 0; exit 0 }
    print "p,in,out,lo,hi,one"
    # a segment between rows i and i+1 is extrapolated when either end is
    for (i = 1; i <= n; i++) {
        solid = !ext[i] && (n == 1 || (i > 1 && !ext[i - 1]) || (i < n && !ext[i + 1]))
        dashed = ext[i] || (i > 1 && ext[i - 1]) || (i < n && ext[i + 1])
        printf "%s,%s,%s,%s,%s,%s\n", p[i], solid ? out(v[i]) : "NaN", dashed ? out(v[i]) : "NaN",
            out(l[i]), out(h[i]), (spread || i > 1) ? "NaN" : out(v[i])
    }
}
