/* hybrid_search.c - the hybrid barrier's candidates and search: per tier
 * every algorithm's local schedules and times, greedy, the best flat
 * algorithm, branch and bound or coordinate descent over whole hybrids, and
 * the result's proof (hybrid.h). */
#include "hybrid_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_check.h"

/* ------------------------------------------------------------ candidates */

/* One choice at one tier: its local schedule per distinct group size. */
typedef struct {
    hybrid_choice_t choice;
    sched_t *local;  /* [size index] */
    double worst_us; /* the slowest group's local time: a lower bound of any hybrid using it */
    double best_us;  /* the sum bound's term (exhaustive): the fastest group's local time,
                        below the top plus the fastest group's departure */
} cand_t;

typedef struct {
    uint32_t n_sizes;
    uint32_t *size;     /* distinct group sizes */
    uint32_t *size_of;  /* per group: index into size[] */
    cand_t *cand;
    uint32_t n_cand;
    double *us;         /* us[g * n_cand + c]: group g's local time with candidate c */
    uint32_t *order;    /* candidates by worst_us, fastest first */
} tier_cands_t;

typedef struct {
    const hybrid_tree_t *tree;
    const sched_sim_t *sim;
    const barrier_alg_t *const *algs; /* the candidates, NULL-terminated */
    uint32_t p;
    tier_cands_t tc[HYBRID_MAX_LEVELS + 1];
    hybrid_piece_t *piece;     /* per group of all tiers (tier-major) */
    uint32_t n_pieces;
    uint32_t *pick;     /* the search's current choice per tier */
    double best_us;     /* best hybrid so far */
    uint32_t best_pick[HYBRID_MAX_LEVELS + 1];
    uint64_t evaluated, pruned;
} search_t;

static void cand_free(cand_t *c, uint32_t n_sizes)
{
    for (uint32_t i = 0; c->local && i < n_sizes; i++)
        sched_free(&c->local[i]);
    free(c->local);
    c->local = NULL;
}

/* Is candidate c the same as an earlier one on every size of the tier? */
static int cand_repeats(const tier_cands_t *tc, const cand_t *c)
{
    for (uint32_t e = 0; e < tc->n_cand; e++) {
        uint32_t same = tc->cand[e].choice.whole == c->choice.whole;
        for (uint32_t i = 0; i < tc->n_sizes && same; i++)
            same = sched_equal(&tc->cand[e].local[i], &c->local[i]);
        if (same)
            return 1;
    }
    return 0;
}

/* Add 'choice' if it serves every group size of the tier and is new. */
static lop_status_t cand_add(tier_cands_t *tc, hybrid_choice_t choice, uint32_t p_all)
{
    cand_t c = {choice, lop_calloc(tc->n_sizes, sizeof(sched_t)), 0, 0};
    if (!c.local)
        return LOP_ERR_NOMEM;
    lop_status_t st = LOP_OK;
    for (uint32_t i = 0; i < tc->n_sizes && st == LOP_OK; i++)
        st = hybrid_local_build(&choice, tc->size[i], p_all, &c.local[i]);
    if (st == LOP_ERR_INVALID || (st == LOP_OK && cand_repeats(tc, &c))) {
        cand_free(&c, tc->n_sizes); /* no arrival phase (mcast), or nothing new */
        return LOP_OK;
    }
    if (st) {
        cand_free(&c, tc->n_sizes);
        return st;
    }
    tc->cand[tc->n_cand++] = c;
    return LOP_OK;
}

/* The tier's distinct group sizes. */
static lop_status_t tier_sizes(const tier_t *t, tier_cands_t *tc)
{
    tc->size = lop_calloc(t->n_groups, sizeof *tc->size);
    tc->size_of = lop_calloc(t->n_groups, sizeof *tc->size_of);
    if (!tc->size || !tc->size_of)
        return LOP_ERR_NOMEM;
    for (uint32_t g = 0; g < t->n_groups; g++) {
        uint32_t k = t->start[g + 1] - t->start[g], i = 0;
        while (i < tc->n_sizes && tc->size[i] != k)
            i++;
        if (i == tc->n_sizes)
            tc->size[tc->n_sizes++] = k;
        tc->size_of[g] = i;
    }
    return LOP_OK;
}

