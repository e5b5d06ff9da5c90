/* hybrid_prove (hybrid.h) against the full checker on the composed barrier:
 * the same verdict for every P = 1..4096 on 16x4x64 block, every P = 1..1024
 * on it round robin, every P = 1..512 on a four-level machine, an uneven
 * one and a placement from text labels, with the algorithms of each tier
 * taken in turn (arrival phases of every schedule algorithm, the top whole
 * or split); and both say no when a tier's arrival is no gather or the top
 * is no barrier (every P of the first and the last 128 having that tier).  About 6 s of CPU: the
 * checker on 4096 composed barriers is most of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "hybrid.h"
#include "pairs.h"
#include "sched_check.h"
#include "tap.h"

#define MAX_PIECES 70000
#define BROKEN_P 128 /* P of the broken cases */

/* The algorithms with a schedule, in barrier_algs order (algs_collect). */
static const barrier_alg_t *algs[64];
static uint32_t n_algs;

static void algs_collect(void)
{
    for (const barrier_alg_t *const *a = barrier_algs; *a && n_algs < 64; a++)
        if (!((*a)->flags & BARRIER_COST_ONLY))
            algs[n_algs++] = *a;
}

#define MAX_SIZES 64 /* group sizes of one tier */

/* The local schedules of one hybrid: per tier and group size, built once. */
typedef struct {
    sched_t local[HYBRID_MAX_LEVELS + 1][MAX_SIZES];
    int whole[HYBRID_MAX_LEVELS + 1][MAX_SIZES];
    uint32_t size[HYBRID_MAX_LEVELS + 1][MAX_SIZES], n[HYBRID_MAX_LEVELS + 1];
    hybrid_piece_t piece[MAX_PIECES];
} parts_t;

/* Tier t's schedule for groups of k: algorithm (choice + t) in turn, the
 * top whole when choice is odd (not rgm: its MCAST would reach every rank).
 * 'broken': an arrival without rank k - 1's ops (no gather), or a whole top
 * that is only its arrival (no barrier).  An algorithm without an arrival
 * phase falls back to cc. */
static int local_of(parts_t *pa, uint32_t t, uint32_t k, uint32_t choice, int broken)
{
    uint32_t i = 0;
    while (i < pa->n[t] && pa->size[t][i] != k)
        i++;
    if (i < pa->n[t] || i == MAX_SIZES)
        return (int)i;
    const barrier_alg_t *a = algs[(choice + t) % n_algs];
    sched_t whole, *out = &pa->local[t][i];
    int *is_whole = &pa->whole[t][i];
    *is_whole = t == 0 && choice % 2 && strcmp(a->name, "rgm") != 0 && k > 1;
    pa->size[t][pa->n[t]++] = k;
    if (k == 1) {
        sched_init(out, 1);
        return (int)i;
    }
    sched_build(a, k, 1 + choice % 3, &whole);
    if (*is_whole && !broken) {
        *out = whole;
        return (int)i;
    }
    if (hybrid_arrival(&whole, out) != LOP_OK) {
        sched_free(&whole);
        sched_build(barrier_alg_find("cc"), k, 1, &whole);
        hybrid_arrival(&whole, out);
    }
    sched_free(&whole);
    if (broken && !*is_whole) /* rank k - 1 reports nothing: its ops dropped */
        out->first[k] = out->n_ops = out->first[k - 1];
    return (int)i;
}

/* The pieces of the hybrid over 'tree' (tiers counted in order). */
static void pieces(parts_t *pa, const hybrid_tree_t *tree, uint32_t choice, int broken_tier)
{
    memset(pa->n, 0, sizeof pa->n);
    uint32_t i = 0, k;
    for (uint32_t t = 0; t < hybrid_tree_tiers(tree); t++)
        for (uint32_t g = 0; g < hybrid_tree_groups(tree, t) && i < MAX_PIECES; g++, i++) {
            hybrid_tree_members(tree, t, g, &k);
            int at = local_of(pa, t, k, choice, (int)t == broken_tier);
            pa->piece[i] = (hybrid_piece_t){&pa->local[t][at], pa->whole[t][at]};
        }
}

static void parts_free(parts_t *pa)
{
    for (uint32_t t = 0; t <= HYBRID_MAX_LEVELS; t++)
        for (uint32_t i = 0; i < pa->n[t]; i++)
            sched_free(&pa->local[t][i]);
}

/* Proof and checker on one placement for P = p_lo..p_max; broken_tier -1:
 * every hybrid valid.  Returns the P where they first disagree (0: none)
 * and counts the verdicts 'no'. */
