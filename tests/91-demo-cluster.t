#!/bin/sh
# 91-demo-cluster.t - make demo NODES=2 NIC=...: the main job end to end on a virtual
# cluster of two nodes with shaped links (scripts/cluster.sh --nic): scenarios and timed barriers
# with one rank on each node, --pairs with two on each showing the two
# levels in its heat map, the hybrid barrier built from those costs and
# checked; the cluster is gone afterwards.  Under the suite's machine-wide
# lock, shared as the other cluster tests take it (lib.sh cluster_start).
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v nsenter >/dev/null 2>&1 || [ "$(nproc)" -lt 2 ]; then
    echo "1..0 # SKIP the cluster demo needs root, nsenter and 2 cores"
    exit 0
fi
for v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$v"; done
tmpdir
T=$_d
exec 9>/tmp/lop-vm.lock
flock -s 9

# refused before anything runs, in one line, nothing written
for bad in "NODES=1:NODES=1: a cluster needs at least 2 nodes" \
    "NODES=2 NP=1:NP=1 with NODES=2: on the cluster the timed runs put one rank on each node" \
    "NODES=x:NODES=x: expected a whole number of nodes" \
    "NIC=5mbit:NIC=5mbit: shapes the links of a virtual cluster; give NODES too"; do
    env ${bad%%:*} make -s -C "$ROOT" demo OUT="$T/bad" >"$T/log" 2>&1 &&
        fail "make demo ${bad%%:*} fails" || pass "make demo ${bad%%:*} fails"
    check "... saying why in one line ($(grep -c '^demo: ' "$T/log") lines)" \
        test "$(grep -c "^demo: ${bad#*:}" "$T/log")" -eq 1
    check "... and writes nothing" test ! -e "$T/bad"
done

# The links shaped (the slow-NIC lab's path), at a rate, burst and MTU that
# keep the demo's time: --pairs over 100 Mbit/s with 360-byte frames took
# minutes here.
make -s -C "$ROOT" demo NODES=2 NIC=1gbit:16000:1500 REPS=200 OUT="$T/demo out" >"$T/log" 2>&1
rc=$?
check "make demo NODES=2 NIC=1gbit:16000:1500 REPS=200 succeeds" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(tail -20 "$T/log")"
check "... on links shaped by tbf at 1gbit" grep -q '^demo: \[2/9\] .*links shaped by tbf rate 1gbit burst 16000 mtu 1500' "$T/log"
D="$T/demo out/data"
check "the scenarios ran one rank on each node" \
    test "$(meta "$D/send-normal-rtt.csv" hosts)" = "2: node0 (1 rank), node1 (1 rank)"
check "... and so did the timed barriers" \
    test "$(meta "$D/barrier.csv" hosts)" = "2: node0 (1 rank), node1 (1 rank)"
check "--pairs ran two ranks on each node" \
    test "$(meta "$D/pairs.csv" hosts)" = "2: node0 (2 ranks), node1 (2 ranks)"
check "... placement.csv whole" placement_ok "$D/placement.csv" 4
check "the heat map of the pairs is a PNG" sh -c \
    "head -c 8 '$T/demo out/figures/pairs.png' | od -An -c | grep -q 'P   N   G'"
S="$T/demo out/summary.txt"
check "summary: the two levels" grep -q '^== Two levels (lopbench --pairs --pairs-sample, 2 nodes x 2 ranks)' "$S"
check "summary: the hybrid barrier built from the measured costs, with a host tier" \
    grep -q '^4  *[23] .* host:' "$S"
check "... every L and o from this run's pairs, not the shipped set" \
    grep -q "^# machine: L, o_s, o_r from --costs $D/pairs.csv (per pair)" "$T/demo out/hybrid.txt"
check "summary: the hybrid passed --check on the 4 ranks" grep -q '^--check: all 3 runs ok' "$S"
check "summary: measured vs predicted" test -s "$T/demo out/final.txt"
tag=$(sed -n 's/^demo: a virtual cluster of 2 nodes (node0..node1, network namespaces \(lopc[0-9]*\)-\*).*/\1/p' "$T/log")
check "the cluster ($tag) is gone" sh -c "test -n '$tag' && ! ip netns list | grep -q '^$tag-'"
done_testing
