#!/bin/sh
# 50-verbs-vm.t - the verbs transport and the verbs barrier executor run for
# real, in a qemu VM with a Soft-RoCE device (tests/vm/run.sh), what needs
# several ranks on one host: scenarios 1, 2 and 3 at -np 3 with --transport
# auto and the routing options, the multicast series looped back, --check
# at P = 3 and 4 (a multicast release dropped, a device without multicast),
# the hybrid, a timed barrier beside MPI_Barrier, --pairs, and the verbs
# error paths (51-verbs-hosts.t runs the rest between two VMs).  The runs happen
# inside the VM (tests/vm/verbs-suite.sh), which records its checks; this
# script boots it once and runs them.  A VM that cannot start is a failure,
# never a skip.
#
# Where the checkout is must not matter: the VM is handed it under /tmp (which
# the guest covers with its own tmpfs) at a path with spaces, through a link,
# and the work directory likewise, so every run covers a checkout there.
. "$(dirname "$0")/lib.sh"
TOP=$(mktemp -d "/tmp/lop vm.XXXXXX")
trap 'rm -rf "$TOP"' EXIT
C="$TOP/check out"
W="$TOP/work dir"
ln -s "$ROOT" "$C" && mkdir "$W" || exit 1

# One VM at a time on this machine (two share 2 cores so badly that a run hit
# the 900 s limit): every checkout's test waits for the same lock, which
# flock alone holds (-o): nothing the VM leaves behind can keep it.
t0=$(date +%s)
cd "$W" && flock -o /tmp/lop-vm.lock "$C/tests/vm/run.sh" --timeout 900 --share "$W" -- sh "$C/tests/vm/verbs-suite.sh" "$W" \
    >"$W/console" 2>&1
rc=$?
# The checks the suite recorded (verbs-suite.sh), run here.
vm_done=0
vm_suite_done() { vm_done=1; }
if [ -s "$W/checks.sh" ]; then
    pass "the Soft-RoCE VM ran the verbs suite ($(($(date +%s) - t0)) s)"
    . "$W/checks.sh"
else
    fail "the Soft-RoCE VM ran the verbs suite (run.sh exit $rc)"
    diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)"
fi
check "the suite ran to its end" test $vm_done -eq 1
[ $vm_done -eq 1 ] || diag "$(tail -n 5 "$W/log" 2>/dev/null)"
check "run.sh passed the suite's exit status on (0)" test $rc -eq 0
[ -s "$W/times" ] && diag "emulated run times (s): $(tr '\n' ' ' <"$W/times")"
done_testing
