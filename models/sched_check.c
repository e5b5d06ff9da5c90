/* sched_check.c - knowledge closure over a schedule (sched_check.h). */
#include "sched_check.h"

#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "sched_flow.h"

#define SNAPSHOT_BYTES (128u << 20) /* memory for the message copies of one pass */
#define KNOW_BYTES (256u << 20)     /* memory for the ranks' knowledge in one pass */
#define RECV_FLAG 0x80000000u        /* event_t.op of a receive in closure order */

double sched_check_work(const sched_t *s)
{
    return sched_check_work_of(s->n_ops, s->p);
}

double sched_check_work_of(double n_ops, uint32_t p)
{
    return (n_ops + p) * ((p + 63) / 64);
}

lop_status_t sched_check_limit(const barrier_alg_t *alg, uint32_t p, uint32_t n)
{
    uint64_t ops;
    lop_status_t st = sched_limit(alg, p, n, &ops);
    double work = sched_check_work_of((double)ops, p);
    if (st || work <= SCHED_CHECK_MAX_WORK)
        return st;
    char label[64];
    sched_alg_label(alg, n, label, sizeof label);
    return lop_err(LOP_ERR_RANGE, "P = %u is too large to check %s (%.2g word operations, at "
                   "most %.2g): the largest P it checks is %u", p, label, work,
                   SCHED_CHECK_MAX_WORK, sched_largest_p(alg->n_ops, barrier_alg_n(alg, n), sched_check_work_of, p,
                                   SCHED_CHECK_MAX_WORK));
}

/* ------------------------------------------------------ executor promises */

static uint64_t promise_key(const sched_op_t *o)
{
    return (uint64_t)o->step << 34 | (uint64_t)o->kind << 32 | (uint32_t)o->peer;
}

/* The second op of rank r with the same (step, kind, peer) as an earlier one. */
static uint32_t find_repeat(const sched_t *s, uint32_t r, uint64_t key)
{
    uint32_t seen = 0, i = s->first[r];
    for (; i < s->first[r + 1]; i++)
        if (s->op[i].kind != SCHED_MCAST && promise_key(&s->op[i]) == key && seen++)
            break;
    return i;
}

/* Per rank: steps never decrease; one SEND and one RECV per (step, peer). */
static lop_status_t check_promises(const sched_t *s, uint64_t *keys)
{
    for (uint32_t r = 0; r < s->p; r++) {
        uint32_t n = 0;
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++) {
            if (i > s->first[r] && s->op[i].step < s->op[i - 1].step)
                return sched_op_error(s, i, ": its step is smaller than the previous op's");
            if (s->op[i].kind != SCHED_MCAST)
                keys[n++] = promise_key(&s->op[i]);
        }
        sched_keys_sort(keys, n);
        for (uint32_t k = 1; k < n; k++)
            if (keys[k] == keys[k - 1])
                return sched_op_error(s, find_repeat(s, r, keys[k]),
                                      ": a second message between the same ranks in one step");
    }
    return LOP_OK;
}

/* The SEND or MCAST a RECV consumes belongs to the same step. */
static lop_status_t check_steps_match(const sched_t *s, const uint32_t *match)
{
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (s->op[i].kind == SCHED_RECV && s->op[match[i]].step != s->op[i].step)
            return sched_op_error(s, i, ": the message it takes is step %u",
                                  (unsigned)s->op[match[i]].step);
    return LOP_OK;
}

/* ----------------------------------------------------- a causal order */

typedef struct {
    uint32_t op;   /* the message slot (numbered in posting order), | RECV_FLAG for a RECV */
    uint32_t rank; /* the rank executing it */
} event_t;

typedef struct {
    event_t *event;
    uint32_t n;        /* events recorded */
    uint32_t messages; /* slots handed out */
} recorder_t;

/* A message's slot travels with it, so one pass reads events and writes
 * message copies sequentially. */
static double record_post(void *ctx, uint32_t rank, uint32_t k, sched_op_t op)
{
    recorder_t *rec = ctx;
    (void)k;
    (void)op;
    rec->event[rec->n++] = (event_t){rec->messages, rank};
    return rec->messages++;
}

static void record_recvs(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                         const sched_msg_t *msg)
{
    recorder_t *rec = ctx;
    for (uint32_t i = first; i <= last; i++)
        rec->event[rec->n++] = (event_t){(uint32_t)msg[i - first].value | RECV_FLAG, rank};
}

static const sched_flow_ops_t recorder_ops = {record_post, record_recvs};

/* ---------------------------------------------------------- knowledge */

typedef struct {
    const sched_t *s;
    sched_know_t what;    /* what must be known at the end */
    const event_t *event; /* all ops in a causal order, compacted */
    uint32_t words;       /* W: 64 W source ranks per pass */
    uint64_t *know;       /* know[r * W ..]: which sources of this pass rank r knows of */
    uint64_t *snap;       /* snap[slot * W ..]: the sender's knowledge when it posted */
} closure_t;

