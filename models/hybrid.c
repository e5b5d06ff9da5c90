/* hybrid.c - topology-aware hybrid barriers, greedy and searched (hybrid.h). */
#include "hybrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "sched_check.h"
#include "sched_flow.h"
#include "timer.h"

/* ------------------------------------------------------------ descriptor */

static uint32_t hybrid_rounds(uint32_t p, uint32_t n)
{
    (void)p;
    (void)n;
    return 0; /* known once built: the schedule's n_steps */
}

static double no_closed_form(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)c;
    (void)p;
    (void)n;
    return NAN;
}

const barrier_alg_t barrier_alg_hybrid = {
    .name = "hybrid",
    .title = "topology-aware hybrid barrier",
    .cite = "Meyer and Elster, Optimized Barriers for Heterogeneous Systems Using MPI, "
            "section VII; per-tier search: models/README.md",
    .flags = BARRIER_HYBRID,
    .rounds = hybrid_rounds,
    .logp_us = no_closed_form,
    .lop_us = no_closed_form,
    .logp_note = "no closed form: simulated on per-pair costs",
    .lop_note = "no closed form: simulated on per-pair costs",
};

/* ------------------------------------------------------------ placements */

void hybrid_place_free(hybrid_place_t *pl)
{
    free(pl->place);
    memset(pl, 0, sizeof *pl);
}

static lop_status_t place_alloc(hybrid_place_t *pl, uint32_t p, uint32_t levels)
{
    memset(pl, 0, sizeof *pl);
    pl->p = p;
    pl->n_levels = levels;
    pl->place = lop_calloc((size_t)p * (levels ? levels : 1), sizeof *pl->place);
    return pl->place ? LOP_OK : LOP_ERR_NOMEM;
}

lop_status_t hybrid_place_machine(const pairs_t *c, uint32_t p, hybrid_place_t *pl)
{
    static const char *const three[] = {"node", "socket", "core"};
    if (c->o_us || !c->n_levels)
        return lop_err(LOP_ERR_INVALID, "hybrid: a cost matrix has no levels (--placement FILE)");
    if (p > c->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the machine has %u places", p, c->p);
    lop_status_t st = place_alloc(pl, p, c->n_levels);
    for (uint32_t k = 0; k < c->n_levels && !st; k++) {
        if (c->n_levels == 3)
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", three[k]);
        else
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "level%u", k);
        for (uint32_t r = 0; r < p; r++)
            pl->place[(size_t)r * c->n_levels + k] = pairs_place(c, r, k);
    }
    return st;
}

/* Cells of one placement column, for interning. */
typedef struct {
    const char *text;
    uint32_t rank;
} cell_t;

static int cell_cmp(const void *a, const void *b)
{
    return strcmp(((const cell_t *)a)->text, ((const cell_t *)b)->text);
}

/* Level k's labels of every rank into place ids: equal text, equal id. */
static lop_status_t intern_level(const char *const *label, hybrid_place_t *pl, uint32_t k)
{
    cell_t *cell = lop_calloc(pl->p, sizeof *cell);
    if (!cell)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < pl->p; r++)
        cell[r] = (cell_t){label[(size_t)r * pl->n_levels + k], r};
    qsort(cell, pl->p, sizeof *cell, cell_cmp);
    uint32_t id = 0;
    for (uint32_t r = 0; r < pl->p; r++) {
        id += r > 0 && strcmp(cell[r].text, cell[r - 1].text) != 0;
        pl->place[(size_t)cell[r].rank * pl->n_levels + k] = id;
    }
    free(cell);
    return LOP_OK;
}

