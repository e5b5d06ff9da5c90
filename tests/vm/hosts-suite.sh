#!/bin/sh
# hosts-suite.sh W - the checks of tests/51-verbs-hosts.t, run on lopvm0 of
# a set of two Soft-RoCE VMs on one wire (tests/vm/run.sh --hosts 2 --share
# W): lopbench's verbs code between hosts, each rank on its own VM and rxe
# device, RoCE v2 packets crossing the wire.  As in verbs-suite.sh, only
# the runs happen here; the checks are recorded in W/checks.sh and run on
# the host afterwards, each run's output in W/<name>.out, this script's in
# W/log.  Times here are emulated: nothing below asserts one.
LOP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$LOP_ROOT/tests/lib.sh"
# Each MPI with its defaults between the VMs: none of lib.sh's OMPI_MCA_*
# (they keep single-host runs on loopback).
for _v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$_v"; done
W=$1
B=$BIN/lopbench
exec >"$W/log" 2>&1
trap 'echo "hosts-suite.sh: exit status $?"' EXIT
. "$LOP_ROOT/tests/vm/suite-lib.sh"

OMPI="$LOP_MPIRUN_OPENMPI --host lopvm0:1,lopvm1:1"
HOSTS2="2: lopvm0 (1 rank), lopvm1 (1 rank)"
# What each host's device offers (the closing note reports the GIDs).
for h in lopvm0 lopvm1; do
    "$LOP_AGENT" $h "rdma link show; ibv_devinfo -v | grep -E 'GID\\[|max_mcast'" >"$W/gids.$h" 2>&1
done

# ---- scenarios 1 and 2 across the hosts: every op and post rxe grants
REPS=6
K=4
TRANSPORT=verbs
record export "REPS=$REPS" "TRANSPORT=$TRANSPORT" # meta_ok reads them
timed scenarios $OMPI -np 2 "$B" --transport verbs --reps $REPS --warmup 2 --max-post $K \
    --idle-us 20 -o "$W/s"
check "2 hosts: verbs scenarios exit 0" test $? -eq 0
check "2 hosts: every file whole, '# hosts:' names both" scenarios_ok "$W/s" 2 $REPS $K "$HOSTS2"
check "2 hosts: 18 files (send and rdmaw, normal, inline and list)" \
    test "$(ls "$W/s" | wc -l)" -eq 18
check "2 hosts: --gid-index auto chose the IPv4-mapped RoCE v2 GID (index 1)" \
    grep -q '^# device: rxe0 port 1 (Ethernet/RoCE).*GID index 1 (RoCE v2 IPv4, auto)' \
    "$W/s/send-normal-rtt.csv"

# ---- the multicast series across the hosts: lopvm0's multicast crosses
# the wire to lopvm1, whose RDMA write answers
mcast_series mcast2 2 "2 hosts, mcast" $OMPI -np 2

# (GIDs of two kinds, one per host, are refused: lop_ib_conn_check,
# unit-tested in mpi_verbs_logic; a run here costs a minute of emulation.)

# ---- barriers across the hosts: --check with Open MPI's defaults (its
# witness two-sided across nodes: no one-sided component needed), the timed
# barrier with MPICH (ucx_ran: its MPI_Finalize may hang across nodes over
# UCX 1.13's TCP transport, README)
# (rgm's release is a hardware multicast, lopvm1 dropping its 2nd: below)
timed check2 $OMPI -np 2 -x LOP_TEST_MCAST_DROP=1:2 "$B" --barrier --check \
    --executor verbs --n 1..2 --reps 8 --warmup 1 --quiet
check "2 hosts: --check passes for every algorithm on verbs ($(check_runs) runs, two-sided witness)" \
    grep -qx -- "--check: all $(check_runs) runs ok (two-sided witness)" "$W/check2.out"
timed timed2 $LOP_MPIRUN_MPICH -hosts lopvm0,lopvm1 -n 2 "$ROOT/$MPICH_OUT/bin/lopbench" \
    --barrier --executor verbs --alg diss,bfly,tour --reps 20 --warmup 2 -o "$W/bar" --quiet
check "2 hosts, MPICH: timed verbs barrier ran" ucx_ran "$W/timed2.out" $?
check "2 hosts: a row per algorithm, series rdmaw-inline" \
    test "$(grep -c '^verbs,rdmaw-inline,' "$W/bar/barrier.csv")" -eq 3
check "2 hosts: barrier.csv's '# hosts:' names both" \
    test "$(meta "$W/bar/barrier.csv" hosts)" = "$HOSTS2"

