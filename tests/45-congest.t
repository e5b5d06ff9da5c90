#!/bin/sh
# 45-congest.t - lopbench --barrier --congest: every pattern runs on 5 ranks
# (3 congest, oversubscribed here) and writes barrier.csv,
# barrier-congested.csv and barrier-hist.csv whole and consistent; the
# congestors stop and leave no process; --congest-max bounds the traffic and
# says so; the scenarios measured under traffic; bad values stop every rank
# with one line and no DIR.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
B=$BIN/lopbench
REPS=20
H=executor,series,alg,n,p,reps,min_us,avg_us,median_us,p90_us,p99_us,p999_us,max_us,condition,impact_avg,impact_p99

# p50 <= p90 <= p99 <= p99.9 <= max and min <= avg <= max, every row.
ordered() {
    awk -F, '/^#/ || $1 == "executor" { next }
             { for (i = 7; i <= 13; i++) if ($i !~ /^[0-9.e+-]+$/ || $i <= 0) bad = 1
               if (!($9 <= $10 && $10 <= $11 && $11 <= $12 && $12 <= $13)) bad = 1
               if (!($7 <= $8 && $8 <= $13)) bad = 1; n++ }
             END { exit bad || n == 0 }' "$1"
}

# Each (executor, alg, n, p, condition) group's counts sum to reps, and
# every group of the two files has one.
hist_sums() {
    awk -F, -v reps=$REPS '/^#/ || $1 == "executor" { next }
        FILENAME ~ /hist/ { sum[$1 "," $3 "," $4 "," $5 "," $6] += $9; next }
        { want[$1 "," $3 "," $4 "," $5 "," $14] = 1 }
        END { for (k in want) if (sum[k] != reps) bad = 1
              for (k in sum) if (!(k in want)) bad = 1
              exit bad }' "$1/barrier.csv" "$1/barrier-congested.csv" "$1/barrier-hist.csv"
}

# impact_avg = avg_us(congested) / avg_us(isolated), likewise p99, within
# printing precision (the files hold 17 digits).
impacts_ok() {
    awk -F, '/^#/ || $1 == "executor" { next }
        FILENAME ~ /congested/ { k = $1 "," $3 "," $4 "," $5
            if (!(k in avg)) { bad = 1; next }
            if ($15 - $8 / avg[k] > 1e-9 * $15 || $8 / avg[k] - $15 > 1e-9 * $15) bad = 1
            if ($16 - $11 / p99[k] > 1e-9 * $16 || $11 / p99[k] - $16 > 1e-9 * $16) bad = 1
            n++; next }
        { avg[$1 "," $3 "," $4 "," $5] = $8; p99[$1 "," $3 "," $4 "," $5] = $11 }
        END { exit bad || n == 0 }' "$1/barrier.csv" "$1/barrier-congested.csv"
}

# No lopbench of this run is left (its -o names it alone).
none_left() { ! ps -eo args | grep -v grep | grep -qF -- "-o $1"; }