lop_status_t hybrid_place_labels(uint32_t p, uint32_t levels, const char *const *label,
                                 const char *const *name, hybrid_place_t *pl)
{
    if (levels > HYBRID_MAX_LEVELS)
        return lop_err(LOP_ERR_INVALID, "hybrid: more than %d levels", HYBRID_MAX_LEVELS);
    lop_status_t st = place_alloc(pl, p, levels);
    for (uint32_t k = 0; k < levels && st == LOP_OK; k++) {
        snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", name[k]);
        st = intern_level(label, pl, k);
    }
    if (st)
        hybrid_place_free(pl);
    return st;
}

/* The rank column: every rank 0..rows-1 exactly once. */
static lop_status_t placement_ranks(const lop_csv_t *csv, size_t col, uint32_t *rank_of_row)
{
    uint8_t *seen = lop_calloc(csv->n_rows ? csv->n_rows : 1, 1);
    lop_status_t st = seen ? LOP_OK : LOP_ERR_NOMEM;
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        long v;
        st = lop_csv_integer(csv, r, col, 0, (long)csv->n_rows - 1, &v);
        if (st == LOP_OK && seen[v])
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: a second row for rank %ld", csv->path,
                         csv->line[r], v);
        if (st == LOP_OK)
            seen[v] = 1;
        rank_of_row[r] = st ? 0 : (uint32_t)v;
    }
    free(seen);
    return st;
}

lop_status_t hybrid_place_read(const char *path, hybrid_place_t *pl)
{
    static const char *const level[] = {"host", "socket", "numa", "core"};
    lop_csv_t *csv;
    size_t rank_col, col[4];
    memset(pl, 0, sizeof *pl);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    st = lop_csv_column(csv, "rank", &rank_col);
    for (int k = 0; k < 4 && st == LOP_OK; k++)
        st = lop_csv_column(csv, level[k], &col[k]);
    if (st == LOP_OK && (csv->n_rows < 1 || csv->n_rows > SCHED_MAX_P))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu ranks (1..%u)", path, csv->header_line,
                     csv->n_rows, SCHED_MAX_P);
    uint32_t *rank_of_row = st ? NULL : lop_calloc(csv->n_rows, sizeof *rank_of_row);
    const char **label = st ? NULL : lop_calloc(csv->n_rows * 4, sizeof *label);
    st = st ? st : rank_of_row && label ? LOP_OK : LOP_ERR_NOMEM;
    st = st ? st : placement_ranks(csv, rank_col, rank_of_row);
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        for (int k = 0; k < 4; k++)
            label[(size_t)rank_of_row[r] * 4 + k] = csv->cells[r][col[k]];
    st = st ? st : hybrid_place_labels((uint32_t)csv->n_rows, 4, label, level, pl);
    free(label);
    free(rank_of_row);
    lop_csv_free(csv);
    if (st)
        hybrid_place_free(pl);
    return st;
}

/* ----------------------------------------------------------------- tree */

typedef struct {
    uint32_t n_groups;
    uint32_t *start;  /* group g: member[start[g] .. start[g+1]-1]; n_groups + 1 entries */
    uint32_t *member; /* real ranks, ascending in a group (the leader first) */
    char name[16];    /* the level whose places tell the members apart */
} tier_t;

struct hybrid_tree {
    uint32_t p;
    uint32_t n_tiers;
    tier_t tier[HYBRID_MAX_LEVELS + 1];
};

/* qsort context: ranks ordered by their places, then by rank. */
static const hybrid_place_t *sort_place;

static int rank_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const uint32_t *px = sort_place->place + (size_t)x * sort_place->n_levels;
    const uint32_t *py = sort_place->place + (size_t)y * sort_place->n_levels;
    for (uint32_t k = 0; k < sort_place->n_levels; k++)
        if (px[k] != py[k])
            return px[k] < py[k] ? -1 : 1;
    return (x > y) - (x < y);
}

