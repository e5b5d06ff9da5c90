/* timer.c - counter selection, calibration and self-measurement (timer.h). */
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "stats.h"

enum {
    CALIBRATION_WINDOWS = 5,    /* median of this many rate estimates */
    CALIBRATION_WINDOW_NS = 4000000, /* 4 ms each: 20 ms in all */
    OVERHEAD_READS = 2001       /* back-to-back reads to time the timer */
};

const char *lop_timer_kind_name(lop_timer_kind_t kind)
{
    switch (kind) {
    case LOP_TIMER_TSC:
        return "tsc";
    case LOP_TIMER_CNTVCT:
        return "cntvct";
    default:
        return "clock";
    }
}

/* Ends a word in a cpuinfo line ("flags\t\t: fpu vme ...\n"). */
static int flag_sep(char c)
{
    return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == ':';
}

int lop_timer_has_flag(const char *line, const char *flag)
{
    size_t len = strlen(flag);
    for (const char *at = len ? strstr(line, flag) : NULL; at; at = strstr(at + 1, flag))
        if ((at == line || flag_sep(at[-1])) && flag_sep(at[len]))
            return 1;
    return 0;
}

/* The TSC counts wall time only if it is constant-rate and keeps running in
 * deep C-states; the kernel advertises both as cpuinfo flags. */
static int tsc_is_invariant(void)
{
#if defined(__x86_64__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[8192];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = lop_timer_has_flag(line, "constant_tsc");
        nonstop = lop_timer_has_flag(line, "nonstop_tsc");
        break;
    }
    fclose(f);
    return constant && nonstop;
#else
    return 0;
#endif
}

lop_status_t lop_timer_env_check(void)
{
    const char *forced = getenv("LOP_TIMER");
    if (!forced || !*forced || strcmp(forced, "clock") == 0)
        return LOP_OK;
    return lop_err(LOP_ERR_INVALID, "LOP_TIMER: '%s' is not clock (unset: the cycle counter "
                   "where it is invariant)", forced);
}

static lop_timer_kind_t choose_kind(void)
{
    const char *forced = getenv("LOP_TIMER");
    if (forced && strcmp(forced, "clock") == 0)
        return LOP_TIMER_CLOCK;
#if defined(__x86_64__)
    if (tsc_is_invariant())
        return LOP_TIMER_TSC;
#elif defined(__aarch64__)
    return LOP_TIMER_CNTVCT;
#endif
    return LOP_TIMER_CLOCK;
}

/* One rate estimate: ticks elapsed over a window of the reference clock.  Each
 * end is bracketed by two clock reads so the counter read sits between them. */
static double rate_over_window(const lop_timer_t *timer)
{
    uint64_t c0a = lop_timer_clock_ns();
    uint64_t t0 = lop_timer_now(timer);
    uint64_t c0b = lop_timer_clock_ns();
    uint64_t c1a, c1b, t1;
    do {
        c1a = lop_timer_clock_ns();
        t1 = lop_timer_now(timer);
        c1b = lop_timer_clock_ns();
    } while (c1a - c0b < CALIBRATION_WINDOW_NS);
    double ns = ((double)c1a + (double)c1b) / 2 - ((double)c0a + (double)c0b) / 2;
    return (double)(t1 - t0) * 1e9 / ns;
}

static void calibrate_rate(lop_timer_t *timer)
{
    if (timer->kind == LOP_TIMER_CLOCK) {
        timer->hz = 1e9;
        return;
    }
    double rate[CALIBRATION_WINDOWS];
    for (int i = 0; i < CALIBRATION_WINDOWS; i++)
        rate[i] = rate_over_window(timer);
    gsl_sort(rate, 1, CALIBRATION_WINDOWS);
    timer->hz = lop_stats_quantile_sorted(rate, CALIBRATION_WINDOWS, 0.5);
}

/* Cost and granularity of a read: differences of back-to-back reads. */
static void measure_overhead(lop_timer_t *timer)
{
    static double delta[OVERHEAD_READS - 1];
    uint64_t prev = lop_timer_now(timer);
    double smallest_step = 0;
    for (int i = 0; i < OVERHEAD_READS - 1; i++) {
        uint64_t now = lop_timer_now(timer);
        delta[i] = (double)(now - prev);
        if (delta[i] > 0 && (smallest_step == 0 || delta[i] < smallest_step))
            smallest_step = delta[i];
        prev = now;
    }
    gsl_sort(delta, 1, OVERHEAD_READS - 1);
    timer->overhead_ticks = lop_stats_quantile_sorted(delta, OVERHEAD_READS - 1, 0.5);
    timer->resolution_ticks = smallest_step > 0 ? smallest_step : 1;
}

lop_status_t lop_timer_init(lop_timer_t *timer)
{
    uint64_t start = lop_timer_clock_ns();
    memset(timer, 0, sizeof *timer);
    timer->kind = choose_kind();
    calibrate_rate(timer);
    measure_overhead(timer);
    timer->calibration_s = (double)(lop_timer_clock_ns() - start) * 1e-9;
    return LOP_OK;
}

void lop_timer_spin_us(const lop_timer_t *timer, double us)
{
    uint64_t start = lop_timer_now(timer);
    while (lop_timer_us(timer, lop_timer_now(timer) - start) < us)
        ;
}

void lop_timer_describe(const lop_timer_t *timer, char *buf, size_t len)
{
    snprintf(buf, len, "%s %.3f MHz overhead %.1f ticks (%.1f ns) resolution %.1f ticks",
             lop_timer_kind_name(timer->kind), timer->hz * 1e-6, timer->overhead_ticks,
             timer->overhead_ticks * 1e9 / timer->hz, timer->resolution_ticks);
}
