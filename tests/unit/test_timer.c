/* Timer: a plausible calibrated rate, monotonic reads, sane self-measurement. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "timer.h"

static void check_timer(const char *label)
{
    lop_timer_t t;
    ok(lop_timer_init(&t) == LOP_OK, "%s: init", label);
    ok(t.hz >= 1e6 && t.hz <= 1e11, "%s: rate %.0f Hz is between 1 MHz and 100 GHz", label, t.hz);
    ok(t.calibration_s > 0 && t.calibration_s < 1.0, "%s: calibration took %.3f s (< 1 s)",
       label, t.calibration_s);
    ok(t.overhead_ticks >= 0 && t.resolution_ticks >= 1, "%s: overhead %.1f, resolution %.1f",
       label, t.overhead_ticks, t.resolution_ticks);

    int monotonic = 1;
    uint64_t prev = lop_timer_now(&t);
    for (int i = 0; i < 100000; i++) {
        uint64_t now = lop_timer_now(&t);
        monotonic &= now >= prev;
        prev = now;
    }
    ok(monotonic, "%s: 100000 consecutive reads never go backwards", label);

    /* The counter must agree with the reference clock over a 20 ms sleep
     * (a loose bound: this checks the conversion, not the machine). */
    uint64_t c0 = lop_timer_clock_ns(), t0 = lop_timer_now(&t);
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL);
    double timer_us = lop_timer_us(&t, lop_timer_now(&t) - t0);
    double clock_us = (double)(lop_timer_clock_ns() - c0) / 1e3;
    ok(timer_us > 0.5 * clock_us && timer_us < 2.0 * clock_us,
       "%s: 20 ms sleep reads %.0f us on the timer, %.0f us on the clock", label, timer_us,
       clock_us);
    char line[256];
    lop_timer_describe(&t, line, sizeof line);
    ok(strstr(line, lop_timer_kind_name(t.kind)) == line, "%s: describe() names the kind: %s",
       label, line);
}

/* The cpuinfo flag test matches whole words only. */
static void check_flags(void)
{
    const char *line = "flags\t\t: fpu tsc constant_tsc nonstop_tsc_s3 rdtscp\n";
    ok(lop_timer_has_flag(line, "constant_tsc"), "flags: constant_tsc found");
    ok(!lop_timer_has_flag(line, "nonstop_tsc"), "flags: nonstop_tsc is not nonstop_tsc_s3");
    ok(lop_timer_has_flag(line, "tsc") && lop_timer_has_flag(line, "fpu"),
       "flags: tsc found as a word (not only inside constant_tsc), fpu after the colon");
    ok(lop_timer_has_flag(line, "rdtscp"), "flags: the last word, before the newline");
    ok(!lop_timer_has_flag(line, "rdtsc") && !lop_timer_has_flag(line, "stant_tsc"),
       "flags: no prefix or suffix of a word");
    ok(lop_timer_has_flag("flags: a nonstop_tsc_s3 nonstop_tsc", "nonstop_tsc"),
       "flags: a whole word after a longer one, at the end without newline");
    ok(!lop_timer_has_flag(line, ""), "flags: the empty flag is never present");
}

int main(void)
{
    check_flags();
    check_timer("best counter");
    setenv("LOP_TIMER", "clock", 1);
    check_timer("forced clock");
    lop_timer_t t;
    lop_timer_init(&t);
    ok(t.kind == LOP_TIMER_CLOCK && t.hz == 1e9, "LOP_TIMER=clock selects the 1 GHz ns clock");
    return tap_done();
}
