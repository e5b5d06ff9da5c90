#!/bin/sh
# 31-lopredict.t - lopredict's predictions: works from any directory with the
# shipped parameter set, the CSV contract, --best, the extrapolation warning,
# and bad input (one line, exit 2, nothing on stdout).
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict

check "--help lists --alg and --verify" sh -c "'$B' --help | grep -q -- '--verify' && '$B' --help | grep -q -- '--alg'"
"$B" --help >"$T/help"
check "--help lists --draws and --seed" sh -c "grep -q -- '--draws N' '$T/help' && grep -q -- '--seed S' '$T/help'"
N_ALGS=$(algs | wc -l)
N_SCHED=$(algs schedule=yes | wc -l)
missing=""
for a in $(algs); do
    grep -q "^  $a  *[A-Za-z]" "$T/help" || missing="$missing $a"
done
check "--help lists the $N_ALGS algorithms with their titles${missing:+ (missing:$missing)}" \
    sh -c "[ -z '$missing' ] && [ $N_ALGS -gt 0 ] && grep -q '^  ndiss     n-way dissemination; n: peers per round' '$T/help'"
check "... and their citations" \
    sh -c "grep -q '^  mcs       MCS tree' '$T/help' && grep -q '^ *thesis 2.2.1.5 (listing 2.4), table 2.1; Mellor-Crummey and Scott 1991\$' '$T/help'"

# README.md's `lopredict --alg ndiss --n 2`, from a directory that is not
# the checkout.
if (cd "$T" && "$B" --alg ndiss --n 2 >"$T/ndiss.txt" 2>"$T/err"); then
    pass "lopredict --alg ndiss --n 2 works from another directory"
else
    fail "lopredict --alg ndiss --n 2 works from another directory"
    diag "$(cat "$T/err")"
fi
check "... with one row per P = 2..64" test "$(grep -c '^ndiss ' "$T/ndiss.txt")" -eq 63
check "... and names the shipped set" grep -q '^# params: .*mozart-2005/params.csv' "$T/ndiss.txt"

# LOP_DATA_DIR overrides: a set with the thesis's o_s but a constant RTT of 20 us.
mkdir -p "$T/data/mozart-2005"
cat >"$T/data/mozart-2005/params.csv" <<'EOF'
file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6
x,rdmaw-inline,rtt,min,rtt,9,1,63,0,1,20,0,0,0
x,rdmaw-inline,os,min,ov,9,1,63,1,0,1,,,
EOF
out=$(LOP_DATA_DIR=$T/data "$B" --alg diss --p 8 --csv | grep '^diss')
# L = 20/2 - 2 = 8, o = 1: LogP 3 (1 + 8 + 1) = 30, LoP 3 (1 + 8) = 27
check "LOP_DATA_DIR selects the set ($out)" test "$out" = "diss,,8,3,30,,,27,,,"

# The CSV contract the plots rely on.
"$B" --alg all --p 2..64 --cnt 2 --csv >"$T/all.csv" 2>/dev/null
check "CSV header" test "$(grep -v '^#' "$T/all.csv" | head -1)" = \
    "alg,n,p,rounds,logp_us,logp_lo_us,logp_hi_us,lop_us,lop_lo_us,lop_hi_us,flags"
check "CSV metadata series and cnt" sh -c "grep -qx '# series: rdmaw-inline' '$T/all.csv' && grep -qx '# cnt: 2' '$T/all.csv'"
check "$N_ALGS algorithms x 63 P" test "$(grep -vc '^#' "$T/all.csv")" -eq $((N_ALGS * 63 + 1))
check "n empty where the algorithm has none" grep -q '^diss,,64,6,' "$T/all.csv"

# --list-algs: the descriptors' table (predict/README.md), whence every count
# and list of algorithms in the tests (algs in lib.sh).
"$B" --list-algs --csv >"$T/algs.csv"
check "--list-algs --csv header" test "$(head -1 "$T/algs.csv")" = \
    "alg,takes_n,default_n,schedule,lop_band_lo,lop_band_hi,title,n_meaning,logp_exact,lop_exact"
