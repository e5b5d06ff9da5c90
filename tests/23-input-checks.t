#!/bin/sh
# 23-input-checks.t - inputs are not trusted further than they are checked
# ("never silently wrong"): pmax bounds lopfit's loops, names from
# params.csv never leave the output directory, 10^6-row inputs are read in
# seconds (a repeated p was an O(n^2) search, MPI_Barrier a scan per row),
# and each silent behaviour is a one-line error: a repeated params.csv key,
# a model that does not fit its quantity, negative times, an unknown
# executor, an unreadable MPI_Barrier p, a metadata key or a column given
# twice; a subnormal number reads back; an input that is not a regular file
# (a FIFO) is refused, not waited for.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
F=$BIN/lopfit
P=$BIN/lopredict
H=file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,se1,se2,se3,se4,se5,se6
RTT=send-normal,rtt,min,rtt,31,1,31,20,0.2,5,3,-0.08,1,,,,,,,,,
OS=send-normal,os,min,ov,16,1,16,0.5,0.8,-0.1,,,,,,,,,,,,

# lopfit ARGS...: $F under a hang guard (no time threshold), still named
# lopfit for refuses_one_line
lopfit() { timeout 120 "$F" "$@"; }

# params NAME ROW...: $T/NAME.csv with these rows after the header
params() {
    _f=$T/$1.csv
    shift
    printf '%s\n' "$H" "$@" >"$_f"
}

# ---- defect 5: pmax drives lopfit's loops; names become paths
for pmax in 5e6 2147483647 3e9 1000001; do
    params "pmax$pmax" "t,$RTT" "t,send-normal,os,min,ov,16,1,$pmax,0.5,0.8,-0.1,,,,,,,,,,,,"
    for mode in from-params synth; do
        rm -rf "$T/o"
        # 2147483647 rows never ended: lopfit has a hang guard
        refuses_one_line "--$mode refuses pmax = $pmax" 2 \
            "pmax$pmax.csv:3: pmin = 1, pmax = .*: need 1 <= pmin <= pmax <= 1000000" \
            lopfit --$mode "$T/pmax$pmax.csv" -o "$T/o"
        check "--$mode pmax = $pmax: nothing written" test ! -e "$T/o"
        [ $pmax = 1000001 ] && check "--$mode: pmax 1000001 printed as an integer, not 1e+06" \
            grep -q 'pmax = 1000001: need' "$_d/refused.err"
    done
done
refuses_one_line "lopredict refuses it as well" 2 "pmax5e6.csv:3: pmin = 1, pmax = 5000000:" \
    "$P" --params "$T/pmax5e6.csv" --series send-normal --p 2

mkdir -p "$T/a/b/c"
for name in ../../escaped /abs .hidden -opt 'a b' 'a;b'; do
    params "name" "t,$name,rtt,min,rtt,31,1,31,20,0.2,5,3,-0.08,1,,,,,,,,," \
        "t,$name,os,min,ov,16,1,16,0.5,0.8,-0.1,,,,,,,,,,,,"
    for mode in from-params synth; do
        refuses_one_line "--$mode refuses series '$name'" 2 "name.csv:2: series '.*' must be 1 to 63" \
            "$F" --$mode "$T/name.csv" -o "$T/a/b/c/o"
    done
done
check "nothing escaped the output directory" \
    test -z "$(find "$T" -name '*escaped*')" -a ! -e "$T/a/b/c/o"
cat >"$T/data.csv" <<'CSV'
# quantity: rtt
# series: ../up
p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us
1,1,1,1,1,1,1,0
2,1,2,2,2,2,2,0
CSV
refuses_one_line "lopfit: a data file's series follows the same rule" 2 \
    "data.csv:3: series '../up' must be 1 to 63" "$F" --model rtt=linear -o "$T/o" "$T/data.csv"