/* Do ranks a and b agree on levels 0..len-1 (len = n_levels + 1: are they one rank)? */
static int same_prefix(const hybrid_place_t *pl, uint32_t a, uint32_t b, uint32_t len)
{
    if (len > pl->n_levels)
        return a == b;
    return memcmp(pl->place + (size_t)a * pl->n_levels, pl->place + (size_t)b * pl->n_levels,
                  len * sizeof *pl->place) == 0;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Tier t over the sorted ranks: groups agree on levels < t, children on levels <= t.
 * *kept is 0 when no group has two members. */
static lop_status_t tier_fill(const hybrid_place_t *pl, const uint32_t *order, uint32_t p,
                              uint32_t t, tier_t *tier, int *kept)
{
    tier->start = lop_calloc((size_t)p + 1, sizeof *tier->start);
    tier->member = lop_calloc(p, sizeof *tier->member);
    if (!tier->start || !tier->member)
        return LOP_ERR_NOMEM;
    uint32_t n = 0, g = 0;
    *kept = 0;
    for (uint32_t i = 0; i < p; i++) {
        if (i > 0 && !same_prefix(pl, order[i], order[i - 1], t)) {
            tier->start[++g] = n; /* a new group */
            tier->member[n++] = order[i];
        } else if (i == 0 || !same_prefix(pl, order[i], order[i - 1], t + 1)) {
            tier->member[n++] = order[i]; /* a new child: its first rank, for now */
        } else if (order[i] < tier->member[n - 1]) {
            tier->member[n - 1] = order[i]; /* the child's leader is its lowest rank */
        }
    }
    tier->n_groups = g + 1;
    tier->start[g + 1] = n;
    for (g = 0; g < tier->n_groups; g++) {
        uint32_t size = tier->start[g + 1] - tier->start[g];
        qsort(tier->member + tier->start[g], size, sizeof *tier->member, u32_cmp);
        *kept |= size > 1;
    }
    snprintf(tier->name, sizeof tier->name, "%s", t < pl->n_levels ? pl->level_name[t] : "rank");
    return LOP_OK;
}

static void tier_free(tier_t *tier)
{
    free(tier->start);
    free(tier->member);
    memset(tier, 0, sizeof *tier);
}

lop_status_t hybrid_tree_new(const hybrid_place_t *pl, uint32_t p, hybrid_tree_t **tree)
{
    if (p < 1 || p > pl->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the placement has %u ranks", p,
                       pl->p);
    hybrid_tree_t *tr = lop_calloc(1, sizeof *tr);
    uint32_t *order = lop_calloc(p, sizeof *order);
    lop_status_t st = tr && order ? LOP_OK : LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < p && !st; r++)
        order[r] = r;
    if (st == LOP_OK) {
        sort_place = pl;
        qsort(order, p, sizeof *order, rank_cmp);
        tr->p = p;
    }
    for (uint32_t t = 0; t <= pl->n_levels && st == LOP_OK; t++) {
        int kept = 0;
        st = tier_fill(pl, order, p, t, &tr->tier[tr->n_tiers], &kept);
        if (kept)
            tr->n_tiers++;
        else
            tier_free(&tr->tier[tr->n_tiers]);
    }
    free(order);
    if (st) {
        hybrid_tree_free(tr);
        return st;
    }
    *tree = tr;
    return LOP_OK;
}

void hybrid_tree_free(hybrid_tree_t *tree)
{
    if (!tree)
        return;
    for (uint32_t t = 0; t <= HYBRID_MAX_LEVELS; t++)
        tier_free(&tree->tier[t]);
    free(tree);
}

uint32_t hybrid_tree_tiers(const hybrid_tree_t *tree)
{
    return tree->n_tiers;
}

uint32_t hybrid_tree_p(const hybrid_tree_t *tree)
{
    return tree->p;
}

uint32_t hybrid_tree_groups(const hybrid_tree_t *tree, uint32_t tier)
{
    return tree->tier[tier].n_groups;
}

const uint32_t *hybrid_tree_members(const hybrid_tree_t *tree, uint32_t tier, uint32_t g,
                                    uint32_t *count)
{
    const tier_t *t = &tree->tier[tier];
    *count = t->start[g + 1] - t->start[g];
    return t->member + t->start[g];
}

