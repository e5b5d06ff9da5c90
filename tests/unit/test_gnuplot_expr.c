/*
 * test_gnuplot_expr.c - every model descriptor's gnuplot expression
 * (lop_model_t.gnuplot, printed by lopfit --gnuplot-expr and used by
 * fit/compare-gnuplot.sh) evaluated by gnuplot itself at several p, against
 * the descriptor's C function: the two definitions cannot drift apart.
 *
 * The λ are given to gnuplot as real(...), so no integer division can hide
 * in an expression; the values go both ways with 17 significant digits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "tap.h"

#define N_P 7

/* Parameter values with every term visible on p = 1..64 (the pole left of
 * 1, a saturation rate that changes the curve, a gauge not at 1; as the
 * bucket's knot l4 = 3.5 is one of ps, with points on both sides). */
static const double lambda[LOP_MODEL_MAX_PARAMS] = {20.5, 0.3, 5.25, 3.5, -0.08, 1.5};
static const double ps[N_P] = {1, 2, 3.5, 7, 16, 63, 64};

/* gnuplot's values of the model's expression at ps[], or 0 on failure. */
static int gnuplot_values(const lop_model_t *m, double *out)
{
    char path[] = "/tmp/lop-test-gnuplot-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return 0;
    for (int j = 0; j < m->n_params; j++)
        fprintf(f, "l%d = real(%.17g)\n", j + 1, lambda[j]);
    fprintf(f, "f(x) = %s\n", m->gnuplot);
    for (int i = 0; i < N_P; i++)
        fprintf(f, "print sprintf('%%.17g', f(real(%.17g)))\n", ps[i]);
    fclose(f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "gnuplot %s 2>&1", path);
    FILE *g = popen(cmd, "r");
    int n = 0;
    char line[256];
    while (g && fgets(line, sizeof line, g))
        if (n < N_P && sscanf(line, "%lf", &out[n]) == 1)
            n++;
        else
            printf("# gnuplot: %s", line);
    int rc = g ? pclose(g) : -1;
    remove(path);
    return rc == 0 && n == N_P;
}

int main(void)
{
    int n_models = 0;
    for (const lop_model_t *const *mp = lop_models; *mp; mp++, n_models++) {
        const lop_model_t *m = *mp;
        double got[N_P];
        ok(m->gnuplot != NULL, "%s: has a gnuplot expression ('%s')", m->name,
           m->gnuplot ? m->gnuplot : "");
        if (!m->gnuplot || !ok(gnuplot_values(m, got), "%s: gnuplot evaluates it", m->name))
            continue;
        for (int i = 0; i < N_P; i++) {
            double want = m->eval(lambda, ps[i]);
            is_num(got[i], want, 1e-13 * fmax(1, fabs(want)), "%s at p = %g: gnuplot = C eval",
                   m->name, ps[i]);
        }
        /* every parameter the model has appears in it (a fit via l1..lk) */
        for (int j = 0; j < m->n_params; j++) {
            char expr[256];
            snprintf(expr, sizeof expr, "l%d", j + 1);
            ok(strstr(m->gnuplot, expr) != NULL, "%s: the expression uses %s", m->name, expr);
        }
    }
    ok(n_models >= 6, "%d descriptors checked", n_models);
    return tap_done();
}
