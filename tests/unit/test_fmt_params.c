/*
 * test_fmt_params.c - params.csv (src/fmt_params.h): lopfit's writer and
 * lop_fmt_params_read give back the same bits, the header and metadata as
 * lopfit always wrote them; files without the covariance, weak and
 * selection columns (the thesis's set) still read; a bad covariance, weak or
 * selection cell is a file:line error.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fitout.h"
#include "fitter.h"
#include "fixture.h"
#include "fmt_params.h"
#include "tap.h"

#define N_POINTS 40

/* params.csv's header as lopfit has always written it. */
static const char header[] =
    "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,"
    "se1,se2,se3,se4,se5,se6,"
    "cov11,cov12,cov13,cov14,cov15,cov16,cov22,cov23,cov24,cov25,cov26,cov33,cov34,cov35,"
    "cov36,cov44,cov45,cov46,cov55,cov56,cov66,weak,hint,criterion,k,aicc,bic,margin";

/* The column table is that header, then --csv's fit_ms. */
static void check_header(void)
{
    char joined[2048] = "";
    for (int i = 0; i < LOP_FMT_PARAMS_COLUMNS; i++) {
        strcat(joined, i ? "," : "");
        strcat(joined, lop_fmt_params_columns[i].name);
    }
    ok(strcmp(joined, header) == 0, "lop_fmt_params_columns: params.csv's header");
    ok(strcmp(lop_fmt_params_columns[LOP_FMT_PARAMS_COLUMNS].name, "fit_ms") == 0,
       "--csv's extra column fit_ms comes last");
}

/* A fit of 'model' to noisy data of 'truth', named for params.csv. */
static void make_fit(const lop_model_t *model, const double *truth, const char *quantity,
                     const char *stat, lop_fit_t *fit)
{
    double p[N_POINTS], y[N_POINTS];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    for (int i = 0; i < N_POINTS; i++) {
        p[i] = i + 1;
        y[i] = model->eval(truth, p[i]) + gsl_ran_gaussian(rng, 0.05);
    }
    gsl_rng_free(rng);
    memset(fit, 0, sizeof *fit);
    ok(lop_fitter_run(model, p, y, N_POINTS, &lop_fitter_defaults, fit, NULL) == LOP_OK,
       "fit %s %s %s", model->name, quantity, stat);
    snprintf(fit->file, sizeof fit->file, "test");
    snprintf(fit->series, sizeof fit->series, "send-normal");
    snprintf(fit->quantity, sizeof fit->quantity, "%s", quantity);
    snprintf(fit->stat, sizeof fit->stat, "%s", stat);
}

/* fixture_dir/params.csv, as lopfit -o writes it. */
static int write_set(const lop_fit_t *fits, size_t n)
{
    lop_fitout_batch_t batch = {0};
    lop_status_t st = lop_fitout_params(&batch, fixture_dir, fits, n, NULL);
    return lop_fitout_batch_end(&batch, st) == LOP_OK;
}

static int same_bits(const void *a, const void *b, size_t len)
{
    return memcmp(a, b, len) == 0;
}

static char *slurp(const char *path)
{
    static char buf[3][65536];
    static int which;
    char *out = buf[which++ % 3];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, sizeof buf[0] - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    return out;
}

static void check_round_trip(void)
{
    static const double rtt_truth[] = {20, 0.2, 5, 3, -0.08, 1}, ov_truth[] = {0.5, 0.8, -0.1};
    static const double const_truth[] = {7};
    lop_fit_t fits[3];
    make_fit(&lop_model_rtt, rtt_truth, "rtt", "min", &fits[0]);
    make_fit(&lop_model_ov, ov_truth, "os", "min", &fits[1]);
    make_fit(&lop_model_const, const_truth, "rtt", "avg", &fits[2]);
    snprintf(fits[0].criterion, sizeof fits[0].criterion, "aicc");
    fits[0].k = 6;
    fits[0].aicc = -123.456789012345678;
    fits[0].bic = -110.1;
    fits[0].margin = INFINITY;
    snprintf(fits[1].criterion, sizeof fits[1].criterion, "forced");
    fits[1].k = 4;
    fits[1].aicc = 1.0 / 3.0;
    fits[1].bic = NAN;
    fits[1].margin = NAN;
    fits[2].has_cov = 0; /* a row without covariance among rows with one */
    ok(fits[0].has_cov && fits[1].has_cov, "the rtt and ov fits have a covariance");
    ok(write_set(fits, 3), "write params.csv");
    lop_paramset_t set;
    lop_status_t st = lop_fmt_params_read(fixture_path("params.csv"), &set);
    ok(st == LOP_OK && set.n == 3, "read it back %s", st ? lop_errmsg() : "");
    if (st)
        return;
    for (int i = 0; i < 3; i++) {
        const lop_fit_t *a = &fits[i], *b = &set.fit[i];
        ok(a->model == b->model && same_bits(a->lambda, b->lambda, sizeof a->lambda),
           "row %d: model and λ exact", i + 1);
        ok(a->has_cov == b->has_cov && (!a->has_cov || same_bits(a->cov, b->cov, sizeof a->cov)),
           "row %d: has_cov %d and every covariance bit", i + 1, b->has_cov);
        ok(same_bits(a->weak, b->weak, sizeof a->weak) ||
               lop_fitter_hint(a) == lop_fitter_hint(b),
           "row %d: weak parameters and hint as written", i + 1);
        ok(strcmp(a->criterion, b->criterion) == 0 && a->k == b->k,
           "row %d: criterion '%s', k %d", i + 1, b->criterion, b->k);
    }
    ok(same_bits(&fits[0].aicc, &set.fit[0].aicc, sizeof(double)) &&
           same_bits(&fits[0].bic, &set.fit[0].bic, sizeof(double)) &&
           isinf(set.fit[0].margin) && set.fit[0].margin > 0,
       "aicc, bic exact, margin inf");
    ok(isnan(set.fit[1].bic) && isnan(set.fit[1].margin), "undefined bic, forced margin: NaN");
    /* written again from what was read: the same file */
    for (size_t i = 0; i < set.n; i++)
        snprintf(set.fit[i].file, sizeof set.fit[i].file, "test");
    char first[65536], start[2200];
    snprintf(first, sizeof first, "%s", slurp(fixture_path("params.csv")));
    snprintf(start, sizeof start, "# lopfit: %s\n# unit: us\n%s\n", LOP_VERSION, header);
    ok(strncmp(first, start, strlen(start)) == 0, "metadata and header as lopfit writes them");
    ok(write_set(set.fit, set.n), "write the set read");
    ok(strcmp(first, slurp(fixture_path("params.csv"))) == 0, "the same params.csv again");
    lop_paramset_free(&set);
}