check "--list-algs: the algorithms of --alg all ($N_ALGS), in order" test \
    "$(grep -v '^#' "$T/all.csv" | sed 1d | cut -d, -f1 | uniq | tr '\n' ' ')" = "$(algs | tr '\n' ' ')"
check "--list-algs: $N_SCHED with a schedule, the algorithms --verify checks" test \
    "$(algs schedule=yes | tr '\n' ' ')" = \
    "$("$B" --verify --p 4 --csv | grep -v '^#' | sed 1d | cut -d, -f1 | uniq | tr '\n' ' ')"
check "--list-algs: a note holding a comma is quoted (RFC 4180)" \
    grep -q '^ndiss,.*,"exact for one link .*gcd((n+1)^(R-1), P)); the simulator models one link",exact unless' "$T/algs.csv"
check "--list-algs: diss exact everywhere (no band), ndiss's band 0.99..4.72" sh -c \
    "grep -q '^diss,no,,yes,,,dissemination,,' '$T/algs.csv' && grep -q '^ndiss,yes,2,yes,0.99,4.72,n-way dissemination,peers per round,' '$T/algs.csv'"
check "--list-algs without --csv: a table, a row per algorithm" \
    test "$("$B" --list-algs | grep -c '^[a-z]')" -eq $((N_ALGS + 1))
refuses_one_line "--list-algs with another mode is refused" 2 \
    "options --verify and --list-algs are two modes" "$B" --verify --list-algs
hdr=$("$B" --alg diss --p 4 --model logp --simulate --csv | grep -v '^#' | head -1)
check "--simulate with one model adds sim_us ($hdr)" test "$hdr" = \
    "alg,n,p,rounds,logp_us,logp_lo_us,logp_hi_us,lop_us,lop_lo_us,lop_hi_us,sim_us,sim_lo_us,sim_hi_us,flags"
hdr=$("$B" --alg diss --p 4 --simulate --csv | grep -v '^#' | head -1)
check "--simulate with both models: sim_logp_us,sim_lop_us" test "$hdr" = \
    "alg,n,p,rounds,logp_us,logp_lo_us,logp_hi_us,lop_us,lop_lo_us,lop_hi_us,sim_logp_us,sim_logp_lo_us,sim_logp_hi_us,sim_lop_us,sim_lop_lo_us,sim_lop_hi_us,flags"
row=$("$B" --alg diss,hwnet --p 8 --simulate --csv | grep '^hwnet')
check "cost-only rows have empty simulation cells ($row)" test "$row" = "hwnet,,8,1,2.48,,,2.48,,,,,,,,,"
row=$("$B" --alg ndiss --n 1..3 --p 9 --L 5 --o 1 --model logp --csv | grep -c '^ndiss')
check "--n 1..3 gives three rows" test "$row" -eq 3
row=$("$B" --alg diss --p 9 --L 5 --o 1 --model logp --params /nonexistent --csv 2>/dev/null)
check "explicit LogP parameters need no set, but a named set must exist" test -z "$row"
row=$(cd "$T" && "$B" --alg diss --p 9 --L 5 --o 1 --model logp --csv | grep '^diss')
check "LogP from options ($row)" test "$row" = "diss,,9,4,28,,,,,,"

# --best: one row per P and model.
"$B" --best --p 2..9 --csv >"$T/best.csv"
check "--best: 8 P x 2 models" test "$(grep -vc '^#' "$T/best.csv")" -eq 17
best=$("$B" --best --p 64 --model logp --L 5 --o 1 --csv | grep '^64')
check "--best under LogP at P=64 ($best)" test "$best" = "64,logp,rgm,7,33,,,,"

