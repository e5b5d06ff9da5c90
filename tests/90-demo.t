#!/bin/sh
# 90-demo.t - make demo (the README's main job) runs end to end on as many
# ranks as cores, produces every expected file, predicts the barriers only from
# fits of runs that were not oversubscribed, labels the oversubscribed run, and
# ends with the table of measured vs predicted times; its output directory
# has a space in its name.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
CORES=$(nproc)
if [ "$CORES" -lt 2 ]; then
    echo "1..0 # SKIP the demo needs 2 cores"
    exit 0
fi
OVER=$((CORES + 1))
# refused before anything runs: more ranks than cores, an unknown model
make -s -C "$ROOT" demo NP=$OVER OUT="$T/over" >"$T/log" 2>&1 && fail "make demo NP=$OVER (> $CORES cores) fails" ||
    pass "make demo NP=$OVER (> $CORES cores) fails"
check "... saying why, in one line of the script" \
    test "$(grep -c "^demo: NP=$OVER: more ranks than the $CORES cores" "$T/log")" -eq 1
check "... and writes nothing" test ! -e "$T/over"
make -s -C "$ROOT" demo MODEL=best OUT="$T/bad" >"$T/log" 2>&1 && fail "make demo MODEL=best fails" ||
    pass "make demo MODEL=best fails"
check "... naming the variable" grep -q '^demo: MODEL=best: expected ' "$T/log"

make -s -C "$ROOT" demo NP=2 OVER_NP=$OVER REPS=200 OUT="$T/demo out" >"$T/log" 2>&1
rc=$?
check "make demo NP=2 OVER_NP=$OVER REPS=200 succeeds" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(tail -20 "$T/log")"
check "it says where everything went" grep -q "everything is in $T/demo out" "$T/log"
D="$T/demo out/data"
for f in send-normal-rtt send-normal-os send-normal-or send-list-os rdmaw-normal-rtt \
    rdmaw-normal-os params lop-send-normal-min lop-rdmaw-normal-avg predict-cnt2 \
    predict-cnt5000 ndiss barrier measured; do
    check "data/$f.csv" test -s "$D/$f.csv"
done
for f in summary bench fit models verify best barrier measured final; do
    check "$f.txt" test -s "$T/demo out/$f.txt"
done
# the parameters and the barriers they predict come from one launch: one
# report, split at the barriers' header line, and one timer calibration
O="$T/demo out"
check "step 2 runs the scenarios and the barriers in one launch" grep -q '^demo: \[2/9\] lopbench .*one launch' "$T/log"
check "... bench.txt is the scenarios' report" \
    sh -c "head -n 1 '$O/bench.txt' | grep -q '^lopbench .*transport' && ! grep -q -- ' --barrier:' '$O/bench.txt'"
check "... barrier.txt the barriers'" sh -c "head -n 1 '$O/barrier.txt' | grep -q '^lopbench [^ ]* --barrier:'"
check "... the barriers and the series share the launch's timer calibration" \
    test "$(grep '^# timer:' "$D/barrier.csv")" = "$(grep '^# timer:' "$D/send-normal-rtt.csv")"
for fig in rtt overhead latency predict ndiss measured; do
    check "figures/$fig.png is a PNG" sh -c \
        "head -c 8 '$T/demo out/figures/$fig.png' | od -An -c | grep -q 'P   N   G'"
done
for fig in latency predict ndiss; do
    check "figures-mozart/$fig.png" test -s "$T/demo out/figures-mozart/$fig.png"
done
check "the scenarios that feed the predictions were not oversubscribed" \
    sh -c "grep -l '^# oversubscribed: no' '$D'/*-rtt.csv | grep -q . && ! grep -l '^# oversubscribed: yes' '$D'/*.csv"
check "RTT(p) was measured at p = 1 only (2 ranks)" \
    test "$(grep -v '^#' "$D/send-normal-rtt.csv" | tail -n +2 | wc -l)" -eq 1
