# csvsel.awk - select rows and columns of a lop CSV by header name, so gnuplot
# can plot one algorithm (or one executor, one P) of a long table as a line:
#   awk -F, -f csvsel.awk -v cols=p,lop_us -v where=alg=ndiss,n=2 FILE
#   awk -F, -f csvsel.awk -v cols=alg,n -v distinct=1 FILE     (the keys, no header)
# '#' lines (metadata) are skipped; the first other line is the header.  Numbers
# in 'where' match numerically (n=2 matches "2.0"); an empty value matches an
# empty cell.  The output is CSV with a header row unless distinct=1.
function same(cell, want) {
    if (cell == want) return 1
    return cell ~ /^[ \t]*[-+0-9.eE]+[ \t]*$/ && want ~ /^[-+0-9.eE]+$/ && cell + 0 == want + 0
}
/^#/ || /^[ \t]*$/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) col[$i] = i
    nout = split(cols == "" ? $0 : cols, out, ",")
    for (i = 1; i <= nout; i++) if (!(out[i] in col)) fatal("no column '" out[i] "'")
    nw = where == "" ? 0 : split(where, w, ",")
    for (i = 1; i <= nw; i++) {
        eq = index(w[i], "=")
        wcol[i] = substr(w[i], 1, eq - 1); wval[i] = substr(w[i], eq + 1)
        if (!(wcol[i] in col)) fatal("no column '" wcol[i] "'")
    }
    if (!distinct) print (cols == "" ? $0 : cols)
    next
}
{
    for (i = 1; i <= nw; i++) if (!same($col[wcol[i]], wval[i])) next
    line = $col[out[1]]
    for (i = 2; i <= nout; i++) line = line "," $col[out[i]]
    if (distinct && (line in seen)) next
    seen[line] = 1
    print line
}
function fatal(msg) { print FILENAME ": " msg > "/dev/stderr"; failed = 1; exit 1 }
END { if (failed) exit 1 }
