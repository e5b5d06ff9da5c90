/* Per-pair costs (pairs.h) and Meyer and Elster's matrices (incidence.h):
 * equal per-pair costs reproduce the homogeneous simulation bit for bit;
 * synthetic machines place ranks as documented; pairs.csv errors name
 * file:line; the paper's figures 2-4 come out of lop's cc, diss and tour at
 * P = 4; its validity test agrees with lop's checker; its critical path
 * equals the LogP simulation where the models agree. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "barrier.h"
#include "fixture.h"
#include "incidence.h"
#include "pairs.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "tap.h"

static const logp_t hom = {5, 1, 1.5, 0.3};

static int same_run(const sched_t *s, barrier_cost_t *c, const pairs_t *pairs)
{
    sched_sim_t a = {SCHED_SIM_LOGP, c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    sched_sim_t b = {SCHED_SIM_LOGP, c, SCHED_LOP_STREAM, pairs, SCHED_RECV_PROGRAM, 0};
    sched_sim_result_t ra, rb;
    if (sched_sim_run(s, &a, 1, &ra) || sched_sim_run(s, &b, 1, &rb))
        return 0;
    int same = ra.max_us == rb.max_us && !memcmp(ra.rank_us, rb.rank_us, s->p * sizeof(double));
    free(ra.rank_us);
    free(rb.rank_us);
    return same;
}

/* All costs equal: matrix form and a 3-level machine with equal levels. */
static void equal_costs(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = hom;
    pairs_t matrix = {.p = 64}, machine;
    matrix.o_us = calloc(64 * 64, sizeof(double));
    matrix.L_us = calloc(64 * 64, sizeof(double));
    for (int k = 0; k < 64 * 64; k++)
        matrix.o_us[k] = hom.os_us, matrix.L_us[k] = hom.L_us;
    double L[3] = {5, 5, 5}, o[3] = {1, 1, 1};
    ok(pairs_machine(&machine, "4x4x4", L, 3, o, 3, PAIRS_RR) == LOP_OK, "machine 4x4x4");
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if ((*a)->flags & BARRIER_COST_ONLY)
            continue;
        uint32_t same = 0, total = 0;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 3 : 1); n++)
            for (uint32_t p = 2; p <= 64; p++) {
                sched_t s;
                sched_build(*a, p, n, &s);
                same += same_run(&s, &c, &matrix) && same_run(&s, &c, &machine);
                total++;
                sched_free(&s);
            }
        ok(same == total, "%s: equal per-pair costs (matrix, machine) = homogeneous, bit for bit, "
           "P = 2..64 (%u of %u)", (*a)->name, same, total);
    }
    pairs_free(&matrix);
}