/* Every schedule algorithm with n = 1..HYBRID_MAX_N: arrival phases, and at the top whole. */
static lop_status_t tier_candidates(const search_t *se, const tier_t *t, int top,
                                    tier_cands_t *tc)
{
    lop_status_t st = tier_sizes(t, tc);
    size_t most = 1;
    for (const barrier_alg_t *const *a = se->algs; *a; a++)
        most += 2 * HYBRID_MAX_N;
    tc->cand = st ? NULL : lop_calloc(most, sizeof *tc->cand);
    st = st ? st : tc->cand ? LOP_OK : LOP_ERR_NOMEM;
    for (int whole = 0; whole <= top && st == LOP_OK; whole++)
        for (const barrier_alg_t *const *a = se->algs; *a && st == LOP_OK; a++)
            for (uint32_t n = 1; !((*a)->flags & BARRIER_COST_ONLY) && st == LOP_OK &&
                                 n <= ((*a)->takes_n ? HYBRID_MAX_N : 1); n++)
                st = cand_add(tc, (hybrid_choice_t){*a, barrier_alg_n(*a, n), whole}, se->p);
    if (st == LOP_OK && tc->n_cand == 0)
        st = lop_err(LOP_ERR_INVALID, "hybrid: no algorithm serves tier %s", t->name);
    return st;
}

static void tier_cands_free(tier_cands_t *tc)
{
    for (uint32_t c = 0; c < tc->n_cand; c++)
        cand_free(&tc->cand[c], tc->n_sizes);
    free(tc->cand);
    free(tc->size);
    free(tc->size_of);
    free(tc->us);
    free(tc->order);
    memset(tc, 0, sizeof *tc);
}

/* ------------------------------------------------------- simulation */

/* Group g of tier t with candidate c: its local time on its members' costs
 * (the arrival phase; at tier 0 the whole barrier, or arrival + departure),
 * or with 'departure' the departure phase alone. */
static lop_status_t group_us(const search_t *se, uint32_t t, uint32_t g, const cand_t *c,
                             int departure, double *us)
{
    const tier_t *tier = &se->tree->tier[t];
    const sched_t *local = &c->local[se->tc[t].size_of[g]];
    pairs_t view;
    sched_t phases;
    lop_status_t st = pairs_subset(se->sim->pairs, tier->member + tier->start[g], local->p, &view);
    if (st)
        return st;
    if (!departure && (t > 0 || c->choice.whole))
        return hybrid_sim_us(se->sim, local, &view, us);
    st = hybrid_local_phases(local, !departure, &phases);
    st = st ? st : hybrid_sim_us(se->sim, &phases, &view, us);
    sched_free(&phases);
    return st;
}

/* An earlier group of tier t whose local times group g shares, else g.  On
 * a synthetic machine (pairs.h: a pair costs its first differing level's
 * o and L) every two members of a tier-t group differ first at level t (they
 * agree above it and lead different children of it), so groups of one size
 * cost alike: the first of that size stands for all (1024x2x512: one
 * simulation per candidate for 2048 core groups).  A matrix: every group. */
static uint32_t same_costs(const search_t *se, uint32_t t, uint32_t g)
{
    const pairs_t *c = se->sim->pairs;
    if (c->o_us || c->rank)
        return g;
    const uint32_t *size_of = se->tc[t].size_of;
    uint32_t first = 0;
    while (size_of[first] != size_of[g])
        first++;
    return first;
}

static const double *cmp_worst; /* qsort context: candidates' worst_us */

