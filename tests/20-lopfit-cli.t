#!/bin/sh
# 20-lopfit-cli.t - lopfit end to end: lopbench-format CSVs generated from
# known parameters with seeded GSL noise (lopfit --synth), the fits and the
# files -o writes, --from-params, determinism, and every bad input: one line
# "lopfit: file:line: reason", a non-zero exit and nothing written.
. "$(dirname "$0")/lib.sh"
LOPFIT=$BIN/lopfit
tmpdir >/dev/null
T=$_d
HEADER=file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,se1,se2,se3,se4,se5,se6
COV=cov11,cov12,cov13,cov14,cov15,cov16,cov22,cov23,cov24,cov25,cov26,cov33,cov34,cov35,cov36,cov44,cov45,cov46,cov55,cov56,cov66
HEADER_NEW=$HEADER,$COV,weak,hint,criterion,k,aicc,bic,margin

cat >"$T/truth.csv" <<EOF
$HEADER
test,send-normal,rtt,min,rtt,31,1,31,20,0.2,5,3,-0.08,1,,,,,,,,,
test,send-normal,rtt,avg,rtt,31,1,31,30,0.3,8,4,-0.06,1,,,,,,,,,
test,send-normal,os,min,ov,16,1,16,0.5,0.8,-0.1,,,,,,,,,,,,
test,send-normal,os,avg,ov,16,1,16,0.6,0.9,-0.1,,,,,,,,,,,,
test,send-list,os,min,ov,16,1,16,0.15,1.1,-0.2,,,,,,,,,,,,
test,send-list,os,avg,ov,16,1,16,0.2,1.2,-0.2,,,,,,,,,,,,
EOF

# ---- synthetic data and a fit of it
check "--synth writes lopbench-format files" \
    "$LOPFIT" --synth "$T/truth.csv" --noise 0.01 --seed 5 -o "$T/data"
check "--synth: one file per series and quantity" \
    test -f "$T/data/send-normal-rtt.csv" -a -f "$T/data/send-normal-os.csv" -a -f "$T/data/send-list-os.csv"
"$LOPFIT" --synth "$T/truth.csv" --noise 0.0123456789 --seed 5 -o "$T/data-noise" 2>/dev/null
check "--synth: '# source:' gives --noise exactly (metadata numbers are exact; %g would cut it)" \
    grep -q '^# source: lopfit --synth .* (relative noise 0.0123456789, seed 5)$' "$T/data-noise/send-normal-rtt.csv"
check "--synth: 31 rtt rows with min and avg" \
    test "$(grep -c '^[0-9][0-9]*,,[0-9.]*,[0-9.]*,,,,$' "$T/data/send-normal-rtt.csv")" = 31

check "fit the synthetic files with -o" \
    sh -c "'$LOPFIT' --compare '$T'/data/*.csv -o '$T/out' >'$T/report.txt' 2>'$T/err.txt'"
# cells COLS of the table rows matching WHERE (plots/csvsel.awk)
cells() { awk -F, -f "$ROOT/plots/csvsel.awk" -v cols="$2" -v where="${3:-}" "$1" | tail -n +2; }
# series,quantity,stat of the rows of params.csv FILE with the LogP line (KIND
# linear) or another model (KIND model), sorted; the rounds lopfit derives
# from rtt files (quantity round) left out unless the third argument is "round"
fit_keys() {
    cells "$1" series,quantity,stat,model |
        awk -F, -v kind="$2" -v round="${3:-}" '($2 != "round" || round) && ($4 == "linear") == (kind == "linear") { print $1 "," $2 "," $3 }' | sort
}
# params.csv FILE: the header, and for each row of the truth (whichever
# model selection chose) a model row and a LogP line
params_rows_ok() {
    _keys=$(cells "$T/truth.csv" series,quantity,stat | sort)
    grep -qx "$HEADER_NEW" "$1" && test -n "$_keys" &&
        test "$(fit_keys "$1" model)" = "$_keys" -a "$(fit_keys "$1" linear)" = "$_keys"
}
check "params.csv: header, a model row for each row of the truth, and a LogP line for each" \
    params_rows_ok "$T/out/params.csv"
check "params.csv: a round row (bucket or linear) for each rtt row of the truth" \
    test "$(cells "$T/out/params.csv" series,stat,model quantity=round | sed 's/,bucket$//; s/,linear$//' | sort -u)" = \
         "$(cells "$T/truth.csv" series,stat quantity=rtt | sort)"
TABLE=p,rtt_us,rtt_lo_us,rtt_hi_us,os_us,os_lo_us,os_hi_us,or_us,or_lo_us,or_hi_us,L_us,L_lo_us,L_hi_us,Llist_us,Llist_lo_us,Llist_hi_us,extrapolated,notes
check "tables for min and avg, p = 1..16 (the os range)" \
    sh -c "for s in min avg; do f='$T/out/lop-send-normal-'\$s.csv
             grep -qx '$TABLE' \$f || exit 1
             test \$(grep -c '^[0-9]' \$f) = 16 || exit 1; done"
check "table: or_us and its interval empty without an or fit, Llist_us from send-list" \
    test "$(cells "$T/out/lop-send-normal-min.csv" or_us,or_lo_us,or_hi_us p=5)" = ",," -a \
         -n "$(cells "$T/out/lop-send-normal-min.csv" Llist_us,Llist_lo_us p=5 | tr -d ,)"
inside() { # table quantity (L): every row has lo <= value <= hi, lo < hi
    cells "$1" "$2_us,$2_lo_us,$2_hi_us" | awk -F, '{ n++ } $2 == "" || !($2 <= $1 && $1 <= $3 && $2 < $3) { bad++ }
        END { exit !(n > 0 && !bad) }'
}
for c in rtt os L Llist; do
    check "table: every ${c}_us inside its 95 % interval" inside "$T/out/lop-send-normal-avg.csv" $c
done
check "table: extrapolated 0 inside the fitted range" \
    test "$(cells "$T/out/lop-send-normal-min.csv" extrapolated | sort -u)" = 0
# curves_ok DIR KEYS: DIR's curve files are curve-SERIES-QUANTITY-STAT.csv,
# one for each series,quantity,stat line of KEYS (not empty), and no other
curves_ok() {
    _want=$(printf '%s\n' "$2" | awk -F, 'NF { print "curve-" $1 "-" $2 "-" $3 ".csv" }' | sort)
    test -n "$_want" && test "$(cd "$1" && ls curve-*.csv | sort)" = "$_want"
}
check "curves: one per fit of params.csv but the LogP lines" \
    curves_ok "$T/out" "$(fit_keys "$T/out/params.csv" model round)"