# Extrapolation: cnt 5000 leaves the fitted p range 1..63.
"$B" --alg ndiss --n 2 --p 64 --cnt 5000 >/dev/null 2>"$T/warn"
check "LoP extrapolation is a warning" grep -q 'warning: LoP evaluates o(p), L(p) at p = .*outside the range 1..63' "$T/warn"
"$B" --alg ndiss --n 2 --p 8 >/dev/null 2>"$T/warn"
check "no warning inside the range" test ! -s "$T/warn"
row=$("$B" --alg ndiss --n 2 --p 8,64 --cnt 5000 --csv 2>/dev/null | grep -c ',extrapolated$')
check "... and every extrapolated row says so in its flags" test "$row" -eq 2
row=$("$B" --alg ndiss --n 2 --p 8 --csv | grep '^ndiss')
check "... an in-range row has empty flags ($row)" test "${row##*,}" = ""

# No time is never printed as one: the thesis's own send-normal avg
# set at cnt 5000 gives diss at P = 64 a LoP cost of -4.4e46 us.
row=$("$B" --series send-normal --stat avg --cnt 5000 --alg diss --p 64 --csv 2>/dev/null | grep '^diss')
check "a negative LoP cost: empty cell, flagged ($row)" \
    sh -c "echo '$row' | cut -d, -f8 | grep -qx '' && echo '$row' | grep -q ',lop_us=negative;extrapolated\$'"
check "... the table shows the word, not a number" \
    sh -c "'$B' --series send-normal --stat avg --cnt 5000 --alg diss --p 64 2>/dev/null | grep -q '^diss .* negative .*lop_us=negative'"
# A saturation term that rises (l5 > 0) makes every LoP cost at cnt 1e6 infinite
# or undefined: --best used to crash here (exit 139).
cat >"$T/rise.csv" <<'EOF'
file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6
x,rdmaw-inline,rtt,min,rtt,9,1,63,10,1,5,-2,0.1,1
x,rdmaw-inline,os,min,ov,9,1,63,1,0,1,,,
EOF
"$B" --params "$T/rise.csv" --best --cnt 1e6 --p 4,8 --csv >"$T/best-none.csv" 2>"$T/err"
rc=$?
check "--best with no valid LoP candidate exits 1, not a crash (rc $rc)" test "$rc" -eq 1
check "... says so on stderr" grep -q 'no candidate has a valid lop time at P = 4 (.*infinite' "$T/err"
check "... its rows name no winner and flag the time" \
    test "$(grep -c '^[48],lop,,,,,,,us=undefined;extrapolated$' "$T/best-none.csv")" -eq 2
check "... while LogP still has its winner" grep -q '^4,logp,bfly,,10,' "$T/best-none.csv"
sed 's/,-2,0.1,1$/,2,0.1,1/' "$T/rise.csv" >"$T/fall.csv"
"$B" --params "$T/fall.csv" --best --cnt 1e6 --p 4 --model lop --csv >"$T/best-inf.csv" 2>/dev/null
"$B" --schedule --alg diss --p 8 >"$T/d8.csv"
check "--check-schedule --simulate names no time as such" \
    sh -c "'$B' --check-schedule '$T/d8.csv' --simulate --params '$T/rise.csv' --cnt 1e6 2>/dev/null | grep -qx '.*d8.csv: simulated lop: infinite'"
check "--best never names a -inf winner" test "$(grep -c '^4,lop,,' "$T/best-inf.csv")" -eq 1

