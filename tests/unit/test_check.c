/* The barrier checker: every algorithm is a barrier for P = 1..200 and n = 1..6
 * (one matrix over the descriptor table), and deliberately broken schedules
 * are rejected with the reason. */
#include <string.h>

#include "barrier.h"
#include "sched_check.h"
#include "tap.h"

/* One case: the schedule is a barrier with rounds() steps; a line only on
 * failure. */
static int matrix_case(const barrier_alg_t *alg, uint32_t n, uint32_t p)
{
    sched_t s;
    lop_status_t st = sched_build(alg, p, n, &s);
    if (st == LOP_OK) {
        st = sched_check(&s);
        if (st == LOP_OK && s.n_steps != alg->rounds(p, n))
            st = lop_err(LOP_ERR_INVALID, "%u steps, rounds() says %u", s.n_steps,
                         alg->rounds(p, n));
        sched_free(&s);
    }
    if (st)
        printf("# FAIL %s n=%u P=%u: %s\n", alg->name, n, p, lop_errmsg());
    return st == LOP_OK;
}

/* Every algorithm with a schedule x P = 1..200 x n = 1..6 where it takes
 * one, in GSL test.c's manner: a line per failing case, one test point. */
static void matrix(void)
{
    unsigned cases = 0, failed = 0, algs = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if ((*a)->flags & BARRIER_COST_ONLY)
            continue;
        algs++;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 6 : 1); n++)
            for (uint32_t p = 1; p <= 200; p++, cases++)
                failed += !matrix_case(*a, n, p);
    }
    ok(failed == 0 && algs > 0,
       "%u cases (%u algorithms x P = 1..200 x n = 1..6 where taken) are barriers with "
       "rounds() steps; %u failed", cases, algs, failed);
}

/* A hand-written schedule: ops[r] is a string like "s1 r2 m" (step 0 each,
 * or "s1:3" for step 3). */
static void from_text(sched_t *s, uint32_t p, const char *const *ops)
{
    sched_init(s, p);
    snprintf(s->alg, sizeof s->alg, "test");
    for (uint32_t r = 0; r < p; r++) {
        const char *t = ops[r];
        while (*t) {
            char kind = *t++;
            int peer = -1, step = 0, used = 0;
            if (kind != 'm')
                sscanf(t, "%d%n", &peer, &used), t += used;
            if (*t == ':')
                sscanf(t + 1, "%d%n", &step, &used), t += used + 1;
            sched_push(s, kind == 's' ? SCHED_SEND : kind == 'r' ? SCHED_RECV : SCHED_MCAST, peer,
                       (uint32_t)step);
            while (*t == ' ')
                t++;
        }
        sched_end_rank(s, r);
    }
}

static void expect(const char *label, uint32_t p, const char *const *ops, const char *want)
{
    sched_t s;
    from_text(&s, p, ops);
    lop_status_t st = sched_check(&s);
    if (want)
        ok(st != LOP_OK && strstr(lop_errmsg(), want), "%s rejected: %s", label, lop_errmsg());
    else
        ok(st == LOP_OK, "%s accepted %s", label, st ? lop_errmsg() : "");
    sched_free(&s);
}

static void broken(void)
{
    const char *linear[] = {"r1 r2 s1:1 s2:1", "s0 r0:1", "s0 r0:1"};
    expect("central counter by hand", 3, linear, NULL);
    const char *missing_send[] = {"r1 r2 s1:1", "s0 r0:1", "s0 r0:1"};
    expect("a missing release send", 3, missing_send, "rank 2 op 1 (recv from 0, step 1) waits");
    const char *wrong_peer[] = {"r1 r2 s1:1 s1:1", "s0 r0:1", "s0 r0:1"};
    expect("a release to the wrong peer", 3, wrong_peer, "waits for a message the peer never");
    const char *unreceived[] = {"r1 r2 s1:1 s2:1 s2:2", "s0 r0:1", "s0 r0:1"};
    expect("a send nobody receives", 3, unreceived, "rank 0 op 4 (send to 2, step 2) is never");
    const char *cycle[] = {"r2 s1", "r0 s2", "r1 s0"};
    expect("a cycle of waits", 3, cycle,
           "deadlock: rank 0 op 0 (recv from 2, step 0); rank 2 op 0 (recv from 1, step 0); "
           "rank 1 op 0 (recv from 0, step 0)");
    const char *gather_only[] = {"r1 r2", "s0", "s0"};
    expect("a gather without release", 3, gather_only,
           "not a barrier: rank 1 ends without knowing that rank 0");
    const char *self[] = {"s0 r0", "s0 r0"};
    expect("a message to oneself", 2, self, "addresses the rank itself");
    const char *out_of_range[] = {"s5", "r0"};
    expect("a peer out of range", 2, out_of_range, "names no rank");
    const char *mcast[] = {"r1 r2 m:1", "s0 r0:1", "s0 r0:1"};
    expect("gather + multicast", 3, mcast, NULL);
    const char *mcast_short[] = {"r1 r2 m:1", "s0 r0:1", "s0"};
    expect("a multicast one rank ignores", 3, mcast_short, "not received by every other rank");
    const char *steps_down[] = {"s1:1 r1:0", "s0:1 r0:0"};
    expect("steps going down", 2, steps_down, "step is smaller");
    const char *twice[] = {"s1 s1 r1 r1", "s0 s0 r0 r0"};
    expect("two messages in one step", 2, twice, "a second message between the same ranks");
    const char *fifo[] = {"s1 s1:1 r1:2", "r0:1 r0:2 s0:2"};
    expect("FIFO: the first recv takes the first send", 2, fifo,
           "rank 1 op 0 (recv from 0, step 1): the message it takes is step 0");
}

int main(void)
{
    matrix();
    broken();
    return tap_done();
}
