/*
 * progress.h - rank 0's progress line on stderr with an estimate of the time
 * left: the fraction of work units done (repetitions x rows) over the time
 * spent so far.  On a terminal the line is redrawn a few times a second;
 * otherwise a line is printed when a task starts and every 10 s within one.
 * Every function accepts NULL (ranks that do not report).
 */
#ifndef LOP_PROGRESS_H
#define LOP_PROGRESS_H

#include <stdint.h>

#include "timer.h"

typedef struct {
    const lop_timer_t *timer; /* for elapsed time */
    int tty;                 /* stderr is a terminal */
    double total_units;      /* work of the whole run */
    double done_units;       /* work finished */
    uint64_t start_ticks;    /* when the run started */
    uint64_t last_ticks;     /* when the line was last printed */
    int task, n_tasks;       /* current task, 1-based, of n_tasks */
    char name[64];           /* current task */
} lop_progress_t;

void lop_progress_init(lop_progress_t *p, const lop_timer_t *timer, double total_units,
                       int n_tasks);
void lop_progress_task(lop_progress_t *p, const char *name);
void lop_progress_step(lop_progress_t *p, double units);
/* Clear the terminal line at the end. */
void lop_progress_done(lop_progress_t *p);

#endif