static int worst_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    double dx = cmp_worst[x], dy = cmp_worst[y];
    return dx < dy ? -1 : dx > dy ? 1 : (x > y) - (x < y);
}

/* Candidate c's local time in every group of tier t, its slowest and the
 * sum bound's term: the fastest group's, below the top plus the fastest
 * group's departure. */
static lop_status_t cand_costs(search_t *se, uint32_t t, uint32_t c)
{
    tier_cands_t *tc = &se->tc[t];
    cand_t *cand = &tc->cand[c];
    double least_departure = t > 0 ? INFINITY : 0;
    lop_status_t st = LOP_OK;
    cand->worst_us = 0;
    cand->best_us = INFINITY;
    for (uint32_t g = 0; g < se->tree->tier[t].n_groups && st == LOP_OK; g++) {
        double *us = &tc->us[(size_t)g * tc->n_cand + c], dep_us;
        uint32_t same = same_costs(se, t, g);
        if (same < g) {
            *us = tc->us[(size_t)same * tc->n_cand + c];
        } else {
            st = group_us(se, t, g, cand, 0, us);
            if (st == LOP_OK && t > 0) {
                st = group_us(se, t, g, cand, 1, &dep_us);
                least_departure = fmin(least_departure, dep_us);
            }
        }
        cand->worst_us = fmax(cand->worst_us, *us);
        cand->best_us = fmin(cand->best_us, *us);
    }
    cand->best_us += least_departure;
    return st;
}

/* Every group's local time with every candidate, and the candidates' order. */
static lop_status_t tier_costs(search_t *se, uint32_t t)
{
    tier_cands_t *tc = &se->tc[t];
    uint32_t groups = se->tree->tier[t].n_groups;
    double *worst = lop_calloc(tc->n_cand, sizeof *worst);
    tc->us = lop_calloc((size_t)groups * tc->n_cand, sizeof *tc->us);
    tc->order = lop_calloc(tc->n_cand, sizeof *tc->order);
    lop_status_t st = worst && tc->us && tc->order ? LOP_OK : LOP_ERR_NOMEM;
    for (uint32_t c = 0; c < tc->n_cand && st == LOP_OK; c++) {
        st = cand_costs(se, t, c);
        worst[c] = tc->cand[c].worst_us;
        tc->order[c] = c;
    }
    if (st == LOP_OK) {
        cmp_worst = worst;
        qsort(tc->order, tc->n_cand, sizeof *tc->order, worst_cmp);
    }
    free(worst);
    return st;
}

/* ---------------------------------------------------------- evaluation */

/* The whole hybrid for 'pick' (one candidate per tier, or per group when
 * per_group) simulated on all ranks; its schedule into *keep if asked. */
static lop_status_t evaluate(search_t *se, const uint32_t *pick, int per_group, double *us,
                             sched_t *keep)
{
    uint32_t k = 0;
    for (uint32_t t = 0; t < se->tree->n_tiers; t++)
        for (uint32_t g = 0; g < se->tree->tier[t].n_groups; g++, k++) {
            const cand_t *c = &se->tc[t].cand[per_group ? pick[k] : pick[t]];
            se->piece[k] = (hybrid_piece_t){&c->local[se->tc[t].size_of[g]], c->choice.whole};
        }
    sched_t s;
    lop_status_t st = hybrid_compose_pieces(se->tree, se->piece, &s);
    st = st ? st : hybrid_sim_us(se->sim, &s, se->sim->pairs, us);
    se->evaluated++;
    if (st == LOP_OK && keep)
        *keep = s;
    else
        sched_free(&s);
    return st;
}

/* Try the per-tier choice in se->pick; remember it when it is the best. */
static lop_status_t try_pick(search_t *se, double *us)
{
    lop_status_t st = evaluate(se, se->pick, 0, us, NULL);
    if (st == LOP_OK && *us < se->best_us) {
        se->best_us = *us;
        memcpy(se->best_pick, se->pick, se->tree->n_tiers * sizeof *se->pick);
    }
    return st;
}