# ---- a fault: rank 1's process on lopvm1 stops (SIGSTOP) while rank 0
# writes to it over verbs.  Rank 0 gives up by itself within --timeout
# (15 s: the emulated start-up alone can take over 5 s), naming the peer's
# rank and host; Open MPI's mpirun may then wait on for the stopped rank
# (README: the launcher's part), so once lop has spoken the rank is killed;
# a run where lop never speaks fails at the 150 s guard.  (A link taken
# down inside the guest, `ip link set eth0 down` with rxe0 on it, froze
# that VM here: the cable is pulled from outside instead, below.)
# fault NAME SAID CMD...: rank 0 writes to rank 1 over verbs; once it
# runs, CMD makes the fault (its status is fault's); lop must say a line
# matching SAID by itself.
# Then lopvm1's rank is killed (Open MPI's mpirun may wait on for it:
# fault_end) and $W/NAME.out holds the run's output.  The times: NAME-start
# until the run measures, NAME until lop spoke, NAME-end until mpirun left.
FAULT_TIMEOUT=15
fault() {
    _n=$1 _said=$2; shift 2
    # 10^5 repetitions of one post after 1 ms idle: minutes of run, longer
    # than any timeout, for the fault to stop
    timeout 150 $OMPI -np 2 "$B" --transport verbs --scenario 1 --ops rdmaw --post inline \
        --max-post 1 --reps 100000 --timeout $FAULT_TIMEOUT -o "$W/f" >"$W/$_n.out" 2>&1 &
    _bg=$!
    _i=0 _t0=$(date +%s)
    while [ $_i -lt 600 ] && ! grep -q '^lopbench: \[1/1\]' "$W/$_n.out" 2>/dev/null; do
        sleep 0.2
        _i=$((_i + 1))
    done
    echo "$_n-start $(($(date +%s) - _t0))" >>"$W/times"
    _t0=$(date +%s)
    "$@"
    _rc=$?
    _i=0
    while [ $_i -lt 600 ] && kill -0 $_bg 2>/dev/null && ! grep -q "$_said" "$W/$_n.out"; do
        sleep 0.2
        _i=$((_i + 1))
    done
    echo "$_n $(($(date +%s) - _t0))" >>"$W/times"
    return $_rc
}

# fault_end NAME: lopvm1's rank killed, the job waited for.
fault_end() {
    _t0=$(date +%s)
    "$LOP_AGENT" lopvm1 "pkill -KILL -x lopbench"
    wait
    echo "$1-end $(($(date +%s) - _t0))" >>"$W/times"
}

LOP_SAID="^lopbench: rank 0: \\(timed out after $FAULT_TIMEOUT s\\|no progress for $FAULT_TIMEOUT s\\)"
fault stopped "$LOP_SAID" "$LOP_AGENT" lopvm1 "pkill -STOP -x lopbench" # -x: not the job's shell
fault_end stopped
said=$(grep -m 1 "$LOP_SAID" "$W/stopped.out")
check "lopvm1's rank stopped: rank 0 gave up by itself: $said" test -n "$said"
check "lopvm1's rank stopped: lop's line names the peer's rank and host" \
    grep -q "$LOP_SAID.*rank 1 on lopvm1" "$W/stopped.out"
check "lopvm1's rank stopped: no output directory" test ! -e "$W/f"

# ---- a fault: lopvm1's cable pulled (qemu's set_link from the host,
# tests/vm/linkctl) while rank 0 writes to it.  A rank ends by itself,
# within --timeout, naming the verbs error (rank 0's writes exhaust their
# retries) and the peer, or its port's asynchronous event; then the cable
# goes back.
LINK_SAID="^lopbench: rank [01]: .*\\(verbs: .*\\(retry\\|asynchronous event\\)\\|timed out after $FAULT_TIMEOUT s\\|no progress for $FAULT_TIMEOUT s\\)"
fault cable "$LINK_SAID" "$LOP_LINKCTL" lopvm1 off
cable_off=$?
"$LOP_LINKCTL" lopvm1 on
fault_end cable
said=$(grep -m 1 "$LINK_SAID" "$W/cable.out")
check "cable pulled: the host set lopvm1's link off (linkctl)" test "$cable_off" -eq 0
check "cable pulled: a rank gave up by itself: $said" test -n "$said"
diag "cable pulled, lop said: $said"
check "cable pulled: lop's line names the peer and the verbs error, or the port's event" \
    grep -q "$LINK_SAID.*\(rank [01] on lopvm[01]\|asynchronous event\)" "$W/cable.out"
check "cable pulled: no output directory" test ! -e "$W/f"

# ---- RGM with hardware multicast between the hosts (bench/README.md,
# "Multicast").  In check2 above rgm's release was one
# multicast from lopvm0 to lopvm1, and lopvm1's rank dropped its 2nd
# (LOP_TEST_MCAST_DROP, passed with -x): it sent a NAK over its RC QP, and
# lopvm0 multicast that release again.  (check2 is --quiet: its rows'
# multicast counts say how the releases travelled.)
# The hook counts over the transport of one P: rgm n=1 drops, n=2 does not.
check "2 hosts, rgm n=1: 8 multicast, 8 taken, 1 dropped, >= 1 NAK sent and received, >= 1 resent" \
    grep -Eq '^check verbs +rgm +n=1 +p=2 +ok \(16 exits, 0 early; 8 multicast, [1-9][0-9]* resent, [1-9][0-9]* NAKs sent, [1-9][0-9]* NAKs received \([0-9]+ early\), 8 taken, [0-9]+ duplicates, 1 dropped by LOP_TEST_MCAST_DROP\)$' \
    "$W/check2.out"
check "2 hosts, rgm n=2: 8 multicast, 8 taken, none dropped" \
    grep -Eq '^check verbs +rgm +n=2 +p=2 +ok \(16 exits, 0 early; 8 multicast, .* 8 taken, [0-9]+ duplicates, 0 dropped' \
    "$W/check2.out"
done_testing