/* ------------------------------------------------------ arrival phases */

/* Add rank r's ops up to local index i to the cone, and what they wait for. */
static void cone_include(const sched_t *s, const uint32_t *match, uint32_t *inc, uint32_t *stack,
                         uint32_t r, uint32_t i, uint32_t *known)
{
    uint32_t depth = 0;
    stack[depth++] = r;
    stack[depth++] = i;
    while (depth) {
        i = stack[--depth];
        r = stack[--depth];
        for (; inc[r] <= i; inc[r]++) {
            uint32_t op = s->first[r] + inc[r];
            *known += inc[r] == 0;
            if (s->op[op].kind != SCHED_RECV)
                continue;
            uint32_t from = (uint32_t)s->op[op].peer;
            stack[depth++] = from;
            stack[depth++] = match[op] - s->first[from];
        }
    }
}

/* The cone's ops into *out: a send whose receive is outside is left out. */
static lop_status_t cone_copy(const sched_t *s, const uint32_t *match, const uint32_t *inc,
                              sched_t *out)
{
    lop_status_t st = sched_init(out, s->p);
    for (uint32_t r = 0; r < s->p && !st; r++) {
        for (uint32_t i = 0; i < inc[r] && !out->error; i++) {
            uint32_t op = s->first[r] + i;
            const sched_op_t *o = &s->op[op];
            if (o->kind == SCHED_MCAST) {
                sched_free(out);
                return lop_err(LOP_ERR_INVALID, "schedule %s: its arrival phase holds an mcast",
                               s->alg);
            }
            if (o->kind == SCHED_SEND && match[op] - s->first[o->peer] >= inc[o->peer])
                continue;
            sched_push(out, (sched_kind_t)o->kind, o->peer, o->step);
        }
        sched_end_rank(out, r);
    }
    st = st ? st : out->error;
    if (st)
        sched_free(out);
    else
        snprintf(out->alg, sizeof out->alg, "%s", s->alg);
    return st;
}

lop_status_t hybrid_arrival(const sched_t *s, sched_t *out)
{
    uint32_t *match = lop_calloc(s->n_ops + 1, sizeof *match);
    uint32_t *inc = lop_calloc(s->p, sizeof *inc);
    uint32_t *stack = lop_calloc(2 * ((size_t)s->n_ops + 1), sizeof *stack);
    uint32_t known = s->p == 1; /* one rank knows of itself without ops */
    lop_status_t st = match && inc && stack ? LOP_OK : LOP_ERR_NOMEM;
    st = st ? st : sched_match(s, match);
    for (uint32_t t = 0; st == LOP_OK && known < s->p && t < sched_rank_count(s, 0); t++)
        cone_include(s, match, inc, stack, 0, t, &known);
    if (st == LOP_OK && known < s->p)
        st = lop_err(LOP_ERR_INVALID, "schedule %s: rank 0 never learns of every rank", s->alg);
    st = st ? st : cone_copy(s, match, inc, out);
    free(match);
    free(inc);
    free(stack);
    return st;
}

/* ------------------------------------------------------------ composing */

/* One group's local schedule placed on its members: forward (an arrival
 * phase or a whole barrier) or reversed and transposed (a departure), its
 * steps from 'base'.  With op == NULL only counts ops per rank. */
