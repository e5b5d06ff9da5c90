/*
 * timer.h - a cycle-accurate timer for microbenchmarks (thesis 4.3.2 uses
 * RDTSC the same way).
 *
 * Sources, best first:
 *   tsc      x86-64 time stamp counter, read with rdtscp (ordered after the
 *            preceding loads) and lfence (nothing later starts before it);
 *            used only when /proc/cpuinfo says constant_tsc and nonstop_tsc,
 *            so that ticks are wall time whatever the core's frequency;
 *   cntvct   aarch64 virtual counter (fixed frequency by architecture);
 *   clock    clock_gettime(CLOCK_MONOTONIC_RAW), nanoseconds, everywhere else
 *            or when forced with LOP_TIMER=clock.
 * The tick rate is calibrated against CLOCK_MONOTONIC_RAW over a few short
 * windows (tens of milliseconds in all), not taken from "cpu MHz", which is
 * the core clock and not the counter's.
 */
#ifndef LOP_TIMER_H
#define LOP_TIMER_H

#include <stdint.h>
#include <time.h>

#include "lop.h"

typedef enum {
    LOP_TIMER_CLOCK = 0, /* clock_gettime(CLOCK_MONOTONIC_RAW), ticks = ns */
    LOP_TIMER_TSC,       /* x86-64 rdtscp + lfence */
    LOP_TIMER_CNTVCT     /* aarch64 cntvct_el0 */
} lop_timer_kind_t;

typedef struct {
    lop_timer_kind_t kind;    /* which counter lop_timer_now() reads */
    double hz;                /* calibrated ticks per second */
    double overhead_ticks;    /* median cost of one lop_timer_now() call */
    double resolution_ticks;  /* smallest non-zero step seen between reads */
    double calibration_s;     /* wall time spent in lop_timer_init() */
} lop_timer_t;

/* Pick the best counter and calibrate it.  Never fails: falls back to clock. */
lop_status_t lop_timer_init(lop_timer_t *timer);

/* LOP_TIMER is unset, empty or "clock"; anything else is refused, naming it
 * (a misspelt value would leave the cycle counter in use without a word). */
lop_status_t lop_timer_env_check(void);

/* Name of the counter ("tsc", "cntvct", "clock"). */
const char *lop_timer_kind_name(lop_timer_kind_t kind);

static inline uint64_t lop_timer_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Seconds on CLOCK_MONOTONIC_RAW, for wall times of whole runs. */
static inline double lop_timer_clock_s(void)
{
    return 1e-9 * (double)lop_timer_clock_ns();
}

/* Current tick count of the counter the timer was initialised with. */
static inline uint64_t lop_timer_now(const lop_timer_t *timer)
{
    switch (timer->kind) {
#if defined(__x86_64__)
    case LOP_TIMER_TSC: {
        uint32_t lo, hi, aux;
        __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
        return ((uint64_t)hi << 32) | lo;
    }
#elif defined(__aarch64__)
    case LOP_TIMER_CNTVCT: {
        uint64_t v;
        __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
        return v;
    }
#endif
    default:
        return lop_timer_clock_ns();
    }
}

/* Convert a tick difference to microseconds. */
static inline double lop_timer_us(const lop_timer_t *timer, uint64_t ticks)
{
    return (double)ticks * 1e6 / timer->hz;
}

/* Busy-wait for 'us' microseconds (the thesis's idle gap between repetitions). */
void lop_timer_spin_us(const lop_timer_t *timer, double us);

/* Does the /proc/cpuinfo "flags" line 'line' list 'flag' as a whole word?
 * ("nonstop_tsc" is not found in "... nonstop_tsc_s3 ...") */
int lop_timer_has_flag(const char *line, const char *flag);

/* One line describing the timer, e.g. "tsc 2994.4 MHz overhead 24.1 ticks (8.0 ns)". */
void lop_timer_describe(const lop_timer_t *timer, char *buf, size_t len);

#endif
