# machine.sh - the machines lop's whole-machine scripts run on, sourced by
# scripts/validate.sh and perf/vs-mpi.sh (after `set -eu`, with ROOT the
# checkout and TOOL the script's name for its messages).
#   MACHINE=local  local: NP ranks on this host (NP <= cores, default: cores;
#                  OVERSUB=1 lets NP exceed them, ranks then share cores)
#                  tcp:   NODES nodes of scripts/cluster.sh, one rank each, TCP
#                         between them (NODES <= cores: each rank a core)
#                  lab:   the same with every node's link shaped by NIC (a NIC
#                         slower than the CPU, thesis 2.3.2; ranks may share
#                         cores: frame times dwarf their scheduling)
#   NODES=2        nodes (tcp, lab)
#   PPN=1          ranks per node (tcp, lab): rank r runs on node r mod NODES,
#                  so ranks 0..NODES-1 are one a node, the next NODES again
#   NIC=5mbit      lab: RATE[:BURST[:MTU]] of scripts/cluster.sh --nic
#   MPI=openmpi    openmpi or mpich, with its default settings (Open MPI on
#                  an oversubscribed lab adds mpi_yield_when_idle)
# machine_check checks them before anything is written; machine_build
# builds that MPI's tools; machine_up starts the machine (machine_down,
# called by the script's exit trap, ends it); ranks and bench run on it.
MACHINE=${MACHINE:-local}
NODES=${NODES:-2}
PPN=${PPN:-1}
NIC=${NIC:-5mbit}
MPI=${MPI:-openmpi}
CORES=$(nproc)
NP=${NP:-$CORES}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # CI and containers run as root

say() { printf '%s: %s\n' "$TOOL" "$*" >&2; }
die() { say "$*"; exit 2; }
whole() { case $2 in '' | *[!0-9]*) die "$1=$2: expected a whole number" ;; esac; }

machine_check() {
    case $MACHINE in local | tcp | lab) ;; *) die "MACHINE=$MACHINE: expected local, tcp or lab" ;; esac
    case $MPI in openmpi | mpich) ;; *) die "MPI=$MPI: expected openmpi or mpich" ;; esac
    whole NODES "$NODES"; whole NP "$NP"; whole PPN "$PPN"
    if [ "$MACHINE" = local ]; then
        [ "$NP" -ge 2 ] && { [ "$NP" -le "$CORES" ] || [ "${OVERSUB:-0}" = 1 ]; } ||
            die "NP=$NP: from 2 to the $CORES cores (OVERSUB=1: more, sharing cores)"
        RANKS=$NP
    else
        [ "$(id -u)" = 0 ] && command -v nsenter >/dev/null 2>&1 ||
            die "MACHINE=$MACHINE: the virtual cluster needs root (network namespaces) and nsenter"
        [ "$NODES" -ge 2 ] || die "NODES=$NODES: a cluster needs at least 2 nodes"
        [ "$PPN" -ge 1 ] || die "PPN=$PPN: at least 1 rank per node"
        RANKS=$((NODES * PPN))
        [ "$MACHINE" = lab ] || [ "$RANKS" -le "$CORES" ] ||
            die "NODES=$NODES PPN=$PPN: more ranks than the $CORES cores over plain TCP (MACHINE=lab shapes the links so that they may share)"
    fi
    if [ "$MPI" = mpich ]; then
        BIN=$ROOT/build/mpich/bin
        command -v mpicc.mpich >/dev/null 2>&1 || die "MPI=mpich: mpicc.mpich is not installed (scripts/deps.sh)"
    else
        BIN=$ROOT/bin
        command -v mpicc.openmpi >/dev/null 2>&1 || die "MPI=openmpi: mpicc.openmpi is not installed (scripts/deps.sh)"
        mpicc --showme:version 2>/dev/null | grep -q 'Open MPI' ||
            die "MPI=openmpi: mpicc here is not Open MPI's ($(mpicc --version 2>&1 | head -n 1))"
    fi
}

machine_build() {
    sh "$ROOT/scripts/deps.sh" --plots
    if [ "$MPI" = mpich ]; then
        make -s -C "$ROOT" -j2 tools MPICC=mpicc.mpich BIN=build/mpich/bin
    else
        make -s -C "$ROOT" -j2 tools
    fi
}

