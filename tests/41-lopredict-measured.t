#!/bin/sh
# 41-lopredict-measured.t - lopredict --measured joins lopbench --barrier rows
# with the predictions for the same algorithm, n and P.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
P=$BIN/lopredict
cat >"$T/barrier.csv" <<'CSV'
# lopbench: test
# unit: us
executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
p2p,diss,,4,10,10.0,11,10.5,12,20
shm,ndiss,2,9,10,8.0,9,8.5,10,20
mpi,MPI_Barrier,0,4,10,5.0,6,5.5,7,20
CSV
"$P" --measured "$T/barrier.csv" --csv >"$T/out.csv" 2>"$T/err"
check "joins a small barrier.csv" test $? -eq 0
check "two algorithm rows, MPI_Barrier only as the reference" \
    test "$(grep -c -e '^p2p,' -e '^shm,' "$T/out.csv"),$(grep -c '^mpi,' "$T/out.csv")" = "2,0"
check "header" grep -qx \
    'executor,alg,n,p,series,measured_us,logp_us,logp_lo_us,logp_hi_us,lop_us,lop_lo_us,lop_hi_us,sim_logp_us,sim_logp_lo_us,sim_logp_hi_us,sim_lop_us,sim_lop_lo_us,sim_lop_hi_us,loop_us,loop_lo_us,loop_hi_us,bucket_us,bucket_lo_us,bucket_hi_us,err_logp,err_lop,err_sim_logp,err_sim_lop,err_loop,err_bucket,inside_logp,inside_lop,inside_sim_logp,inside_sim_lop,inside_loop,inside_bucket,vs_mpi,flags,condition' \
    "$T/out.csv"
row=$(grep '^p2p,diss' "$T/out.csv")
check "p2p is compared with the send-normal series" test "$(echo "$row" | cut -d, -f5)" = send-normal
check "shm is compared with the rdmaw-normal series" grep -q '^shm,ndiss,2,9,rdmaw-normal,' "$T/out.csv"
# The predictions must be lopredict's own for the same alg, n, P and series.
want=$("$P" --alg diss --p 4 --series send-normal --simulate --csv | grep '^diss,' |
    cut -d, -f5,8,11,14)
got=$(echo "$row" | cut -d, -f7,10,13,16)
check "logp, lop and simulated times equal lopredict's predictions ($got)" test "$got" = "$want"
check "relative errors are (predicted - measured) / measured, measured the --stat's (min)" awk -F, '
    $1 == "p2p" { for (i = 0; i < 5; i++) { k = 7 + 3 * i; e = ($k - $6) / $6 - $(25 + i)
                                            if (e > 1e-4 || e < -1e-4) bad = 1 }
                  if ($37 != 2 || $6 != 10) bad = 1 }
    END { exit bad }' "$T/out.csv"
check "ndiss at p = 9 has no MPI_Barrier reference" \
    awk -F, '$1 == "shm" { n++; if ($37 != "") bad = 1 } END { exit bad || n != 1 }' "$T/out.csv"
check "no intervals for the shipped set: inside_* empty" \
    awk -F, '$1 == "p2p" || $1 == "shm" { for (k = 31; k <= 36; k++) if ($k != "") bad = 1 }
             END { exit bad }' "$T/out.csv"
"$P" --measured "$T/barrier.csv" --stat median --model logp --L 5 --o 1 --csv >"$T/median.csv" 2>/dev/null
check "--stat median: measured_us is barrier.csv's median_us, vs_mpi against MPI_Barrier's median" \
    awk -F, '$1 == "p2p" { ok = $6 == 10.5 && $37 + 0 > 1.909 && $37 + 0 < 1.91 } END { exit !ok }' \
    "$T/median.csv"
check "... and '# measured_stat:' says so" grep -q '^# measured_stat: median ' "$T/median.csv"
check "the verdict names the closest model" grep -q '^# closest to the measurements: the ' \
    "$T/out.csv"
check "'# machine:' names the source of every parameter, the series each row's own" grep -qx \
    "# machine: L, o_s from the shipped set (each row's series, min at p = 1); o_r from the shipped set (each row's series, min at p = 1; o_s(1) where it has no o_r fit); g from the default 0 (thesis 2.1.4.5: g << o); LoP o(p), L(p) from the shipped set (each row's series, min)" \
    "$T/out.csv"
