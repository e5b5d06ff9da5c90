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
check "--synth: 31 rtt rows with min and avg" \
    test "$(grep -c '^[0-9][0-9]*,,[0-9.]*,[0-9.]*,,,,$' "$T/data/send-normal-rtt.csv")" = 31

check "fit the synthetic files with -o" \
    sh -c "'$LOPFIT' --compare '$T'/data/*.csv -o '$T/out' >'$T/report.txt' 2>'$T/err.txt'"
check "params.csv: header and 6 model rows, then 6 LogP lines" \
    sh -c "grep -qx '$HEADER_NEW' '$T/out/params.csv' &&
           test \$(grep -c ',rtt,[a-z]*,rtt,\|,o[sr],[a-z]*,ov,' '$T/out/params.csv') = 6 &&
           test \$(grep -c ',linear,' '$T/out/params.csv') = 6"
check "tables for min and avg, p = 1..16 (the os range)" \
    sh -c "for s in min avg; do f='$T/out/lop-send-normal-'\$s.csv
             grep -qx 'p,rtt_us,os_us,or_us,L_us,Llist_us' \$f || exit 1
             test \$(grep -c '^[0-9]' \$f) = 16 || exit 1; done"
check "table: or_us empty without an or fit, Llist_us from send-list" \
    sh -c "grep '^5,' '$T/out/lop-send-normal-min.csv' | grep -q '^5,[0-9.e-]*,[0-9.e-]*,,[0-9.e-]*,-\{0,1\}[0-9.e-]*$'"
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
    awk -v d="$(rmsdev "$T/out/lop-send-normal-avg.csv" 3 '0.6 + 0.9/(p-0.1)')" \
    'BEGIN { exit !(d < 0.01) }'

# ---- --from-params, determinism, --csv
same_tables() { # dir1 dir2: the same lop-*.csv, metadata aside
    for f in "$1"/lop-*.csv; do
        grep -v '^#' "$f" >"$T/a" && grep -v '^#' "$2/$(basename "$f")" >"$T/b" &&
            cmp -s "$T/a" "$T/b" || return 1
    done
}
"$LOPFIT" --from-params "$T/out/params.csv" -o "$T/again" 2>/dev/null
check "--from-params regenerates the same tables" same_tables "$T/out" "$T/again"
check "same seed, identical params.csv" \
    sh -c "'$LOPFIT' --compare '$T'/data/*.csv -o '$T/out2' >/dev/null 2>&1 &&
           cmp -s '$T/out/params.csv' '$T/out2/params.csv'"
"$LOPFIT" --csv "$T/data/send-normal-rtt.csv" >"$T/rows.csv"
check "--csv: params.csv header plus fit_ms, one row per stat" \
    sh -c "head -n 1 '$T/rows.csv' | grep -qx '$HEADER_NEW,fit_ms' && test \$(wc -l <'$T/rows.csv') = 3"
check "--csv rows are the params.csv rows" \
    sh -c "tail -n 2 '$T/rows.csv' | sed 's/,[^,]*\$//' >'$T/r1'; grep ',send-normal,rtt,' '$T/out/params.csv' | grep -v linear >'$T/r2'; cmp -s '$T/r1' '$T/r2'"
check "--stat median needs a median column" \
    sh -c "! '$LOPFIT' --stat median '$T/data/send-normal-rtt.csv' 2>'$T/e' >/dev/null &&
           grep -q \"send-normal-rtt.csv:[0-9]*: column 'median_us'\" '$T/e'"

# ---- quantities without a model
printf '# quantity: oc\n# series: send-normal\np,n,min_us,avg_us\n1,1,2,3\n2,1,2.5,3.5\n3,1,3,4\n4,1,3.2,4.4\n' >"$T/oc.csv"
check "oc file skipped with a note" \
    sh -c "'$LOPFIT' '$T/data/send-normal-os.csv' '$T/oc.csv' >/dev/null 2>'$T/e' &&
           grep -qx \"lopfit: note: $T/oc.csv: quantity 'oc' has no model, skipped (--model oc=MODEL fits it)\" '$T/e'"
printf '# quantity: os\n# series: send-normal\np,rep,us\n1,1,0.5\n1,2,0.6\n' >"$T/send-normal-os-raw.csv"
check "raw sample files skipped with a note" \
    sh -c "'$LOPFIT' '$T/data/send-normal-os.csv' '$T/send-normal-os-raw.csv' >/dev/null 2>'$T/e' &&
           grep -qx 'lopfit: note: $T/send-normal-os-raw.csv: raw samples (lopbench --raw), skipped' '$T/e'"
check "--model ov fits it" sh -c "'$LOPFIT' --model ov '$T/oc.csv' >/dev/null"
check "--model oc=linear fits it, and os files by their quantity" \
    sh -c "'$LOPFIT' --csv --model oc=linear '$T/oc.csv' '$T/data/send-normal-os.csv' >'$T/o' &&
           grep -q ',send-normal,oc,min,linear,' '$T/o' && grep -q ',send-normal,os,min,ov,' '$T/o'"
head -n 8 "$T/data/send-normal-rtt.csv" >"$T/rtt3.csv"
check "--model rtt=linear for an RTT file with 3 points" \
    sh -c "! '$LOPFIT' '$T/rtt3.csv' 2>'$T/e' >/dev/null && grep -q 'model needs 6 (--model rtt=linear needs 2)' '$T/e' &&
           '$LOPFIT' --model rtt=linear '$T/rtt3.csv' >/dev/null"

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
bad few-points "2 data rows, the 3-parameter ov model needs 3" "${H}1,1,1,1\n2,1,1,1\n"
bad few-points-rtt "5 data rows, the 6-parameter rtt model needs 6" \
    '# quantity: rtt\np,min_us,avg_us\n1,1,1\n2,1,1\n3,1,1\n4,1,1\n5,1,1\n'
bad nan-p "column 'p': 'nan' is not finite" "${H}1,1,1,1\nnan,1,1,1\n3,1,1,1\n"
bad negative-p "p = -2 is not >= 1" "${H}1,1,1,1\n-2,1,1,1\n3,1,1,1\n"
bad zero-p "p = 0 is not >= 1" "${H}0,1,1,1\n2,1,1,1\n3,1,1,1\n"
bad duplicate-p "p = 2 repeats line 4" "${H}1,1,1,1\n2,1,1,1\n2,1,1,1\n"
bad non-numeric "column 'avg_us': 'abc' is not a number" "${H}1,1,1,1\n2,1,1,abc\n3,1,1,1\n"
bad empty-file "no header row" ''
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
opt_error model "option --model: unknown model 'exp'" --model exp "$T/oc.csv"
opt_error model-spec "option --model: 'rtt=exp' is not QUANTITY=MODEL" --model os=ov,rtt=exp "$T/oc.csv"
opt_error starts "option --starts: '0' is not in" --starts 0 "$T/oc.csv"
opt_error no-files "no data files" --stat min
opt_error synth-no-o "option --synth needs -o DIR" --synth "$T/truth.csv"
opt_error from-params-files "option --from-params takes no data files" --from-params "$T/truth.csv" -o "$T/x" "$T/oc.csv"
opt_error unknown "unknown option '--bogus'" --bogus
opt_error from-params-no-rtt "$T/only-os.csv: no series with both an rtt and an os fit" \
    --from-params "$(grep -v ',rtt,' "$T/truth.csv" >"$T/only-os.csv"; echo "$T/only-os.csv")" -o "$T/x"
check "--help lists the options" sh -c "'$LOPFIT' --help | grep -q -- '--from-params FILE'"

done_testing
