/* barrier_mode.c - lopbench --barrier: sizes x executors x algorithms (barrier_mode.h). */
#include "barrier_mode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "barrier_exec.h"
#include "csv.h"
#include "barrier_files.h"
#include "barrier_hybrid.h"
#include "congest.h"
#include "fmt_barrier.h"
#include "ibmcast.h"
#include "mpisync.h"
#include "sched_check.h"
#include "goal.h"

#define PROG "lopbench"

/* One schedule to run: an algorithm with its n, or a file. */
typedef struct {
    const barrier_alg_t *alg; /* NULL: the --schedule file */
    uint32_t n;               /* 0 when the algorithm takes none */
} combo_t;

typedef struct {
    const lop_barrier_mode_t *m;
    combo_t *combo;
    size_t n_combo;
    uint32_t p[LOP_BENCH_MAX_LIST]; /* sizes to run on */
    size_t n_p;
    unsigned execs;                 /* bit i: lop_barrier_execs[i] runs */
    sched_t file_sched;             /* --schedule FILE, read and checked on every rank */
    lop_place_t place;              /* --alg hybrid: the ranks' levels */
    char file_alg[LOP_FMT_BARRIER_ALG_SIZE]; /* its rows' alg: "file:<name>" (lopredict --measured) */
    lop_barrier_row_t *row;                     /* rank 0's results */
    size_t n_row;
    lop_congest_t *g;               /* --congest; NULL: none */
    const char *condition;          /* of the rows being measured */
    char devices[2048];             /* what each transport executor ran on */
    char mcast[2048];               /* how each executor's MCASTs travelled, per P */
    const lop_witness_ops_t *witness; /* --check's */
} session_t;

/* ----------------------------------------------------------- selection */

/* The test hook that runs a --schedule file the checker refused, so that
 * tests can show --check catching a schedule that is no barrier (bench/README.md). */
#define UNCHECKED_HOOK "LOP_TEST_SCHEDULE_UNCHECKED"

static int unchecked_hook(void)
{
    const char *v = getenv(UNCHECKED_HOOK);
    return v && strcmp(v, "1") == 0;
}

lop_status_t lop_barrier_hooks_check(void)
{
    const char *v = getenv(UNCHECKED_HOOK);
    if (v && *v && strcmp(v, "1") != 0)
        return lop_err(LOP_ERR_INVALID, UNCHECKED_HOOK ": '%s' is not 1", v);
    return LOP_OK;
}

/* --schedule FILE (a schedule CSV or GOAL, as lopredict --check-schedule
 * reads): read it and prove it a barrier for P >= 2 ranks before any
 * rank runs it (a schedule that deadlocks would hang every rank, one that is
 * no barrier would time something else), on every rank alike.  Its rows in
 * barrier.csv are "file:<name>", name the file's base name (csv.h's name
 * rule), so lopredict --measured can find the file beside barrier.csv. */
static lop_status_t read_schedule(session_t *s, const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (!lop_name_ok(base))
        return lop_err(LOP_ERR_INVALID, "option --schedule: file name '%s' %s", base,
                       lop_name_rule);
    snprintf(s->file_alg, sizeof s->file_alg, LOP_FMT_BARRIER_FILE_PREFIX "%s", base);
    goal_notes_t notes;
    lop_status_t st = sched_file_read(path, &s->file_sched, &notes);
    if (st == LOP_OK && notes.loose) {
        char why[1024];
        goal_notes_say(&notes, path, why, sizeof why);
        lop_bench_note(s->m->opts, s->m->rank, "warning: %s", why);
    }
    if (st == LOP_OK && s->file_sched.p < 2)
        st = lop_err(LOP_ERR_INVALID, "%s: the schedule is for %u rank, a barrier needs 2 or "
                     "more", path, s->file_sched.p);
    if (st != LOP_OK)
        return st;
    st = sched_check(&s->file_sched);
    if (st == LOP_ERR_INVALID && unchecked_hook()) { /* for --check's own tests */
        lop_bench_note(s->m->opts, s->m->rank, "warning: " UNCHECKED_HOOK ": running it "
                       "anyway: %s", lop_errmsg());
        return LOP_OK;
    }
    return st ? lop_err(st, "option --schedule: not run: %s", lop_errmsg()) : LOP_OK;
}