check "an old file without a series column: one warning naming the old mapping" \
    test "$(grep -c 'has no series column .*p2p is compared with send-normal' "$T/err")" -eq 1

# A row that asks for the predictions of the row before (barrier-congested.csv
# repeats them per condition) gets them again; any other row its own: every
# row of a file whose keys repeat and alternate equals that row joined alone.
keys="p2p,send-normal,diss,,4 p2p,send-normal,diss,,4 p2p,send-normal,diss,,8 p2p,send-inline,diss,,8
      shm,rdmaw-normal,diss,,8 shm,rdmaw-normal,ndiss,2,8 shm,rdmaw-normal,ndiss,3,8 p2p,send-normal,diss,,4"
{ echo 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us'
  for k in $keys; do echo "$k,10,10.0,11,10.5,12,20"; done; } >"$T/repeat.csv"
"$P" --measured "$T/repeat.csv" --csv 2>/dev/null | grep -v -e '^#' -e '^executor' >"$T/repeat.out"
i=0 same=0
for k in $keys; do
    i=$((i + 1))
    { echo 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us'
      echo "$k,10,10.0,11,10.5,12,20"; } >"$T/one.csv"
    alone=$("$P" --measured "$T/one.csv" --csv 2>/dev/null | grep -v -e '^#' -e '^executor')
    [ "$alone" = "$(sed -n "${i}p" "$T/repeat.out")" ] && same=$((same + 1))
done
check "rows that repeat and alternate: each equals its row joined alone ($same of $i)" \
    test "$same,$(wc -l <"$T/repeat.out")" = "$i,$i"

# '# overheads:' - o_s(1) + o_r(1) against RTT(1)/2, series by series, and
# the case it puts the machine in (o_s(1) standing in for a missing o_r)
H=file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,se1,se2,se3,se4,se5,se6
printf '%s\n' "$H" "f,send-normal,rtt,min,const,4,1,4,20,,,,,,,,,,,,,," \
    "f,send-normal,os,min,const,4,1,4,3,,,,,,,,,,,,,," "f,send-normal,or,min,const,4,1,4,1,,,,,,,,,,,,,," \
    "f,send-inline,rtt,min,const,4,1,4,100,,,,,,,,,,,,,," "f,send-inline,os,min,const,4,1,4,2,,,,,,,,,,,,,," \
    "f,rdmaw-normal,rtt,min,const,4,1,4,4,,,,,,,,,,,,,," "f,rdmaw-normal,os,min,const,4,1,4,1.5,,,,,,,,,,,,,," \
    "f,rdmaw-inline,rtt,min,const,4,1,4,-2,,,,,,,,,,,,,," "f,rdmaw-inline,os,min,const,4,1,4,1,,,,,,,,,,,,,," \
    >"$T/overheads.csv"
"$P" --measured "$T/barrier.csv" --params "$T/overheads.csv" --csv >"$T/over.out" 2>/dev/null
line=$(sed -n 's/^# overheads: //p' "$T/over.out")
check "'# overheads:' for each series, o_r of its fit or o_s(1), and the case: $line" test \
    "$(echo "$line" | sed 's/^[^:]*: //')" = "send-normal 4 of 10 us (40 %: o a sizable part of the latency), send-inline 4 of 50 us (8 %: o << L holds), rdmaw-normal 3 of 2 us (150 %: the host's overheads make most of the latency: o << L does not hold, LoP's L(1) = RTT(1)/2 - 2 o_s(1) undercounts a message, the loop and the bucket keep RTT(1)/2), rdmaw-inline 2 of -1 us (no one-way time)"

