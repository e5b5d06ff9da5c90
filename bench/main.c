/*
 * lopbench - the LoP benchmark (thesis 2.3.5): scenario 1 (posting
 * overheads) and scenario 2 (RTT to p peers) over verbs or MPI.
 *
 *   mpirun -np N lopbench [options]        see --help and bench/README.md
 *
 * This file is the command-line layer: options, the run plan (one task per
 * series), files and the summary.  Failures before the measurements start
 * (bad options, too few ranks, no device, unwritable directory) are agreed on
 * by all ranks and printed once by rank 0; a failure in the middle of a
 * measurement, where other ranks may be waiting for the failing one, aborts
 * the job.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "barrier_mode.h"
#include "bench_opts.h"
#include "congest.h"
#include "csv.h"
#include "fmt_series.h"
#include "mpisync.h"
#include "out.h"
#include "pairs_mode.h"
#include "report.h"
#include "samples.h"
#include "scenario.h"
#include "transport.h"

#define PROG "lopbench"

enum { MAX_TASKS = 1 + 3 * LOP_OP_COUNT * LOP_POST_COUNT, MAX_SETS = 3,
       MAX_SUMMARY = MAX_TASKS * MAX_SETS };

typedef enum { TASK_REFERENCE, TASK_SCENARIO1, TASK_SCENARIO2, TASK_SCENARIO3 } task_kind_t;

typedef struct {
    task_kind_t kind; /* which measurement */
    lop_op_t op;      /* its operation ... */
    lop_post_t post;  /* ... and post type */
    int skip;         /* the transport cannot measure this (op, post) */
    char series[LOP_NAME_SIZE]; /* "<op>-<post>" */
    const char *why;  /* why not, on this rank (a static string), or NULL */
} task_t;

typedef struct {
    lop_bench_opts_t opts;   /* the command line */
    lop_timer_t timer;       /* this rank's calibrated cycle timer */
    lop_transport_t tp;      /* the transport in use */
    lop_bench_t bench;       /* what the scenarios run with */
    lop_progress_t progress; /* rank 0's progress line */
    lop_run_meta_t meta;     /* what every file says about the run */
    char choice[512];        /* how the transport was chosen */
    char outdir[4096];       /* where the files go */
    lop_samples_t done[MAX_SUMMARY]; /* rank 0: measured sets, written at the end */
    int n_done;
    task_t task[MAX_TASKS];  /* the plan: one task per series */
    int n_tasks;
    report_series_t summary[MAX_SUMMARY]; /* rank 0's rows for stdout */
    int n_summary;
    lop_congest_t *congest;  /* --congest (scenarios): the congestors; NULL: none */
    int job_oversubscribed;  /* --congest: the whole job's ranks, congestors included */
    char congest_desc[256], cores[512], traffic[256]; /* their metadata (rank 0) */
    int have_send_rtt;    /* send-normal RTT(1) was measured ... */
    lop_stats_t send_rtt; /* ... with these statistics */
} run_t;

/* ------------------------------------------------------------- messages */

static int rank_of(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return rank;
}

/* Rank 0 prints the (agreed) error; every rank returns the exit code. */
static int fail_agreed(lop_status_t st)
{
    if (rank_of(MPI_COMM_WORLD) == 0)
        lop_err_print(PROG);
    return lop_exit_code(st);
}

/* The rank the launcher gave us, before MPI_Init (for --help only). */
static int launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", NULL};
    for (int i = 0; vars[i]; i++)
        if (getenv(vars[i]))
            return atoi(getenv(vars[i]));
    return 0;
}

/* ---------------------------------------------------------------- setup */

static void meta_fill(run_t *r)
{
    lop_run_meta_t *m = &r->meta;
    m->transport = r->tp.ops ? r->tp.ops->name : "per executor";
    m->transport_choice = r->choice;
    m->device = r->tp.device;
    m->ranks = r->bench.size;
    m->reps = r->opts.reps;
    m->warmup = r->opts.warmup;
    m->max_post = r->opts.max_post;
    m->idle_us = r->opts.idle_us;
    m->oversubscribed = r->bench.oversubscribed;
    lop_timer_describe(&r->timer, m->timer, sizeof m->timer);
    m->timer_calibration_s = r->timer.calibration_s;
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    gethostname(m->host, sizeof m->host - 1);
    free(m->hosts);
    lop_mpi_hosts(r->bench.comm, &m->hosts); /* NULL: the files say 'unknown' */
    lop_run_meta_slurm(m);
}