# ---- intervals: a set with covariance (README "Data formats": the appended
# columns): RTT 20 us and o_s 1 us as linear fits l1 + 0 p with variances of
# l1 given, n = 1000 (nearly Gaussian draws).  Under LoP every one of diss's
# 6 rounds costs o + L = RTT/2 - o_s: diss at P = 64 is 54 us, sigma 6 sqrt(v/4 + w).
row_is() { printf '%s\n' "$1" | awk -F, "$2"; } # ROW AWK-PROGRAM: the program's verdict on ROW
cov_set "$T/cov.csv" 4 0.01
"$B" --params "$T/cov.csv" --simulate --csv >"$T/cov.out" 2>"$T/cov.err"
check "a set with covariance predicts (exit 0)" test $? -eq 0
[ -s "$T/cov.err" ] && diag "$(cat "$T/cov.err")"
check "... every time has an interval with lo <= value <= hi" awk -F, -v algs="$N_ALGS" -v sched="$N_SCHED" '
    /^#/ || $1 == "alg" { next }
    { rows++; for (k = 5; k <= 14; k += 3) if ($k != "") {
          if ($(k + 1) == "" || $(k + 2) == "" || $(k + 1) > $k || $k > $(k + 2)) bad = 1; n++ } }
    END { exit bad || rows != algs * 63 || n < 4 * sched * 63 }' "$T/cov.out"
check "... the metadata says how many draws each column used" \
    grep -qx '# intervals: 95 % Monte Carlo over the fits of the series: 4000 draws for closed forms, 200 for simulations (sim_\*), seed 1' "$T/cov.out"
row=$(grep '^diss,,64,' "$T/cov.out" | cut -d, -f8-10)
check "diss LoP at 64: 54 us within 54 +- 1.96 sigma ($row)" row_is "$row" '
    { s = 6 * sqrt(4 / 4 + 0.01); exit !($1 == 54 && $2 > 54 - 2.2 * s && $2 < 54 - 1.7 * s &&
                                       $3 < 54 + 2.2 * s && $3 > 54 + 1.7 * s) }'
"$B" --params "$T/cov.csv" --alg diss --p 64 --seed 2 --csv | grep '^diss' | cut -d, -f8-10 >"$T/seed2"
check "--seed changes the draws" test "$(cat "$T/seed2")" != "$row"
"$B" --params "$T/cov.csv" --alg diss --p 64 --csv | grep '^diss' | cut -d, -f8-10 >"$T/seed1"
check "... the same seed gives the same interval" test "$(cat "$T/seed1")" = "$row"
row=$("$B" --params "$T/cov.csv" --alg diss --p 64 --L 8 --o 1 --csv | grep '^diss')
check "explicit --L and --o: LogP has no interval, LoP has ($row)" \
    sh -c "echo '$row' | cut -d, -f5-7 | grep -qx '[0-9.]*,,' && echo '$row' | cut -d, -f9 | grep -q '[0-9]'"
hdr=$("$B" --params "$T/cov.csv" --alg diss --p 4 --simulate --draws 50 | grep '^# intervals')
check "--draws sets the simulations' draws ($hdr)" row_is "$hdr" '{ exit !/, 50 for simulations/ }'
# Fewer than 40 draws leave the 2.5 % tail empty: the interval's ends were the
# extreme draws and could exclude the estimate (sim 4.7410 in [4.6116,
# 4.6336] at --draws 2).
for d in 1 2 39; do
    refuses_one_line "--draws $d is refused: too few for a 95 % interval" 2 \
        "option --draws: $d draws are too few for a 95 % interval.*at least 40" \
        "$B" --params "$T/cov.csv" --alg diss --p 4 --simulate --draws $d
done
check "--help says --draws needs at least 40" grep -q -- '--draws N.*at least 40' "$T/help"
check "the shipped set: interval columns empty" awk -F, '
    /^#/ || $1 == "alg" { next } { for (k = 6; k <= 10; k++) if (k != 8 && $k != "") bad = 1 }
    END { exit bad }' "$T/all.csv"

# --best: diss, pe and bfly cost the same under LoP here; ndiss n = 2 costs
# 8 (o + L) = 72 us, within the uncertainty of diss's 54 when the variance is
# large, far outside it when small.
"$B" --params "$T/cov.csv" --best --p 64 --model lop --n 2 --csv >"$T/tie.csv"
row=$(grep '^64,lop' "$T/tie.csv")
check "--best names the winner with its interval ($row)" \
    row_is "$row" '{ exit !($3 == "bfly" && $5 == 54 && $6 < 54 && $7 > 54) }'