# column NAME FILE: the rows' values of one column, by the header's name
column() { awk -F, -v want="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    { printf "%s ", $c[want] }' "$2"; }
# '# duplex:' - scenario 3's exchange X(1) calibrates the loop's: with
# PRTT(k) = 16 + 8 k, o_s = 7, o_r = 1 an exchange costs 12 apart, 16 shared;
# X(1) = 15.5 between them is apart adapters' gap, and pe at P = 2 (one
# exchange) then costs 15.5, tour (a message each way in turn) still 24.
# Without a gap (no prtt fit) the two are one, 2 us (L = 0); X(1) = 2.5,
# the host bound (o_s + o_r = 2 >= L), gives the gap that makes the shared
# exchange take it: 0.5 (max{L, g} + o_s + o_r).  With o_s + o_r = 1.5
# below L = 10.5 X(1) = 18, above shared, is apart adapters' gap.
# '# duplex:' - scenario 3's exchange X(1) picks the loop's adapter: with
# PRTT(k) = 16 + 8 k, o_s = 7, o_r = 1 an exchange costs 12 apart, 16 shared;
# X(1) = 15.5 takes shared, and pe at P = 2 (one exchange) then costs 16.
# Without a gap (no prtt fit) the two are one, 2 us (L = 0); X(1) = 2.5,
# the host bound (o_s + o_r = 2 >= L), gives the gap that makes the shared
# exchange take it: 0.5 (max{L, g} + o_s + o_r).  With o_s + o_r = 1.5
# below L = 10.5 shared (16: its L calibrated to 4) is closer to X(1) = 18
# but refused.
printf '%s\n' "$H" "f,send-normal,rtt,min,const,4,1,4,20,,,,,,,,,,,,,," \
    "f,send-normal,os,min,const,4,1,4,7,,,,,,,,,,,,,," "f,send-normal,or,min,const,4,1,4,1,,,,,,,,,,,,,," \
    "f,send-normal,prtt,min,linear,8,1,8,16,8,,,,,,,,,,,,," "f,send-normal,exch,min,const,1,1,1,15.5,,,,,,,,,,,,,," \
    "f,rdmaw-normal,rtt,min,const,4,1,4,4,,,,,,,,,,,,,," "f,rdmaw-normal,os,min,const,4,1,4,1,,,,,,,,,,,,,," \
    "f,rdmaw-normal,exch,min,const,1,1,1,2.5,,,,,,,,,,,,,," \
    "f,send-inline,rtt,min,const,4,1,4,20,,,,,,,,,,,,,," "f,send-inline,os,min,const,4,1,4,1,,,,,,,,,,,,,," \
    "f,send-inline,or,min,const,4,1,4,0.5,,,,,,,,,,,,,," "f,send-inline,prtt,min,linear,8,1,8,16,8,,,,,,,,,,,,," \
    "f,send-inline,exch,min,const,1,1,1,18,,,,,,,,,,,,,," >"$T/duplex.csv"
printf '%s\n' executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us \
    p2p,send-normal,pe,,2,10,16,16,16,16,20 p2p,send-normal,tour,,2,10,32,32,32,32,40 >"$T/dx-bar.csv"
"$P" --measured "$T/dx-bar.csv" --params "$T/duplex.csv" --csv >"$T/dx.out" 2>/dev/null
line=$(sed -n 's/^# duplex: //p' "$T/dx.out")
# The gap is a root found to 1e-6 us: its digits beyond are the solver's.
gap=$(echo "$line" | sed -n 's/.*rdmaw-normal X(1) = 2.5 us, the loop apart 2, shared \([0-9.]*\) us: shared (the gap from X(1): \([0-9.]*\) us a message).*/\1 \2/p')
# The gaps are roots found to 1e-6 us: rounded to 4 digits here.
check "'# duplex:' for each series with an exchange, and the adapter taken: $line" test \
    "$(echo "$line" | sed 's/^.*The loop"): //; s/rdmaw-normal X(1) = [^;]*; //' |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+,?$/) { c = $i ~ /,$/; $i = sprintf("%.4g", $i) (c ? "," : "") } print }')" = \
    "send-normal X(1) = 15.5 us, the loop apart 15.5, shared 16 us: apart (the gap from X(1): 15.5 us a message); send-inline X(1) = 18 us, the loop apart 18, shared 16 us: apart (the gap from X(1): 18 us a message)"
