#!/bin/sh
# 70-cluster.t - the virtual cluster of scripts/cluster.sh: three nodes
# on this machine that are separate where MPI looks (hostname, network, IPC,
# /dev/shm, cores), and MPI jobs across them with Open MPI and MPICH, each
# with its default settings (none of lib.sh's OMPI_MCA_* variables, which
# keep single-host runs on loopback).  Under the suite's machine-wide lock,
# never beside the VM test (lib.sh cluster_start).
. "$(dirname "$0")/lib.sh"
cluster_start 3

for i in 0 1 2; do
    check "node$i: its hostname" test "$("$A" node$i hostname)" = node$i
    check "node$i: its address on eth0" sh -c "'$A' node$i 'ip -4 -o addr show eth0' | grep -q ' 10.77.0.$((i + 1))/24 '"
done
"$A" node0 'echo x >/dev/shm/lop-cluster-probe'
check "/dev/shm is the node's own: node0's file is not on node1" \
    test "$("$A" node1 'ls /dev/shm/lop-cluster-probe 2>/dev/null')" = ""
check "... nor on the host" test ! -e /dev/shm/lop-cluster-probe
ipc0=$("$A" node0 'readlink /proc/self/ns/ipc') ipc1=$("$A" node1 'readlink /proc/self/ns/ipc')
check "System V IPC is the node's own ($ipc0, $ipc1, host $(readlink /proc/self/ns/ipc))" \
    sh -c "test '$ipc0' != '$ipc1' && test '$ipc0' != \"\$(readlink /proc/self/ns/ipc)\""
check "node1 reaches node2 by name over the bridge" "$A" node1 'getent hosts node2 | grep -q 10.77.0.3'
if [ -s "$C/cgroup" ]; then
    c0=$("$A" node0 "sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status")
    c1=$("$A" node1 "sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status")
    if [ "$(nproc --all)" -ge 2 ]; then
        check "node0 and node1 have cores of their own ($c0, $c1)" test "$c0" != "$c1"
    else
        skip "one core: the nodes share it"
    fi
else
    skip "no cgroup cpusets here: the nodes share every core"
fi

# An MPI job across the three nodes: mpirun (hydra) on node0 starts the
# others through the agent, as through ssh.  The job is an MPI program that
# prints its node's name (tests/cluster/hostname.c); the launcher forwards the
# ranks' lines as they come, which may join two of them.
hosts() { grep -o 'node[0-9]*' "$1" | sort | tr '\n' ' '; }
mpicc.openmpi -O2 "$ROOT/tests/cluster/hostname.c" -o "$T/hn-ompi"
"$A" node0 "timeout 60 mpirun.openmpi --mca plm_rsh_agent $A --host node0:1,node1:1,node2:1 -np 3 $T/hn-ompi" \
    >"$T/ompi" 2>"$T/ompi.err"
check "Open MPI: one rank on each node ($(hosts "$T/ompi"))" test "$(hosts "$T/ompi")" = "node0 node1 node2 "
[ "$(hosts "$T/ompi")" = "node0 node1 node2 " ] || diag "$(cat "$T/ompi.err")"
if command -v mpiexec.hydra >/dev/null 2>&1 && mpicc.mpich -O2 "$ROOT/tests/cluster/hostname.c" -o "$T/hn-mpich"; then
    "$A" node0 "timeout 60 mpiexec.hydra -launcher ssh -launcher-exec $A -hosts node0,node1,node2 -n 3 $T/hn-mpich" \
        >"$T/mpich" 2>"$T/mpich.err"
    check "MPICH: one rank on each node ($(hosts "$T/mpich"))" test "$(hosts "$T/mpich")" = "node0 node1 node2 "
    [ "$(hosts "$T/mpich")" = "node0 node1 node2 " ] || diag "$(cat "$T/mpich.err")"
else
    skip "MPICH not installed"
fi

