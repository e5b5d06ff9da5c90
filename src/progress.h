/*
 * progress.h - a long run's progress line on stderr with an estimate of the
 * time left: the fraction of work units done over the time spent so far
 * (lopbench's measurements, lopfit's tables).  On a terminal the line is
 * redrawn a few times a second; otherwise a line is printed when a task
 * starts and every 10 s within one.  Every function accepts NULL (ranks or
 * runs that do not report).
 */
#ifndef LOP_PROGRESS_H
#define LOP_PROGRESS_H

#include <stdint.h>

typedef struct {
    const char *prog;        /* "lopbench: ..." */
    int tty;                 /* stderr is a terminal */
    double total_units;      /* work of the whole run */
    double done_units;       /* work finished */
    uint64_t start_ns;       /* when the run started (monotonic clock) */
    uint64_t last_ns;        /* when the line was last printed */
    int task, n_tasks;       /* current task, 1-based, of n_tasks */
    char name[64];           /* current task */
} lop_progress_t;

void lop_progress_init(lop_progress_t *p, const char *prog, double total_units, int n_tasks);
/* Set the work of a run whose size is known only after init. */
void lop_progress_plan(lop_progress_t *p, double total_units, int n_tasks);
void lop_progress_task(lop_progress_t *p, const char *name);
void lop_progress_step(lop_progress_t *p, double units);
/* Clear the terminal line at the end. */
void lop_progress_done(lop_progress_t *p);

#endif