static uint32_t agree(const lop_place_t *pl, uint32_t p_lo, uint32_t p_max, int broken_tier,
                      uint32_t *no, uint32_t *tried)
{
    static parts_t pa;
    uint32_t first = 0;
    for (uint32_t p = p_lo; p <= p_max; p++) {
        hybrid_tree_t *tree;
        sched_t s;
        if (hybrid_tree_new(pl, p, &tree) != LOP_OK)
            return p;
        if (broken_tier >= (int)hybrid_tree_tiers(tree)) {
            hybrid_tree_free(tree);
            continue;
        }
        pieces(&pa, tree, p, broken_tier);
        lop_status_t proof = hybrid_prove(tree, pa.piece);
        lop_status_t check = hybrid_tree_tiers(tree) == 0 ? LOP_OK : LOP_ERR_NOMEM;
        if (check != LOP_OK && hybrid_compose_pieces(tree, pa.piece, &s) == LOP_OK) {
            check = sched_check(&s);
            sched_free(&s);
        }
        first = first ? first : (proof == LOP_OK) != (check == LOP_OK) ? p : 0;
        *no += proof != LOP_OK;
        ++*tried;
        parts_free(&pa);
        hybrid_tree_free(tree);
    }
    return first;
}

static void machine_case(const char *spec, uint32_t levels, pairs_map_t map, uint32_t p_max)
{
    double L[PAIRS_MAX_LEVELS] = {0}, o[PAIRS_MAX_LEVELS] = {0};
    pairs_t m;
    lop_place_t pl;
    uint32_t no = 0, tried = 0, bad;
    pairs_machine(&m, spec, L, levels, o, levels, map);
    pairs_machine_place(&m, m.p, &pl);
    bad = agree(&pl, 1, p_max, -1, &no, &tried);
    ok(!bad && no == 0, "%s %s: proof = checker = a barrier, every P = 1..%u (%u hybrids%s)",
       spec, map == PAIRS_RR ? "rr" : "block", p_max, tried, bad ? "; DISAGREE" : "");
    if (bad)
        printf("#   first at P = %u: %s\n", bad, lop_errmsg());
    for (int t = 0; t < (int)levels; t++) {
        no = tried = 0;
        bad = agree(&pl, 1, BROKEN_P, t, &no, &tried);
        bad = bad ? bad : agree(&pl, p_max - BROKEN_P + 1, p_max, t, &no, &tried);
        ok(!bad && no == tried && tried > 0, "%s %s, tier %d broken: proof = checker = no at "
           "every P = 1..%u and %u..%u with that tier (%u of %u)",
           spec, map == PAIRS_RR ? "rr" : "block", t, BROKEN_P, p_max - BROKEN_P + 1, p_max,
           no, tried);
        if (bad)
            printf("#   first at P = %u\n", bad);
    }
    lop_place_free(&pl);
}

/* A placement from text labels: hosts of 5, 3, 9, ... ranks dealt out
 * unevenly, two sockets each. */
static void labels_case(void)
{
    enum { P = 512 };
    static char text[P][2][16];
    static const char *label[P * 2];
    static const char *const name[2] = {"host", "socket"};
    for (uint32_t r = 0; r < P; r++) {
        snprintf(text[r][0], 16, "h%u", (r * 7 + r / 11) % 37);
        snprintf(text[r][1], 16, "s%u", r % 2);
        label[2 * r] = text[r][0];
        label[2 * r + 1] = text[r][1];
    }
    lop_place_t pl;
    uint32_t no = 0, tried = 0, bad;
    ok(lop_place_labels(P, 2, label, name, &pl) == LOP_OK, "an uneven placement from labels");
    bad = agree(&pl, 1, P, -1, &no, &tried);
    ok(!bad && no == 0, "labels: proof = checker = a barrier, every P = 1..%u (%u)", P, tried);
    no = tried = 0;
    bad = agree(&pl, 1, BROKEN_P, 1, &no, &tried);
    ok(!bad && no == tried && tried > 0, "labels, tier 1 broken: both say no (%u of %u)", no,
       tried);
    lop_place_free(&pl);
}

int main(void)
{
    algs_collect();
    machine_case("16x4x64", 3, PAIRS_BLOCK, 4096);
    machine_case("16x4x64", 3, PAIRS_RR, 1024);
    machine_case("4x2x4x16", 4, PAIRS_BLOCK, 512);
    machine_case("3x5x7x5", 4, PAIRS_RR, 512);
    labels_case();
    return tap_done();
}