check "... rdmaw-normal, without a gap of its own: shared, with the gap 0.5 us that makes its exchange X(1) = 2.5 ($gap)" \
    sh -c "echo '$gap' | awk 'NF == 2 && \$1 - 2.5 < 1e-6 && 2.5 - \$1 < 1e-6 && \$2 - 0.5 < 1e-6 && 0.5 - \$2 < 1e-6 { ok = 1 } END { exit !ok }'"
pe_tour=$(column loop_us "$T/dx.out")
check "... the loop takes it: pe at P = 2 costs X(1) = 15.5, tour (a message each way in turn) PRTT(1) = 24 ($pe_tour)" \
    sh -c "echo '$pe_tour' | awk '{ exit !(\$1 - 15.5 < 1e-5 && 15.5 - \$1 < 1e-5 && \$2 == 24) }'"
check "'# ack:' without a ring: none charged" \
    test "$(sed -n 's/^# ack: .*The loop"): *//p' "$T/dx.out")" = "the set has no ring: none charged"
# '# ack:' - scenario 3's ring R(P) prices the acknowledgement of a message
# never answered on its pair: send-normal's loop above with X(1) = 12
# (apart) runs the ring of 4 ranks in 12 us a round, and R(4) = 20 makes the
# acknowledgement 12 (the gap 8 plus it).  diss at P = 4 leaves a rank's
# message from r - 1 unanswered: 32 instead of 24; at P = 3 it answers
# every message: 24.
{ echo "$H"; grep '^f,send-normal,' "$T/duplex.csv" | sed 's/,exch,min,const,1,1,1,15.5,/,exch,min,const,1,1,1,12,/'
  echo "f,send-normal,ring,avg,const,1,4,4,20,,,,,,,,,,,,,,"; } >"$T/ring.csv"
printf '%s\n' executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us \
    p2p,send-normal,diss,,4,10,32,32,32,32,40 p2p,send-normal,diss,,3,10,24,24,24,24,30 >"$T/r-bar.csv"
"$P" --measured "$T/r-bar.csv" --params "$T/ring.csv" --csv >"$T/r.out" 2>/dev/null
line=$(sed -n 's/^# ack: //p' "$T/r.out")
check "'# ack:' for each series with a ring, and the acknowledgement charged: $line" test \
    "$(echo "$line" | sed 's/^.*The loop"): //')" = "send-normal R(4) = 20 us, the loop's ring 12 us: ack 12 us"
check "... the loop charges it: diss at P = 4 costs 32, at P = 3 (all answered) 24" \
    test "$(column loop_us "$T/r.out")" = "32 24 "
# --loop in the default mode prices as --measured does, from the same set
"$P" --params "$T/ring.csv" --series send-normal --alg diss --p 3,4 --loop --csv >"$T/pl.out" 2>"$T/pl.err"
check "--loop: the loop's times as --measured's (diss at P = 3 and 4: 24, 32)" \
    test "$(column loop_us "$T/pl.out")" = "24 32 "
check "... and the bucket's, the loop's where the set has no round" \
    test "$(column bucket_us "$T/pl.out")" = "24 32 "
check "... after the set's '# ack:' line" grep -q '^# ack: .*send-normal R(4) = 20 us' "$T/pl.out"


# barrier.csv's series column (lopbench writes each executor's own): used as given.
cat >"$T/series.csv" <<'CSV'
executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
p2p,rdmaw-inline,diss,,4,10,10.0,10.0,10.0,10.0,20
newexec,send-inline,diss,,4,10,10.0,10.0,10.0,10.0,20
mpi,,MPI_Barrier,,4,10,5.0,5.0,5.0,5.0,20
CSV
"$P" --measured "$T/series.csv" --csv >"$T/series.out" 2>"$T/series.err"
check "the series column decides the series, any executor name" \
    sh -c "grep -q '^p2p,diss,,4,rdmaw-inline,' '$T/series.out' && grep -q '^newexec,diss,,4,send-inline,' '$T/series.out'"
check "... and no warning" test ! -s "$T/series.err"
"$P" --measured "$T/barrier.csv" --series rdmaw-inline --csv >"$T/fixed.csv"
check "--series fixes the series for every row" \
    test "$(grep -c ',rdmaw-inline,' "$T/fixed.csv")" -eq 2
