#!/bin/sh
# demo.sh - the main job end to end on this machine's local ranks (make demo):
#   lopbench (scenarios 1, 2, then every barrier algorithm, in one launch) ->
#   lopfit (model selection) -> lopredict --verify, --best -> lopbench
#   --barrier --congest where the machine allows -> lopredict --measured ->
#   final table -> figures -> summary.txt
# Settings (environment or make variables):
#   NP=<cores>  ranks for scenarios 1, 2 and the barriers; at most the number
#               of cores (nproc): the fits that predict the barriers must come
#               from ranks that each have a core, or they measure the scheduler.
#               With few ranks RTT(p) has few points (p = 1..NP-1) and lopfit's
#               model selection picks the simple model those points support.
#   OVER_NP=8   an extra oversubscribed run of the scenarios on OVER_NP ranks
#               (only when OVER_NP > cores; 0 = none), for its figures: in
#               OUT/oversubscribed-np<N>/, labelled so, never used for predictions
#   OUT=out/demo-<date>   where everything goes: a new directory, complete
#               or not there (a failed or interrupted demo removes it)
#   REPS=1000   repetitions of every measurement (at least 10: a tenth warm up)
#   MODEL=lop   the prediction in the final table: lop, logp, sim_lop, sim_logp, loop,
#               bucket (the loop where the round shows no token bucket)
#   NODES=0     0: local ranks.  N >= 2: a virtual cluster of N nodes on this
#               machine (scripts/cluster.sh: network namespaces, TCP between
#               nodes, shared memory inside one; root): the timed runs put one
#               rank on each node (NP = N, at most the cores), --pairs puts two
#               on each and measures one pair at a time (the heat map's two
#               levels), and the hybrid barrier is built from those costs and
#               checked on them.  Open MPI's mpirun starts them.
#   NIC=        with NODES: RATE[:BURST[:MTU]] shapes every node's link (the
#               slow-NIC lab of scripts/cluster.sh --nic, e.g. NIC=5mbit); the
#               nodes may then outnumber the cores (frame times dwarf the
#               ranks' scheduling; waiting ranks yield); --pairs is left out
#               where its MPI_Issend method (up to 1 MiB a message) would take
#               over 5 minutes at that rate
# Every command's failure stops the demo (set -e): the tools exit non-zero on
# bad input and on any failed write (a full disk), so no step works on the
# half output of the one before.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORES=$(nproc)
NP_ASKED=${NP:-}
NP=${NP:-$CORES}
OVER_NP=${OVER_NP:-8}
REPS=${REPS:-1000}
MODEL=${MODEL:-lop}
OUT=${OUT:-out/demo-$(date +%Y%m%d-%H%M%S)}
NODES=${NODES:-0}
NIC=${NIC:-}
BIN=$ROOT/bin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # CI and containers run as root