static void placement(void)
{
    pairs_t b, r;
    double L[3] = {3, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    pairs_machine(&b, "8x2x4", L, 3, o, 3, PAIRS_BLOCK);
    pairs_machine(&r, "8x2x4", L, 3, o, 3, PAIRS_RR);
    ok(b.p == 64 && b.n_levels == 3, "8x2x4 has 64 places in 3 levels");
    ok(pairs_level(&b, 0, 1) == 2 && pairs_level(&b, 0, 4) == 1 && pairs_level(&b, 0, 8) == 0 &&
           pairs_level(&b, 9, 14) == 1,
       "block: 0-1 share a socket, 0-4 a node, 0-8 nothing");
    ok(pairs_level(&r, 0, 1) == 0 && pairs_level(&r, 0, 8) == 1 && pairs_level(&r, 0, 16) == 2,
       "rr: 0-1 on two nodes, 0-8 one node two sockets, 0-16 one socket");
    double oc, Lc;
    pairs_cost(&b, 3, 60, &oc, &Lc);
    ok(oc == 0.5 && Lc == 3, "a pair across nodes costs the outermost level");
    lop_place_t pb, pr;
    ok(pairs_machine_place(&b, b.p, &pb) == LOP_OK && pairs_machine_place(&r, 14, &pr) == LOP_OK &&
           pb.id[13 * 3] == 1 && pb.id[13 * 3 + 1] == 1 && pb.id[13 * 3 + 2] == 1 &&
           pr.id[13 * 3] == 5 && pr.id[13 * 3 + 1] == 1 && pr.id[13 * 3 + 2] == 0,
       "rank 13: block node 1 socket 1 core 1; rr node 5 socket 1 core 0");
    ok(pb.p == 64 && pr.p == 14 && strcmp(pb.level_name[1], "socket") == 0,
       "a machine's placement: its first P ranks, levels node, socket, core");
    lop_place_free(&pb);
    lop_place_free(&pr);
    /* A view: ranks 0, 8, 16, 24 (one per node under block) as a 4-rank machine. */
    uint32_t heads[4] = {0, 8, 16, 24};
    pairs_t view;
    ok(pairs_subset(&b, heads, 4, &view) == LOP_OK && view.p == 4, "a view of 4 node heads");
    pairs_cost(&view, 1, 2, &oc, &Lc);
    ok(oc == 0.5 && Lc == 3, "view ranks 1, 2 (8, 16) talk across nodes");
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){3, 0.5, 0, 0};
    sched_t s;
    sched_build(barrier_alg_find("diss"), 4, 0, &s);
    sched_sim_t homo = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    sched_sim_t per = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, &view, SCHED_RECV_PROGRAM, 0};
    sched_sim_result_t r1, r2;
    sched_sim_run(&s, &homo, 0, &r1);
    sched_sim_run(&s, &per, 0, &r2);
    ok(r1.max_us == r2.max_us && r1.max_us == 7,
       "diss on the node heads = homogeneous L = 3, o = 0.5 (%g us)", r2.max_us);
    sched_free(&s);
    uint32_t bad_rank[1] = {64};
    ok(pairs_subset(&b, bad_rank, 1, &view) != LOP_OK, "a view naming rank 64 of 64 is refused");
    pairs_t bad;
    ok(pairs_machine(&bad, "8x0", L, 2, o, 2, PAIRS_BLOCK) != LOP_OK &&
           strstr(lop_errmsg(), "--topology"), "size 0: %s", lop_errmsg());
    ok(pairs_machine(&bad, "8x2x4", L, 2, o, 3, PAIRS_BLOCK) != LOP_OK &&
           strstr(lop_errmsg(), "--level-L"), "2 latencies for 3 levels: %s", lop_errmsg());
}

/* Files in the fixture directory whose name starts with 'prefix'. */
static int files_named(const char *prefix)
{
    DIR *d = opendir(fixture_dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

static void csv_files(void)
{
    pairs_t c, back;
    double L[2] = {2, 0.5}, o[2] = {0.25, 0.1};
    fixture_dir_make("pairs");
    pairs_machine(&c, "2x3", L, 2, o, 2, PAIRS_RR);
    ok(pairs_write(&c, 6, fixture_path("p.csv"), "test") == LOP_OK &&
           pairs_read(fixture_path("p.csv"), &back) == LOP_OK && back.p == 6,
       "pairs.csv written and read back");
    int same = 1;
    for (uint32_t i = 0; i < 6; i++)
        for (uint32_t j = 0; j < 6; j++) {
            double o1, L1, o2, L2;
            if (i == j)
                continue;
            pairs_cost(&c, i, j, &o1, &L1);
            pairs_cost(&back, i, j, &o2, &L2);
            same &= o1 == o2 && L1 == L2;
        }
    ok(same, "every pair's costs survive the file exactly");
    pairs_free(&back);
    /* pairs_write_begin: nothing at the target until the caller commits */
    lop_csv_writer_t w;
    ok(pairs_write_begin(&c, 6, fixture_path("staged.csv"), "test", &w) == LOP_OK &&
           access(fixture_path("staged.csv"), F_OK) != 0 && files_named("staged.csv") == 1,
       "pairs_write_begin: a temporary file, nothing at the target before the commit");
    ok(lop_csv_writer_end(&w, LOP_ERR_INVALID) == LOP_ERR_INVALID &&
           files_named("staged.csv") == 0,
       "... ended with an error (a refused run): no file, no temporary file");
    ok(pairs_write_begin(&c, 6, fixture_path("staged.csv"), "test", &w) == LOP_OK &&
           lop_csv_writer_end(&w, LOP_OK) == LOP_OK &&
           pairs_read(fixture_path("staged.csv"), &back) == LOP_OK && back.p == 6,
       "... committed: the file pairs_write writes");
    pairs_free(&back);
    fixture_file_write("missing.csv", "# p: 3\ni,j,o_us,L_us\n0,1,1,2\n0,2,1,2\n1,0,1,2\n"
                                      "1,2,1,2\n2,0,1,2\n");
    ok(pairs_read(fixture_path("missing.csv"), &back) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "missing.csv:2: no row for i = 2, j = 1"),
       "a missing pair: %s", lop_errmsg());
    fixture_file_write("nan.csv", "i,j,o_us,L_us\n0,1,1,2\n1,0,nan,2\n");
    ok(pairs_read(fixture_path("nan.csv"), &back) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "nan.csv:3"), "a NaN: %s", lop_errmsg());
    fixture_file_write("dup.csv", "i,j,o_us,L_us\n0,1,1,2\n1,0,1,2\n0,1,1,2\n");
    ok(pairs_read(fixture_path("dup.csv"), &back) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "dup.csv:4: a second row"), "a pair twice: %s", lop_errmsg());
    fixture_dir_remove();
}