static void emit_group(const sched_t *local, const uint32_t *member, uint32_t base, int reversed,
                       sched_op_t *op, uint32_t *cursor)
{
    for (uint32_t v = 0; v < local->p; v++) {
        uint32_t r = member[v], count = sched_rank_count(local, v);
        if (!op) {
            cursor[r] += count;
            continue;
        }
        for (uint32_t i = 0; i < count; i++) {
            const sched_op_t *o = sched_rank_ops(local, v) + (reversed ? count - 1 - i : i);
            sched_op_t *w = &op[cursor[r]++];
            uint32_t step = reversed ? local->n_steps - 1 - o->step : o->step;
            int32_t peer = o->kind == SCHED_MCAST ? -1 : (int32_t)member[o->peer];
            uint32_t kind = !reversed || o->kind == SCHED_MCAST ? o->kind
                            : o->kind == SCHED_SEND ? SCHED_RECV : SCHED_SEND;
            *w = (sched_op_t){peer, base + step, kind};
        }
    }
}

/* The phases in order: arrivals bottom-up, the top, departures top-down. */
static uint32_t phase_list(const hybrid_tree_t *tr, int top_whole, uint32_t *tier, int *rev)
{
    uint32_t n = 0;
    for (uint32_t t = tr->n_tiers; t-- > 0;)
        tier[n] = t, rev[n++] = 0;
    for (uint32_t t = top_whole ? 1 : 0; t < tr->n_tiers; t++)
        tier[n] = t, rev[n++] = 1;
    return n;
}

/* Every phase once: counting (op == NULL) or writing; returns the steps used. */
static uint32_t emit_all(const hybrid_tree_t *tr, const hybrid_piece_t *piece, sched_op_t *op,
                         uint32_t *cursor)
{
    uint32_t tier[2 * HYBRID_MAX_LEVELS + 2], base = 0, goff[HYBRID_MAX_LEVELS + 2] = {0};
    int rev[2 * HYBRID_MAX_LEVELS + 2];
    for (uint32_t t = 0; t < tr->n_tiers; t++)
        goff[t + 1] = goff[t] + tr->tier[t].n_groups;
    uint32_t n = phase_list(tr, tr->n_tiers && piece[0].whole, tier, rev);
    for (uint32_t ph = 0; ph < n; ph++) {
        const tier_t *t = &tr->tier[tier[ph]];
        uint32_t len = 0;
        for (uint32_t g = 0; g < t->n_groups; g++) {
            const sched_t *local = piece[goff[tier[ph]] + g].local;
            emit_group(local, t->member + t->start[g], base, rev[ph], op, cursor);
            len = local->n_steps > len ? local->n_steps : len;
        }
        base += len;
    }
    return base;
}

lop_status_t hybrid_compose_pieces(const hybrid_tree_t *tr, const hybrid_piece_t *piece,
                                   sched_t *out)
{
    lop_status_t st = sched_init(out, tr->p);
    if (st)
        return st;
    emit_all(tr, piece, NULL, out->first + 1); /* counts per rank */
    for (uint32_t r = 0; r < tr->p; r++)
        out->first[r + 1] += out->first[r];
    if (out->first[tr->p] > SCHED_MAX_OPS) {
        sched_free(out);
        return lop_err(LOP_ERR_RANGE, "hybrid: more than %u operations", SCHED_MAX_OPS);
    }
    out->n_ops = out->cap = out->first[tr->p];
    out->op = lop_calloc(out->n_ops + 1, sizeof *out->op);
    uint32_t *cursor = lop_calloc(tr->p, sizeof *cursor);
    if (!out->op || !cursor) {
        free(cursor);
        sched_free(out);
        return LOP_ERR_NOMEM;
    }
    memcpy(cursor, out->first, tr->p * sizeof *cursor);
    emit_all(tr, piece, out->op, cursor);
    out->n_steps = 0;
    for (uint32_t i = 0; i < out->n_ops; i++) {
        uint32_t step = out->op[i].step;
        out->n_steps = step + 1 > out->n_steps ? step + 1 : out->n_steps;
    }
    snprintf(out->alg, sizeof out->alg, "hybrid");
    free(cursor);
    return LOP_OK;
}

