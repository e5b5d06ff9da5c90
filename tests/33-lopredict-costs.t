#!/bin/sh
# 33-lopredict-costs.t - per-pair costs end to end (--topology, --costs,
# --write-costs, --map), --recv-order, --goal, and their one-line errors.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict
M="--topology 8x2x4 --level-L 3.0,0.8,0.2 --level-o 0.5,0.3,0.1"
S="--simulate --model logp --or 0 --g 0 --csv"

# A machine, written out and read back: the same simulated time.
"$B" --alg diss --p 64 $S $M --write-costs "$T/pairs.csv" >"$T/m.out"
check "--write-costs writes every ordered pair of 64 ranks" \
    sh -c "test \$(grep -c '^[0-9]*,[0-9]*,' '$T/pairs.csv') -eq 4032 && grep -qx 'i,j,o_us,L_us' '$T/pairs.csv'"
check "a pair across nodes costs the outer level" grep -qx '0,8,0.5,3' "$T/pairs.csv"
a=$(grep '^diss' "$T/m.out" | cut -d, -f11)
b=$("$B" --alg diss --p 64 $S --costs "$T/pairs.csv" | grep '^diss' | cut -d, -f11)
check "--costs of the written file simulates as --topology ($a = $b us)" test "$a" = "$b"
ps=$("$B" --alg diss $S --costs "$T/pairs.csv" | grep '^diss' | cut -d, -f3 | tr '\n' ' ')
check "without --p, P is the ranks the costs describe ($ps)" test "$ps" = "64 "
# --write-costs replaces only a regular file: a FIFO, a symbolic link and a
# directory once became regular files (the link's target untouched).
: >"$T/link-target" && mkfifo "$T/wc-fifo" && ln -s "$T/link-target" "$T/wc-link" && mkdir "$T/wc-dir"
for x in "wc-fifo:a FIFO" "wc-link:a symbolic link" "wc-dir:a directory"; do
    refuses_one_line "--write-costs onto ${x#*:}: refused" 2 "$T/${x%%:*}: exists and is ${x#*:}" \
        "$B" --alg diss --p 8 $S $M --write-costs "$T/${x%%:*}"
done
check "... the FIFO, the link and the directory left as they were" \
    sh -c 'test -p "$1/wc-fifo" && test -L "$1/wc-link" && test ! -s "$1/link-target" && test -d "$1/wc-dir"' sh "$T"
refuses_one_line "--write-costs '': an option error, before any output" 2 \
    "option --write-costs: FILE is empty" "$B" --alg diss --p 8 $S $M --write-costs ''
# --write-costs comes after every check: its rows go to a temporary file that
# is renamed into place only when the run and its output succeeded, so a run
# refused by a --p check (it once wrote the file first), by a later check or
# failing on stdout leaves neither the file nor a partial one.
mkdir "$T/wc"
refuses_one_line "--schedule with two P: refused (--p), --write-costs not written" 2 \
    "option --schedule: needs one --alg, at most one --n and one --p" \
    "$B" --schedule --alg diss --p 4,8 $M --write-costs "$T/wc/schedule.csv"
refuses_one_line "--goal with two P: refused (--p), --write-costs not written" 2 \
    "option --goal: needs one --alg, at most one --n and one --p" \
    "$B" --goal --alg hybrid --p 4,8 $M --write-costs "$T/wc/goal.csv"
printf 'i,j,o_us,L_us\n0,1,1,2\n1,0,1,2\n' >"$T/wc-two.csv"
"$B" --schedule --alg diss --p 4 >"$T/wc-d4.csv"
refuses_one_line "--check-schedule refused after the costs were staged: not written" 2 \
    "per-pair costs for 2 ranks, the schedule has P = 4" \
    "$B" --check-schedule "$T/wc-d4.csv" --simulate --costs "$T/wc-two.csv" --write-costs "$T/wc/check.csv"
"$B" --alg diss --p 8 $S $M --write-costs "$T/wc/full.csv" >/dev/full 2>"$T/wc-full.err"
rc=$?
check "stdout failing: exit 3 ($rc), --write-costs not written" \
    sh -c "test $rc -eq 3 && grep -q 'error writing standard output' '$T/wc-full.err'"
