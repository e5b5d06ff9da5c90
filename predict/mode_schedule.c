/*
 * mode_schedule.c - lopredict's schedule modes: --schedule prints one as
 * CSV, --goal as LogGOPSim GOAL (or --check-schedule's file), and
 * --check-schedule FILE says whether a file is a barrier (with --simulate
 * its times).
 */
#include <stdio.h>

#include "goal.h"
#include "lopredict.h"
#include "out.h"
#include "rows.h"
#include "sched_csv.h"
#include "work.h"

/* Refused with the run's other checks, before a file is written. */
lop_status_t mode_schedule_opts_check(const lopredict_opts_t *o, const lopredict_run_t *r)
{
    if (o->mode != MODE_SCHEDULE && o->mode != MODE_GOAL)
        return LOP_OK;
    if (!o->alg_all && o->n_alg == 1 && o->n.count <= 1 && r->n_p == 1)
        return LOP_OK;
    return lop_err(LOP_ERR_INVALID, "option %s: needs one --alg, at most one --n and one --p%s",
                   o->mode == MODE_SCHEDULE ? "--schedule" : "--goal",
                   o->mode == MODE_SCHEDULE ? "" : ", or --check-schedule FILE");
}

lop_status_t mode_schedule_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    sched_t s;
    const barrier_alg_t *a = o->alg[0];
    (void)failed; /* built schedules are barriers: the checker's tests say so */
    lop_status_t st = work_sched_build(o, r, a, work_n_value(o, a, 0), r->p[0], 0, &s);
    if (st)
        return st;
    if (a->flags & BARRIER_HYBRID) /* checked by hybrid_build */
        printf("# hybrid: %s\n", r->hybrid_config);
    sched_csv_write(&s, stdout);
    sched_free(&s);
    return LOP_OK;
}

/* Where a GOAL file leaves a send free to run before a receive written above
 * it, lop's in-order run is stronger than the file's order: said on stderr,
 * since the check and the times are those of the order written. */
lop_status_t mode_schedule_file_read(const char *path, sched_t *s)
{
    goal_notes_t notes;
    lop_status_t st = sched_file_read(path, s, &notes);
    if (st == LOP_OK && notes.loose) {
        char why[1024];
        goal_notes_say(&notes, path, why, sizeof why);
        fprintf(stderr, "%s: warning: %s\n", LOPREDICT_PROG, why);
    }
    return st;
}

/* The schedule of one algorithm, n and P (or of --check-schedule's file) in
 * LogGOPSim's GOAL format; may be large: straight out, like --schedule. */
lop_status_t mode_goal_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    sched_t s;
    lop_status_t st;
    (void)failed; /* a file is read, not checked */
    if (o->check_file)
        st = mode_schedule_file_read(o->check_file, &s);
    else /* one --alg, --n and --p: mode_schedule_opts_check */
        st = work_sched_build(o, r, o->alg[0], work_n_value(o, o->alg[0], 0), r->p[0], 0, &s);
    if (st)
        return st;
    sched_goal_write(&s, stdout);
    sched_free(&s);
    return LOP_OK;
}

/* --simulate: the file's time under each model selected. */
static lop_status_t check_file_times(const lopredict_opts_t *o, lopredict_run_t *r,
                                     const sched_t *s)
{
    char num[LOP_OUT_NUM_LEN];
    lop_status_t st = LOP_OK;
    for (int model = MODEL_LOGP; model <= MODEL_LOP && !st && o->simulate; model <<= 1) {
        double us;
        if (!(o->models & model))
            continue;
        st = work_sched_simulate(o, r, s, model, &us);
        if (st == LOP_OK && predict_invalid(us)) /* no time is printed as one */
            printf("%s: simulated %s: %s\n", o->check_file, rows_model_name(model),
                   predict_invalid(us));
        else if (st == LOP_OK)
            printf("%s: simulated %s: %s us\n", o->check_file, rows_model_name(model),
                   lop_out_format_csv(num, us));
    }
    return st;
}

lop_status_t mode_check_schedule_run(const lopredict_opts_t *o, lopredict_run_t *r,
                                     int *failed)
{
    sched_t s;
    lop_status_t st = mode_schedule_file_read(o->check_file, &s);
    if (st)
        return st;
    if (o->simulate && r->have_pairs && r->pairs.p < s.p) { /* before anything is printed */
        st = lop_err(LOP_ERR_INVALID, "per-pair costs for %u ranks, the schedule has P = %u",
                     r->pairs.p, s.p);
        sched_free(&s);
        return st;
    }
    st = work_sched_check(o, &s);
    *failed = st == LOP_ERR_INVALID;
    st = *failed ? LOP_OK : st;
    if (*failed)
        fprintf(stderr, "%s: %s\n", LOPREDICT_PROG, lop_errmsg()); /* "FILE:LINE: schedule ..." */
    else if (st == LOP_OK)
        printf("%s: a barrier: P = %u, %u ops, %u steps\n", o->check_file, s.p, s.n_ops,
               s.n_steps);
    if (!*failed && st == LOP_OK)
        st = check_file_times(o, r, &s);
    sched_free(&s);
    return st;
}