# LogP from --L, --o alone reads no set: the rows' series are labels (it
# crashed with --series, and printed "(null): no rtt fit" without).
for x in "" "--series send-normal"; do
    "$P" --measured "$T/barrier.csv" --model logp --L 5 --o 1 $x --csv >"$T/logp.out" 2>/dev/null
    rc=$?
    check "--model logp --L 5 --o 1 ${x:-(no --series)}: exit 0 ($rc), diss at p = 4 2 (o + L + o) = 14 us, no set named" \
        sh -c "test $rc -eq 0 && grep -q '^p2p,diss,,4,send-normal,10,14,,,,,,14,' '$T/logp.out' && ! grep -q '^# params:' '$T/logp.out' && grep -qx '# machine: L from --L 5; o_s, o_r from --o 1; g from the default 0 (thesis 2.1.4.5: g << o)' '$T/logp.out'"
done
# rgm's release is one MCAST; lopbench's executors without hardware
# multicast send it as P - 1 messages, and the simulations price those:
# at P = 4, L = 5, o = 1 the reports are taken by 9, the releases leave
# at 10, 11, 12 (verbs: one at 10), the last is taken at 18 (verbs: 16).
cat >"$T/rgm.csv" <<'CSV'
executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
p2p,send-normal,rgm,3,4,10,20,20,20,20,20
verbs,send-normal,rgm,3,4,10,20,20,20,20,20
CSV
"$P" --measured "$T/rgm.csv" --model logp --L 5 --o 1 --csv >"$T/rgm.out" 2>/dev/null
check "rgm on p2p is simulated with P - 1 releases (18 us), on verbs with one multicast (16 us)" \
    test "$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { printf "%s=%s,%s ", $1, $c["logp_us"], $c["sim_logp_us"] }' "$T/rgm.out")" = "p2p=16,18 verbs=16,16 "
check "... and '# mcast:' says so" grep -q '^# mcast: the simulations of rows of executors other than verbs send an MCAST as P - 1 messages' "$T/rgm.out"
check "... '# machine:' names it, and --L, --o" sh -c "'$P' --measured '$T/barrier.csv' --series rdmaw-inline --L 5 --o 1 --csv | grep -qx \
    '# machine: L from --L 5; o_s, o_r from --o 1; g from the default 0 (thesis 2.1.4.5: g << o); LoP o(p), L(p) from the shipped set (rdmaw-inline min)'"

# inside_*: with a set that has covariance (README.md "Data formats": its
# appended columns; RTT 20 us and o_s 1 us, variances 4 and 0.01: diss LoP at
# P = 64 is 54 us, interval about 42..66), a measurement at 54 us lies
# inside, one at 500 not.
cov_set "$T/cov.csv" 4 0.01
cat >"$T/inside.csv" <<'CSV'
executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
verbs,rdmaw-inline,diss,,64,10,54,54,54,54,60
verbs,rdmaw-inline,diss,,64,10,500,500,500,500,600
CSV
"$P" --measured "$T/inside.csv" --params "$T/cov.csv" --csv >"$T/inside.out" 2>"$T/inside.err"
check "--measured with a set with covariance (exit 0)" test $? -eq 0
check "... every prediction has an interval around it" awk -F, '
    $1 == "verbs" { n++; for (k = 7; k <= 19; k += 3) if (!($(k + 1) <= $k && $k <= $(k + 2))) bad = 1 }
    END { exit bad || n != 2 }' "$T/inside.out"
check "... a measurement at the prediction is inside the LoP intervals" \
    awk -F, '$1 == "verbs" && $6 == 54 { ok = $32 == "yes" && $34 == "yes" } END { exit !ok }' \
    "$T/inside.out"
check "... one 10 times off is outside every interval" \
    awk -F, '$1 == "verbs" && $6 == 500 { ok = $31 $32 $33 $34 $35 == "nonononono" } END { exit !ok }' \
    "$T/inside.out"
check "... inside is yes exactly when lo <= measured <= hi" awk -F, '
    $1 == "verbs" { for (i = 0; i < 5; i++) { k = 7 + 3 * i
        if (($(31 + i) == "yes") != ($(k + 1) <= $6 && $6 <= $(k + 2))) bad = 1 } }
    END { exit bad }' "$T/inside.out"

