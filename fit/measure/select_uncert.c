/*
 * select_uncert.c - measure model selection and prediction intervals on
 * synthetic data with a known truth, to see how often the intervals hold
 * it (not a test: it reports numbers, it asserts nothing).  `make bin/measure-select_uncert`.
 *
 *   bin/measure-select_uncert [-s SEEDS] [-r NOISE | -a SIGMA_US] [-m DRAWS] [-w] [-v] [PARAMS]
 *
 * Truth: every series and stat of PARAMS (default data/mozart-2005/params.csv)
 * with an rtt and an os fit.  For N = 4, 7, 15, 63 points p = 1..N and each
 * seed, data are y = t(p)·(1 + NOISE·N(0,1)) (as lopfit --synth makes
 * them; default NOISE 0.01) or, with -a, y = t(p) + SIGMA·N(0,1) (the
 * equal-variance noise the least-squares fit assumes), the rtt and os families are fitted and selected
 * by AICc (fit/fitter.h), and src/uncert.h gives 95 % intervals of L(1),
 * L(64), and the LoP costs of diss and ndiss (n = 2) at P = 64, cnt = 1,
 * from the two chosen fits.  Reported per N: the models chosen, the median
 * AICc margin (Δ of the runner-up), median interval widths, the fraction of
 * truths inside their intervals (coverage) and of draws that were not finite.
 * -w fits with relative weights 1/y² (lopfit --weight rel, fit/fitter.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "barrier.h"
#include "fitter.h"
#include "fmt_params.h"
#include "select.h"
#include "stats.h"
#include "uncert.h"

#define N_SIZES 4
#define N_QTY 4  /* L(1), L(64), diss P=64, ndiss n=2 P=64 */
#define MAX_RUNS 100000

static const int sizes[N_SIZES] = {4, 7, 15, 63};
static const char *const qty_names[N_QTY] = {"L(1)", "L(64)", "diss@64", "ndiss2@64"};

/* A quantity of the LoP set made of fits[0] (rtt) and fits[1] (os). */
static double quantity(const lop_fit_t *const *fits, void *ctx)
{
    int q = *(const int *)ctx;
    lop_view_t lop = {.rtt = fits[0], .os = fits[1], .pmin = 1, .pmax = 64};
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.lop = &lop;
    switch (q) {
    case 0:
        return lop_view_L(&lop, 1);
    case 1:
        return lop_view_L(&lop, 64);
    case 2:
        return barrier_alg_find("diss")->lop_us(&c, 64, 1);
    default:
        return barrier_alg_find("ndiss")->lop_us(&c, 64, 2);
    }
}

typedef struct {
    int runs;
    int chosen_rtt[LOP_FAMILY_MAX], chosen_os[LOP_FAMILY_MAX];
    double *margin_rtt, *margin_os;        /* AICc margins, one per run */
    double *width[N_QTY];                  /* interval widths, us */
    int inside[N_QTY], no_interval[N_QTY]; /* truth inside; no finite draw */
    double nonfinite[N_QTY];               /* sum of non-finite fractions */
} tally_t;

static double median(double *x, int n)
{
    if (n == 0)
        return NAN;
    gsl_sort(x, 1, (size_t)n);
    return lop_stats_quantile_sorted(x, (size_t)n, 0.5);
}

static double abs_sigma; /* -a: additive noise in us instead of relative noise */
static lop_fitter_opts_t fit_opts; /* -w: relative weights */

static void synth(const lop_fit_t *truth, int n, double noise, gsl_rng *rng, double *p, double *y)
{
    for (int i = 0; i < n; i++) {
        double t = lop_fit_eval(truth, i + 1);
        p[i] = i + 1;
        y[i] = abs_sigma > 0 ? t + gsl_ran_gaussian(rng, abs_sigma)
                             : t * (1 + noise * gsl_ran_gaussian(rng, 1.0));
    }
}

static int chosen_index(const lop_selection_t *s)
{
    return s->best;
}

