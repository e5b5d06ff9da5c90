/* Hybrid barriers (hybrid.h): the paper's 22-process 3-node example of its
 * figure 10 is a valid barrier; arrival phases are gathers to rank 0; the
 * hybrid is never slower than the best flat algorithm nor than greedy, on
 * 8x2x4 with the paper's ratios, P = 2..64, block and round robin; with all
 * costs equal it is still a valid barrier; placement.csv is read and its
 * errors name file:line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "hybrid.h"
#include "pairs.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "tap.h"

static barrier_cost_t cost; /* o_r = 0, g = 0: the paper's O has no receive part */

static sched_sim_t sim_of(const pairs_t *c)
{
    return (sched_sim_t){SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, c, SCHED_RECV_PROGRAM, 0};
}

/* A synthetic machine and the placement of all its places. */
static void machine(const char *spec, const double *L, const double *o, uint32_t levels,
                    pairs_map_t map, pairs_t *m, lop_place_t *pl)
{
    pairs_machine(m, spec, L, levels, o, levels, map);
    pairs_machine_place(m, m->p, pl);
}

/* Does rank 'to' receive from 'from' in step 'step'? */
static int has_recv(const sched_t *s, uint32_t to, uint32_t from, uint32_t step)
{
    for (const sched_op_t *o = sched_rank_ops(s, to); o < sched_rank_end(s, to); o++)
        if (o->kind == SCHED_RECV && (uint32_t)o->peer == from && o->step == step)
            return 1;
    return 0;
}

/* Figure 10: 22 ranks round robin on 3 nodes of 8 cores; tree (tour) on
 * nodes 0 and 1, linear (cc) on node 2, dissemination over the node leaders. */
static void figure10(void)
{
    double L[2] = {3, 0.2}, o[2] = {0.5, 0.1};
    pairs_t m;
    lop_place_t pl;
    hybrid_tree_t *tree;
    ok(pairs_machine(&m, "3x8", L, 2, o, 2, PAIRS_RR) == LOP_OK &&
           pairs_machine_place(&m, 22, &pl) == LOP_OK && hybrid_tree_new(&pl, 22, &tree) == LOP_OK,
       "figure 10: 3x8 round robin, P = 22");
    uint32_t k0, k1, k2, k3;
    const uint32_t *top = hybrid_tree_members(tree, 0, 0, &k0);
    const uint32_t *n2 = hybrid_tree_members(tree, 1, 2, &k3);
    hybrid_tree_members(tree, 1, 0, &k1);
    hybrid_tree_members(tree, 1, 1, &k2);
    ok(hybrid_tree_tiers(tree) == 2 && k0 == 3 && top[0] == 0 && top[1] == 1 && top[2] == 2,
       "two tiers; the node leaders are ranks 0, 1, 2");
    ok(k1 == 8 && k2 == 7 && k3 == 7 && n2[1] == 5 && n2[6] == 20,
       "nodes hold 8, 7, 7 ranks; node 2 is 2, 5, ..., 20");
    hybrid_choice_t choice[4] = {
        {barrier_alg_find("diss"), 1, 1},
        {barrier_alg_find("tour"), 1, 0},
        {barrier_alg_find("tour"), 1, 0},
        {barrier_alg_find("cc"), 1, 0},
    };
    sched_t s;
    ok(hybrid_compose(tree, choice, &s) == LOP_OK, "figure 10 composes");
    ok(sched_check(&s) == LOP_OK, "figure 10 is a barrier (%s)", lop_errmsg());
    int linear = 1;
    for (uint32_t r = 5; r <= 20; r += 3)
        linear &= has_recv(&s, 2, r, 0);
    ok(linear, "stage 1: ranks 5, 8, 11, 14, 17, 20 signal process 2 together (the paper's "
               "linear arrival)");
    ok(has_recv(&s, 0, 3, 0) && has_recv(&s, 0, 6, 1) && has_recv(&s, 0, 12, 2),
       "node 0: a 3-stage tree arrival to rank 0 (3, then 6, then 12)");
    sched_free(&s);
    hybrid_tree_free(tree);
    lop_place_free(&pl);
}