check "curves: 256 points over pmin..pmax" \
    sh -c "test \$(grep -c '^[0-9]' '$T/out/curve-send-normal-rtt-min.csv') = 256 &&
           grep -qx '# model: rtt' '$T/out/curve-send-normal-rtt-min.csv' &&
           grep -qx 'p,fit_us,lo_us,hi_us,extrapolated' '$T/out/curve-send-normal-rtt-min.csv' &&
           grep -q '^31,' '$T/out/curve-send-normal-rtt-min.csv'"
check "curves: the fit inside its interval" \
    sh -c "awk -F, '/^[0-9]/ { n++; if (!(\$3 <= \$2 && \$2 <= \$4 && \$3 < \$4)) bad++ } END { exit !(n == 256 && !bad) }' '$T/out/curve-send-list-os-avg.csv'"
check "report: parameters, SSR and the LogP comparison" \
    sh -c "grep -q 'send-normal rtt min' '$T/report.txt' && grep -q 'SSR' '$T/report.txt' &&
           grep -q 'LogP line' '$T/report.txt'"

# the fitted curves follow the generating ones within the 1 % noise
rmsdev() { # table column-number formula: rms relative deviation
    grep '^[0-9]' "$1" | awk -F, -v c="$2" "{ p = \$1; want = $3;
        d = (\$c - want) / want; s += d * d; n++ } END { print sqrt(s / n) }"
}
check "rtt curve within the 1 % noise of the generating one" \
    awk -v d="$(rmsdev "$T/out/lop-send-normal-min.csv" 2 '20/(0.2+p) + 5 + 3*(1-exp(-0.08*(p-1)))')" \
    'BEGIN { exit !(d < 0.01) }'
check "os curve within the 1 % noise of the generating one" \
    awk -v d="$(rmsdev "$T/out/lop-send-normal-avg.csv" 5 '0.6 + 0.9/(p-0.1)')" \
    'BEGIN { exit !(d < 0.01) }'

# ---- --from-params, determinism, --csv
same_tables() { # dir1 dir2: the same lop-*.csv, metadata aside
    for f in "$1"/lop-*.csv; do
        grep -v '^#' "$f" >"$T/a" && grep -v '^#' "$2/$(basename "$f")" >"$T/b" &&
            cmp -s "$T/a" "$T/b" || return 1
    done
}
"$LOPFIT" --from-params "$T/out/params.csv" -o "$T/again" 2>/dev/null
check "--from-params regenerates the same tables, intervals included (covariance read back)" \
    same_tables "$T/out" "$T/again"
check "--from-params: the intervals contain the fitted values" inside "$T/again/lop-send-normal-min.csv" L
"$LOPFIT" --from-params "$T/truth.csv" -o "$T/truth-tables" 2>/dev/null
check "--from-params without covariance: empty interval cells" \
    test "$(cells "$T/truth-tables/lop-send-normal-min.csv" rtt_lo_us,os_hi_us,L_lo_us,Llist_hi_us | sort -u)" = ",,,"
check "--from-params: a curve for each fit of the parameter set" \
    curves_ok "$T/truth-tables" "$(fit_keys "$T/truth.csv" model)"
check "--from-params without covariance: curves with empty lo, hi" \
    sh -c "test \"\$(grep '^[0-9]' '$T/truth-tables/curve-send-normal-os-min.csv' | cut -d, -f3,4 | sort -u)\" = ,"
awk -F, '/^[0-9]/ && $1 < 3 { next } { print }' "$T/data/send-normal-rtt.csv" >"$T/from3-rtt.csv"
"$LOPFIT" "$T/from3-rtt.csv" "$T/data/send-normal-os.csv" -o "$T/from3" >/dev/null 2>"$T/from3.err"
check "extrapolated: 1 for the rows p = 1, 2 below the rtt data, one warning line per table" \
    sh -c "test \"\$(awk -F, -f '$ROOT/plots/csvsel.awk' -v cols=p,extrapolated -v where=extrapolated=1 '$T/from3/lop-send-normal-min.csv' | tail -n +2 | tr '\n' ' ')\" = '1,1 2,1 ' &&
           test \$(grep -c 'lop-send-normal-min.csv: p = 1..2 (2 rows) outside the fitted range 3..16, extrapolated' '$T/from3.err') = 1"
check "same seed, identical params.csv" \
    sh -c "'$LOPFIT' --compare '$T'/data/*.csv -o '$T/out2' >/dev/null 2>&1 &&
           cmp -s '$T/out/params.csv' '$T/out2/params.csv'"
"$LOPFIT" --csv "$T/data/send-normal-rtt.csv" >"$T/rows.csv"
check "--csv: params.csv header plus fit_ms, one row per stat of rtt and of its round" \
    sh -c "head -n 1 '$T/rows.csv' | grep -qx '$HEADER_NEW,fit_ms' && test \$(wc -l <'$T/rows.csv') = 5 &&
           test \$(grep -c ',send-normal,round,' '$T/rows.csv') = 2"
check "--csv rows are the params.csv rows" \
    sh -c "grep ',send-normal,rtt,' '$T/rows.csv' | sed 's/,[^,]*\$//' >'$T/r1'; grep ',send-normal,rtt,' '$T/out/params.csv' | grep -v linear >'$T/r2'; cmp -s '$T/r1' '$T/r2'"
check "--stat median needs a median column" \
    sh -c "! '$LOPFIT' --stat median '$T/data/send-normal-rtt.csv' 2>'$T/e' >/dev/null &&
           grep -q \"send-normal-rtt.csv:[0-9]*: column 'median_us'\" '$T/e'"

# ---- quantities without a model
printf '# quantity: oc\n# series: send-normal\np,n,min_us,avg_us\n1,1,2,3\n2,1,2.5,3.5\n3,1,3,4\n4,1,3.2,4.4\n' >"$T/oc.csv"
check "oc file skipped with a note" \
    sh -c "'$LOPFIT' '$T/data/send-normal-os.csv' '$T/oc.csv' >/dev/null 2>'$T/e' &&
           grep -qx \"lopfit: note: $T/oc.csv: quantity 'oc' has no model, skipped (--model oc=MODEL fits it)\" '$T/e'"