check "... and the runners-up within it: a tie within uncertainty" \
    row_is "$row" '{ exit !($8 ~ /(^|;)pe(;|$)/ && $8 ~ /(^|;)diss(;|$)/ && $8 ~ /(^|;)ndiss:2(;|$)/) }'
cov_set "$T/narrow.csv" 0.0004 0.000001
row=$("$B" --params "$T/narrow.csv" --best --p 64 --model lop --n 2 --csv | grep '^64,lop')
check "a narrow interval: exact ties only ($row)" \
    row_is "$row" '{ exit !($8 ~ /(^|;)diss(;|$)/ && $8 !~ /ndiss/) }'
check "the shipped set: no interval, no tie" \
    awk -F, '$1 ~ /^[0-9]/ { if ($6 != "" || $7 != "" || $8 != "") bad = 1 } END { exit bad }' "$T/best.csv"

# A fit without covariance in a set where the others have one (lopfit's
# constant from a single RTT point): its error is unknown, not zero, so no
# interval is printed and every time says why.
awk -F, -v OFS=, '$3 == "rtt" { for (i = 24; i <= 44; i++) $i = "" } 1' "$T/cov.csv" >"$T/cov-rtt.csv"
"$B" --params "$T/cov-rtt.csv" --alg diss --p 64 --csv >"$T/nocov.out" 2>&1
check "a fit without covariance among fits with: exit 0" test $? -eq 0
check "... the header names the fit whose error is unknown" \
    grep -q '^# intervals: none: the rtt fit of rdmaw-inline min (linear fitted to n = 1000) has no covariance' "$T/nocov.out"
row=$(grep '^diss,,64,' "$T/nocov.out")
check "... no interval, and the flags say no-interval for both closed forms ($row)" \
    row_is "$row" '{ exit !($6 == "" && $7 == "" && $9 == "" && $10 == "" && $11 ~ /logp_us=no-interval/ && $11 ~ /lop_us=no-interval/) }'

# A LogP parameter below 0 from a set (L = -4.2244 would print diss as 0 and
# cc at P = 4 as 3.8119, unflagged): every LogP time from it is flagged and
# '# logp:' says so.
sed '/^thesis-2.3.6.3,rdmaw-inline,rtt,min,/s/,14.9630,0.0446,3.0074,/,0.1,0.0446,0.5,/' \
    "$ROOT/data/mozart-2005/params.csv" >"$T/negL.csv"
"$B" --params "$T/negL.csv" --alg diss,cc --p 2,4 --simulate --csv >"$T/negL.out"
check "a negative L from a set: '# logp:' says L=-4.22... (negative)" \
    grep -q '^# logp: L=-4\.2244[0-9]* (negative) os=1\.53258[0-9]* or=1\.53258[0-9]* g=0 us$' "$T/negL.out"
check "... every LogP time (closed and simulated) is flagged negative-logp" awk -F, '
    $1 == "diss" || $1 == "cc" { n++; if ($NF !~ /(^|;)logp_us=negative-logp/ || $NF !~ /sim_logp_us=negative-logp/) bad = 1 }
    END { exit bad || n != 4 }' "$T/negL.out"
check "... and no LoP time is (LoP has no L parameter)" sh -c "! grep -q 'lop_us=negative-logp' '$T/negL.out'"
row=$("$B" --alg diss --p 4 --csv | grep '^diss')
check "the shipped set: no negative-logp flag ($row)" row_is "$row" '{ exit $NF != "" }'

# Small times and parameters keep their digits (4 decimals would show 0.0000,
# 0.0003, 0.0001 and '# logp: L=0.0000 os=0.0000', in --csv too).
"$B" --alg diss,cc --p 2,1000 --L 0.00001 --o 0.000012345 --model logp >"$T/small.out"
check "the table keeps 4 significant digits of small times" \
    sh -c "grep -q '^diss .* 3\.469e-05 ' '$T/small.out' && grep -q '^diss .* 0\.0003469 ' '$T/small.out' &&
           grep -q '^cc .* 6\.938e-05 ' '$T/small.out'"