# lopbench across two nodes with Open MPI's defaults: TCP between nodes, no
# one-sided component (MPI_Win_allocate fails): the rdmaw series and the shm
# executor are skipped with one agreed line saying how to enable them, never
# an abort (every mode once died in MPI_Win_allocate).
ompi2="timeout 120 mpirun.openmpi --mca plm_rsh_agent $A --host node0:1,node1:1 -np 2 $(shquote "$BIN/lopbench")"
"$A" node0 "$ompi2 --reps 3 --warmup 1 --max-post 2 -o $T/s" >"$T/s.out" 2>&1
rc=$?
check "2 nodes, Open MPI: scenarios exit 0 ($rc)" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(grep -v '^lopbench: \[' "$T/s.out" | tail -n 12)"
check "... the 7 send files (no one-sided MPI: no rdmaw)" test "$(ls "$T/s" | grep -c '^send-.*\.csv$')" -eq 7
check "... rdmaw skipped once, saying how to enable it" \
    test "$(grep -c '^lopbench: skipping rdmaw-normal: no one-sided MPI here: MPI_Win_allocate failed: .*--mca osc ucx' "$T/s.out")" -eq 1
check "... the device line says rdmaw is not available" \
    grep -q '^# device: Open MPI.*; rdmaw not available' "$T/s/send-normal-rtt.csv"
check "... every file whole, '# hosts:' naming both nodes (one '# host:' would say only rank 0's)" \
    scenarios_ok "$T/s" 2 3 2 "2: node0 (1 rank), node1 (1 rank)"
[ -s "$T/s/send-normal-rtt.csv" ] || diag "$(tail -n 5 "$T/s.out")"
ompi3="timeout 120 mpirun.openmpi --mca plm_rsh_agent $A --host node0:1,node1:1,node2:1 -np 3 $(shquote "$BIN/lopbench")"
"$A" node0 "$ompi3 --reps 3 --warmup 1 --max-post 2 -o $T/s3" >"$T/s3.out" 2>&1
check "3 nodes, Open MPI: scenarios exit 0" test $? -eq 0
check "... every file whole (RTT at p = 1, 2), '# hosts:' naming the three nodes" \
    scenarios_ok "$T/s3" 3 3 2 "3: node0 (1 rank), node1 (1 rank), node2 (1 rank)"
"$A" node0 "$ompi2 --barrier --reps 3 --warmup 1 -o $T/b" >"$T/b.out" 2>&1
check "2 nodes, Open MPI: --barrier exit 0" test $? -eq 0
check "... the shm executor skipped with its reason" \
    grep -q '^lopbench: skipping executor shm: no one-sided MPI here' "$T/b.out"
grep -q '^lopbench: skipping executor shm' "$T/b.out" || diag "$(cat "$T/b.out")"
check "... p2p and MPI_Barrier rows in barrier.csv" \
    sh -c "grep -q '^p2p,' '$T/b/barrier.csv' && grep -q '^mpi,,MPI_Barrier,' '$T/b/barrier.csv'"

# --check needs no window: across nodes its witness is two-sided (MPI_Issend).
"$A" node0 "$ompi2 --barrier --check --alg diss,tour,mcs --reps 4 --timeout 20" >"$T/c.out" 2>&1
check "... --barrier --check of p2p and MPI_Barrier passes, two-sided witness" \
    sh -c "grep -Eqx -- '--check: all [0-9]+ runs ok \\(two-sided witness\\)' '$T/c.out' &&
           test \$(grep -c '^check p2p .* ok (' '$T/c.out') -eq 3"
check "... the shm executor skipped there too, with its reason" \
    grep -q '^lopbench: skipping executor shm: no one-sided MPI here' "$T/c.out"
grep -q '^--check: all' "$T/c.out" || diag "$(grep -v '^lopbench: \[' "$T/c.out" | tail -n 5)"
"$A" node0 "$ompi2 --barrier --check --check-witness one-sided --executor p2p --reps 3" >"$T/c1.out" 2>&1
check "... --check-witness one-sided refused in one line: no window" \
    test "$(grep -c '^lopbench: option --check-witness: one-sided: .*--mca osc ucx' "$T/c1.out")" -eq 1

# With Open MPI's one-sided component over TCP (--mca osc ucx) the rdmaw
# series and --pairs run across the nodes: a rank polling its window
# drives the progress a remote accumulate needs (else the writer never gets
# the window's lock: "timed out after 60 s waiting for write 121").
"$A" node0 "timeout 120 mpirun.openmpi --mca plm_rsh_agent $A --mca osc ucx --host node0:1,node1:1 \
    -np 2 $(shquote "$BIN/lopbench") --pairs --reps 3 --warmup 1 --timeout 20 -o $T/pu" >"$T/pu.out" 2>&1
check "2 nodes, Open MPI --mca osc ucx: --pairs succeeds" ucx_ran "$T/pu.out" $?
check "... with the rdmaw-normal series between the nodes" \
    pairs_ok "$T/pu/pairs-rdmaw-normal.csv" 2 0 "" 3
