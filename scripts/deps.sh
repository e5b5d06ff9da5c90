#!/bin/sh
# deps.sh - make sure what lop needs is installed (Debian packages only).
# As root with apt-get, missing packages are installed; otherwise the exact
# apt-get command is printed and the script fails.  One set serves the build,
# the demo and the tests: the tests draw figures (gnuplot) and boot the
# Soft-RoCE VM of tests/vm/run.sh (qemu, busybox, kmod, the rxe verbs
# provider, iproute2's rdma), so a fresh machine runs every file, none skipped.
set -u

missing=""
need() { # need PACKAGE TEST...: PACKAGE is missing unless the test succeeds
    pkg=$1; shift
    "$@" >/dev/null 2>&1 || missing="$missing $pkg"
}
has_header() { printf '#include <%s>\n' "$1" | cc -E -x c - >/dev/null 2>&1; }

need make command -v make
need gcc command -v cc
need libgsl-dev has_header gsl/gsl_multimin.h
need libibverbs-dev has_header infiniband/verbs.h
# lopbench's hardware multicast joins its group with librdmacm.
need librdmacm-dev has_header rdma/rdma_cma.h
# lopbench's placement.csv: sockets and NUMA nodes.
need libhwloc-dev has_header hwloc.h
# Any MPI with mpicc and mpirun will do (Open MPI or MPICH); Open MPI by default.
command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
# MPICH too: tests/52-mpich.t builds and runs lop under it as the second MPI.
need libmpich-dev command -v mpicc.mpich
need mpich command -v mpirun.mpich
need perl command -v prove
# tests/75-slurm.t: a Slurm cluster on the virtual nodes (scripts/slurm-cluster.sh),
# srun --mpi=pmix (its plugin loads libpmix.so at run time: libpmix-dev).
need slurmctld command -v slurmctld
need slurmd command -v slurmd
need slurm-client command -v srun
need munge command -v munged
need libpmix-dev sh -c 'ls /usr/lib/*/libpmix.so'
# tests/50-verbs-vm.t: the Soft-RoCE VM (tests/vm/run.sh).
need qemu-system-x86 command -v qemu-system-x86_64
need busybox-static test -x /bin/busybox
need kmod command -v depmod
need iproute2 command -v rdma
need ibverbs-providers sh -c 'ls /usr/lib/*/libibverbs/librxe-rdmav*.so'
# make fuzz and tests/95-fuzz.t: clang with libFuzzer and the sanitizer runtimes.
has_libfuzzer() { [ -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; }
if command -v clang >/dev/null 2>&1; then
    need libclang-rt-14-dev has_libfuzzer
else
    missing="$missing clang libclang-rt-14-dev"
fi
# The figures of make demo and tests/6*-plots*.t.
need gnuplot-nox command -v gnuplot

[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Another apt-get (a second deps.sh, say) holds dpkg's lock: wait for it
    # up to 10 minutes rather than fail at once.
    lock="-o DPkg::Lock::Timeout=600"
    apt-get $lock update -qq >/dev/null && apt-get $lock install -y -qq $missing >/dev/null &&
        echo "deps: installed$missing" >&2 && exit 0
    echo "deps: apt-get install failed for:$missing" >&2
    exit 1
fi
echo "deps: missing Debian packages:$missing" >&2
echo "deps: install them as root with: apt-get install$missing" >&2
exit 1