check "... the directory holds no file, no temporary file ($(ls -A "$T/wc" | tr '\n' ' '))" \
    test -z "$(ls -A "$T/wc")"
# A reader that stops early (| head): SIGPIPE kills the run as it kills any
# writer, and takes the temporary file with it; with SIGPIPE ignored the
# write fails (exit 3), as on /dev/full.  The schedule is 130 KB, more than
# a pipe holds, to a reader that reads none.
W="--schedule --alg diss --p 512 --topology 64x2x4 --level-L 3,0.8,0.2 --level-o 0.5,0.3,0.1"
{ "$B" $W --write-costs "$T/wc/pipe.csv"; echo $? >"$T/wc-rc"; } | head -c 0
check "SIGPIPE: the run dies of it ($(cat "$T/wc-rc")), no file, no temporary file ($(ls -A "$T/wc" | tr '\n' ' '))" \
    sh -c 'test "$(cat "$1-rc")" -eq 141 && test -z "$(ls -A "$1")"' sh "$T/wc"
rm -f "$T"/wc/*
(trap '' PIPE && { "$B" $W --write-costs "$T/wc/pipe.csv" 2>/dev/null; echo $? >"$T/wc-rc"; } | head -c 0)
check "SIGPIPE ignored: exit 3 ($(cat "$T/wc-rc")), no file, no temporary file" \
    sh -c 'test "$(cat "$1-rc")" -eq 3 && test -z "$(ls -A "$1")"' sh "$T/wc"
# The file is written whole before the table is printed: a write that fails
# (a file size limit standing in for a full disk: its 48 kB do not fit in
# 2 blocks, the table does) or a directory that is not there leaves stdout
# empty and no file (a table once came first, then exit 3).
sh -c 'trap "" XFSZ; ulimit -f 2; exec "$@"' sh "$B" --alg diss --p 64 $S $M \
    --write-costs "$T/wc/limit.csv" >"$T/wc-limit.out" 2>"$T/wc-limit.err"
rc=$?
check "--write-costs failing to write: exit 3 ($rc), one line saying why" \
    sh -c "test $rc -eq 3 && test \$(wc -l <'$T/wc-limit.err') -eq 1 &&
           grep -q '^lopredict: $T/wc/limit.csv: cannot write: File too large' '$T/wc-limit.err'"
check "... nothing on stdout, no file, no temporary file" \
    test ! -s "$T/wc-limit.out" -a -z "$(ls -A "$T/wc")"
refuses_one_line "--write-costs into a directory that is not there: exit 3, stdout empty" 3 \
    "$T/wc/none/x.csv: cannot create: No such file or directory" \
    "$B" --alg diss --p 8 $S $M --write-costs "$T/wc/none/x.csv"

# The file grows with P^2 (--topology 256x256 once began some 110 GB without
# a word): a large one is announced with its size before it is written, one
# its filesystem has no room for is refused in one line before a byte is
# written.  Under a 1 MB file size limit, and a timeout, so that a lopredict
# without the check cannot fill the disk.
mkdir "$T/big"
(trap '' XFSZ; ulimit -f 1024; timeout 120 "$B" --alg diss --p 64 $S --topology 64x48 \
    --level-L 3,0.8 --level-o 0.5,0.3 --write-costs "$T/big/mid.csv") >/dev/null 2>"$T/big.err"
check "a 144 MB file: said first, with its size, ranks and pairs" \
    test "$(head -n 1 "$T/big.err")" = "lopredict: note: --write-costs $T/big/mid.csv: about 144 MB (3072 ranks, 9434112 pairs)"
big="--topology 256x256 --level-L 3.0000001,0.8000001 --level-o 0.5000001,0.3000001"
free_kb=$(df -Pk "$T/big" | awk 'NR == 2 { print $4 }')
if [ "${free_kb:-0}" -lt 130000000 ]; then
    (ulimit -f 1024; timeout 120 "$B" --alg diss --p 64 $S $big --write-costs "$T/big/big.csv") \
        >"$T/big.out" 2>"$T/big.err"
    rc=$?
    check "136 GB on a filesystem with less free: refused, exit 3 ($rc)" \
        grep -q "^lopredict: option --write-costs: $T/big/big.csv: about 136.0 GB, its filesystem has .* free\$" "$T/big.err"
    check "... in one line, nothing on stdout, nothing written" \
        test $rc -eq 3 -a "$(wc -l <"$T/big.err")" -eq 1 -a ! -s "$T/big.out" -a -z "$(ls -A "$T/big")"
else
    skip "the filesystem of $T has room for 136 GB"
    skip "the filesystem of $T has room for 136 GB"
fi

# Equal levels: the homogeneous time (o_r is the level's o, as --o gives it).
h=$("$B" --alg tour --p 48 --simulate --model logp --L 2 --o 0.5 --g 0 --csv | grep '^tour' | cut -d, -f11)
e=$("$B" --alg tour --p 48 --simulate --g 0 --csv --topology 4x4x4 \
    --level-L 2,2,2 --level-o 0.5,0.5,0.5 --map rr | grep '^tour' | cut -d, -f11)
check "equal levels reproduce the homogeneous time ($h = $e us)" test "$h" = "$e"

# One machine per row: every pair costs L = 5, o = 1, so diss at P = 8 is
# 3 (o + L + o) = 21 us in both columns (not the shipped set's closed form
# 21.626, nor a simulation with its o_r = 1.5326: 22.598).
"$B" --topology 2x2x2 --level-L 5,5,5 --level-o 1,1,1 --write-costs "$T/eq.csv" --p 8 \
    --alg diss --csv >"$T/eqw.out"
check "equal costs, no --model: the closed form of that machine (21 us)" \
    grep -qx 'diss,,8,3,21,,,,,,' "$T/eqw.out"
"$B" --costs "$T/eq.csv" --alg diss --p 8 --simulate --csv >"$T/eq.out"
check "--costs of equal pairs: logp_us = sim_us = 21 us, LogP implied" \
    grep -qx 'diss,,8,3,21,,,,,,21,,,' "$T/eq.out"
check "... '# logp:' is that machine's L and o, not the shipped set's" \
    grep -qx '# logp: L=5 os=1 or=1 g=0 us' "$T/eq.out"
check "... '# machine:' names the source of every parameter" \
    grep -qx "# machine: L, o_s, o_r from --costs $T/eq.csv (per pair); g from the default 0 (thesis 2.1.4.5: g << o); logp_us: every pair costs L = 5, o_s = 1" "$T/eq.out"
check "... and no parameter set is read" sh -c "! grep -q '^# params:' '$T/eq.out'"
"$B" --topology 4x2x4 --level-L 5,5,5 --level-o 1,1,1 --alg diss --p 32 --simulate --csv >"$T/eq32.out"
check "--topology of equal levels, P = 32: 5 (o + L + o) = 35 us in both columns" \
    grep -qx 'diss,,32,5,35,,,,,,35,,,' "$T/eq32.out"
# Unequal levels: a closed form only where ranks 0..P-1 all cost the same
# (times in binary fractions: the sums are exact).
"$B" --alg diss --p 4,5 --simulate --csv --topology 8x2x4 --level-L 3,1,0.5 \
    --level-o 0.5,0.25,0.125 >"$T/uneq.out"
check "unequal levels, P = 4 in one socket: the closed form of its pairs, 2 (o + L + o) = 1.5 us" \
    grep -qx 'diss,,4,2,1.5,,,,,,1.5,,,' "$T/uneq.out"
check "unequal levels, P = 5 across sockets: logp_us empty, flagged logp_us=unequal-costs" \
    grep -qx 'diss,,5,3,,,,,,,3.75,,,logp_us=unequal-costs' "$T/uneq.out"
check "... no '# logp:' line (there is no one L and o), '# machine:' says up to which P" \
    sh -c "! grep -q '^# logp:' '$T/uneq.out' && grep -q '^# machine: .*logp_us where ranks 0..P-1 all cost the same, P <= 4 (L = 0.5, o_s = 0.125), else empty (logp_us=unequal-costs)\$' '$T/uneq.out'"
# No two ranks that cost alike (one rank; ranks 0 and 1 unequal): no L and no
# o, and the one closed form is P = 1's, which sends nothing: 0, as '# machine:'
# says (it said "logp_us empty" beside rows of 0, and --verify "L = , o_s =").
"$B" --alg diss --p 1 --simulate --csv --topology 1 --level-L 3 --level-o 0.5 >"$T/one.out"
check "one rank: the row's logp_us is 0, and '# machine:' says so, no L and no o" \
    sh -c "grep -qx 'diss,,1,0,0,,,,,,0,,,' '$T/one.out' &&
           grep -q '^# machine: .*; logp_us: 0 at P = 1, where no message is sent; one rank, no pair to cost: no L, no o\$' '$T/one.out'"
"$B" --verify --alg diss --p 1 --topology 1 --level-L 3 --level-o 0.5 >"$T/one-v.out"
check "one rank, --verify: closed_us 0, '# machine:' without empty values" \
    sh -c "grep -q '^diss  *- 1 logp  *0  *0.0000 ' '$T/one-v.out' && ! grep -q '= ,' '$T/one-v.out' &&
           grep -q '^# machine: .*; closed_us: 0 at P = 1, where no message is sent; one rank, no pair to cost: no L, no o\$' '$T/one-v.out'"
printf '# p: 2\ni,j,o_us,L_us\n0,1,1,2\n1,0,1,3\n' >"$T/uneq01.csv"
"$B" --alg diss --p 1,2 --simulate --csv --costs "$T/uneq01.csv" >"$T/uneq01.out"
check "ranks 0 and 1 unequal: P = 1 is 0, P = 2 empty and flagged, as '# machine:' says" \
    sh -c "grep -qx 'diss,,1,0,0,,,,,,0,,,' '$T/uneq01.out' &&
           grep -qx 'diss,,2,1,,,,,,,5,,,logp_us=unequal-costs' '$T/uneq01.out' &&
           grep -q '^# machine: .*; logp_us: 0 at P = 1, where no message is sent; else empty: ranks 0 and 1 cost differently (logp_us=unequal-costs)\$' '$T/uneq01.out'"
# The receive overhead is the pair's o (2x2, diss P = 4: 0.1 + 5 + 1 for the
# cross-node exchange after a local send: 14 us); --or overrides it (12 us).
D="--topology 2x2 --level-L 5,0.2 --level-o 1,0.1 --alg diss --p 4 --simulate --csv"
a=$("$B" $D | csvcol /dev/stdin sim_us)
b=$("$B" $D --or 0 | csvcol /dev/stdin sim_us)
check "o_r is the pair's o (14 us), --or 0 gives 12 us ($a, $b)" test "$a/$b" = "diss,14/diss,12"
check "... '# machine:' names --or" \
    sh -c "'$B' $D --or 0 | grep -qx '# machine: L, o_s from --topology 2x2 block (per level); o_r from --or 0; g from the default 0 (thesis 2.1.4.5: g << o); logp_us where ranks 0..P-1 all cost the same, P <= 2 (L = 0.2, o_s = 0.1), else empty (logp_us=unequal-costs)'"
# Block against round robin differ for diss at P = 12 (the paper's oscillation).
bl=$("$B" --alg diss --p 12 $S $M | grep '^diss' | cut -d, -f11)
rr=$("$B" --alg diss --p 12 $S $M --map rr | grep '^diss' | cut -d, -f11)
check "diss P = 12: block $bl us, rr $rr us differ" test "$bl" != "$rr"

# --recv-order: mcs at P = 6, L = 5, o = 1 (LogGOPSim's 29 us).
p=$("$B" --alg mcs --p 6 --simulate --model logp --L 5 --o 1 --g 0 --csv | grep '^mcs' | cut -d, -f11)
a=$("$B" --alg mcs --p 6 --simulate --model logp --L 5 --o 1 --g 0 --csv --recv-order arrival | grep '^mcs' | cut -d, -f11)
check "mcs P = 6: program order 32 us, arrival order 29 us ($p, $a)" test "$p/$a" = "32/29"

# --goal: the shipped diss P = 64 file is what lopredict writes.
"$B" --goal --alg diss --p 64 >"$T/d.goal"
check "--goal diss P = 64 = tests/data/goal/diss-64.goal" cmp -s "$T/d.goal" "$ROOT/tests/data/goal/diss-64.goal"
check "GOAL: 64 rank blocks, 384 sends, 384 receives" sh -c "test \$(grep -c '^rank [0-9]* {\$' '$T/d.goal') -eq 64 && test \$(grep -c ': send 8b to ' '$T/d.goal') -eq 384 && test \$(grep -c ': recv 8b from ' '$T/d.goal') -eq 384"
check "GOAL: every op but a rank's first requires the previous one" \
    sh -c "test \$(grep -c 'requires' '$T/d.goal') -eq $((64 * 11))"

"$B" --schedule --alg diss --p 64 >"$T/d64.csv"
"$B" --goal --check-schedule "$T/d64.csv" >"$T/f.goal"
check "--goal --check-schedule FILE writes the file's schedule" cmp -s "$T/f.goal" "$T/d.goal"

# GOAL both ways: --check-schedule reads what --goal writes, and
# its simulated time is the algorithm's (rgm: its MCAST read back as one).
"$B" --check-schedule "$T/d.goal" --simulate --model logp --L 5 --o 1 --g 0 >"$T/dg.txt" 2>"$T/dg.err"
check "--check-schedule diss-64.goal: a barrier, 42 us, no warning" \
    sh -c "grep -qx '$T/d.goal: a barrier: P = 64, 768 ops, 6 steps' '$T/dg.txt' &&
           grep -qx '$T/d.goal: simulated logp: 42 us' '$T/dg.txt' && test ! -s '$T/dg.err'"
for a in cc mcs bfly nwise rgm; do
    "$B" --goal --alg $a --p 23 >"$T/$a.goal"
    want=$("$B" --alg $a --p 23 --simulate --model logp --L 2.5 --o 0.7 --g 1.9 --csv | grep "^$a," | cut -d, -f11)
    got=$("$B" --check-schedule "$T/$a.goal" --simulate --model logp --L 2.5 --o 0.7 --g 1.9 |
          sed -n 's/.*simulated logp: \(.*\) us$/\1/p')
    check "$a P = 23: --goal, read back, the same simulated time ($want, $got)" test "$got" = "$want"
done
# LogGOPSim's schedgen -p dissemination -s 8: each send requires the last
# receive only; lop runs the ops in the order written and says so.
awk 'BEGIN { print "num_ranks 8"; for (r = 0; r < 8; r++) { print "\nrank " r " {"; l = 0
       for (d = 1; d < 8; d *= 2) { printf "l%d: send 1b to %d tag 0\n", l + 1, (r + d) % 8
         if (l) printf "l%d requires l%d\n", l + 1, l
         printf "l%d: recv 1b from %d tag 0\n", l + 2, (r + 8 - d) % 8; l += 2 }
       print "}" } }' >"$T/sg.goal"
"$B" --check-schedule "$T/sg.goal" --simulate --model logp --L 5 --o 1 --g 0 >"$T/sg.txt" 2>"$T/sg.err"
check "schedgen's dissemination: a barrier in the order written, diss's 21 us" \
    sh -c "grep -q 'a barrier: P = 8, 48 ops' '$T/sg.txt' && grep -q 'simulated logp: 21 us' '$T/sg.txt'"
check "... with one warning naming the first send that does not require every earlier receive" \
    grep -qx "lopredict: warning: $T/sg.goal:9: this send and 7 more do not require every receive written before them: lop runs a rank's ops in the order written, so the check and the times are those of that order" "$T/sg.err"
# An editor's byte order mark and a num_ranks without its count: still GOAL
# (both were once read as a CSV without a column 'rank').
printf '\357\273\277' | cat - "$T/d.goal" >"$T/bom.goal"
check "a GOAL file after a UTF-8 byte order mark reads as GOAL" \
    sh -c "'$B' --check-schedule '$T/bom.goal' | grep -qx '$T/bom.goal: a barrier: P = 64, 768 ops, 6 steps'"
printf 'num_ranks\nrank 0 {\n}\n' >"$T/bare.goal"
refuses_one_line "num_ranks without a count: refused by file:line" 2 \
    "bare.goal:1: num_ranks: expected a number of ranks" "$B" --check-schedule "$T/bare.goal"
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\nl2: calc 100\n}\n' >"$T/calc.goal"
refuses_one_line "a GOAL calc is refused by file:line" 2 "calc.goal:4: calc (a computation)" \
    "$B" --check-schedule "$T/calc.goal"

# Errors: one line naming the option or file:line, nothing on stdout.
refuses_one_line "bad --topology" 2 "option --topology: '8x0x4'" \
    "$B" --alg diss --p 8 $S --topology 8x0x4 --level-L 1,1,1 --level-o 1,1,1
refuses_one_line "--level-L count not the levels" 2 "option --level-L: 2 values for 3 levels" \
    "$B" --alg diss --p 8 $S --topology 8x2x4 --level-L 1,1 --level-o 1,1,1
refuses_one_line "--level-o without --topology" 2 "option --level-o: only with --topology" \
    "$B" --alg diss --p 8 $S --level-o 1,1,1
refuses_one_line "per-pair costs with --model lop" 2 "option --model: LoP is not defined on per-pair costs (--topology" \
    "$B" --alg diss --p 8 --simulate --model lop $M
refuses_one_line "per-pair costs with --model both" 2 "option --model: LoP is not defined on per-pair costs (--costs" \
    "$B" --alg diss --p 8 --simulate --model both --costs "$T/eq.csv"
refuses_one_line "--model lop refused before --write-costs writes" 2 "option --model: LoP" \
    "$B" --alg diss --p 8 --model lop $M --write-costs "$T/not-written.csv"
check "... no costs file written" test ! -e "$T/not-written.csv"
refuses_one_line "--L with per-pair costs (a second L)" 2 "option --L: --topology gives L and o_s per pair" \
    "$B" --alg diss --p 8 --simulate --L 2 $M
refuses_one_line "--o with per-pair costs (a second o_s)" 2 "option --o: --costs gives L and o_s per pair (--or" \
    "$B" --alg diss --p 8 --simulate --o 1 --costs "$T/eq.csv"
refuses_one_line "--params with per-pair costs (no set is used)" 2 "option --params: no parameter set is used with --costs" \
    "$B" --alg diss --p 8 --simulate --params "$ROOT/data/mozart-2005/params.csv" --costs "$T/eq.csv"
# --stat chooses among a parameter set's fits: with per-pair costs it was
# ignored without a word (nothing recorded that it was named).
refuses_one_line "--stat with --costs (no set: no statistic to choose)" 2 \
    "option --stat: no parameter set is used with --costs .*already the statistic lopbench --pairs-stat chose" \
    "$B" --alg diss --p 8 --simulate --stat avg --costs "$T/eq.csv"
refuses_one_line "--stat min (the default, named) with --topology, before --write-costs writes" 2 \
    "option --stat: no parameter set is used with --topology" \
    "$B" --alg diss --p 8 --simulate --stat min $M --write-costs "$T/stat-not-written.csv"
check "... no costs file written" test ! -e "$T/stat-not-written.csv"
# --verify on per-pair costs: refused even where every pair costs the same;
# now the closed forms of those costs against their simulation, for P up to
# where ranks 0..P-1 all cost the same.
"$B" --verify --costs "$T/eq.csv" --p 2..8 --csv >"$T/v-eq.out"
"$B" --verify --model logp --L 5 --o 1 --p 2..8 --csv >"$T/v-h.out"
check "--verify --costs of equal pairs: the table of --L 5 --o 1 (every algorithm, P = 2..8)" \
    sh -c "grep -v '^# machine:' '$T/v-eq.out' >'$T/v-eq.t' && grep -v '^# machine:' '$T/v-h.out' | cmp -s - '$T/v-eq.t'"
check "... diss at P = 8: closed 21 us = simulated, exact, a barrier" \
    grep -qx 'diss,,8,logp,3,21,21,0,exact,yes' "$T/v-eq.out"
check "... '# machine:' names the costs and their L and o" \
    grep -qx "# machine: L, o_s, o_r from --costs $T/eq.csv (per pair); g from the default 0 (thesis 2.1.4.5: g << o); closed_us: every pair costs L = 5, o_s = 1" "$T/v-eq.out"
U="--topology 8x2x4 --level-L 3,1,0.5 --level-o 0.5,0.25,0.125"
"$B" --verify $U --p 2..4 --csv >"$T/v-u.out"
"$B" --verify --model logp --L 0.5 --o 0.125 --p 2..4 --csv >"$T/v-uh.out"
check "--verify on unequal levels, P = 2..4 in one socket: the table of --L 0.5 --o 0.125" \
    sh -c "grep -v '^# \(machine\|logp\):' '$T/v-u.out' >'$T/v-u.t' && grep -v '^# \(machine\|logp\):' '$T/v-uh.out' | cmp -s - '$T/v-u.t'"
check "... '# machine:' says up to which P" \
    grep -q '^# machine: .*; closed_us: ranks 0..P-1 all cost L = 0.5, o_s = 0.125 (P <= 4)$' "$T/v-u.out"
refuses_one_line "--verify beyond the ranks that cost the same: refused, naming --p" 2 \
    "option --p: P = 5, but ranks 0..4 of --topology do not all cost the same (ranks 0..P-1 do for P <= 4)" \
    "$B" --verify $U --alg diss --p 4,5
refuses_one_line "--verify with per-pair costs, --model lop" 2 "option --model: LoP is not defined on per-pair costs" \
    "$B" --verify --model lop --costs "$T/eq.csv" --p 8
refuses_one_line "per-pair costs with --measured" 2 "option --costs has no effect with --measured" \
    "$B" --measured "$ROOT/tests/data/nonexistent-barrier.csv" --costs "$T/eq.csv"
refuses_one_line "per-pair costs without --simulate" 2 "per-pair costs are used by --simulate" \
    "$B" --alg diss --p 8 --model logp $M
printf '# p: 3\ni,j,o_us,L_us\n0,1,1,2\n0,2,1,2\n1,0,1,2\n1,2,1,2\n2,0,1,2\n' >"$T/missing.csv"
refuses_one_line "pairs.csv with a missing pair" 2 "missing.csv:2: no row for i = 2, j = 1" \
    "$B" --alg diss --p 3 $S --costs "$T/missing.csv"
printf '# p: 65536\ni,j,o_us,L_us\n' >"$T/huge.csv"
refuses_one_line "pairs.csv for P = 65536 without rows: the missing rows, not 'out of memory'" 2 \
    "huge.csv:2: 0 rows, but every ordered pair of the P = 65536 ranks needs one" \
    "$B" --costs "$T/huge.csv" --alg diss --p 4 --simulate --model logp
printf 'i,j,o_us,L_us\n0,1,1,2\n1,0,NaN,2\n' >"$T/nan.csv"
refuses_one_line "pairs.csv with a NaN" 2 "nan.csv:3:" "$B" --alg diss --p 2 $S --costs "$T/nan.csv"
printf 'i,j,o_us,L_us\n0,1,1,2\n1,0,1,2\n' >"$T/two.csv"
refuses_one_line "costs for fewer ranks than P" 2 "option --p: P = 4, but the per-pair costs of --costs describe 2 ranks" \
    "$B" --alg diss --p 4 $S --costs "$T/two.csv"
refuses_one_line "a machine smaller than P" 2 "option --p: P = 65, but the per-pair costs of --topology describe 64 ranks" \
    "$B" --alg diss --p 65 $S $M
"$B" --schedule --alg diss --p 4 >"$T/d4.csv"
refuses_one_line "--check-schedule with costs for fewer ranks" 2 "per-pair costs for 2 ranks, the schedule has P = 4" \
    "$B" --check-schedule "$T/d4.csv" --simulate --model logp --costs "$T/two.csv"
refuses_one_line "--goal needs one schedule" 2 "option --goal: needs one --alg" "$B" --goal --p 4

done_testing