[ -s "$T/pu/pairs-rdmaw-normal.csv" ] || diag "$(grep -v '^lopbench: \[' "$T/pu.out" | tail -n 5)"
check "... placement.csv names the two hosts" \
    test "$(cut -d, -f2 "$T/pu/placement.csv" | grep -c '^node[01]$')" -eq 2
# ... and the shm executor (RMA between the nodes, where a hang must end at
# --timeout), timed and with --check.
ucx2="timeout 120 mpirun.openmpi --mca plm_rsh_agent $A --mca osc ucx --host node0:1,node1:1 -np 2 $(shquote "$BIN/lopbench")"
"$A" node0 "$ucx2 --barrier --executor shm --alg diss,tour,mcs --reps 5 --warmup 1 --timeout 20 -o $T/bu" \
    >"$T/bu.out" 2>&1
rc=$?
check "2 nodes, osc ucx: the shm executor's timed run succeeds ($rc)" ucx_ran "$T/bu.out" $rc
[ $rc -eq 0 ] || diag "$(grep -v '^lopbench: \[' "$T/bu.out" | tail -n 8)"
check "... its three rows" test "$(grep -c '^shm,' "$T/bu/barrier.csv" 2>/dev/null)" -eq 3
"$A" node0 "$ucx2 --barrier --check --executor p2p,shm --alg diss,tour,mcs --reps 4 --timeout 20" \
    >"$T/cu.out" 2>&1
check "2 nodes, osc ucx: --check of p2p and shm passes (two-sided witness: auto across nodes)" \
    grep -qx -- '--check: all 6 runs ok (two-sided witness)' "$T/cu.out"
grep -q '^--check: all' "$T/cu.out" || diag "$(grep -v '^lopbench: \[' "$T/cu.out" | tail -n 5)"
"$A" node0 "$ucx2 --barrier --check --check-witness one-sided --executor p2p,shm --alg diss,tour,mcs \
    --reps 4 --timeout 20" >"$T/cu1.out" 2>&1
check "2 nodes, osc ucx: --check passes with the one-sided witness (RMA on rank 0)" \
    grep -qx -- '--check: all 6 runs ok (one-sided witness)' "$T/cu1.out"

# --barrier --check at 3 nodes x 1 rank: every algorithm with p2p, shm
# (osc ucx) and MPI_Barrier, then the hybrid from the run's own placement.
ucx3="timeout 120 mpirun.openmpi --mca plm_rsh_agent $A --mca osc ucx --host node0:1,node1:1,node2:1 \
    -np 3 $(shquote "$BIN/lopbench") --barrier --check --reps 2 --timeout 20"
barrier_checks "3 x 1, Open MPI (osc ucx)" "$ucx3"

# The README's "Running on a real cluster" commands, verbatim but for the
# number of nodes (64 -> 2), the series over MPI (rdmaw-inline ->
# send-normal, as its comment says) and lopbench's repetitions (100, not
# the default 1000, which took 19 s per MPI: what is checked is that the
# commands work), from a directory with a hostfile and bin/: measure, fit,
# predict, time the barriers, join.  The launchers reach
# the nodes through the agent (Open MPI's OMPI_MCA_plm_rsh_agent, hydra's
# HYDRA_LAUNCHER_EXEC), as through ssh.
readme_cmds() { # the command lines of the section's sh blocks, for 2 nodes
    awk '/^## / { in_section = $0 ~ /^## Running on a real cluster/ } in_section' "$ROOT/README.md" |
        sed -n '/^```sh/,/^```/p' | grep -v '^```\|^#' |
        sed 's/ 64 / 2 /; s/rdmaw-inline/send-normal/; s|bin/lopbench |bin/lopbench --reps 100 |'
}
mkdir -p "$T/rc"
printf 'node0\nnode1\n' >"$T/rc/hosts"
ln -s "$BIN" "$T/rc/bin"
readme_cmds | grep -v '^mpiexec' >"$T/rc/cmds"
check "README: the section's commands found (two runs, a fit, two predictions)" \
    test "$(grep -c '^mpirun .*bin/lopbench' "$T/rc/cmds")" -eq 2 -a "$(grep -c '^bin/lop' "$T/rc/cmds")" -eq 3