# ---- defect 6: 10^6 rows in seconds (timeout 120: a hang guard, no threshold)
# Skipped under SANITIZE=1 (make check sets LOP_SANITIZE): ASan's allocator
# spends minutes of system time on the 10^6 rows' allocations (4 min measured,
# with or without its quarantine); these points are about scaling, the plain
# build runs them, and memory errors are the other tests' job.
if [ -n "${LOP_SANITIZE:-}" ]; then
    for what in "lopfit: a repeated p among 10^6 rows" "lopredict --measured joins 10^6 rows" \
        "... every row against the MPI_Barrier row"; do
        skip "$what: not under SANITIZE=1"
    done
else
    awk 'BEGIN { print "# quantity: os"; print "# series: send-normal"
                 print "p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us"
                 for (p = 1; p <= 1000000; p++) printf "%d,10,%.6g,1,1,1,1,0\n", p, 1 + 1 / (p + 1)
                 print "1000000,10,1,1,1,1,1,0" }' >"$T/os1m.csv"
    refuses_one_line "lopfit: a repeated p among 10^6 rows is found" 2 \
        "os1m.csv:1000004: p = 1e+06 repeats line 1000003" \
        lopfit --stat min "$T/os1m.csv"
    awk 'BEGIN { print "executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us"
                 for (i = 1; i < 1000000; i++) print "p2p,diss,,2,10,2.5,2.5,1,1,3"
                 print "mpi,MPI_Barrier,,2,10,2.0,2.0,1,1,3" }' >"$T/barrier1m.csv"
    timeout 120 "$P" --measured "$T/barrier1m.csv" --csv >"$T/m1m" 2>/dev/null
    check "lopredict --measured joins 10^6 rows" test $? -eq 0
    check "... every row against the MPI_Barrier row at the end of the file" \
        test "$(grep -c '^p2p,diss,,2,.*,1.25,,isolated$' "$T/m1m")" -eq 999999
fi

# ---- defect 8: one-line errors instead of silence
params dup "a,$RTT" "a,$OS" "b,$RTT"
refuses_one_line "params.csv: a repeated (series, quantity, stat)" 2 \
    "dup.csv:4: series 'send-normal' quantity 'rtt' stat 'min' has a non-linear fit already (line 2)" \
    "$P" --params "$T/dup.csv" --series send-normal --p 2
params line "a,$RTT" "a,$OS" "a,send-normal,rtt,min,linear,31,1,31,20,0.1,,,,,,,,,,,,,"
"$P" --params "$T/line.csv" --series send-normal --p 4 --csv >"$T/line.out" 2>/dev/null
"$P" --params "$T/line.csv" --series send-normal --p 4 --csv --alg diss >/dev/null 2>&1
check "... but --compare's LogP line beside a fit is no repeat" test $? -eq 0
cat >"$T/data1.csv" <<'CSV'
# quantity: rtt
# series: send-normal
p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us
1,1,1,1,1,1,1,0
2,1,2,2,2,2,2,0
3,1,3,3,3,3,3,0
CSV
# rtt's models as lopfit's --model refusal lists them, checked against the
# models it takes (lib.sh): both refusals below list the same
RTT_MODELS=$(lopfit_family rtt "$T/data1.csv")
check "lopfit lists rtt's models ($RTT_MODELS) as the ones --model rtt= takes" test -n "$RTT_MODELS"
params rttov "a,send-normal,rtt,min,ov,31,1,31,20,0.2,5,,,,,,,,,,,," "a,$OS"
refuses_one_line "params.csv: quantity rtt with model ov" 2 \
    "rttov.csv:2: quantity 'rtt' takes model $RTT_MODELS, not ov" \
    "$P" --params "$T/rttov.csv" --series send-normal --p 2
refuses_one_line "lopfit: --model rtt=ov refused" 2 \
    "data1.csv: quantity 'rtt' takes model $RTT_MODELS, not ov" \
    "$F" --model rtt=ov "$T/data1.csv"
