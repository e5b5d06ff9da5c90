#!/bin/sh
# 51-verbs-hosts.t - lopbench's verbs code between hosts: two qemu VMs, each
# with its own Soft-RoCE device on its own NIC, on one virtual wire
# (tests/vm/run.sh --hosts 2): scenarios 1 and 2 at 2 hosts x 1 rank with
# the IPv4-mapped RoCE v2 GID chosen on both, the multicast series (fitted
# and priced into rgm on the host), --check of every algorithm (Open MPI;
# rgm released by hardware multicast, one release dropped and recovered by
# a NAK) and a timed barrier (MPICH) on the verbs executor, and a rank
# stopped mid-run.  The runs happen on the first VM
# (tests/vm/hosts-suite.sh), which records its checks; this script boots
# the set once and runs them.  A set that cannot start is a failure, never
# a skip.  The checkout is handed over at a path with spaces under /tmp, as
# in 50-verbs-vm.t.
. "$(dirname "$0")/lib.sh"
# Each MPI's defaults between the VMs: the VMs' environment comes from here.
for _v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$_v"; done
TOP=$(mktemp -d "/tmp/lop vm.XXXXXX")
trap 'rm -rf "$TOP"' EXIT
C="$TOP/check out"
W="$TOP/work dir"
ln -s "$ROOT" "$C" && mkdir "$W" || exit 1

# MPICH runs there too: its flavor of lopbench (deps.sh installs MPICH).
check "the MPICH flavor builds" mpich_build "$TOP/mpich-build"
# One VM set at a time on this machine (50-verbs-vm.t takes the same lock).
t0=$(date +%s)
cd "$W" && flock -o /tmp/lop-vm.lock "$C/tests/vm/run.sh" --hosts 2 --timeout 600 --share "$W" \
    -- sh "$C/tests/vm/hosts-suite.sh" "$W" >"$W/console" 2>&1
rc=$?
vm_done=0
vm_suite_done() { vm_done=1; }
if [ -s "$W/checks.sh" ]; then
    pass "two Soft-RoCE VMs ran the hosts suite ($(($(date +%s) - t0)) s)"
    . "$W/checks.sh"
else
    fail "two Soft-RoCE VMs ran the hosts suite (run.sh exit $rc)"
    diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)"
fi
check "the suite ran to its end" test $vm_done -eq 1
[ $vm_done -eq 1 ] || diag "$(tail -n 5 "$W/log" 2>/dev/null)"
check "run.sh passed the suite's exit status on (0, got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)" "$(tail -n 3 "$W/log")"
[ -s "$W/times" ] && diag "emulated run times (s): $(tr '\n' ' ' <"$W/times")"
for h in lopvm0 lopvm1; do
    [ -s "$W/gids.$h" ] && diag "$h: $(grep -o 'GID\[ *[0-9]*\]:.*' "$W/gids.$h" | tr '\n' ' ')"
done
done_testing
