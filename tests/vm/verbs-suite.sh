#!/bin/sh
# verbs-suite.sh W - the verbs checks of tests/50-verbs-vm.t, run inside the
# Soft-RoCE VM (tests/vm/run.sh --share W): lopbench over rxe0 for real.
# Only the runs happen here: every check is recorded in W/checks.sh, with
# its arguments expanded now (an exit status, a count), and 50-verbs-vm.t
# runs them on the host once the VM has stopped, at native speed (an awk or
# grep costs about 0.16 s under qemu's emulation: the ~100 checks took a
# third of the VM's time).  The files they read are in W, shared at the
# same path; each run's output is in W/<name>.out, this script's own in
# W/log.  Times here are emulated: nothing below asserts one.
LOP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$LOP_ROOT/tests/lib.sh"
W=$1
B=$BIN/lopbench
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
exec >"$W/log" 2>&1
_d=$W # mpi_refuses keeps its scratch files in $_d
. "$LOP_ROOT/tests/vm/suite-lib.sh"

# What 51-verbs-hosts.t runs between its two VMs (scenarios at 2 x 1 rank,
# the IPv4-mapped GID chosen, --check of every algorithm at P = 2, a timed
# barrier, a rank stopped) is not repeated here: this file runs what needs
# one host with several ranks.
# ---- scenarios 1, 2 and 3 over verbs on 3 ranks: every op and post type rxe
# supports, scenario 3's ring included (it links each rank with the next too);
# --transport auto picks verbs, with the routing options given
# (GID index, traffic class, service level)
REPS=6
K=4
TRANSPORT=verbs
record export "REPS=$REPS" "TRANSPORT=$TRANSPORT" # meta_ok reads them
SMALL="--gid-index 0 --tclass 32 --sl 1 --reps $REPS --warmup 2 --max-post $K --idle-us 20"
np=3
timed "scenarios$np" run_mpi $np "$B" $SMALL --scenario 1,2,3 -o "$W/s$np"
rc=$?
check "np $np: verbs scenarios exit 0" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(tail -n 5 "$W/scenarios$np.out")"
dir=$W/s$np
for s in send-normal send-inline send-list rdmaw-normal rdmaw-inline rdmaw-list; do
    for q in os oc; do
        check "np $np: $s-$q.csv has rows 1..$K" rows_ok "$dir/$s-$q.csv" $K $REPS
        check "np $np: $s-$q.csv metadata" meta_ok "$dir/$s-$q.csv" "$s" $q "$np"
    done
done
for s in send-normal send-list; do
    check "np $np: $s-or.csv has rows 1..$K" rows_ok "$dir/$s-or.csv" $K $REPS
done
for s in send-normal send-inline rdmaw-normal rdmaw-inline; do
    check "np $np: $s-rtt.csv has rows 1..$((np - 1))" rows_ok "$dir/$s-rtt.csv" $((np - 1)) $REPS
    check "np $np: $s-rtt.csv metadata" meta_ok "$dir/$s-rtt.csv" "$s" rtt "$np"
done
for s in send-normal send-inline rdmaw-normal rdmaw-inline; do
    case $s in send-*) k=$K ;; *) k=1 ;; esac
    check "np $np: $s-prtt.csv has rows k = 1..$k" rows_ok "$dir/$s-prtt.csv" $k $REPS
    check "np $np: $s-exch.csv has its one row" rows_ok "$dir/$s-exch.csv" 1 $REPS
    check "np $np: $s-ring.csv has its one row, p = $np (queue pairs 1 -> 2 and 2 -> 0 too)" \
        rows_ok "$dir/$s-ring.csv" 1 $REPS $np
done
check "np $np: the device line names rxe0, its inline grant and the routing given" \
    grep -q '^# device: rxe0 port 1 (Ethernet/RoCE).*max inline [1-9][0-9]* bytes.*SL 1, GID index 0 (RoCE v2, given), traffic class 32' \
    "$dir/send-normal-rtt.csv"
check "np $np: --transport auto picks verbs, and says so" \
    grep -q '^lopbench: transport verbs' "$W/scenarios$np.out"
check "np $np: 30 files, no temporary ones" test "$(ls "$dir" | wc -l)" -eq 30

# ---- the multicast series on one host, 3 ranks (rank 0's multicast loops
# back to the two other ranks' QPs on rxe0)
mcast_series mcast3 3 "mcast np 3" run_mpi 3

# ---- barriers on the verbs executor (every algorithm at P = 2: 51-verbs-hosts.t)
# P = 3 and 4 in one run on 4 ranks (one MPI start-up less in the emulator).
# rgm's release by hardware multicast (bench/README.md, "Multicast") rides
# along with the test hooks: at P = 3 rank 1 drops its 2nd release, so the
# NAK path runs; at P = 4 rank 3's device pretends to have no multicast, so
# every rank falls back to RDMA writes.
export LOP_TEST_MCAST_DROP=1:2 LOP_TEST_MCAST_NONE=3
timed check34 run_mpi 4 "$B" --barrier --check --executor verbs --alg diss,tour,mcs,ndiss,rgm \
    --n 2 --p 3,4 --reps 6 --warmup 1
unset LOP_TEST_MCAST_DROP LOP_TEST_MCAST_NONE
check "np 4, P = 3 and 4: --check passes for diss, tour, mcs, ndiss, rgm on verbs" \
    grep -q '^--check: all 10 runs ok' "$W/check34.out"