# lopbench --barrier's file (quantity barrier) beside the series: skipped,
# with no advice --model would refuse (it once said "--model barrier=MODEL").
check "barrier.csv skipped with a note naming the series' quantities" \
    sh -c "'$LOPFIT' '$T/data/send-normal-os.csv' '$ROOT/tests/data/plots/barrier.csv' >/dev/null 2>'$T/e' &&
           grep -qx \"lopfit: note: $ROOT/tests/data/plots/barrier.csv: quantity 'barrier' is none of a series' (rtt, os, or, oc, prtt, exch or ring), skipped\" '$T/e'"
printf '# quantity: os\n# series: send-normal\np,rep,us\n1,1,0.5\n1,2,0.6\n' >"$T/send-normal-os-raw.csv"
check "raw sample files skipped with a note" \
    sh -c "'$LOPFIT' '$T/data/send-normal-os.csv' '$T/send-normal-os-raw.csv' >/dev/null 2>'$T/e' &&
           grep -qx 'lopfit: note: $T/send-normal-os-raw.csv: raw samples (lopbench --raw), skipped' '$T/e'"
check "--model ov fits it" sh -c "'$LOPFIT' --model ov '$T/oc.csv' >/dev/null"
check "--model oc=linear fits it, and os files by their quantity" \
    sh -c "'$LOPFIT' --csv --model oc=linear '$T/oc.csv' '$T/data/send-normal-os.csv' >'$T/o' &&
           grep -q ',send-normal,oc,min,linear,' '$T/o' && grep -q ',send-normal,os,min,ov,' '$T/o'"
head -n 8 "$T/data/send-normal-rtt.csv" >"$T/rtt3.csv"
check "auto on an RTT file with 3 points: not enough points to select, const (rtt-nosat would leave no error)" \
    sh -c "'$LOPFIT' --stat min '$T/rtt3.csv' >'$T/o' &&
           grep -q 'not enough points to select' '$T/o' && grep -q '^    \* const ' '$T/o'"
check "... and its params.csv row has a covariance" \
    sh -c "'$LOPFIT' --stat min --csv '$T/rtt3.csv' >'$T/o' &&
           awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } /^#/ { next }
                    \$c[\"quantity\"] == \"rtt\" { ok = \$c[\"model\"] == \"const\" && \$c[\"cov11\"] > 0 } END { exit !ok }' '$T/o'"
check "--model rtt on 3 points: an error; --model rtt=linear fits them" \
    sh -c "! '$LOPFIT' --model rtt '$T/rtt3.csv' 2>'$T/e' >/dev/null && grep -q 'model needs 6 (--model rtt=linear needs 2)' '$T/e' &&
           '$LOPFIT' --model rtt=linear '$T/rtt3.csv' >/dev/null"

# ---- the round of scenario 2 (quantity round = p * rtt) from every rtt file
# rtt_file FILE AWK-EXPR: a lopbench-format rtt file whose round T(p) over
# p = 1..12 is AWK-EXPR (p in p), the median T/p with a fixed +-0.5 % wobble
rtt_file() {
    { printf '# lopbench: 0.1.0\n# quantity: rtt\n# series: send-normal\n# post: normal\n'
      printf '# op: send\n# p: peers addressed at once\n'
      printf 'p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us\n'
      awk "BEGIN { for (p = 1; p <= 12; p++) { t = ($2) * (1 + 0.005 * (p % 3 - 1))
                   printf \"%d,100,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n\", p, 0.97 * t / p,
                          1.02 * t / p, t / p, 1.2 * t / p, 1.5 * t / p, 0.05 * t / p } }"
    } >"$1"
}
# the lab's token bucket (fit/README.md): 4 messages at once, then 150 us each
rtt_file "$T/bucket-rtt.csv" '150 + 40 * ((p < 4 ? p : 4) - 1) + 150 * (p > 4 ? p - 4 : 0)'
rtt_file "$T/straight-rtt.csv" '20 + 10 * p'
round_cell() { # FILE COLS: params.csv's COLS of the send-normal round median row
    cells "$1" "$2" quantity=round,stat=median
}
"$LOPFIT" --stat median -o "$T/bucket" "$T/bucket-rtt.csv" >"$T/bucket.txt" 2>&1
check "round of a bucket-shaped rtt file: params.csv row with model bucket" \
    test "$(cells "$T/bucket/params.csv" series,quantity,stat,model,criterion quantity=round)" = \
         send-normal,round,median,bucket,aicc
check "... its knot l4 (the burst) near 4" \
    awk -v k="$(round_cell "$T/bucket/params.csv" l4)" 'BEGIN { exit !(k > 3.9 && k < 4.1) }' 
check "... its l1..l3 are T(1), the slope within the burst and the gap" \
    awk -v v="$(round_cell "$T/bucket/params.csv" l1,l2,l3)" 'BEGIN { split(v, l, ",")
        exit !(l[1] > 145 && l[1] < 155 && l[2] > 37 && l[2] < 43 && l[3] > 145 && l[3] < 155) }'
check "... the report shows it with the candidates, the rtt fit beside it" \
    sh -c "grep -q '^send-normal round median' '$T/bucket.txt' && grep -q '^    \* bucket ' '$T/bucket.txt' &&
           grep -q '^send-normal rtt median' '$T/bucket.txt'"
check "... and its curve" test -f "$T/bucket/curve-send-normal-round-median.csv"
"$LOPFIT" --stat median --csv "$T/straight-rtt.csv" >"$T/straight.csv"
check "round of straight data: linear" \
    test "$(cells "$T/straight.csv" model quantity=round)" = linear
"$LOPFIT" --stat median --csv --criterion bic "$T/straight-rtt.csv" >"$T/straight-bic.csv"
check "... also by BIC" test "$(cells "$T/straight-bic.csv" model quantity=round)" = linear
# the lab's 8 nodes: 7 points, where AICc's small-sample term (60 for the
# bucket's k = 5) keeps the line however well the bucket fits
awk -F, 'BEGIN { split("147 201 235 270 413 565 737", t, " ") }
         /^[0-9]/ { $3 = $4 = $5 = t[$1] / $1 } /^[0-9]/ && $1 > 7 { next } { print }' OFS=, \
    "$T/bucket-rtt.csv" >"$T/lab-rtt.csv"
"$LOPFIT" --stat median "$T/lab-rtt.csv" >"$T/lab.txt"
check "7 points: linear by AICc, the bucket eligible but behind" \
    sh -c "grep -q '^    \* linear ' '$T/lab.txt' && grep -q '^      bucket .* eligible\$' '$T/lab.txt'"
"$LOPFIT" --stat median --csv --model round=bucket "$T/lab-rtt.csv" >"$T/lab.csv"
check "--model round=bucket on them: the burst B (l4) about 4.2, forced" \
    awk -v v="$(cells "$T/lab.csv" l4,criterion quantity=round)" \
        'BEGIN { split(v, c, ","); exit !(c[1] > 4 && c[1] < 4.4 && c[2] == "forced") }'
