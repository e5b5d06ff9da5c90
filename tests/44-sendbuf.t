#!/bin/sh
# 44-sendbuf.t - no send buffer of lopbench changes while its send is pending
# (MPI forbids it; Open MPI copies small messages at once and hides it).  The
# PMPI interposer tests/interpose/sendbuf.c, preloaded on every rank, copies
# each buffer at MPI_Isend / MPI_Start(all) / MPI_Put / MPI_Accumulate and compares it at
# completion.  First it must catch a program that breaks the rule on purpose,
# then every scenario and every executor at -np 2 and 4 must be clean.
. "$(dirname "$0")/lib.sh"
# The interposer comes first in the library list; under SANITIZE=1 ASan would
# otherwise refuse to start.
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
tmpdir
T=$_d
B=$BIN/lopbench

sendbuf_catches "broken_sends"
for np in 2 4; do
    sendbuf_clean "-np $np scenarios" $np "$B" --transport mpi --reps 5 --warmup 2 \
        --max-post 4 --idle-us 20 -o "$T/s$np" --quiet
    sendbuf_clean "-np $np barrier --check, every executor" $np "$B" --barrier --check \
        --executor p2p,shm,mpi --reps 12 --warmup 2 --quiet
    sendbuf_clean "-np $np barrier timed, every executor" $np "$B" --barrier \
        --executor p2p,shm,mpi --reps 20 --warmup 2 -o "$T/b$np" --quiet
done
# One-sided write origin buffers, checked at their flush.
sendbuf_clean "-np 3 --rma put scenarios" 3 "$B" --transport mpi --ops rdmaw --rma put \
    --reps 5 --warmup 2 --max-post 4 --idle-us 20 -o "$T/put" --quiet
sendbuf_clean "-np 3 --rma put barrier --check" 3 "$B" --barrier --check --executor shm \
    --rma put --alg diss,comb,nwise --reps 12 --quiet
done_testing