/* Combinations left below tier t (for the pruning count). */
static uint64_t combos_from(const search_t *se, uint32_t t)
{
    uint64_t n = 1;
    for (; t < se->tree->n_tiers; t++)
        n = n > UINT64_MAX / se->tc[t].n_cand ? UINT64_MAX : n * se->tc[t].n_cand;
    return n;
}

/* The least any candidate of tiers t.. adds to the sum bound. */
static double rest_min(const search_t *se, uint32_t t)
{
    double sum = 0;
    for (; t < se->tree->n_tiers; t++) {
        double least = INFINITY;
        for (uint32_t c = 0; c < se->tc[t].n_cand; c++)
            least = fmin(least, se->tc[t].cand[c].best_us);
        sum += least;
    }
    return sum;
}

/* Every combination of tiers t.. (branch and bound on the local times).
 * Two lower bounds of a hybrid, both from the LogP simulation being
 * max-plus (a phase cannot end earlier when its ranks start later, and
 * started together at s it ends s after its local time): the slowest local
 * time of any group it uses ('bound'), and the sum over the tiers of the
 * fastest group's arrival and departure plus the top's time ('sum': a
 * tier's members start its arrival no earlier than the tier below has
 * gathered, and the top no earlier than all of them; every op of a
 * departure follows its leader's first, which follows the leader's
 * departure one tier up, and the last member to finish there leads a group
 * below).  A candidate past the first bound ends the tier (they come
 * slowest last); past the second it alone is skipped. */
static lop_status_t exhaustive(search_t *se, uint32_t t, double bound, double sum)
{
    if (t == se->tree->n_tiers) {
        double us;
        return try_pick(se, &us);
    }
    const tier_cands_t *tc = &se->tc[t];
    lop_status_t st = LOP_OK;
    double rest = rest_min(se, t + 1);
    for (uint32_t i = 0; i < tc->n_cand && st == LOP_OK; i++) {
        uint32_t c = tc->order[i];
        double b = fmax(bound, tc->cand[c].worst_us), s = sum + tc->cand[c].best_us;
        if (b >= se->best_us) { /* this and every slower candidate cannot win */
            se->pruned += (uint64_t)(tc->n_cand - i) * combos_from(se, t + 1);
            break;
        }
        if (s + rest >= se->best_us) {
            se->pruned += combos_from(se, t + 1);
            continue;
        }
        se->pick[t] = c;
        st = exhaustive(se, t + 1, b, s);
    }
    return st;
}

/* Coordinate descent: change one tier at a time while that improves. */
static lop_status_t descent(search_t *se)
{
    double cur;
    lop_status_t st = try_pick(se, &cur);
    for (int improved = 1; improved && st == LOP_OK;) {
        improved = 0;
        for (uint32_t t = 0; t < se->tree->n_tiers && st == LOP_OK; t++) {
            uint32_t keep = se->pick[t];
            for (uint32_t c = 0; c < se->tc[t].n_cand && st == LOP_OK; c++) {
                double us;
                se->pick[t] = c;
                st = c == keep ? LOP_OK : try_pick(se, &us);
                if (st == LOP_OK && c != keep && us < cur)
                    cur = us, keep = c, improved = 1;
            }
            se->pick[t] = keep;
        }
    }
    return st;
}

/* --------------------------------------------------------- description */

/* "comb(n=4)", "diss(full)", "ndiss(n=2,full)". */
static void choice_label(const hybrid_choice_t *c, char *buf, size_t len)
{
    unsigned n = c->alg->takes_n != 0;
    snprintf(buf, len, "%s%s", c->alg->name, n || c->whole ? "(" : "");
    size_t at = strlen(buf);
    if (n)
        at += (size_t)snprintf(buf + at, len - at, "n=%u%s", c->n, c->whole ? "," : "");
    if (c->whole && at < len)
        at += (size_t)snprintf(buf + at, len - at, "full");
    if ((n || c->whole) && at < len)
        snprintf(buf + at, len - at, ")");
}