check "'# logp:' holds the parameters exactly, in the table and in --csv" \
    sh -c "grep -qx '# logp: L=1e-05 os=1.2345e-05 or=1.2345e-05 g=0 us' '$T/small.out' &&
           '$B' --alg diss --p 2 --L 0.00001 --o 0.000012345 --model logp --csv |
           grep -qx '# logp: L=1e-05 os=1.2345e-05 or=1.2345e-05 g=0 us'"

# '# machine:' names where every parameter of the rows came from: a row
# describes one machine.
check "'# machine:' of the shipped set: L, o_s at p = 1, o_r = o_s(1), g's default, LoP's fits" \
    sh -c "'$B' --alg diss --p 4 | grep -qx '# machine: L, o_s from the shipped set (rdmaw-inline min at p = 1); o_r from o_s(1) of the shipped set (rdmaw-inline min has no o_r fit); g from the default 0 (thesis 2.1.4.5: g << o); LoP o(p), L(p) from the shipped set (rdmaw-inline min)'"
check "'# machine:' of a row mixing options and --params names each source" \
    sh -c "'$B' --alg diss --p 4 --L 5 --g 0.5 --params '$ROOT/data/mozart-2005/params.csv' --model logp |
           grep -qx '# machine: L from --L 5; o_s from --params (rdmaw-inline min at p = 1); o_r from o_s(1) of --params (rdmaw-inline min has no o_r fit); g from --g 0.5'"
check "'# machine:' of explicit LogP parameters: --o gives o_s and o_r" \
    sh -c "'$B' --alg diss --p 4 --L 5 --o 1 --model logp --csv |
           grep -qx '# machine: L from --L 5; o_s, o_r from --o 1; g from the default 0 (thesis 2.1.4.5: g << o)'"

check "'# cnt:' is exact (%g made --cnt 1234567 1.23457e+06)" \
    sh -c "'$B' --alg diss --p 4 --cnt 1234567 2>/dev/null | grep -qx '# cnt: 1234567'"

# Bad input: one line naming the problem, exit 2, stdout empty.
refuses() {
    name=$1 pattern=$2
    shift 2
    refuses_one_line "$name" 2 "$pattern" "$B" "$@"
}
printf 'file,series\nx,y\n' >"$T/bad.csv"
refuses "unknown algorithm" "unknown algorithm 'foo'" --alg foo
refuses "n < 1" "option --n: '0' is not in 1" --n 0
refuses "P < 1" "option --p: '0' is not in 1" --p 0..4
refuses "P too large to simulate" "P = 33554432 is too large for a schedule" --alg diss --p 33554432 --simulate
refuses "P too large to check, naming the largest P checked" \
    "option --verify: P = 1048576 is too large to check diss (7e+11 word operations, at most 8e+09): the largest P it checks is 120937" \
    --alg diss --p 1048576 --verify
refuses "missing parameter file" "/nonexistent: cannot open" --params /nonexistent
refuses "malformed parameter file" "bad.csv.*no column" --params "$T/bad.csv"
# A pole inside a fit's range is refused (unchecked, it gives logp_us = 0 at
# every P and exit 0).
sed '/^thesis-2.3.6.3,rdmaw-inline,rtt,min,/s/,14.9630,0.0446,/,14.9630,-1.5,/' \
    "$ROOT/data/mozart-2005/params.csv" >"$T/pole.csv"
refuses "a params set with a pole inside its range" \
    "pole.csv:10: series 'rdmaw-inline' rtt min: the rtt model has a pole at p = 1.5 (l2 = -1.5), not left of its range 1..63" \
    --params "$T/pole.csv" --alg diss --p 4