"$LOPFIT" --stat median --csv --model linear "$T/bucket-rtt.csv" >"$T/o"
check "--model linear (every file): the round is linear too" \
    test "$(cells "$T/o" model quantity=round)" = linear
"$LOPFIT" --stat median --csv --model rtt-nosat "$T/bucket-rtt.csv" >"$T/o"
check "--model rtt-nosat (every file): rtt forced, the round selected" \
    test "$(cells "$T/o" quantity,model,criterion | tr '\n' ' ')" = "rtt,rtt-nosat,forced round,bucket,aicc "
head -n 8 "$T/bucket-rtt.csv" >"$T/one-rtt.csv"
"$LOPFIT" --stat median --csv "$T/one-rtt.csv" >"$T/o"
check "one rtt row (2 ranks): the rtt fit, no round" test "$(cells "$T/o" quantity)" = rtt
refuses_one_line "--model round=bucket on 3 rows: the file:line and what it needs" 2 \
    "rtt3.csv:[0-9]*: 3 data rows, the 4-parameter bucket model needs 4 (--model round=linear needs 2)" \
    "$LOPFIT" --model round=bucket "$T/rtt3.csv"
refuses_one_line "--model round=rtt: the round's models" 2 \
    "bucket-rtt.csv: quantity 'round' takes model bucket or linear, not rtt (--model)" \
    "$LOPFIT" --model round=rtt "$T/bucket-rtt.csv"
# every reader of params.csv takes round rows: lopfit's tables, lopredict
{ cat "$T/out/params.csv"; grep ',send-normal,round,median,bucket,' "$T/bucket/params.csv" |
    sed 's/,send-normal,round,/,send-bucket,round,/'; } >"$T/with-round.csv"
check "--from-params reads round rows (a bucket among them): tables and their curves" \
    sh -c "'$LOPFIT' --from-params '$T/with-round.csv' -o '$T/round-tab' 2>/dev/null &&
           test -f '$T/round-tab/lop-send-normal-min.csv' -a -f '$T/round-tab/curve-send-bucket-round-median.csv'"
check "lopredict reads a parameter set with round rows" \
    sh -c "'$BIN/lopredict' --params '$T/with-round.csv' --series send-normal --stat min >'$T/o' 2>/dev/null &&
           grep -q '^# series: send-normal' '$T/o'"
check "--synth writes no round file (lopfit derives it again from the rtt one)" \
    sh -c "'$LOPFIT' --synth '$T/bucket/params.csv' -o '$T/bucket-syn' 2>/dev/null &&
           test \"\$(cd '$T/bucket-syn' && ls)\" = send-normal-rtt.csv"

# ---- model selection (--model auto, the default) on the thesis's parameters, 1 % noise
"$LOPFIT" --synth "$ROOT/data/mozart-2005/params.csv" --noise 0.01 -o "$T/moz" 2>/dev/null
sub() { # file n: the first n rows of a synthetic file
    awk -v n="$2" '/^#/ || /^p,/ { print; next } ++k <= n' "$T/moz/$1" >"$T/sub$2-$1"
}
sub send-normal-rtt.csv 4
sub send-normal-rtt.csv 63
col() { # params.csv-format file, column name, row pattern: the cell
    awk -F, -v c="$2" -v r="$3" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next }
        $0 ~ r { print $k; exit }' "$1"
}
"$LOPFIT" --csv "$T/sub4-send-normal-rtt.csv" >"$T/s4.csv"
"$LOPFIT" --csv "$T/sub63-send-normal-rtt.csv" >"$T/s63.csv"
check "auto on 4 RTT points picks const (the only eligible model), margin inf" \
    test "$(col "$T/s4.csv" model ',min,')/$(col "$T/s4.csv" criterion ',min,')/$(col "$T/s4.csv" margin ',min,')" = const/aicc/inf
check "auto on 63 RTT points picks a richer model (rtt) with a finite margin" \
    sh -c "test '$(col "$T/s63.csv" model ',min,')' = rtt &&
           awk 'BEGIN { exit !(\"$(col "$T/s63.csv" margin ',min,')\" + 0 > 2) }'"
check "selection columns: k, aicc and bic of the chosen model" \
    sh -c "test '$(col "$T/s63.csv" k ',min,')' = 6 && test -n '$(col "$T/s63.csv" aicc ',min,')' &&
           test -n '$(col "$T/s63.csv" bic ',min,')'"
"$LOPFIT" "$T/sub63-send-normal-rtt.csv" >"$T/rep63.txt"
check "report: every candidate side by side, the chosen one marked" \
    sh -c "grep -q 'model selection by AICc, n 63' '$T/rep63.txt' &&
           grep -q '^    \* rtt  .*eligible, chosen' '$T/rep63.txt' && grep -q '^      rtt-nosat ' '$T/rep63.txt' &&
           grep -q '^      const ' '$T/rep63.txt' && grep -q 'margin [0-9.]* to the runner-up' '$T/rep63.txt'"
"$LOPFIT" --stat min "$T/sub4-send-normal-rtt.csv" >"$T/rep4.txt"
check "report on 4 points: rtt and rtt-nosat not eligible, and why" \
    sh -c "grep -q '^      rtt .*not fitted: 4 points for 6 parameters' '$T/rep4.txt' &&
           grep -q '^      rtt-nosat .*not eligible: AICc needs n >= 6' '$T/rep4.txt' &&
           grep -q 'margin inf: the only eligible model' '$T/rep4.txt'"
"$LOPFIT" --csv --model rtt "$T/sub63-send-normal-rtt.csv" >"$T/f63.csv"
check "--model rtt forces it: criterion forced, no margin" \
    test "$(col "$T/f63.csv" model ',min,')/$(col "$T/f63.csv" criterion ',min,')/$(col "$T/f63.csv" margin ',min,')" = rtt/forced/
"$LOPFIT" --csv --criterion bic "$T/sub4-send-normal-rtt.csv" >"$T/b4.csv"
check "--criterion bic: criterion bic in params.csv" test "$(col "$T/b4.csv" criterion ',min,')" = bic
printf '# quantity: os\n# series: w\np,min_us\n1,10\n2,5\n3,3.4\n4,2.6\n5,2\n6,1.9\n7,1.5\n' >"$T/weak.csv"
"$LOPFIT" --stat min --model ov -o "$T/w" "$T/weak.csv" >"$T/repw.txt"
check "weak parameters flagged in the report, with what more data would fix" \
    sh -c "grep -q 'WEAK (' '$T/repw.txt' && grep -q '^  weak: .*: more [a-z ]* would determine them' '$T/repw.txt' &&
           test -n '$(col "$T/w/params.csv" weak ',min,' 2>/dev/null)'"