static lop_status_t select_combos(session_t *s)
{
    const lop_bench_opts_t *o = s->m->opts;
    size_t most = o->schedule_file ? 1 : o->n_alg * (o->n_n ? o->n_n : 1);
    s->combo = lop_calloc(most, sizeof *s->combo);
    if (!s->combo)
        return LOP_ERR_NOMEM;
    if (o->schedule_file) {
        s->n_combo = 1;
        return read_schedule(s, o->schedule_file);
    }
    for (size_t a = 0; a < o->n_alg; a++) {
        const barrier_alg_t *alg = o->alg[a];
        size_t n_values = alg->takes_n && o->n_n ? o->n_n : 1;
        for (size_t i = 0; i < n_values; i++)
            s->combo[s->n_combo++] = (combo_t){
                alg, alg->takes_n ? barrier_alg_n(alg, o->n_n ? (uint32_t)o->n_value[i] : 0) : 0};
    }
    return LOP_OK;
}

static lop_status_t select_sizes(session_t *s)
{
    const lop_bench_opts_t *o = s->m->opts;
    if (o->schedule_file) {
        s->p[s->n_p++] = s->file_sched.p;
        for (size_t i = 0; i < o->n_p; i++) /* the file says its P: another is never run */
            if (o->p_value[i] != (long)s->file_sched.p)
                return lop_err(LOP_ERR_INVALID, "option --p: %ld, but %s is a schedule for P = "
                               "%u", o->p_value[i], o->schedule_file, s->file_sched.p);
        if (s->file_sched.p > (uint32_t)s->m->size)
            return lop_err(LOP_ERR_INVALID, "%s: the schedule is for %u ranks, only %d given",
                           o->schedule_file, s->file_sched.p, s->m->size);
        return LOP_OK;
    }
    for (size_t i = 0; i < o->n_p; i++) {
        if (o->p_value[i] > s->m->size)
            return lop_err(LOP_ERR_INVALID, "option --p: %ld needs more ranks than the %d given",
                           o->p_value[i], s->m->size);
        s->p[s->n_p++] = (uint32_t)o->p_value[i];
    }
    if (s->n_p == 0)
        s->p[s->n_p++] = (uint32_t)s->m->size;
    for (size_t c = 0; c < s->n_combo; c++) /* levels and costs, before any rank runs */
        if (s->combo[c].alg && (s->combo[c].alg->flags & BARRIER_HYBRID)) {
            sched_t h = {0};
            uint32_t most = 0;
            for (size_t i = 0; i < s->n_p; i++)
                most = s->p[i] > most ? s->p[i] : most;
            lop_status_t st = lop_barrier_hybrid_place(o, s->m->comm, &s->place);
            st = st ? st : lop_barrier_hybrid_sched(o, &s->place, most, &h);
            sched_free(&h);
            return st;
        }
    return LOP_OK;
}

static lop_transport_t transport_template(const session_t *s, MPI_Comm comm, size_t max_recv)
{
    lop_transport_t t = {.comm = comm, .max_post = max_recv, .all_pairs = 1,
                         .poll = {0, s->m->oversubscribed ? LOP_POLL_YIELD_EVERY : 0,
                                  s->m->opts->timeout_s, NULL}};
    MPI_Comm_rank(comm, &t.rank);
    MPI_Comm_size(comm, &t.size);
    return t;
}

/* How the executor posts over the open transport: its own post type, or a
 * normal post where the device does not grant that one (verbs without
 * inline data still writes, only without IBV_SEND_INLINE). */
static lop_post_t exec_post(const lop_transport_t *t, const lop_barrier_exec_t *x)
{
    lop_op_t op;
    lop_post_t own;
    lop_barrier_exec_how(x, &op, &own);
    return t->ops->why_not(t, op, own) ? LOP_POST_NORMAL : own;
}

