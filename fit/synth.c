/* synth.c - lopfit --synth: lopbench-format data made from a parameter set
 * (fitout.h). */
#include "fitout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fmt_series.h"

/* Is 'f' the first row of its series and quantity? */
static int first_of_series(const lop_paramset_t *set, const lop_fit_t *f)
{
    for (const lop_fit_t *g = set->fit; g < f; g++)
        if (!strcmp(g->series, f->series) && !strcmp(g->quantity, f->quantity))
            return 0;
    return 1;
}

/* The noise factor 1 + R·N(0,1), truncated to > 0: a time with noise stays a
 * time lopfit reads back (it refuses negative ones).  Redrawn, not clipped,
 * so small R (never near a crossing) keeps the same stream; for R <= 1 at
 * most 16 % of the draws are redrawn. */
static double noise_factor(double noise, gsl_rng *rng)
{
    double f;
    do
        f = 1 + noise * gsl_ran_gaussian(rng, 1.0);
    while (!(f > 0));
    return f;
}

/* The additive noise S·N(0,1) of a value v > 0, redrawn until v stays
 * positive; none (and no draw) when S is 0. */
static double noise_added(double v, double s, gsl_rng *rng)
{
    double e = 0;
    if (s > 0)
        do
            e = gsl_ran_gaussian(rng, s);
        while (!(v + e > 0));
    return v + e;
}

/* One statistic of row p: the fit's value with noise, NaN (an empty cell)
 * without a fit.  A value lopfit would not read back (negative, not finite,
 * outside its range of times) is refused: the files are lopfit's input. */
static lop_status_t synth_value(const char *path, const lop_fit_t *fit, int p,
                                const lop_synth_noise_t *noise, gsl_rng *rng, double *us)
{
    *us = NAN;
    if (!fit)
        return LOP_OK;
    double v = lop_fit_eval(fit, p) * noise_factor(noise->rel, rng);
    const char *why = !isfinite(v) ? "not finite" : v < 0 ? "negative" : NULL;
    if (!why)
        *us = noise_added(v, noise->us, rng);
    if (!why && !lop_fmt_series_time_ok(*us))
        why = lop_fmt_series_time_why;
    if (why)
        return lop_err(LOP_ERR_RANGE, "option --synth: %s: series '%s' %s %s: the time at p = %d, "
                       "%g us, is %s", path, fit->series, fit->quantity, fit->stat, p,
                       isfinite(*us) ? *us : v, why);
    return LOP_OK;
}

/* Row p: no samples behind it (n empty), the statistics with a fit, p99,
 * max and stddev empty. */
static lop_status_t synth_row(lop_out_t *t, const char *path, const lop_fit_t *const *by_stat,
                              int p, const lop_synth_noise_t *noise, gsl_rng *rng)
{
    lop_fmt_series_row_t row = {p, 0, NAN, NAN, NAN, NAN, NAN, NAN};
    double *stat_us[LOP_FMT_SERIES_STATS] = {&row.min, &row.avg, &row.median};
    lop_status_t st = LOP_OK;
    for (int s = 0; s < LOP_FMT_SERIES_STATS && st == LOP_OK; s++)
        st = synth_value(path, by_stat[s], p, noise, rng, stat_us[s]);
    return st ? st : lop_fmt_series_row(t, &row);
}

static lop_status_t synth_file(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                               const lop_fit_t *f, const lop_synth_noise_t *noise,
                               unsigned long seed, gsl_rng *rng)
{
    const lop_fit_t *by_stat[LOP_FMT_SERIES_STATS] = {NULL};
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; lop_fmt_series_stats[s]; s++) {
        by_stat[s] = lop_paramset_find(set, f->series, f->quantity, lop_fmt_series_stats[s]);
        if (by_stat[s]) {
            lo = fmin(lo, by_stat[s]->pmin);
            hi = fmax(hi, by_stat[s]->pmax);
        }
    }
    char name[LOP_FMT_SERIES_NAME_LEN];
    lop_csv_writer_t *w;
    lop_out_t t;
    lop_fmt_series_file_name(name, f->series, f->quantity, 0);
    lop_status_t st = lop_fitout_batch_open(b, dir, name, &w);
    if (st)
        return st;
    lop_fmt_series_synth_meta(w, f->series, f->quantity);
    char rel_s[LOP_OUT_NUM_LEN], us_s[LOP_OUT_NUM_LEN];
    lop_out_format_csv(rel_s, noise->rel);
    if (noise->us > 0)
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, additive noise %s us, "
                     "seed %lu)", set->path, rel_s, lop_out_format_csv(us_s, noise->us), seed);
    else
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, seed %lu)", set->path,
                     rel_s, seed);
    st = lop_fmt_series_header(&t, w, 0);
    if (st)
        return st;
    for (int p = (int)ceil(lo); p <= (int)floor(hi) && st == LOP_OK; p++)
        st = synth_row(&t, set->path, by_stat, p, noise, rng);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* Every stat of 'set' must be a column lopbench writes (else its rows would
 * go nowhere and the file's p range would be empty). */
static lop_status_t check_synth_stats(const lop_paramset_t *set)
{
    char names[64] = "";
    for (int s = 0; lop_fmt_series_stats[s]; s++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", s ? ", " : "",
                 lop_fmt_series_stats[s]);
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        int known = 0;
        for (int s = 0; lop_fmt_series_stats[s]; s++)
            known |= strcmp(f->stat, lop_fmt_series_stats[s]) == 0;
        if (!known)
            return lop_err(LOP_ERR_INVALID, "%s: series '%s' %s: stat '%s' is not a column of "
                           "lopbench's files (%s), cannot synthesise it", set->path, f->series,
                           f->quantity, f->stat, names);
    }
    return LOP_OK;
}

lop_status_t lop_fitout_synth(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                              const lop_synth_noise_t *noise, unsigned long seed)
{
    lop_status_t checked = check_synth_stats(set);
    if (checked)
        return checked;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return lop_err(LOP_ERR_NOMEM, "out of memory for a random generator");
    gsl_rng_set(rng, seed);
    lop_status_t st = LOP_OK;
    /* a derived quantity (a round) has no file: lopfit derives it again */
    for (size_t i = 0; i < set->n && st == LOP_OK; i++)
        if (first_of_series(set, &set->fit[i]) &&
            !lop_fmt_series_derived_find(set->fit[i].quantity))
            st = synth_file(b, dir, set, &set->fit[i], noise, seed, rng);
    gsl_rng_free(rng);
    return st;
}