/* Sources base .. base + 64 W - 1: spread their knowledge along the events. */
static void closure_pass(closure_t *c, uint32_t base)
{
    const sched_t *s = c->s;
    uint32_t w = c->words;
    memset(c->know, 0, (size_t)s->p * w * sizeof *c->know);
    for (uint32_t r = base; r < s->p && r - base < 64 * w; r++)
        c->know[(size_t)r * w + (r - base) / 64] |= 1ull << ((r - base) % 64);
    for (uint32_t e = 0; e < s->n_ops; e++) {
        uint64_t *restrict k = c->know + (size_t)c->event[e].rank * w;
        uint32_t slot = c->event[e].op;
        uint64_t *restrict m = c->snap + (size_t)(slot & ~RECV_FLAG) * w;
        if (slot & RECV_FLAG)
            for (uint32_t i = 0; i < w; i++)
                k[i] |= m[i];
        else
            for (uint32_t i = 0; i < w; i++)
                m[i] = k[i];
    }
}

/* Does every rank (a gather: rank 0) know of every source of the pass (a
 * broadcast: the one source, rank 0)? */
static lop_status_t closure_verify(const closure_t *c, uint32_t base)
{
    const sched_t *s = c->s;
    uint32_t sources = s->p - base < 64 * c->words ? s->p - base : 64 * c->words;
    if (c->what == SCHED_KNOW_BROADCAST)
        sources = 1;
    for (uint32_t r = 0; r < (c->what == SCHED_KNOW_GATHER ? 1 : s->p); r++) {
        const uint64_t *k = c->know + (size_t)r * c->words;
        for (uint32_t i = 0; i * 64 < sources; i++) {
            uint32_t bits = sources - i * 64 < 64 ? sources - i * 64 : 64;
            uint64_t missing = ~k[i] & (bits == 64 ? ~0ull : (1ull << bits) - 1);
            if (missing)
                return lop_err(LOP_ERR_INVALID,
                               "%s%sschedule %s: not a %s: rank %u ends without knowing "
                               "that rank %u arrived", s->path ? s->path : "",
                               s->path ? ": " : "", s->alg,
                               c->what == SCHED_KNOW_ALL      ? "barrier"
                               : c->what == SCHED_KNOW_GATHER ? "gather to rank 0"
                                                              : "broadcast from rank 0",
                               r, base + i * 64 + (uint32_t)__builtin_ctzll(missing));
        }
    }
    return LOP_OK;
}

/* W: all sources at once if the copies and the knowledge fit, else fewer. */
static uint32_t pass_words(const sched_t *s, uint32_t messages)
{
    size_t w = (s->p + 63) / 64;
    size_t fit = SNAPSHOT_BYTES / 8 / (messages ? messages : 1);
    size_t fit_know = KNOW_BYTES / 8 / s->p;
    w = fit < w ? fit : w;
    w = fit_know < w ? fit_know : w;
    return w < 1 ? 1 : (uint32_t)w;
}

static lop_status_t knowledge(const sched_t *s, sched_know_t what, const event_t *event,
                              uint32_t messages)
{
    closure_t c = {s, what, event, what == SCHED_KNOW_BROADCAST ? 1 : pass_words(s, messages),
                   NULL, NULL};
    c.know = lop_calloc((size_t)s->p * c.words, sizeof *c.know);
    c.snap = lop_calloc((size_t)messages * c.words, sizeof *c.snap);
    lop_status_t st = c.know && c.snap ? LOP_OK : LOP_ERR_NOMEM;
    uint32_t sources = what == SCHED_KNOW_BROADCAST ? 1 : s->p; /* rank 0's alone */
    for (uint32_t base = 0; base < sources && st == LOP_OK; base += 64 * c.words) {
        closure_pass(&c, base);
        st = closure_verify(&c, base);
    }
    free(c.know);
    free(c.snap);
    return st;
}

/* ------------------------------------------------------------- the check */

lop_status_t sched_check(const sched_t *s)
{
    return sched_check_what(s, SCHED_KNOW_ALL);
}

lop_status_t sched_check_what(const sched_t *s, sched_know_t what)
{
    if (sched_check_work(s) > SCHED_CHECK_MAX_WORK)
        return lop_err(LOP_ERR_RANGE,
                       "%s%sschedule %s: P = %u is too large to check (%.2g word operations, "
                       "at most %.2g)", s->path ? s->path : "", s->path ? ": " : "",
                       s->alg, s->p, sched_check_work(s), SCHED_CHECK_MAX_WORK);
    if (s->form != SCHED_STORED) { /* a generated schedule: checked as every rank's ops */
        sched_t every;
        lop_status_t st = sched_expand(s, &every);
        st = st ? st : sched_check_what(&every, what);
        sched_free(&every);
        return st;
    }
    uint32_t *match = lop_calloc(s->n_ops, sizeof *match);
    uint64_t *keys = lop_calloc(sched_rank_max(s), sizeof *keys);
    recorder_t rec = {lop_calloc(s->n_ops, sizeof(event_t)), 0, 0};
    uint64_t events;
    lop_status_t st = match && keys && rec.event ? LOP_OK : LOP_ERR_NOMEM;
    st = st ? st : sched_match(s, match);
    st = st ? st : check_promises(s, keys);
    st = st ? st : check_steps_match(s, match);
    st = st ? st : sched_flow_run(s, &recorder_ops, &rec, &events);
    st = st ? st : knowledge(s, what, rec.event, rec.messages);
    free(match);
    free(keys);
    free(rec.event);
    return st;
}
