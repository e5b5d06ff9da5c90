# machine.sh - the machines lop's whole-machine scripts run on, sourced by
# scripts/validate.sh, scripts/lop.sbatch, perf/vs-mpi.sh and perf/congest.sh
# (after `set -eu`, with ROOT the
# checkout and TOOL the script's name for its messages).
#   MACHINE=local  local: NP ranks on this host (NP <= cores, default: cores;
#                  OVERSUB=1 lets NP exceed them, ranks then share cores)
#                  slurm: inside a Slurm job (scripts/lop.sbatch), one rank on
#                         each of its nodes (SLURM_JOB_NUM_NODES >= 2), started
#                         by LAUNCHER
#                  tcp:   NODES nodes of scripts/cluster.sh, one rank each, TCP
#                         between them (NODES <= cores: each rank a core)
#                  lab:   the same with every node's link shaped by NIC (a NIC
#                         slower than the CPU, thesis 2.3.2; ranks may share
#                         cores: frame times dwarf their scheduling)
#   NODES=2        nodes (tcp, lab)
#   PPN=1          ranks per node (tcp, lab): rank r runs on node r mod NODES,
#                  so ranks 0..NODES-1 are one a node, the next NODES again
#   NIC=5mbit      lab: RATE[:BURST[:MTU]] of scripts/cluster.sh --nic
#   LAUNCH_S=900   seconds one launch of the ranks may take (tcp, lab, local)
#   MPI=openmpi    openmpi or mpich, with its default settings (Open MPI on
#                  an oversubscribed lab adds mpi_yield_when_idle)
#   LAUNCHER=auto  slurm: srun (--mpi=pmix for Open MPI, --mpi=pmi2 for
#                  MPICH), or the MPI's own mpirun inside the allocation (it
#                  finds the job's nodes); auto: srun where 'srun --mpi=list'
#                  has the plugin, else mpirun
#   IDLE_US=1000   lopbench --idle-us, scenario 2's cool-down after each
#                  round's barrier (the thesis's 1000 us drains a barrier's
#                  frames on the 5 Mbit/s lab too: 5000 and 50000 us gave
#                  the same spread of T(1) over launches)
# machine_check checks them before anything is written (and sets RANKS, and
# ROUND, lopfit's option for the round: the bucket wherever it has the
# points for it, 6 and more (7 ranks); its knot shows where a burst ends,
# or sits at an end when none does, while AICc at 7 points would never
# choose it over the line, fit/README.md "round"); machine_build
# builds that MPI's tools; machine_up starts the machine (machine_down,
# called by the script's exit trap, ends it); ranks and bench run on it.
MACHINE=${MACHINE:-local}
NODES=${NODES:-2}
PPN=${PPN:-1}
LAUNCH_S=${LAUNCH_S:-900}
NIC=${NIC:-5mbit}
MPI=${MPI:-openmpi}
CORES=$(nproc)
NP=${NP:-$CORES}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # CI and containers run as root

say() { printf '%s: %s\n' "$TOOL" "$*" >&2; }
die() { say "$*"; exit 2; }
. "$ROOT/scripts/whole.sh"

machine_check() {
    case $MACHINE in local | tcp | lab | slurm) ;; *) die "MACHINE=$MACHINE: expected local, tcp, lab or slurm" ;; esac
    case $MPI in openmpi | mpich) ;; *) die "MPI=$MPI: expected openmpi or mpich" ;; esac
    [ "$MACHINE" != slurm ] || slurm_job
    whole NODES "$NODES"; whole NP "$NP"; whole PPN "$PPN"; whole LAUNCH_S "$LAUNCH_S"
    [ "$LAUNCH_S" -ge 1 ] || die "LAUNCH_S=$LAUNCH_S: at least 1 (timeout 0 would wait for ever)"
    if [ "$MACHINE" = slurm ]; then
        RANKS=$NODES
    elif [ "$MACHINE" = local ]; then
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
    IDLE_US=${IDLE_US:-1000}
    whole IDLE_US "$IDLE_US" microseconds
    ROUND=
    [ "$RANKS" -lt 7 ] || ROUND="--model round=bucket"
    if [ "$MPI" = mpich ]; then
        BIN=$ROOT/build/mpich/bin
        command -v mpicc.mpich >/dev/null 2>&1 || die "MPI=mpich: mpicc.mpich is not installed (scripts/deps.sh)"
    else
        BIN=$ROOT/bin
        command -v mpicc.openmpi >/dev/null 2>&1 || die "MPI=openmpi: mpicc.openmpi is not installed (scripts/deps.sh)"
        mpicc --showme:version 2>/dev/null | grep -q 'Open MPI' ||
            die "MPI=openmpi: mpicc here is not Open MPI's ($(mpicc --version 2>&1 | head -n 1))"
    fi
    [ "$MACHINE" != slurm ] || slurm_launcher
}

