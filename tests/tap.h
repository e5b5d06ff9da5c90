/*
 * tap.h - a minimal Test Anything Protocol emitter for the C unit tests.
 *
 *   ok(cond, "name %d", i);     one test point
 *   is_num(got, want, tol, "name");  numeric comparison, prints both on failure
 *   return tap_done();          prints the plan, exit status 0 only if all passed
 */
#ifndef LOP_TAP_H
#define LOP_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3), unused)) static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_count++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (!cond)
        tap_failed++;
    fflush(stdout);
    return cond;
}

__attribute__((format(printf, 4, 5), unused)) static int is_num(double got, double want,
                                                                 double tol, const char *fmt, ...)
{
    char name[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    int pass = fabs(got - want) <= tol || (isnan(got) && isnan(want));
    ok(pass, "%s", name);
    if (!pass)
        printf("#   got %.12g, want %.12g (tolerance %g)\n", got, want, tol);
    return pass;
}

__attribute__((unused)) static void diag(const char *msg)
{
    printf("# %s\n", msg);
}

__attribute__((unused)) static int tap_done(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}

#endif