while read -r cmd; do
    case $cmd in
    mpirun*) (cd "$T/rc" && OMPI_MCA_plm_rsh_agent=$A "$A" node0 "timeout 120 $cmd") ;;
    *) (cd "$T/rc" && eval "$cmd") ;;
    esac </dev/null >"$T/rc.out" 2>&1
    rc=$?
    check "README, Open MPI: '$cmd' exits 0" test $rc -eq 0
    [ $rc -eq 0 ] || diag "$(grep -v '^lopbench: \[' "$T/rc.out" | tail -n 5)"
done <"$T/rc/cmds"
check "... the files name both nodes" \
    test "$(meta "$T/rc/data/mycluster/barrier.csv" hosts)" = "2: node0 (1 rank), node1 (1 rank)"

# MPICH across two nodes with its defaults (ch4: TCP between the nodes):
# every series, one-sided ones included.
if command -v mpiexec.hydra >/dev/null 2>&1 && mpich_build "$T/mpich-build"; then
    # --timeout 5: MPICH 4.0's MPI_Finalize over UCX may never return here
    # (README, ucx_ran).
    for n in 2 3; do
        hosts=node0,node1 want="2: node0 (1 rank), node1 (1 rank)"
        [ $n = 2 ] || hosts=$hosts,node2 want="3: node0 (1 rank), node1 (1 rank), node2 (1 rank)"
        "$A" node0 "timeout 120 mpiexec.hydra -launcher ssh -launcher-exec $A -hosts $hosts -n $n \
            $(shquote "$ROOT/$MPICH_OUT/bin/lopbench") --reps 3 --warmup 1 --max-post 2 --timeout 5 \
            -o $T/m$n" >"$T/m.out" 2>&1
        check "$n nodes, MPICH: scenarios succeed" ucx_ran "$T/m.out" $?
        check "... the 7 send and 3 rdmaw files" \
            sh -c "test \$(ls '$T/m$n' | grep -c '^send-.*\.csv$') -eq 7 && test \$(ls '$T/m$n' | grep -c '^rdmaw-.*\.csv$') -eq 3"
        [ -s "$T/m$n/send-normal-rtt.csv" ] || diag "$(grep -v '^lopbench: \[' "$T/m.out" | tail -n 5)"
        check "... every file whole, '# hosts:' naming the nodes" \
            scenarios_ok "$T/m$n" $n 3 2 "$want"
    done

    mpich3="timeout 120 mpiexec.hydra -launcher ssh -launcher-exec $A -hosts node0,node1,node2 -n 3 \
        $(shquote "$ROOT/$MPICH_OUT/bin/lopbench") --barrier --check --reps 2 --timeout 5"
    barrier_checks "3 x 1, MPICH" "$mpich3"

    # README's MPICH line: 'mpiexec' is hydra here (Debian's default is
    # Open MPI's), and hydra finds its proxy beside the real executable.
    mkdir -p "$T/rcm/path"
    cp "$T/rc/hosts" "$T/rcm/hosts"
    ln -s "$ROOT/$MPICH_OUT/bin" "$T/rcm/bin"
    printf '#!/bin/sh\nexec mpiexec.hydra "$@"\n' >"$T/rcm/path/mpiexec"
    chmod +x "$T/rcm/path/mpiexec"
    cmd=$(readme_cmds | grep '^mpiexec')
    (cd "$T/rcm" && PATH=$T/rcm/path:$PATH HYDRA_LAUNCHER=ssh HYDRA_LAUNCHER_EXEC=$A \
        "$A" node0 "timeout 120 $cmd") >"$T/rcm.out" 2>&1
    rc=$?
    check "README, MPICH: '$cmd' succeeds ($rc)" \
        sh -c "test $rc -eq 0 || grep -q 'in MPI_Finalize, after the run succeeded' '$T/rcm.out'"
    check "... and writes the files of both nodes" \
        test "$(meta "$T/rcm/data/mycluster/send-normal-rtt.csv" hosts)" = "2: node0 (1 rank), node1 (1 rank)"
    [ -s "$T/rcm/data/mycluster/send-normal-rtt.csv" ] || diag "$cmd: $(tail -n 5 "$T/rcm.out")"
else
    skip "MPICH not installed or not built ($(tail -n 1 "$T/mpich-build" 2>/dev/null))"
fi