sed 's/^2,1,2,2/2,1,-2,2/' "$T/data1.csv" >"$T/neg.csv"
refuses_one_line "lopfit: a negative time" 2 "neg.csv:5: column 'min_us': time -2 is negative" \
    "$F" --model rtt=linear "$T/neg.csv"

B=executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
printf '%s\n' "$B" "tcp,diss,,2,10,1,2,1,1,3" >"$T/exec.csv"
refuses_one_line "--measured: an unknown executor" 2 \
    "exec.csv:2: unknown executor 'tcp' (p2p, shm, verbs or mpi)" "$P" --measured "$T/exec.csv"
printf '%s\n' "$B" "p2p,diss,,2,10,1,2,1,1,3" "mpi,MPI_Barrier,,two,10,1,2,1,1,3" >"$T/mpip.csv"
refuses_one_line "--measured: an MPI_Barrier row with an unreadable p" 2 \
    "mpip.csv:3: column 'p': 'two' is not a number" "$P" --measured "$T/mpip.csv"
printf '%s\n' "$B" "mpi,MPI_Barrier,,2,10,1,2,1,1,3" "mpi,MPI_Barrier,,2,10,1,3,1,1,3" \
    >"$T/mpi2.csv"
refuses_one_line "--measured: two MPI_Barrier rows for one p" 2 \
    "mpi2.csv:3: a second MPI_Barrier row for p = 2 (line 2)" "$P" --measured "$T/mpi2.csv"

# A name given twice: every reader would take the first and ignore the
# second, so the CSV layer refuses it where the second one is.
printf '# quantity: os\n# series: a\np,min_us,n,min_us\n1,1,1,9\n2,2,1,9\n' >"$T/twomin.csv"
refuses_one_line "lopfit: a data file with two min_us columns" 2 \
    "twomin.csv:3: column 'min_us' given twice (columns 2 and 4)" "$F" --stat min "$T/twomin.csv"
printf '# quantity: os\n# series: a\np,min_us,p\n1,1,5\n2,2,6\n' >"$T/twop.csv"
refuses_one_line "lopfit: a data file with two p columns" 2 \
    "twop.csv:3: column 'p' given twice (columns 1 and 3)" "$F" --stat min "$T/twop.csv"
printf '# quantity: os\n# series: a\n# quantity: rtt\np,min_us\n1,1\n2,2\n' >"$T/twoq.csv"
refuses_one_line "lopfit: two '# quantity:' lines" 2 \
    "twoq.csv:3: metadata key 'quantity' given twice (first on line 1)" "$F" --stat min "$T/twoq.csv"
printf '# p: 2\ni,j,o_us,L_us,L_us\n0,1,1,2,9\n1,0,1,2,9\n' >"$T/twoL.csv"
refuses_one_line "pairs.csv with L_us twice" 2 "twoL.csv:2: column 'L_us' given twice" \
    "$P" --costs "$T/twoL.csv" --alg diss --p 2 --simulate --model logp
printf '# p: 4\n# p: 8\ni,j,o_us,L_us\n0,1,1,2\n1,0,1,2\n' >"$T/twoP.csv"
refuses_one_line "pairs.csv with '# p: 4' then '# p: 8'" 2 \
    "twoP.csv:2: metadata key 'p' given twice (first on line 1)" \
    "$P" --costs "$T/twoP.csv" --alg diss --p 2 --simulate --model logp
printf '%s\n' "$H,l1" "a,$RTT,7" "a,$OS," >"$T/twol1.csv"
refuses_one_line "params.csv with l1 twice" 2 "twol1.csv:1: column 'l1' given twice (columns 9 and 24)" \
    "$P" --params "$T/twol1.csv" --series send-normal --p 2

