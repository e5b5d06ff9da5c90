/* sched.c - building and walking schedules (sched.h). */
#include "sched.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"

static const char *const kind_names[] = {"send", "recv", "mcast"};

const char *sched_kind_name(sched_kind_t kind)
{
    return kind_names[kind];
}

/* ------------------------------------------------------------- building */

lop_status_t sched_init(sched_t *s, uint32_t p)
{
    memset(s, 0, sizeof *s);
    if (p < 1 || p > SCHED_MAX_P)
        return lop_err(LOP_ERR_RANGE, "P = %u is outside 1..%u for a schedule", p, SCHED_MAX_P);
    s->p = p;
    s->first = lop_calloc((size_t)p + 1, sizeof *s->first);
    return s->first ? LOP_OK : LOP_ERR_NOMEM;
}

void sched_push_grow(sched_t *s, sched_kind_t kind, int32_t peer, uint32_t step)
{
    if (s->error)
        return;
    if (s->n_ops == SCHED_MAX_OPS) {
        s->error = lop_err(LOP_ERR_RANGE, "schedule for P = %u needs more than %u operations",
                           s->p, SCHED_MAX_OPS);
        return;
    }
    if (s->n_ops == s->cap) {
        uint32_t cap = s->cap ? (s->cap > SCHED_MAX_OPS / 2 ? SCHED_MAX_OPS : 2 * s->cap) : 64;
        sched_op_t *grown = lop_realloc_array(s->op, cap, sizeof *grown);
        if (!grown) {
            s->error = LOP_ERR_NOMEM;
            return;
        }
        s->op = grown;
        s->cap = cap;
    }
    s->op[s->n_ops++] = (sched_op_t){peer, step, kind};
    if (step + 1 > s->n_steps)
        s->n_steps = step + 1;
}

void sched_end_rank(sched_t *s, uint32_t rank)
{
    s->first[rank + 1] = s->n_ops;
}

static lop_status_t buildable(const barrier_alg_t *alg, uint32_t n)
{
    if (!alg->build_rank)
        return lop_err(LOP_ERR_INVALID, "%s is a cost-only algorithm: it has no schedule",
                       alg->name);
    if (alg->takes_n && n < 1)
        return lop_err(LOP_ERR_INVALID, "%s needs n >= 1", alg->name);
    return LOP_OK;
}

void sched_alg_label(const barrier_alg_t *alg, uint32_t n, char *buf, size_t len)
{
    if (alg->takes_n)
        snprintf(buf, len, "%s with n = %u", alg->name, barrier_alg_n(alg, n));
    else
        snprintf(buf, len, "%s", alg->name);
}