check "lopfit fitted RTT from that one point" \
    sh -c "awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[\$i] = i; h = 1; next }
                    \$c[\"quantity\"] == \"rtt\" && \$c[\"n\"] == 1 { n++ } END { exit !n }' '$D/params.csv'"
check "the predictions come from this run's fits" grep -qx "# params: $D/params.csv" "$D/measured.csv"

# the oversubscribed run: labelled, with figures, never a prediction
OV="$T/demo out/oversubscribed-np$OVER"
check "the oversubscribed run has its own directory" test -d "$OV/data"
check "... whose measurements say oversubscribed" grep -q '^# oversubscribed: yes' "$OV/data/send-normal-rtt.csv"
for fig in rtt overhead latency; do
    check "... and its figure $fig.png" test -s "$OV/figures/$fig.png"
done
check "... and no predictions in it" test -z "$(ls "$OV/data" | grep -e '^predict' -e '^measured' -e '^barrier')"
check "... nor made from it" sh -c "! grep -rl 'oversubscribed-np' '$D' | grep -q ."

S="$T/demo out/summary.txt"
check "summary: the models chosen" grep -q '^== Models chosen' "$S"
# barriers under background traffic: run where 4 ranks have a core each and
# lopbench has --congest, else one line saying why not
check "summary: barriers under background traffic" \
    grep -q '^== Barriers under background traffic (lopbench --barrier --congest incast)' "$S"
if grep -q '^skipped: ' "$S"; then
    check "... skipped, in one line saying why, as the log said" \
        sh -c "grep -q '^demo: \\[5/9\\] skipped barriers under background traffic: ' '$T/log'"
else
    for fig in distribution impact; do
        check "... and congest/figures/$fig.png" sh -c \
            "head -c 8 '$T/demo out/congest/figures/$fig.png' | od -An -c | grep -q 'P   N   G'"
    done
fi
check "summary: lopfit could not select a model for RTT from one point, and says so" \
    grep -q '^send-normal rtt min: not enough points to select' "$S"
check "summary: fitted parameters" grep -q '^rdmaw-normal rtt min' "$S"
check "summary: best algorithm per P" grep -q -E '^64 +lop ' "$S"
check "summary: the barriers next to MPI_Barrier" grep -q 'avg / MPI_Barrier' "$S"
check "summary: model errors and a verdict" grep -q '^# closest to the measurements: ' "$S"
check "summary: the oversubscribed run, not used for predictions" \
    grep -q "^== Oversubscribed run: $OVER ranks on $CORES cores (not used for any prediction)" "$S"
check "barrier.csv has MPI_Barrier and both executors at P = 2" \
    test "$(grep -c -e '^p2p,' -e '^shm,' -e '^mpi,' "$D/barrier.csv")" -eq 25

# the final table: one row per prediction, aligned, the same as final.csv
F="$T/demo out/final.csv"
rows=$(grep -c -e '^p2p,' -e '^shm,' "$D/barrier.csv")
check "final.csv: one row per measured algorithm and executor ($rows)" \
    test "$(tail -n +2 "$F" | wc -l)" -eq "$rows"
check "final.csv: its columns" \
    test "$(head -n 1 "$F")" = "executor,alg,n,p,series,measured_us,predicted_us,predicted_lo_us,predicted_hi_us,err_pct,inside,notes"
check "final.txt: a header and the same rows" test "$(wc -l <"$T/demo out/final.txt")" -eq $((rows + 1))
# every row's measured time ends in the column where the header's "measured [us]" ends
aligned() {
    awk 'NR == 1 { e = index($0, "measured [us]") + length("measured [us]") - 1; if (e < 13) exit 1; next }
         substr($0, e, 1) !~ /[0-9]/ || substr($0, e + 1, 1) != " " { bad = 1 }
         END { exit bad || NR < 2 }' "$1"
}
check "final.txt: the columns are aligned" aligned "$T/demo out/final.txt"
check "summary ends with the table" sh -c "tail -n $((rows + 1)) '$S' | cmp -s - '$T/demo out/final.txt'"
check "the terminal gets the table" grep -q 'measured \[us\]' "$T/log"
check "final.csv: rows whose interval omits RTT's error say so (RTT from one point has no covariance)" \
    awk -F, 'NR > 1 && $8 != "" && $12 !~ /interval omits rtt/ { bad = 1 } END { exit bad || NR < 2 }' "$F"
# error and inside agree with the times in each row
check "final.csv: err_pct = (predicted - measured) / measured" \
    awk -F, 'NR > 1 && $7 != "" { e = 100 * ($7 - $6) / $6; if (sprintf("%+.0f", e) != $10) bad = 1 }
             END { exit bad || NR < 2 }' "$F"
check "final.csv: inside is yes exactly when lo <= measured <= hi" \
    awk -F, 'NR > 1 && $8 != "" { in_ = $6 + 0 >= $8 + 0 && $6 + 0 <= $9 + 0; if ((in_ ? "yes" : "no") != $11) bad = 1 }
             NR > 1 && $8 == "" && $11 != "" { bad = 1 }
             END { exit bad }' "$F"
done_testing
