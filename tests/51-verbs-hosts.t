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
# the set once and runs them (lib.sh vm_run), the checkout handed over at a
# path with spaces under /tmp (vm_dirs).
. "$(dirname "$0")/lib.sh"
# Each MPI's defaults between the VMs: the VMs' environment comes from here.
for _v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$_v"; done
vm_dirs

# MPICH runs there too: its flavor of lopbench (deps.sh installs MPICH).
check "the MPICH flavor builds" mpich_build "$TOP/mpich-build"
vm_run "two Soft-RoCE VMs" hosts-suite.sh --hosts 2 --timeout 600
for h in lopvm0 lopvm1; do
    [ -s "$W/gids.$h" ] && diag "$h: $(grep -o 'GID\[ *[0-9]*\]:.*' "$W/gids.$h" | tr '\n' ' ')"
done
done_testing