# The bucket (models/README.md "The bucket"): priced on the series' round
# fit T(p) = p RTT(p).  A bucket row T(1) = 40, g = l3 = 6, B = l4 = 3, with
# o_s = o_r = 1 (cov.csv's os; no or fit): L = 40/2 - 2 = 18.  cc at P = 2
# is a report and a release back to back, 2 (o_s + L + o_r) = T(1) = 40; diss
# at P = 8 three such rounds, 60; one message per rank and round never
# waits for g.  The loop on RTT(1) = 20 is half of that.
round_row() { # MODEL L1 L2 L3 L4 VAR_L1
    printf 'x,rdmaw-inline,round,min,%s,1000,1,16,%s,%s,%s,%s,,,1,1,1,,,,,,,%s' "$@"
    printf ',0%.0s' $(seq 20)
    printf ',,none,forced,5,,,\n'
}
{ cat "$T/cov.csv"; round_row bucket 40 2 6 3 4; } >"$T/round.csv"
cat >"$T/bucket.csv" <<'CSV'
executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
verbs,rdmaw-inline,cc,,2,10,40,40,40,40,60
verbs,rdmaw-inline,diss,,8,10,50,50,50,50,60
CSV
"$P" --measured "$T/bucket.csv" --params "$T/round.csv" --csv >"$T/bucket.out" 2>"$T/bucket.err"
check "a round fit: exit 0" test $? -eq 0
check "... bucket_us is T(1) for cc at P = 2 and 3 T(1)/2 for diss at P = 8 (40, 60)" \
    test "$(column bucket_us "$T/bucket.out")" = "40 60 "
check "... the loop beside it is on RTT(1) (20, 30)" test "$(column loop_us "$T/bucket.out")" = "20 30 "
check "... err_bucket is (bucket - measured) / measured (0, 0.2)" \
    test "$(column err_bucket "$T/bucket.out")" = "0 0.2 "
check "... the round row's covariance gives an interval around it, inside_bucket as for the others" \
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { n++; if (!($c["bucket_lo_us"] < $c["bucket_us"] && $c["bucket_us"] < $c["bucket_hi_us"])) bad = 1
          in_ = $c["bucket_lo_us"] <= $6 && $6 <= $c["bucket_hi_us"] ? "yes" : "no"
          if ($c["inside_bucket"] != in_) bad = 1 }
        END { exit bad || n != 2 }' "$T/bucket.out"
check "... '# bucket:' names the round fit it used" grep -q \
    '^# bucket: the loop .*; round fits: rdmaw-inline bucket (T(1) = 40 us, g = 6 us, B = 3)$' \
    "$T/bucket.out"
check "... and the summary compares it" grep -q '^# mean |error| of the bucket .*: 10.0% over 2 rows' \
    "$T/bucket.out"
# The fidelity table (scripts/fidelity.awk), its figure (plots/fidelity.gp)
# and the demo's table take the models from lopredict's columns: the bucket
# among them.
printf 'executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\nverbs,cc,,2,10,40,40,40,41,60\nverbs,diss,,8,10,50,50,50,52,60\n' \
    >"$T/bar.csv"
fid() { awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode="$1" "$T/bar.csv" "$T/bucket.out"; }
fid summary >"$T/fid.txt"
check "fidelity.awk: a summary row of the bucket (2 rows, |error| 0 and 20 %, cc inside)" \
    grep -Eq '^bucket +2 +10\.0% +20\.0% +2/2 +1/2$' "$T/fid.txt"
check "... no two rows priced alike (cc at 2, diss at 8): the alike line says so" \
    grep -qx 'alike: no two rows of one executor and P that every simulation prices alike' "$T/fid.txt"
# cc and tour at P = 2 are one ping-pong: every simulation prices them alike,
# so their measured medians, 40 and 50 us, are the machine's own spread.
printf 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\nverbs,rdmaw-inline,cc,,2,10,40,40,40,40,60\nverbs,rdmaw-inline,tour,,2,10,50,50,50,50,60\nverbs,rdmaw-inline,diss,,8,10,50,50,50,50,60\n' \
    >"$T/twins.csv"
