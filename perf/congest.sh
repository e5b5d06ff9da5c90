#!/bin/sh
# congest.sh - barriers under background traffic (lopbench --barrier
# --congest, bench/README.md "Background traffic"): per pattern, every
# algorithm's mean and p99 isolated and congested, the impact factors
# (congested / isolated, GPCNeT's Congestion Impact Factor) and the ranking
# in each condition.  Then the loaded model: LoP fitted to scenarios measured
# under the same traffic, against the congested barriers, beside the idle
# fit against both.  Prints an entry of perf/README.md (perf/lib.sh).
#   MACHINE, NODES, NIC, MPI, NP, PPN  the machine (scripts/machine.sh)
#   K=2            congesting ranks: the last K of the job
#   PATTERNS="uniform complement incast"
#   REPS=200       barriers timed per algorithm and condition
#   SIZE=4096      bytes per background message; WINDOW=8 in flight each
#   LOADED=1       also the loaded model (0: the barriers only)
#   EXECUTOR=p2p   the executor timed (with MPI_Barrier beside it)
#   ALGS=all       the algorithms timed (lopbench --alg)
#   FIGURES=       a directory: each pattern's distribution and impact
#                  figures (plots/plot.sh) go into FIGURES/<pattern>
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOL=congest.sh
. "$ROOT/scripts/machine.sh"
. "$ROOT/perf/lib.sh"
K=${K:-2}
PATTERNS=${PATTERNS:-uniform complement incast}
REPS=${REPS:-200}
SIZE=${SIZE:-4096}
WINDOW=${WINDOW:-8}
LOADED=${LOADED:-1}
EXECUTOR=${EXECUTOR:-p2p}
ALGS=${ALGS:-all}
FIGURES=${FIGURES:-}
machine_check
whole K "$K"; whole REPS "$REPS"; whole SIZE "$SIZE"; whole WINDOW "$WINDOW"
[ "$REPS" -ge 10 ] || die "REPS=$REPS: at least 10 (a tenth of them warm up)"
[ $((RANKS - K)) -ge 2 ] || die "K=$K: leaves fewer than 2 of the $RANKS ranks to time"
case $LOADED in 0 | 1) ;; *) die "LOADED=$LOADED: expected 0 or 1" ;; esac
for p in $PATTERNS; do
    case $p in uniform | complement | incast) ;; *) die "PATTERNS: '$p' is not uniform, complement or incast" ;; esac
done

machine_build
W=$(mktemp -d /tmp/lop-congest.XXXXXX)
trap 'machine_down; rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
machine_up
TRAFFIC="--congest-ranks $K --congest-size $SIZE --congest-window $WINDOW"