/* Does scenario 3 measure its ring (three ranks or more)? */
static int ring(const run_t *r)
{
    return r->opts.scenario[3] && r->bench.size >= LOP_FMT_SERIES_RING_MIN_RANKS;
}

/* Communicators over 'base' (the job, or its timed ranks under --congest),
 * the oversubscription check and the peer lists. */
static lop_status_t bench_init(run_t *r, MPI_Comm base)
{
    lop_bench_t *b = &r->bench;
    MPI_Comm_dup(base, &b->comm);
    MPI_Comm_rank(b->comm, &b->rank);
    MPI_Comm_size(b->comm, &b->size);
    MPI_Comm_split(b->comm, b->rank <= 1 ? 0 : MPI_UNDEFINED, b->rank, &b->pair);
    /* Under --congest the congestors share the machines too: the job's count
     * (run), not only the timed ranks'. */
    int mine = lop_mpi_oversubscribed(b->comm) || r->job_oversubscribed;
    MPI_Allreduce(&mine, &b->oversubscribed, 1, MPI_INT, MPI_MAX, b->comm);
    b->tp = &r->tp;
    b->timer = &r->timer;
    b->reps = r->opts.reps;
    b->warmup = r->opts.warmup;
    b->idle_us = r->opts.idle_us;
    b->max_post = (size_t)r->opts.max_post;
    size_t n = b->max_post > (size_t)b->size ? b->max_post : (size_t)b->size;
    b->to_other = lop_calloc(n, sizeof *b->to_other);
    b->star = lop_calloc(n, sizeof *b->star);
    if (!b->to_other || !b->star)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        b->to_other[i] = b->rank == 0 ? 1 : 0;
        b->star[i] = b->rank == 0 ? (int)i + 1 : 0;
    }
    r->tp = (lop_transport_t){.comm = b->comm, .rank = b->rank, .size = b->size,
                              .max_post = b->max_post, .all_pairs = r->opts.pairs,
                              .link_ring = ring(r),
                              .poll = {0, b->oversubscribed ? LOP_POLL_YIELD_EVERY : 0,
                                       r->opts.timeout_s, NULL}};
    return LOP_OK;
}

static void bench_free(run_t *r)
{
    lop_bench_t *b = &r->bench;
    free(b->to_other);
    free(b->star);
    free(r->meta.hosts);
    r->meta.hosts = NULL;
    if (b->pair != MPI_COMM_NULL)
        MPI_Comm_free(&b->pair);
    MPI_Comm_free(&b->comm);
}

static void default_outdir(run_t *r)
{
    char host[128] = "host", date[16];
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = '\0';
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    snprintf(r->outdir, sizeof r->outdir, "data/%s-%s", host, date);
}

static void outdir_choose(run_t *r)
{
    if (r->opts.outdir)
        snprintf(r->outdir, sizeof r->outdir, "%s", r->opts.outdir);
    else
        default_outdir(r);
}

/* Rank 0 creates the directory; everyone learns whether it could. */
static lop_status_t outdir_prepare(run_t *r)
{
    outdir_choose(r);
    return lop_outdir_agree(r->bench.comm, r->outdir, NULL); /* names: plan_targets_check */
}

/* Rank 0, after the last task: every file of the run, all or none (csv.h).
 * Nothing is written before, so a rank killed mid-run (mpirun may SIGKILL
 * it) leaves nothing behind, and a run cut short adds no file to the set. */
static lop_status_t outdir_write(run_t *r)
{
    lop_outdir_t out = {0};
    lop_status_t st = r->bench.rank == 0 ? lop_outdir_begin(&out, r->outdir) : LOP_OK;
    for (int i = 0; i < r->n_done && st == LOP_OK; i++)
        st = lop_samples_write(&r->done[i], &r->meta, out.stage, r->opts.raw);
    st = lop_outdir_end(&out, st);
    for (int i = 0; i < r->n_done; i++)
        lop_samples_free(&r->done[i]);
    return st;
}

