#!/bin/sh
# 10-lopbench-mpi.t - lopbench over the MPI transport at -np 2 and -np 4
# (oversubscribed on small machines): every expected file, every row, finite
# positive values, the metadata lopfit reads; --raw; --rma put.  Tiny
# repetition counts: this checks the output, not the machine.
. "$(dirname "$0")/lib.sh"
# Under SANITIZE=1: unwind malloc stacks fully, so that allocations made inside
# the MPI library are attributed to it (and suppressed by tests/lsan.supp).
tmpdir >/dev/null   # not T=$(tmpdir): the trap would remove it at once
T=$_d
B=$BIN/lopbench
K=4
REPS=5
BASE="--transport mpi --reps $REPS --warmup 2 --idle-us 50"
SMALL="$BASE --max-post $K"

# What the MPI transport measures by default (inline and RMA lists are not
# applicable) and what it must not pretend to.
S1="send-normal send-list rdmaw-normal"
RECV="send-normal send-list"
S2="send-normal rdmaw-normal"
ABSENT="send-inline-os.csv send-inline-rtt.csv rdmaw-inline-rtt.csv rdmaw-list-os.csv
        send-list-rtt.csv rdmaw-normal-or.csv"

# check_run NP DIR: every file of a default MPI run with NP ranks
check_run() {
    np=$1 dir=$2
    for s in $S1; do
        for q in os oc; do
            check "np $np: $s-$q.csv has rows 1..$K" rows_ok "$dir/$s-$q.csv" $K $REPS
            check "np $np: $s-$q.csv metadata" meta_ok "$dir/$s-$q.csv" "$s" $q "$np"
        done
    done
    for s in $RECV; do
        check "np $np: $s-or.csv has rows 1..$K" rows_ok "$dir/$s-or.csv" $K $REPS
        check "np $np: $s-or.csv metadata" meta_ok "$dir/$s-or.csv" "$s" or "$np"
    done
    for s in $S2; do
        check "np $np: $s-rtt.csv has rows 1..$((np - 1))" rows_ok "$dir/$s-rtt.csv" $((np - 1)) $REPS
        check "np $np: $s-rtt.csv metadata" meta_ok "$dir/$s-rtt.csv" "$s" rtt "$np"
        check "np $np: $s-rtt.csv carries the reference ping-pong" \
            sh -c "grep -Eq '^# reference_pingpong_us: min=[0-9.e+-]+ median=[0-9.e+-]+' '$dir/$s-rtt.csv'"
    done
    for f in $ABSENT; do
        check "np $np: no $f (not applicable to MPI)" test ! -e "$dir/$f"
    done
    check "np $np: exactly the expected files, no temporary ones" \
        test "$(ls "$dir" | wc -l)" -eq 10
}

# ---- -np 2
run_mpi 2 "$B" $SMALL -o "$T/np2" >"$T/out2" 2>"$T/err2"
check "np 2: exit 0" test $? -eq 0
check_run 2 "$T/np2"
check "np 2: the summary names the reference ping-pong" grep -q 'mpi-pingpong' "$T/out2"
check "np 2: stderr says which transport and why" grep -q '^lopbench: transport mpi (--transport mpi)' "$T/err2"
check "np 2: skipped series are announced" grep -q '^lopbench: skipping send-inline: not applicable' "$T/err2"

# ---- -np 4 (oversubscribed on a 2-core machine)
run_mpi 4 "$B" $SMALL -o "$T/np4" --quiet >"$T/out4" 2>"$T/err4"
check "np 4: exit 0" test $? -eq 0
check_run 4 "$T/np4"
check "np 4: --quiet prints nothing on stderr" test ! -s "$T/err4"
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 4 ]; then
    check "np 4 on $(getconf _NPROCESSORS_ONLN) CPUs is recorded as oversubscribed" \
        test "$(meta "$T/np4/send-normal-rtt.csv" oversubscribed)" = yes
fi

# ---- --raw: every sample, in rows p,rep,us
run_mpi 3 "$B" $SMALL --scenario 2 --ops send --post normal --raw -o "$T/raw" --quiet >/dev/null 2>&1
check "--raw: exit 0" test $? -eq 0
raw_ok() {
    awk -F, -v reps=$REPS '/^#/ { next } !hdr { hdr = ($0 == "p,rep,us"); next }
        { n++; if ($2 != (n - 1) % reps + 1 || $1 != int((n - 1) / reps) + 1 || !($3 + 0 > 0)) bad = 1 }
        END { exit !(hdr && !bad && n == 2 * reps) }' "$1"
}
check "--raw: send-normal-rtt-raw.csv holds every sample of p = 1, 2" raw_ok "$T/raw/send-normal-rtt-raw.csv"
check "--raw: the summary file is there too" rows_ok "$T/raw/send-normal-rtt.csv" 2 $REPS
check "--scenario 2 --ops send --post normal writes only that series" \
    test "$(ls "$T/raw" | wc -l)" -eq 2

# ---- --scenario 3: the gap, PRTT(k), fitted with LogP's line; one-sided k = 1 only;
# the exchange; on 3 ranks the ring
run_mpi 3 "$B" $SMALL --scenario 3 -o "$T/gap" --quiet >/dev/null 2>&1
check "--scenario 3: exit 0" test $? -eq 0
check "--scenario 3: the prtt, exch and ring files of rdmaw-normal and send-normal" \
    test "$(ls "$T/gap" | tr '\n' ' ')" = "rdmaw-normal-exch.csv rdmaw-normal-prtt.csv rdmaw-normal-ring.csv send-normal-exch.csv send-normal-prtt.csv send-normal-ring.csv "