/* "0001 ..." rows of stage a, as the paper prints them. */
static int stage_is(const incidence_t *m, uint32_t a, const char *rows)
{
    for (uint32_t i = 0; i < m->p; i++)
        for (uint32_t j = 0; j < m->p; j++)
            if (incidence_at(m, a, i, j) != (rows[i * (m->p + 1) + j] == '1'))
                return 0;
    return 1;
}

static void paper_figures(void)
{
    static const struct {
        const char *alg, *figure;
        uint32_t stages;
        const char *s[4];
    } fig[] = {
        {"cc", "figure 2 (linear)", 2, {"0000 1000 1000 1000", "0111 0000 0000 0000"}},
        {"diss", "figure 3 (dissemination)", 2, {"0100 0010 0001 1000", "0010 0001 1000 0100"}},
        {"tour", "figure 4 (tree)", 4,
         {"0000 1000 0000 0010", "0000 0000 1000 0000", "0010 0000 0000 0000",
          "0100 0000 0001 0000"}},
    };
    for (size_t f = 0; f < COUNT(fig); f++) {
        sched_t s;
        incidence_t m;
        sched_build(barrier_alg_find(fig[f].alg), 4, 0, &s);
        incidence_from_sched(&s, &m);
        int same = m.stages == fig[f].stages;
        for (uint32_t a = 0; a < m.stages && same; a++)
            same = stage_is(&m, a, fig[f].s[a]);
        ok(same, "lop's %s at P = 4 is Meyer and Elster's %s", fig[f].alg, fig[f].figure);
        ok(incidence_is_barrier(&m), "%s: K = K + K S ends all ones", fig[f].alg);
        m.stages--; /* without its last stage it is none */
        ok(!incidence_is_barrier(&m), "%s without its last stage: K has a zero", fig[f].alg);
        incidence_free(&m);
        sched_free(&s);
    }
}

/* The paper's test never accepts what lop's checker rejects; list where the
 * checker accepts more (receive and forward within one step). */
static void closure_vs_checker(void)
{
    uint32_t stricter = 0, wrong = 0;
    char where[256] = "";
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if ((*a)->flags & BARRIER_COST_ONLY)
            continue;
        uint32_t here = 0;
        for (uint32_t p = 2; p <= 32; p++) {
            sched_t s;
            incidence_t m;
            sched_build(*a, p, (*a)->default_n, &s);
            incidence_from_sched(&s, &m);
            int matrix = incidence_is_barrier(&m), checker = sched_check(&s) == LOP_OK;
            wrong += matrix && !checker;
            here += checker && !matrix;
            incidence_free(&m);
            sched_free(&s);
        }
        if (here) {
            stricter += here;
            size_t len = strlen(where);
            snprintf(where + len, sizeof where - len, " %s(%u)", (*a)->name, here);
        }
    }
    ok(wrong == 0, "P = 2..32: the matrix test accepts nothing the checker rejects");
    printf("# the checker accepts %u schedules the one-hop-per-stage matrix test does not:%s\n",
           stricter, where);
    ok(strstr(where, "diss") == NULL && strstr(where, " cc") == NULL &&
           strstr(where, "tour") == NULL, "cc, diss and tour: both tests agree");
}

