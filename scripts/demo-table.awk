# demo-table.awk - the demo's final table from lopredict --measured --csv: per
# executor and algorithm the measured time, the time model M predicts with its
# 95 % interval, the error and whether the measurement lies inside the interval.
#   awk -F, -f demo-table.awk -v model=lop [-v mode=csv] measured.csv
# mode=text (default): aligned columns for a terminal; mode=csv: CSV with the
# columns executor,alg,n,p,series,measured_us,predicted_us,predicted_lo_us,
# predicted_hi_us,err_pct,inside,notes (lopredict's flags of the row and of
# that model's column).
# model is lopredict's column stem: logp, lop, sim_logp, sim_lop, loop, bucket (X_us,
# X_lo_us, X_hi_us, err_X, inside_X).  The error and 'inside' are lopredict's
# as it wrote them (err_X a fraction, shown here in percent; inside_X empty,
# shown "-", when there is no interval): this table computes nothing.  An
# empty predicted time (lopredict's flags say why: infinite, negative,
# undefined) has no error.  Rows of executor mpi (MPI_Barrier) are not
# predictions and are left out.
# A prediction from a fit whose error is unknown (e.g. a constant RTT from one
# point) has no interval: lopredict's flags say <column>=no-interval.
function num(s) { return s ~ /^[ \t]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
function get(c) { return (c in col) ? $col[c] : "" }
function t(v) { return num(v) ? sprintf("%.4g", v) : "-" }
# lopredict's flags that concern this table: the row's (no '=') and the model's
function notes(f,    k, i, tok, out) {
    k = split(f, tok, ";")
    for (i = 1; i <= k; i++)
        if (tok[i] !~ /=/ || index(tok[i], model "_us=") == 1)
            out = out (out == "" ? "" : ";") tok[i]
    return out
}
function csvq(s) { return s ~ /[",]/ ? "\"" s "\"" : s }
/^#/ || /^[ \t]*$/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) col[$i] = i
    if (model == "") model = "lop"
    split("executor alg p measured_us " model "_us err_" model " inside_" model, need, " ")
    for (i = 1; i in need; i++)
        if (!(need[i] in col)) {
            print FILENAME ": no column '" need[i] "' (lopredict --measured --csv output)" > "/dev/stderr"
            bad = 1
            exit 1
        }
    next
}
get("executor") == "mpi" { next }
{
    n++
    ex[n] = get("executor"); al[n] = get("alg"); nn[n] = get("n"); pp[n] = get("p")
    se[n] = get("series"); fl[n] = notes(get("flags"))
    m[n] = get("measured_us"); pr[n] = get(model "_us")
    lo[n] = get(model "_lo_us"); hi[n] = get(model "_hi_us")
    er[n] = get("err_" model); er[n] = num(er[n]) ? sprintf("%+.0f", 100 * er[n]) : ""
    ins[n] = get("inside_" model)
}
END {
    if (bad) exit 1
    if (mode == "csv") {
        print "executor,alg,n,p,series,measured_us,predicted_us,predicted_lo_us,predicted_hi_us,err_pct,inside,notes"
        for (i = 1; i <= n; i++)
            print csvq(ex[i]) "," csvq(al[i]) "," nn[i] "," pp[i] "," csvq(se[i]) "," m[i] "," pr[i] "," \
                lo[i] "," hi[i] "," er[i] "," ins[i] "," csvq(fl[i])
        exit 0
    }
    # text: a header row, then one row per prediction, columns padded to their widths
    name = model == "logp" ? "LogP" : model == "lop" ? "LoP" : model == "sim_logp" ? "LogP sim." : \
        model == "sim_lop" ? "LoP sim." : model
    split("executor|alg|n|P|series|measured [us]|" name " [us]|95 % interval [us]|error|inside|notes", h, "|")
    nc = 11
    for (c = 1; c <= nc; c++) { cell[0, c] = h[c]; w[c] = length(h[c]) }
    for (i = 1; i <= n; i++) {
        cell[i, 1] = ex[i]; cell[i, 2] = al[i]; cell[i, 3] = nn[i] == "" || nn[i] == "0" ? "-" : nn[i]
        cell[i, 4] = pp[i]; cell[i, 5] = se[i] == "" ? "-" : se[i]; cell[i, 6] = t(m[i]); cell[i, 7] = t(pr[i])
        cell[i, 8] = num(lo[i]) && num(hi[i]) ? "[" t(lo[i]) ", " t(hi[i]) "]" : "-"
        cell[i, 9] = er[i] == "" ? "-" : er[i] "%"
        cell[i, 10] = ins[i] == "" ? "-" : ins[i]; cell[i, 11] = fl[i] == "" ? "" : fl[i]
        for (c = 1; c <= nc; c++) if (length(cell[i, c]) > w[c]) w[c] = length(cell[i, c])
    }
    for (i = 0; i <= n; i++) {
        line = ""
        for (c = 1; c <= nc; c++) {
            # numbers right-aligned, words left-aligned; the last column unpadded
            right = c == 3 || c == 4 || c == 6 || c == 7 || c == 9
            f = c == nc ? "%s" : right ? "%" w[c] "s" : "%-" w[c] "s"
            line = line (c > 1 ? "  " : "") sprintf(f, cell[i, c])
        }
        sub(/ +$/, "", line)
        print line
    }
}
