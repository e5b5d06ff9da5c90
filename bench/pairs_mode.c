/* pairs_mode.c - lopbench --pairs: o and L of every ordered pair (pairs_mode.h). */
#include "pairs_mode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fmt_pairs.h"
#include "fmt_placement.h"
#include "mpisync.h"
#include "pairs_method.h"
#include "place_gather.h"

#define PROG "lopbench"

enum {
    MAX_FILES = LOP_PAIRS_MAX_FILES,
    N_STAT = LOP_PAIRS_STAT_COUNT,
    MAX_CLASSES = 16 /* lop_place_class() values on placement.csv's 4 levels */
};

/* The methods of --method (pairs_method.h), by lop_pairs_method_t. */
static const lop_pairs_method_desc_t *const methods[LOP_PAIRS_METHOD_COUNT] = {
    [LOP_PAIRS_ISSEND] = &lop_pairs_issend,
    [LOP_PAIRS_SERIES] = &lop_pairs_series,
};

/* One output file: a method, for series an (op, post). */
typedef struct {
    lop_pairs_method_t method;
    lop_op_t op;
    lop_post_t post;
    char series[LOP_NAME_SIZE]; /* "issend" or "<op>-<post>" */
    lop_pairs_cost_t *cost;    /* rank 0: [i * P + j] */
    int *src;        /* rank 0: [i * P + j] the measured pair it comes from, -1 none */
} pfile_t;

/* A sender's report of a round: its pair (i = -1: none) and a cost per file. */
typedef struct {
    int i, j;
    lop_pairs_cost_t c[MAX_FILES];
} report_t;

typedef struct {
    lop_pairs_mode_t *m;
    lop_bench_t *b;
    int P;
    pfile_t file[MAX_FILES];
    int n_file;
    lop_place_t pl;                   /* every rank's host, socket, NUMA node, CPU */
    lop_place_rows_t pl_file;         /* rank 0 writes it as placement.csv */
    lop_pairs_ctx_t x;                /* what the methods measure with */
    int n_rounds;
    int rep_i[MAX_CLASSES], rep_j[MAX_CLASSES]; /* --pairs-sample: a pair per class */
    unsigned rep_class[MAX_CLASSES];
    int n_classes;
    char mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING];
} session_t;

/* ------------------------------------------------------------- the plan */

/* The files of a series method: one per (op, post) of --ops x --post that
 * the transport can measure (rank 0's view decides). */
static void plan_series(session_t *s, lop_pairs_method_t method)
{
    const lop_bench_opts_t *o = s->m->opts;
    lop_transport_t *t = s->b->tp;
    for (int op = 0; op < LOP_OP_COUNT; op++)
        for (int post = 0; post < LOP_POST_COUNT; post++) {
            if (!(o->ops >> op & 1) || !(o->posts >> post & 1) || !lop_post_desc[post].in_rtt)
                continue;
            const char *why = t->ops->why_not(t, (lop_op_t)op, (lop_post_t)post);
            int skip = why != NULL;
            MPI_Bcast(&skip, 1, MPI_INT, 0, s->b->comm);
            pfile_t *f = &s->file[s->n_file];
            *f = (pfile_t){.method = method, .op = (lop_op_t)op, .post = (lop_post_t)post};
            snprintf(f->series, sizeof f->series, "%s-%s", lop_op_desc[op].name,
                     lop_post_desc[post].name);
            if (skip)
                lop_bench_note(o, s->b->rank, "skipping %s: %s", f->series,
                               why ? why : "not measurable on rank 0");
            else
                s->n_file++;
        }
}

/* The files of every method of --method, in the table's order. */
static void plan_files(session_t *s)
{
    for (int k = 0; k < LOP_PAIRS_METHOD_COUNT; k++) {
        if (!(s->m->opts->methods >> k & 1))
            continue;
        if (!methods[k]->mpi_only)
            plan_series(s, (lop_pairs_method_t)k);
        else {
            pfile_t *f = &s->file[s->n_file++];
            *f = (pfile_t){.method = (lop_pairs_method_t)k};
            snprintf(f->series, sizeof f->series, "%s", lop_pairs_methods[k]);
        }
    }
}

/* --pairs-sample: the first pair (i < j, row by row) of every class. */
static void plan_classes(session_t *s)
{
    for (int i = 0; i < s->P; i++)
        for (int j = i + 1; j < s->P; j++) {
            unsigned c = lop_place_class(&s->pl, (uint32_t)i, (uint32_t)j);
            int k = 0;
            while (k < s->n_classes && s->rep_class[k] != c)
                k++;
            if (k < s->n_classes)
                continue;
            s->rep_class[k] = c;
            s->rep_i[k] = i;
            s->rep_j[k] = j;
            s->n_classes++;
        }
}

