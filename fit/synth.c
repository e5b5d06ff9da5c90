/* synth.c - lopfit --synth: lopbench-format data made from a parameter set
 * (fitout.h). */
#include "fitout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fitdata.h"

/* Is 'f' the first row of its series and quantity? */
static int first_of_series(const lop_paramset_t *set, const lop_fit_t *f)
{
    for (const lop_fit_t *g = set->fit; g < f; g++)
        if (!strcmp(g->series, f->series) && !strcmp(g->quantity, f->quantity))
            return 0;
    return 1;
}

static const lop_out_col_t synth_cols[] = {
    {"p", LOP_OUT_INT, 0},         {"n", LOP_OUT_INT, 0},         {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},    {"median_us", LOP_OUT_NUM, 0}, {"p99_us", LOP_OUT_NUM, 0},
    {"max_us", LOP_OUT_NUM, 0},    {"stddev_us", LOP_OUT_NUM, 0},
};

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

/* One stat cell: the fit's value with noise, empty without a fit. */
static lop_status_t synth_cell(lop_out_t *t, const lop_fit_t *fit, int p,
                               const lop_synth_noise_t *noise, gsl_rng *rng)
{
    if (!fit) {
        lop_out_empty(t);
        return LOP_OK;
    }
    double v = lop_fit_eval(fit, p) * noise_factor(noise->rel, rng);
    if (!isfinite(v))
        return lop_err(LOP_ERR_RANGE, "series '%s' %s %s: value at p = %d is not finite",
                       fit->series, fit->quantity, fit->stat, p);
    if (v < 0)
        return lop_err(LOP_ERR_RANGE, "series '%s' %s %s: the time at p = %d is negative (%g)",
                       fit->series, fit->quantity, fit->stat, p, v);
    lop_out_num(t, noise_added(v, noise->us, rng));
    return LOP_OK;
}

static lop_status_t synth_file(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                               const lop_fit_t *f, const lop_synth_noise_t *noise,
                               unsigned long seed, gsl_rng *rng)
{
    const lop_fit_t *by_stat[8] = {NULL};
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; lop_fitdata_stats[s]; s++) {
        by_stat[s] = lop_paramset_find(set, f->series, f->quantity, lop_fitdata_stats[s]);
        if (by_stat[s]) {
            lo = fmin(lo, by_stat[s]->pmin);
            hi = fmax(hi, by_stat[s]->pmax);
        }
    }
    char name[256];
    lop_csv_writer_t *w;
    lop_out_t t;
    snprintf(name, sizeof name, "%s-%s.csv", f->series, f->quantity);
    lop_status_t st = lop_fitout_batch_open(b, dir, name, &w);
    if (st)
        return st;
    lop_csv_meta(w, "quantity", "%s", f->quantity);
    lop_csv_meta(w, "series", "%s", f->series);
    lop_csv_meta(w, "unit", "us");
    char rel_s[LOP_OUT_NUM_LEN], us_s[LOP_OUT_NUM_LEN];
    lop_out_format_csv(rel_s, noise->rel);
    if (noise->us > 0)
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, additive noise %s us, "
                     "seed %lu)", set->path, rel_s, lop_out_format_csv(us_s, noise->us), seed);
    else
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, seed %lu)", set->path,
                     rel_s, seed);
    st = lop_out_begin(&t, w->file, w->path, 1, synth_cols, COUNT(synth_cols));
    if (st)
        return st;
    for (int p = (int)ceil(lo); p <= (int)floor(hi) && st == LOP_OK; p++) {
        lop_out_int(&t, p);
        lop_out_empty(&t); /* n: no samples behind a synthetic row */
        for (int s = 0; lop_fitdata_stats[s] && st == LOP_OK; s++)
            st = synth_cell(&t, by_stat[s], p, noise, rng);
        st = st ? st : lop_out_row(&t); /* p99, max, stddev stay empty */
    }
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* Every stat of 'set' must be a column lopbench writes (else its rows would
 * go nowhere and the file's p range would be empty). */
static lop_status_t check_synth_stats(const lop_paramset_t *set)
{
    char names[64] = "";
    for (int s = 0; lop_fitdata_stats[s]; s++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", s ? ", " : "",
                 lop_fitdata_stats[s]);
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        int known = 0;
        for (int s = 0; lop_fitdata_stats[s]; s++)
            known |= strcmp(f->stat, lop_fitdata_stats[s]) == 0;
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
    for (size_t i = 0; i < set->n && st == LOP_OK; i++)
        if (first_of_series(set, &set->fit[i]))
            st = synth_file(b, dir, set, &set->fit[i], noise, seed, rng);
    gsl_rng_free(rng);
    return st;
}