# What lopfit writes lopredict reads: a subnormal lambda (printf writes it,
# strtod says ERANGE) reads back exactly.
params sub "a,send-normal,rtt,min,rtt,31,1,31,1e-308,0.2,5,3,-0.08,1,,,,,,,,,"  "a,$OS"
"$F" --from-params "$T/sub.csv" -o "$T/sub" 2>"$T/sub.err"
check "a subnormal l1 = 1e-308 is read (lopfit --from-params)" test $? -eq 0
"$P" --params "$T/sub.csv" --series send-normal --p 2 >/dev/null 2>&1
check "... and by lopredict" test $? -eq 0
refuses_one_line "1e999 is 'not finite', not 'not a number'" 2 "column 'l1': '1e999' is not finite" \
    "$P" --params "$(params inf "a,send-normal,rtt,min,rtt,31,1,31,1e999,0.2,5,3,-0.08,1,,,,,,,,,"\
        "a,$OS"; echo "$T/inf.csv")" --series send-normal --p 2

# ---- an input that is not a regular file is refused at once: a FIFO without
# a writer once blocked every reader forever.  The tools run under timeout 10,
# a hang guard (a refusal takes no time), with their own names for
# refuses_one_line.
mkdir "$T/g" && mkfifo "$T/fifo.csv"
for t in lopfit lopredict; do
    printf '#!/bin/sh\nexec timeout 10 "%s" "$@"\n' "$BIN/$t" >"$T/g/$t" && chmod +x "$T/g/$t"
done
FIFO="fifo.csv: is a FIFO; lop reads only regular files"
refuses_one_line "lopfit -o DIR FIFO: refused" 2 "$FIFO" "$T/g/lopfit" -o "$T/fo" "$T/fifo.csv"
check "... and DIR not made" test ! -e "$T/fo"
refuses_one_line "lopfit --from-params FIFO" 2 "$FIFO" "$T/g/lopfit" --from-params "$T/fifo.csv" -o "$T/fo"
refuses_one_line "lopredict --params FIFO" 2 "$FIFO" \
    "$T/g/lopredict" --params "$T/fifo.csv" --series send-normal --p 2
refuses_one_line "lopredict --costs FIFO" 2 "$FIFO" "$T/g/lopredict" --alg diss --p 8 --costs "$T/fifo.csv"
refuses_one_line "lopredict --check-schedule FIFO" 2 "$FIFO" "$T/g/lopredict" --check-schedule "$T/fifo.csv"
refuses_one_line "lopredict --measured FIFO" 2 "$FIFO" "$T/g/lopredict" --measured "$T/fifo.csv"
printf '%s\n' "$B" "p2p,file:fifo.csv,,2,10,1,2,1,1,2" >"$T/fifo-row.csv"
refuses_one_line "lopredict --measured: a row whose schedule file is a FIFO" 2 \
    "fifo-row.csv:2: .*$FIFO" "$T/g/lopredict" --measured "$T/fifo-row.csv"
refuses_one_line "a character device is no input either" 2 \
    "/dev/null: is a character device; lop reads only regular files" \
    "$T/g/lopredict" --params /dev/null --series send-normal --p 2
# A header quoted as RFC 4180 says (a spreadsheet's export) reads as the
# plain one: it once gave "no column 'p'".
printf '# quantity: os\n# series: q\n"p","min_us"\n1,2\n2,"2.5"\n3,2.2\n' >"$T/q-os.csv"
lopfit --csv --stat min --model linear "$T/q-os.csv" >"$T/q.out" 2>"$T/q.err"
check "lopfit reads a quoted header and quoted cells" \
    sh -c "grep -q ',q,os,min,linear,3,1,3,' '$T/q.out' && test ! -s '$T/q.err'"
printf '# quantity: os\np,min_us\n1,"2\n' >"$T/q-open.csv"
refuses_one_line "a quote not closed on its line: refused by file:line" 2 \
    "q-open.csv:3: cell 2: a quoted cell is not closed on its line" lopfit "$T/q-open.csv"
done_testing