# ---- bad input: one line "lopfit: file:line: reason", exit != 0, nothing written
mkdir -p "$T/bad" "$T/keep"
echo old >"$T/keep/params.csv"
bad() { # name expected-reason file-content
    printf "$3" >"$T/bad/$1.csv"
    "$LOPFIT" "$T/data/send-normal-os.csv" "$T/bad/$1.csv" -o "$T/keep" >/dev/null 2>"$T/e"
    rc=$?
    if [ $rc -ne 0 ] && [ "$(wc -l <"$T/e")" = 1 ] &&
        grep -q "^lopfit: $T/bad/$1.csv:[0-9][0-9]*: $2" "$T/e" &&
        [ "$(cat "$T/keep/params.csv")" = old ] && [ "$(ls "$T/keep")" = params.csv ]; then
        pass "bad input $1: $(cat "$T/e")"
    else
        fail "bad input $1 (exit $rc): $(cat "$T/e")"
    fi
}
H='# quantity: os\np,n,min_us,avg_us\n'
bad no-quantity "no '# quantity:' line" 'p,n,min_us,avg_us\n1,1,1,1\n2,1,1,1\n3,1,1,1\n'
bad few-points "0 data rows, the 1-parameter const model needs 1" "${H}"
bad nan-p "column 'p': 'nan' is not finite" "${H}1,1,1,1\nnan,1,1,1\n3,1,1,1\n"
bad negative-p "p = -2 is not >= 1" "${H}1,1,1,1\n-2,1,1,1\n3,1,1,1\n"
bad zero-p "p = 0 is not >= 1" "${H}0,1,1,1\n2,1,1,1\n3,1,1,1\n"
bad underflow "column 'min_us': '1e-400' underflows" "${H}1,1,1e-400,1\n2,1,1,1\n3,1,1,1\n"
bad tiny-time "column 'min_us': time 1e-300 us is outside 1e-100..1e100" "${H}1,1,1e-300,1\n2,1,1.2e-300,1\n3,1,1.3e-300,1\n"
bad half-p "p = 1.5 is not a whole number" "${H}1,1,1,1\n1.5,1,1,1\n3,1,1,1\n"
bad duplicate-p "p = 2 repeats line 4" "${H}1,1,1,1\n2,1,1,1\n2,1,1,1\n"
bad non-numeric "column 'avg_us': 'abc' is not a number" "${H}1,1,1,1\n2,1,1,abc\n3,1,1,1\n"
bad only-comments "no header row" '# quantity: os\n\n'
bad no-column "no column 'avg_us'" '# quantity: os\np,n,min_us\n1,1,1\n2,1,1\n3,1,1\n'
bad short-row "expected 4 fields, found 3" "${H}1,1,1,1\n2,1,1\n3,1,1,1\n"
bad bad-series "series 'a/b' must be" '# quantity: os\n# series: a/b\np,min_us,avg_us\n1,1,1\n2,1,1\n3,1,1\n'
check "a file that does not exist" \
    sh -c "! '$LOPFIT' '$T/none.csv' 2>'$T/e' && grep -q \"^lopfit: $T/none.csv: cannot open\" '$T/e'"
check "the same series twice with -o" \
    sh -c "cp '$T/data/send-normal-os.csv' '$T/copy.csv'; ! '$LOPFIT' '$T/data/send-normal-os.csv' '$T/copy.csv' -o '$T/dup' 2>'$T/e' >/dev/null &&
           grep -q 'also in' '$T/e' && test ! -e '$T/dup'"

# ---- options
opt_error() { # name expected args...
    _n=$1 _w=$2
    shift 2
    if ! "$LOPFIT" "$@" >/dev/null 2>"$T/e" && [ "$(wc -l <"$T/e")" = 1 ] &&
        grep -q "^lopfit: $_w" "$T/e"; then pass "option error $_n"; else fail "option error $_n: $(cat "$T/e")"; fi
}
opt_error stat "option --stat: unknown value 'max'" --stat max "$T/oc.csv"
: >"$T/bad/empty.csv"
opt_error empty-file "$T/bad/empty.csv: empty file" "$T/bad/empty.csv"
opt_error directory "$T/bad: is a directory; lop reads only regular files" "$T/bad"
# -o as lopbench takes it: an empty name and a regular file are refused by
# the option, exit 2 (they were "': cannot create directory'" and
# "params.csv: cannot check: Not a directory", exit 3), before any fitting.
refuses_one_line "-o '': refused as lopbench refuses it" 2 "option --output: empty directory name" \
    "$LOPFIT" -o '' "$T/data/send-normal-os.csv"
: >"$T/plain"
refuses_one_line "-o FILE: not a directory" 2 "option --output: $T/plain is not a directory\$" \
    "$LOPFIT" -o "$T/plain" "$T/data/send-normal-os.csv"
refuses_one_line "-o FILE with --synth: not a directory" 2 "option --output: $T/plain is not a directory\$" \
    "$LOPFIT" --synth "$T/truth.csv" -o "$T/plain"
# The models as --help names them (lop_models[] joined "a, b or c";
# test_fit_select checks that against the table): each is one lopfit knows
# (--gnuplot-expr prints its expression), every model of the truth and of
# the fits above is among them, and the messages that list the models give
# the same list.
MODELS=$(lopfit_models)
models_known() {
    printf '%s\n' "$MODELS" | grep -qx '[a-z-]*\(, [a-z-]*\)* or [a-z-]*' || return 1
    _names=" $(or_words "$MODELS") "
    for _m in $_names; do "$LOPFIT" --gnuplot-expr "$_m" >/dev/null || return 1; done
    for _m in $(cells "$T/truth.csv" model) $(cells "$T/out/params.csv" model); do
        case $_names in *" $_m "*) ;; *) return 1 ;; esac
    done
}
check "--help names the models ($MODELS), each one lopfit knows, each one fitted among them" \
    models_known
opt_error model "option --model: unknown model 'exp' (auto, $MODELS)" --model exp "$T/oc.csv"
opt_error model-twice "option --model: quantity 'rtt' given twice" --model rtt=linear,rtt=const "$T/oc.csv"
# The quantities --model takes, as its refusal of an unknown one lists them
# (the only place lopfit names them): each one listed is taken, and the
# quantities of the truth are among them.
QUANTITIES=$("$LOPFIT" --model rt=linear "$T/oc.csv" 2>&1 |
    sed -n "s/^lopfit: option --model: unknown quantity 'rt' (\(.*\))\$/\1/p")