/* --check's witness, chosen once on every rank (witness.h), and said. */
static lop_status_t choose_witness(session_t *s)
{
    const lop_bench_opts_t *o = s->m->opts;
    if (!o->check)
        return LOP_OK;
    lop_status_t st = lop_witness_choose(s->m->comm, (lop_witness_kind_t)o->check_witness,
                                         &s->witness);
    if (st == LOP_OK)
        lop_bench_note(o, s->m->rank, "--check's witness: %s (%s)", s->witness->name,
                       s->witness->how);
    return st;
}

/* Can each transport executor run here?  Decided once, on every rank: one
 * that cannot is skipped with a note, or is an error when it was named. */
static lop_status_t select_executors(session_t *s)
{
    const lop_bench_opts_t *o = s->m->opts;
    s->execs = 0;
    for (int i = 0; lop_barrier_execs[i].name; i++) {
        const lop_barrier_exec_t *x = &lop_barrier_execs[i];
        if (!(o->executors >> i & 1))
            continue;
        if (x->transport) {
            lop_transport_t t = transport_template(s, s->m->comm, 1);
            char why[512];
            lop_status_t st = lop_transport_open(&t, x->transport, &o->tcfg, why, sizeof why);
            lop_op_t op;
            lop_post_t own;
            lop_barrier_exec_how(x, &op, &own);
            const char *cannot = st ? NULL : t.ops->why_not(&t, op, LOP_POST_NORMAL);
            if (cannot) { /* e.g. rdmaw where MPI made no window */
                st = lop_err(LOP_ERR_UNSUPPORTED, "%s", cannot);
                lop_transport_close(&t);
            }
            if (st == LOP_ERR_UNSUPPORTED && !o->executors_named) {
                lop_bench_note(o, s->m->rank, "skipping executor %s: %s", x->name,
                               lop_errmsg());
                continue;
            }
            if (st != LOP_OK)
                return lop_err(st, "executor %s: %s", x->name, lop_errmsg());
            const char *fallback = exec_post(&t, x) != own ? " (posts normal: the device "
                                   "grants no inline data)" : "";
            if (*fallback)
                lop_bench_note(o, s->m->rank, "executor %s%s", x->name, fallback);
            size_t len = strlen(s->devices);
            snprintf(s->devices + len, sizeof s->devices - len, "%s%s: %s%s", len ? "; " : "",
                     x->name, t.device, fallback);
            lop_transport_close(&t);
        }
        s->execs |= 1u << i;
    }
    return s->execs ? LOP_OK : lop_err(LOP_ERR_UNSUPPORTED, "no executor can run here");
}

/* ------------------------------------------------------------ measuring */

static lop_status_t build_schedules(const session_t *s, uint32_t p, sched_t *sched,
                                    size_t *max_recv)
{
    *max_recv = 1;
    for (size_t c = 0; c < s->n_combo; c++) {
        lop_status_t st = LOP_OK;
        if (s->combo[c].alg && (s->combo[c].alg->flags & BARRIER_HYBRID))
            st = lop_barrier_hybrid_sched(s->m->opts, &s->place, p, &sched[c]);
        else if (s->combo[c].alg)
            st = sched_build(s->combo[c].alg, p, s->combo[c].n, &sched[c]);
        else
            sched[c] = s->file_sched; /* checked once; borrowed, not freed here */
        if (st != LOP_OK)
            return st;
        size_t most;
        st = lop_barrier_max_recv_per_peer(&sched[c], &most);
        if (st != LOP_OK)
            return st;
        if (most > *max_recv)
            *max_recv = most;
    }
    return LOP_OK;
}

static void record(session_t *s, const lop_barrier_run_t *run, const combo_t *c, uint32_t p,
                   const lop_barrier_result_t *res)
{
    const sched_t *sched = run->sched;
    lop_barrier_row_t *r = &s->row[s->n_row++];
    r->exec = run->exec;
    r->post = run->post;
    snprintf(r->alg, sizeof r->alg, "%s",
             !sched ? LOP_FMT_BARRIER_MPI_ALG : c->alg ? c->alg->name : s->file_alg);
    r->n = sched ? c->n : 0; /* 0: the algorithm takes no n */
    r->p = p;
    snprintf(r->condition, sizeof r->condition, "%s", s->condition);
    r->res = *res;
}