/* ----------------------------------------------------------------- plan */

static void plan_add(run_t *r, task_kind_t kind, lop_op_t op, lop_post_t post)
{
    task_t *t = &r->task[r->n_tasks++];
    *t = (task_t){kind, op, post, 0, "", NULL};
    if (kind == TASK_REFERENCE) {
        snprintf(t->series, sizeof t->series, "mpi-pingpong");
        return;
    }
    snprintf(t->series, sizeof t->series, "%s-%s", lop_op_desc[op].name, lop_post_desc[post].name);
    t->why = r->tp.ops->why_not(&r->tp, op, post);
    t->skip = t->why != NULL;
    MPI_Bcast(&t->skip, 1, MPI_INT, 0, r->bench.comm); /* rank 0's view decides */
}

/* A note for every series skipped (once per series: scenario 1's note covers scenario 2's). */
static void plan_notes(const run_t *r)
{
    for (int i = 0; i < r->n_tasks; i++) {
        const task_t *t = &r->task[i];
        if (t->skip && (t->kind == TASK_SCENARIO1 || !r->opts.scenario[1]))
            lop_bench_note(&r->opts, r->bench.rank, "skipping %s: %s", t->series,
                           t->why ? t->why : "not measurable on rank 0");
    }
}

/* Does scenario s measure (op, post)?  1: not a multicast; 2: no list; 3:
 * neither. */
static int scenario_takes(int s, int op, int post)
{
    if (s == 1)
        return !lop_op_desc[op].multicast;
    return lop_post_desc[post].in_rtt && (s == 2 || !lop_op_desc[op].multicast);
}

/* The reference ping-pong (when scenario 2 runs), then scenarios 1, 2 and
 * 3 for every selected operation and post type. */
static void plan_build(run_t *r)
{
    const lop_bench_opts_t *o = &r->opts;
    if (o->scenario[2])
        plan_add(r, TASK_REFERENCE, LOP_OP_SEND, LOP_POST_NORMAL);
    static const task_kind_t kind[] = {0, TASK_SCENARIO1, TASK_SCENARIO2, TASK_SCENARIO3};
    for (int s = 1; s <= 3; s++) {
        if (!o->scenario[s])
            continue;
        for (int op = 0; op < LOP_OP_COUNT; op++)
            for (int post = 0; post < LOP_POST_COUNT; post++)
                if ((o->ops >> op & 1) && (o->posts >> post & 1) && scenario_takes(s, op, post))
                    plan_add(r, kind[s], (lop_op_t)op, (lop_post_t)post);
    }
}

static size_t task_rows(const run_t *r, const task_t *t)
{
    switch (t->kind) {
    case TASK_SCENARIO1:
        return r->bench.max_post;
    case TASK_SCENARIO3:
        return lop_scenario3_rows(&r->bench, t->op);
    case TASK_SCENARIO2:
        return (size_t)r->bench.size - 1;
    default:
        return 1;
    }
}

/* Work of the tasks that run (lop_bench_rep_units per repetition; scenario
 * 3 repeats its rows, then its one exchange and its one ring). */
static double plan_units(const run_t *r, int *n_run)
{
    double units = 0;
    *n_run = 0;
    for (int i = 0; i < r->n_tasks; i++) {
        const task_t *t = &r->task[i];
        if (t->skip)
            continue;
        double per_rep = lop_bench_rep_units(&r->bench, task_rows(r, t));
        if (t->kind == TASK_SCENARIO3)
            per_rep += lop_bench_rep_units(&r->bench, 1) * (ring(r) ? 2 : 1);
        units += per_rep * (double)(r->opts.reps + r->opts.warmup);
        (*n_run)++;
    }
    return units;
}

/* ------------------------------------------------------------ one task */

/* The quantities a task produces, in file order: scenario 1 os, oc and (for
 * receives, not inline) or; scenario 2 and the reference rtt, and for a
 * multicast the os of its post too; scenario 3 prtt, exch and (on three
 * ranks or more) ring. */