say() { printf 'demo: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
step() { say "[$1] $2"; }
# Local ranks with any MPI.  Open MPI counts slots per core and may see fewer
# than nproc (hardware threads): --oversubscribe lets it start NP anyway;
# lopbench itself detects and records real oversubscription.
run_mpi() {
    np=$1; shift
    if mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
        mpirun --oversubscribe -np "$np" "$@"
    else
        mpirun -np "$np" "$@"
    fi
}
# The virtual cluster (NODES >= 2): cluster_mpi PPN PROG ARGS... runs PROG on
# PPN ranks of each node, started on node0 as through ssh; --bind-to none:
# every node may use every core ('shared'), and Open MPI would bind each
# node's first rank to the same core 0.
CLUSTER=
YIELD=
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
cluster_mpi() {
    ppn=$1; shift
    hosts= cmd=
    i=0
    while [ $i -lt "$NODES" ]; do hosts=$hosts${hosts:+,}node$i:$ppn; i=$((i + 1)); done
    for a in "$@"; do cmd="$cmd $(quote "$a")"; done
    "$CLUSTER/agent" node0 "mpirun --mca plm_rsh_agent $CLUSTER/agent $YIELD --bind-to none --host $hosts \
        -np $((NODES * ppn))$cmd"
}
ranks() { # PROG ARGS...: on the timed runs' ranks
    if [ "$NODES" -ge 2 ]; then cluster_mpi 1 "$@"; else run_mpi "$NP" "$@"; fi
}
# oversubscribed DIR: did lopbench record more ranks than cores in DIR?
oversubscribed() { grep -qx '# oversubscribed: yes' "$1"/*.csv 2>/dev/null; }

. "$ROOT/scripts/whole.sh"
whole NODES "$NODES" "nodes (0: local ranks)"
whole NP "$NP" ranks
whole OVER_NP "$OVER_NP" "ranks (0: none)"
if [ "$NODES" -ge 1 ]; then
    [ "$NODES" -ge 2 ] || die "NODES=1: a cluster needs at least 2 nodes (NODES=0: local ranks)"
    [ "$(id -u)" = 0 ] && command -v nsenter >/dev/null 2>&1 ||
        die "NODES=$NODES: the virtual cluster needs root (network namespaces) and nsenter (util-linux)"
    mpirun --version 2>/dev/null | grep -q 'Open MPI' ||
        die "NODES=$NODES: the cluster demo starts its ranks with Open MPI's mpirun (mpirun here: $(mpirun --version 2>&1 | head -n 1))"
    [ "${NP_ASKED:-$NODES}" = "$NODES" ] ||
        die "NP=$NP with NODES=$NODES: on the cluster the timed runs put one rank on each node"
    [ "$NODES" -le "$CORES" ] || [ -n "$NIC" ] ||
        die "NODES=$NODES: more nodes than the $CORES cores; each node's timed rank needs a core of its own (NIC= shapes the links so that they may share)"
    [ "$NODES" -le "$CORES" ] || YIELD="--mca mpi_yield_when_idle 1"
    NP=$NODES
elif [ -n "$NIC" ]; then
    die "NIC=$NIC: shapes the links of a virtual cluster; give NODES too (e.g. NODES=8 NIC=5mbit)"
fi
case $MODEL in logp | lop | sim_logp | sim_lop | loop | bucket) ;; *) die "MODEL=$MODEL: expected lop, logp, sim_lop, sim_logp, loop or bucket" ;; esac
whole REPS "$REPS" repetitions
[ "$REPS" -ge 10 ] && [ "$REPS" -le 10000000 ] ||
    die "REPS=$REPS: from 10 (a tenth of them warm up) to 10000000 (lopbench --reps)"
# A newline in OUT is shown as \x0a, as lop's tools show one: a message is one line.
case $OUT in *'
'* | *"'"*) die "OUT=$(printf '%s' "$OUT" | awk 'NR > 1 { printf "\\x0a" } { printf "%s", $0 }'): a directory name with a newline or a single quote (gnuplot's strings)" ;; esac
[ ! -e "$OUT" ] || die "OUT=$OUT exists: the demo goes into a new directory"
[ "$CORES" -ge 2 ] || die "this machine has $CORES core: lopbench needs 2 ranks, each with a core of its own"
[ "$NP" -ge 2 ] || die "NP=$NP: lopbench needs at least 2 ranks"
[ "$NP" -le "$CORES" ] || [ -n "$YIELD" ] ||
    die "NP=$NP: more ranks than the $CORES cores; predictions from oversubscribed fits describe the scheduler, not the network (OVER_NP=$NP runs the scenarios oversubscribed for their figures only)"
[ "$NODES" -eq 0 ] || OVER_NP=0 # the oversubscribed run is a local one

# The two levels (lopbench --pairs --pairs-sample, two ranks a node) and the
# hybrid barrier from them, on the virtual cluster; PAIRS_SKIP says why not
# on a slow shaped one, else it is empty: the MPI_Issend method sends
# messages of 1 byte to 1 MiB, 2 MiB a repetition, both ways between nodes.
PAIRS_SKIP=
case ${NIC%%:*} in
*[0-9]bit | *[0-9][kmg]bit) # cluster.sh's forms; it refuses the others
    pairs_s=$(echo "${NIC%%:*}" | awk -v reps="$REPS" '{ r = $0 + 0; u = substr($0, length($0) - 3, 1)
        r *= u == "k" ? 1e3 : u == "m" ? 1e6 : u == "g" ? 1e9 : 1; printf "%.0f", (r > 0 ? 2 * 2^21 * 8 * reps / r : 0) }')
    [ "$NODES" -lt 2 ] || [ "$pairs_s" -le 300 ] ||
        PAIRS_SKIP="not on links shaped to ${NIC%%:*}: the MPI_Issend method sends 2 MiB a repetition each way (1 byte to 1 MiB), about $pairs_s s at REPS=$REPS"
    ;;
esac
[ -z "$PAIRS_SKIP" ] || say "the two levels (--pairs) will be left out: $PAIRS_SKIP"

start=$(date +%s)
step 1/9 "dependencies and build"
sh "$ROOT/scripts/deps.sh"
make -s -C "$ROOT" -j2 tools
# Barriers under background traffic (lopbench --barrier --congest incast,
# Petrini et al. 5.2, GPCNeT): 2 timed ranks and 2 congesting ones, each on a
# core of its own (4 ranks on fewer cores would time the scheduler, not the
# traffic); CONGEST_SKIP says why not, else it is empty.
CONGEST_NP=4
CONGEST_SKIP=
if [ "$NODES" -ge 2 ]; then
    CONGEST_SKIP="not on the virtual cluster: mpirun places the congesting ranks (the last ones) on the last nodes, neither Petrini's layout nor GPCNeT's"
elif [ "$CORES" -lt "$CONGEST_NP" ]; then
    CONGEST_SKIP="$CONGEST_NP ranks needed (2 timed, 2 congesting, a core each), this machine has $CORES cores"
elif ! "$BIN/lopbench" --help 2>&1 | grep -q -e '--congest'; then
    CONGEST_SKIP="this lopbench has no --congest option"
fi
# OUT is made here and removed again unless the demo gets to its end: no
# half-made OUT.  (Not OUT.partial renamed at the end: the files name the
# paths they were made from, measured.csv its params.csv.)
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
COMPLETE=
# Every step of it runs even where one fails or its stderr is a pipe whose
# reader is gone (make demo | head): SIGPIPE ignored, no set -e.
cleanup() {
    trap '' PIPE
    set +e
    [ -z "$CLUSTER" ] || { sh "$ROOT/scripts/cluster.sh" down "$CLUSTER"; rm -rf "$CLUSTER"; }
    [ -n "$COMPLETE" ] || rm -rf "$OUT"
}
mkdir "$OUT"
trap cleanup EXIT
# A signal ends the demo as it ends lop's tools, with 128 + its number; SIGPIPE
# too (a reader of its messages gone), which would otherwise kill the shell
# without the EXIT trap and leave OUT half made.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
D=$OUT/data
mkdir "$D"
if [ "$NODES" -ge 2 ]; then
    CLUSTER=$(mktemp -d /tmp/lop-cluster.XXXXXX) # no spaces: launchers split the agent's path
    sh "$ROOT/scripts/cluster.sh" up "$CLUSTER" "$NODES" shared ${NIC:+--nic "$NIC"}
    say "a virtual cluster of $NODES nodes (node0..node$((NODES - 1)), network namespaces $(cat "$CLUSTER/tag")-*): one rank on each for the timed runs"
fi

WHERE="$NP local ranks ($CORES cores)"
[ "$NODES" -eq 0 ] || WHERE="$NODES nodes, one rank each${NIC:+, links shaped by tbf $(cat "$CLUSTER/nic")}"
# One launch measures the parameters and runs the barriers they predict: a
# machine may run one launch at another speed than the next (bench/README.md,
# "Modes").  Its report is the scenarios', then the barriers' from the line
# "lopbench <version> --barrier: ...".
step 2/9 "lopbench on $WHERE, one launch: scenarios 1 and 2, then every barrier algorithm -> $D"
ranks "$BIN/lopbench" --barrier --with-scenarios --reps "$REPS" --warmup $((REPS / 10)) -o "$D" \
    --quiet >"$OUT/launch.txt"
sed '/^lopbench [^ ]* --barrier:/,$d' "$OUT/launch.txt" >"$OUT/bench.txt"
sed -n '/^lopbench [^ ]* --barrier:/,$p' "$OUT/launch.txt" >"$OUT/barrier.txt"
rm "$OUT/launch.txt"
[ -s "$OUT/barrier.txt" ] || die "lopbench's report has no barrier part ($OUT/bench.txt)"
[ -n "$YIELD" ] || ! oversubscribed "$D" ||
    say "warning: lopbench found $NP ranks oversubscribed on this machine; the fits describe the scheduler"

step 3/9 "lopfit: model selection for RTT and the overheads"
"$BIN/lopfit" -o "$D" "$D"/*-rtt.csv "$D"/*-os.csv "$D"/*-or.csv >"$OUT/fit.txt"
# models.txt: the model lopfit chose for every fit, from how many points
awk -F, '
    /^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
         printf "%-14s %-5s %-4s %-10s %3s %-7s %-9s %-8s %-12s %s\n", "series", "qty", "stat", "model", "n", "p", "criterion", "margin", "weak", "hint"; next }
    function g(k) { return (k in c) ? $c[k] : "" }
    function d(v) { return v == "" ? "-" : v }
    { printf "%-14s %-5s %-4s %-10s %3s %-7s %-9s %-8s %-12s %s\n", g("series"), g("quantity"), g("stat"), g("model"),
          g("n"), g("pmin") ".." g("pmax"), d(g("criterion")), d(g("margin")), d(g("weak")), d(g("hint")) }
' "$D/params.csv" >"$OUT/models.txt"

# lopredict with the series this machine's predictions use: two-sided sends,
# minimum times.
predict() { "$BIN/lopredict" "$@" --params "$D/params.csv" --series send-normal --stat min; }
step 4/9 "lopredict --verify and --best with the fitted parameters"
predict --verify --p 2..64 >"$OUT/verify.txt"
predict --best --p 2,4,8,16,32,64 >"$OUT/best.txt"
for cnt in 2 5000; do
    predict --alg all --p 2..64 --cnt $cnt --csv >"$D/predict-cnt$cnt.csv"
done
predict --alg ndiss --n 1..10 --p 16,64,256 --cnt 5000 --csv >"$D/ndiss.csv"

step 5/9 "lopbench beyond the timed barriers: the two levels, background traffic"
[ -z "$PAIRS_SKIP" ] || say "[5/9] skipped the two levels: $PAIRS_SKIP"
if [ "$NODES" -ge 2 ] && [ -z "$PAIRS_SKIP" ]; then
    # Two ranks a node, one pair measured at a time (--pairs-sample: a pair
    # per placement class), so the measuring pair has the two cores.
    say "[5/9] lopbench --pairs --pairs-sample on $NODES nodes x 2 ranks: the two levels"
    cluster_mpi 2 "$BIN/lopbench" --pairs --pairs-sample --reps "$REPS" --warmup $((REPS / 10)) \
        -o "$D" --quiet >"$OUT/pairs.txt"
    # One machine per row: every L and o from the measured pairs, no fitted
    # set beside them (lopredict refuses --params with --costs).
    "$BIN/lopredict" --costs "$D/pairs.csv" --placement "$D/placement.csv" --hybrid-report \
        >"$OUT/hybrid.txt"
    # Four busy ranks on two cores: a correctness run, not a timed one; the
    # shm executor needs Open MPI's one-sided component over TCP (--check's
    # witness does not: two-sided across nodes).
    say "[5/9] the hybrid barrier built from those costs, under --check on the $((NODES * 2)) ranks"
    OMPI_MCA_osc=ucx cluster_mpi 2 "$BIN/lopbench" --barrier --check --alg hybrid \
        --pairs-file "$D/pairs.csv" --placement "$D/placement.csv" --reps 20 >"$OUT/hybrid-check.txt"
fi

CG=$OUT/congest
if [ -z "$CONGEST_SKIP" ]; then
    say "[5/9] lopbench --barrier --congest incast: 2 timed ranks, 2 congesting ($CONGEST_NP local ranks) -> $CG/data"
    mkdir -p "$CG/data"
    run_mpi "$CONGEST_NP" "$BIN/lopbench" --barrier --congest incast --congest-ranks 2 --reps "$REPS" \
        --warmup $((REPS / 10)) -o "$CG/data" --quiet >"$CG/barrier.txt"
else
    say "[5/9] skipped barriers under background traffic: $CONGEST_SKIP"
fi

step 6/9 "lopredict --measured: measured vs predicted, with 95 % intervals"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat min \
    >"$OUT/measured.txt"
"$BIN/lopredict" --measured "$D/barrier.csv" --params "$D/params.csv" --stat min --csv \
    >"$D/measured.csv"
awk -F, -f "$ROOT/scripts/demo-table.awk" -v model="$MODEL" "$D/measured.csv" >"$OUT/final.txt"
awk -F, -f "$ROOT/scripts/demo-table.awk" -v model="$MODEL" -v mode=csv "$D/measured.csv" \
    >"$OUT/final.csv"

step 7/9 "figures of this machine, and the thesis's (Mozart 2005) for comparison"
# plot.sh says which figures it skips and why (exit 0); a failure stops the demo
# like any other tool's (set -e), after showing what it said.
sh "$ROOT/plots/plot.sh" "$D" "$OUT/figures" 2>"$OUT/plots.txt" || {
    cat "$OUT/plots.txt" >&2
    exit 1
}
cat "$OUT/plots.txt" >&2
if [ -z "$CONGEST_SKIP" ]; then
    sh "$ROOT/plots/plot.sh" "$CG/data" "$CG/figures" distribution impact >"$CG/plots.txt" 2>&1 || {
        cat "$CG/plots.txt" >&2
        exit 1
    }
    cat "$CG/plots.txt" >&2
fi
sh "$ROOT/plots/figures-mozart.sh" "$OUT/figures-mozart" >"$OUT/figures-mozart.txt" 2>&1 || {
    cat "$OUT/figures-mozart.txt" >&2
    exit 1
}

# The oversubscribed run: more points of RTT(p), measured by ranks that share
# cores; only its own figures are made from it.
OV=
if [ "$OVER_NP" -gt "$CORES" ]; then
    OV=$OUT/oversubscribed-np$OVER_NP
    step 8/9 "oversubscribed: scenarios on $OVER_NP ranks on $CORES cores -> $OV (figures only, no predictions)"
    mkdir -p "$OV/data"
    run_mpi "$OVER_NP" "$BIN/lopbench" --reps "$REPS" --warmup $((REPS / 10)) -o "$OV/data" --quiet \
        >"$OV/bench.txt"
    "$BIN/lopfit" -o "$OV/data" "$OV/data"/*-rtt.csv "$OV/data"/*-os.csv "$OV/data"/*-or.csv \
        >"$OV/fit.txt"
    sh "$ROOT/plots/plot.sh" "$OV/data" "$OV/figures" rtt overhead latency 2>"$OV/plots.txt" || {
        cat "$OV/plots.txt" >&2
        exit 1
    }
else
    step 8/9 "no oversubscribed run (OVER_NP=$OVER_NP, $CORES cores)"
fi

step 9/9 "summary"
secs=$(($(date +%s) - start))
{
    echo "lop demo, $(date '+%Y-%m-%d %H:%M'), host $(hostname), $secs s"
    echo "scenarios and barriers on $WHERE, $CORES cores, $REPS repetitions"
    echo
    echo "== Measured (lopbench, $D) =="
    cat "$OUT/bench.txt"
    echo
    echo "== Models chosen (lopfit, $D/params.csv) =="
    cat "$OUT/models.txt"
    echo "RTT(p) was measured at p = 1..$((NP - 1)) ($NP ranks): the model selection can only pick"
    echo "what that many points support; predictions beyond the fitted p are extrapolated (flags)."
    # lopfit's own words where it could not select (a fit's report starts "<series> <qty> <stat>  (file)")
    awk '/^[a-z]+-[a-z]+ [a-z]+ [a-z]+  \(/ { fit = $1 " " $2 " " $3 }
         /not enough points to select/ { sub(/^ +/, ""); print fit ": " $0 }' "$OUT/fit.txt"
    echo
    echo "== Fits (lopfit) =="
    cat "$OUT/fit.txt"
    echo
    echo "== Best algorithm per P (lopredict --best, send-normal min; extrapolated beyond the fitted p) =="
    cat "$OUT/best.txt"
    echo
    echo "== Barriers measured (lopbench --barrier) =="
    cat "$OUT/barrier.txt"
    echo
    if [ -n "$PAIRS_SKIP" ]; then
        echo "== Two levels (lopbench --pairs --pairs-sample) =="
        echo "skipped: $PAIRS_SKIP"
        echo
    elif [ "$NODES" -ge 2 ]; then
        echo "== Two levels (lopbench --pairs --pairs-sample, $NODES nodes x 2 ranks) =="
        cat "$OUT/pairs.txt"
        echo
        echo "== The hybrid barrier from the measured costs (lopredict --hybrid-report, simulated LogP) =="
        cat "$OUT/hybrid.txt"
        grep '^--check' "$OUT/hybrid-check.txt"
        echo
    fi
    echo "== Barriers under background traffic (lopbench --barrier --congest incast) =="
    if [ -z "$CONGEST_SKIP" ]; then
        cat "$CG/barrier.txt"
        cat "$CG/plots.txt"
    else
        echo "skipped: $CONGEST_SKIP"
    fi
    echo
    echo "== Model errors (lopredict --measured) =="
    grep '^#' "$OUT/measured.txt" | grep -v -e '^# lopredict' -e '^# measured'
    echo
    echo "== Figures =="
    cat "$OUT/plots.txt"
    echo "thesis figures 2.36, 2.38, 2.39 from the Mozart set: $OUT/figures-mozart"
    if [ -n "$OV" ]; then
        echo
        echo "== Oversubscribed run: $OVER_NP ranks on $CORES cores (not used for any prediction) =="
        echo "data, fits and figures in $OV; lopfit chose:"
        awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
                 $c["quantity"] == "rtt" { printf "  %s rtt %s: %s on p = %s..%s\n", $c["series"], $c["stat"], $c["model"], $c["pmin"], $c["pmax"] }' \
            "$OV/data/params.csv"
    fi
    echo
    echo "== Measured vs predicted (lopredict --measured, $MODEL, stat min, each executor's series; also final.csv) =="
    cat "$OUT/final.txt"
} >"$OUT/summary.txt"
COMPLETE=1

cat "$OUT/final.txt" >&2
say "done in $secs s; everything is in $OUT:"
say "  summary.txt  models chosen, fits, best algorithm per P, model errors, the table above"
say "  final.csv    the table above as CSV"
say "  data/        lopbench, lopfit and lopredict CSVs"
say "  figures/     $(ls "$OUT/figures" 2>/dev/null | tr '\n' ' ')"
say "  figures-mozart/  the thesis's figures 2.36, 2.38, 2.39 from its published parameters"
[ -z "$OV" ] || say "  $(basename "$OV")/  the oversubscribed run's data and figures (no predictions)"
say "  bench.txt fit.txt models.txt verify.txt best.txt barrier.txt measured.txt  tool outputs"
[ "$NODES" -eq 0 ] || [ -n "$PAIRS_SKIP" ] ||
    say "  pairs.txt hybrid.txt hybrid-check.txt  the two levels and the hybrid barrier"
[ -n "$CONGEST_SKIP" ] ||
    say "  congest/     barriers isolated and under incast traffic: data/, figures/ (distribution.png, impact.png)"