/* One data set: select both fits, intervals of every quantity. */
static int one_run(const lop_view_t *truth, int n, double noise, unsigned long seed,
                   const lop_uncert_opts_t *uo, tally_t *t, int verbose)
{
    double p[64], y[64];
    lop_selection_t srtt, sos;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    synth(truth->rtt, n, noise, rng, p, y);
    lop_status_t st = lop_fitter_select(&lop_family_rtt, LOP_CRIT_AICC, p, y, (size_t)n,
                                        &fit_opts, &srtt);
    synth(truth->os, n, noise, rng, p, y);
    if (st == LOP_OK)
        st = lop_fitter_select(&lop_family_ov, LOP_CRIT_AICC, p, y, (size_t)n,
                               &fit_opts, &sos);
    gsl_rng_free(rng);
    if (st != LOP_OK) {
        fprintf(stderr, "measure: %s\n", lop_errmsg());
        return 0;
    }
    const lop_fit_t *fits[2] = {&srtt.cand[srtt.best].fit, &sos.cand[sos.best].fit};
    const lop_fit_t *tfits[2] = {truth->rtt, truth->os};
    lop_uncert_t *u;
    if (lop_uncert_draw(fits, 2, uo, &u) != LOP_OK) {
        fprintf(stderr, "measure: %s\n", lop_errmsg());
        return 0;
    }
    int r = t->runs++;
    t->chosen_rtt[chosen_index(&srtt)]++;
    t->chosen_os[chosen_index(&sos)]++;
    t->margin_rtt[r] = srtt.margin;
    t->margin_os[r] = sos.margin;
    for (int q = 0; q < N_QTY; q++) {
        lop_interval_t iv;
        double want = quantity(tfits, &q);
        lop_uncert_interval(u, quantity, &q, &iv);
        t->width[q][r] = iv.hi - iv.lo;
        t->inside[q] += iv.lo <= want && want <= iv.hi;
        t->no_interval[q] += isnan(iv.lo);
        t->nonfinite[q] += (double)iv.n_nonfinite / (double)iv.n_draws;
        if (verbose)
            printf("#   N=%d seed %lu %s/%s %s: truth %.4g fit %.4g [%.4g, %.4g]\n", n, seed,
                   fits[0]->model->name, fits[1]->model->name, qty_names[q], want, iv.value,
                   iv.lo, iv.hi);
    }
    lop_uncert_free(u);
    return 1;
}

/* "rtt chosen: rtt 3, rtt-nosat 1, const 0": how often each member of
 * 'family' (in its order, as chosen[] counts them) was chosen. */
static void print_chosen(const char *quantity, const lop_family_t *family, const int *chosen)
{
    printf("%s chosen:", quantity);
    for (int i = 0; i < family->n_members; i++)
        printf("%s %s %d", i == 0 ? "" : ",", family->member[i]->name, chosen[i]);
}

static void report(int n, tally_t *t)
{
    printf("N=%-2d runs %d | ", n, t->runs);
    print_chosen("rtt", &lop_family_rtt, t->chosen_rtt);
    printf("; median AICc margin %.2f | ", median(t->margin_rtt, t->runs));
    print_chosen("os", &lop_family_ov, t->chosen_os);
    printf("; median margin %.2f\n", median(t->margin_os, t->runs));
    for (int q = 0; q < N_QTY; q++)
        printf("      %-10s median 95%% width %10.4g us  coverage %5.1f %%  no interval %d"
               "  non-finite draws %.2f %%\n",
               qty_names[q], median(t->width[q], t->runs), 100.0 * t->inside[q] / t->runs,
               t->no_interval[q], 100.0 * t->nonfinite[q] / t->runs);
}

int main(int argc, char **argv)
{
    int seeds = 20, verbose = 0, opt;
    double noise = 0.01;
    lop_uncert_opts_t uo = lop_uncert_defaults;
    fit_opts = lop_fitter_defaults;
    while ((opt = getopt(argc, argv, "s:r:a:m:wv")) != -1) {
        if (opt == 'w')
            fit_opts.weight = LOP_WEIGHT_REL;
        else if (opt == 'a')
            abs_sigma = atof(optarg);
        else if (opt == 's')
            seeds = atoi(optarg);
        else if (opt == 'r')
            noise = atof(optarg);
        else if (opt == 'm')
            uo.n_draws = (size_t)atol(optarg);
        else if (opt == 'v')
            verbose = 1;
        else
            return 2;
    }
    const char *path = optind < argc ? argv[optind] : "data/mozart-2005/params.csv";
    lop_paramset_t set;
    if (seeds < 1 || seeds > 1000 || lop_fmt_params_read(path, &set) != LOP_OK) {
        fprintf(stderr, "measure: %s\n", seeds < 1 || seeds > 1000 ? "-s 1..1000" : lop_errmsg());
        return 1;
    }
    printf("# truth %s, noise %.3g %s, %d seeds per series, %zu draws, AICc, %s fit\n", path,
           abs_sigma > 0 ? abs_sigma : noise, abs_sigma > 0 ? "us additive" : "relative", seeds,
           uo.n_draws, fit_opts.weight == LOP_WEIGHT_REL ? "weighted 1/y^2" : "unweighted");
    for (int s = 0; s < N_SIZES; s++) {
        tally_t t = {0};
        t.margin_rtt = calloc(MAX_RUNS, sizeof(double));
        t.margin_os = calloc(MAX_RUNS, sizeof(double));
        for (int q = 0; q < N_QTY; q++)
            t.width[q] = calloc(MAX_RUNS, sizeof(double));
        for (size_t i = 0; i < set.n; i++) {
            lop_view_t truth;
            const lop_fit_t *f = &set.fit[i];
            if (strcmp(f->quantity, "rtt") ||
                lop_view_from_set(&set, f->series, f->stat, &truth) != LOP_OK)
                continue;
            for (int k = 1; k <= seeds; k++)
                one_run(&truth, sizes[s], noise, (unsigned long)(1000 * i + (size_t)k), &uo, &t,
                        verbose);
        }
        report(sizes[s], &t);
        free(t.margin_rtt);
        free(t.margin_os);
        for (int q = 0; q < N_QTY; q++)
            free(t.width[q]);
    }
    lop_paramset_free(&set);
    return 0;
}