uint32_t sched_largest_p(uint64_t (*n_ops)(uint32_t p, uint32_t n), uint32_t n,
                         double (*need)(double n_ops, uint32_t p), uint32_t below, double limit)
{
    uint32_t lo = 0, hi = below; /* lo fits (0: none known), hi does not */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        double ops = (double)n_ops(mid, n);
        if ((need ? need(ops, mid) : ops) <= limit)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* alg's op count at p, n against 'most' ops (stored, or 'generated'): the
 * refusal names the largest P under it. */
static lop_status_t count_limit(const barrier_alg_t *alg, uint32_t p, uint32_t n, uint64_t most,
                                int generated, uint64_t *n_ops)
{
    lop_status_t st = buildable(alg, n);
    if (st)
        return st;
    if (p < 1 || p > SCHED_MAX_P)
        return lop_err(LOP_ERR_RANGE, "P = %u is outside 1..%u for a schedule", p, SCHED_MAX_P);
    uint64_t ops = alg->n_ops(p, barrier_alg_n(alg, n));
    if (n_ops)
        *n_ops = ops;
    if (ops <= most)
        return LOP_OK;
    char label[64];
    sched_alg_label(alg, n, label, sizeof label);
    return lop_err(LOP_ERR_RANGE, "%s at P = %u needs %llu operations, more than %s (%llu): the "
                   "largest P it does is %u%s", label, p, (unsigned long long)ops,
                   generated ? "a simulation runs" : "a schedule holds",
                   (unsigned long long)most,
                   sched_largest_p(alg->n_ops, barrier_alg_n(alg, n), NULL, p, (double)most),
                   !generated && sched_alg_form(alg, p, n)
                       ? " (a simulation generates it from rank 0's ops at this P)" : "");
}

lop_status_t sched_limit(const barrier_alg_t *alg, uint32_t p, uint32_t n, uint64_t *n_ops)
{
    return count_limit(alg, p, n, SCHED_MAX_OPS, 0, n_ops);
}

sched_form_t sched_alg_form(const barrier_alg_t *alg, uint32_t p, uint32_t n)
{
    return alg->symmetry && p >= 1 ? alg->symmetry(p, barrier_alg_n(alg, n)) : SCHED_STORED;
}

lop_status_t sched_generate_limit(const barrier_alg_t *alg, uint32_t p, uint32_t n,
                                  uint64_t *n_ops)
{
    if (sched_alg_form(alg, p, n) == SCHED_STORED || p > SCHED_MAX_P)
        return sched_limit(alg, p, n, n_ops);
    return count_limit(alg, p, n, SCHED_MAX_EVENTS, 1, n_ops);
}

/* Rank r's ops into 'scratch' (its op array reused): sched_push alone. */
static lop_status_t rank_build(const barrier_alg_t *alg, uint32_t p, uint32_t n, uint32_t r,
                               sched_t *scratch)
{
    scratch->n_ops = 0;
    scratch->p = p;
    alg->build_rank(scratch, p, n, r);
    return scratch->error;
}

/* Do ranks 1, P/2 and P - 1 (and with a fold the main group's last, the
 * first folded rank and the last rank's partner) have what the symmetry
 * gives them? */
static lop_status_t generate_verify(const barrier_alg_t *alg, const sched_t *s, uint32_t n)
{
    static const char *const form[] = {"", "shift", "xor", "digit"};
    sched_t scratch = {0};
    uint32_t m = s->form == SCHED_DIGIT ? s->main : s->p;
    uint32_t rank[6] = {1, s->p / 2, s->p - 1, m - 1, m % s->p, (s->p - 1) % m};
    lop_status_t st = LOP_OK;
    for (int i = 0; i < 6 && st == LOP_OK && s->p > 1; i++) {
        uint32_t count = sched_rank_count(s, rank[i]);
        st = rank_build(alg, s->p, n, rank[i], &scratch);
        int same = st == LOP_OK && scratch.n_ops == count;
        for (uint32_t k = 0; same && k < count; k++) {
            sched_op_t o = sched_op_at(s, rank[i], k);
            same = o.peer == scratch.op[k].peer && o.kind == scratch.op[k].kind &&
                   o.step == scratch.op[k].step;
        }
        if (st == LOP_OK && !same)
            st = lop_err(LOP_ERR_INVALID, "%s at P = %u: rank %u's ops are not rank 0's moved "
                         "by its rank (%s)", alg->name, s->p, rank[i], form[s->form]);
    }
    free(scratch.op);
    return st;
}

/* SCHED_DIGIT: rank 0's exchanges, its fold (every rank below P - M has
 * one) taken off both ends, as op[]; R and M from the algorithm. */
static lop_status_t digit_exchanges(const barrier_alg_t *alg, uint32_t n, sched_t *s)
{
    uint32_t r = alg->radix ? alg->radix(n) : 0;
    if (r < 2)
        return lop_err(LOP_ERR_INVALID, "%s: a digit form without a radix", alg->name);
    s->radix = r;
    s->main = (uint32_t)barrier_ipow(r, barrier_floor_log(s->p, r));
    uint32_t fold = s->main < s->p ? sched_fold_partners(s, 0) : 0;
    if (s->per_rank < 2 * fold)
        return lop_err(LOP_ERR_INVALID, "%s at P = %u: rank 0 has no fold", alg->name, s->p);
    s->per_rank -= 2 * fold;
    if (fold) /* (no ops at all at P = 1) */
        memmove(s->op, s->op + fold, s->per_rank * sizeof *s->op);
    return LOP_OK;
}

/* Every rank's ops of a generated schedule. */
static uint64_t generated_ops(const sched_t *s)
{
    if (s->form != SCHED_DIGIT)
        return (uint64_t)s->per_rank * s->p;
    return (uint64_t)s->per_rank * s->main + 4ull * (s->p - s->main);
}

uint32_t sched_digit_peer(const sched_t *s, uint32_t rank, uint32_t d)
{
    uint32_t span = sched_digit_span(s, d);
    return rank / span % s->radix + d / span < s->radix ? rank + d : rank + d - s->radix * span;
}

sched_op_t sched_digit_op(const sched_t *s, uint32_t rank, uint32_t k)
{
    uint32_t last = s->n_steps - 1, fold = rank < s->main ? sched_fold_partners(s, rank) : 0;
    if (rank >= s->main)
        return (sched_op_t){(int32_t)(rank % s->main), k ? last : 0, k ? SCHED_RECV : SCHED_SEND};
    if (k < fold)
        return (sched_op_t){(int32_t)(rank + (k + 1) * s->main), 0, SCHED_RECV};
    if (k - fold >= s->per_rank)
        return (sched_op_t){(int32_t)(rank + (k - fold - s->per_rank + 1) * s->main), last,
                            SCHED_SEND};
    sched_op_t o = s->op[k - fold];
    o.peer = (int32_t)sched_digit_peer(s, rank, (uint32_t)o.peer);
    return o;
}

lop_status_t sched_generate(const barrier_alg_t *alg, uint32_t p, uint32_t n, sched_t *s)
{
    sched_form_t form = sched_alg_form(alg, p, n);
    if (form == SCHED_STORED)
        return sched_build(alg, p, n, s);
    uint64_t ops;
    lop_status_t st = sched_generate_limit(alg, p, n, &ops);
    if (st)
        return st;
    memset(s, 0, sizeof *s);
    n = barrier_alg_n(alg, n);
    s->n = alg->takes_n ? n : 0;
    snprintf(s->alg, sizeof s->alg, "%s", alg->name);
    st = rank_build(alg, p, n, 0, s); /* rank 0's ops: peers are its moves */
    s->form = form;
    s->per_rank = s->n_ops;
    s->n_ops = (uint32_t)ops;
    st = st || form != SCHED_DIGIT ? st : digit_exchanges(alg, n, s);
    for (uint32_t k = 0; st == LOP_OK && k < s->per_rank; k++)
        if (s->op[k].kind == SCHED_MCAST)
            st = lop_err(LOP_ERR_INVALID, "%s: an mcast has no moved peer", alg->name);
    if (st == LOP_OK && generated_ops(s) != ops)
        st = lop_err(LOP_ERR_INVALID, "%s at P = %u: rank 0 has %u ops, n_ops counts %llu",
                     alg->name, p, s->per_rank, (unsigned long long)ops);
    st = st ? st : generate_verify(alg, s, n);
    if (st)
        sched_free(s);
    return st;
}

lop_status_t sched_repeat(const sched_t *s, uint32_t times, sched_t *out)
{
    uint64_t ops = (uint64_t)s->n_ops * times, steps = (uint64_t)s->n_steps * times;
    memset(out, 0, sizeof *out);
    if (times < 1 || ops > SCHED_MAX_OPS || steps > SCHED_MAX_STEPS)
        return lop_err(LOP_ERR_RANGE, "%s %u times back to back: %llu operations in %llu steps, "
                       "more than a schedule holds (%u, %u)", s->alg, times,
                       (unsigned long long)ops, (unsigned long long)steps, SCHED_MAX_OPS,
                       SCHED_MAX_STEPS);
    lop_status_t st = sched_init(out, s->p);
    if (st)
        return st;
    out->op = lop_calloc(ops ? ops : 1, sizeof *out->op);
    out->cap = (uint32_t)ops;
    if (!out->op) {
        sched_free(out);
        return LOP_ERR_NOMEM;
    }
    for (uint32_t r = 0; r < s->p; r++) {
        for (uint32_t t = 0; t < times; t++)
            for (uint32_t k = 0; k < sched_rank_count(s, r); k++) {
                sched_op_t o = sched_op_at(s, r, k);
                o.step += t * s->n_steps; /* a barrier id per round (thesis 2.2) */
                out->op[out->n_ops++] = o;
            }
        out->first[r + 1] = out->n_ops;
    }
    out->n = s->n;
    out->n_steps = (uint32_t)steps;
    snprintf(out->alg, sizeof out->alg, "%s", s->alg);
    return LOP_OK;
}

lop_status_t sched_expand(const sched_t *s, sched_t *out)
{
    return sched_repeat(s, 1, out);
}

lop_status_t sched_unicast(const sched_t *s, sched_t *out)
{
    uint64_t ops = 0;
    for (uint32_t r = 0; r < s->p; r++)
        for (uint32_t k = 0; k < sched_rank_count(s, r); k++)
            ops += sched_op_at(s, r, k).kind == SCHED_MCAST ? s->p - 1 : 1;
    memset(out, 0, sizeof *out);
    if (ops > SCHED_MAX_OPS)
        return lop_err(LOP_ERR_RANGE, "%s with its multicasts as point-to-point messages: %llu "
                       "operations, more than a schedule holds (%u)", s->alg,
                       (unsigned long long)ops, SCHED_MAX_OPS);
    lop_status_t st = sched_init(out, s->p);
    out->op = st ? NULL : lop_calloc(ops ? ops : 1, sizeof *out->op);
    if (!st && !out->op)
        st = LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < s->p && !st; r++) {
        for (uint32_t k = 0; k < sched_rank_count(s, r); k++) {
            sched_op_t o = sched_op_at(s, r, k);
            for (uint32_t q = 0; o.kind == SCHED_MCAST && q < s->p; q++)
                if (q != r)
                    out->op[out->n_ops++] = (sched_op_t){(int32_t)q, o.step, SCHED_SEND};
            if (o.kind != SCHED_MCAST)
                out->op[out->n_ops++] = o;
        }
        out->first[r + 1] = out->n_ops;
    }
    if (st) {
        sched_free(out);
        return st;
    }
    out->cap = (uint32_t)ops;
    out->n = s->n;
    out->n_steps = s->n_steps;
    snprintf(out->alg, sizeof out->alg, "%s", s->alg);
    return LOP_OK;
}

