#!/bin/sh
# 15-output-honest.t - "never silently wrong": every number printed is
# the number computed (exact CSV round trips, no cut cells), a failed write is
# an error, lists and lines are bounded, casts are range-checked, messages
# carry no raw control bytes.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
P=$BIN/lopredict
F=$BIN/lopfit

# ---- 1. numbers are never cut: a rising saturation term (l5 > 0) extrapolated
# to cnt 1000 gives diss at P = 64 a LoP cost of 2.048381968374377e+261 us
# (6 (o(6000) + L(6000)) by hand).  The thesis set's -4.4e46 at cnt 5000 is no
# time and is no longer printed (31-lopredict.t).
printf 'file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6\nx,rdmaw-inline,rtt,min,rtt,9,1,63,10,1,5,-2,0.1,1\nx,rdmaw-inline,os,min,ov,9,1,63,1,0,1,,,\n' >"$T/big.csv"
row=$("$P" --params "$T/big.csv" --cnt 1000 --p 64 --alg diss --csv 2>/dev/null | grep '^diss')
lop=$(echo "$row" | cut -d, -f8)
check "lopredict --csv: lop_us is the computed 2.05e261 ($lop)" \
    awk -v v="$lop" 'BEGIN { exit !(v ~ /^2\.0483819683743[0-9]*e\+261$/) }'
check "lopredict table: 2.05e261 shown as 2.04838e+261, not a cut string" \
    sh -c "'$P' --params '$T/big.csv' --cnt 1000 --p 64 --alg diss 2>/dev/null | grep -q '^diss .* 2.04838e+261 '"

# ---- 2. byte-exact round trips of extreme values through every tool's CSV
# lopredict --measured echoes measured times: they must come back byte for byte.
vals="1.7976931348623157e+308 1e+308 1e-308 4.9406564584124654e-324 0.30000000000000004 43.25192462652605"
{
    echo "executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us"
    for v in $vals; do echo "p2p,diss,,4,10,1,$v,1,1,1"; done
} >"$T/extreme.csv"
"$P" --measured "$T/extreme.csv" --stat avg --csv >"$T/meas.csv" 2>"$T/meas.err"
got=$(grep '^p2p,' "$T/meas.csv" | cut -d, -f6 | tr '\n' ' ')
# the shortest form that reads back: 4.9406564584124654e-324 prints as 4.94065645841247e-324
want="1.7976931348623157e+308 1e+308 1e-308 4.94065645841247e-324 0.30000000000000004 43.25192462652605"
check "lopredict --measured --csv: measured_us round-trips ($got)" test "$got" = "$want "
[ "$got" = "$want " ] || diag "$(cat "$T/meas.err")"

# lopfit --synth writes each fit's value at p: the cells must be the λ
# exactly, up to the edges of the times lopfit's reader takes (1e-100 to
# 1e100 us: beyond them --synth refuses, below).
{
    echo "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6"
    echo "x,big,rtt,min,linear,3,1,2,1e+100,0,,,,"
    echo "x,tiny,rtt,min,linear,3,1,2,1.0000000000000001e-100,0,,,,"
    echo "x,third,rtt,min,linear,3,1,2,0.30000000000000004,0,,,,"
    echo "x,odd,rtt,min,linear,3,1,2,43.25192462652605,0,,,,"
} >"$T/extreme-params.csv"
"$F" --synth "$T/extreme-params.csv" -o "$T/synth" 2>"$T/synth.err"
got=$(for s in big tiny third odd; do grep '^1,' "$T/synth/$s-rtt.csv" 2>/dev/null | cut -d, -f3; done | tr '\n' ' ')
check "lopfit --synth: extreme λ come back exactly ($got)" \
    test "$got" = "1e+100 1.0000000000000001e-100 0.30000000000000004 43.25192462652605 "
[ -s "$T/synth.err" ] && diag "$(cat "$T/synth.err")"
echo "x,max,rtt,min,linear,3,1,2,1.7976931348623157e+308,0,,,," >>"$T/extreme-params.csv"
"$F" --synth "$T/extreme-params.csv" -o "$T/synth2" 2>"$T/synth2.err"
rc=$?
check "lopfit --synth: a time its reader would refuse is refused ($rc), in one line, nothing written" \
    sh -c "test $rc -eq 2 && test \$(wc -l <'$T/synth2.err') -eq 1 && test ! -e '$T/synth2' &&
           grep -q ':[0-9]*: series .max. rtt min: the fit at p = 1 is 1.79769e+308 us, larger than any time lopfit fits' '$T/synth2.err'"

# lopfit --csv: every λ, SSR and SE reads back to what params.csv holds (one writer).
"$F" --synth "$BIN/../data/mozart-2005/params.csv" -o "$T/moz" 2>/dev/null
"$F" -o "$T/fit" --csv "$T/moz/send-normal-rtt.csv" >"$T/fit.csv" 2>/dev/null
a=$(grep '^send-normal,\|,send-normal,' "$T/fit.csv" | head -1 | cut -d, -f9-23)
b=$(grep -v '^#' "$T/fit/params.csv" | sed -n 2p | cut -d, -f9-23)
check "lopfit: --csv and params.csv carry the same exact numbers" test -n "$a" -a "$a" = "$b"
check "lopfit: ssr has more than 10 significant digits or is exact" \
    awk -F, -v s="$(echo "$b" | cut -d, -f7)" 'BEGIN { exit !(s + 0 == s) }'