/* Does any of the n schedules hold an MCAST (a transport with multicast
 * then sets up its group)? */
static int any_mcast(const sched_t *sched, size_t n)
{
    for (size_t c = 0; c < n; c++)
        for (uint32_t i = 0; i < sched[c].n_ops; i++)
            if (sched[c].op[i].kind == SCHED_MCAST)
                return 1;
    return 0;
}

void lop_barrier_mcast_counts_str(const lop_mcast_counts_t *c, char *buf, size_t len)
{
    snprintf(buf, len, "%llu multicast, %llu resent, %llu NAKs sent, %llu NAKs received "
             "(%llu early), %llu taken, %llu duplicates, %llu dropped by LOP_TEST_MCAST_DROP",
             (unsigned long long)c->sent, (unsigned long long)c->resent,
             (unsigned long long)c->naks_sent, (unsigned long long)c->naks_received,
             (unsigned long long)c->naks_early, (unsigned long long)c->taken,
             (unsigned long long)c->duplicates, (unsigned long long)c->dropped);
}

/* How the executor's MCASTs travelled on p ranks, with the multicast's
 * counts over this size's rows, for '# executors:' (and a note). */
static void note_mcast(session_t *s, const lop_barrier_exec_t *x, const lop_transport_t *t,
                       uint32_t p, size_t first_row)
{
    char counts[320] = "", *end = s->mcast + strlen(s->mcast);
    lop_mcast_counts_t sum = {0};
    for (size_t i = first_row; i < s->n_row; i++)
        lop_mcast_counts_add(&sum, &s->row[i].res.mcast_counts, 1);
    if (t->mcast)
        lop_barrier_mcast_counts_str(&sum, counts, sizeof counts);
    snprintf(end, sizeof s->mcast - (size_t)(end - s->mcast), "%s%s at p=%u: %s%s%s",
             end > s->mcast ? "; " : "", x->name, p, t->mcast_note,
             t->mcast ? ": " : " (an mcast is P-1 messages)", counts);
}

/* One executor over the ranks of 'comm' (p of them): every schedule. */
static void run_executor(session_t *s, const lop_barrier_exec_t *x, MPI_Comm comm, uint32_t p,
                         sched_t *sched, size_t max_recv)
{
    const lop_bench_opts_t *o = s->m->opts;
    lop_transport_t t = transport_template(s, comm, max_recv);
    char why[512];
    lop_bench_note(o, s->m->rank, "%s %s on %u ranks", o->check ? "checking" : "timing", x->name,
                   p);
    char phase[96];
    snprintf(phase, sizeof phase, "--barrier, executor %s on %u ranks", x->name, p);
    lop_watchdog_phase(phase);
    t.want_mcast = x->transport && any_mcast(sched, s->n_combo);
    if (x->transport && lop_transport_open(&t, x->transport, &o->tcfg, why, sizeof why))
        goto fail;
    int has_mcast = t.want_mcast && t.ops->post_mcast; /* a transport that could multicast */
    if (has_mcast)
        lop_bench_note(o, s->m->rank, "executor %s on %u ranks: %s%s", x->name, p,
                       t.mcast_note, t.mcast ? "" : " (an mcast is P-1 messages)");
    uint64_t *counts = lop_calloc(3 * (size_t)p, sizeof *counts);
    if (!counts)
        goto fail;
    lop_barrier_run_t run = {s->m->timer, comm, x->transport ? &t : NULL, x,
                             x->transport ? exec_post(&t, x) : LOP_POST_NORMAL, NULL, counts,
                             o->reps, o->warmup, t.poll, o->check ? o->check_delay_us : 0,
                             o->seed, s->witness};
    size_t n = x->transport ? s->n_combo : 1, first_row = s->n_row; /* MPI_Barrier: no schedule */
    for (size_t c = 0; c < n; c++) {
        lop_barrier_result_t res;
        run.sched = x->transport ? &sched[c] : NULL;
        if (lop_barrier_measure(&run, &res) != LOP_OK)
            goto fail;
        if (t.rank == 0)
            record(s, &run, &s->combo[c], p, &res);
    }
    if (has_mcast && t.rank == 0)
        note_mcast(s, x, &t, p, first_row);
    if (x->transport)
        lop_transport_close(&t);
    free(counts);
    return;
fail:
    lop_mpi_fail_abort(PROG);
}