/* The local schedule of 'c' for k ranks: the whole schedule or its arrival phase. */
static lop_status_t local_build(const hybrid_choice_t *c, uint32_t k, uint32_t p_all, sched_t *out)
{
    sched_t whole;
    if (k == 1)
        return sched_init(out, 1);
    lop_status_t st = sched_build(c->alg, k, c->n, &whole);
    if (st)
        return st;
    if (!c->whole) {
        st = hybrid_arrival(&whole, out);
        sched_free(&whole);
        return st;
    }
    for (uint32_t i = 0; i < whole.n_ops && k < p_all; i++)
        if (whole.op[i].kind == SCHED_MCAST) {
            sched_free(&whole);
            return lop_err(LOP_ERR_INVALID, "schedule %s: an mcast reaches beyond the group",
                           c->alg->name);
        }
    *out = whole;
    return LOP_OK;
}

lop_status_t hybrid_compose(const hybrid_tree_t *tree, const hybrid_choice_t *choice,
                            sched_t *out)
{
    uint32_t n = 0, k;
    for (uint32_t t = 0; t < tree->n_tiers; t++)
        n += tree->tier[t].n_groups;
    sched_t *local = lop_calloc(n + 1, sizeof *local);
    hybrid_piece_t *piece = lop_calloc(n + 1, sizeof *piece);
    lop_status_t st = local && piece ? LOP_OK : LOP_ERR_NOMEM;
    uint32_t built = 0;
    for (uint32_t t = 0; t < tree->n_tiers && !st; t++)
        for (uint32_t g = 0; g < tree->tier[t].n_groups && !st; g++, built++) {
            hybrid_choice_t c = choice[built];
            c.whole = t == 0 && c.whole;
            hybrid_tree_members(tree, t, g, &k);
            st = local_build(&c, k, tree->p, &local[built]);
            piece[built] = (hybrid_piece_t){&local[built], c.whole};
        }
    if (st == LOP_OK && tree->n_tiers == 0)
        st = sched_init(out, tree->p); /* one rank: nothing to do */
    else if (st == LOP_OK)
        st = hybrid_compose_pieces(tree, piece, out);
    for (uint32_t i = 0; i < built; i++)
        sched_free(&local[i]);
    free(local);
    free(piece);
    return st;
}

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
        st = local_build(&choice, tc->size[i], p_all, &c.local[i]);
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

/* Simulated time of 's' on 'pairs' (a group's view or all ranks). */
static lop_status_t sim_us(const search_t *se, const sched_t *s, const pairs_t *pairs, double *us)
{
    sched_sim_t par = *se->sim;
    sched_sim_result_t res;
    par.pairs = pairs;
    lop_status_t st = s->n_ops ? sched_sim_run(s, &par, 0, &res) : LOP_OK;
    *us = st || !s->n_ops ? 0 : res.max_us;
    return st;
}

/* An arrival phase's departure, after the arrival itself when 'both' (a
 * whole local barrier: the top's arrival + departure). */
static lop_status_t local_phases(const sched_t *arrival, int both, sched_t *out)
{
    uint32_t *member = lop_calloc(arrival->p, sizeof *member);
    lop_status_t st = member ? sched_init(out, arrival->p) : LOP_ERR_NOMEM;
    for (uint32_t v = 0; v < arrival->p && !st; v++)
        out->first[v + 1] = out->first[v] + (both ? 2 : 1) * sched_rank_count(arrival, v);
    out->n_ops = out->cap = st ? 0 : out->first[arrival->p];
    out->op = st ? NULL : lop_calloc(out->n_ops + 1, sizeof *out->op);
    st = st ? st : out->op ? LOP_OK : LOP_ERR_NOMEM;
    uint32_t *cursor = st ? NULL : lop_calloc(arrival->p, sizeof *cursor);
    st = st ? st : cursor ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK) {
        for (uint32_t v = 0; v < arrival->p; v++)
            member[v] = v, cursor[v] = out->first[v];
        if (both)
            emit_group(arrival, member, 0, 0, out->op, cursor);
        emit_group(arrival, member, both ? arrival->n_steps : 0, 1, out->op, cursor);
        out->n_steps = (both ? 2 : 1) * arrival->n_steps;
        snprintf(out->alg, sizeof out->alg, "%s", arrival->alg);
    } else if (member) {
        sched_free(out);
    }
    free(cursor);
    free(member);
    return st;
}