check "--scenario 3: rows k = 1..$K" rows_ok "$T/gap/send-normal-prtt.csv" $K $REPS
check "--scenario 3: rdmaw polls a slot that cannot count k writes: row k = 1 alone" \
    rows_ok "$T/gap/rdmaw-normal-prtt.csv" 1 $REPS
G=$T/gap/send-normal-prtt.csv
check "--scenario 3: quantity prtt, k counts messages back to back, no idle gap, each k's rounds a run of their own" \
    test "$(meta "$G" quantity),$(meta "$G" p | grep -c 'messages sent back to back'),$(meta "$G" definition | grep -c "no idle gap), each k's rounds in a run of their own")" = prtt,1,1
X=$T/gap/send-normal-exch.csv
check "--scenario 3: the exchange X(1), one row, both ranks sending at once, no idle gap" \
    test "$(meta "$X" quantity),$(meta "$X" definition | grep -c 'each send one message to the other.*no idle gap')" = exch,1
exch_rows() { rows_ok "$X" 1 $REPS && rows_ok "$T/gap/rdmaw-normal-exch.csv" 1 $REPS; }
check "--scenario 3: X(1) has one row of every repetition, two-sided and one-sided" exch_rows
R=$T/gap/send-normal-ring.csv
check "--scenario 3: the ring R(P), each of the P ranks sending to the next, no idle gap" \
    test "$(meta "$R" quantity),$(meta "$R" definition | grep -c 'each of the P ranks sends one message to the next.*no idle gap')" = ring,1
ring_rows() { rows_ok "$R" 1 $REPS 3 && rows_ok "$T/gap/rdmaw-normal-ring.csv" 1 $REPS 3; }
check "--scenario 3: R(P) has one row, p = 3 (all the ranks), of every repetition, two-sided and one-sided" ring_rows
# K = 1: the exchange's one receive slot leaves none to post ahead (once it
# posted two, then three, and every rank stopped at the exchange's start).
run_mpi 2 "$B" $BASE --max-post 1 --scenario 3 --ops send -o "$T/gap2" \
    --quiet >/dev/null 2>&1
check "--scenario 3 on 2 ranks, K = 1: exit 0, and no ring (it takes 3)" \
    test "$?,$(ls "$T/gap2" | tr '\n' ' ')" = "0,send-normal-exch.csv send-normal-prtt.csv "
check "... X(1) has its one row of every repetition" rows_ok "$T/gap2/send-normal-exch.csv" 1 $REPS
run_mpi 3 "$B" $BASE --max-post 2 --scenario 3 --ops send -o "$T/gap3" \
    --quiet >/dev/null 2>&1
check "--scenario 3 on 3 ranks, K = 2 (one receive posted ahead): exit 0" test $? -eq 0
k2_rows() { rows_ok "$T/gap3/send-normal-exch.csv" 1 $REPS && rows_ok "$T/gap3/send-normal-ring.csv" 1 $REPS 3; }
check "... X(1) and R(3) have their one row of every repetition" k2_rows
"$BIN/lopfit" -o "$T/gap" "$T/gap/send-normal-prtt.csv" "$T/gap/rdmaw-normal-prtt.csv" \
    "$X" "$R" >"$T/gap.fit" 2>&1
check "lopfit fits PRTT(k) with LogP's line or a constant" \
    sh -c "grep -q '^\\(/\\|[^,]*,\\)*send-normal,prtt,min,\\(linear\\|const\\),' '$T/gap/params.csv'"
check "lopfit fits rdmaw's PRTT(1) alone with a constant" \
    sh -c "grep -q '^\\(/\\|[^,]*,\\)*rdmaw-normal,prtt,min,const,1,1,1,' '$T/gap/params.csv'"
check "lopfit fits X(1) with a constant" \
    sh -c "grep -q '^\\(/\\|[^,]*,\\)*send-normal,exch,min,const,1,1,1,' '$T/gap/params.csv'"
check "lopfit fits R(3) with a constant at p = 3" \
    sh -c "grep -q '^\\(/\\|[^,]*,\\)*send-normal,ring,min,const,1,3,3,' '$T/gap/params.csv'"

# ---- --rma put: rdmaw through MPI_Accumulate(MPI_REPLACE) + flush instead of shared memory
run_mpi 3 "$B" $SMALL --ops rdmaw --rma put -o "$T/put" --quiet >/dev/null 2>&1
check "--rma put: exit 0" test $? -eq 0
check "--rma put: rdmaw-normal-rtt.csv has rows 1..2" rows_ok "$T/put/rdmaw-normal-rtt.csv" 2 $REPS
check "--rma put: rdmaw-normal-os.csv has rows 1..$K" rows_ok "$T/put/rdmaw-normal-os.csv" $K $REPS
check "--rma put: the device line says MPI_Accumulate" \
    sh -c "grep -q '^# device: .*MPI_Accumulate(MPI_REPLACE)' '$T/put/rdmaw-normal-rtt.csv'"

done_testing