/* A weak parameter round trip: the reason is rebuilt from the row. */
static void check_weak(void)
{
    lop_fit_t f;
    memset(&f, 0, sizeof f);
    f.model = &lop_model_ov;
    f.n = 10;
    f.pmin = 1;
    f.pmax = 10;
    f.lambda[0] = 1, f.lambda[1] = 0.001, f.lambda[2] = 0.5;
    f.se[0] = 0.1, f.se[1] = 0.01, f.se[2] = NAN;
    f.weak[1] = LOP_FIT_WEAK_SE;
    f.weak[2] = LOP_FIT_WEAK_SINGULAR;
    f.ssr = f.rmse = f.r2 = NAN;
    snprintf(f.file, sizeof f.file, "w");
    snprintf(f.series, sizeof f.series, "send-normal");
    snprintf(f.quantity, sizeof f.quantity, "os");
    snprintf(f.stat, sizeof f.stat, "min");
    ok(write_set(&f, 1), "write a fit with weak l2 (SE) and l3 (singular)");
    lop_paramset_t set;
    lop_status_t st = lop_fmt_params_read(fixture_path("params.csv"), &set);
    ok(st == LOP_OK && set.fit[0].weak[0] == 0 && set.fit[0].weak[1] == LOP_FIT_WEAK_SE &&
           set.fit[0].weak[2] == LOP_FIT_WEAK_SINGULAR &&
           lop_fitter_hint(&set.fit[0]) == LOP_HINT_MORE_P,
       "weak l2+l3 read back as SE and SINGULAR, hint more-p");
    if (st == LOP_OK)
        lop_paramset_free(&set);
}

/* data/mozart-2005/params.csv has none of the new columns. */
static void check_old_file(void)
{
    lop_paramset_t set;
    lop_status_t st = lop_fmt_params_read("data/mozart-2005/params.csv", &set);
    ok(st == LOP_OK && set.n > 0, "the thesis's params.csv (no covariance columns) reads");
    if (st)
        return;
    int none = 1;
    for (size_t i = 0; i < set.n; i++) {
        const lop_fit_t *f = &set.fit[i];
        none &= !f->has_cov && f->criterion[0] == '\0' && f->k == 0 && isnan(f->margin);
        for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++)
            none &= f->weak[j] == 0;
    }
    ok(none, "every row: has_cov 0, nothing weak, criterion unknown");
    lop_paramset_free(&set);
}

/* A row of the params.csv columns with the ov fit's l1,l2,l3 ('lambda'),
 * the given covariance and tail cells. */
static void bad_file(const char *name, const char *lambda, const char *cov, const char *tail,
                     const char *want)
{
    char text[4096];
    snprintf(text, sizeof text,
             "%s\nt,send-normal,os,min,ov,10,1,10,%s,,,,,,,,,,,,,%s,%s\n",
             header, lambda, cov, tail);
    fixture_file_write(name, text);
    lop_paramset_t set;
    char where[600];
    snprintf(where, sizeof where, "%s:2: ", fixture_path(name));
    lop_status_t st = lop_fmt_params_read(fixture_path(name), &set);
    ok(st != LOP_OK && strncmp(lop_errmsg(), where, strlen(where)) == 0 &&
           strstr(lop_errmsg(), want) && !strchr(lop_errmsg(), '\n'),
       "%s: %s", name, lop_errmsg());
    if (st == LOP_OK)
        lop_paramset_free(&set);
}