/* The rank 'me' meets in round r, or -1 (a bye, or not in the round's pair).
 * Circle method over n = P rounded up to even players: in round r the
 * players x and (2r - x) mod (n - 1) meet, and r meets player n - 1; with P
 * odd, player n - 1 = P is nobody, so its partner rests. */
static int partner(const session_t *s, int r, int me)
{
    if (s->m->opts->pairs_sample)
        return me == s->rep_i[r] ? s->rep_j[r] : me == s->rep_j[r] ? s->rep_i[r] : -1;
    int n = s->P + (s->P & 1);
    int other = me == n - 1 ? r : me == r ? n - 1 : ((2 * r - me) % (n - 1) + (n - 1)) % (n - 1);
    return other < s->P ? other : -1;
}

static lop_status_t session_alloc(session_t *s)
{
    size_t P = (size_t)s->P, n_req = P > LOP_PAIRS_MAX_MSGS ? P : LOP_PAIRS_MAX_MSGS;
    lop_pairs_ctx_t *x = &s->x;
    *x = (lop_pairs_ctx_t){s->b, s->m->opts, s->P, NULL, NULL, NULL, NULL};
    x->sendbuf = lop_calloc((size_t)1 << (LOP_PAIRS_N_SIZES - 1), 1);
    x->recvbuf = lop_calloc((size_t)1 << (LOP_PAIRS_N_SIZES - 1), 1);
    x->scratch = lop_calloc((size_t)s->m->opts->reps, sizeof *x->scratch);
    x->req = lop_calloc(n_req, sizeof *x->req);
    int ok = x->sendbuf && x->recvbuf && x->scratch && x->req;
    for (int f = 0; f < s->n_file && ok && s->b->rank == 0; f++) {
        s->file[f].cost = lop_calloc(P * P, sizeof *s->file[f].cost);
        s->file[f].src = lop_calloc(P * P, sizeof *s->file[f].src);
        ok = s->file[f].cost && s->file[f].src;
        for (size_t k = 0; k < P * P && ok; k++)
            s->file[f].src[k] = -1;
    }
    return ok ? LOP_OK : LOP_ERR_NOMEM;
}

static void session_free(session_t *s)
{
    free(s->x.sendbuf);
    free(s->x.recvbuf);
    free(s->x.scratch);
    free(s->x.req);
    for (int f = 0; f < s->n_file; f++) {
        free(s->file[f].cost);
        free(s->file[f].src);
    }
    lop_place_rows_free(&s->pl_file);
    lop_place_free(&s->pl);
}

/* ------------------------------------------------------------- rounds */

/* Both directions of the pair {me, other}, the lower rank sending first;
 * this rank's direction (me -> other) lands in *mine. */
static lop_status_t pair_measure(session_t *s, MPI_Comm pair, int other, report_t *mine)
{
    int me = s->b->rank, lo = me < other ? me : other, hi = me < other ? other : me;
    lop_status_t st = LOP_OK;
    for (int dir = 0; dir < 2 && st == LOP_OK; dir++) {
        int sender = dir ? hi : lo, peer = dir ? lo : hi;
        for (int f = 0; f < s->n_file && st == LOP_OK; f++) {
            const pfile_t *pf = &s->file[f];
            lop_pairs_series_t series = {pf->op, pf->post, pf->series};
            st = methods[pf->method]->measure(&s->x, pair, sender, peer, &series, &mine->c[f]);
        }
    }
    mine->i = me;
    mine->j = other;
    return st;
}

/* Rank 0 keeps what the senders of a round measured. */
static void round_store(session_t *s, const report_t *all)
{
    for (int r = 0; r < s->P; r++) {
        if (all[r].i < 0)
            continue;
        size_t at = (size_t)all[r].i * (size_t)s->P + (size_t)all[r].j;
        for (int f = 0; f < s->n_file; f++) {
            s->file[f].cost[at] = all[r].c[f];
            s->file[f].src[at] = (int)at;
        }
    }
}

/* The end of a round: every rank agrees on the next sequence value (the
 * largest any pair reached) and rank 0 collects the reports.  A rank that
 * sat the round out waits for the slowest pair with no deadline of its own
 * (the measuring ranks have theirs), napping.  A rank that measured for
 * 'measured_s' waits at most --timeout plus ten times that: the pairs
 * measure alike, and a peer stopped after its last sample would otherwise
 * hold every rank here for ever. */