/* One lookup finds every algorithm, the hybrid among them, though the
 * hybrid is not in barrier_algs (it has no build_rank). */
static void lookup(void)
{
    int listed = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        listed |= *a == &barrier_alg_hybrid;
    ok(barrier_alg_find("hybrid") == &barrier_alg_hybrid && !listed &&
           strcmp(barrier_alg_find("diss")->name, "diss") == 0 && !barrier_alg_find("hybridx"),
       "barrier_alg_find: the hybrid and barrier_algs' algorithms by name, nothing else");
}

/* Every algorithm's arrival phase is a gather to rank 0: rank 0 learns of
 * all, and its departure (reversed) completes a barrier. */
static void arrivals(void)
{
    uint32_t good = 0, total = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if ((*a)->flags & BARRIER_COST_ONLY)
            continue;
        for (uint32_t p = 2; p <= 40; p++)
            for (uint32_t n = 1; n <= ((*a)->takes_n ? 4 : 1); n++) {
                sched_t s, arr;
                total++;
                if (sched_build(*a, p, n, &s) != LOP_OK)
                    continue;
                if (hybrid_arrival(&s, &arr) == LOP_OK) {
                    good += arr.n_ops <= s.n_ops && sched_rank_count(&arr, 0) > 0;
                    sched_free(&arr);
                }
                sched_free(&s);
            }
    }
    ok(good == total, "every algorithm, P = 2..40, n = 1..4: an arrival phase of at most its "
       "ops (%u of %u)", good, total);
    sched_t s, arr;
    sched_build(barrier_alg_find("diss"), 8, 1, &s);
    hybrid_arrival(&s, &arr);
    ok(arr.n_ops == 14 && s.n_ops == 48, "diss P = 8: the cone to rank 0 keeps 7 messages of 24");
    sched_free(&s);
    sched_free(&arr);
}