quantities_taken() {
    printf '%s\n' "$QUANTITIES" | grep -qx '[a-z]*\(, [a-z]*\)* or [a-z]*' || return 1
    _names=" $(or_words "$QUANTITIES") "
    for _q in $_names; do
        "$LOPFIT" --stat min --csv --model "$_q=linear" "$T/data/send-normal-os.csv" >/dev/null ||
            return 1
    done
    for _q in $(cells "$T/truth.csv" quantity); do
        case $_names in *" $_q "*) ;; *) return 1 ;; esac
    done
}
check "--model's refusal of a quantity names the quantities ($QUANTITIES), each one taken" \
    quantities_taken
opt_error model-typo "option --model: unknown quantity 'rt' ($QUANTITIES)" --model rt=linear "$T/oc.csv"
opt_error noise-no-synth "option --noise: only with --synth" --noise 0.1 "$T/oc.csv"
opt_error noise-us-no-synth "option --noise-us: only with --synth" --noise-us 0.1 "$T/oc.csv"
opt_error criterion "option --criterion: unknown value 'aic'" --criterion aic "$T/oc.csv"
opt_error model-spec "option --model: 'rtt=exp' is not QUANTITY=MODEL" --model os=ov,rtt=exp "$T/oc.csv"
opt_error starts "option --starts: '0' is not in" --starts 0 "$T/oc.csv"
opt_error no-files "no data files" --stat min
opt_error synth-no-o "option --synth needs -o DIR" --synth "$T/truth.csv"
opt_error from-params-files "option --from-params takes no data files" --from-params "$T/truth.csv" -o "$T/x" "$T/oc.csv"
opt_error unknown "unknown option '--bogus'" --bogus
opt_error from-params-no-rtt "$T/only-os.csv: no series with both an rtt and an os fit" \
    --from-params "$(grep -v ',rtt,' "$T/truth.csv" >"$T/only-os.csv"; echo "$T/only-os.csv")" -o "$T/x"