static int task_quantities(const run_t *r, const task_t *t, const char **q)
{
    if (t->kind == TASK_SCENARIO3) {
        q[0] = "prtt";
        q[1] = "exch";
        q[2] = "ring";
        return ring(r) ? 3 : 2;
    }
    if (t->kind != TASK_SCENARIO1) {
        q[0] = "rtt";
        q[1] = "os";
        return t->kind == TASK_SCENARIO2 && lop_op_desc[t->op].multicast ? 2 : 1;
    }
    q[0] = "os";
    q[1] = "oc";
    if (lop_op_desc[t->op].uses_recv && t->post != LOP_POST_INLINE) {
        q[2] = "or";
        return 3;
    }
    return 2;
}

/* Rank 0: a plan whose every series is skipped measures nothing; refused
 * before the output directory is made, as --pairs refuses it. */
static lop_status_t plan_check(const run_t *r)
{
    int planned = 0;
    const task_t *first = NULL;
    for (int i = 0; i < r->n_tasks; i++) {
        if (r->task[i].kind == TASK_REFERENCE)
            continue;
        if (!r->task[i].skip)
            return LOP_OK;
        first = first ? first : &r->task[i];
        planned++;
    }
    if (planned == 0)
        return lop_err(LOP_ERR_INVALID, "nothing to measure: --scenario, --ops and --post select "
                       "no series (scenarios 2 and 3 have no list posts)");
    return lop_err(LOP_ERR_INVALID, "nothing to measure: transport %s can measure none of the "
                   "series --scenario, --ops and --post select (%s: %s)", r->tp.ops->name,
                   first->series, first->why ? first->why : "not measurable on rank 0");
}

/* Rank 0: every file the plan will write may be replaced (csv.h), checked
 * before the measurements rather than after them. */
static lop_status_t plan_targets_check(const run_t *r)
{
    lop_status_t st = LOP_OK;
    for (int i = 0; i < r->n_tasks && st == LOP_OK; i++) {
        const char *q[3];
        int n_q = r->task[i].skip ? 0 : task_quantities(r, &r->task[i], q);
        for (int k = 0; k < n_q * (1 + r->opts.raw) && st == LOP_OK; k++) {
            char name[LOP_FMT_SERIES_NAME_LEN];
            lop_fmt_series_file_name(name, r->task[i].series, q[k % n_q], k >= n_q);
            st = lop_outdir_target_check(r->outdir, name);
        }
    }
    return st;
}

/* The plan refused or accepted by every rank, the output directory made. */
static lop_status_t plan_agree(run_t *r)
{
    lop_status_t st = lop_mpi_agree(r->bench.comm, r->bench.rank == 0 ? plan_check(r) : LOP_OK);
    st = st ? st : outdir_prepare(r);
    return st ? st : lop_mpi_agree(r->bench.comm, r->bench.rank == 0 ? plan_targets_check(r) : LOP_OK);
}

static lop_status_t task_measure(run_t *r, const task_t *t, lop_samples_t *set, int n_sets)
{
    lop_bench_t *b = &r->bench;
    lop_samples_t *have = b->rank <= 1 ? set : NULL; /* samples live on ranks 0 and 1 */
    switch (t->kind) {
    case TASK_REFERENCE:
        return lop_reference_run(b, have);
    case TASK_SCENARIO1:
        return lop_scenario1_run(b, t->op, t->post, have ? &set[0] : NULL,
                                 have ? &set[1] : NULL, have && n_sets > 2 ? &set[2] : NULL);
    case TASK_SCENARIO3:
        return lop_scenario3_run(b, t->op, t->post, have, have ? &set[1] : NULL,
                                 have && n_sets > 2 ? &set[2] : NULL);
    default:
        return lop_scenario2_run(b, t->op, t->post, have, have && n_sets > 1 ? &set[1] : NULL);
    }
}