static lop_status_t round_end(session_t *s, report_t *mine, report_t *all, double measured_s,
                              const char *name)
{
    lop_bench_t *b = s->b;
    uint64_t seq = b->seq, most = 0;
    MPI_Request req[2];
    char what[96];
    double limit_s = b->tp->poll.timeout_s; /* 0: --timeout 0, no deadline anywhere */
    double timeout_s = measured_s < 0 || limit_s <= 0 ? 0 : ceil(limit_s + 10 * measured_s);
    snprintf(what, sizeof what, "the other ranks at the end of %s", name);
    MPI_Iallreduce(&seq, &most, 1, MPI_UINT64_T, MPI_MAX, b->comm, &req[0]);
    MPI_Igather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, 0, b->comm,
                &req[1]);
    lop_status_t st = lop_bench_nap_wait(&req[0], timeout_s, what);
    st = st ? st : lop_bench_nap_wait(&req[1], timeout_s, what);
    b->seq = most;
    if (st == LOP_OK && b->rank == 0)
        round_store(s, all);
    return st;
}

static void round_run(session_t *s, int r, report_t *all)
{
    lop_bench_t *b = s->b;
    int other = partner(s, r, b->rank);
    report_t mine = {.i = -1, .j = -1};
    MPI_Comm pair;
    char name[64];
    snprintf(name, sizeof name, "pairs round %d of %d", r + 1, s->n_rounds);
    lop_progress_task(b->progress, name);
    lop_watchdog_phase(name);
    MPI_Comm_split(b->comm, other >= 0 ? (b->rank < other ? b->rank : other) : MPI_UNDEFINED,
                   b->rank, &pair);
    double start_s = lop_timer_clock_s(), measured_s = -1; /* -1: sat the round out */
    if (other >= 0) {
        if (pair_measure(s, pair, other, &mine) != LOP_OK)
            lop_mpi_fail_abort(PROG);
        MPI_Comm_free(&pair);
        measured_s = lop_timer_clock_s() - start_s;
    }
    if (round_end(s, &mine, all, measured_s, name) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    lop_progress_step(b->progress, 1);
}

/* Does any file's method measure the diagonal? */
static int has_diagonal(const session_t *s)
{
    for (int f = 0; f < s->n_file; f++)
        if (methods[s->file[f].method]->diagonal)
            return 1;
    return 0;
}

/* The diagonal O_ii of the files whose method has one, every rank at once. */
static void diagonal_run(session_t *s, report_t *all)
{
    report_t mine = {.i = s->b->rank, .j = s->b->rank};
    if (!has_diagonal(s))
        return;
    const char *name = "pairs: O_ii of every rank";
    lop_progress_task(s->b->progress, name);
    lop_watchdog_phase(name);
    double start_s = lop_timer_clock_s();
    for (int f = 0; f < s->n_file; f++) {
        const lop_pairs_method_desc_t *x = methods[s->file[f].method];
        mine.c[f] = (lop_pairs_cost_t){{NAN, NAN, NAN}, {NAN, NAN, NAN}, {NAN, NAN, NAN}};
        if (x->diagonal && x->diagonal(&s->x, &mine.c[f]) != LOP_OK)
            lop_mpi_fail_abort(PROG);
    }
    if (round_end(s, &mine, all, lop_timer_clock_s() - start_s, name) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    lop_progress_step(s->b->progress, 1);
    for (int f = 0; f < s->n_file && s->b->rank == 0; f++)
        for (int i = 0; i < s->P && !methods[s->file[f].method]->diagonal; i++)
            s->file[f].src[(size_t)i * (size_t)s->P + (size_t)i] = -1;
}

/* --pairs-sample: every pair of a class takes its measured pair's costs (the
 * pair's forward direction for i < j, its backward one for i > j). */
static void fill_classes(session_t *s)
{
    size_t P = (size_t)s->P;
    for (int i = 0; i < s->P; i++)
        for (int j = 0; j < s->P; j++) {
            if (i == j)
                continue;
            unsigned c = lop_place_class(&s->pl, (uint32_t)i, (uint32_t)j);
            int k = 0;
            while (s->rep_class[k] != c)
                k++;
            size_t from = i < j ? (size_t)s->rep_i[k] * P + (size_t)s->rep_j[k]
                                : (size_t)s->rep_j[k] * P + (size_t)s->rep_i[k];
            for (int f = 0; f < s->n_file; f++) {
                s->file[f].cost[(size_t)i * P + (size_t)j] = s->file[f].cost[from];
                s->file[f].src[(size_t)i * P + (size_t)j] = (int)from;
            }
        }
}

/* -------------------------------------------------------------- files */

_Static_assert(N_STAT == LOP_FMT_PAIRS_STATS, "a pairs.csv row holds every statistic");

/* The row of the pair i -> j in file f. */
static lop_fmt_pairs_row_t pair_row(const session_t *s, const pfile_t *f, int i, int j)
{
    size_t at = (size_t)i * (size_t)s->P + (size_t)j;
    const lop_pairs_cost_t *c = &f->cost[at];
    lop_fmt_pairs_row_t r = {.i = (uint32_t)i, .j = (uint32_t)j, .n = s->m->opts->reps,
                             .src_i = (uint32_t)(f->src[at] / s->P),
                             .src_j = (uint32_t)(f->src[at] % s->P)};
    memcpy(r.o, c->o, sizeof r.o);
    memcpy(r.L, c->L, sizeof r.L);
    memcpy(r.rtt, c->rtt, sizeof r.rtt);
    return r;
}

static int file_clamped(const session_t *s, const pfile_t *f)
{
    int n = 0;
    for (int i = 0; i < s->P; i++)
        for (int j = 0; j < s->P; j++)
            if (f->src[(size_t)i * (size_t)s->P + (size_t)j] >= 0) {
                lop_fmt_pairs_row_t r = pair_row(s, f, i, j);
                n += lop_fmt_pairs_clamps(&r, s->m->opts->pairs_stat);
            }
    return n;
}

/* The file's metadata; 'sampled' holds its text, 'run' the run's lines. */
static lop_fmt_pairs_meta_t file_meta(const session_t *s, const pfile_t *f, char *sampled,
                                      size_t len, lop_run_meta_t *run)
{
    const lop_bench_opts_t *o = s->m->opts;
    const lop_pairs_method_desc_t *x = methods[f->method];
    *run = *s->m->meta;
    if (x->mpi_only) {
        run->transport = "mpi";
        run->transport_choice = x->mpi_only;
        run->device = s->mpi_lib;
    }
    if (o->pairs_sample) {
        size_t n = (size_t)snprintf(sampled, len, "yes: one pair per placement class "
                                    "(src/place.h), both directions, fills its class (src_i, "
                                    "src_j); measured pairs: ");
        for (int k = 0; k < s->n_classes && n < len; k++)
            n += (size_t)snprintf(sampled + n, len - n, "%s%d-%d (class %u)", k ? ", " : "",
                                  s->rep_i[k], s->rep_j[k], s->rep_class[k]);
    } else {
        snprintf(sampled, len, "no: every ordered pair measured, %d rounds of disjoint pairs "
                 "(circle method)", s->n_rounds);
    }
    return (lop_fmt_pairs_meta_t){
        lop_pairs_methods[f->method], f->series, x->definition,
        x->mpi_only ? NULL : lop_op_desc[f->op].name,
        x->mpi_only ? NULL : lop_post_desc[f->post].name,
        o->pairs_stat, lop_pairs_stats[o->pairs_stat], file_clamped(s, f), s->P, sampled,
        s->pl_file.note, run};
}

/* pairs.csv for the MPI method (the paper's matrices), pairs-<op>-<post>.csv
 * for a series: 'name' of LOP_FMT_PAIRS_NAME_LEN. */
static void file_name(const pfile_t *f, char *name)
{
    lop_fmt_pairs_file_name(name, methods[f->method]->mpi_only ? NULL : f->series);
}

static lop_status_t file_write(const session_t *s, const pfile_t *f, const char *dir)
{
    char path[4200], name[LOP_FMT_PAIRS_NAME_LEN], sampled[1400];
    file_name(f, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lop_run_meta_t run;
    lop_fmt_pairs_meta_t meta = file_meta(s, f, sampled, sizeof sampled, &run);
    lop_fmt_pairs_writer_t pw;
    lop_status_t st = lop_fmt_pairs_write_begin(&pw, path, &meta);
    if (st != LOP_OK)
        return st;
    for (int i = 0; i < s->P && st == LOP_OK; i++)
        for (int j = 0; j < s->P && st == LOP_OK; j++)
            if (f->src[(size_t)i * (size_t)s->P + (size_t)j] >= 0) {
                lop_fmt_pairs_row_t r = pair_row(s, f, i, j);
                st = lop_fmt_pairs_write_row(&pw, &r);
            }
    return lop_fmt_pairs_write_end(&pw, st);
}

/* The output directory made and every file files_write writes checked,
 * before the rounds (collective). */
static lop_status_t outdir_agree(const session_t *s)
{
    char name[MAX_FILES][LOP_FMT_PAIRS_NAME_LEN];
    const char *names[MAX_FILES + 2];
    int n = 0;
    for (int f = 0; f < s->n_file; f++) {
        file_name(&s->file[f], name[f]);
        names[n++] = name[f];
    }
    names[n++] = LOP_FMT_PLACEMENT_NAME;
    names[n] = NULL;
    return lop_outdir_agree(s->b->comm, s->m->outdir, names);
}

/* Rank 0: every file, all or none (csv.h). */
static lop_status_t files_write(const session_t *s)
{
    lop_outdir_t out = {0};
    lop_status_t st = lop_outdir_begin(&out, s->m->outdir);
    for (int f = 0; f < s->n_file && st == LOP_OK; f++)
        st = file_write(s, &s->file[f], out.stage);
    st = st ? st : lop_place_rows_write(&s->pl_file, s->m->meta, out.stage);
    return lop_outdir_end(&out, st);
}

/* ------------------------------------------------------------- report */

/* Rank 0: each file's o and L at the chosen statistic, for the report. */
static lop_status_t report_fill(const session_t *s, lop_pairs_report_t *out)
{
    size_t P = (size_t)s->P;
    int stat = s->m->opts->pairs_stat;
    out->P = s->P;
    for (int f = 0; f < s->n_file; f++) {
        const pfile_t *pf = &s->file[f];
        lop_pairs_costs_t *c = &out->file[out->n_file++];
        file_name(pf, c->name);
        snprintf(c->series, sizeof c->series, "%s", pf->series);
        c->o_us = lop_calloc(P * P, sizeof *c->o_us);
        c->L_us = lop_calloc(P * P, sizeof *c->L_us);
        if (!c->o_us || !c->L_us)
            return LOP_ERR_NOMEM;
        for (size_t k = 0; k < P * P; k++) {
            c->o_us[k] = pf->src[k] < 0 ? NAN : pf->cost[k].o[stat];
            c->L_us[k] = pf->src[k] < 0 ? NAN : pf->cost[k].L[stat];
        }
    }
    return LOP_OK;
}

void lop_pairs_report_free(lop_pairs_report_t *r)
{
    for (int f = 0; f < r->n_file; f++) {
        free(r->file[f].o_us);
        free(r->file[f].L_us);
    }
    *r = (lop_pairs_report_t){0};
}

/* -------------------------------------------------------------- the run */

lop_status_t lop_pairs_mode_run(lop_pairs_mode_t *m, lop_pairs_report_t *out)
{
    session_t s = {.m = m, .b = m->bench, .P = m->bench->size};
    *out = (lop_pairs_report_t){0};
    lop_bench_t *b = s.b;
    lop_watchdog_phase("pairs: placement and plan");
    int len;
    MPI_Get_library_version(s.mpi_lib, &len);
    s.mpi_lib[strcspn(s.mpi_lib, ",\n")] = '\0';
    lop_status_t st = lop_place_gather(b->comm, &s.pl, &s.pl_file);
    if (st != LOP_OK)
        return st;
    plan_files(&s);
    if (m->opts->pairs_sample)
        plan_classes(&s);
    s.n_rounds = m->opts->pairs_sample ? s.n_classes : s.P + (s.P & 1) - 1;
    st = lop_mpi_agree(b->comm, session_alloc(&s));
    report_t *all = b->rank == 0 ? lop_calloc((size_t)s.P, sizeof *all) : NULL;
    st = st ? st : lop_mpi_agree(b->comm, b->rank == 0 && !all ? LOP_ERR_NOMEM : LOP_OK);
    if (st == LOP_OK && s.n_file == 0)
        st = lop_err(LOP_ERR_INVALID, "option --method: nothing to measure (no series of "
                     "--ops/--post works on the %s transport)", b->tp->ops->name);
    st = st ? st : outdir_agree(&s);
    if (st == LOP_OK) {
        int tasks = s.n_rounds + has_diagonal(&s);
        lop_progress_init(b->progress, PROG, tasks, tasks);
        diagonal_run(&s, all);
        for (int r = 0; r < s.n_rounds; r++)
            round_run(&s, r, all);
        lop_progress_done(b->progress);
        if (b->rank == 0 && m->opts->pairs_sample)
            fill_classes(&s);
        lop_status_t done = b->rank == 0 ? files_write(&s) : LOP_OK;
        st = lop_mpi_agree(b->comm, done ? done : b->rank == 0 ? report_fill(&s, out) : LOP_OK);
    }
    free(all);
    session_free(&s);
    return st;
}
