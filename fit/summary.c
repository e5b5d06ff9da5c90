/* summary.c - a long series summarised for the global search (summary.h). */
#include "summary.h"

#include <math.h>
#include <stdlib.h>

/* Which of 'bins' runs p falls in: s(p) of summary.h, scaled. */
static size_t bin_of(double p, double pmin, double pmax, size_t bins)
{
    double s = 0.5 * log(p / pmin) / log(pmax / pmin) + 0.5 * (p - pmin) / (pmax - pmin);
    size_t b = (size_t)(s * (double)bins);
    return b < bins ? b : bins - 1;
}

void lop_summary_free(lop_summary_t *s)
{
    free(s->p);
    free(s->y);
    free(s->sw);
    s->p = s->y = s->sw = NULL;
    s->n = 0;
}

/* A run of points as one: the weighted means (a run of one point exactly as
 * it is, its weight too). */
typedef struct {
    size_t count, first; /* points in the run; index of its first point */
    double w, wp, wy;    /* Σ w, Σ w·p, Σ w·y (w = sw²) */
} run_t;

static void emit(const run_t *r, const double *p, const double *y, const double *sw,
                 lop_summary_t *s)
{
    s->p[s->n] = r->count == 1 ? p[r->first] : r->wp / r->w;
    s->y[s->n] = r->count == 1 ? y[r->first] : r->wy / r->w;
    s->sw[s->n++] = r->count == 1 ? sw[r->first] : sqrt(r->w);
}

lop_status_t lop_summary_make(const double *p, const double *y, const double *sw,
                              const size_t *order, size_t n, size_t bins, lop_summary_t *s)
{
    size_t cap = n < bins ? n : bins;
    s->n = 0;
    s->p = lop_calloc(cap, sizeof *s->p);
    s->y = lop_calloc(cap, sizeof *s->y);
    s->sw = lop_calloc(cap, sizeof *s->sw);
    if (!s->p || !s->y || !s->sw) {
        lop_summary_free(s);
        return LOP_ERR_NOMEM;
    }
    double pmin = p[order ? order[0] : 0], pmax = p[order ? order[n - 1] : n - 1];
    run_t r = {0};
    size_t bin = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = order ? order[k] : k, b = n <= bins ? k : bin_of(p[i], pmin, pmax, bins);
        if (k > 0 && b != bin) {
            emit(&r, p, y, sw, s);
            r = (run_t){0};
        }
        if (r.count++ == 0)
            r.first = i;
        bin = b;
        double w = sw[i] * sw[i];
        r.w += w;
        r.wp += w * p[i];
        r.wy += w * y[i];
    }
    emit(&r, p, y, sw, s);
    return LOP_OK;
}
