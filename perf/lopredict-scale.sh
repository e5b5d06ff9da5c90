#!/bin/sh
# perf/lopredict-scale.sh - lopredict at machine scale: per case the
# simulated time, wall time, CPU time and peak RSS (/usr/bin/time -v) and
# the load average beside it (the machine may be shared: compare CPU
# times, or the instruction counts of the callgrind set, which do not
# depend on the load).  Prints perf/README.md's entry (perf/lib.sh).
#
#   sh perf/lopredict-scale.sh [SET...]    SET: diss algs hybrid search verify callgrind
#                                          (default: diss algs hybrid search)
#   LOPREDICT=/path/to/lopredict sh perf/lopredict-scale.sh diss    another build
#
# diss:      diss at P = 2^20, 2^22, 2^24 (LogP L = 5, o = 1, g = 0: 7 us a round)
# algs:      every schedule algorithm at P = 2^22, its default n
# hybrid:    --alg hybrid --simulate on 1024x2x512 (2^20 ranks) and 9408x64 (602,112)
# search:    --hybrid-report on 64x2x32 at P = 4096, with and without rgm
# verify:    the checker (--verify) on diss, ndiss, cc and tour at P = 65536
# callgrind: instructions of diss and nwise at P = 2^18 (valgrind --tool=callgrind)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/perf/lib.sh"
B=${LOPREDICT:-$ROOT/bin/lopredict}
T=$(mktemp -d /tmp/lop-scale.XXXXXX)
trap 'rm -rf "$T"' EXIT
LOGP="--simulate --model logp --L 5 --o 1 --g 0 --csv"
HYB="--level-L 3,0.8,0.2 --level-o 0.5,0.3,0.1"

# one LABEL COLUMN ARGS...: a row: label, the first row's COLUMN of
# lopredict ARGS (a time in us), wall s, user s, peak RSS MB, load
one() {
    label=$1
    column=$2
    shift 2
    load=$(perf_load)
    /usr/bin/time -v "$B" "$@" >"$T/out" 2>"$T/time"
    rc=$?
    us=$(grep -v '^#' "$T/out" | awk -F, -v c="$column" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
                                                         { print $k[c]; exit }')
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/time" |
           awk -F: '{ print (NF == 3 ? $1 * 3600 + $2 * 60 + $3 : $1 * 60 + $2) }')
    user=$(sed -n 's/.*User time (seconds): //p' "$T/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time")
    [ $rc -eq 0 ] || us="exit $rc: $(grep -v '^\s' "$T/time" | head -1)"
    perf_row "$label" "$us" "$wall" "$user" "$((rss / 1024))" "$load"
}

diss() {
    for e in 20 22 24; do
        one "diss P=2^$e" sim_us --alg diss --p $((1 << e)) $LOGP
    done
}

# every algorithm with a schedule, from lopredict's own table
algs() {
    for a in $("$B" --list-algs --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                                               $c["schedule"] == "yes" { print $1 }'); do
        one "$a P=2^22" sim_us --alg $a --p 4194304 $LOGP
    done
}

hybrid() {
    one "hybrid 1024x2x512" sim_us --alg hybrid --topology 1024x2x512 $HYB --simulate --csv --timing
    one "hybrid 9408x64" sim_us --alg hybrid --topology 9408x64 --level-L 3,0.2 --level-o 0.5,0.1 \
        --simulate --csv --timing
}

# the hybrid's search alone: the result's time, every candidate and without rgm
search() {
    set -- --hybrid-report --topology 64x2x32 $HYB --or 0 --g 0 --p 4096 --csv --timing
    one "hybrid-report 64x2x32 P=4096" hybrid_us "$@"
    one "... without rgm" hybrid_us "$@" --hybrid-algs \
        "$("$B" --list-algs --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
              $c["schedule"] == "yes" && $1 != "rgm" { printf "%s%s", n++ ? "," : "", $1 }')"
}

# the checker: every rank's knowledge as bit sets, (ops + P) * P/64 word operations
verify() {
    for a in diss ndiss cc tour; do
        one "verify $a P=2^16" sim_us --verify --alg $a --p 65536 --model logp --L 5 --o 1 --g 0 --csv
    done
}

callgrind() {
    for a in diss nwise; do
        valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$B" --alg $a --p 262144 \
            $LOGP >/dev/null 2>"$T/vg"
        perf_row "$a P=2^18, instructions" "$(sed -n 's/.*Collected : //p' "$T/vg")" - - - -
    done
}

sets=${*:-diss algs hybrid search}
perf_title "sh perf/lopredict-scale.sh $sets"
perf_header case sim_us wall_s user_s rss_MB load1
for set in $sets; do
    case $set in
    diss | algs | hybrid | search | verify | callgrind) $set ;;
    *) echo "perf/lopredict-scale.sh: unknown set '$set' (diss, algs, hybrid, search, verify, callgrind)" >&2
       exit 2 ;;
    esac
done
