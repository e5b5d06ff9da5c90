#!/bin/sh
# 32-lopredict-schedules.t - the schedule contract end to end: --schedule output
# round-trips through --check-schedule for every algorithm, a tampered
# schedule is refused (exit 1), and --verify runs checker and simulator.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict

# Every schedule algorithm, a few P and n: print, read back, check.
bad=""
for alg in $(algs schedule=yes); do
    for p in 1 7 16 27; do
        for n in 1 3; do
            "$B" --schedule --alg "$alg" --n "$n" --p "$p" >"$T/s.csv" &&
                "$B" --check-schedule "$T/s.csv" >"$T/c.out" &&
                grep -q "a barrier: P = $p," "$T/c.out" || bad="$bad $alg/$p/$n"
        done
    done
done
check "--schedule output passes --check-schedule for every algorithm${bad:+ (failed:$bad)}" test -z "$bad"

"$B" --schedule --alg ndiss --n 2 --p 9 >"$T/nd.csv"
check "schedule CSV header and metadata" sh -c "grep -qx 'rank,step,op,peer' '$T/nd.csv' && grep -qx '# p: 9' '$T/nd.csv'"
check "table 2.3: node 8, round 1 sends to 2 and 5" sh -c "grep -c '^8,1,send,[25]\$' '$T/nd.csv' | grep -qx 2"

# Simulating the file gives what --simulate gives.
sim=$("$B" --check-schedule "$T/nd.csv" --simulate --model logp | sed -n 's/.*simulated logp: \([0-9.]*\) us$/\1/p')
want=$("$B" --alg ndiss --n 2 --p 9 --simulate --model logp --csv | grep '^ndiss' | cut -d, -f11)
check "the read-back schedule simulates to the same time ($sim us)" test "$sim us" = "$want us"

# Tampering: drop one send; the checker names it and exits 1.
grep -v '^3,0,send,4$' "$T/nd.csv" >"$T/broken.csv"
"$B" --check-schedule "$T/broken.csv" >"$T/out" 2>"$T/err"
rc=$?
check "a schedule with a missing send exits 1" test $rc -eq 1
check "... naming the receive left waiting" grep -q "rank 4 op 1 (recv from 3, step 0) waits for a message" "$T/err"
line=$(grep -n '^4,0,recv,3$' "$T/broken.csv" | cut -d: -f1)
check "... at its file and line ($line), as every schedule-file error" \
    grep -q "^lopredict: $T/broken.csv:$line: schedule ndiss: rank 4 op 1" "$T/err"
# A cycle: both ranks wait first.
printf '# p: 2\nrank,step,op,peer\n0,0,recv,1\n0,0,send,1\n1,0,recv,0\n1,0,send,0\n' >"$T/cycle.csv"
"$B" --check-schedule "$T/cycle.csv" >/dev/null 2>"$T/err"
rc=$?
check "a cycle is a deadlock: the check's answer is no (exit $rc = 1)" test $rc -eq 1
check "... naming the cycle" grep -q "deadlock: rank 0 op 0 (recv from 1, step 0); rank 1 op 0" "$T/err"
printf 'rank,step,op,peer\n0,0,put,1\n' >"$T/junk.csv"
"$B" --check-schedule "$T/junk.csv" >/dev/null 2>"$T/err"
rc=$?
check "a malformed schedule file is an input error (exit $rc)" test $rc -eq 2
check "... naming file and line" grep -q 'junk.csv:2: op .put. is not send' "$T/err"

# --verify: every algorithm at P = 1..40, default n; all barriers, exit 0.
"$B" --verify --p 1..40 --csv >"$T/verify.csv"
rc=$?
check "--verify P=1..40 exits 0" test $rc -eq 0
check "--verify: header" test "$(grep -v '^#' "$T/verify.csv" | head -1)" = "alg,n,p,model,rounds,closed_us,sim_us,diff_us,form,barrier"
N_SCHED=$(algs schedule=yes | wc -l)
check "--verify: $N_SCHED algorithms x 40 P x 2 models" \
    test "$(grep -vc '^#' "$T/verify.csv")" -eq $((N_SCHED * 40 * 2 + 1))
check "--verify: every schedule a barrier" test "$(grep -c ',yes$' "$T/verify.csv")" -eq $((N_SCHED * 40 * 2))
check "--verify: diss exact at every P" test "$(grep -c '^diss,.*,exact,yes$' "$T/verify.csv")" -eq 80
check "--verify: approximate forms explained" grep -q '^# approx: nwise LogP: ' "$T/verify.csv"

"$B" --alg diss --p 4096 --simulate --timing >/dev/null 2>"$T/timing"
check "--timing reports events per second" grep -q 'simulate diss P=4096 logp: .* 98304 events in .* events/s' "$T/timing"

done_testing
