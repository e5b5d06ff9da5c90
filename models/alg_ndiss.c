/*
 * n-way dissemination (thesis 2.2.6.1, listing 2.8, table 2.3): in round r
 * every rank p, for i = 1..n in turn, sends to (p + i (n+1)^r) mod P and waits
 * for (p - i (n+1)^r) mod P; ceil(log_{n+1} P) rounds.  In the last round an
 * offset that is a multiple of P (a message to oneself) or repeats an earlier
 * offset mod P carries nothing new and is left out: the offsets i (n+1)^r mod P
 * are distinct and non-zero exactly for i < P / gcd((n+1)^r, P).
 */
#include <math.h>

#include "barrier.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint32_t ndiss_rounds(uint32_t p, uint32_t n)
{
    return barrier_ceil_log(p, (uint64_t)n + 1);
}

void ndiss_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    uint32_t rounds = ndiss_rounds(p, n);
    uint64_t span = 1; /* (n+1)^r < P */
    for (uint32_t r = 0; r < rounds; r++, span *= (uint64_t)n + 1) {
        uint64_t period = p / gcd(span, p), peers = n < period - 1 ? n : period - 1;
        for (uint64_t i = 1; i <= peers; i++) {
            uint64_t off = i * span % p;
            sched_push(s, SCHED_SEND, (int32_t)((rank + off) % p), r);
            sched_push(s, SCHED_RECV, (int32_t)((rank + p - off) % p), r);
        }
    }
}

/* Every rank sends and receives once per offset of every round. */
uint64_t ndiss_n_ops(uint32_t p, uint32_t n)
{
    uint64_t per_rank = 0, span = 1;
    for (uint32_t r = 0, rounds = ndiss_rounds(p, n); r < rounds; r++, span *= (uint64_t)n + 1) {
        uint64_t period = p / gcd(span, p);
        per_rank += 2 * (n < period - 1 ? n : period - 1);
    }
    return per_rank * p;
}

/* Rank p's peers are rank 0's moved by p: i (n+1)^r (mod P) ahead, behind. */
sched_form_t ndiss_symmetry(uint32_t p, uint32_t n)
{
    (void)p;
    (void)n;
    return SCHED_SHIFT;
}

/* Exact unless the last round (span (n+1)^(R-1)) drops offsets: it keeps
 * period - 1 of its n, so the forms' n per round hold while n < period. */
int ndiss_exact(uint32_t p, uint32_t n)
{
    uint32_t rounds = ndiss_rounds(p, n);
    return rounds == 0 || n < p / gcd(barrier_ipow((uint64_t)n + 1, rounds - 1), p);
}

/* Thesis 2.2.6.1.1 for m links:
 *   rt = max{g ceil(n/m), n o_s + L ceil(n/m) + n o_r} ceil(log_{n+1} P),
 * which is n max{g, o_s + L + o_r} ceil(log_{n+1} P) (2.2.6.1) for m = 1. */
double ndiss_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    const logp_t *m = &c->logp;
    double waves = (n + c->links - 1) / c->links; /* ceil(n/m) */
    double round = fmax(m->g_us * waves, n * (m->os_us + m->or_us) + m->L_us * waves);
    return round * ndiss_rounds(p, n);
}

/* Thesis 2.3.7.1.4: rt = R (n o(n cnt R) + n L(n cnt R)), R = ceil(log_{n+1} p). */
double ndiss_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    double rounds = ndiss_rounds(p, n), stream = n * rounds;
    return rounds * (n * barrier_lop_o(c, stream) + n * barrier_lop_L(c, stream));
}

const barrier_alg_t barrier_alg_ndiss = {
    .name = "ndiss",
    .title = "n-way dissemination",
    .cite = "thesis 2.2.6.1 (listing 2.8, table 2.3), LogP 2.2.6.1.1, LoP 2.3.7.1.4",
    .takes_n = 1,
    .n_meaning = "peers per round",
    .default_n = 2,
    .rounds = ndiss_rounds,
    .build_rank = ndiss_build_rank,
    .n_ops = ndiss_n_ops,
    .symmetry = ndiss_symmetry,
    .logp_us = ndiss_logp_us,
    .lop_us = ndiss_lop_us,
    .logp_note = "exact for one link and g <= o_s+L+o_r unless the last round drops offsets "
                 "(n >= P / gcd((n+1)^(R-1), P)); the simulator models one link",
    .lop_note = "exact unless the last round drops offsets",
    .logp_exact = ndiss_exact,
    .lop_exact = ndiss_exact,
    .lop_band_lo = 0.99, /* n > P-1 partners counted at small P: up to 4.58 */
    .lop_band_hi = 4.72,
};