printf '%s\nt,send-normal,os,p99,ov,10,1,10,1,2,0.5,,,,,,,,,,,,\n' "$HEADER" >"$T/p99.csv"
check "--synth --noise 1: no negative time, lopfit reads every file back" \
    sh -c "'$LOPFIT' --synth '$ROOT/data/mozart-2005/params.csv' --noise 1 --seed 3 -o '$T/noisy' &&
           ! grep -q ',-' '$T/noisy'/*.csv && '$LOPFIT' --stat min,avg '$T/noisy'/*.csv >/dev/null"
sed '/^thesis-2.3.6.3,rdmaw-inline,rtt,min,/s/,14.9630,0.0446,3.0074,/,0.1,0.0446,0.5,/' \
    "$ROOT/data/mozart-2005/params.csv" >"$T/negrtt.csv"
check "--from-params: a negative RTT and L(p) are marked negative in the table's notes" \
    sh -c "'$LOPFIT' --from-params '$T/negrtt.csv' -o '$T/negtab' 2>/dev/null &&
           grep -q '^1,-2.3185[0-9]*,.*,rtt_us=negative;L_us=negative;Llist_us=negative\$' '$T/negtab/lop-rdmaw-inline-min.csv'"
opt_error synth-negative "option --synth: $T/negrtt.csv: series 'rdmaw-inline' rtt min: the time at p = 1, -2.3185[0-9]* us, is negative" \
    --synth "$T/negrtt.csv" -o "$T/negsyn"
# --synth writes only what lopfit reads back: a time outside its range of
# times (lop_fmt_series_time_ok) is refused, nothing written
# (a set whose fit is that large at the ends of its range: the set's reader)
for l1 in 1.15e+200 1e-200; do
    printf '%s\nt,send-normal,os,min,ov,16,1,16,%s,0,1,,,,,,,,,,,,\n' "$HEADER" $l1 >"$T/far$l1.csv"
    why="option --synth: $T/far$l1.csv: series 'send-normal' os min: the time at p = 1, $l1 us, is outside 1e-100..1e100"
    [ $l1 = 1e-200 ] ||
        why="$T/far$l1.csv:2: series 'send-normal' os min: the fit at p = 1 is $l1 us, larger than any time lopfit fits"
    opt_error "synth-time-$l1" "$why" --synth "$T/far$l1.csv" -o "$T/farsyn"
    check "--synth of a time of $l1 us: nothing written" test ! -e "$T/farsyn"
done
printf '%s\nt,send-normal,os,min,ov,16,1,16,1e99,0,1,,,,,,,,,,,,\n' "$HEADER" >"$T/near.csv"
check "--synth of times of 1e99 us: written, and lopfit reads them back" \
    sh -c "'$LOPFIT' --synth '$T/near.csv' -o '$T/nearsyn' && '$LOPFIT' --stat min '$T/nearsyn/send-normal-os.csv' >/dev/null"
# A pole inside the range makes the curve infinite there: refused
# by the one params reader, lopfit and lopredict alike, before any output.
sed '/^thesis-2.3.6.3,rdmaw-inline,rtt,min,/s/,14.9630,0.0446,/,14.9630,-1.5,/' \
    "$ROOT/data/mozart-2005/params.csv" >"$T/pole.csv"
opt_error from-params-pole "$T/pole.csv:10: series 'rdmaw-inline' rtt min: the rtt model has a pole at p = 1.5 (l2 = -1.5), not left of its range 1..63" \
    --from-params "$T/pole.csv" -o "$T/pole"
check "--from-params with a pole writes nothing" test ! -e "$T/pole"
# An rtt row with model ov and a covariance: the model is wrong, not the covariance.
ovline=$(grep -n ',send-normal,rtt,min,rtt,' "$T/out/params.csv" | cut -d: -f1)
sed "${ovline}s/,send-normal,rtt,min,rtt,/,send-normal,rtt,min,ov,/" "$T/out/params.csv" >"$T/ovrtt.csv"
# rtt's models as lopfit's --model refusal lists them, checked against the
# models it takes (lib.sh): the params reader lists the same
RTT_MODELS=$(lopfit_family rtt "$T/data/send-normal-rtt.csv")
check "lopfit lists rtt's models ($RTT_MODELS) as the ones --model rtt= takes" test -n "$RTT_MODELS"
opt_error from-params-ov-rtt "$T/ovrtt.csv:$ovline: quantity 'rtt' takes model $RTT_MODELS, not ov" \
    --from-params "$T/ovrtt.csv" -o "$T/ovrtt"
opt_error synth-unknown-stat "$T/p99.csv: series 'send-normal' os: stat 'p99' is not a column of lopbench's files (min, avg, median)" \
    --synth "$T/p99.csv" -o "$T/p99"
check "--synth with an unknown stat writes nothing" test -z "$(ls -A "$T/p99" 2>/dev/null)"
# ---- weights: rel (1/y^2) by default, 1 % relative noise, so the weighted RMSE is about 0.01
"$LOPFIT" --stat min -o "$T/wrel" "$T/sub63-send-normal-rtt.csv" >"$T/wrel.txt"
check "default weights rel: relative RMSE near the 1 % noise, said in the report and params.csv" \
    sh -c "awk -v r='$(col "$T/wrel/params.csv" rmse ',min,')' 'BEGIN { exit !(r > 0.007 && r < 0.013) }' &&
           grep -q 'RMSE [0-9.]* (relative: weights 1/y^2)' '$T/wrel.txt' &&
           grep -q '^# weight: rel' '$T/wrel/params.csv'"
"$LOPFIT" --weight rel --stat min -o "$T/wrel2" "$T/sub63-send-normal-rtt.csv" >/dev/null
check "--weight rel is the default: the same params.csv" \
    sh -c "cmp -s '$T/wrel/params.csv' '$T/wrel2/params.csv'"
"$LOPFIT" --weight none --stat min -o "$T/wnone" "$T/sub63-send-normal-rtt.csv" >"$T/wnone.txt"
check "--weight none: RMSE in us, params.csv says nothing of weights" \
    sh -c "grep -q 'RMSE [0-9.]* us' '$T/wnone.txt' && ! grep -q '^# weight' '$T/wnone/params.csv'"
printf '# quantity: os\n# series: z\np,min_us\n1,1\n2,0\n3,0.5\n4,0.4\n' >"$T/zero.csv"
check "default weights: a time of 0 is an error that names --weight none" \
    sh -c "! '$LOPFIT' --stat min '$T/zero.csv' 2>'$T/e' >/dev/null &&
           grep -q 'need y > 0 (lopfit --weight none fits it)' '$T/e' && test \$(wc -l <'$T/e') = 1"
# ... named by the file's line (it once said "point 2", an index among the points)
refuses_one_line "default weights: the time of 0 named by file:line, exit 2" 2 \
    "zero.csv:5: column 'min_us': time 0, relative weights" "$LOPFIT" --stat min "$T/zero.csv"
check "--weight none fits a time of 0" "$LOPFIT" --weight none --stat min "$T/zero.csv"
# ---- --synth --noise-us: additive noise (the data of fit/measure/coverage.sh)
"$LOPFIT" --synth "$T/truth.csv" --noise-us 0.05 --seed 5 -o "$T/data-add" 2>/dev/null
"$LOPFIT" --synth "$T/truth.csv" --seed 5 -o "$T/data-exact" 2>/dev/null
check "--synth --noise-us: '# source:' names the additive noise" \
    grep -q '^# source: lopfit --synth .* (relative noise 0, additive noise 0.05 us, seed 5)$' "$T/data-add/send-normal-rtt.csv"
check "--synth --noise-us 0.05: deviations of one size at every p (sd near 0.05 us), none of them 0" \
    sh -c "paste -d, '$T/data-add/send-normal-rtt.csv' '$T/data-exact/send-normal-rtt.csv' |
           awk -F, '/^[0-9]/ { d = \$3 - \$11; s += d * d; n++; if (d == 0) zero++ }
                    END { sd = sqrt(s / n); exit !(n == 31 && !zero && sd > 0.03 && sd < 0.07) }'"
opt_error weight "option --weight: unknown value 'abs'" --weight abs "$T/oc.csv"

# ---- gnuplot expressions of the descriptors (tests/unit/test_gnuplot_expr.c checks the values)
check "--gnuplot-expr ov prints the descriptor's expression in x" \
    test "$("$LOPFIT" --gnuplot-expr ov)" = "l1 + l2/(l3+x)"
opt_error gnuplot-expr "option --gnuplot-expr: unknown model 'exp' ($MODELS)" --gnuplot-expr exp
LOPFIT=$LOPFIT "$ROOT/fit/compare-gnuplot.sh" -s min "$T/data/send-normal-os.csv" >"$T/cmp.txt" 2>&1
check "compare-gnuplot.sh fits lopfit's model with the descriptor's expression: gnuplot reaches the same SSR" \
    awk '$1 == "send-normal" && $4 == "ov" { found = 1; if ($8 + 0 > 1.001 || $NF != "converged") bad = 1 }
         END { exit !(found && !bad) }' "$T/cmp.txt"
# ---- ties: ten points all 5 us fit every member exactly (AICc -inf): the simplest wins
{ printf '# quantity: rtt\n# series: flat\np,min_us\n'; for i in 1 2 3 4 5 6 7 8 9 10; do echo "$i,5"; done; } >"$T/flat.csv"
check "exact fits tie: const (fewest parameters) chosen, not rtt" \
    sh -c "'$LOPFIT' --stat min '$T/flat.csv' | grep -q '^    \* const .*chosen'"
# ... and --compare's ratio of SSRs is one only where the model's SSR is not
# 0 (0/0 printed as "infx LoP's")
{ printf '# quantity: rtt\n# series: zero\np,min_us\n'; for i in 1 2 3 4; do echo "$i,0"; done; } >"$T/zeros.csv"
"$LOPFIT" --weight none --stat min --compare "$T/zeros.csv" >"$T/zeros.txt" 2>&1
check "--compare on all-zero data: the two SSRs are 'both 0', no 'infx'" \
    sh -c "grep -q '^  LogP line .* SSR 0 (both 0) ' '$T/zeros.txt' && ! grep -q infx '$T/zeros.txt'"
"$LOPFIT" --stat min --compare "$T/flat.csv" >"$T/flat.txt" 2>&1
check "--compare on constant data: an SSR against an exact fit is no 'infx'" \
    sh -c "grep -q '^  LogP line .* SSR [^ ]* (\(both 0\|LoP.s is 0\)) ' '$T/flat.txt' && ! grep -q infx '$T/flat.txt'"
check "constant data: R^2 is undefined, not a number from the mean's rounding (0.925)" \
    sh -c "grep -q '^  n 10 .* R^2 undefined (constant data) ' '$T/flat.txt' &&
           grep -q '^  LogP line .* R^2 undefined (constant data)\$' '$T/flat.txt'"
check "--help lists the options" sh -c "'$LOPFIT' --help | grep -q -- '--from-params FILE'"
check "--help: the default is auto by AICc, then the models" \
    sh -c "'$LOPFIT' --help | grep -q 'auto (the default: select by --criterion, AICc .* or MODEL ($MODELS)'"

# A data file's path is params.csv's file cell: with -o, a path a reader
# would not read back whole is refused before the work (a newline once split
# the cell and lopredict refused the file at line 4); read only, any path is fine.
D=$ROOT/tests/data/plots/send-normal-rtt.csv
nl=$(printf '%s/new\nline-rtt.csv' "$T")
cp "$D" "$nl" && cp "$D" "$T/a,b-rtt.csv"
long=$T/$(printf '%0100d' 0)/$(printf '%0100d' 1)/$(printf '%0100d' 2)
mkdir -p "$long" && cp "$D" "$long/send-normal-rtt.csv"
refuses_one_line "-o with a newline in a data file's path: refused" 2 \
    "new.x0aline-rtt.csv: cannot be params.csv's file cell: a CSV cell holds no comma, no control" \
    "$LOPFIT" -o "$T/nlout" "$nl"
check "... nothing written" test ! -e "$T/nlout"
refuses_one_line "-o with a comma in the path: refused" 2 "a,b-rtt.csv: cannot be params.csv's file cell" \
    "$LOPFIT" -o "$T/cout" "$T/a,b-rtt.csv"
refuses_one_line "-o with a path of 256+ bytes: refused" 2 "cannot be params.csv's file cell: longer than 255 bytes" \
    "$LOPFIT" -o "$T/lout" "$long/send-normal-rtt.csv"
for f in "$nl" "$T/a,b-rtt.csv" "$long/send-normal-rtt.csv"; do
    "$LOPFIT" "$f" >/dev/null 2>"$T/e"
    check "without -o the same file is fitted (no cell is written): $(printf '%s' "$f" | tail -c 20 | tr '\n' '?')" test $? -eq 0
done

# ... and with --csv the path is one cell of one line: a comma or a quote
# quoted (RFC 4180, quotes doubled), a newline or a tab as \xNN.
tq=$(printf '%s/t\tq"-rtt.csv' "$T")
cp "$D" "$tq"
"$LOPFIT" --stat min --csv "$T/a,b-rtt.csv" "$nl" "$tq" >"$T/pathcsv.csv" 2>/dev/null
check "--csv: the three paths' rows (rtt and round) are one line each" test "$(wc -l <"$T/pathcsv.csv")" -eq 7
check "... a comma in the path: the cell quoted" grep -qF "\"$T/a,b-rtt.csv\",send-normal," "$T/pathcsv.csv"
check "... a newline: \\x0a" grep -qF "$T/new\\x0aline-rtt.csv,send-normal," "$T/pathcsv.csv"
check "... a tab and a quote: \\x09, the quote doubled in a quoted cell" \
    grep -qF "\"$T/t\\x09q\"\"-rtt.csv\",send-normal," "$T/pathcsv.csv"

# A control character in a value that becomes metadata (here a newline in
# the --synth path, '# source:') is written as \xNN: the line stays one line,
# and lopfit reads what lopfit wrote.
nlset=$(printf '%s/pa\nrams.csv' "$T")
cp "$T/truth.csv" "$nlset"
check "--synth from a path with a newline" "$LOPFIT" --synth "$nlset" -o "$T/nlsyn"
check "... '# source:' names it on one line, the newline as \\x0a" \
    grep -q '^# source: lopfit --synth .*/pa\\x0arams.csv (relative noise 0, seed 1)$' "$T/nlsyn/send-normal-rtt.csv"
