#!/bin/sh
# 72-lab.t - the slow-NIC lab (scripts/cluster.sh --nic) and the fidelity
# table of scripts/validate.sh on it: 4 nodes, each link shaped both ways by
# the token-bucket filter, 4 ranks on this machine's cores.  No timing is
# asserted: the table's rows and columns, the machine named in its
# metadata, and the loop model's calibration identity on the lab's own fits.
. "$(dirname "$0")/lib.sh"
tc qdisc help 2>&1 | grep -q tbf || ip -V >/dev/null 2>&1 || {
    echo "1..0 # SKIP no tc (iproute2) here"
    exit 0
}
tmpdir
cluster_start 2 shared --nic 5mbit:400:360

# ---- the shaping, both ends of every link
check "DIR/nic records the shaping" test "$(cat "$C/nic")" = "rate 5mbit burst 400 mtu 360"
for i in 0 1; do
    check "node$i: eth0 has MTU 360 and a tbf of 5Mbit, burst 400b" sh -c \
        "'$A' node$i 'ip -o link show eth0' | grep -q ' mtu 360 ' &&
         '$A' node$i 'tc qdisc show dev eth0' 2>/dev/null | grep -q 'tbf .*rate 5Mbit burst 400b'"
    check "node$i: its switch port too" sh -c "ip netns exec $(cat "$C/tag")-sw tc qdisc show dev v$(cat "$C/tag")-$i |
        grep -q 'tbf .*rate 5Mbit burst 400b'"
done
"$A" node0 "timeout 60 mpirun.openmpi --mca plm_rsh_agent $A --bind-to none --host node0:1,node1:1 \
    -np 2 $(shquote "$BIN/lopbench") --scenario 2 --ops send --post normal --reps 5 --warmup 1 \
    -o $T/s2" >"$T/s2.out" 2>&1
check "lopbench across the shaped link: exit 0, RTT(1) written" test -s "$T/s2/send-normal-rtt.csv"
"$ROOT/scripts/cluster.sh" down "$C"
check "down: no namespace of the cluster left" sh -c "! ip netns list | grep -q '^$(cat "$C/tag" 2>/dev/null || echo none)-'"

# ---- bad settings: one line, exit 1 (cluster.sh) or 2 (validate.sh), nothing made
# (9>&-: a cluster made by mistake must not hold the suite's lock; it is
# taken down again)
for bad in 5mbps 5mbit:10 5mbit:400:50 5mbit:400:360:1 ''; do
    { refuses_one_line "cluster.sh --nic '$bad' refused" 1 "--nic" "$ROOT/scripts/cluster.sh" up "$T/bad" 2 --nic "$bad"; } 9>&-
done
check "... and no state directory made" test ! -e "$T/bad/tag"
"$ROOT/scripts/cluster.sh" down "$T/bad"
refused() { # NAME PATTERN VAR=VALUE...: validate.sh says one line naming the setting, exit 2
    _n=$1 _p=$2
    shift 2
    env "$@" OUT="$T/v0" "$ROOT/scripts/validate.sh" >"$T/r.out" 2>"$T/r.err"
    check "$_n (exit $?)" sh -c "[ $? -eq 2 ] && [ ! -s '$T/r.out' ] && [ \$(wc -l <'$T/r.err') -eq 1 ] &&
        grep -q '^validate.sh: $_p' '$T/r.err'"
}
refused "validate.sh MACHINE=bogus" "MACHINE=bogus: expected local, tcp, lab or slurm" MACHINE=bogus
refused "validate.sh REPS=abc" "REPS=abc: expected a whole number" MACHINE=lab REPS=abc
refused "validate.sh STAT=p99" "STAT=p99: expected min, avg or median" STAT=p99
refused "validate.sh PPN=08 (the shell reads 010 as 8)" "PPN=08: a whole number without a leading zero" \
    MACHINE=lab PPN=08
refused "validate.sh LAUNCH_S=0 (timeout 0 waits for ever)" "LAUNCH_S=0: at least 1" MACHINE=lab LAUNCH_S=0
refused "validate.sh IDLE_US=1e3" "IDLE_US=1e3: expected a whole number of microseconds" MACHINE=lab IDLE_US=1e3
# the settings machine_check derives: the cool-down, and the round's fit
settings() { # MACHINE NODES PPN [IDLE_US]
    env MACHINE="$1" NODES="$2" PPN="$3" ${4:+IDLE_US=$4} ROOT="$ROOT" TOOL=t \
        sh -c '. "$ROOT/scripts/machine.sh"; machine_check; echo "$IDLE_US,$ROUND"'
}
check "machine.sh: scenario 2 cools down 1000 us, or as given (300)" test \
    "$(settings lab 4 1),$(settings tcp 2 1),$(settings lab 4 1 300)" = "1000,,1000,,300,"
check "... the round fitted with the bucket from 7 ranks on (6 points), selected below" test \
    "$(settings lab 4 2),$(settings lab 6 1)" = "1000,--model round=bucket,1000,"
check "... no output directory from a refused run" test ! -e "$T/v0"

# ---- the fidelity table on the lab: 4 nodes, 4 ranks on this machine's cores
V=$T/v
MACHINE=lab NODES=4 NIC=5mbit REPS=20 OUT=$V "$ROOT/scripts/validate.sh" >"$T/v.out" 2>"$T/v.err" 9>&-
check "validate.sh MACHINE=lab NODES=4: exit 0" test $? -eq 0
[ -s "$V/fidelity.csv" ] || diag "$(tail -n 5 "$T/v.err")"
tag=$(sed -n 's/.*network namespaces \(lopc[0-9]*\)-\*.*/\1/p' "$T/v.err")
check "... its cluster is gone (namespaces $tag-*)" sh -c "[ -n '$tag' ] && ! ip netns list | grep -q '^$tag-'"
check "... fidelity.txt, fidelity.csv, fidelity.png and data/, no .partial left" sh -c \
    "test -s '$V/fidelity.txt' && test -s '$V/fidelity.csv' && test -s '$V/fidelity.png' &&
     test -s '$V/data/barrier.csv' && test ! -e '$V.partial'"
