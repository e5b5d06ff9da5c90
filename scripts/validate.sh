#!/bin/sh
# validate.sh - how right are the predictions on this machine?  Measure
# (lopbench scenarios 1, 2 and 3, the gap) -> fit (lopfit) -> predict and run every barrier
# algorithm (lopbench --barrier, lopredict --measured) -> the fidelity table:
# per executor x algorithm x P the measured time and p99, each model's
# prediction with its 95 % interval, the error and whether the measurement is
# inside; per model the median |error| and the share inside; a figure.
# Settings (environment or make variables; make validate MACHINE=lab ...):
#   MACHINE=local  local: NP ranks on this host (NP <= cores, default: cores)
#                  tcp:   NODES nodes of scripts/cluster.sh, one rank each, TCP
#                         between them (NODES <= cores: each rank a core)
#                  lab:   the same with every node's link shaped by NIC (a NIC
#                         slower than the CPU, thesis 2.3.2; ranks may share
#                         cores: frame times dwarf their scheduling)
#   NODES=2        nodes (tcp, lab)
#   NIC=5mbit      lab: RATE[:BURST[:MTU]] of scripts/cluster.sh --nic
#   MPI=openmpi    openmpi or mpich, with its default settings (Open MPI on
#                  an oversubscribed lab adds mpi_yield_when_idle)
#   REPS=200       repetitions of every measurement and barrier
#   STAT=median    the statistic fitted, predicted and compared: min, avg, median
#   OUT=out/validate-<machine>-<date>   where it goes: complete, or not there
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MACHINE=${MACHINE:-local}
NODES=${NODES:-2}
NIC=${NIC:-5mbit}
MPI=${MPI:-openmpi}
REPS=${REPS:-200}
STAT=${STAT:-median}
CORES=$(nproc)
NP=${NP:-$CORES}
OUT=${OUT:-out/validate-$MACHINE-$(date +%Y%m%d-%H%M%S)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # CI and containers run as root

say() { printf 'validate.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }
whole() { case $2 in '' | *[!0-9]*) die "$1=$2: expected a whole number" ;; esac; }

# ---- every setting checked before anything is written
case $MACHINE in local | tcp | lab) ;; *) die "MACHINE=$MACHINE: expected local, tcp or lab" ;; esac
case $MPI in openmpi | mpich) ;; *) die "MPI=$MPI: expected openmpi or mpich" ;; esac
case $STAT in min | avg | median) ;; *) die "STAT=$STAT: expected min, avg or median" ;; esac
whole NODES "$NODES"; whole REPS "$REPS"; whole NP "$NP"
[ "$REPS" -ge 10 ] || die "REPS=$REPS: at least 10 (a tenth of them warm up)"
case $OUT in *'
'* | *"'"*) die "OUT=$OUT: a directory name with a newline or a single quote (gnuplot's strings)" ;; esac
[ ! -e "$OUT" ] || die "OUT=$OUT exists: the table goes into a new directory"
if [ "$MACHINE" = local ]; then
    [ "$NP" -ge 2 ] && [ "$NP" -le "$CORES" ] || die "NP=$NP: from 2 to the $CORES cores"
    RANKS=$NP
else
    [ "$(id -u)" = 0 ] && command -v nsenter >/dev/null 2>&1 ||
        die "MACHINE=$MACHINE: the virtual cluster needs root (network namespaces) and nsenter"
    [ "$NODES" -ge 2 ] || die "NODES=$NODES: a cluster needs at least 2 nodes"
    [ "$MACHINE" = lab ] || [ "$NODES" -le "$CORES" ] ||
        die "NODES=$NODES: more nodes than the $CORES cores over plain TCP (MACHINE=lab shapes the links so that they may share)"
    RANKS=$NODES
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

# ---- build, then the directory: work in OUT.partial, renamed at the end
sh "$ROOT/scripts/deps.sh" --plots
if [ "$MPI" = mpich ]; then
    make -s -C "$ROOT" -j2 tools MPICC=mpicc.mpich BIN=build/mpich/bin
else
    make -s -C "$ROOT" -j2 tools
fi
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
W=$OUT.partial
CLUSTER=
cleanup() {
    [ -z "$CLUSTER" ] || { sh "$ROOT/scripts/cluster.sh" down "$CLUSTER"; rm -rf "$CLUSTER"; }
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$W"
mkdir "$W" "$W/data"
D=$W/data
start=$(date +%s)

# ---- the machine
YIELD=
if [ "$MACHINE" = local ]; then
    WHAT="local: $RANKS ranks on one host ($CORES cores)"
    SHORT="local, $RANKS ranks"
else
    CLUSTER=$(mktemp -d /tmp/lop-validate.XXXXXX) # no spaces: launchers split the agent's path
    if [ "$MACHINE" = lab ]; then
        sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES" shared --nic "$NIC"
        WHAT="lab: $NODES nodes (network namespaces on one host, $CORES cores), one rank each, TCP over links shaped both ways by tbf $(cat "$CLUSTER/nic") (emulated slow NICs: the lab's times, not a real cluster's)"
        SHORT="lab, $NODES nodes, tbf $(cut -d' ' -f2 "$CLUSTER/nic")"
        [ "$NODES" -le "$CORES" ] || YIELD="--mca mpi_yield_when_idle 1"
    else
        sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES"
        WHAT="tcp: $NODES nodes (network namespaces on one host, a core each), one rank each, TCP between them"
        SHORT="tcp, $NODES nodes"
    fi
fi
if [ "$MPI" = mpich ]; then MPI_VERSION=$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version: */MPICH /p')
else MPI_VERSION=$(mpirun.openmpi --version 2>&1 | sed -n "s/^mpirun.* \([0-9][0-9.]*\)$/Open MPI \1/p"); fi
say "$WHAT; $MPI_VERSION${CLUSTER:+; network namespaces $(cat "$CLUSTER/tag")-*}"

quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# ranks PROG ARGS...: the machine's ranks, bounded in time
ranks() {
    if [ "$MACHINE" = local ]; then
        if [ "$MPI" = openmpi ]; then timeout 900 mpirun.openmpi --oversubscribe -np "$RANKS" "$@"
        else timeout 900 mpirun.mpich -bind-to core -np "$RANKS" "$@"; fi
        return
    fi
    hosts= cmd=
    i=0
    while [ $i -lt "$NODES" ]; do hosts=$hosts${hosts:+,}node$i; i=$((i + 1)); done
    for a in "$@"; do cmd="$cmd $(quote "$a")"; done
    if [ "$MPI" = openmpi ]; then
        "$CLUSTER/agent" node0 "timeout 900 mpirun.openmpi --mca plm_rsh_agent $CLUSTER/agent $YIELD --bind-to none \
            --host $(echo "$hosts" | sed 's/\(node[0-9]*\)/\1:1/g') -np $RANKS$cmd"
    else
        "$CLUSTER/agent" node0 "timeout 900 mpiexec.hydra -launcher ssh -launcher-exec $CLUSTER/agent \
            -hosts $hosts -n $RANKS$cmd"
    fi
}

# bench NAME ARGS...: lopbench on the machine's ranks, its stderr kept in
# NAME.err.  MPICH over UCX may never return from MPI_Finalize across nodes
# (README, "Running on a real cluster"): lopbench's watchdog then ends the
# ranks after the run, saying its output is written, and hydra reports
# failure; that run counts, any other failure stops the job.
bench() {
    name=$1
    shift
    ranks "$BIN/lopbench" "$@" 2>"$W/$name.err" >"$W/$name.txt" && return 0
    if [ "$MPI" = mpich ] && grep -q 'after the run succeeded (its output is written' "$W/$name.err"; then
        say "$name: hydra reported failure after lopbench's run succeeded (MPICH's finalize across nodes); the output is whole"
        return 0
    fi
    cat "$W/$name.err" >&2
    exit 1
}

say "[1/4] lopbench scenarios 1, 2 and 3 ($REPS repetitions)"
bench bench --scenario 1,2,3 --reps "$REPS" --warmup $((REPS / 10)) --max-post 8 -o "$D" --quiet
say "[2/4] lopfit ($STAT and the others)"
"$BIN/lopfit" --stat min,avg,median -o "$D" "$D"/*-rtt.csv "$D"/*-os.csv "$D"/*-or.csv \
    "$D"/*-prtt.csv >"$W/fit.txt"
say "[3/4] lopbench --barrier: every algorithm for real ($REPS barriers each)"
bench barrier --barrier --reps "$REPS" --warmup $((REPS / 10)) -o "$D" --quiet
say "[4/4] lopredict --measured --stat $STAT: the fidelity table"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat "$STAT" --csv >"$D/measured.csv"

secs=$(($(date +%s) - start))
meta() {
    echo "# validate: $(date -u '+%Y-%m-%dT%H:%M:%SZ'), host $(hostname), $secs s"
    echo "# machine: $WHAT"
    echo "# machine_short: $SHORT"
    echo "# mpi_short: $MPI_VERSION"
    echo "# mpi: $MPI_VERSION ($MPI, default settings${YIELD:+; $YIELD})"
    grep -h '^# oversubscribed:' "$D/barrier.csv" | head -n 1
    echo "# reps: $REPS barriers and repetitions each"
    echo "# stat: $STAT (fitted, predicted and measured alike)"
    echo "# intervals: $(sed -n 's/^# intervals: //p' "$D/measured.csv")"
}
{ meta; awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode=csv "$D/barrier.csv" "$D/measured.csv"; } >"$W/fidelity.csv"
{
    meta
    echo
    awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode=text "$D/barrier.csv" "$D/measured.csv"
    echo
    awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode=summary "$D/barrier.csv" "$D/measured.csv"
} >"$W/fidelity.txt"
gnuplot -e "in='$W/fidelity.csv'; out='$W/fidelity.png'" "$ROOT/plots/fidelity.gp" 2>"$W/plot.err" || {
    cat "$W/plot.err" >&2
    exit 1
}
rm -f "$W/plot.err"
mv "$W" "$OUT"
cat "$OUT/fidelity.txt"
say "done in $secs s: $OUT (fidelity.txt, fidelity.csv, fidelity.png, data/)"