# an awk prefix: skips metadata, maps each file's header's names to c[NAME]
cols='FNR == 1 { h = 0 } /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }'
# median |err_lop| (per cent) and rows of lopredict --measured --csv FILE
lop_error() {
    awk -F, "$cols"' $c["executor"] != "mpi" && $c["err_lop"] != "" {
            v = $c["err_lop"]; a[++n] = v < 0 ? -v : v }
        END { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
              if (!n) { print "-"; exit }
              printf "%.0f %% (%d rows)", 100 * (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2), n }' "$1"
}
# fit DIR: lopfit of the scenarios in DIR (their params.csv beside them)
fit() {
    "$BIN/lopfit" --stat avg -o "$1" "$1"/*-rtt.csv "$1"/*-os.csv "$1"/*-or.csv >/dev/null
}
# predict BARRIER PARAMS OUT: lopredict --measured, the mean compared
predict() {
    "$BIN/lopredict" --measured "$1" --params "$2" --stat avg --csv >"$3"
}

perf_title "MACHINE=$MACHINE${CLUSTER:+ NODES=$NODES PPN=$PPN}$([ "$MACHINE" = lab ] && echo " NIC=$NIC") MPI=$MPI K=$K REPS=$REPS WINDOW=$WINDOW ALGS=$ALGS PATTERNS='$PATTERNS' sh perf/congest.sh"
echo "$WHAT; $MPI_VERSION; $K of $RANKS ranks congest ($SIZE-byte messages, $WINDOW in flight each); load $(perf_load) at the start."
if [ "$LOADED" = 1 ]; then
    bench "$W" idle --scenario 1,2 --reps "$REPS" --warmup $((REPS / 10)) --max-post 4 -o "$W/idle" --quiet
    fit "$W/idle"
fi
for pattern in $PATTERNS; do
    D=$W/$pattern
    bench "$W" "$pattern" --barrier --executor "$EXECUTOR,mpi" --alg "$ALGS" --congest "$pattern" $TRAFFIC \
        --reps "$REPS" --warmup $((REPS / 10)) -o "$D" --quiet
    echo
    echo "Pattern $pattern: $(sed -n 's/^# congest_cores: /congestors and timed ranks: /p' "$D/barrier-congested.csv" | head -n 1); $(sed -n 's/^# congest_traffic: //p' "$D/barrier-congested.csv" | head -n 1)."
    echo
    perf_header alg "isolated mean (us)" "congested mean (us)" "impact mean" "isolated p99 (us)" \
        "congested p99 (us)" "impact p99" "rank isolated -> congested"
    awk -F, "$cols"' { k = $c["executor"] "," $c["alg"] "," $c["n"]; f = FILENAME ~ /congested/
            if (f) { cm[k] = $c["avg_us"]; cq[k] = $c["p99_us"]; ia[k] = $c["impact_avg"]; iq[k] = $c["impact_p99"] }
            else { im[k] = $c["avg_us"]; iqq[k] = $c["p99_us"]; name[k] = ($c["executor"] == "mpi" ? "MPI_Barrier" : $c["alg"] ($c["n"] != "" ? " n=" $c["n"] : "")) } }
        END { for (k in im) { ki[++n] = k }
              # ranks by mean in each condition
              for (i = 1; i <= n; i++) { ri[ki[i]] = 1; rc[ki[i]] = 1
                  for (j = 1; j <= n; j++) { if (im[ki[j]] < im[ki[i]]) ri[ki[i]]++; if (cm[ki[j]] < cm[ki[i]]) rc[ki[i]]++ } }
              for (i = 1; i <= n; i++) { k = ki[i]
                  printf "%d|%s|%.1f|%.1f|%.2f|%.1f|%.1f|%.2f|%d -> %d\n", ri[k], name[k], im[k], cm[k], ia[k], iqq[k], cq[k], iq[k], ri[k], rc[k] } }' \
        "$D/barrier.csv" "$D/barrier-congested.csv" | sort -t'|' -k1,1n | cut -d'|' -f2- |
        while IFS='|' read -r a b c d e f g h; do perf_row "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h"; done
    [ -z "$FIGURES" ] || { mkdir -p "$FIGURES/$pattern" &&
        sh "$ROOT/plots/plot.sh" "$D" "$FIGURES/$pattern" distribution impact >&2; }
    if [ "$LOADED" = 1 ]; then
        bench "$W" "$pattern-scen" --scenario 1,2 --congest "$pattern" $TRAFFIC --reps "$REPS" \
            --warmup $((REPS / 10)) --max-post 4 -o "$D-loaded" --quiet
        fit "$D-loaded"
        predict "$D/barrier.csv" "$W/idle/params.csv" "$D/idle-isolated.csv"
        predict "$D/barrier-congested.csv" "$W/idle/params.csv" "$D/idle-congested.csv"
        predict "$D/barrier-congested.csv" "$D-loaded/params.csv" "$D/loaded-congested.csv"
        echo
        echo "LoP (mean), median |error| over the $EXECUTOR rows: idle fit vs isolated barriers $(lop_error "$D/idle-isolated.csv"); idle fit vs congested $(lop_error "$D/idle-congested.csv"); loaded fit (scenarios under $pattern traffic) vs congested $(lop_error "$D/loaded-congested.csv")."
    fi
done
echo
echo "Means and p99 of $REPS barriers per algorithm and condition (p99: the slowest-mean rank's iterations); load $(perf_load) at the end."
