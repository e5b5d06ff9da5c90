#!/bin/sh
# cluster.sh - a cluster of N nodes on this machine, for multi-node MPI runs
# (the tests, make demo NODES=N)
# (run as root; iproute2 and util-linux).
#
#   cluster.sh up DIR N [shared] [--nic RATE[:BURST[:MTU]]]
#                          make nodes node0..node<N-1>; DIR (no spaces: MPI
#                          launchers split their agent's path) gets the state
#                          (refused while DIR's cluster is up: down it first);
#                          'shared': every node may use every core;
#                          --nic: every node's link shaped both ways (below)
#   cluster.sh down DIR    remove them (idempotent)
#   DIR/agent [-x] HOST CMD...   run the command line CMD on HOST, as ssh
#                          would (Open MPI's plm_rsh_agent, hydra's -launcher-exec)
#   LOP_CLUSTER_PREFIX     the namespaces' prefix (default lopc; up only):
#                          scripts/slurm-cluster.sh's are told apart by theirs
#
# A node is what a real one is to MPI: its own network namespace (eth0 on a
# bridge in a "switch" namespace: 10.77.0.<i+1>/24, nothing in the host's own
# namespace changes), hostname (UTS), System V IPC, /dev/shm (a private tmpfs)
# and /etc/hosts naming every node; and, where cgroup v1 cpusets exist, its
# own core (node i gets core i mod ncores): MPI libraries bind ranks by the
# topology hwloc sees, and nodes sharing one core would bind their ranks to
# the same one.  With 'shared' every node sees every core, for runs that
# need two busy ranks on one node (an intra-node ping-pong) and do not let
# MPI bind (Open MPI --bind-to none; hydra binds nothing by default).  A
# "holder" process per node keeps the namespaces; the agent enters them with
# nsenter, so every process of a node shares them.
#
# --nic RATE[:BURST[:MTU]] makes every node's adapter slower than its CPU
# (thesis 2.3.2): the kernel's token-bucket filter shapes the node's eth0
# (what it sends) and its switch port (what it receives) to RATE (tc's
# units: 5mbit), a bucket of BURST bytes (default 400) and an MTU of MTU
# bytes on both ends (default 360, so that every frame fits the bucket).  A
# frame after idle passes at once, back-to-back frames are paced at the
# rate: frame times of some 200 us at 5mbit, which dwarf the scheduling
# noise of several ranks per core.  An emulated lab for checking the models,
# not a real cluster; DIR/nic records the shaping.
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

# nic_parse SPEC: nic_rate, nic_burst, nic_mtu from RATE[:BURST[:MTU]].
nic_parse() {
    old_ifs=$IFS IFS=:
    # shellcheck disable=SC2086
    set -- $1
    IFS=$old_ifs
    [ $# -ge 1 ] && [ $# -le 3 ] || die "--nic: expected RATE[:BURST[:MTU]]"
    nic_rate=$1 nic_burst=${2:-400} nic_mtu=${3:-360}
    case $nic_rate in
    *[!0-9a-z]* | [!0-9]*) die "--nic: RATE '$nic_rate' is not a rate like 5mbit, 800kbit or 1gbit" ;;
    *[0-9]bit | *[0-9][kmg]bit) ;;
    *) die "--nic: RATE '$nic_rate' is not a rate like 5mbit, 800kbit or 1gbit" ;;
    esac
    [ "$nic_burst" -ge 64 ] 2>/dev/null || die "--nic: BURST '$nic_burst' is not a byte count >= 64"
    { [ "$nic_mtu" -ge 68 ] && [ "$nic_mtu" -le 9000 ]; } 2>/dev/null ||
        die "--nic: MTU '$nic_mtu' is not a byte count from 68 (IPv4's least) to 9000"
}

# shape NS DEV: the token bucket and the MTU on one end of a link.
shape() {
    ip -n "$1" link set "$2" mtu "$nic_mtu" &&
        ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "$nic_rate" burst "$nic_burst" latency 2s
}

