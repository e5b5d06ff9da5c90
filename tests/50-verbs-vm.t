#!/bin/sh
# 50-verbs-vm.t - lopbench's verbs code for real, in qemu VMs with Soft-RoCE
# devices (tests/vm/run.sh --hosts 2): one boot of two VMs, each with its own
# rxe device on its own NIC, on one virtual wire, runs two suites.
#  - On one host (lopvm0, two vCPUs; tests/vm/verbs-suite.sh), what needs
#    several ranks there: scenarios 1 and 2 at -np 3 with --transport auto
#    and the routing options, the multicast series looped back, --check at
#    P = 3 and 4 (a multicast release dropped, a device without multicast),
#    the hybrid, a timed barrier beside MPI_Barrier, --pairs, and the verbs
#    error paths.
#  - Between the hosts (tests/vm/hosts-suite.sh): scenarios 1 and 2 at 2
#    hosts x 1 rank with the IPv4-mapped RoCE v2 GID chosen on both, the
#    multicast series across the wire (fitted and priced into rgm on the
#    host), --check of every algorithm (Open MPI; rgm released by hardware
#    multicast, one release dropped and recovered by a NAK), a timed barrier
#    (MPICH) on the verbs executor, a rank stopped and a cable pulled
#    mid-run.
# The runs happen inside the VMs, which record their checks; this script
# boots the set once and runs the checks here, at native speed.  A set that
# cannot start is a failure, never a skip.
#
# Where the checkout is must not matter: the VMs are handed it under /tmp
# (which the guests cover with their own tmpfs) at a path with spaces,
# through a link, and the work directory likewise, so every run covers a
# checkout there.
. "$(dirname "$0")/lib.sh"
# Each MPI's defaults between the VMs: the VMs' environment comes from here
# (verbs-suite.sh sets lib.sh's loopback settings again for its own runs).
for _v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$_v"; done
TOP=$(mktemp -d "/tmp/lop vm.XXXXXX")
trap 'rm -rf "$TOP"' EXIT
C="$TOP/check out"
W="$TOP/work dir"
ln -s "$ROOT" "$C" && mkdir -p "$W/one" "$W/hosts" || exit 1

# MPICH runs between the hosts too: its flavor of lopbench (deps.sh installs MPICH).
check "the MPICH flavor builds" mpich_build "$TOP/mpich-build"
# One VM set at a time on this machine (two share 2 cores so badly that a
# run hit the 900 s limit): the lock, which flock alone holds (-o): nothing
# the VMs leave behind can keep it.  The two suites run one after the
# other; the second runs whatever the first's status.
t0=$(date +%s)
cd "$W" && flock -o /tmp/lop-vm.lock "$C/tests/vm/run.sh" --hosts 2 --timeout 900 --share "$W" \
    -- sh -c 'sh "$1/tests/vm/verbs-suite.sh" "$2/one"; a=$?
              sh "$1/tests/vm/hosts-suite.sh" "$2/hosts"; b=$?
              [ $a -eq 0 ] && exit $b; exit $a' sh "$C" "$W" >"$W/console" 2>&1
rc=$?
vm_done=0
vm_suite_done() { vm_done=1; }
# suite_checks DIR WHAT: the checks the suite in DIR recorded, run here.
suite_checks() {
    vm_done=0
    if [ -s "$1/checks.sh" ]; then
        pass "$2 ran"
        . "$1/checks.sh"
    else
        fail "$2 ran (run.sh exit $rc)"
        diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)"
    fi
    check "... to its end" test $vm_done -eq 1
    [ $vm_done -eq 1 ] || diag "$(tail -n 5 "$1/log" 2>/dev/null)"
    [ -s "$1/times" ] && diag "emulated run times (s): $(tr '\n' ' ' <"$1/times")"
}
suite_checks "$W/one" "lopvm0 alone: the one-host verbs suite"
suite_checks "$W/hosts" "lopvm0 and lopvm1: the hosts suite"
check "run.sh passed the suites' exit status on (0, got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)" "$(tail -n 3 "$W/hosts/log")"
for h in lopvm0 lopvm1; do
    [ -s "$W/hosts/gids.$h" ] && diag "$h: $(grep -o 'GID\[ *[0-9]*\]:.*' "$W/hosts/gids.$h" | tr '\n' ' ')"
done
diag "the VMs took $(($(date +%s) - t0)) s, boot included"
done_testing