static void summary_add(run_t *r, const lop_samples_t *s)
{
    lop_stats_t first, last;
    if (r->n_summary >= MAX_SUMMARY || lop_samples_stats(s, 1, &first) != LOP_OK ||
        lop_samples_stats(s, s->n_p, &last) != LOP_OK)
        return;
    if (s->p_first > 1) /* rows from p_first on (the ring): nothing at p = 1 */
        first.median = first.min = NAN;
    report_series_t *row = &r->summary[r->n_summary++];
    *row = (report_series_t){.quantity = s->quantity, .n_p = s->p_first + s->n_p - 1,
                             .first = first, .last = last};
    memcpy(row->series, s->series, sizeof row->series);
}

/* Rank 0: the reference goes into the metadata, the rest into files. */
static lop_status_t task_output(run_t *r, const task_t *t, lop_samples_t *set, int n_sets)
{
    if (t->kind == TASK_REFERENCE) {
        r->meta.have_reference = 1;
        lop_status_t st = lop_samples_stats(&set[0], 1, &r->meta.reference);
        if (st == LOP_OK)
            summary_add(r, &set[0]);
        return st;
    }
    if (t->kind == TASK_SCENARIO2 && t->op == LOP_OP_SEND && t->post == LOP_POST_NORMAL)
        r->have_send_rtt = lop_samples_stats(&set[0], 1, &r->send_rtt) == LOP_OK;
    for (int i = 0; i < n_sets && r->n_done < MAX_SUMMARY; i++) {
        summary_add(r, &set[i]);
        r->done[r->n_done++] = set[i]; /* outdir_write writes it, then frees it */
        set[i].us = NULL;
    }
    return LOP_OK;
}

static void task_run(run_t *r, const task_t *t)
{
    const char *q[MAX_SETS];
    int n_sets = task_quantities(r, t, q);
    lop_samples_t set[MAX_SETS] = {0};
    size_t rows = task_rows(r, t), reps = (size_t)r->opts.reps;
    lop_status_t st = LOP_OK;
    for (int i = 0; i < n_sets && st == LOP_OK && r->bench.rank <= 1; i++) {
        st = lop_samples_init(&set[i], t->series, q[i],
                              i > 0 && t->kind == TASK_SCENARIO3 ? 1 : rows, reps);
        if (strcmp(q[i], "ring") == 0) /* its one row is the ring of all P ranks */
            set[i].p_first = (size_t)r->bench.size;
    }
    if (st != LOP_OK)
        lop_mpi_fail_abort(PROG);
    char name[LOP_NAME_SIZE + 16]; /* "scenario 2 <series>" */
    static const char *const kind_name[] = {"reference", "scenario 1", "scenario 2", "scenario 3"};
    snprintf(name, sizeof name, "%s %s", kind_name[t->kind], t->series);
    lop_progress_task(r->bench.progress, name);
    const char *phase = name;
    char with_peer[sizeof name + 96]; /* the reference's blocking MPI_Recv waits for one peer: name it */
    if (t->kind == TASK_REFERENCE && r->bench.rank <= 1) {
        int peer = 1 - r->bench.rank;
        snprintf(with_peer, sizeof with_peer, "%s with rank %d on %.64s", name, peer,
                 lop_mpi_host_of(peer));
        phase = with_peer;
    }
    lop_watchdog_phase(phase);
    st = task_measure(r, t, set, n_sets);
    if (st == LOP_OK && r->bench.rank == 0)
        st = task_output(r, t, set, n_sets);
    if (st != LOP_OK)
        lop_mpi_fail_abort(PROG);
    for (int i = 0; i < n_sets; i++)
        lop_samples_free(&set[i]);
}

/* -------------------------------------------------------------- the run */

