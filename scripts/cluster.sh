#!/bin/sh
# cluster.sh - a cluster of N nodes on this machine, for multi-node MPI runs
# (the tests, make demo NODES=N)
# (run as root; iproute2 and util-linux).
#
#   cluster.sh up DIR N [shared]
#                          make nodes node0..node<N-1>; DIR (no spaces: MPI
#                          launchers split their agent's path) gets the state;
#                          'shared': every node may use every core
#   cluster.sh down DIR    remove them (idempotent)
#   DIR/agent [-x] HOST CMD...   run the command line CMD on HOST, as ssh
#                          would (Open MPI's plm_rsh_agent, hydra's -launcher-exec)
#
# A node is what a real one is to MPI: its own network namespace (eth0 on a
# bridge in a "switch" namespace: 10.77.0.<i+1>/24, nothing in the host's own
# namespace changes), hostname (UTS), System V IPC, /dev/shm (a private tmpfs)
# and /etc/hosts naming every node; and, where cgroup v1 cpusets exist, its
# own core (node i gets core i mod ncores): MPI libraries bind ranks by the
# topology hwloc sees, and nodes sharing one core would bind their ranks to
# the same one.  With 'shared' every node sees every core, for runs that
# need two busy ranks on one node (an intra-node ping-pong) and do not let
# MPI bind (Open MPI --bind-to none; hydra binds nothing by default).  A "holder" process per node keeps the namespaces; the agent
# enters them with nsenter, so every process of a node shares them.
set -eu

die() { echo "cluster.sh: $*" >&2; exit 1; }

CPUSET=/sys/fs/cgroup/cpuset

# node_setup NAME DIR CGROUP: run inside the node's new namespaces, then hold them.
node_setup() {
    hostname "$1"
    mount -t tmpfs shm /dev/shm
    mount --bind "$2/hosts" /etc/hosts
    if [ -n "$3" ]; then # ip netns exec remounted /sys: make the cpuset visible to hwloc again
        mount -t tmpfs cgroup /sys/fs/cgroup && mkdir /sys/fs/cgroup/cpuset &&
            mount -t cgroup -o cpuset cpuset /sys/fs/cgroup/cpuset
    fi
    echo $$ >"$2/pid.$1"
    exec sleep 86400
}

up() {
    dir=$1 n=$2 shared=${3:-}
    case $dir in *[!A-Za-z0-9_./-]*) die "$dir: the state directory must have no spaces" ;; esac
    [ "$n" -ge 1 ] 2>/dev/null || die "N must be a whole number >= 1"
    mkdir -p "$dir"
    tag=lopc$$
    echo "$tag" >"$dir/tag"
    cores=$(nproc --all)
    cg=
    if [ -w "$CPUSET" ] && mkdir "$CPUSET/$tag" 2>/dev/null; then
        cg=$CPUSET/$tag
        cp "$CPUSET/cpuset.mems" "$cg/cpuset.mems" && cp "$CPUSET/cpuset.cpus" "$cg/cpuset.cpus"
    else
        echo "cluster.sh: no cgroup cpusets: the nodes share every core" >&2
    fi
    echo "$cg" >"$dir/cgroup"
    printf '127.0.0.1 localhost\n' >"$dir/hosts"
    i=0
    while [ $i -lt "$n" ]; do printf '10.77.0.%d node%d\n' $((i + 1)) $i >>"$dir/hosts"; i=$((i + 1)); done
    ip netns add "$tag-sw"
    ip -n "$tag-sw" link add br0 type bridge
    ip -n "$tag-sw" link set br0 up
    i=0
    while [ $i -lt "$n" ]; do
        node=node$i ns=$tag-$i
        ip netns add "$ns"
        ip link add "v$tag-$i" netns "$tag-sw" type veth peer name eth0 netns "$ns"
        ip -n "$tag-sw" link set "v$tag-$i" master br0 up
        ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        if [ -n "$cg" ]; then
            mkdir "$cg/$node"
            cp "$cg/cpuset.mems" "$cg/$node/cpuset.mems"
            if [ -n "$shared" ]; then cp "$cg/cpuset.cpus" "$cg/$node/cpuset.cpus"; else echo $((i % cores)) >"$cg/$node/cpuset.cpus"; fi
        fi
        (
            [ -z "$cg" ] || echo $$ >"$cg/$node/tasks"
            exec ip netns exec "$ns" unshare --uts --ipc --mount --propagation private \
                "$0" node-setup "$node" "$dir" "$cg"
        ) </dev/null >/dev/null 2>&1 &
        i=$((i + 1))
    done
    echo "$n" >"$dir/nodes"
    i=0 waited=0
    while [ $i -lt "$n" ]; do
        if [ -s "$dir/pid.node$i" ]; then i=$((i + 1)); continue; fi
        waited=$((waited + 1))
        [ $waited -le 200 ] || die "node$i did not come up within 10 s"
        sleep 0.05
    done
    sed "s|@DIR@|$dir|" "$(dirname "$0")/cluster-agent.in" >"$dir/agent"
    chmod +x "$dir/agent"
}

down() {
    dir=$1
    [ -f "$dir/tag" ] || return 0
    tag=$(cat "$dir/tag")
    for f in "$dir"/pid.*; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; rm -f "$f"; done
    # Every process still on a node (a job a test stopped or cut off: its
    # ranks, its daemons) ends with it, stopped ones too.
    for ns in $(ip netns list | sed -n "s/^\($tag-[^ ]*\).*/\1/p"); do
        pids=$(ip netns pids "$ns")
        [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
        ip netns del "$ns"
    done
    cg=$(cat "$dir/cgroup" 2>/dev/null || :)
    if [ -n "$cg" ] && [ -d "$cg" ]; then
        i=0 # the killed leave the cgroup when they are reaped
        while [ $i -lt 100 ] && [ -n "$(cat "$cg"/node*/tasks 2>/dev/null)" ]; do sleep 0.05; i=$((i + 1)); done
        for d in "$cg"/node*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
        rmdir "$cg" 2>/dev/null || :
    fi
    rm -f "$dir/tag"
}

case ${1:-} in
up)
    [ $# -eq 3 ] || { [ $# -eq 4 ] && [ "$4" = shared ]; } || die "usage: cluster.sh up DIR N [shared]"
    up "$2" "$3" "${4:-}"
    ;;
down) [ $# -eq 2 ] || die "usage: cluster.sh down DIR"; down "$2" ;;
node-setup) node_setup "$2" "$3" "$4" ;;
*) die "usage: cluster.sh up DIR N [shared] | down DIR" ;;
esac
