#!/bin/sh
# 50-verbs-vm.t - the verbs transport and the verbs barrier executor run for
# real, in a qemu VM with a Soft-RoCE device (tests/vm/run.sh): scenarios 1
# and 2 at -np 2 and 3, --transport auto, routing options, --check of every
# algorithm, a timed barrier, and the verbs error paths.  The checks run
# inside the VM (tests/vm/verbs-suite.sh); this script boots it once and
# re-emits their TAP lines.  A VM that cannot start is a failure, never a
# skip.
. "$(dirname "$0")/lib.sh"
W=$(mktemp -d "$ROOT/build/vmtest.XXXXXX")
trap 'rm -rf "$W"' EXIT

# One VM at a time on this machine (two share 2 cores so badly that a run hit
# the 900 s limit): every checkout's test waits for the same lock.
t0=$(date +%s)
flock /tmp/lop-vm.lock "$ROOT/tests/vm/run.sh" --timeout 900 --share "$W" -- sh "$ROOT/tests/vm/verbs-suite.sh" "$W" \
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