/* Ranks 0..p-1 run every executor; the others wait without using the CPU. */
static void run_size(session_t *s, uint32_t p)
{
    MPI_Comm comm;
    MPI_Comm_split(s->m->comm, s->m->rank < (int)p ? 0 : MPI_UNDEFINED, s->m->rank, &comm);
    if (comm != MPI_COMM_NULL) {
        sched_t *sched = lop_calloc(s->n_combo, sizeof *sched);
        size_t max_recv = 1;
        if (!sched || build_schedules(s, p, sched, &max_recv) != LOP_OK)
            lop_mpi_fail_abort(PROG);
        for (int i = 0; lop_barrier_execs[i].name; i++)
            if (s->execs >> i & 1)
                run_executor(s, &lop_barrier_execs[i], comm, p, sched, max_recv);
        for (size_t c = 0; c < s->n_combo; c++)
            if (s->combo[c].alg)
                sched_free(&sched[c]);
        free(sched);
        MPI_Comm_free(&comm);
    }
    /* Ranks left out of this size wait the whole run for it: no deadline. */
    lop_poll_t poll = {0, LOP_POLL_YIELD_EVERY, 0, NULL};
    if (lop_mpi_barrier(s->m->comm, &poll) != LOP_OK)
        lop_mpi_fail_abort(PROG);
}

/* ---------------------------------------------------------------- output */

/* --check: LOP_ERR_NO if any rank left a barrier early. */
static lop_status_t checks_verdict(const session_t *s)
{
    long bad_rows = 0;
    for (size_t i = 0; i < s->n_row; i++)
        bad_rows += s->row[i].res.violations > 0;
    if (bad_rows)
        return lop_err(LOP_ERR_NO, "--check: %ld of %zu runs let a rank leave a barrier "
                       "before every rank had entered it (%s witness)", bad_rows, s->n_row,
                       s->witness->name);
    return LOP_OK;
}

/* Rank 0: the verdict of --check, or the files (all or nothing, outdir.h). */
static lop_status_t finish(session_t *s, lop_barrier_report_t *out)
{
    lop_status_t st = LOP_OK;
    lop_outdir_t od = {0};
    if (s->m->rank == 0 && s->m->opts->check)
        st = checks_verdict(s);
    else if (s->m->rank == 0) {
        char executors[sizeof s->devices + sizeof s->mcast + 16];
        snprintf(executors, sizeof executors, "%s%s%s", s->devices[0] ? s->devices : "mpi",
                 s->mcast[0] ? "; mcast: " : "", s->mcast);
        out->row = s->row;
        out->n_row = s->n_row;
        st = lop_outdir_begin(&od, s->m->outdir);
        if (!st && !s->m->opts->congest_on) /* an earlier run's would pair with this one's */
            st = lop_outdir_retire(&od, LOP_FMT_BARRIER_CONGESTED_NAME);
        st = lop_outdir_end(&od, st ? st : lop_barrier_files_write(s->m, out, executors,
                                                                   od.stage));
    }
    return lop_mpi_agree(s->m->comm, st);
}