# slurm_job: NODES from the job Slurm runs us in, and the seconds it has
# left (squeue's %L: [days-]hours:minutes:seconds, or no limit), which bound
# every launch.
LEFT=900
slurm_job() {
    [ -n "${SLURM_JOB_ID:-}" ] || die "MACHINE=slurm: not inside a Slurm job (SLURM_JOB_ID unset: sbatch -N 2 scripts/lop.sbatch)"
    NODES=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-}}
    whole SLURM_JOB_NUM_NODES "$NODES"
    [ "$NODES" -ge 2 ] ||
        die "job $SLURM_JOB_ID has $NODES node (${SLURM_JOB_NODELIST:-?}): lop needs at least 2 (sbatch -N 2 ...)"
    left=$(squeue -h -j "$SLURM_JOB_ID" -o %L 2>/dev/null | head -n 1)
    case $left in
    *[0-9]:[0-9]*) LEFT=$(echo "$left" | awk -F'[-:]' '{ s = 0; m = split("1 60 3600 86400", u, " ")
        for (i = NF; i >= 1; i--) s += $i * u[NF - i + 1]; print s }') ;;
    *) LEFT=86400 ;; # no limit
    esac
}

# slurm_launcher: LAUNCHER srun or mpirun, chosen by what the site has.
slurm_launcher() {
    if [ "$MPI" = mpich ]; then plugin=pmi2 mpirun=mpiexec.mpich; else plugin=pmix mpirun=mpirun.openmpi; fi
    has_plugin=
    srun --mpi=list 2>&1 | grep -qx "[[:space:]]*$plugin" && has_plugin=1
    case ${LAUNCHER:-auto} in
    auto) if [ -n "$has_plugin" ]; then LAUNCHER=srun; else LAUNCHER=mpirun; fi ;;
    srun | mpirun) ;;
    *) die "LAUNCHER=$LAUNCHER: expected auto, srun or mpirun" ;;
    esac
    if [ "$LAUNCHER" = srun ]; then
        [ -n "$has_plugin" ] || die "launcher srun: this Slurm has no mpi/$plugin plugin for MPI=$MPI (srun --mpi=list: $(srun --mpi=list 2>&1 | tail -n +2 | tr -d '\t' | tr '\n' ' '))"
        LAUNCHED="srun --mpi=$plugin"
    else
        command -v $mpirun >/dev/null 2>&1 ||
            die "MPI=$MPI: no mpi/$plugin plugin in this Slurm (srun --mpi=list) and no $mpirun to start the ranks"
        LAUNCHED="$mpirun inside the allocation"
        [ -n "$has_plugin" ] || LAUNCHED="$LAUNCHED (this Slurm has no mpi/$plugin plugin)"
    fi
}