refuses "a series not in the file" "no rtt fit for series 'nope'" --series nope
refuses "--schedule needs one of each" "option --schedule: needs one --alg" --schedule --alg diss --p 4,8
refuses "a cost-only schedule" "hwnet is a cost-only algorithm" --schedule --alg hwnet --p 4
refuses "unknown model" "option --model: unknown value 'x'" --model x
refuses "a stray operand" "unexpected argument 'extra'" extra
# A schedule too large for a later P is refused before the table's first line
# (it printed the header and the P = 4 row first) and before any work (it
# built every schedule in a counting pass first), from the algorithm's op
# count, naming the largest P it does.
refuses "--simulate: bfly at P = 2^24 - 1 (stored: P is no power of 2) needs too many operations, before any row" \
    "option --p: bfly at P = 16777215 needs 805306364 operations, more than a schedule holds (134217728): the largest P it does is 3042482" \
    --alg bfly --p 4,16777215 --simulate
refuses "--best with per-pair costs: each candidate counted up front" \
    "option --p: bfly at P = 16773120 needs" \
    --best --alg bfly --topology 4096x4095 --level-L 1,0.1 --level-o 1,0.1
refuses "--goal: a schedule too large is refused before any text (nwise: though a simulation generates it)" \
    "option --p: nwise with n = 2 at P = 16777216 needs 870647656 operations, more than a schedule holds (134217728): the largest P it does is 4782968 (a simulation generates it from rank 0's ops at this P)" \
    --goal --alg nwise --p 16777216
refuses "--schedule: diss at 2^24 is not stored (a simulation generates it)" \
    "option --p: diss at P = 16777216 needs 805306368 operations, more than a schedule holds (134217728): the largest P it does is 3050402 (a simulation generates it from rank 0's ops at this P)" \
    --schedule --alg diss --p 16777216
refuses "--simulate: ndiss n = 64 at 2^24 is more than a simulation runs" \
    "option --p: ndiss with n = 64 at P = 16777216 needs 8589934592 operations, more than a simulation runs (4294967295): the largest P it does is 8388607" \
    --alg ndiss --n 64 --p 16777216 --simulate

# A simulation generates diss from rank 0's ops (beyond P = 3050402 it has
# more ops than a schedule holds): P = 2^18 + 1 is 19 rounds of
# o + L + o = 7 us.  (Large P take seconds: perf/lopredict-scale.sh times them.)
row=$("$B" --alg diss --p 262145 --simulate --model logp --L 5 --o 1 --g 0 --csv --timing 2>"$T/gen.err" | grep '^diss')
check "diss at P = 2^18 + 1 simulated: 133 us ($row)" test "$row" = "diss,,262145,19,133,,,,,,133,,,"
check "... generated from rank 0's ops" grep -q "build diss n=1 P=262145: 9961510 ops (generated from rank 0's)" "$T/gen.err"
row=$("$B" --alg nwise --n 1,2 --p 16384 --simulate --model logp --L 5 --o 1 --g 0 --csv | grep -c '^nwise,[12],16384,.*,,,$')
check "nwise n = 1 (generated) and n = 2 (stored, in passes) at P = 16384" test "$row" -eq 2

# Lists: no value twice (duplicate rows), no empty item in any list.
refuses "--p 4,4,4: a value twice" "option --p: '4' is named twice" --alg diss --p 4,4,4
refuses "--alg diss,diss: an algorithm twice" "option --alg: 'diss' is named twice" --alg diss,diss
refuses "--level-L 3,,1: an empty item, as in every list" "option --level-L: empty item in '3,,1'" \
    --topology 2x2x2 --level-L 3,,1 --level-o 1,1,1 --alg diss --p 8 --simulate --model logp
# Two modes, or an option the mode ignores: refused, never resolved by a
# hidden precedence (--verify --best ran verify only, exit 0).
refuses "--verify --best: two modes" "options --verify and --best are two modes" --verify --best
refuses "--measured --best: two modes" "options --measured and --best are two modes" \
    --measured "$T/bad.csv" --best