check "... and lopfit reads the files back" sh -c "'$LOPFIT' '$T'/nlsyn/*.csv >/dev/null"
check "--from-params from that path: '# params:' on one line" \
    sh -c "'$LOPFIT' --from-params '$nlset' -o '$T/nlfp' 2>/dev/null &&
           grep -q '^# params: .*/pa.x0arams.csv$' '$T/nlfp/lop-send-normal-min.csv'"

# ---- long tables say their cost up front and show progress on a terminal
# (a 10^6-row table takes half an hour: not without a word).  The fitted set
# has covariances; with pmax 10^5 its two tables draw intervals for 2 x 10^5
# rows: the note comes before the work, the run is stopped once it is there.
awk -F, 'BEGIN { OFS = "," } /^#/ || /^file/ { print; next } { $8 = 100000; print }' \
    "$T/out/params.csv" >"$T/big.csv"
: >"$T/bigerr" # before the job: the loop below may read it before the job opens it
"$LOPFIT" --from-params "$T/big.csv" -o "$T/bigout" 2>"$T/bigerr" &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q 'rows in all' "$T/bigerr"; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid 2>/dev/null; { wait $pid; } 2>/dev/null
check "--from-params with 2 x 10^5 rows of intervals says so before the work" \
    grep -q '^lopfit: warning: 2 tables, 200000 rows in all, 200000 of them with intervals of 4000 draws' "$T/bigerr"
check "... and SIGTERM then leaves no output directory (it made it)" test ! -e "$T/bigout"
awk -F, 'BEGIN { OFS = "," } /^#/ || /^file/ { print; next } { $8 = 20000; print }' \
    "$ROOT/data/mozart-2005/params.csv" >"$T/mz.csv"
script -qec "$(shquote "$LOPFIT") --from-params $(shquote "$T/mz.csv") -o $(shquote "$T/mzout")" \
    /dev/null </dev/null >"$T/tty.txt" 2>&1
check "on a terminal a progress line follows the tables ([8/8] lop-rdmaw-inline-avg.csv)" \
    grep -q 'lopfit: \[8/8\] lop-rdmaw-inline-avg.csv: ' "$T/tty.txt"
check "... warnings on lines of their own, never after the progress line's text" \
    sh -c "! grep -q '[^K]lopfit: warning' '$T/tty.txt'"
check "... and without intervals (no covariance) no cost note" sh -c "! grep -q 'rows in all' '$T/tty.txt'"
check "... the tables are written" test -f "$T/mzout/lop-rdmaw-inline-avg.csv"
"$LOPFIT" --from-params "$T/mz.csv" -o "$T/mzlog" 2>"$T/mzlog.err"
check "not on a terminal: no progress line" sh -c "! grep -q '% done' '$T/mzlog.err'"

done_testing