lop_status_t hybrid_departure(const sched_t *arrival, sched_t *out)
{
    return local_phases(arrival, 0, out);
}

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
        return sim_us(se, local, &view, us);
    st = local_phases(local, !departure, &phases);
    st = st ? st : sim_us(se, &phases, &view, us);
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
    st = st ? st : sim_us(se, &s, se->sim->pairs, us);
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

/* Has an earlier candidate the same rule and n (ftour n = comb n, tour =
 * comb n = 2: one function builds them), so the same schedule? */
static int flat_repeats(const search_t *se, const barrier_alg_t *const *a, uint32_t n)
{
    for (const barrier_alg_t *const *b = se->algs; b <= a; b++)
        for (uint32_t m = 1; m <= ((*b)->takes_n ? HYBRID_MAX_N : 1) && (b < a || m < n); m++)
            if ((*b)->build_rank == (*a)->build_rank &&
                barrier_alg_n(*b, m) == barrier_alg_n(*a, n))
                return 1;
    return 0;
}

/* The fastest flat algorithm over all ranks. */
static lop_status_t best_flat(const search_t *se, hybrid_result_t *res)
{
    lop_status_t st = LOP_OK;
    res->flat_us = INFINITY;
    for (const barrier_alg_t *const *a = se->algs; *a && st == LOP_OK; a++)
        for (uint32_t n = 1; !((*a)->flags & BARRIER_COST_ONLY) && st == LOP_OK &&
                             n <= ((*a)->takes_n ? HYBRID_MAX_N : 1); n++) {
            sched_t s;
            double us;
            if (flat_repeats(se, a, n))
                continue;
            if (sched_generate_limit(*a, se->p, barrier_alg_n(*a, n), NULL) != LOP_OK) {
                res->flat_skipped++; /* too large to simulate at this P */
                continue;
            }
            st = sched_generate(*a, se->p, barrier_alg_n(*a, n), &s);
            st = st ? st : sim_us(se, &s, se->sim->pairs, &us);
            if (st == LOP_OK && us < res->flat_us) {
                res->flat_us = us;
                res->flat = (hybrid_choice_t){*a, barrier_alg_n(*a, n), 1};
            }
            sched_free(&s);
        }
    return st;
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

/* Greedy, flat and the search; the winner's schedule into res->sched. */
static lop_status_t search_run(search_t *se, hybrid_result_t *res)
{
    uint32_t *greedy = lop_calloc(se->n_pieces, sizeof *greedy);
    if (!greedy)
        return LOP_ERR_NOMEM;
    greedy_pick(se, greedy);
    describe(se, greedy, 1, res->greedy, sizeof res->greedy);
    lop_status_t st = evaluate(se, greedy, 1, &res->greedy_us, NULL);
    st = st ? st : best_flat(se, res);
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
    if (st == LOP_OK && strcmp(res->how, "greedy") == 0) {
        snprintf(res->config, sizeof res->config, "%s", res->greedy);
        st = evaluate(se, greedy, 1, &res->us, &res->sched);
    } else if (st == LOP_OK && strcmp(res->how, "search") == 0) {
        describe(se, se->best_pick, 0, res->config, sizeof res->config);
        st = evaluate(se, se->best_pick, 0, &res->us, &res->sched);
    } else if (st == LOP_OK) {
        char label[64];
        choice_label(&(hybrid_choice_t){res->flat.alg, res->flat.n, 0}, label, sizeof label);
        snprintf(res->config, sizeof res->config, "flat:%s", label);
        st = sched_build(res->flat.alg, se->p, res->flat.n, &res->sched);
        res->us = res->flat_us; /* simulated by best_flat: generated and stored, one time */
    }
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

lop_status_t hybrid_build(const hybrid_place_t *pl, uint32_t p, const sched_sim_t *sim,
                          const barrier_alg_t *const *algs, hybrid_result_t *res)
{
    double t0 = lop_timer_clock_s();
    hybrid_tree_t *tree = NULL;
    memset(res, 0, sizeof *res);
    if (!sim->pairs || sim->model != SCHED_SIM_LOGP)
        return lop_err(LOP_ERR_INVALID, "hybrid: needs per-pair LogP costs");
    if (sim->pairs->p < p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the per-pair costs describe %u "
                       "ranks", p, sim->pairs->p);
    lop_status_t st = hybrid_tree_new(pl, p, &tree);
    if (st)
        return st;
    search_t se = {.tree = tree, .sim = sim, .algs = algs ? algs : barrier_algs, .p = p};
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
    hybrid_tree_free(tree);
    if (st)
        hybrid_result_free(res);
    res->search_s = lop_timer_clock_s() - t0;
    return st;
}

void hybrid_result_free(hybrid_result_t *res)
{
    sched_free(&res->sched);
}

/* ------------------------------------------------------------ from files */

lop_status_t hybrid_place_costs(const hybrid_place_t *pl, uint32_t p, const double *L_us,
                                const double *o_us, pairs_t *c)
{
    memset(c, 0, sizeof *c);
    if (p > pl->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the placement has %u ranks", p,
                       pl->p);
    c->p = p;
    c->o_us = lop_calloc((size_t)p * p, sizeof *c->o_us);
    c->L_us = lop_calloc((size_t)p * p, sizeof *c->L_us);
    if (!c->o_us || !c->L_us) {
        pairs_free(c);
        return LOP_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t j = 0; j < p; j++) {
            uint32_t k = 0;
            while (k < pl->n_levels && pl->place[(size_t)i * pl->n_levels + k] ==
                                           pl->place[(size_t)j * pl->n_levels + k])
                k++;
            c->o_us[(size_t)i * p + j] = o_us[k];
            c->L_us[(size_t)i * p + j] = L_us[k];
        }
    return LOP_OK;
}

lop_status_t hybrid_from_place(const char *pairs_path, const hybrid_place_t *pl, uint32_t p,
                               hybrid_result_t *res)
{
    static const double L[] = HYBRID_DEFAULT_L_US, o[] = HYBRID_DEFAULT_O_US;
    pairs_t c;
    barrier_cost_t cost;
    barrier_cost_init(&cost); /* logp all 0: o_r = g = 0 */
    memset(res, 0, sizeof *res);
    lop_status_t st;
    if (pairs_path)
        st = pairs_read(pairs_path, &c);
    else if (pl->n_levels + 1 > sizeof L / sizeof *L)
        st = lop_err(LOP_ERR_INVALID, "hybrid: more levels than default costs");
    else
        st = hybrid_place_costs(pl, p < pl->p ? p : pl->p, L, o, &c);
    if (st == LOP_OK) {
        sched_sim_t sim = {SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, &c, SCHED_RECV_PROGRAM,
                           0}; /* o_r = 0, not the pair's o: the paper's O has none */
        st = hybrid_build(pl, p, &sim, NULL, res);
        pairs_free(&c);
    }
    return st;
}

lop_status_t hybrid_from_files(const char *pairs_path, const char *place_path, uint32_t p,
                               hybrid_result_t *res)
{
    hybrid_place_t pl;
    memset(res, 0, sizeof *res);
    lop_status_t st = hybrid_place_read(place_path, &pl);
    if (st)
        return st;
    st = hybrid_from_place(pairs_path, &pl, p, res);
    hybrid_place_free(&pl);
    return st;
}
