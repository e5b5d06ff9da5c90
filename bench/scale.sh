#!/bin/sh
# bench/scale.sh - lopredict at machine scale (issue 22): per case the wall
# time, CPU time and peak RSS (/usr/bin/time -v) and the load average beside
# it (the machine may be shared: compare CPU times, or the instruction
# counts of the callgrind set, which do not depend on the load).
#
#   sh bench/scale.sh [SET...]    SET: diss algs hybrid callgrind (default: diss algs hybrid)
#   LOPREDICT=/path/to/lopredict sh bench/scale.sh diss    another build (e.g. before a change)
#
# diss:      diss at P = 2^20, 2^22, 2^24 (LogP L = 5, o = 1, g = 0: 7 us a round)
# algs:      every schedule algorithm at P = 2^22, its default n
# hybrid:    --alg hybrid --simulate on 1024x2x512 (2^20 ranks) and 9408x64 (602,112)
# callgrind: instructions of diss and nwise at P = 2^18 (valgrind --tool=callgrind)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${LOPREDICT:-$ROOT/bin/lopredict}
T=$(mktemp -d /tmp/lop-scale.XXXXXX)
trap 'rm -rf "$T"' EXIT
LOGP="--simulate --model logp --L 5 --o 1 --g 0 --csv"
HYB="--level-L 3,0.8,0.2 --level-o 0.5,0.3,0.1"

# one LABEL ARGS...: a row: label, simulated us, wall s, user s, peak RSS MB, load
one() {
    label=$1
    shift
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -v "$B" "$@" >"$T/out" 2>"$T/time"
    rc=$?
    us=$(grep -v '^#' "$T/out" | sed -n '2p' | awk -F, '{ print $(NF-3) }')
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/time" |
           awk -F: '{ print (NF == 3 ? $1 * 3600 + $2 * 60 + $3 : $1 * 60 + $2) }')
    user=$(sed -n 's/.*User time (seconds): //p' "$T/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time")
    [ $rc -eq 0 ] || us="exit $rc: $(grep -v '^\s' "$T/time" | head -1)"
    printf '%-28s %12s %8s %8s %8s %6s\n' "$label" "$us" "$wall" "$user" \
        "$((rss / 1024))" "$load"
}

header() { printf '%-28s %12s %8s %8s %8s %6s\n' case sim_us wall_s user_s rss_MB load1; }

diss() {
    for e in 20 22 24; do
        one "diss P=2^$e" --alg diss --p $((1 << e)) $LOGP
    done
}

# every algorithm with a schedule, from lopredict's own table
algs() {
    for a in $("$B" --list-algs --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                                               $c["schedule"] == "yes" { print $1 }'); do
        one "$a P=2^22" --alg $a --p 4194304 $LOGP
    done
}

hybrid() {
    one "hybrid 1024x2x512" --alg hybrid --topology 1024x2x512 $HYB --simulate --csv --timing
    one "hybrid 9408x64" --alg hybrid --topology 9408x64 --level-L 3,0.2 --level-o 0.5,0.1 \
        --simulate --csv --timing
}

callgrind() {
    for a in diss nwise; do
        valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$B" --alg $a --p 262144 \
            $LOGP >/dev/null 2>"$T/vg"
        printf '%-28s %s instructions\n' "$a P=2^18" \
            "$(sed -n 's/.*Collected : //p' "$T/vg")"
    done
}

echo "# $B, $(nproc) cores, $(date '+%Y-%m-%d %H:%M')"
header
for set in ${@:-diss algs hybrid}; do
    case $set in
    diss | algs | hybrid | callgrind) $set ;;
    *) echo "bench/scale.sh: unknown set '$set' (diss, algs, hybrid, callgrind)" >&2; exit 2 ;;
    esac
done