# live_refuse DIR: refuse a DIR whose cluster still exists (any of its
# namespaces or its cgroup), before anything changes: a second 'up' would
# overwrite its tag and orphan it (namespaces, holders, cgroup), and 'down
# DIR' would only ever find the second.
live_refuse() {
    [ -f "$1/tag" ] || return 0
    old=$(cat "$1/tag")
    old_cg=$(cat "$1/cgroup" 2>/dev/null || :)
    if ip netns list | grep -q "^$old-" || { [ -n "$old_cg" ] && [ -d "$old_cg" ]; }; then
        die "$1 holds a cluster that is up ($old, namespaces $old-*): cluster.sh down $1 first"
    fi
}

up() {
    dir=$1 n=$2 shared=${3:-} nic=${4:-}
    case $dir in *[!A-Za-z0-9_./-]*) die "$dir: the state directory must have no spaces" ;; esac
    [ "$n" -ge 1 ] 2>/dev/null || die "N must be a whole number >= 1"
    [ -z "$nic" ] || nic_parse "$nic"
    prefix=${LOP_CLUSTER_PREFIX:-lopc}
    # veth names (v<tag>-<i>) have 15 characters at most
    case $prefix in [a-z] | [a-z][a-z] | [a-z][a-z][a-z] | [a-z][a-z][a-z][a-z]) ;;
    *) die "LOP_CLUSTER_PREFIX '$prefix' is not 1 to 4 lowercase letters" ;; esac
    live_refuse "$dir"
    mkdir -p "$dir"
    tag=$prefix$$
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
        if [ -n "$nic" ]; then
            shape "$ns" eth0 || die "node$i: tc could not shape eth0 (no sch_tbf in this kernel?)"
            shape "$tag-sw" "v$tag-$i" || die "node$i: tc could not shape its switch port"
        fi
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
    if [ -n "$nic" ]; then
        printf 'rate %s burst %s mtu %s\n' "$nic_rate" "$nic_burst" "$nic_mtu" >"$dir/nic"
    else
        rm -f "$dir/nic"
    fi
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
    # A process may end by itself before down kills it: under set -e that
    # kill's failure would end down here, leaving the namespaces, the cgroup
    # and the tag; so would a cgroup that keeps a task.
    for f in "$dir"/pid.*; do [ -f "$f" ] && { kill "$(cat "$f")" 2>/dev/null || :; }; rm -f "$f"; done
    # Every process still on a node (a job a test stopped or cut off: its
    # ranks, its daemons) ends with it, stopped ones too.
    for ns in $(ip netns list | sed -n "s/^\($tag-[^ ]*\).*/\1/p"); do
        pids=$(ip netns pids "$ns" 2>/dev/null || :)
        [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || :
        ip netns del "$ns"
    done
    cg=$(cat "$dir/cgroup" 2>/dev/null || :)
    if [ -n "$cg" ] && [ -d "$cg" ]; then
        i=0 # the killed leave the cgroup when they are reaped
        while [ $i -lt 100 ] && [ -n "$(cat "$cg"/node*/tasks 2>/dev/null)" ]; do sleep 0.05; i=$((i + 1)); done
        for d in "$cg"/node*; do [ -d "$d" ] && { rmdir "$d" 2>/dev/null || :; }; done
        rmdir "$cg" 2>/dev/null || :
    fi
    rm -f "$dir/tag"
}

USAGE="usage: cluster.sh up DIR N [shared] [--nic RATE[:BURST[:MTU]]] | down DIR"
case ${1:-} in
up)
    [ $# -ge 3 ] || die "$USAGE"
    dir=$2 n=$3 shared= nic=
    shift 3
    while [ $# -gt 0 ]; do
        case $1 in
        shared) shared=shared ;;
        --nic) [ $# -ge 2 ] && [ -n "$2" ] || die "--nic needs RATE[:BURST[:MTU]]"; nic=$2; shift ;;
        --nic=?*) nic=${1#--nic=} ;;
        *) die "$1: unknown argument; $USAGE" ;;
        esac
        shift
    done
    up "$dir" "$n" "$shared" "$nic"
    ;;
down) [ $# -eq 2 ] || die "usage: cluster.sh down DIR"; down "$2" ;;
node-setup) # up runs it inside each node's namespaces, never a user
    [ $# -eq 4 ] || die "usage: cluster.sh node-setup NAME DIR CGROUP (run by cluster.sh up in a node)"
    node_setup "$2" "$3" "$4" ;;
*) die "$USAGE" ;;
esac