for pat in uniform complement incast; do
    D=$T/$pat
    run_mpi 5 "$B" --barrier --alg diss --executor p2p,mpi --reps $REPS --warmup 2 \
        --congest $pat --congest-ranks 3 --timeout 30 -o "$D" >"$T/$pat.out" 2>"$T/$pat.err"
    rc=$?
    check "$pat: exits 0" test $rc -eq 0
    [ $rc -eq 0 ] || diag "$(cat "$T/$pat.err")"
    for f in barrier.csv barrier-congested.csv barrier-hist.csv; do
        check "$pat: $f whole (header, '# unit:')" sh -c \
            "grep -q '^# unit: us$' '$D/$f' && [ \$(grep -c '^executor,' '$D/$f') -eq 1 ]"
    done
    check "$pat: barrier.csv's and barrier-congested.csv's header" \
        sh -c "grep -qx '$H' '$D/barrier.csv' && grep -qx '$H' '$D/barrier-congested.csv'"
    check "$pat: isolated rows, no impact; congested rows, impacts" sh -c "
        [ \$(grep -c '^[a-z0-9]*,[^,]*,[^,]*,[^,]*,2,.*,isolated,,\$' '$D/barrier.csv') -eq 2 ] &&
        [ \$(grep -c ',congested:$pat,[0-9.e+-]*,[0-9.e+-]*\$' '$D/barrier-congested.csv') -eq 2 ]"
    check "$pat: quantiles ordered in barrier.csv" ordered "$D/barrier.csv"
    check "$pat: quantiles ordered in barrier-congested.csv" ordered "$D/barrier-congested.csv"
    check "$pat: each histogram's counts sum to reps ($REPS)" hist_sums "$D"
    check "$pat: impact factors are congested / isolated (avg, p99)" impacts_ok "$D"
    check "$pat: '# condition:' says which" sh -c "
        [ \"\$(sed -n 's/^# condition: //p' '$D/barrier.csv')\" = isolated ] &&
        [ \"\$(sed -n 's/^# condition: //p' '$D/barrier-congested.csv')\" = congested:$pat ]"
    check "$pat: '# congest:' names the pattern and the layout" test \
        "$(meta "$D/barrier.csv" congest)" = \
        "$pat, 3 of 5 ranks congest (ranks 2-4), 4096 bytes, window 8, at most 100000000 messages each"
    msgs=$(meta "$D/barrier-congested.csv" congest_traffic | sed 's/ messages.*//')
    check "$pat: the congestors sent ($msgs messages) and the timed ranks stopped them" sh -c \
        "[ '${msgs:-0}' -gt 0 ] && grep -q '^# congest_traffic: .*; stopped by the timed ranks\$' '$D/barrier-congested.csv'"
    # 5 ranks on fewer CPUs share them, whatever CPU each started on
    if [ "$(nproc)" -lt 5 ]; then cores_re='^shared \((more ranks than CPUs on a machine: |[0-9]+ pairs of a timed rank).*\)$'
    else cores_re='^(separate|shared \(.*timed rank [0-9]+ and congestor rank [0-9]+ on .*:[0-9]+\))$'; fi
    check "$pat: '# congest_cores:' separate, or shared and why" \
        sh -c "sed -n 's/^# congest_cores: //p' '$D/barrier.csv' | grep -Eq '$cores_re'"
    check "$pat: no process left" none_left "$D"
    check "$pat: the summary has the condition and impact columns" \
        grep -q "congested:$pat" "$T/$pat.out"
    diag "$pat: $(grep -E '^(p2p|mpi) ' "$T/$pat.out" | tr -s ' ' | tr '\n' ';')"
done

"$BIN/lopredict" --measured "$T/uniform/barrier-congested.csv" --csv >"$T/m.csv" 2>"$T/m.err"
check "lopredict --measured reads barrier-congested.csv: condition column congested:uniform" \
    sh -c "[ $? -eq 0 ] && grep -q '^p2p,diss,,2,send-normal,.*,congested:uniform\$' '$T/m.csv'"

# The default split: 80 % of 5 ranks would leave 1 timed; 2 are kept.
run_mpi 5 "$B" --barrier --alg diss --executor mpi --reps 5 --warmup 1 --congest incast \
    --timeout 30 -o "$T/dflt" --quiet >/dev/null 2>&1
check "default --congest-ranks: 3 of 5, 2 timed" sh -c \
    "sed -n 's/^# congest: //p' '$T/dflt/barrier.csv' | grep -q '^incast, 3 of 5 ranks congest (ranks 2-4)'"

# The bound: one message each cannot cover the phase, and the run says so.
run_mpi 5 "$B" --barrier --alg diss --executor p2p --reps 5 --warmup 1 --congest uniform \
    --congest-ranks 3 --congest-max 1 --timeout 30 -o "$T/max" --quiet >/dev/null 2>"$T/max.err"
check "--congest-max 1: exits 0" test $? -eq 0
check "--congest-max 1: the metadata says 3 congestors reached it" \
    grep -q '^# congest_traffic: 3 messages, 12288 bytes .*; 3 congestors reached --congest-max$' \
    "$T/max/barrier-congested.csv"
check "--congest-max 1: stderr says the traffic did not cover the phase" \
    grep -q 'reached --congest-max 1: the traffic did not cover the whole congested phase' "$T/max.err"
check "--congest-max 1: no process left" none_left "$T/max"

# A run without --congest into that DIR: its barrier.csv is isolated only,
# so the earlier run's barrier-congested.csv goes (it would pair with it).
run_mpi 2 "$B" --barrier --alg diss --executor p2p --reps 5 --warmup 1 -o "$T/max" --quiet \
    >/dev/null 2>&1
check "a run without --congest into the DIR: exits 0, no barrier-congested.csv left" \
    sh -c "[ $? -eq 0 ] && [ -s '$T/max/barrier.csv' ] && [ ! -e '$T/max/barrier-congested.csv' ] &&
           ! grep -q '^# congest:' '$T/max/barrier.csv' && [ ! -e '$T/max/.lop-incomplete' ]"

# The scenarios under traffic: every series measured by the timed ranks
# while the congestors send, each file saying so; lopfit fits them as usual.
run_mpi 5 "$B" --transport mpi --congest incast --congest-ranks 3 --reps 10 --warmup 1 \
    --max-post 2 --idle-us 10 --timeout 30 -o "$T/scen" --quiet >"$T/scen.out" 2>"$T/scen.err"
check "scenarios --congest: exits 0" test $? -eq 0
check "scenarios --congest: every series file says the traffic, 2 timed ranks" sh -c "
    ls '$T/scen/'*.csv >/dev/null &&
    for f in '$T/scen/'*.csv; do
        grep -q '^# congest: incast, 3 of 5 ranks congest' \"\$f\" &&
        grep -q '^# congest_traffic: [1-9][0-9]* messages' \"\$f\" &&
        grep -qx '# ranks: 2' \"\$f\" || exit 1
    done"
check "scenarios --congest: no process left" none_left "$T/scen"
# 2 timed ranks fit this machine's cores, but with the congestors the job's
# 5 ranks share them: the timed ranks yield and the files say so.
if [ "$(nproc)" -lt 5 ]; then
    check "scenarios --congest: oversubscribed counts the congestors ($(nproc) cores, 5 ranks)" \
        test "$(meta "$T/scen/send-normal-rtt.csv" oversubscribed)" = yes
fi
"$BIN/lopfit" -o "$T/scenfit" "$T/scen/send-normal-rtt.csv" "$T/scen/send-normal-os.csv" \
    >"$T/scenfit.out" 2>&1
check "lopfit fits the loaded series as usual" test -s "$T/scenfit/params.csv"

# Bad values: every rank stops with one line, exit 2, no DIR.
refuses() {
    name=$1 pattern=$2 np=$3
    shift 3
    mpi_refuses "$name" "$pattern" "$np" "$B" --barrier --reps 2 -o "$T/o" "$@"
    check "$name: no DIR written" test ! -e "$T/o"
}
refuses "--congest bogus" "option --congest: unknown value 'bogus'" 3 --congest bogus
refuses "--congest-ranks 0" "option --congest-ranks: '0' is not in" 3 --congest incast \
    --congest-ranks 0
refuses "--congest-ranks x" "option --congest-ranks: 'x' is not an integer" 3 --congest incast \
    --congest-ranks x
refuses "--congest-ranks too many" "option --congest-ranks: 2 of 3 ranks congesting leaves 1" 3 \
    --congest incast --congest-ranks 2
refuses "--congest on 2 ranks" "option --congest-ranks: 0 of 2 ranks congesting" 2 \
    --congest incast
refuses "uniform with 1 congestor" "option --congest: uniform needs 2 congesting ranks" 3 \
    --congest uniform --congest-ranks 1
refuses "--p beyond the timed ranks" "option --p: 3 is more than the 2 timed ranks" 4 \
    --congest incast --congest-ranks 2 --p 3
refuses "--congest-size 0" "option --congest-size: '0' is not in" 3 --congest incast \
    --congest-size 0
refuses "--congest-window 0" "option --congest-window: '0' is not in" 3 --congest incast \
    --congest-window 0
refuses "--congest with --check" "option --congest: not with --check" 3 --congest incast --check
mpi_refuses "--congest with --pairs" "option --congest has no effect with --pairs" 3 "$B" \
    --pairs --congest incast -o "$T/o"
check "--congest with --pairs: no DIR written" test ! -e "$T/o"
mpi_refuses "scenarios --congest, too many" "option --congest-ranks: 2 of 3 ranks" 3 "$B" \
    --congest incast --congest-ranks 2 -o "$T/o"
check "scenarios --congest, too many: no DIR written" test ! -e "$T/o"
mpi_refuses "--congest-size without --congest" "option --congest-size: only with --congest" 3 \
    "$B" --barrier --congest-size 64 -o "$T/o"
check "--congest-size without --congest: no DIR written" test ! -e "$T/o"
done_testing