/* Every task, then rank 0 moves the files into place (all or none). */
static lop_status_t measure_all(run_t *r)
{
    lop_bench_t *b = &r->bench;
    b->progress = b->rank == 0 && !r->opts.quiet ? &r->progress : NULL;
    int n_run;
    double units = plan_units(r, &n_run);
    lop_progress_init(b->progress, PROG, units, n_run);
    if (r->congest && lop_congest_start(r->congest) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    for (int i = 0; i < r->n_tasks; i++)
        if (!r->task[i].skip)
            task_run(r, &r->task[i]);
    lop_progress_done(b->progress);
    if (r->congest && lop_congest_stop(r->congest) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    if (r->congest && b->rank == 0) { /* every file: measured under this traffic */
        lop_congest_describe(r->congest, r->congest_desc, sizeof r->congest_desc);
        lop_congest_traffic(r->congest, r->traffic, sizeof r->traffic);
        lop_congest_warn(r->congest);
        r->meta.congest = r->congest_desc;
        r->meta.congest_cores = r->cores;
        r->meta.congest_traffic = r->traffic;
    }
    lop_status_t st = lop_mpi_agree(b->comm, outdir_write(r));
    if (st == LOP_OK && b->rank == 0) /* a failed stdout is reported once, by lop_stdout_close() */
        (void)report_scenarios_print(&r->meta, r->summary, r->n_summary,
                                     r->have_send_rtt ? &r->send_rtt : NULL, r->outdir);
    return st;
}

/* The scenarios: the plan agreed on and the directory made, then every task. */
static lop_status_t run_scenarios(run_t *r)
{
    plan_build(r);
    lop_status_t st = plan_agree(r);
    if (st)
        return st;
    lop_bench_note(&r->opts, r->bench.rank, "transport %s (%s)", r->tp.ops->name, r->choice);
    plan_notes(r);
    meta_fill(r);
    return measure_all(r);
}

/* --pairs: o and L of every ordered pair (pairs_mode.h); the directory is
 * made once the pairs mode knows it can measure. */
static lop_status_t run_pairs(run_t *r)
{
    outdir_choose(r);
    lop_bench_note(&r->opts, r->bench.rank, "transport %s (%s)", r->tp.ops->name, r->choice);
    meta_fill(r);
    r->bench.progress = r->bench.rank == 0 && !r->opts.quiet ? &r->progress : NULL;
    lop_pairs_mode_t m = {&r->opts, &r->bench, &r->meta, r->outdir};
    lop_pairs_report_t report;
    lop_status_t st = lop_pairs_mode_run(&m, &report);
    if (st == LOP_OK && r->bench.rank == 0) /* a failed stdout: lop_stdout_close() */
        report_pairs_print(&m, &report);
    lop_pairs_report_free(&report);
    return st;
}

/* --barrier: the schedules of lopredict run for real (barrier_mode.h), into
 * the directory the scenarios chose where they ran first. */
static lop_status_t run_barriers(run_t *r)
{
    if (!r->outdir[0])
        outdir_choose(r);
    meta_fill(r);
    lop_barrier_mode_t m = {&r->opts, &r->timer, r->bench.comm, r->bench.rank,
                            r->bench.size, r->bench.oversubscribed, r->outdir, &r->meta};
    lop_barrier_report_t report;
    lop_status_t st = lop_barrier_mode_run(&m, &report);
    lop_status_t printed = r->bench.rank == 0 ? report_barrier_print(&m, &report, st) : LOP_OK;
    st = lop_mpi_agree(r->bench.comm, st ? st : printed); /* every rank fails alike */
    lop_barrier_report_free(&report);
    return st;
}

/* --barrier --with-scenarios: the scenarios, then the barriers, in one launch
 * and one directory.  A machine that runs a launch at one speed and the next
 * at another (a guest whose virtual CPUs the host moves: a ping-pong between
 * two ranks of one host took 0.32 to 1.0 us by launch here, steady within
 * one) can then be predicted from parameters measured in the barriers' state. */
static lop_status_t run_calibrated(run_t *r)
{
    lop_status_t st = run_scenarios(r);
    lop_transport_close(&r->tp); /* the barrier executors open their own */
    return st ? st : run_barriers(r);
}

/* What each mode runs (bench_opts.c's table says which options it takes). */
static const struct {
    lop_status_t (*run)(run_t *r);
    int transport;      /* over --transport's (the barrier executors open their own) */
    int congest_split;  /* --congest: the mode runs on the timed ranks while the
                           others congest (else it splits the ranks itself, per run) */
    const char *option; /* what chose it, for the message on one rank */
} modes[LOP_BENCH_MODE_COUNT] = {
    [LOP_BENCH_SCENARIOS] = {run_scenarios, 1, 1, ""},
    [LOP_BENCH_BARRIER] = {run_barriers, 0, 0, "option --barrier: "},
    [LOP_BENCH_SCHEDULE] = {run_barriers, 0, 0, "option --barrier: "},
    [LOP_BENCH_PAIRS] = {run_pairs, 1, 0, "option --pairs: "},
    [LOP_BENCH_CALIBRATED] = {run_calibrated, 1, 0, "option --barrier: "},
};

static lop_status_t run_on(run_t *r, MPI_Comm base)
{
    lop_status_t st = lop_mpi_agree(base, bench_init(r, base));
    if (st != LOP_OK)
        return st;
    if (r->bench.size < 2)
        st = lop_err(LOP_ERR_INVALID, "%sneeds at least 2 MPI ranks (mpirun -np N lopbench, "
                     "N >= 2)", modes[r->opts.mode].option);
    if (st == LOP_OK)
        lop_timer_init(&r->timer);
    r->tp.want_mcast = r->opts.ops >> LOP_OP_MCAST & 1; /* scenario 2's mcast series */
    if (st == LOP_OK && modes[r->opts.mode].transport)
        st = lop_transport_open(&r->tp, r->opts.transport, &r->opts.tcfg, r->choice,
                                sizeof r->choice);
    st = st ? st : modes[r->opts.mode].run(r);
    lop_transport_close(&r->tp);
    bench_free(r);
    return st;
}

/* --congest with a mode that splits (the scenarios): the timed ranks measure
 * every series while the congestors send (the loaded L(p), o(p) of a loaded
 * LoP model). */
static lop_status_t run_timed(void *ctx, lop_congest_t *g)
{
    run_t *r = ctx;
    r->congest = g;
    return run_on(r, g->timed);
}

static int run(run_t *r)
{
    lop_status_t st;
    if (r->opts.congest_on && modes[r->opts.mode].congest_split) {
        int mine = lop_mpi_oversubscribed(MPI_COMM_WORLD);
        MPI_Allreduce(&mine, &r->job_oversubscribed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        st = lop_congest_split_run(MPI_COMM_WORLD, &r->opts, r->job_oversubscribed, r->cores,
                                   sizeof r->cores, run_timed, r);
    } else {
        st = run_on(r, MPI_COMM_WORLD);
    }
    return st == LOP_OK ? EXIT_SUCCESS : fail_agreed(st);
}

int main(int argc, char **argv)
{
    static run_t r; /* large (summary lines); one per process */
    lop_status_t st = lop_bench_opts_parse(argc, argv, &r.opts);
    if (st == LOP_OK && (r.opts.help || r.opts.list_options)) {
        if (launcher_rank() == 0)
            (r.opts.help ? lop_bench_opts_usage : lop_bench_opts_list)(stdout);
        return lop_stdout_close(PROG, 0) ? LOP_EXIT_FAILED : LOP_EXIT_OK;
    }
    int thread_level; /* the watchdog thread makes no MPI calls: FUNNELED suffices */
    if (st == LOP_OK) /* a peer stopped in MPI_Init is no endless wait either */
        lop_watchdog_start(PROG, launcher_rank(), r.opts.timeout_s);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &thread_level);
    if (st == LOP_OK)
        lop_watchdog_phase("start-up");
    st = lop_mpi_agree(MPI_COMM_WORLD, st);
    int code = st == LOP_OK ? run(&r) : fail_agreed(st);
#if defined(__SANITIZE_ADDRESS__)
    /* Check for leaks while the MPI library's plugins are still loaded: after
     * MPI_Finalize unloads them, their allocations have no symbols left and
     * tests/lsan.supp cannot tell them from ours. */
    __lsan_do_leak_check();
#endif
    fflush(stdout); /* a bark in MPI_Finalize ends the process without stdio */
    lop_watchdog_finalize(code);
    MPI_Finalize();
    /* every write to stdout checked: one line, unless an error was printed already */
    if (lop_stdout_close(PROG, code != EXIT_SUCCESS) && code == EXIT_SUCCESS)
        code = LOP_EXIT_FAILED;
    return code;
}