check "... P = 3 among them" grep -q '^check verbs  *diss .*p=3 .*ok' "$W/check34.out"
check "rgm at P = 3: released by hardware multicast" \
    grep -q '^lopbench: executor verbs on 3 ranks: hardware multicast to 239\.255\.' "$W/check34.out"
# 6 releases reach both receivers on rank 0's own device (multicast loopback
# to two other QPs of one rxe): 12 taken; rank 1's 2nd is dropped, it sends a
# NAK, rank 0 multicasts that release again (early NAKs may come on top)
check "rgm at P = 3: 6 multicast, 12 taken, 1 dropped, >= 1 NAK sent and received, >= 1 resent" \
    grep -Eq '^check verbs +rgm .*p=3 .* ok \(18 exits, 0 early; 6 multicast, [1-9][0-9]* resent, [1-9][0-9]* NAKs sent, [1-9][0-9]* NAKs received \([0-9]+ early\), 12 taken, [0-9]+ duplicates, 1 dropped by LOP_TEST_MCAST_DROP\)$' \
    "$W/check34.out"
check "rgm at P = 4: no multicast on rank 3's device, so none at all: RDMA writes" \
    grep -q '^lopbench: executor verbs on 4 ranks: no multicast: rank 3: rxe0 reports max_mcast_grp 0 (LOP_TEST_MCAST_NONE) (an mcast is P-1 messages)' \
    "$W/check34.out"
check "rgm at P = 4: --check passes without multicast counts" \
    grep -Eq '^check verbs +rgm .*p=4 +ok \(24 exits, 0 early\)$' "$W/check34.out"
# the hybrid barrier (hybrid.h): two hosts of 2 ranks, b's on two sockets
printf 'rank,host,socket,numa,core\n0,a,0,0,0\n1,a,0,0,1\n2,b,0,0,0\n3,b,1,1,0\n' >"$W/placement.csv"
np=4
timed "hybrid$np" run_mpi $np "$B" --barrier --check --executor verbs --alg hybrid \
    --placement "$W/placement.csv" --reps 6 --warmup 1 --quiet
check "np $np: --check passes for the hybrid on verbs" \
    grep -q '^--check: all 1 runs ok' "$W/hybrid$np.out"
timed timed2 run_mpi 2 "$B" --barrier --executor verbs,mpi --alg diss,bfly,tour,rgm --reps 20 \
    --warmup 2 -o "$W/bar" --quiet
check "timed verbs barrier: exit 0" test $? -eq 0
check "timed verbs barrier: a row per algorithm, and MPI_Barrier" \
    test "$(grep -c '^verbs,' "$W/bar/barrier.csv"),$(grep -c '^mpi,,MPI_Barrier' "$W/bar/barrier.csv")" = "4,1"
check "timed verbs barrier: the executors line names rxe0" \
    grep -q '^# executors: verbs: rxe0' "$W/bar/barrier.csv"
check "timed verbs barrier: series rdmaw-inline (rxe0 grants inline data)" \
    test "$(grep -c '^verbs,rdmaw-inline,' "$W/bar/barrier.csv")" -eq 4
check "timed verbs barrier: rgm released by multicast, 22 of them (warm-up included), 22 taken" \
    grep -Eq '^# executors: verbs: rxe0.*; mcast: verbs at p=2: hardware multicast to 239\.255\.[0-9.]+ .*: 22 multicast, [0-9]+ resent, .* 22 taken, ' \
    "$W/bar/barrier.csv"

# ---- --pairs over verbs: every ordered pair of 3 ranks (queue pairs between
# all ranks, not only the star of rank 0), every series rxe supports
timed pairs3 run_mpi 3 "$B" --pairs --transport verbs --reps 4 --warmup 1 --idle-us 10 \
    -o "$W/pairs" --quiet
check "np 3: --pairs over verbs exit 0" test $? -eq 0
for s in send-normal send-inline rdmaw-normal rdmaw-inline; do
    check "np 3: pairs-$s.csv has the 6 ordered pairs" pairs_ok "$W/pairs/pairs-$s.csv" 3 0 0 4
    check "np 3: pairs-$s.csv was measured over verbs" \
        test "$(meta "$W/pairs/pairs-$s.csv" transport)" = verbs
done
check "np 3: pairs.csv (issend, over MPI) has 9 rows" pairs_ok "$W/pairs/pairs.csv" 3 1 0 4
check "np 3: placement.csv has 3 rows" placement_ok "$W/pairs/placement.csv" 3
check "np 3: lopredict --costs reads pairs-rdmaw-inline.csv" \
    sh -c "'$BIN/lopredict' --costs '$W/pairs/pairs-rdmaw-inline.csv' --model logp --alg diss --p 3 --simulate >/dev/null"

# ---- errors: every rank stops by itself with one line
mpi_refuses "--device nosuchdev0" "option --device: no RDMA device 'nosuchdev0' (present: rxe0)" \
    2 "$B" --transport verbs --device nosuchdev0 -o "$_d/o"
mpi_refuses "--gid-index 99" "option --gid-index: rxe0 port 1 has no valid GID at index 99" \
    2 "$B" --transport verbs --gid-index 99 -o "$_d/o"
done_testing