static void append(char *buf, size_t len, const char *text)
{
    size_t at = strlen(buf);
    if (at < len)
        snprintf(buf + at, len - at, "%s", text);
}

/* "node:diss(full) socket:tour core:comb(n=4)"; per group: "core:tour|cc". */
static void describe(const search_t *se, const uint32_t *pick, int per_group, char *buf,
                     size_t len)
{
    uint32_t k = 0;
    buf[0] = '\0';
    for (uint32_t t = 0; t < se->tree->n_tiers; t++) {
        const tier_cands_t *tc = &se->tc[t];
        uint32_t groups = se->tree->tier[t].n_groups, first = k;
        append(buf, len, t ? " " : "");
        append(buf, len, se->tree->tier[t].name);
        for (uint32_t g = 0; g < (per_group ? groups : 1); g++, k++) {
            uint32_t c = per_group ? pick[k] : pick[t], seen = 0;
            for (uint32_t e = first; e < k && !seen; e++)
                seen = pick[e] == c;
            if (seen)
                continue;
            char label[64];
            choice_label(&tc->cand[c].choice, label, sizeof label);
            append(buf, len, g ? "|" : ":");
            append(buf, len, label);
        }
        k = first + groups;
    }
}

/* ------------------------------------------------------------- the build */

/* Greedy: per group the candidate with the fastest local time. */
static void greedy_pick(const search_t *se, uint32_t *pick)
{
    uint32_t k = 0;
    for (uint32_t t = 0; t < se->tree->n_tiers; t++) {
        const tier_cands_t *tc = &se->tc[t];
        for (uint32_t g = 0; g < se->tree->tier[t].n_groups; g++, k++) {
            const double *us = tc->us + (size_t)g * tc->n_cand;
            pick[k] = 0;
            for (uint32_t c = 1; c < tc->n_cand; c++)
                pick[k] = us[c] < us[pick[k]] ? c : pick[k];
        }
    }
}

static void search_free(search_t *se)
{
    for (uint32_t t = 0; t <= HYBRID_MAX_LEVELS; t++)
        tier_cands_free(&se->tc[t]);
    free(se->piece);
    free(se->pick);
}

static lop_status_t search_init(search_t *se)
{
    lop_status_t st = LOP_OK;
    for (uint32_t t = 0; t < se->tree->n_tiers; t++)
        se->n_pieces += se->tree->tier[t].n_groups;
    se->piece = lop_calloc(se->n_pieces, sizeof *se->piece);
    se->pick = lop_calloc(se->n_pieces > se->tree->n_tiers ? se->n_pieces : se->tree->n_tiers,
                          sizeof *se->pick);
    st = se->piece && se->pick ? LOP_OK : LOP_ERR_NOMEM;
    for (uint32_t t = 0; t < se->tree->n_tiers && st == LOP_OK; t++) {
        st = tier_candidates(se, &se->tree->tier[t], t == 0, &se->tc[t]);
        st = st ? st : tier_costs(se, t);
    }
    return st;
}

/* The winner's description and schedule into res (the flat winner's is
 * 'flat', kept by hybrid_flat_best). */
static lop_status_t result_take(search_t *se, const uint32_t *greedy, sched_t *flat,
                                hybrid_result_t *res)
{
    if (strcmp(res->how, "greedy") == 0) {
        snprintf(res->config, sizeof res->config, "%s", res->greedy);
        return evaluate(se, greedy, 1, &res->us, &res->sched);
    }
    if (strcmp(res->how, "search") == 0) {
        describe(se, se->best_pick, 0, res->config, sizeof res->config);
        return evaluate(se, se->best_pick, 0, &res->us, &res->sched);
    }
    char label[64];
    choice_label(&(hybrid_choice_t){res->flat.alg, res->flat.n, 0}, label, sizeof label);
    snprintf(res->config, sizeof res->config, "flat:%s", label);
    res->us = res->flat_us; /* simulated by hybrid_flat_best */
    res->sched = *flat;
    *flat = (sched_t){0};
    return LOP_OK;
}