/* Every size, isolated; with --congest again under the congestors' traffic. */
static lop_status_t measure(session_t *s, lop_barrier_report_t *out)
{
    lop_status_t st = LOP_OK;
    s->condition = LOP_FMT_BARRIER_ISOLATED;
    for (size_t i = 0; i < s->n_p; i++)
        run_size(s, s->p[i]);
    if (!s->g)
        return LOP_OK;
    char cond[48];
    snprintf(cond, sizeof cond, LOP_FMT_BARRIER_CONGESTED "%s", s->g->pattern->name);
    s->condition = cond;
    lop_bench_note(s->m->opts, s->m->rank, "background traffic: %s", out->congest);
    if (lop_congest_start(s->g) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    for (size_t i = 0; i < s->n_p; i++)
        run_size(s, s->p[i]);
    if (lop_congest_stop(s->g) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    if (s->m->rank == 0)
        lop_congest_traffic(s->g, out->traffic, sizeof out->traffic);
    lop_congest_warn(s->g);
    s->condition = NULL;
    return st;
}

static lop_status_t mode_run(const lop_barrier_mode_t *m, lop_congest_t *g,
                             lop_barrier_report_t *out)
{
    session_t s = {.m = m, .g = g};
    lop_status_t st = select_combos(&s); /* the tests' hooks: checked with the options */
    st = st ? st : select_sizes(&s);
    st = lop_mpi_agree(m->comm, st);
    st = st ? st : choose_witness(&s);
    st = st ? st : select_executors(&s);
    size_t walkers = 0; /* executors that walk schedules (all but MPI_Barrier) */
    for (int i = 0; lop_barrier_execs[i].name; i++)
        walkers += (s.execs >> i & 1) && lop_barrier_execs[i].transport;
    size_t rows = s.n_p * (walkers * s.n_combo + 1) * (g ? 2 : 1);
    if (st == LOP_OK && m->rank == 0 && !(s.row = lop_calloc(rows, sizeof *s.row)))
        st = LOP_ERR_NOMEM;
    st = lop_mpi_agree(m->comm, st);
    if (st == LOP_OK && !m->opts->check)
        st = lop_outdir_agree(m->comm, m->outdir, lop_barrier_files);
    if (st == LOP_OK)
        st = measure(&s, out);
    out->measured = st == LOP_OK;
    if (st == LOP_OK)
        st = finish(&s, out);
    sched_free(&s.file_sched);
    lop_place_free(&s.place);
    free(s.combo);
    out->row = s.row; /* the caller's now */
    out->n_row = s.n_row;
    out->witness = s.witness ? s.witness->name : NULL;
    return st;
}

/* --congest: the timed ranks' part, over g->timed. */
typedef struct {
    const lop_barrier_mode_t *m;
    lop_barrier_report_t *out;
} timed_t;

static lop_status_t timed_run(void *ctx, lop_congest_t *g)
{
    const timed_t *t = ctx;
    lop_barrier_mode_t timed = *t->m;
    timed.comm = g->timed;
    MPI_Comm_rank(g->timed, &timed.rank);
    MPI_Comm_size(g->timed, &timed.size);
    if (t->m->rank == 0)
        lop_congest_describe(g, t->out->congest, sizeof t->out->congest);
    return mode_run(&timed, g, t->out);
}

lop_status_t lop_barrier_mode_run(const lop_barrier_mode_t *m, lop_barrier_report_t *out)
{
    *out = (lop_barrier_report_t){0};
    timed_t t = {m, out};
    return m->opts->congest_on ? lop_congest_split_run(m->comm, m->opts, m->oversubscribed,
                                                       out->cores, sizeof out->cores,
                                                       timed_run, &t)
                               : mode_run(m, NULL, out);
}

static int is_isolated(const lop_barrier_row_t *row)
{
    return strcmp(row->condition, LOP_FMT_BARRIER_ISOLATED) == 0;
}

void lop_barrier_impact(const lop_barrier_report_t *r, const lop_barrier_row_t *row,
                        double *avg, double *p99)
{
    *avg = *p99 = NAN;
    if (is_isolated(row))
        return;
    for (size_t i = 0; i < r->n_row; i++) {
        const lop_barrier_row_t *x = &r->row[i];
        if (x->exec == row->exec && strcmp(x->alg, row->alg) == 0 && x->n == row->n &&
            x->p == row->p && is_isolated(x)) {
            *avg = row->res.avg_us / x->res.avg_us;
            *p99 = row->res.iter.p99 / x->res.iter.p99;
            return;
        }
    }
}

void lop_barrier_report_free(lop_barrier_report_t *r)
{
    for (size_t i = 0; r->row && i < r->n_row; i++)
        free(r->row[i].res.iter_us);
    free(r->row);
    *r = (lop_barrier_report_t){0};
}