printf 'executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\nverbs,cc,,2,10,40,40,40,41,60\nverbs,tour,,2,10,50,50,50,51,60\nverbs,diss,,8,10,50,50,50,52,60\n' \
    >"$T/twins-bar.csv"
"$P" --measured "$T/twins.csv" --params "$T/round.csv" --csv >"$T/twins.out" 2>/dev/null
awk -F, -f "$ROOT/scripts/fidelity.awk" -v mode=summary "$T/twins-bar.csv" "$T/twins.out" >"$T/twins.txt"
check "fidelity.awk: cc and tour at P = 2, priced alike, measured 25 % apart: the alike line" \
    grep -qx 'alike: verbs at P = 2, cc tour, priced alike by every simulation, measured 40..50 us: 25% apart, .*' \
    "$T/twins.txt"
fid csv >"$T/fid.csv"
check "... and its columns in fidelity.csv, after the loop's" \
    grep -q ',inside_loop,bucket_us,bucket_lo_us,bucket_hi_us,err_bucket,inside_bucket,flags$' "$T/fid.csv"
if command -v gnuplot >/dev/null 2>&1; then
    LC_ALL=C.UTF-8 gnuplot -e "in='$T/fid.csv'; out='$T/fid.svg'; term='svg'" \
        "$ROOT/plots/fidelity.gp" 2>"$T/gp.err" || diag "$(cat "$T/gp.err")"
    check "fidelity.gp plots every model of fidelity.csv, the bucket among them, without warnings" \
        test "$(grep -o -e '>LoP closed form<' -e '>LogP closed form<' -e '>LoP simulation<' \
            -e '>LogP simulation<' -e ">loop (RTT(1), PRTT's gap)<" \
            -e '>bucket (the loop, token-bucket adapters)<' "$T/fid.svg" | sort -u | wc -l),$(wc -c <"$T/gp.err")" = "6,0"
else
    skip "gnuplot is not installed"
fi
check "demo-table.awk -v model=bucket: the bucket's times and errors" test \
    "$(awk -F, -f "$ROOT/scripts/demo-table.awk" -v model=bucket -v mode=csv "$T/bucket.out" |
        cut -d, -f2,7,10 | tr '\n' ' ')" = "alg,predicted_us,err_pct cc,40,+0 diss,60,+20 "
# Where the round shows no token bucket the bucket is the loop: a linear
# round row (LogP's line), a bucket whose peers beyond the knot are no
# slower (l3 <= l2), or one with no measured peer beyond the knot.
printf 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\nverbs,rdmaw-inline,cc,,6,10,300,300,300,300,300\n' \
    >"$T/cc6.csv"