static void critical_path(void)
{
    double L[3] = {3, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    static const char *const algs[] = {"diss", "cc", "tour", "bst", "pe"};
    barrier_cost_t c;
    barrier_cost_init(&c);
    for (int map = 0; map < 2; map++) {
        pairs_t machine;
        pairs_machine(&machine, "8x2x4", L, 3, o, 3, map ? PAIRS_RR : PAIRS_BLOCK);
        for (size_t k = 0; k < COUNT(algs); k++) {
            uint32_t same = 0;
            for (uint32_t p = 2; p <= 64; p++) {
                sched_t s;
                incidence_t m;
                c.logp = (logp_t){0, 0, p % 2 ? 0.0 : 0.7, 0}; /* o_r = 0 and not */
                sched_sim_t par = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, &machine,
                                   SCHED_RECV_PROGRAM, 0};
                sched_sim_result_t r;
                sched_build(barrier_alg_find(algs[k]), p, 0, &s);
                incidence_from_sched(&s, &m);
                sched_sim_run(&s, &par, 0, &r);
                same += fabs(incidence_critical_path(&m, &machine, c.logp.or_us) - r.max_us) <=
                        1e-9 * r.max_us;
                incidence_free(&m);
                sched_free(&s);
            }
            ok(same == 63, "8x2x4 %s, %s: critical path over the weighted matrices = LogP "
               "simulation (g = 0) at %u of P = 2..64", map ? "rr" : "block", algs[k], same);
        }
    }
}

/* pairs_uniform_p against every pair: the largest q whose ranks 0..q-1 all
 * cost what 0 -> 1 costs. */
static uint32_t uniform_by_pairs(const pairs_t *c)
{
    double o0, L0;
    if (c->p < 2)
        return c->p;
    pairs_cost(c, 0, 1, &o0, &L0);
    for (uint32_t q = 2; q <= c->p; q++)
        for (uint32_t i = 0; i < q; i++)
            for (uint32_t j = 0; j < q; j++) {
                double o, L;
                if (i == j)
                    continue;
                pairs_cost(c, i, j, &o, &L);
                if (o != o0 || L != L0)
                    return q - 1;
            }
    return c->p;
}

/* A machine's uniform prefix follows from its levels (no pair visited):
 * the same as every pair says, for both placements, levels of size 1, and
 * levels that cost alike; a matrix is scanned. */
static void uniform_prefix(void)
{
    static const char *const specs[] = {"8x2x4", "2x1x3", "1x4", "3x3x2", "4", "2x2x2"};
    static const double cost[][3] = {{3, 0.8, 0.2}, {3, 0.8, 3}, {5, 5, 5}, {1, 1, 2}};
    uint32_t agree = 0, total = 0;
    for (size_t k = 0; k < COUNT(specs); k++)
        for (size_t c = 0; c < COUNT(cost); c++)
            for (int map = 0; map < 2; map++) {
                pairs_t m;
                double o, L;
                pairs_machine(&m, specs[k], cost[c], (uint32_t)(strlen(specs[k]) + 1) / 2,
                              cost[c], (uint32_t)(strlen(specs[k]) + 1) / 2,
                              map ? PAIRS_RR : PAIRS_BLOCK);
                agree += pairs_uniform_p(&m, &o, &L) == uniform_by_pairs(&m);
                total++;
            }
    ok(agree == total, "machines: the uniform prefix from the levels = from every pair (%u of %u)",
       agree, total);
    pairs_t b;
    double L[3] = {3, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1}, uo, uL;
    pairs_machine(&b, "8x2x4", L, 3, o, 3, PAIRS_BLOCK);
    ok(pairs_uniform_p(&b, &uo, &uL) == 4 && uo == 0.1 && uL == 0.2,
       "8x2x4 block: ranks 0..3 share a socket (o 0.1, L 0.2)");
    pairs_machine(&b, "8x2x4", L, 3, o, 3, PAIRS_RR);
    ok(pairs_uniform_p(&b, &uo, &uL) == 8 && uo == 0.5 && uL == 3,
       "8x2x4 rr: ranks 0..7 are on 8 nodes (o 0.5, L 3)");
    pairs_t mat = {.p = 4};
    mat.o_us = calloc(16, sizeof(double));
    mat.L_us = calloc(16, sizeof(double));
    for (int k = 0; k < 16; k++)
        mat.o_us[k] = 1, mat.L_us[k] = 5;
    ok(pairs_uniform_p(&mat, &uo, &uL) == 4 && uo == 1 && uL == 5, "a matrix of equal pairs: all 4");
    mat.L_us[3 * 4 + 2] = 6; /* 3 -> 2 */
    ok(pairs_uniform_p(&mat, &uo, &uL) == 3, "3 -> 2 costs more: ranks 0..2");
    mat.o_us[1 * 4 + 0] = 2; /* 1 -> 0: not symmetric */
    ok(pairs_uniform_p(&mat, &uo, &uL) == 1, "1 -> 0 differs from 0 -> 1: rank 0 alone");
    pairs_free(&mat);
}

