/* Schedules: the generators against the thesis's examples, the builder's
 * errors and limits (the CSV form: test_sched_csv). */
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "sched.h"
#include "tap.h"

/* The ops of one rank and step as text: "s1 s2 r8 r7". */
static const char *ops_text(const sched_t *s, uint32_t rank, uint32_t step)
{
    static char buf[256];
    buf[0] = '\0';
    for (const sched_op_t *o = sched_rank_ops(s, rank); o < sched_rank_end(s, rank); o++)
        if (o->step == step)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%c%d", buf[0] ? " " : "",
                     "srm"[o->kind], o->peer);
    return buf;
}

static void expect_ops(const sched_t *s, uint32_t rank, uint32_t step, const char *want)
{
    const char *got = ops_text(s, rank, step);
    ok(strcmp(got, want) == 0, "%s P=%u rank %u step %u: '%s' (want '%s')", s->alg, s->p, rank,
       step, got, want);
}

static void build(const char *alg, uint32_t p, uint32_t n, sched_t *s)
{
    if (sched_build(barrier_alg_find(alg), p, n, s) != LOP_OK)
        printf("# %s\n", lop_errmsg());
}

/* Thesis table 2.3: speer_1, speer_2 and rpeer_1, rpeer_2 of the 2-way
 * dissemination for P = 9 (sends and receives alternate, listing 2.8). */
static void table_2_3(void)
{
    sched_t s;
    build("ndiss", 9, 2, &s);
    ok(s.n_steps == 2, "ndiss n=2 P=9 has ceil(log_3 9) = 2 rounds");
    expect_ops(&s, 0, 0, "s1 r8 s2 r7");
    expect_ops(&s, 1, 0, "s2 r0 s3 r8");
    expect_ops(&s, 8, 0, "s0 r7 s1 r6");
    expect_ops(&s, 0, 1, "s3 r6 s6 r3");
    expect_ops(&s, 1, 1, "s4 r7 s7 r4");
    expect_ops(&s, 8, 1, "s2 r5 s5 r2");
    sched_free(&s);
}

/* Smaller examples of the other generators. */
static void shapes(void)
{
    sched_t s;
    build("diss", 5, 0, &s); /* Kini et al. figure 4 */
    expect_ops(&s, 3, 2, "s2 r4");
    sched_free(&s);
    build("cc", 4, 0, &s);
    expect_ops(&s, 0, 0, "r1 r2 r3");
    expect_ops(&s, 0, 1, "s1 s2 s3");
    expect_ops(&s, 2, 0, "s0");
    sched_free(&s);
    build("pe", 6, 0, &s); /* thesis figure 2.12: 4 and 5 fold into 0 and 1 */
    expect_ops(&s, 5, 0, "s1");
    expect_ops(&s, 1, 0, "r5");
    expect_ops(&s, 1, 2, "s3 r3");
    expect_ops(&s, 1, 3, "s5");
    sched_free(&s);
    build("tour", 8, 0, &s); /* lower rank wins; then the binomial release */
    expect_ops(&s, 4, 1, "r6");
    expect_ops(&s, 4, 2, "s0");
    expect_ops(&s, 0, 3, "s4");
    expect_ops(&s, 6, 4, "r4");
    expect_ops(&s, 6, 5, "s7");
    sched_free(&s);
    build("rgm", 8, 3, &s); /* Kini et al. figure 5: fan-in 3, two levels, multicast */
    expect_ops(&s, 0, 0, "r1 r2 r3");
    expect_ops(&s, 0, 1, "r4");
    expect_ops(&s, 0, 2, "m-1");
    expect_ops(&s, 4, 0, "r5 r6 r7");
    expect_ops(&s, 7, 2, "r0");
    sched_free(&s);
    build("nwise", 9, 2, &s); /* digit 0 then digit 1 of base 3; receive in arrival order */
    expect_ops(&s, 4, 0, "s5 s3 r3 r5");
    expect_ops(&s, 4, 1, "s7 s1 r1 r7");
    sched_free(&s);
    build("bfly", 3, 0, &s); /* rank 1 also plays virtual rank 3 */
    expect_ops(&s, 1, 0, "s0 s2 r0 r2");
    expect_ops(&s, 0, 1, "s2 r2");
    sched_free(&s);
}

static void build_errors(void)
{
    sched_t s;
    ok(sched_build(barrier_alg_find("hwnet"), 4, 0, &s) != LOP_OK &&
           strstr(lop_errmsg(), "cost-only"),
       "a cost-only algorithm has no schedule: %s", lop_errmsg());
    ok(sched_build(barrier_alg_find("diss"), 0, 0, &s) != LOP_OK && strstr(lop_errmsg(), "P = 0"),
       "P = 0 is refused: %s", lop_errmsg());
    ok(sched_build(barrier_alg_find("ndiss"), 4, 0, &s) != LOP_OK &&
           strstr(lop_errmsg(), "n >= 1"),
       "n = 0 is refused: %s", lop_errmsg());
    ok(sched_build(barrier_alg_find("diss"), 1, 0, &s) == LOP_OK && s.n_ops == 0 &&
           s.n_steps == 0,
       "P = 1 needs no message");
    sched_free(&s);
}

/* barrier_alg_t.n_ops against the built schedules: every algorithm, n =
 * 1..8, P = 1..600 and around powers (the limits said up front rest on it),
 * and non-decreasing in P up to 2^16 (sched_largest_p's search needs it;
 * ndiss's dips where the last round drops offsets are documented). */