for r in "linear 10 30 '' '' 4|the round is a line" "bucket 40 6 2 3 4|no slower peers beyond the knot" \
    "bucket 40 2 6 15.5 4|no measured peer beyond the knot"; do
    why=${r#*|}
    eval "round_row ${r%%|*}" | { cat "$T/cov.csv"; cat; } >"$T/flat.csv"
    "$P" --measured "$T/cc6.csv" --params "$T/flat.csv" --csv >"$T/flat.out" 2>/dev/null
    check "round shows no bucket ($why): bucket_us is loop_us" \
        test "$(column bucket_us "$T/flat.out")" = "$(column loop_us "$T/flat.out")"
    check "... '# bucket:' says why" grep -q "round fits: rdmaw-inline [a-z]* (the loop: $why" "$T/flat.out"
done
# Without a round fit the bucket is the loop too.
check "no round fit (the shipped set, cov.csv): bucket_* = loop_*" awk -F, '
    /^executor,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
    /^#/ || !c["bucket_us"] { next }
    { n++; if ($c["bucket_us"] != $c["loop_us"] || $c["bucket_lo_us"] != $c["loop_lo_us"]) bad = 1 }
    END { exit bad || !n }' "$T/out.csv"
check "... and '# bucket:' says the set has none" grep -q '^# bucket: .*; the set has none: the loop$' "$T/out.csv"

# Bad input: one line naming file and line, exit 2, nothing on stdout.
refuses() { # NAME PATTERN CSV-TEXT
    printf '%s\n' "$3" >"$T/bad.csv"
    refuses_one_line "$1" 2 "$2" "$P" --measured "$T/bad.csv"
}
H=executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
refuses "unknown algorithm" "bad.csv:2: unknown algorithm 'fast'" "$H
p2p,fast,,4,10,1,2,1,1,2"
refuses "missing column" "bad.csv:1: no column 'avg_us'" "executor,alg,n,p
p2p,diss,,4"
refuses "non-numeric time" "bad.csv:2: column 'avg_us': 'x' is not a number" "$H
p2p,diss,,4,10,1,x,1,1,2"
refuses "p below 1" "bad.csv:2: column 'p': '0' is not a whole number in 1\.\." "$H
p2p,diss,,0,10,1,2,1,1,2"
refuses "p beyond any schedule" "bad.csv:2: column 'p': '20000000' is not a whole number in 1\.\." "$H
p2p,diss,,20000000,10,1,2,1,1,2"
S=executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us
refuses "an executor without a series" "bad.csv:2: executor 'p2p' has no series" "$S
p2p,,diss,,4,10,1,2,1,1,2"
refuses "a series the set does not have" "bad.csv:2: .*no rtt fit for series 'nope'" "$S
p2p,nope,diss,,4,10,1,2,1,1,2"
refuses "n = 0 for an algorithm that takes n (once printed as its default n = 4)" \
    "bad.csv:2: n = 0: comb takes an n >= 1" "$H
p2p,comb,0,4,10,1,2,1,1,2"
# A schedule file that deadlocks, on a later row: refused before the first
# line, naming barrier.csv's line and the schedule file (8 lines came first).
printf '# p: 2\nrank,step,op,peer\n0,0,recv,1\n0,0,send,1\n1,0,recv,0\n1,0,send,0\n' >"$T/cyc.csv"
refuses "a deadlocking schedule file on row 3: file, line and schedule named" \
    "bad.csv:3: $T/cyc.csv:3: schedule cyc.csv: deadlock" "$H
p2p,diss,,4,10,1,2,1,1,2
p2p,file:cyc.csv,,2,10,1,2,1,1,2"
# A schedule file's row without a name (it once read as "schedule '' is for 0
# ranks") or with one lopbench never writes: refused by its line.
refuses "a file: row without a name" \
    "bad.csv:2: alg 'file:': the schedule file's name after 'file:' must be" "$H
p2p,file:,,2,10,1,2,1,1,2"
refuses "a file: row naming a path" "bad.csv:2: alg 'file:../cyc.csv': the schedule file's name" "$H
p2p,file:../cyc.csv,,2,10,1,2,1,1,2"
# Hybrid rows (lopbench --alg hybrid) are not predicted here: each is flagged,
# and the comment above the table says why (they once came out silently empty).
printf '%s\np2p,hybrid,,4,10,1,2,1,1,2\np2p,diss,,4,10,1,2,1,1,2\n' "$H" >"$T/hyb.csv"
"$P" --measured "$T/hyb.csv" --csv >"$T/hyb.out" 2>"$T/hyb.err"
check "a hybrid row: empty predictions, flagged needs-costs; the diss row not" \
    awk -F, '$2 == "hybrid" { h++; for (k = 7; k <= 36; k++) if ($k != "") bad = 1
                                if ($38 != "needs-costs") bad = 1 }
             $2 == "diss" { d++; if ($38 ~ /needs-costs/) bad = 1 }
             END { exit bad || h != 1 || d != 1 }' "$T/hyb.out"
check "... the comment names the flag and what predicts it" \
    grep -q '^# hybrid rows: not predicted, flagged needs-costs (they need per-pair costs: .*--costs FILE --placement FILE)' "$T/hyb.out"
"$P" --measured "$T/nosuch.csv" >"$T/out" 2>"$T/err"
check "missing file: exit 2 naming it" sh -c "[ $? -eq 2 ] && grep -q 'nosuch.csv: cannot open' '$T/err'"
done_testing