/* or_per_pair: a receive costs its pair's o.  Equal pairs then reproduce
 * LogP with o_r = o bit for bit (cost->logp.or_us is not read: 99 here), in
 * both receive orders; on 2x2 diss P = 4 each receive costs its own pair's o. */
static void receive_overhead(void)
{
    barrier_cost_t hom_c, per_c;
    barrier_cost_init(&hom_c);
    barrier_cost_init(&per_c);
    hom_c.logp = (logp_t){5, 1, 1, 0.3};
    per_c.logp = (logp_t){5, 1, 99, 0.3};
    pairs_t m;
    double L[3] = {5, 5, 5}, o[3] = {1, 1, 1};
    pairs_machine(&m, "4x4x4", L, 3, o, 3, PAIRS_BLOCK);
    uint32_t same = 0, total = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        for (uint32_t p = 2; p <= 64 && !((*a)->flags & BARRIER_COST_ONLY); p++)
            for (int order = 0; order < 2; order++) {
                sched_recv_order_t ro = order ? SCHED_RECV_ARRIVAL : SCHED_RECV_PROGRAM;
                sched_sim_t h = {SCHED_SIM_LOGP, &hom_c, SCHED_LOP_STREAM, NULL, ro, 0};
                sched_sim_t q = {SCHED_SIM_LOGP, &per_c, SCHED_LOP_STREAM, &m, ro, 1};
                sched_sim_result_t rh, rq;
                sched_t s;
                sched_build(*a, p, (*a)->default_n, &s);
                same += sched_sim_run(&s, &h, 0, &rh) == LOP_OK &&
                        sched_sim_run(&s, &q, 0, &rq) == LOP_OK && rh.max_us == rq.max_us;
                total++;
                sched_free(&s);
            }
    ok(same == total, "equal pairs with o_r per pair = LogP with o_r = o, bit for bit (%u of %u)",
       same, total);
    double L2[2] = {5, 0.25}, o2[2] = {1, 0.125};
    pairs_machine(&m, "2x2", L2, 2, o2, 2, PAIRS_BLOCK);
    per_c.logp = (logp_t){0, 0, 0, 0};
    sched_t s;
    sched_build(barrier_alg_find("diss"), 4, 0, &s);
    sched_sim_t q = {SCHED_SIM_LOGP, &per_c, SCHED_LOP_STREAM, &m, SCHED_RECV_PROGRAM, 1};
    sched_sim_result_t r1, r0;
    sched_sim_run(&s, &q, 0, &r1);
    q.or_per_pair = 0;
    sched_sim_run(&s, &q, 0, &r0);
    /* round 0: local send 0.125, cross-node message arrives at 1 + 5, o_r 1;
     * round 1: cross-node send 1, arrives 5 later, o_r 1 */
    ok(r1.max_us == 14 && r0.max_us == 12,
       "2x2 diss P = 4: o_r of each pair 14 us, o_r = 0 12 us (%g, %g)", r1.max_us, r0.max_us);
    sched_free(&s);
}

/* Arrival order with per-pair o_r and g > 0: messages arriving together are
 * taken in program order, so the time does not depend on the sort. */
static void arrival_ties(void)
{
    pairs_t mat = {.p = 3};
    mat.o_us = calloc(9, sizeof(double));
    mat.L_us = calloc(9, sizeof(double));
    mat.o_us[1 * 3 + 0] = 1, mat.L_us[1 * 3 + 0] = 2; /* 1 -> 0 arrives at 3, o_r 1 */
    mat.o_us[2 * 3 + 0] = 2, mat.L_us[2 * 3 + 0] = 1; /* 2 -> 0 arrives at 3, o_r 2 */
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp.g_us = 5;
    sched_t s;
    sched_init(&s, 3);
    sched_push(&s, SCHED_RECV, 1, 0);
    sched_push(&s, SCHED_RECV, 2, 0);
    sched_end_rank(&s, 0);
    sched_push(&s, SCHED_SEND, 0, 0);
    sched_end_rank(&s, 1);
    sched_push(&s, SCHED_SEND, 0, 0);
    sched_end_rank(&s, 2);
    sched_sim_t par = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, &mat, SCHED_RECV_ARRIVAL, 1};
    sched_sim_result_t r;
    /* from 1 at 3 (CPU to 4), from 2 at max(4, 3 + g) = 8 (to 10); reversed: 9 */
    ok(sched_sim_run(&s, &par, 0, &r) == LOP_OK && r.max_us == 10,
       "equal arrivals taken in program order: 10 us (%g)", r.max_us);
    sched_free(&s);
    pairs_free(&mat);
}