refuses "--check-schedule --schedule: two modes" "options --check-schedule and --schedule are two modes" \
    --check-schedule "$T/bad.csv" --schedule --alg diss --p 4
refuses "--schedule --simulate: --simulate would be ignored" "option --simulate has no effect with --schedule" \
    --schedule --simulate --alg diss --p 4
refuses "--check-schedule --best: two modes" "options --check-schedule and --best are two modes" \
    --check-schedule "$T/bad.csv" --best
refuses "--check-schedule --verify: two modes" "options --check-schedule and --verify are two modes" \
    --check-schedule "$T/bad.csv" --verify
refuses "--check-schedule --csv: --csv would be ignored" "option --csv has no effect with --check-schedule" \
    --check-schedule "$T/bad.csv" --csv
refuses "--verify --alg hwnet: nothing to check (an empty table, exit 0)" \
    "option --verify: hwnet has no schedule to check" --verify --alg hwnet
# --verify refuses a P too large to check before the first line (it printed the
# header and the P = 4 row first).
refuses "--verify: P = 200000 refused before any row" "P = 200000 is too large to check diss" \
    --verify --alg diss --p 4,200000 --model logp
refuses "lopbench and lopredict word an empty range alike" "option --p: empty range '2..1'" --p 2..1

# A parameter file's path is metadata: a newline in it is written as \x0a,
# so the table's '# params:' stays one line.
nl=$(printf '%s/pa\nrams.csv' "$T")
cp "$ROOT/data/mozart-2005/params.csv" "$nl"
"$B" --params "$nl" --alg diss --p 4 --csv >"$T/nl.csv" 2>&1
check "--params at a path with a newline: '# params:' on one line" \
    grep -q '^# params: .*/pa\\x0arams.csv$' "$T/nl.csv"
check "... and no line of the table is the path's tail" sh -c "! grep -q '^rams.csv' '$T/nl.csv'"

# An interval contains its estimate or is empty and flagged: a covariance of
# 1e308 printed lop_us 8.6 with the interval 7.9e152..6.2e154 (the negative
# draws left out), logp_us 15.8 with 0..0 (o's draws cancelling to 0).
P=$ROOT/tests/data/plots/params.csv
awk -F, 'BEGIN { OFS = "," } $2 == "rdmaw-normal" && $3 == "os" && $4 == "min" { $24 = "1e308" } { print }' \
    "$P" >"$T/cov308.csv"
"$B" --params "$T/cov308.csv" --series rdmaw-normal --p 4,16 --alg diss,bfly --simulate --csv \
    >"$T/cov308.out" 2>&1
check "cov11 = 1e308: every interval contains its time, or is empty and flagged" \
    awk -F, '/^#/ { next }
        !h { h = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }
        { for (x in col) {
              if (x !~ /_lo_us$/) continue
              t = substr(x, 1, length(x) - 6); us = $col[t "_us"]; lo = $col[x]; hi = $col[t "_hi_us"]
              if (lo != "" && !(lo + 0 <= us + 0 && us + 0 <= hi + 0)) bad = 1
              if (lo == "" && $NF !~ (t "_us=interval-excludes-estimate")) bad = 1
              if (lo == "") empty++ }
          rows++ }
        END { exit !(rows == 4 && !bad && empty > 0) }' "$T/cov308.out"
awk -F, 'BEGIN { OFS = "," } $2 == "rdmaw-normal" && $3 == "rtt" && $4 == "min" { $9 = "1e200" } { print }' \
    "$P" >"$T/l1big.csv"
refuses_one_line "l1 = 1e200: refused at its line, not predicted as 9e199 in 0..0" 2 \
    "l1big.csv:6: series 'rdmaw-normal' rtt min: the fit at p = 1 is .* us, larger than any time lopfit fits" \
    "$B" --params "$T/l1big.csv" --series rdmaw-normal --p 4 --alg diss

done_testing
