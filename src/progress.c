/* progress.c - progress and time left on stderr (progress.h). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "timer.h"

enum { TTY_PERIOD_MS = 250, LOG_PERIOD_MS = 10000 };

void lop_progress_init(lop_progress_t *p, const char *prog, double total_units, int n_tasks)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->prog = prog;
    p->tty = isatty(STDERR_FILENO);
    p->total_units = total_units;
    p->n_tasks = n_tasks;
    p->start_ns = p->last_ns = lop_timer_clock_ns();
}

void lop_progress_plan(lop_progress_t *p, double total_units, int n_tasks)
{
    if (!p)
        return;
    p->total_units = total_units;
    p->n_tasks = n_tasks;
}

static void print_line(lop_progress_t *p, uint64_t now)
{
    double elapsed_s = (double)(now - p->start_ns) * 1e-9;
    double frac = p->total_units > 0 ? p->done_units / p->total_units : 1;
    char left[48] = "estimating time left";
    if (frac > 0.01)
        snprintf(left, sizeof left, "about %.0f s left", elapsed_s * (1 - frac) / frac + 0.5);
    fprintf(stderr, "%s%s: [%d/%d] %s: %3.0f%% done, %s%s", p->tty ? "\r\033[K" : "", p->prog,
            p->task, p->n_tasks, p->name, 100 * frac, left, p->tty ? "" : "\n");
    fflush(stderr);
    p->last_ns = now;
}

void lop_progress_task(lop_progress_t *p, const char *name)
{
    if (!p)
        return;
    p->task++;
    snprintf(p->name, sizeof p->name, "%s", name);
    print_line(p, lop_timer_clock_ns());
}

void lop_progress_step(lop_progress_t *p, double units)
{
    if (!p)
        return;
    p->done_units += units;
    uint64_t now = lop_timer_clock_ns();
    double since_ms = (double)(now - p->last_ns) * 1e-6;
    if (since_ms >= (p->tty ? TTY_PERIOD_MS : LOG_PERIOD_MS))
        print_line(p, now);
}

void lop_progress_done(lop_progress_t *p)
{
    if (p && p->tty) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}
