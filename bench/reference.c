/*
 * reference.c - a plain MPI ping-pong between ranks 0 and 1 (MPI_Send then
 * MPI_Recv) in the rhythm of scenario 2 at p = 1: a barrier of all ranks, one
 * exchange each way (lop_bench_both_ways), the idle gap, one round trip
 * while the other ranks wait for rank 0's release.  So RTT(1) of the MPI
 * send series can be checked against it, under the same conditions
 * (oversubscription included): the scenario code should add nothing.
 */
#include "scenario.h"

enum { TAG_PING = 2308 };

static lop_status_t ping_round(lop_bench_t *b, void *ctx, size_t p, long rep, uint64_t seq)
{
    lop_samples_t *rtt = ctx;
    uint64_t value = seq;
    MPI_Request req[2]; /* rank 0's, lop_bench_both_ways */
    lop_status_t st = lop_mpi_barrier(b->comm, &b->tp->poll);
    if (st == LOP_OK && b->rank <= 1)
        st = lop_bench_both_ways(b, 1, req);
    if (st != LOP_OK)
        return st;
    lop_bench_cool(b);
    if (b->rank > 1)
        return lop_bench_release(b);
    if (b->rank == 0) {
        uint64_t t1 = lop_timer_now(b->timer);
        MPI_Send(&value, 1, MPI_UINT64_T, 1, TAG_PING, b->pair);
        MPI_Recv(&value, 1, MPI_UINT64_T, 1, TAG_PING, b->pair, MPI_STATUS_IGNORE);
        uint64_t t4 = lop_timer_now(b->timer);
        lop_bench_record(rtt, p, rep, lop_timer_us(b->timer, t4 - t1));
    } else {
        MPI_Recv(&value, 1, MPI_UINT64_T, 0, TAG_PING, b->pair, MPI_STATUS_IGNORE);
        MPI_Send(&value, 1, MPI_UINT64_T, 0, TAG_PING, b->pair);
    }
    if (value != seq)
        return lop_err(LOP_ERR_IO, "ping-pong: got %llu back, sent %llu",
                       (unsigned long long)value, (unsigned long long)seq);
    return lop_bench_release(b);
}

lop_status_t lop_reference_run(lop_bench_t *b, lop_samples_t *rtt)
{
    return lop_bench_repeat_apart(b, 1, ping_round, rtt);
}
