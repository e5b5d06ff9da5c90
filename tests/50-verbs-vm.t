#!/bin/sh
# 50-verbs-vm.t - the verbs transport and the verbs barrier executor run for
# real, in a qemu VM with a Soft-RoCE device (tests/vm/run.sh): scenarios 1
# and 2 at -np 2 and 3, --transport auto, routing options, --check of every
# algorithm, a timed barrier, and the verbs error paths.  The checks run
# inside the VM (tests/vm/verbs-suite.sh); this script boots it once and
# re-emits their TAP lines.  A VM that cannot start is a failure, never a
# skip.
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
# the 900 s limit): every checkout's test waits for the same lock.
t0=$(date +%s)
cd "$W" && flock /tmp/lop-vm.lock "$C/tests/vm/run.sh" --timeout 900 --share "$W" -- sh "$C/tests/vm/verbs-suite.sh" "$W" \
    >"$W/console" 2>&1
rc=$?
if [ -s "$W/tap" ]; then
    pass "the Soft-RoCE VM ran the verbs suite ($(($(date +%s) - t0)) s)"
else
    fail "the Soft-RoCE VM ran the verbs suite (run.sh exit $rc)"
    diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)"
fi
# The suite's own verdicts, renumbered into this file's plan.
while IFS= read -r line; do
    case $line in
    "ok "*) pass "${line#ok * - }" ;;
    "not ok "*) fail "${line#not ok * - }" ;;
    "# "*) echo "$line" ;;
    esac
done <"$W/tap" 2>/dev/null
check "the suite ran to its end (its plan line)" grep -q '^1\.\.[0-9]' "$W/tap"
check "run.sh passed the suite's exit status on (0)" test $rc -eq 0
[ -s "$W/times" ] && diag "emulated run times (s): $(tr '\n' ' ' <"$W/times")"
done_testing