machine_build() {
    sh "$ROOT/scripts/deps.sh"
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
    elif [ "$MACHINE" = slurm ]; then
        WHAT="slurm: job $SLURM_JOB_ID, $NODES nodes ($SLURM_JOB_NODELIST), one rank each, started by $LAUNCHED, $LEFT s left"
        SHORT="slurm, $NODES nodes"
    else
        CLUSTER=$(mktemp -d /tmp/lop-machine.XXXXXX) # no spaces: launchers split the agent's path
        if [ "$MACHINE" = lab ]; then
            # a core a node, round robin (node i on core i mod cores), so the
            # ranks of one round trip run side by side; nodes of several
            # ranks share every core
            share=
            [ "$PPN" -eq 1 ] || share=shared
            sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES" $share --nic "$NIC"
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
    if [ "$MACHINE" = slurm ]; then
        slurm_ranks "$@"
        return
    fi
    if [ "$MACHINE" = local ]; then
        # shellcheck disable=SC2086 # LAUNCH is words
        if [ "$MPI" = openmpi ]; then timeout $LAUNCH_S mpirun.openmpi --oversubscribe $YIELD $LAUNCH -np "$RANKS" "$@"
        else timeout $LAUNCH_S mpirun.mpich -bind-to core $LAUNCH -np "$RANKS" "$@"; fi
        return
    fi
    hosts= cmd=
    i=0
    while [ $i -lt "$NODES" ]; do hosts=$hosts${hosts:+,}node$i; i=$((i + 1)); done
    for a in "$@"; do cmd="$cmd $(quote "$a")"; done
    if [ "$MPI" = openmpi ]; then
        "$CLUSTER/agent" node0 "timeout $LAUNCH_S mpirun.openmpi --mca plm_rsh_agent $CLUSTER/agent $YIELD $LAUNCH --bind-to none \
            --map-by node --host $(echo "$hosts" | sed "s/\(node[0-9]*\)/\1:$PPN/g") -np $RANKS$cmd"
    else
        "$CLUSTER/agent" node0 "timeout $LAUNCH_S mpiexec.hydra -launcher ssh -launcher-exec $CLUSTER/agent \
            -hosts $hosts $LAUNCH -n $RANKS$cmd"
    fi
}

# slurm_ranks PROG ARGS...: one rank on each of the job's nodes, ended before
# the job's time is up (srun forwards timeout's SIGTERM to the step and
# cancels it; a SIGKILLed srun would leave the step running).  srun -K: a
# rank that dies ends the step at once, not after the others' --timeout.
# In the background, waited for: the shell's traps then run as soon as Slurm
# signals the job (a node failed), not after the launcher ends, which may
# be after Slurm's SIGKILL.
slurm_ranks() {
    t=$((LEFT > 40 ? LEFT - 30 : 10))
    # shellcheck disable=SC2086 # LAUNCH is words
    if [ "$LAUNCHER" = srun ]; then
        timeout -k 10 $t srun --mpi=$plugin -K -N "$NODES" -n "$RANKS" --ntasks-per-node=1 "$@" &
    elif [ "$MPI" = openmpi ]; then
        timeout -k 10 $t mpirun.openmpi $LAUNCH --map-by node -np "$RANKS" "$@" &
    else
        timeout -k 10 $t mpiexec.mpich $LAUNCH -ppn 1 -n "$RANKS" "$@" &
    fi
    wait $!
}

# lost DIR NAME: the node a failed run lost, in one line, from what srun or
# mpirun said in DIR/NAME.err; nothing when they named none.
lost() {
    sed -n -e 's/^srun: error: \([^:]*\): task \([0-9]*\): \(Killed\|Terminated\|.*signal.*\)$/\1 lost mid-job: rank \2 \3 (srun)/p' \
        -e 's/^srun: error: Node failure on \(.*\)$/\1 lost mid-job: node failure (srun)/p' \
        -e 's/.*process rank \([0-9]*\) with PID [0-9]* on node \([^ ]*\) exited on signal \([0-9]*\).*/\2 lost mid-job: rank \1 exited on signal \3 (mpirun)/p' \
        "$1/$2.err" | head -n 1
}