F=$V/fidelity.csv
check "... the machine named: 4 nodes, the shaping, emulated" \
    grep -q '^# machine: lab: 4 nodes .*tbf rate 5mbit burst 400 mtu 360 (emulated slow NICs' "$F"
check "... the MPI named, and 4 ranks on $(nproc) cores said oversubscribed or not" sh -c \
    "grep -q '^# mpi: Open MPI ' '$F' && grep -qx '# oversubscribed: $([ "$(nproc)" -lt 4 ] && echo yes || echo no)' '$F'"
check "... the statistic: median, fitted, predicted and measured alike" grep -q '^# stat: median (' "$F"
check "... the cool-down and how the round was fitted (4 ranks: 3 points, selected)" sh -c \
    "grep -qx '# idle_us: 1000 (scenario 2.s cool-down after each round.s barrier)' '$F' &&
     grep -qx '# round: lopfit.s selection (AICc)' '$F'"
check "... which case each series is in: its overheads against RTT(1)/2" \
    grep -Eq '^# overheads: .*: send-normal [0-9.e+-]+ of [0-9.e+-]+ us \([0-9]+ %: ' "$F"
check "... the columns" grep -qx 'executor,alg,n,p,measured_us,p99_us,logp_us,logp_lo_us,logp_hi_us,err_logp,inside_logp,lop_us,lop_lo_us,lop_hi_us,err_lop,inside_lop,sim_logp_us,sim_logp_lo_us,sim_logp_hi_us,err_sim_logp,inside_sim_logp,sim_lop_us,sim_lop_lo_us,sim_lop_hi_us,err_sim_lop,inside_sim_lop,loop_us,loop_lo_us,loop_hi_us,err_loop,inside_loop,bucket_us,bucket_lo_us,bucket_hi_us,err_bucket,inside_bucket,flags' "$F"
# one row per executor and algorithm lopbench ran (MPI_Barrier is no prediction)
want=$(grep -v '^#' "$V/data/barrier.csv" | awk -F, 'NR > 1 && $1 != "mpi" { n++ } END { print n + 0 }')
got=$(grep -v '^#' "$F" | awk 'NR > 1 { n++ } END { print n + 0 }')
nalg=$("$BIN/lopredict" --list-algs --csv | awk -F, 'NR > 1 && $4 == "yes" { n++ } END { print n }')
check "... a row per executor and algorithm ($got; barrier.csv $want, $nalg algorithms)" \
    sh -c "[ $got -eq $want ] && [ $got -ge $nalg ]"
check "... every row at P = 4 with a measured time and p99 >= it" awk -F, '
    /^#/ || /^executor/ { next } { n++; if ($4 != 4 || !($5 > 0) || !($6 + 0 >= $5 + 0)) bad = 1 }
    END { exit bad || !n }' "$F"
check "... errors are lopredict's: (predicted - measured) / measured, for every model" awk -F, '
    /^#/ || /^executor/ { next }
    { for (k = 7; k <= 32; k += 5) if ($k != "") { e = ($k - $5) / $5 - $(k + 3); if (e > 1e-6 || e < -1e-6) bad = 1 } }
    END { exit bad }' "$F"
check "... the summary: six models with median |error| and share inside" sh -c \
    "grep -A6 '^model ' '$V/fidelity.txt' | grep -c -e '^logp ' -e '^lop ' -e '^sim_logp ' -e '^sim_lop ' -e '^loop ' -e '^bucket ' | grep -qx 6"

# ---- the calibration identity on the lab's fits: the loop predicts a
# report and a release at P = 2 as PRTT(1), the round trip back to back (one
# message PRTT(1)/2), unless the adapter's time for the pair is longer: g,
# or the gap G that makes the exchange take X(1) (`# duplex:`), a message
# pair's G through adapters apart, 2 G through one shared
printf 'executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\np2p,send-normal,cc,,2,1,1,1,1,1,1\n' \
    >"$T/cc2.csv"
"$BIN/lopredict" --measured "$T/cc2.csv" --params "$V/data/params.csv" --stat median --csv \
    >"$T/cc2.out" 2>/dev/null
loop=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } { print $c["loop_us"] }' "$T/cc2.out")
duplex=$(sed -n 's/^# duplex: .* send-normal X(1) = [^,]*, the loop apart [^,]*, shared [^ ]* us: \([a-z]*\)\( (the gap from X(1): \([0-9.e+-]*\) us a message)\)\{0,1\}.*/\1 \3/p' "$T/cc2.out")
want=$(awk -F, -v duplex="$duplex" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $c["series"] == "send-normal" && $c["stat"] == "median" {
        l1 = $c["l1"]; l2 = $c["l2"]
        if ($c["quantity"] == "prtt") { g = $c["model"] == "linear" ? l2 : 0; rtt = l1 + g } }
    END { split(duplex, d, " "); G = (d[1] == "shared" ? 2 : 1) * (d[2] + 0)
          m = rtt > g ? rtt : g; printf("%.9g", m > G ? m : G) }' "$V/data/params.csv")
check "the loop of cc at P = 2 on the lab's fits is max{PRTT(1), g, the pair's gap from X(1)} = $want us ($loop; duplex: $duplex)" \
    awk -v a="$loop" -v b="$want" -v d="$duplex" 'BEGIN { x = a - b; exit !(d != "" && b > 0 && x < 1e-6 * b && x > -1e-6 * b) }'
done_testing