lop_status_t sched_store(sched_t *s)
{
    sched_t every;
    lop_status_t st = s->form == SCHED_STORED ? LOP_OK : sched_expand(s, &every);
    if (st == LOP_OK && s->form != SCHED_STORED) {
        sched_free(s);
        *s = every;
    }
    return st;
}

lop_status_t sched_build(const barrier_alg_t *alg, uint32_t p, uint32_t n, sched_t *s)
{
    uint64_t ops;
    lop_status_t st = sched_limit(alg, p, n, &ops);
    st = st ? st : sched_init(s, p);
    if (st)
        return st;
    n = barrier_alg_n(alg, n);
    s->n = alg->takes_n ? n : 0;
    snprintf(s->alg, sizeof s->alg, "%s", alg->name);
    /* the exact size (no growth: no copies, no slack; sched_push grows if a
     * count were ever short) */
    s->op = lop_calloc(ops ? ops : 1, sizeof *s->op);
    s->cap = (uint32_t)ops;
    if (!s->op)
        s->error = LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < p && !s->error; r++) {
        alg->build_rank(s, p, n, r);
        sched_end_rank(s, r);
    }
    st = s->error;
    if (st)
        sched_free(s);
    return st;
}

void sched_free(sched_t *s)
{
    free(s->first);
    free(s->op);
    free(s->path);
    free(s->line);
    memset(s, 0, sizeof *s);
}