# machine_up: the machine, described in WHAT (a sentence), SHORT (a few
# words) and MPI_VERSION; YIELD holds Open MPI's yield option where ranks
# share cores.
CLUSTER=
YIELD=
machine_up() {
    if [ "$MACHINE" = local ]; then
        WHAT="local: $RANKS ranks on one host ($CORES cores$([ "$RANKS" -le "$CORES" ] || echo ', ranks sharing them'))"
        SHORT="local, $RANKS ranks"
        [ "$RANKS" -le "$CORES" ] || [ "$MPI" = mpich ] || YIELD="--mca mpi_yield_when_idle 1"
    else
        CLUSTER=$(mktemp -d /tmp/lop-machine.XXXXXX) # no spaces: launchers split the agent's path
        if [ "$MACHINE" = lab ]; then
            sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES" shared --nic "$NIC"
            WHAT="lab: $NODES nodes (network namespaces on one host, $CORES cores), $PPN rank(s) each, TCP over links shaped both ways by tbf $(cat "$CLUSTER/nic") (emulated slow NICs: the lab's times, not a real cluster's)"
            SHORT="lab, $NODES nodes, tbf $(cut -d' ' -f2 "$CLUSTER/nic")"
            [ "$RANKS" -le "$CORES" ] || YIELD="--mca mpi_yield_when_idle 1"
        else
            sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES"
            WHAT="tcp: $NODES nodes (network namespaces on one host, a core a rank), $PPN rank(s) each, TCP between them"
            SHORT="tcp, $NODES nodes"
        fi
    fi
    if [ "$MPI" = mpich ]; then MPI_VERSION=$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*/MPICH /p')
    else MPI_VERSION=$(mpirun.openmpi --version 2>&1 | sed -n "s/^mpirun.* \([0-9][0-9.]*\)$/Open MPI \1/p"); fi
    say "$WHAT; $MPI_VERSION${CLUSTER:+; network namespaces $(cat "$CLUSTER/tag")-*}"
}

machine_down() {
    [ -z "$CLUSTER" ] || { sh "$ROOT/scripts/cluster.sh" down "$CLUSTER"; rm -rf "$CLUSTER"; }
    CLUSTER=
}

quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# ranks PROG ARGS...: the machine's ranks, bounded in time; LAUNCH (unquoted
# words) goes to the launcher: Open MPI's --mca pairs, MPICH's -genv pairs.
LAUNCH=
ranks() {
    if [ "$MACHINE" = local ]; then
        # shellcheck disable=SC2086 # LAUNCH is words
        if [ "$MPI" = openmpi ]; then timeout 900 mpirun.openmpi --oversubscribe $YIELD $LAUNCH -np "$RANKS" "$@"
        else timeout 900 mpirun.mpich -bind-to core $LAUNCH -np "$RANKS" "$@"; fi
        return
    fi
    hosts= cmd=
    i=0
    while [ $i -lt "$NODES" ]; do hosts=$hosts${hosts:+,}node$i; i=$((i + 1)); done
    for a in "$@"; do cmd="$cmd $(quote "$a")"; done
    if [ "$MPI" = openmpi ]; then
        "$CLUSTER/agent" node0 "timeout 900 mpirun.openmpi --mca plm_rsh_agent $CLUSTER/agent $YIELD $LAUNCH --bind-to none \
            --map-by node --host $(echo "$hosts" | sed "s/\(node[0-9]*\)/\1:$PPN/g") -np $RANKS$cmd"
    else
        "$CLUSTER/agent" node0 "timeout 900 mpiexec.hydra -launcher ssh -launcher-exec $CLUSTER/agent \
            -hosts $hosts $LAUNCH -n $RANKS$cmd"
    fi
}

# bench DIR NAME ARGS...: lopbench on the machine's ranks, its output in
# DIR/NAME.txt and its stderr in DIR/NAME.err (stdin none: launchers read it).  MPICH over UCX may never
# return from MPI_Finalize across nodes (README, "Running on a real
# cluster"): lopbench's watchdog then ends the ranks after the run, saying
# its output is written, and hydra reports failure; that run counts, any
# other failure stops the job.
bench() {
    dir=$1 name=$2
    shift 2
    ranks "$BIN/lopbench" "$@" </dev/null 2>"$dir/$name.err" >"$dir/$name.txt" && return 0
    if [ "$MPI" = mpich ] && grep -q 'after the run succeeded (its output is written' "$dir/$name.err"; then
        say "$name: hydra reported failure after lopbench's run succeeded (MPICH's finalize across nodes); the output is whole"
        return 0
    fi
    cat "$dir/$name.err" >&2
    exit 1
}