# Faults in the middle of a run across two nodes, with each MPI: the job
# ends, or lop's ranks say within --timeout (3 s) what they waited for, and
# no output is left.  Either lop speaks (a wait that gave up, naming the
# rank and its node, then MPI_Abort) or the launcher noticed first (a killed
# rank, a lost daemon).  The launcher may then wait on for node1's stopped
# daemon or proxy (README: the launcher's part): the test stops it once lop
# has spoken; a run that does neither ends at the 60 s hang guard and fails.
tag=$(cat "$C/tag")
node1_pids() { ip netns pids "$tag-1"; }
node1_lopbench() { for p in $(node1_pids); do grep -q lopbench "/proc/$p/cmdline" 2>/dev/null && echo $p; done; }
LOP_SAID='^lopbench: rank [0-9]*: \(timed out after 3 s waiting for\|no progress for 3 s\)'
LAUNCHER_SAID='exited on signal 9\|connection back to mpirun\|lost\|unreachable\|KILLED BY SIGNAL'
# fault MPI NAME ACTION UNDO NAMED: ACTION on node1 once the run measures,
# UNDO after; NAMED: what lop's line must name when lop speaks ('' any).
fault() {
    rm -rf "$T/f" "$T/f.out" # not the last run's progress line: its ranks are gone
    "$A" node0 "timeout 60 $(eval echo \$fault_$1) --scenario 2 --ops send --post normal \
        --reps 1000000 --timeout 3 -o $T/f" >"$T/f.out" 2>&1 &
    bg=$!
    i=0
    while [ $i -lt 600 ] && ! grep -q '^lopbench: \[1/' "$T/f.out" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
    t0=$(date +%s)
    eval "$3"
    i=0
    while [ $i -lt 600 ] && kill -0 $bg 2>/dev/null && ! grep -q "$LOP_SAID" "$T/f.out"; do
        sleep 0.1
        i=$((i + 1))
    done
    took=$(($(date +%s) - t0))
    ended=0 # by itself, before the hang guard
    [ $i -ge 600 ] || kill -0 $bg 2>/dev/null || ended=1
    eval "$4"
    kill $bg 2>/dev/null
    { wait $bg; } 2>/dev/null
    why=$(grep -m 1 "$LOP_SAID\|$LAUNCHER_SAID" "$T/f.out")
    check "$1, $2: the job ended or lop said why, after ${took} s: $why" \
        test $ended = 1 -o -n "$why" -a $i -lt 600
    [ -n "$why" ] || diag "$(tail -n 8 "$T/f.out")"
    if [ -n "$5" ]; then
        check "$1, $2: lop's line names the rank and node it waited for" \
            grep -q "$LOP_SAID.*\($5\)" "$T/f.out" ||
            diag "lop said: $(grep -m 1 "$LOP_SAID" "$T/f.out")"
    fi
    check "$1, $2: no output directory" test ! -e "$T/f"
}
fault_ompi="mpirun.openmpi --mca plm_rsh_agent $A --host node0:1,node1:1 -np 2 $(shquote "$BIN/lopbench")"
fault_mpich="mpiexec.hydra -launcher ssh -launcher-exec $A -hosts node0,node1 -n 2 \
    $(shquote "$ROOT/$MPICH_OUT/bin/lopbench")"
for mpi in ompi mpich; do
    if [ $mpi = mpich ] && ! [ -x "$ROOT/$MPICH_OUT/bin/lopbench" ]; then
        skip "MPICH faults: MPICH not installed or not built"
        continue
    fi
    fault $mpi "node1 stopped (SIGSTOP)" 'kill -STOP $(node1_pids)' \
        'kill -CONT $(node1_pids); pkill -KILL -f "$T/f"' 'rank 1 on node1'
    fault $mpi "node1's rank killed" \
        'r=$(node1_lopbench); [ -n "$r" ] || diag "no lopbench on node1: $(node1_pids)"; kill -KILL $r' \
        'pkill -KILL -f "$T/f"' ''
    fault $mpi "node1's link down" 'ip -n "$tag-1" link set eth0 down' \
        'ip -n "$tag-1" link set eth0 up; pkill -KILL -f "$T/f"' 'rank 1 on node1\|rank 0 on node0'
done

"$ROOT/scripts/cluster.sh" down "$C"
check "down: no namespace of the cluster left" sh -c "! ip netns list | grep -q '^$tag-'"
check "down: no cgroup of the cluster left" test ! -d "/sys/fs/cgroup/cpuset/$tag"
done_testing