/* Greedy, flat and the search; the winner's schedule into res->sched. */
static lop_status_t search_run(search_t *se, hybrid_result_t *res)
{
    sched_t flat = {0};
    uint32_t *greedy = lop_calloc(se->n_pieces, sizeof *greedy);
    if (!greedy)
        return LOP_ERR_NOMEM;
    greedy_pick(se, greedy);
    describe(se, greedy, 1, res->greedy, sizeof res->greedy);
    lop_status_t st = evaluate(se, greedy, 1, &res->greedy_us, NULL);
    st = st ? st : hybrid_flat_best(se->sim, se->algs, se->p, res, &flat);
    se->best_us = fmin(res->greedy_us, res->flat_us);
    res->how = res->greedy_us <= res->flat_us ? "greedy" : "flat";
    res->exhaustive = se->tree->n_tiers <= HYBRID_EXHAUSTIVE_TIERS;
    if (st == LOP_OK && res->exhaustive) {
        st = exhaustive(se, 0, 0, 0);
    } else if (st == LOP_OK) {
        uint32_t k = 0;
        for (uint32_t t = 0; t < se->tree->n_tiers; k += se->tree->tier[t++].n_groups)
            se->pick[t] = greedy[k]; /* each tier starts at its first group's greedy choice */
        st = descent(se);
    }
    if (st == LOP_OK && se->best_us < fmin(res->greedy_us, res->flat_us))
        res->how = "search";
    res->us = se->best_us;
    st = st ? st : result_take(se, greedy, &flat, res);
    sched_free(&flat);
    free(greedy);
    return st;
}

/* The result proved a barrier: a hybrid by the rule of hybrid_prove, and
 * by the checker on the whole too where that is cheap.  A flat result is an
 * algorithm's own schedule, checked where that is cheap; beyond, it is what
 * every flat --simulate row is, the algorithm's construction (test_check
 * proves each for P <= 200): at 64x2x512 its check was 60% of the time. */
static lop_status_t result_verify(const search_t *se, hybrid_result_t *res)
{
    int cheap = sched_check_work(&res->sched) <= HYBRID_CHECK_WHOLE;
    if (strcmp(res->how, "flat") == 0) {
        res->proof = cheap ? "checker" : "construction";
        return cheap ? sched_check(&res->sched) : LOP_OK;
    }
    res->proof = cheap ? "rule+checker" : "rule";
    lop_status_t st = hybrid_prove(se->tree, se->piece);
    return st || !cheap ? st : sched_check(&res->sched);
}

lop_status_t hybrid_search(const hybrid_tree_t *tree, const sched_sim_t *sim,
                           const barrier_alg_t *const *algs, uint32_t p, hybrid_result_t *res)
{
    search_t se = {.tree = tree, .sim = sim, .algs = algs ? algs : barrier_algs, .p = p};
    lop_status_t st;
    res->n_tiers = tree->n_tiers;
    res->how = "greedy";
    if (tree->n_tiers == 0) { /* one rank */
        st = sched_init(&res->sched, p);
        snprintf(res->sched.alg, sizeof res->sched.alg, "hybrid");
        snprintf(res->config, sizeof res->config, "none (one rank)");
        snprintf(res->greedy, sizeof res->greedy, "none (one rank)");
        res->exhaustive = 1;
        res->proof = "rule";
    } else {
        st = search_init(&se);
        st = st ? st : search_run(&se, res);
        snprintf(res->sched.alg, sizeof res->sched.alg, "hybrid");
    }
    st = st ? st : result_verify(&se, res);
    res->pruned = se.pruned;
    res->evaluated = se.evaluated;
    search_free(&se);
    return st;
}