# slurm_down: which of the job's nodes Slurm took as lost, in one phrase.
slurm_down() {
    down=$(sinfo -h -N -n "$SLURM_JOB_NODELIST" -t down,fail,drain,no_respond -o %N 2>/dev/null |
        sort -u | tr '\n' ' ')
    if [ -n "$down" ]; then echo "${down% } lost mid-job (down in sinfo)"
    else echo "no node of the job is down (a time limit, scancel?)"; fi
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
    rc=0
    ranks "$BIN/lopbench" "$@" </dev/null 2>"$dir/$name.err" >"$dir/$name.txt" || rc=$?
    [ $rc -ne 0 ] || return 0
    [ $rc -ne 124 ] || [ "$MACHINE" = slurm ] || {
        say "$name: stopped after $LAUNCH_S s, the limit of one launch (LAUNCH_S sets it)"
        exit 1
    }
    if [ "$MPI" = mpich ] && grep -q 'after the run succeeded (its output is written' "$dir/$name.err"; then
        say "$name: hydra reported failure after lopbench's run succeeded (MPICH's finalize across nodes); the output is whole"
        return 0
    fi
    if [ "$MACHINE" = slurm ] && [ -n "$(lost "$dir" "$name")" ]; then
        say "$name: $(lost "$dir" "$name")"
        exit 1
    fi
    cat "$dir/$name.err" >&2
    exit 1
}

# fit_series LOPFIT D: lopfit (min, avg, median; ROUND) over the series files
# of scenarios 1, 2 and 3 in D, into D, its report on stdout; scenario 3's
# ring is there with three ranks or more.
fit_series() {
    _lopfit=$1 _d=$2
    set -- "$_d"/*-rtt.csv "$_d"/*-os.csv "$_d"/*-or.csv "$_d"/*-prtt.csv "$_d"/*-exch.csv
    for _f in "$_d"/*-ring.csv; do [ ! -e "$_f" ] || set -- "$@" "$_f"; done
    # shellcheck disable=SC2086 # ROUND is words
    "$_lopfit" --stat min,avg,median $ROUND -o "$_d" "$@"
}

# fidelity W D STAT REPS SECS: the fidelity table of a run whose barriers are
# in D/barrier.csv and lopredict --measured --csv in D/measured.csv:
# W/fidelity.csv, W/fidelity.txt (per executor x algorithm x P the measured
# time, each model's prediction and error; per model the summary) and
# W/fidelity.png (where gnuplot is installed).
fidelity() {
    fid_meta() {
        echo "# validate: $(date -u '+%Y-%m-%dT%H:%M:%SZ'), host $(hostname), $5 s"
        echo "# machine: $WHAT"
        echo "# machine_short: $SHORT"
        echo "# mpi_short: $MPI_VERSION"
        echo "# mpi: $MPI_VERSION ($MPI, default settings${YIELD:+; $YIELD})"
        grep -h '^# oversubscribed:' "$2/barrier.csv" | head -n 1
        echo "# reps: $4 barriers and repetitions each"
        echo "# idle_us: $IDLE_US (scenario 2's cool-down after each round's barrier)"
        echo "# stat: $3 (fitted, predicted and measured alike)"
        if [ -n "${ROUND:-}" ]; then echo "# round: lopfit $ROUND (6 or more points: the knot fitted)"
        else echo "# round: lopfit's selection (AICc)"; fi
        echo "# intervals: $(sed -n 's/^# intervals: //p' "$2/measured.csv")"
        echo "# overheads: $(sed -n 's/^# overheads: //p' "$2/measured.csv")"
        echo "# duplex: $(sed -n 's/^# duplex: //p' "$2/measured.csv")"
        echo "# ack: $(sed -n 's/^# ack: //p' "$2/measured.csv")"
    }
    fid() { awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode="$1" "$2/barrier.csv" "$2/measured.csv"; }
    { fid_meta "$@"; fid csv "$2"; } >"$1/fidelity.csv"
    { fid_meta "$@"; echo; fid text "$2"; echo; fid summary "$2"; } >"$1/fidelity.txt"
    command -v gnuplot >/dev/null 2>&1 || { say "no fidelity.png: gnuplot is not installed"; return 0; }
    gnuplot -e "in='$1/fidelity.csv'; out='$1/fidelity.png'" "$ROOT/plots/fidelity.gp" 2>"$1/plot.err" || {
        cat "$1/plot.err" >&2
        exit 1
    }
    rm -f "$1/plot.err"
}
