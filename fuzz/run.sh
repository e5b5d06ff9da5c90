#!/bin/sh
# run.sh - run the libFuzzer harnesses built by make fuzz-build (fuzz/README.md).
#   fuzz/run.sh SECONDS [HARNESS...]   fuzz each (default: all) for SECONDS
#   fuzz/run.sh --seeds                only make the seed corpora
# Dictionaries: fuzz/dict/opts.dict for the option harnesses, csv.dict else.
# Seeds: fuzz/corpus/<harness>/ (kept in the repository) and the repository's
# own files of that kind (copied to build/fuzz/seed/<harness>/).  New inputs
# go to $W/corpus/<harness>/, crashes to $W/artifacts/<harness>/, the log to
# $W/log/<harness>.log, where W is $FUZZ_WORK (default build/fuzz).  Extra
# libFuzzer options: $FUZZ_ARGS (e.g. -seed=1; or "-fork=1 -ignore_crashes=1"
# to go on past a known defect, a new artifact still fails the run).  Exit status 1 if any
# harness stopped on a crash, leak, sanitizer report, timeout or OOM.
set -u
cd "$(dirname "$0")/.." || exit 2
B=build/fuzz
W=${FUZZ_WORK:-$B}

# The repository's files each harness starts from (besides fuzz/corpus/).
seed_files() {
    case $1 in
    fuzz_csv) ls tests/data/plots/*.csv data/mozart-2005/params.csv ;;
    fuzz_params) ls data/mozart-2005/params.csv tests/data/plots/params.csv ;;
    fuzz_measured) ls tests/data/plots/barrier.csv ;;
    fuzz_fitdata) ls tests/data/plots/send-*-*.csv tests/data/plots/rdmaw-*-*.csv ;;
    fuzz_sched) ls tests/data/goal/*.goal ;;
    fuzz_pairs) ls tests/data/pairs/pairs*.csv tests/data/pairs/machine-rr.csv ;;
    fuzz_placement) ls tests/data/pairs/placement.csv ;;
    esac
}

dict() { case $1 in fuzz_opts_*) echo fuzz/dict/opts.dict ;; *) echo fuzz/dict/csv.dict ;; esac; }

harnesses() { ls fuzz/fuzz_*.c | sed 's|fuzz/\(.*\)\.c|\1|'; }

make_seeds() {
    for h in $(harnesses); do
        rm -rf "$B/seed/$h"
        mkdir -p "$B/seed/$h"
        for f in $(seed_files "$h"); do cp "$f" "$B/seed/$h/"; done
    done
}

# Options of every run: the limits a single input must keep (tests/95-fuzz.t too).
# FUZZ_TIMEOUT: seconds an input may take (wall clock, as libFuzzer counts);
# the suite passes a hang guard instead, so a busy machine cannot fail it.
FUZZ_OPTS="-rss_limit_mb=2048 -timeout=${FUZZ_TIMEOUT:-10} -print_final_stats=1"

# fuzz HARNESS SECONDS [OPTIONS...]: one run; prints a one-line summary.
fuzz() {
    h=$1 s=$2
    shift 2
    mkdir -p "$W/corpus/$h" "$W/artifacts/$h" "$W/log"
    dirs="$W/corpus/$h $B/seed/$h"
    [ -d "fuzz/corpus/$h" ] && dirs="$dirs fuzz/corpus/$h"
    found=$(ls "$W/artifacts/$h" | wc -l)
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$B/$h" $FUZZ_OPTS -max_total_time="$s" -artifact_prefix="$W/artifacts/$h/" \
        -dict="$(dict "$h")" ${FUZZ_ARGS:-} "$@" $dirs >"$W/log/$h.log" 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    # with -ignore_crashes libFuzzer may exit 0: a new artifact is a failure
    [ $rc -eq 0 ] && [ "$(ls "$W/artifacts/$h" | wc -l)" -gt "$found" ] && rc=1
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/log/$h.log")
    # -fork=N prints no final stats: its last progress line counts the runs
    [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$W/log/$h.log" | tail -1)
    echo "$h: ${runs:-?} executions in $took s, exit $rc ($W/log/$h.log)"
    [ $rc -eq 0 ] || grep -m3 -e 'ERROR' -e 'runtime error' -e '^SUMMARY' -e '^artifact' \
        "$W/log/$h.log" | sed 's/^/  /'
    return $rc
}

if [ "${1:-}" = "--seeds" ]; then
    make_seeds
    exit 0
fi
[ $# -ge 1 ] || { echo "usage: fuzz/run.sh SECONDS [HARNESS...]" >&2; exit 2; }
seconds=$1
shift
make_seeds
failed=0
for h in ${*:-$(harnesses)}; do
    fuzz "$h" "$seconds" || failed=1
done
exit $failed
