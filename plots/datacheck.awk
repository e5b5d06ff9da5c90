# datacheck.awk - why one CSV holds nothing a figure can plot, for plot.sh's
# message when gnuplot fails (gnuplot's own last words, "empty y range" or
# "undefined variable: STATS_max", name no file):
#   awk -F, -f datacheck.awk [-v need=p,min_us] FILE
# prints the reason, or nothing when FILE has a header row with every column
# of 'need' and a data row with a number in it.  '#' lines (metadata) and
# blank lines are skipped.
/^#/ || /^[ \t\r]*$/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) col[$i] = 1
    n = need == "" ? 0 : split(need, w, ",")
    for (i = 1; i <= n; i++)
        if (!(w[i] in col)) { missing = w[i]; exit }
    next
}
{
    for (i = 1; i <= NF; i++)
        if ($i ~ /^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t\r]*$/) {
            found = 1
            exit
        }
}
END {
    if (!header) print "no header row"
    else if (missing != "") print "no column '" missing "' in its header"
    else if (!found) print "no row with a number under its header"
}