/* A covariance column missing from the header is named, on the header's
 * line (once "1 of the 21 covariance cells are empty"). */
static void missing_cov_column(void)
{
    char head[sizeof header], text[4096], want[600];
    snprintf(head, sizeof head, "%s", header);
    char *cov34 = strstr(head, "cov34,");
    memmove(cov34, cov34 + 6, strlen(cov34 + 6) + 1);
    snprintf(text, sizeof text, "%s\nt,send-normal,os,min,ov,10,1,10,1,2,0.5,,,,,,,,,,,,,"
             "1,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,,none,aicc,4,1,2,3\n", head);
    fixture_file_write("nocov34.csv", text);
    lop_paramset_t set;
    snprintf(want, sizeof want, "%s:1: no column 'cov34' beside the other covariance columns",
             fixture_path("nocov34.csv"));
    lop_status_t st = lop_fmt_params_read(fixture_path("nocov34.csv"), &set);
    ok(st == LOP_ERR_PARSE && strncmp(lop_errmsg(), want, strlen(want)) == 0,
       "a missing covariance column named: %s", lop_errmsg());
    if (st == LOP_OK)
        lop_paramset_free(&set);
}

static void check_bad(void)
{
    missing_cov_column();
    /* upper triangle of an ov fit: cov11..16, 22..26, 33..36, 44..46, 55, 56, 66 */
    const char *good = "1,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0", *L = "1,2,0.5";
    bad_file("partial.csv", L, "1,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,", ",none,aicc,4,1,2,3",
             "cov66 is empty: the 21 covariance cells cov11..cov66 are all filled or all");
    bad_file("partial2.csv", L, "1,0,0,0,0,0,1,0,0,0,0,1,,0,0,0,0,0,0,0,", ",none,aicc,4,1,2,3",
             "cov34 and 1 more of the 21 covariance cells cov11..cov66 are empty");
    bad_file("not-psd.csv", L, "1,0,0,0,0,0,1,0,0,0,0,-4,0,0,0,0,0,0,0,0,0", ",none,aicc,4,1,2,3",
             "not positive semi-definite");
    bad_file("not-psd2.csv", L, "1,5,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0", ",none,aicc,4,1,2,3",
             "not positive semi-definite");
    bad_file("unused.csv", L, "1,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0.5", ",none,aicc,4,1,2,3",
             "cov66 = 0.5: the ov model does not fit l6");
    bad_file("nan.csv", L, "1,0,0,0,0,0,1,0,nan,0,0,1,0,0,0,0,0,0,0,0,0", ",none,aicc,4,1,2,3",
             "column 'cov24'");
    bad_file("weak.csv", L, good, "l4,more-p,aicc,4,1,2,3", "weak: 'l4' is not a parameter");
    bad_file("hint.csv", L, good, ",more,aicc,4,1,2,3", "hint 'more'");
    bad_file("criterion.csv", L, good, ",none,aic,4,1,2,3", "criterion 'aic'");
    bad_file("k.csv", L, good, ",none,aicc,2.5,1,2,3", "k = 2.5");
    bad_file("margin.csv", L, good, ",none,aicc,4,1,2,x", "column 'margin'");
    /* a fit no data lopfit fits give: predictions from it are rounding */
    bad_file("huge.csv", "1e200,2,0.5", good, ",none,aicc,4,1,2,3",
             "the fit at p = 1 is 1e+200 us, larger than any time lopfit fits (1e+100 us)");
    bad_file("huge-negative.csv", "1,-1e101,0.5", good, ",none,aicc,4,1,2,3",
             "the fit at p = 1 is -6.66667e+100 us, larger than any time");
}

/* The pole check shared by the fitter and the readers: rtt's pole is -l2,
 * ov's -l3; it must lie at least LOP_MODEL_POLE_MIN left of pmin. */
static void check_poles(void)
{
    const double rtt_out[6] = {15, 0.5, 3, 6, -0.05, 1}, rtt_in[6] = {15, -1.5, 3, 6, -0.05, 1};
    const double ov_in[3] = {1, 1, -2}, ov_out[3] = {1, 1, 0};
    ok(lop_model_poles_outside(lop_model_find("rtt"), rtt_out, 1), "rtt: pole -0.5 left of p=1");
    ok(!lop_model_poles_outside(lop_model_find("rtt"), rtt_in, 1), "rtt: pole 1.5 inside p>=1");
    ok(!lop_model_poles_outside(lop_model_find("ov"), ov_in, 1), "ov: pole 2 inside p>=1");
    ok(lop_model_poles_outside(lop_model_find("ov"), ov_out, 1), "ov: pole 0 left of p=1");
}

int main(void)
{
    if (fixture_dir_make("fmt-params") != 0) {
        ok(0, "make a temporary directory");
        return tap_done();
    }
    check_header();
    check_round_trip();
    check_weak();
    check_old_file();
    check_bad();
    check_poles();
    fixture_dir_remove();
    return tap_done();
}