# ---- 3. a failed write is an error: one line, non-zero exit
full_refused() {
    _name=$1 _tool=$2
    shift 2
    "$@" >/dev/full 2>"$T/full.err"
    _rc=$?
    if [ $_rc -ne 0 ] && [ "$(grep -c "^$_tool: error writing standard output: No space left on device\$" "$T/full.err")" -eq 1 ] &&
        [ "$(grep -c "error writing" "$T/full.err")" -eq 1 ]; then
        pass "$_name > /dev/full: exit $_rc, one line"
    else
        fail "$_name > /dev/full (exit $_rc)"
        diag "$(cat "$T/full.err")"
    fi
}
full_refused "lopredict" lopredict "$P" --alg diss --p 2..64
full_refused "lopredict --csv" lopredict "$P" --alg diss --p 2..64 --csv
full_refused "lopredict --schedule" lopredict "$P" --schedule --alg diss --p 64
full_refused "lopredict --verify" lopredict "$P" --verify --alg diss --p 2..8
full_refused "lopfit --csv" lopfit "$F" --csv "$T/moz/send-normal-rtt.csv"
full_refused "lopfit --help" lopfit "$F" --help
# lopbench: each rank's own stdout is /dev/full (mpirun's forwarding is not ours to check)
run_mpi 2 sh -c 'exec "$0" "$@" >/dev/full' "$BIN/lopbench" --barrier --reps 5 --warmup 1 \
    --alg diss --exec p2p -o "$T/bar" 2>"$T/bar.err"
rc=$?
check "lopbench --barrier > /dev/full: non-zero exit ($rc)" test $rc -ne 0
check "lopbench --barrier > /dev/full: one line naming the error" \
    test "$(grep -c '^lopbench: error writing standard output: No space left on device$' "$T/bar.err")" -eq 1

# ---- 4. limits: lists and lines
refuses_one_line "--p beyond the list limit is refused up front" 2 "option --p: list longer than 1000000 values" \
    "$P" --p 1..20000000 --csv
refuses_one_line "--n beyond the list limit" 2 "option --n: " "$P" --n 1..1000000,1..1000000
head -c 100000 /dev/zero | tr '\0' a >"$T/long.csv"
refuses_one_line "an over-long line: file:line: line longer than 65536 bytes" 2 \
    "long.csv:1: line longer than 65536 bytes" "$P" --check-schedule "$T/long.csv"
timeout 60 "$P" --check-schedule /dev/zero >/dev/null 2>"$T/zero.err"
rc=$?
check "--check-schedule /dev/zero stops by itself with exit 2 ($rc)" test $rc -eq 2
zeros=$(printf '%062d' 0)
n=$("$P" --alg diss --p "${zeros}2..64" --csv | grep -c '^diss,')
check "an item longer than 63 characters is read whole: 63 rows ($n)" test "$n" -eq 63

# ---- 5. a UTF-8 BOM is not part of the header
printf '\357\273\277' >"$T/bom.csv"
cat "$BIN/../data/mozart-2005/params.csv" >>"$T/bom.csv"
a=$("$P" --params "$T/bom.csv" --alg diss --p 8 --csv 2>&1 | grep '^diss')
b=$("$P" --alg diss --p 8 --csv | grep '^diss')
check "a params.csv with a BOM reads like one without ($a)" test -n "$a" -a "$a" = "$b"

# ---- 6. control bytes from files are escaped in messages
printf 'executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\np2p,di\033[2Jss,,4,10,1,2,1,1,2\n' >"$T/ctl.csv"
"$P" --measured "$T/ctl.csv" >/dev/null 2>"$T/ctl.err"
check "an escape byte in a cell is shown as \\x1b" grep -q 'di\\x1b\[2Jss' "$T/ctl.err"
check "... and never written raw" sh -c "! grep -q \"\$(printf '\033')\" '$T/ctl.err'"

# ---- 7. float -> int: range-checked before converting, with a message
H="executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us"
for n in 4294967298 1e308; do
    printf '%s\np2p,ndiss,%s,4,10,1,2,1,1,2\n' "$H" "$n" >"$T/n.csv"
    refuses_one_line "barrier.csv n = $n is refused" 2 "n.csv:2: column 'n': '$n' is not a whole number" \
        "$P" --measured "$T/n.csv"
done
{
    grep -v '^thesis-2.3.6.2,send-normal,rtt,min' "$BIN/../data/mozart-2005/params.csv"
    echo "x,send-normal,rtt,min,rtt,1e20,1,63,22.4558,-0.0140,9.1637,0.0174,-0.0625,101.3065,,,,,,,,,"
} >"$T/n20.csv"
refuses_one_line "params.csv n = 1e20 is refused" 2 "column 'n': '1e20' is not a whole number" \
    "$P" --params "$T/n20.csv" --series send-normal
printf 'rank,step,op,peer\n0,1e300,send,1\n1,0,recv,0\n' >"$T/s.csv"
refuses_one_line "schedule step = 1e300 is refused" 2 "s.csv:2: column 'step': '1e300' is not a whole number" \
    "$P" --check-schedule "$T/s.csv"

done_testing
