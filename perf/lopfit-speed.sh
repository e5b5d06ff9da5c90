#!/bin/sh
# perf/lopfit-speed.sh - lopfit's time and SSR on long RTT series: the
# global search runs on a summary of the points (fit/README.md), which this
# measures up to 10^6 points.  Prints perf/README.md's entry (perf/lib.sh).
#
#   perf/lopfit-speed.sh [-n SIZES] [-r RUNS] [-w WEIGHT] [-t SECONDS] [-B REV | -b LOPFIT]
#
# Data: `lopfit --synth` of the thesis's rdmaw-inline RTT min parameters
# (data/mozart-2005/params.csv) over p = 1..N, 1 % relative noise, seed 1,
# for every N of SIZES (default "63 10000 100000 1000000").  Each file is
# fitted by `lopfit --stat min --weight WEIGHT --csv FILE` (model selection
# among rtt, rtt-nosat and const; WEIGHT default none, which every lopfit
# build takes, so that two builds solve the same problem).
# Prints one row per N and build: the wall time (the fastest of RUNS runs,
# default 1), the user CPU time of that run, the chosen model and its SSR
# (17 significant digits), and that SSR's relative difference to the first
# build's (0: the same number; below 0: lower).
#
# -B REV builds bin/lopfit of REV in a scratch git worktree outside the
# checkout, runs it as "before" next to this checkout's bin/lopfit
# ("after"), and removes the worktree; -b LOPFIT runs an existing binary as
# "before".  A run longer than -t SECONDS (default 1800) is stopped and
# reported as such.
#
# The machine's load (uptime) is printed before and after: on a shared
# machine the wall times are noisy (the user times less so); rerun on a
# quiet one for numbers to quote.  Environment: LOPFIT (default bin/lopfit).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$root/perf/lib.sh"
args=$(perf_quote "$@")
LOPFIT=${LOPFIT:-$root/bin/lopfit}
sizes="63 10000 100000 1000000"
runs=1
weight=none
limit=1800
before_rev=
before=
usage() {
    echo "usage: $0 [-n SIZES] [-r RUNS] [-w WEIGHT] [-t SECONDS] [-B REV | -b LOPFIT]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    -n) sizes=$2 ;;
    -r) runs=$2 ;;
    -w) weight=$2 ;;
    -t) limit=$2 ;;
    -B) before_rev=$2 ;;
    -b) before=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -x "$LOPFIT" ] || { echo "$0: $LOPFIT not built (make tools)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fit-speed.XXXXXX") || exit 2
cleanup() {
    [ -z "$before_rev" ] || git -C "$root" worktree remove --force "$tmp/before-tree" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$before_rev" ]; then
    echo "$0: building lopfit of $before_rev in a scratch worktree" >&2
    git -C "$root" worktree add --detach "$tmp/before-tree" "$before_rev" >/dev/null 2>&1 &&
        make -C "$tmp/before-tree" -j2 bin/lopfit >"$tmp/build.log" 2>&1 ||
        { echo "$0: building $before_rev failed (see make's output):" >&2; tail -5 "$tmp/build.log" >&2; exit 1; }
    before=$tmp/before-tree/bin/lopfit
fi

# A parameter set of the rdmaw-inline RTT min fit over p = 1..$1.
params_for() {
    grep -v '^#' "$root/data/mozart-2005/params.csv" | head -n 1
    grep '^[^#].*,rdmaw-inline,rtt,min,' "$root/data/mozart-2005/params.csv" |
        awk -F, -v OFS=, -v n="$1" '{ $6 = n; $8 = n; print }'
}

# Column $1 of the data row of lopfit --csv output $2 (header names it).
csv_cell() {
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                       k { print $k; exit }' "$2"
}

# "wall user" seconds of one run of lopfit $1 on file $2 (output in $3), or
# "timeout" / "failed".
one_run() {
    start=$(date +%s%N)
    if command -v /usr/bin/time >/dev/null; then
        timeout "$limit" /usr/bin/time -f '%U' -o "$3.time" "$1" --stat min --weight "$weight" \
            --csv "$2" >"$3" 2>"$3.err"
    else
        timeout "$limit" "$1" --stat min --weight "$weight" --csv "$2" >"$3" 2>"$3.err"
    fi
    rc=$?
    end=$(date +%s%N)
    [ $rc -eq 124 ] && { echo timeout; return; }
    [ $rc -eq 0 ] || { echo failed; return; }
    user=$(tail -n 1 "$3.time" 2>/dev/null || echo -)
    echo "$(( (end - start) / 1000000 )) $user" | awk '{ printf "%.2f %s\n", $1 / 1000, $2 }'
}

perf_title "perf/lopfit-speed.sh${args:+ $args}"
echo "Load before: $(uptime | sed 's/.*load average: //')."
echo
perf_header N build wall_s user_s model ssr vs_first
for n in $sizes; do
    params_for "$n" >"$tmp/set$n.csv"
    "$LOPFIT" --synth "$tmp/set$n.csv" --noise 0.01 --seed 1 -o "$tmp/syn$n" 2>/dev/null ||
        { echo "$0: lopfit --synth failed for N = $n" >&2; exit 1; }
    file=$tmp/syn$n/rdmaw-inline-rtt.csv
    first=
    for build in before after; do
        bin=$LOPFIT
        if [ "$build" = before ]; then
            [ -n "$before" ] || continue
            bin=$before
        fi
        best=
        r=0
        while [ $r -lt "$runs" ]; do
            t=$(one_run "$bin" "$file" "$tmp/out")
            r=$((r + 1))
            case $t in timeout | failed) best=$t; break ;; esac
            if [ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
                best=$t
                cp "$tmp/out" "$tmp/best"
            fi
        done
        case $best in
        timeout) perf_row "$n" "$build" ">$limit" - - - -; continue ;;
        failed) perf_row "$n" "$build" "failed: $(head -n 1 "$tmp/out.err")" - - - -; continue ;;
        esac
        ssr=$(csv_cell ssr "$tmp/best")
        [ -n "$first" ] || first=$ssr
        perf_row "$n" "$build" "${best% *}" "${best#* }" "$(csv_cell model "$tmp/best")" "$ssr" \
            "$(awk -v a="$ssr" -v b="$first" 'BEGIN { printf "%.2g", a / b - 1 }')"
    done
done
echo
echo "Load after: $(uptime | sed 's/.*load average: //')."
