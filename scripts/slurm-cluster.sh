#!/bin/sh
# slurm-cluster.sh - a Slurm cluster on the virtual nodes of cluster.sh, for
# the tests of scripts/lop.sbatch and of lopbench under srun (run as root;
# slurmctld, slurmd, slurm-client, munge: scripts/deps.sh).
#
#   slurm-cluster.sh up DIR N [--wait S]
#                          nodes node0..node<N-1> (cluster.sh up DIR N,
#                          namespaces lops<pid>-*), munged and slurmctld on
#                          node0, one slurmd per node, every node idle in one
#                          partition 'lop' within S seconds (default 30);
#                          refused while DIR's cluster is up; a failed start
#                          takes down what it made and says why in one line
#   slurm-cluster.sh down DIR   remove it all (idempotent): the daemons and
#                          every job's processes end with the nodes
#                          (cluster.sh down), DIR/slurm goes
#   DIR/agent HOST CMD...  as cluster.sh's; the Slurm commands (srun, sbatch,
#                          salloc, sinfo, scancel) work inside a node with
#                          SLURM_CONF=DIR/slurm/slurm.conf (slurmd connects
#                          back to srun, and the host has no route to the
#                          nodes)
#
# What Slurm needs on these nodes: the controller's hostname is its
# SlurmctldHost (node0), each slurmd's is its NodeName (cluster.sh gives each
# node its hostname); one munged for all, its socket a path every node sees
# (AuthInfo); cgroup.conf's cgroup/v1, or slurmd 22.05 refuses to start on
# the fresh /sys that 'ip netns exec' mounts; process tracking by /proc
# (proctrack/linuxproc) and no task plugin, as the nodes have no cgroups of
# their own; a TmpFS per node (%n), or pmix's /tmp/spmix_appdir_* of two
# nodes collide and the launch fails.  Each node's spool, pid and log files
# are under DIR/slurm/<node>/.
set -eu

die() { echo "slurm-cluster.sh: $*" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)

# conf DIR N: slurm.conf and cgroup.conf in DIR/slurm.
conf() {
    s=$1/slurm last=$(($2 - 1))
    cat >"$s/slurm.conf" <<EOF
ClusterName=lop
SlurmctldHost=node0
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge.socket
StateSaveLocation=$s/ctld
SlurmctldPidFile=$s/slurmctld.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdSpoolDir=$s/%n
SlurmdPidFile=$s/%n/slurmd.pid
SlurmdLogFile=$s/%n/slurmd.log
TmpFS=$s/%n/tmp
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
ReturnToService=2
SlurmdTimeout=5
KillWait=5
MessageTimeout=5
NodeName=node[0-$last] CPUs=1 State=UNKNOWN
PartitionName=lop Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    echo "CgroupPlugin=cgroup/v1" >"$s/cgroup.conf"
}

# all_idle DIR N: sinfo on node0 lists N nodes, all idle.
all_idle() {
    st=$("$1/agent" node0 "sinfo -h -N -o %T" 2>/dev/null) || return 1
    [ "$(echo "$st" | grep -cx idle)" -eq "$2" ]
}

# start DIR N WAIT: the daemons, then wait for every node to be idle.
start() {
    dir=$1 n=$2 s=$1/slurm A=$1/agent
    export SLURM_CONF="$s/slurm.conf"
    mkdir -p "$s/ctld" || return 1
    i=0
    while [ $i -lt "$n" ]; do mkdir -p "$s/node$i/tmp"; i=$((i + 1)); done
    conf "$dir" "$n"
    mungekey --create --keyfile="$s/munge.key" --bits=1024 || return 1
    "$A" node0 "munged --force --socket=$s/munge.socket --key-file=$s/munge.key \
        --pid-file=$s/munged.pid --log-file=$s/munged.log --seed-file=$s/munged.seed" ||
        { echo "munged did not start: $(tail -n 1 "$s/munged.log" 2>/dev/null)"; return 1; }
    "$A" node0 "slurmctld -f $s/slurm.conf" ||
        { echo "slurmctld did not start: $(tail -n 1 "$s/slurmctld.log" 2>/dev/null)"; return 1; }
    i=0
    while [ $i -lt "$n" ]; do
        "$A" node$i "slurmd -f $s/slurm.conf -N node$i" ||
            { echo "node$i: slurmd did not start: $(tail -n 1 "$s/node$i/slurmd.log" 2>/dev/null)"; return 1; }
        i=$((i + 1))
    done
    t0=$(date +%s)
    until all_idle "$dir" "$n"; do
        if [ $(($(date +%s) - t0)) -ge "$3" ]; then
            echo "the $n nodes were not idle within $3 s ($("$A" node0 "sinfo -h -N -o '%N %T'" 2>&1 | tr '\n' ' '))"
            return 1
        fi
        sleep 0.1
    done
}

up() {
    dir=$1 n=$2 wait=$3
    [ "$wait" -ge 1 ] 2>/dev/null || die "--wait: S must be a whole number of seconds >= 1"
    for c in munged mungekey slurmctld slurmd sinfo srun; do
        command -v $c >/dev/null 2>&1 || die "$c not installed (scripts/deps.sh installs Slurm and munge)"
    done
    mkdir -p "$dir" && dir=$(cd "$dir" && pwd) # the agent and slurm.conf name it
    # cluster.sh's refusals (DIR's cluster is up ...) as this script's own
    why=$(LOP_CLUSTER_PREFIX=lops "$HERE/cluster.sh" up "$dir" "$n" 2>&1) ||
        die "$(echo "$why" | tail -n 1 | sed 's/^cluster\.sh: //; s/cluster\.sh down/slurm-cluster.sh down/')"
    [ -z "$why" ] || echo "$why" >&2
    why=$(start "$dir" "$n" "$wait" 2>&1) || { down "$dir"; die "$(echo "${why:-start failed}" | tail -n 1)"; }
    echo "SLURM_CONF=$dir/slurm/slurm.conf" >"$dir/slurm/env"
}

down() {
    "$HERE/cluster.sh" down "$1"
    rm -rf "$1/slurm"
}

USAGE="usage: slurm-cluster.sh up DIR N [--wait S] | down DIR"
case ${1:-} in
up)
    [ $# -eq 3 ] || [ $# -eq 5 ] || die "$USAGE"
    wait=30
    if [ $# -eq 5 ]; then [ "$4" = --wait ] || die "$4: unknown argument; $USAGE"; wait=$5; fi
    up "$2" "$3" "$wait" ;;
down) [ $# -eq 2 ] || die "usage: slurm-cluster.sh down DIR"; down "$2" ;;
*) die "$USAGE" ;;
esac
