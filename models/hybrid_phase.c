/* hybrid_phase.c - the hybrid barrier's phases: a schedule's arrival phase
 * (its causal cone towards rank 0), the departure (its reversal), a group's
 * local schedules, and their composition over the tree (hybrid.h). */
#include "hybrid_tree.h"

#include <stdlib.h>
#include <string.h>

#include "sched_flow.h"

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
lop_status_t hybrid_local_build(const hybrid_choice_t *c, uint32_t k, uint32_t p_all, sched_t *out)
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
            st = hybrid_local_build(&c, k, tree->p, &local[built]);
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

lop_status_t hybrid_local_phases(const sched_t *arrival, int both, sched_t *out)
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
    return hybrid_local_phases(arrival, 0, out);
}
