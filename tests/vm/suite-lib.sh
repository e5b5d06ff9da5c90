# suite-lib.sh - what the VM suites (verbs-suite.sh, hosts-suite.sh) share:
# their checks are recorded in $W/checks.sh, with arguments expanded now,
# and run on the host once the VMs have stopped (50-verbs-vm.t,
# 51-verbs-hosts.t), at native speed.  Sourced after tests/lib.sh, with W
# (the shared work directory) and B (lopbench) set.

record() { { shquote "$@" && echo; } >>"$W/checks.sh"; }
check() { record check "$@"; }
pass() { record pass "$@"; }
fail() { record fail "$@"; }
diag() { record diag "$@"; }
done_testing() { record vm_suite_done; }

# check_runs: how many barriers lopbench --barrier --check --n 1..2 runs,
# from lopredict's table: every algorithm with a schedule, twice if it
# takes n.
check_runs() {
    echo $(($(algs schedule=yes | wc -l) + $(algs schedule=yes takes_n=yes | wc -l)))
}

# timed NAME CMD...: run CMD, output to $W/NAME.out, seconds to $W/times
timed() {
    _n=$1; shift
    _t0=$(date +%s)
    "$@" >"$W/$_n.out" 2>&1
    _rc=$?
    echo "$_n $(($(date +%s) - _t0))" >>"$W/times"
    return $_rc
}

# mcast_series NAME NP WHERE MPIRUN...: scenario 2's multicast series
# (bench/README.md "Multicast"), one hardware multicast
# out and p RDMA writes back, with rdmaw-normal (its answers' series) in
# $W/NAME; then, on the host, lopfit fits both and lopredict prices rgm's
# release with them.  WHERE (e.g. "np 3", "2 hosts") begins each check.
mcast_series() {
    _n=$1 _np=$2 _w=$3; shift 3
    timed "$_n" "$@" "$B" --transport verbs --ops rdmaw,mcast --post normal --reps $REPS \
        --warmup 2 --max-post $K --idle-us 20 -o "$W/$_n"
    check "$_w: --ops rdmaw,mcast exits 0" test $? -eq 0
    for _f in mcast-normal-rtt mcast-normal-os rdmaw-normal-rtt; do
        check "$_w: $_f.csv has rows 1..$((_np - 1))" rows_ok "$W/$_n/$_f.csv" $((_np - 1)) $REPS
    done
    check "$_w: rdmaw-normal-os.csv has rows 1..$K" rows_ok "$W/$_n/rdmaw-normal-os.csv" $K $REPS
    check "$_w: 5 files (rdmaw's os, oc, rtt; mcast's rtt and os)" \
        test "$(ls "$W/$_n" | wc -l)" -eq 5
    check "$_w: the rtt's definition is the multicast's" grep -q \
        '^# definition: RTT(p) = (t4 - t1)/p: rank 0 posts one hardware multicast' \
        "$W/$_n/mcast-normal-rtt.csv"
    check "$_w: lopfit fits the multicast's rtt and os" \
        sh -c '"$1" -o "$2/fit" "$2"/*-rtt.csv "$2"/*-os.csv >"$2/fit.out" 2>&1 &&
               grep -c "^[^#]*,mcast-normal,\(rtt\|os\),min," "$2/fit/params.csv" | grep -qx 2' \
        sh "$BIN/lopfit" "$W/$_n"
    check "$_w: lopredict prices rgm's release with it" \
        sh -c '"$1" --params "$2/fit/params.csv" --series rdmaw-normal --alg rgm --p "$3" \
               --model lop --simulate >"$2/predict.out" 2>&1 &&
               grep -q "^# machine: .*a multicast (rgm.s release) o_mc, L_mc(P-1) from mcast-normal" \
                   "$2/predict.out" && grep -q "^rgm " "$2/predict.out"' \
        sh "$BIN/lopredict" "$W/$_n" "$_np"
}