static void op_counts(void)
{
    static const uint32_t big[] = {1000, 1023, 1024, 1025, 2187, 3000, 4095, 4096, 4097, 6561};
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if (!(*a)->build_rank)
            continue;
        uint32_t bad = 0, monotone = 1, tried = 0;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 8 : 1); n++) {
            for (uint32_t i = 0; i < 600 + COUNT(big); i++, tried++) {
                uint32_t p = i < 600 ? i + 1 : big[i - 600];
                sched_t s;
                if (sched_build(*a, p, n, &s) != LOP_OK || s.n_ops != (*a)->n_ops(p, n))
                    bad = bad ? bad : p;
                sched_free(&s);
            }
            for (uint32_t p = 2; p <= 65536; p++)
                monotone &= (*a)->n_ops(p, n) >= (*a)->n_ops(p - 1, n);
        }
        ok(!bad, "%s: n_ops is the built schedule's op count (%u schedules%s)", (*a)->name, tried,
           bad ? ", first wrong at P = %u" : "");
        if (bad)
            printf("#   P = %u\n", bad);
        if (strcmp((*a)->name, "ndiss") != 0)
            ok(monotone, "%s: n_ops does not decrease with P (P <= 65536)", (*a)->name);
        else
            ok(!monotone && (*a)->n_ops(17, 2) == 204 && (*a)->n_ops(18, 2) == 180,
               "ndiss: n_ops dips where the last round drops offsets (n = 2: P = 17, 18)");
    }
}

/* Where an algorithm declares its rule symmetric, sched_generate's schedule
 * (rank 0's ops, moved by the rank) is sched_build's: every P = 1..300 and
 * around powers, n = 1..8. */
static void generated(void)
{
    static const uint32_t big[] = {512, 729, 1000, 1024, 2048, 2187, 4096};
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if (!(*a)->symmetry)
            continue;
        uint32_t bad = 0, forms = 0;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 8 : 1); n++)
            for (uint32_t i = 0; i < 300 + COUNT(big); i++) {
                uint32_t p = i < 300 ? i + 1 : big[i - 300];
                sched_t g, e, s;
                int ok_ = sched_generate(*a, p, n, &g) == LOP_OK;
                forms += ok_ && g.form != SCHED_STORED;
                ok_ = ok_ && sched_expand(&g, &e) == LOP_OK;
                if (!ok_ || sched_build(*a, p, n, &s) != LOP_OK || !sched_equal(&e, &s))
                    bad = bad ? bad : p;
                sched_free(&g);
                sched_free(&e);
                sched_free(&s);
            }
        ok(!bad && forms > 0, "%s: %u generated schedules are the built ones", (*a)->name, forms);
        if (bad)
            printf("#   first wrong at P = %u\n", bad);
    }
    const barrier_alg_t *diss = barrier_alg_find("diss");
    uint64_t ops;
    int refused = sched_limit(diss, SCHED_MAX_P, 0, &ops) == LOP_ERR_RANGE &&
                  strstr(lop_errmsg(), "(a simulation generates it from rank 0's ops at this P)");
    ok(refused && sched_generate_limit(diss, SCHED_MAX_P, 0, &ops) == LOP_OK && ops == 48ull << 24,
       "diss at 2^24: too large to store, generated for a simulation (%llu ops)",
       (unsigned long long)ops);
    const barrier_alg_t *ndiss = barrier_alg_find("ndiss");
    refused = sched_generate_limit(ndiss, SCHED_MAX_P, 64, &ops) == LOP_ERR_RANGE;
    ok(refused && ops > SCHED_MAX_EVENTS && strstr(lop_errmsg(), "more than a simulation runs"),
       "ndiss n = 64 at 2^24, %llu ops: %s", (unsigned long long)ops, lop_errmsg());
}

/* Limits are said from the counts, naming the largest P that does. */
static void limits(void)
{
    const barrier_alg_t *nwise = barrier_alg_find("nwise");
    uint64_t ops;
    lop_status_t st = sched_limit(nwise, SCHED_MAX_P, 2, &ops);
    char want[64];
    uint32_t top = sched_largest_p(nwise->n_ops, 2, NULL, SCHED_MAX_P, SCHED_MAX_OPS);
    snprintf(want, sizeof want, "the largest P it does is %u", top);
    ok(st == LOP_ERR_RANGE && ops > SCHED_MAX_OPS && strstr(lop_errmsg(), want) &&
           strstr(lop_errmsg(), "nwise with n = 2 at P = 16777216"),
       "nwise n=2 at 2^24 is refused naming the largest P: %s", lop_errmsg());
    ok(nwise->n_ops(top, 2) <= SCHED_MAX_OPS && nwise->n_ops(top + 1, 2) > SCHED_MAX_OPS,
       "... which is the last P that fits (%u)", top);
    ok(sched_limit(nwise, top, 2, NULL) == LOP_OK, "... and is not refused");
    ok(sched_limit(barrier_alg_find("diss"), SCHED_MAX_P + 1, 0, NULL) == LOP_ERR_RANGE &&
           strstr(lop_errmsg(), "outside 1..16777216"),
       "P beyond SCHED_MAX_P: %s", lop_errmsg());
}

int main(void)
{
    if (fixture_dir_make("sched") != 0)
        return 1;
    table_2_3();
    shapes();
    build_errors();
    op_counts();
    generated();
    limits();
    fixture_dir_remove();
    return tap_done();
}
