# range.awk - the smallest and largest positive number among all fields of the
# input, fields split by -F, (for log axes): prints "MIN MAX", or "0 0" when there is none.
{
    for (i = 1; i <= NF; i++)
        if ($i ~ /^[ \t]*[-+]?[0-9.]+([eE][-+]?[0-9]+)?[ \t]*$/ && $i + 0 > 0) {
            v = $i + 0
            if (!n++ || v < lo) lo = v
            if (v > hi) hi = v
        }
}
END { print (n ? sprintf("%.17g %.17g", lo, hi) : "0 0") }