/* pairs_cost's level by multiplications (pairs_key) is pairs_level's by
 * divisions, for every pair of small machines and for pairs of large ones
 * (machine scale, up to 2^24 ranks), block and round robin: a pair's cost
 * is the level's, so the level tells them apart (costs 1, 10, 100, ... per
 * level). */
static void fast_levels(void)
{
    static const char *const spec[] = {"8x2x4", "3x5x7", "7x1x3", "2x3x1x5", "1024x2x512",
                                       "9408x64", "4096x4096"};
    double L[PAIRS_MAX_LEVELS], o[PAIRS_MAX_LEVELS];
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < COUNT(spec); i++) {
            pairs_t c;
            uint32_t levels = 1, bad = 0, tried = 0;
            for (const char *x = spec[i]; *x; x++)
                levels += *x == 'x';
            for (uint32_t k = 0; k < levels; k++)
                L[k] = pow(10, k), o[k] = 0;
            pairs_machine(&c, spec[i], L, levels, o, levels, m ? PAIRS_RR : PAIRS_BLOCK);
            uint64_t x = 88172645463325252ull; /* xorshift: pairs of a large machine */
            for (uint32_t a = 0; a < (c.p <= 256 ? c.p * c.p : 200000); a++, tried++) {
                uint32_t u = a / c.p, v = a % c.p;
                if (c.p > 256) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    u = (uint32_t)(x % c.p), v = (uint32_t)((x >> 32) % c.p);
                    v = a % 3 == 0 ? (u ^ (1u << (a % 20))) % c.p : v; /* near pairs too */
                }
                double os, Lk;
                if (u == v)
                    continue;
                pairs_cost(&c, u, v, &os, &Lk);
                bad += Lk != L[pairs_level(&c, u, v)];
            }
            ok(!bad, "%s %s: pairs_cost's level is pairs_level's (%u pairs)", spec[i],
               m ? "rr" : "block", tried);
        }
}

/* The bytes of a file's rows: all of it after the header line. */
static long rows_bytes(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    long after = -1;
    while (f && fgets(line, sizeof line, f))
        if (after < 0 && strncmp(line, "i,j,", 4) == 0)
            after = ftell(f);
    long end = f ? ftell(f) : 0;
    if (f)
        fclose(f);
    return after < 0 ? -1 : end - after;
}

/* --write-costs says the file's size before writing it (and refuses one its
 * filesystem has no room for): the estimate is exact for a machine, whose
 * levels repeat alike for every rank, and the room check refuses an
 * exabyte. */
static void write_size(void)
{
    static const struct {
        const char *spec;
        pairs_map_t map;
    } machines[] = {{"2x3", PAIRS_RR}, {"4x2x3", PAIRS_BLOCK}, {"10x11", PAIRS_RR}};
    double L[3] = {3, 0.75, 0.2}, o[3] = {0.5, 0.125, 0.1};
    fixture_dir_make("pairs-size");
    for (size_t k = 0; k < COUNT(machines); k++) {
        pairs_t c;
        size_t levels = strchr(machines[k].spec + 3, 'x') ? 3 : 2;
        if (pairs_machine(&c, machines[k].spec, L, levels, o, levels, machines[k].map) != LOP_OK)
            continue;
        ok(pairs_write(&c, c.p, fixture_path("size.csv"), "test") == LOP_OK &&
               (long)pairs_write_size(&c, c.p) == rows_bytes(fixture_path("size.csv")),
           "%s: the rows' size said up front is the file's (%llu bytes)", machines[k].spec,
           (unsigned long long)pairs_write_size(&c, c.p));
        pairs_free(&c);
    }
    ok(lop_csv_writer_room(fixture_path("size.csv"), 1000) == LOP_OK,
       "a kB fits the fixture's filesystem");
    ok(lop_csv_writer_room(fixture_path("size.csv"), UINT64_MAX / 2) == LOP_ERR_IO &&
           strstr(lop_errmsg(), "size.csv: about ") && strstr(lop_errmsg(), "GB free"),
       "an exabyte does not: %s", lop_errmsg());
    fixture_dir_remove();
}

int main(void)
{
    equal_costs();
    uniform_prefix();
    receive_overhead();
    arrival_ties();
    placement();
    csv_files();
    write_size();
    paper_figures();
    closure_vs_checker();
    critical_path();
    fast_levels();
    return tap_done();
}
