/* tree.c - gather and broadcast trees shared by the algorithms of thesis 2.2.1. */
#include <math.h>

#include "barrier.h"

uint32_t tree_knomial_gather(sched_t *s, uint32_t p, uint32_t k, uint32_t rank)
{
    uint32_t levels = barrier_ceil_log(p, k);
    uint64_t span = 1; /* k^level */
    for (uint32_t level = 0; level < levels; level++, span *= k) {
        uint64_t digit = rank / span % k;
        if (digit != 0) { /* a member at this level: report to the leader and stop */
            sched_push(s, SCHED_SEND, (int32_t)(rank - digit * span), level);
            break;
        }
        for (uint64_t i = 1; i < k && rank + i * span < p; i++)
            sched_push(s, SCHED_RECV, (int32_t)(rank + i * span), level);
    }
    return levels;
}

void tree_binomial_bcast(sched_t *s, uint32_t p, uint32_t rank, uint32_t step0)
{
    uint32_t rounds = barrier_ceil_log(p, 2);
    uint32_t top = rounds; /* children are rank + 2^j for j < top */
    if (rank != 0) {
        top = (uint32_t)__builtin_ctz(rank);
        sched_push(s, SCHED_RECV, (int32_t)(rank - (1u << top)), step0 + rounds - 1 - top);
    }
    for (uint32_t j = top; j-- > 0;)
        if ((uint64_t)rank + (1ull << j) < p)
            sched_push(s, SCHED_SEND, (int32_t)(rank + (1u << j)), step0 + rounds - 1 - j);
}

/* Rank 0 of a k-nomial tree over 'size' ranks (a subtree's root is a
 * multiple of k^levels, so its pairs are aligned as b's): it takes member i
 * of level t after that member's own gather and its send; full subtrees
 * (k^t ranks) share one bound, full[t]. */
static double knomial_from(const barrier_least_t *b, uint64_t size, uint64_t k, double *full)
{
    double t = 0;
    uint64_t span = 1;
    for (uint32_t level = 0; span < size; level++, span = span > size / k ? size : span * k)
        for (uint64_t i = 1; i < k && i * span < size; i++) {
            uint64_t sub = size - i * span < span ? size - i * span : span;
            double o, L, done = sub == span ? full[level] : knomial_from(b, sub, k, full);
            b->aligned(b, k, level, i, &o, &L);
            double arrival = done + o + L;
            t = (t > arrival ? t : arrival) + b->recv_o(b, o);
        }
    return t;
}

double tree_knomial_bound(const barrier_least_t *b, uint32_t p, uint64_t k)
{
    double full[64] = {0}; /* full[t]: a subtree of k^t ranks; k^64 > 2^24 */
    uint64_t span = 1;
    for (uint32_t t = 0; span < p; t++, span = span > p / k ? p : span * k)
        full[t + 1] = knomial_from(b, span * k, k, full);
    return knomial_from(b, p, k, full);
}

/* Two ranks' releases: the chain of first sends (0 to 2^(R-1), on to the
 * largest child each time) and rank 1, rank 0's last child. */
double tree_bcast_bound(const barrier_least_t *b, uint32_t p, double start)
{
    uint32_t rounds = barrier_ceil_log(p, 2), top = rounds;
    double chain = start, last = start, o, L;
    for (uint64_t at = 0;;) {
        uint32_t j = top;
        while (j-- > 0 && at + (1ull << j) >= p)
            ;
        if (j == UINT32_MAX)
            break;
        b->aligned(b, 2, j, 1, &o, &L);
        chain = chain + o + L + b->recv_o(b, o);
        at += 1ull << j;
        top = j;
    }
    for (uint32_t j = rounds; j-- > 0;) { /* rank 0's sends, to 1 last (o, L: its) */
        b->aligned(b, 2, j, 1, &o, &L);
        last = last + o;
    }
    if (rounds > 0)
        last = last + L + b->recv_o(b, o);
    return chain > last ? chain : last;
}

uint64_t tree_n_ops(uint32_t p, uint32_t n)
{
    (void)n;
    return p > 1 ? 4 * ((uint64_t)p - 1) : 0;
}

double tree_gather_logp(barrier_cost_t *c, double levels, double fan)
{
    return levels * (logp_t1(&c->logp) + (fan - 1) * logp_fr(&c->logp));
}

double tree_gather_lop(barrier_cost_t *c, double levels, double fan)
{
    return levels * (barrier_lop_o(c, levels) + fan * barrier_lop_L(c, fan * levels));
}

/* Thesis 2.2.5.2 writes t_bc = o_s + ceil(log2 P) max{f_s, o_s+L+o_r} + L + o_r, one
 * hop more than a binomial tree has; the exact time of the tree above for
 * P = 2^k (largest subtree first) is the first hop plus ceil(log2 P) - 1 more. */
double tree_bcast_logp(barrier_cost_t *c, uint32_t p)
{
    if (p < 2)
        return 0;
    uint32_t rounds = barrier_ceil_log(p, 2);
    return logp_t1(&c->logp) + (rounds - 1) * fmax(logp_fs(&c->logp), logp_t1(&c->logp));
}

/* Thesis 2.3.7.1.2: t_bc = ceil(log2 p) o(cnt ceil(log2 p)) + ceil(log2 p) L(cnt ceil(log2 p)). */
double tree_bcast_lop(barrier_cost_t *c, uint32_t p)
{
    if (p < 2)
        return 0;
    double rounds = barrier_ceil_log(p, 2);
    return rounds * barrier_lop_o(c, rounds) + rounds * barrier_lop_L(c, rounds);
}

double tree_bcast_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n)
{
    (void)n;
    return tree_bcast_bound(b, p, 0);
}
