#!/bin/sh
# 50-verbs-vm.t - the verbs transport and the verbs barrier executor run for
# real, in a qemu VM with a Soft-RoCE device (tests/vm/run.sh), what needs
# several ranks on one host: scenarios 1, 2 and 3 at -np 3 with --transport
# auto and the routing options, the multicast series looped back, --check
# at P = 3 and 4 (a multicast release dropped, a device without multicast),
# the hybrid, a timed barrier beside MPI_Barrier, --pairs, and the verbs
# error paths (51-verbs-hosts.t runs the rest between two VMs).  The runs happen
# inside the VM (tests/vm/verbs-suite.sh), which records its checks; this
# script boots it once and runs them (lib.sh vm_run), the checkout and the
# work directory handed over at paths with spaces under /tmp (vm_dirs).
. "$(dirname "$0")/lib.sh"
vm_dirs
vm_run "the Soft-RoCE VM" verbs-suite.sh --timeout 900
done_testing