int sched_equal(const sched_t *a, const sched_t *b)
{
    if (a->p != b->p || a->n_ops != b->n_ops ||
        memcmp(a->first, b->first, ((size_t)a->p + 1) * sizeof *a->first) != 0)
        return 0;
    for (uint32_t i = 0; i < a->n_ops; i++)
        if (a->op[i].peer != b->op[i].peer || a->op[i].step != b->op[i].step ||
            a->op[i].kind != b->op[i].kind)
            return 0;
    return 1;
}

uint32_t sched_rank_max(const sched_t *s)
{
    uint32_t most = s->form ? sched_rank_count(s, 0) : 0; /* digit: rank 0 folds most */
    for (uint32_t r = 0; r < s->p && !s->form; r++)
        most = sched_rank_count(s, r) > most ? sched_rank_count(s, r) : most;
    return most;
}

uint32_t sched_op_rank(const sched_t *s, uint32_t op)
{
    uint32_t lo = 0, hi = s->p; /* first[lo] <= op < first[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->first[mid] <= op)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void sched_op_describe(const sched_t *s, uint32_t op, char *buf, size_t len)
{
    uint32_t rank = sched_op_rank(s, op);
    const sched_op_t *o = &s->op[op];
    const char *dir = o->kind == SCHED_RECV ? "from" : "to";
    if (o->kind == SCHED_MCAST)
        snprintf(buf, len, "rank %u op %u (mcast, step %u)", rank, op - s->first[rank],
                 (unsigned)o->step);
    else
        snprintf(buf, len, "rank %u op %u (%s %s %d, step %u)", rank, op - s->first[rank],
                 sched_kind_name(o->kind), dir, o->peer, (unsigned)o->step);
}

const char *sched_op_file_line(const sched_t *s, uint32_t op, char *buf, size_t len)
{
    if (s->line && op < s->n_ops)
        snprintf(buf, len, "%s:%u: ", s->path, s->line[op]);
    else if (len)
        buf[0] = '\0';
    return buf;
}

lop_status_t sched_op_error(const sched_t *s, uint32_t op, const char *fmt, ...)
{
    char where[128], rest[256], file[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rest, sizeof rest, fmt, ap);
    va_end(ap);
    sched_op_describe(s, op, where, sizeof where);
    return lop_err(LOP_ERR_INVALID, "%sschedule %s: %s%s",
                   sched_op_file_line(s, op, file, sizeof file), s->alg, where, rest);
}

static int peer_cmp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

lop_status_t sched_send_peers(const sched_t *s, uint32_t **first, int32_t **peers)
{
    *first = lop_calloc((size_t)s->p + 1, sizeof **first);
    *peers = lop_calloc(s->n_ops ? s->n_ops : 1, sizeof **peers);
    if (!*first || !*peers)
        return LOP_ERR_NOMEM;
    uint32_t n = 0;
    for (uint32_t r = 0; r < s->p; r++) {
        (*first)[r] = n;
        for (const sched_op_t *o = sched_rank_ops(s, r); o < sched_rank_end(s, r); o++)
            if (o->kind == SCHED_SEND || o->kind == SCHED_MCAST)
                (*peers)[n++] = o->kind == SCHED_SEND ? o->peer : -1;
        qsort(*peers + (*first)[r], n - (*first)[r], sizeof **peers, peer_cmp);
    }
    (*first)[s->p] = n;
    return LOP_OK;
}

int sched_sends_to(const uint32_t *first, const int32_t *peers, uint32_t rank, uint32_t to)
{
    const int32_t *mine = peers + first[rank];
    size_t n = first[rank + 1] - first[rank];
    int32_t key = (int32_t)to;
    return n && (mine[0] < 0 || bsearch(&key, mine, n, sizeof key, peer_cmp));
}
