#!/bin/sh
# 42-lopbench-schedule-file.t - lopbench --barrier --schedule FILE runs a file
# only after lopredict's checker proved it a barrier: a deadlocking schedule
# is refused on every rank in bounded time (it used to hang every rank), with
# and without --check; a schedule for one rank is refused; the timed rows are
# named "file:<name>" and lopredict --measured reads them back, simulating the
# schedule file found beside barrier.csv.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
B=$BIN/lopbench
P=$BIN/lopredict

# Both ranks wait for the other before sending: a deadlock at step 0.
cat >"$T/dead.csv" <<'CSV'
# p: 2
rank,step,op,peer
0,0,recv,1
0,0,send,1
1,0,recv,0
1,0,send,0
CSV
# run_mpi's timeout (300 s) bounds a hang: the refusal must come first.
mpi_refuses "deadlock, timed" "option --schedule: not run: .*dead.csv:3: schedule dead.csv: deadlock: rank 0 op 0" 2 \
    "$B" --barrier --schedule "$T/dead.csv" --reps 5 -o "$T/o"
mpi_refuses "deadlock, --check" "option --schedule: not run: .*dead.csv:3: schedule dead.csv: deadlock" 2 \
    "$B" --barrier --check --schedule "$T/dead.csv" --reps 5 -o "$T/o"

printf '# p: 1\nrank,step,op,peer\n' >"$T/one.csv"
mpi_refuses "a schedule for one rank" "one.csv: the schedule is for 1 rank, a barrier needs 2" \
    2 "$B" --barrier --schedule "$T/one.csv" --reps 5 -o "$T/o"

"$P" --schedule --alg diss --p 2 >"$T/diss2.csv"
cp "$T/diss2.csv" "$T/bad name.csv"
mpi_refuses "a file name that cannot be an alg cell" "option --schedule: file name 'bad name.csv'" \
    2 "$B" --barrier --schedule "$T/bad name.csv" --reps 5 -o "$T/o"

# --p other than the file's P is refused (--p 3 once ran P = 2 silently).
mpi_refuses "--p 3 with a schedule for P = 2" "option --p: 3, but .*diss2.csv is a schedule for P = 2" \
    3 "$B" --barrier --schedule "$T/diss2.csv" --p 3 --reps 5 -o "$T/o"

# A good schedule file: timed rows named after it, read back by lopredict.
run_mpi 2 "$B" --barrier --schedule "$T/diss2.csv" --reps 20 --warmup 2 -o "$T/run" --quiet \
    >"$T/timed" 2>&1
check "the schedule file runs" test $? -eq 0
csv=$T/run/barrier.csv
check "its rows are named file:diss2.csv" \
    test "$(grep -c -e '^p2p,send-normal,file:diss2.csv,,2,' -e '^shm,rdmaw-normal,file:diss2.csv,,2,' "$csv")" -eq 2
"$P" --measured "$csv" --csv >"$T/m1" 2>"$T/m1.err"
check "lopredict --measured accepts the rows" test $? -eq 0
check "... without the schedule file: no prediction, and a warning per row" \
    test "$(grep -c "no schedule file 'diss2.csv' beside it: row not predicted" "$T/m1.err")" -eq 2
check "... the rows are there with empty predictions" \
    awk -F, '/^executor,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
             $1 == "p2p" { n++; if ($2 != "file:diss2.csv" || $5 != "send-normal" || $6 !~ /^[0-9.]+$/) bad = 1
                           for (k = c["logp_us"]; k < c["vs_mpi"]; k++) if ($k != "") bad = 1
                           if ($c["vs_mpi"] !~ /^[0-9.]+$/ || $c["flags"] != "") bad = 1 }
             END { exit bad || n != 1 || !c["logp_us"] || !c["vs_mpi"] }' "$T/m1"
cp "$T/diss2.csv" "$T/run/"
"$P" --measured "$csv" --csv >"$T/m2" 2>"$T/m2.err"
check "with the schedule file beside barrier.csv: exit 0, no warning" \
    test $? -eq 0 -a ! -s "$T/m2.err"
want=$("$P" --check-schedule "$T/diss2.csv" --simulate --series send-normal |
    sed -n 's/.*simulated \(logp\|lop\): \([0-9.]*\) us/\2/p' | tr '\n' ,)
got=$(grep '^p2p,file:diss2.csv' "$T/m2" | cut -d, -f13,16 | sed 's/$/,/')
check "... its simulations are lopredict's for the file ($got = $want)" test "$got" = "$want"
check "... and no closed form (the file names no known algorithm)" \
    test "$(grep '^p2p,file:' "$T/m2" | cut -d, -f7,10)" = ","

# GOAL, as lopredict --check-schedule reads it (it was once read as a CSV
# without a column 'rank'), an editor's byte order mark included; its rows
# are named after it and --measured finds it beside barrier.csv.
printf 'num_ranks\nrank 0 {\n}\n' >"$T/bare.goal"
mpi_refuses "a GOAL num_ranks without a count" "bare.goal:1: num_ranks: expected a number" \
    2 "$B" --barrier --schedule "$T/bare.goal" --reps 5 -o "$T/o"
{ printf '\357\273\277'; "$P" --goal --alg diss --p 2; } >"$T/diss2.goal"
run_mpi 2 "$B" --barrier --schedule "$T/diss2.goal" --reps 20 --warmup 2 -o "$T/rg" --quiet \
    >"$T/timed" 2>&1
check "a GOAL schedule file runs, rows named file:diss2.goal" \
    test $? -eq 0 -a "$(grep -c '^p2p,send-normal,file:diss2.goal,,2,' "$T/rg/barrier.csv")" -eq 1
cp "$T/diss2.goal" "$T/rg/"
"$P" --measured "$T/rg/barrier.csv" --csv >"$T/mg" 2>"$T/mg.err"
got=$(grep '^p2p,file:diss2.goal' "$T/mg" | cut -d, -f13,16 | sed 's/$/,/')
check "... --measured simulates it as the CSV ($got = $want)" test "$got" = "$want"

# The longest name the name rule allows (63 characters): its rows name it
# whole, so --measured finds the file beside barrier.csv.
long=$(printf 'x%.0s' $(seq 59)).csv
cp "$T/diss2.csv" "$T/$long"
run_mpi 2 "$B" --barrier --executor p2p --schedule "$T/$long" --reps 5 --warmup 1 -o "$T/rl" \
    --quiet >"$T/timed" 2>&1
check "a 63-character file name: its rows are file:<the whole name>" \
    test $? -eq 0 -a "$(grep -c "^p2p,send-normal,file:$long,,2," "$T/rl/barrier.csv")" -eq 1
cp "$T/$long" "$T/rl/"
"$P" --measured "$T/rl/barrier.csv" --csv >"$T/ml" 2>"$T/ml.err"
check "... --measured finds it: exit 0, no warning, a simulated time" \
    test $? -eq 0 -a ! -s "$T/ml.err" -a -n "$(grep "^p2p,file:$long," "$T/ml" | cut -d, -f13)"
done_testing