/* 8x2x4, the paper's ratios: hybrid <= best flat and <= greedy, valid. */
static void never_worse(pairs_map_t map, const char *name)
{
    double L[3] = {3.0, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    pairs_t m;
    lop_place_t pl;
    machine("8x2x4", L, o, 3, map, &m, &pl);
    sched_sim_t sim = sim_of(&m);
    uint32_t flat = 0, greedy = 0, valid = 0, gained = 0, exhaustive = 0;
    for (uint32_t p = 2; p <= 64; p++) {
        hybrid_result_t res;
        if (hybrid_build(&pl, p, &sim, NULL, &res) != LOP_OK)
            continue;
        sched_sim_result_t r;
        double us = sched_sim_run(&res.sched, &sim, 0, &r) == LOP_OK ? r.max_us : NAN;
        flat += res.us <= res.flat_us && us == res.us;
        greedy += res.us <= res.greedy_us;
        valid += sched_check(&res.sched) == LOP_OK;
        gained += res.us < res.flat_us;
        exhaustive += res.exhaustive;
        hybrid_result_free(&res);
    }
    ok(valid == 63, "%s: the hybrid is a barrier for P = 2..64 (%u)", name, valid);
    ok(flat == 63, "%s: hybrid <= best flat algorithm for P = 2..64, its time as simulated (%u)",
       name, flat);
    ok(greedy == 63, "%s: search <= greedy for P = 2..64 (%u)", name, greedy);
    ok(exhaustive == 63, "%s: 3 levels: every search exhaustive (%u)", name, exhaustive);
    if (map == PAIRS_BLOCK)
        ok(gained > 0, "%s: the hybrid beats every flat algorithm at %u of 63 P", name, gained);
    lop_place_free(&pl);
}

/* The search's bounds skip only what cannot win: its result is the best of
 * greedy, flat and every per-tier combination composed and simulated here
 * (candidates cc, tour, diss, nwise n = 1..8; 8x2x4, P = 8, 16, ..., 64,
 * block and round robin). */
static void bounds_exact(pairs_map_t map, const char *name)
{
    static const char *const names[] = {"cc", "tour", "diss", "nwise"};
    const barrier_alg_t *algs[5] = {NULL};
    hybrid_choice_t cand[64];
    uint32_t n_cand = 0, same = 0, tried = 0;
    for (int a = 0; a < 4; a++) {
        algs[a] = barrier_alg_find(names[a]);
        for (uint32_t n = 1; n <= (algs[a]->takes_n ? 8u : 1u); n++)
            for (int whole = 0; whole < 2; whole++)
                cand[n_cand++] = (hybrid_choice_t){algs[a], barrier_alg_n(algs[a], n), whole};
    }
    double L[3] = {3.0, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    pairs_t m;
    lop_place_t pl;
    machine("8x2x4", L, o, 3, map, &m, &pl);
    sched_sim_t sim = sim_of(&m);
    for (uint32_t p = 8; p <= 64; p += 8, tried++) {
        hybrid_tree_t *tree;
        hybrid_result_t res;
        hybrid_tree_new(&pl, p, &tree);
        uint32_t tiers = hybrid_tree_tiers(tree), groups = 0, pick[3] = {0, 0, 0};
        for (uint32_t t = 0; t < tiers; t++)
            groups += hybrid_tree_groups(tree, t);
        hybrid_choice_t *choice = calloc(groups, sizeof *choice);
        double best = INFINITY;
        for (int more = 1; more;) { /* every per-tier combination (whole at tier 0 only) */
            uint32_t k = 0;
            for (uint32_t t = 0; t < tiers; t++)
                for (uint32_t g = 0; g < hybrid_tree_groups(tree, t); g++)
                    choice[k++] = cand[pick[t]];
            sched_t s;
            sched_sim_result_t r;
            if (hybrid_compose(tree, choice, &s) == LOP_OK) {
                if (sched_sim_run(&s, &sim, 0, &r) == LOP_OK)
                    best = fmin(best, r.max_us);
                sched_free(&s);
            }
            more = 0;
            for (uint32_t t = 0; t < tiers && !more; t++) { /* next; tiers > 0: no whole */
                do
                    pick[t] = (pick[t] + 1) % n_cand;
                while (t > 0 && cand[pick[t]].whole);
                more = pick[t] != 0;
            }
        }
        if (hybrid_build(&pl, p, &sim, algs, &res) == LOP_OK) {
            same += res.us == fmin(best, fmin(res.greedy_us, res.flat_us));
            hybrid_result_free(&res);
        }
        free(choice);
        hybrid_tree_free(tree);
    }
    ok(same == tried, "%s: the bounded search finds the best of every combination, greedy and "
       "flat (%u of %u P)", name, same, tried);
    lop_place_free(&pl);
}

/* All costs equal: still a valid barrier, never slower than flat. */
static void equal_costs(void)
{
    double L[3] = {1, 1, 1}, o[3] = {0.5, 0.5, 0.5};
    pairs_t m;
    lop_place_t pl;
    machine("4x2x4", L, o, 3, PAIRS_BLOCK, &m, &pl);
    sched_sim_t sim = sim_of(&m);
    uint32_t good = 0;
    for (uint32_t p = 1; p <= 32; p++) {
        hybrid_result_t res;
        if (hybrid_build(&pl, p, &sim, NULL, &res) == LOP_OK) {
            good += sched_check(&res.sched) == LOP_OK && res.us <= res.flat_us;
            hybrid_result_free(&res);
        }
    }
    ok(good == 32, "equal costs: a valid barrier, <= flat, P = 1..32 (%u)", good);
    lop_place_free(&pl);
}

/* More than HYBRID_EXHAUSTIVE_TIERS tiers: local search, still <= greedy. */
static void local_search(void)
{
    double L[5] = {4, 2, 1, 0.5, 0.2}, o[5] = {0.5, 0.4, 0.3, 0.2, 0.1};
    pairs_t m;
    lop_place_t pl;
    hybrid_result_t res;
    machine("2x2x2x2x2", L, o, 5, PAIRS_BLOCK, &m, &pl);
    sched_sim_t sim = sim_of(&m);
    ok(hybrid_build(&pl, 32, &sim, NULL, &res) == LOP_OK && res.n_tiers == 5 && !res.exhaustive &&
           res.us <= res.greedy_us && res.us <= res.flat_us,
       "5 tiers: coordinate descent, <= greedy and flat (%s)", res.config);
    hybrid_result_free(&res);
    lop_place_free(&pl);
}

/* placement.csv: levels from hosts and sockets; a matrix view's costs. */
static void placement_file(void)
{
    char path[512], bad[512], miss[512];
    fixture_dir_make("hybrid");
    fixture_file_write("placement.csv", "# lopbench: test\n# p: 4\nrank,host,socket,numa,core\n"
                                        "0,a,0,0,0\n1,b,0,0,0\n2,a,1,1,4\n3,b,0,0,1\n");
    snprintf(path, sizeof path, "%s", fixture_path("placement.csv"));
    fixture_file_write("bad.csv", "rank,host,socket,numa,core\n0,a,0,0,0\n0,a,0,0,1\n");
    snprintf(bad, sizeof bad, "%s", fixture_path("bad.csv"));
    fixture_file_write("miss.csv", "rank,host,socket,core\n0,a,0,0\n");
    snprintf(miss, sizeof miss, "%s", fixture_path("miss.csv"));
    lop_place_t pl;
    hybrid_tree_t *tree;
    uint32_t k;
    ok(lop_place_read(path, SCHED_MAX_P, &pl) == LOP_OK && pl.p == 4 && pl.n_levels == 4,
       "placement.csv with metadata reads (%s)", lop_errmsg());
    ok(hybrid_tree_new(&pl, 4, &tree) == LOP_OK && hybrid_tree_tiers(tree) == 3,
       "hosts a, b; sockets of a; cores of b's socket 0: three tiers (numa splits nothing)");
    const uint32_t *top = hybrid_tree_members(tree, 0, 0, &k);
    ok(k == 2 && top[0] == 0 && top[1] == 1, "host leaders 0 and 1");
    hybrid_tree_free(tree);
    lop_place_free(&pl);
    ok(lop_place_read(bad, SCHED_MAX_P, &pl) != LOP_OK && strstr(lop_errmsg(), "bad.csv:3:"),
       "a repeated rank names file:line (%s)", lop_errmsg());
    ok(lop_place_read(miss, SCHED_MAX_P, &pl) != LOP_OK && strstr(lop_errmsg(), "numa"),
       "a missing column is named (%s)", lop_errmsg());
    fixture_dir_remove();
}

/* A view of a cost matrix indexes the matrix by its own P. */
static void matrix_view(void)
{
    pairs_t c = {.p = 4};
    double o[16], L[16];
    for (int i = 0; i < 16; i++)
        o[i] = i, L[i] = 100 + i;
    c.o_us = o;
    c.L_us = L;
    uint32_t ranks[2] = {3, 1};
    pairs_t v;
    double oc, Lc;
    pairs_subset(&c, ranks, 2, &v);
    pairs_cost(&v, 0, 1, &oc, &Lc);
    ok(oc == 13 && Lc == 113, "a view of a 4x4 matrix: view 0 -> 1 is 3 -> 1 (o %g)", oc);
}

int main(void)
{
    barrier_cost_init(&cost);
    cost.logp = (logp_t){1, 0.5, 0, 0};
    lookup();
    figure10();
    arrivals();
    never_worse(PAIRS_BLOCK, "block");
    never_worse(PAIRS_RR, "rr");
    bounds_exact(PAIRS_BLOCK, "block");
    bounds_exact(PAIRS_RR, "rr");
    equal_costs();
    local_search();
    placement_file();
    matrix_view();
    return tap_done();
}
