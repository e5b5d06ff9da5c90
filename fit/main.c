/*
 * lopfit - least-squares fits of the LoP model functions to lopbench data
 * (thesis 2.3.6.1), and the L(p), o(p) tables derived from them (2.3.4).
 *
 *   lopfit [options] FILE...                fit, print a report, -o DIR writes files
 *   lopfit --from-params FILE -o DIR        the tables of an existing parameter set
 *   lopfit --synth FILE -o DIR [--noise R] [--noise-us S]  lopbench-format data from a
 *                                           parameter set
 *
 * Reading, checking and fitting happen before any file is written; the
 * report is printed here and nowhere else.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "out.h"
#include "csv.h"
#include "fitdata.h"
#include "fitout.h"
#include "fitter.h"
#include "fmt_params.h"
#include "fmt_series.h"
#include "select.h"
#include "lop.h"
#include "model.h"
#include "paramset.h"
#include "timer.h"

#define PROG "lopfit"

typedef struct {
    const char *models;       /* --model spec, or NULL: auto for every quantity */
    lop_criterion_t criterion; /* --criterion */
    const char *stats;        /* --stat */
    int compare;              /* --compare */
    int csv;                  /* --csv */
    const char *out_dir;      /* -o */
    lop_fitter_opts_t fitter; /* --seed, --starts, --weight (default rel) */
    const char *from_params;  /* --from-params */
    const char *synth;        /* --synth */
    const lop_model_t *gnuplot_expr; /* --gnuplot-expr */
    lop_synth_noise_t noise;  /* --noise, --noise-us */
    int help, list_options;   /* --help, --list-options */
    int mode;                 /* the run's, from 'modes' */
} opts_t;

/* The modes, in the order of 'modes': one a run. */
enum { MODE_FIT, MODE_FROM_PARAMS, MODE_SYNTH, MODE_GNUPLOT_EXPR, MODE_COUNT };

/* --model's help names the models of lop_models[] (filled in by main): room
 * for the format and every name, so it is never cut. */
#define MODEL_HELP                                                                  \
    "auto (the default: select by --criterion, AICc unless told; fit/README.md) or " \
    "MODEL (%s) for every file, or QUANTITY=MODEL,..."
static char model_help[sizeof MODEL_HELP + LOP_MODEL_NAMES_LEN];

static const char *const criteria[] = {"aicc", "bic", NULL}; /* lop_criterion_t order */
static const char *const weights[] = {"none", "rel", NULL};   /* lop_weight_t order */

static lop_cli_parse_fn parse_models, parse_stats, parse_gnuplot_expr;

#define AT(member) LOP_CLI_AT(opts_t, member)
#define IN(m) LOP_CLI_IN(MODE_##m)

static const lop_cli_opt_t options[] = {
    {"model", 'm', "SPEC", model_help, LOP_CLI_CUSTOM, .parse = parse_models, .modes = IN(FIT)},
    {"criterion", 0, "C", "--model auto selects by aicc (default) or bic", LOP_CLI_CHOICE,
     AT(criterion), .choices = criteria, .modes = IN(FIT)},
    {"weight", 0, "W", "least-squares weights: rel (default: 1/y^2, for timings that "
                       "scatter in proportion to their size; fit/README.md) or none",
     LOP_CLI_CHOICE, AT(fitter.weight), .choices = weights, .modes = IN(FIT)},
    {"stat", 's', "LIST", "columns to fit: min, avg, median, comma-separated (default: min,avg)",
     LOP_CLI_CUSTOM, .parse = parse_stats, .modes = IN(FIT)},
    {"compare", 'c', NULL, "also fit the LogP line l1 + l2*p and report its SSR next to LoP's",
     LOP_CLI_FLAG, AT(compare), .modes = IN(FIT)},
    {"csv", 0, NULL, "print one CSV row per fit (params.csv columns, fit_ms) instead",
     LOP_CLI_FLAG, AT(csv), .modes = IN(FIT)},
    {"output", 'o', "DIR", "write DIR/params.csv and DIR/lop-<series>-<stat>.csv",
     LOP_CLI_CUSTOM, AT(out_dir), .parse = lop_cli_dir,
     .modes = IN(FIT) | IN(FROM_PARAMS) | IN(SYNTH)},
    {"seed", 0, "N", "seed of the random start points, and of --synth's noise (default: 1)",
     LOP_CLI_INT, AT(fitter.seed), .min = 0, .max = 2147483647L, .modes = IN(FIT) | IN(SYNTH)},
    {"starts", 0, "N", "Nelder-Mead start points per fit (default: 16)", LOP_CLI_INT,
     AT(fitter.n_starts), .min = 1, .max = 100000, .modes = IN(FIT)},
    {"noise", 0, "R", "--synth: relative Gaussian noise, e.g. 0.01 (default: 0)", LOP_CLI_REAL,
     AT(noise.rel), .min = 0, .max = 1, .modes = IN(SYNTH)},
    {"noise-us", 0, "S", "--synth: additive Gaussian noise of S us, e.g. 0.05 "
                         "(default: 0; with --noise, both)", LOP_CLI_REAL, AT(noise.us),
     .min = 0, .max = 1e6, .modes = IN(SYNTH)},
    {"help", 'h', NULL, "show this help", LOP_CLI_FLAG, AT(help)},
    LOP_CLI_LIST_OPTIONS(opts_t, list_options),
    /* the modes' options, listed with the modes */
    {"from-params", 0, "FILE", NULL, LOP_CLI_TEXT, AT(from_params)},
    {"synth", 0, "FILE", NULL, LOP_CLI_TEXT, AT(synth)},
    {"gnuplot-expr", 0, "MODEL", NULL, LOP_CLI_CUSTOM, .parse = parse_gnuplot_expr},
    {NULL, 0, NULL, NULL},
};

/* The modes, indexed by the enum above (mode_run: the function of each). */
static const lop_cli_mode_t modes[MODE_COUNT + 1] = {
    [MODE_FIT] = {"fit", NULL, "data files", NULL,
                  "fit FILE..., print a report (-o DIR: and write params.csv and tables)"},
    [MODE_FROM_PARAMS] = {"from-params", "from-params", NULL, "output",
                          "write the tables of parameter set FILE"},
    [MODE_SYNTH] = {"synth", "synth", NULL, "output",
                    "write lopbench-format CSVs from parameter set FILE"},
    [MODE_GNUPLOT_EXPR] = {"gnuplot-expr", "gnuplot-expr", NULL, NULL,
                           "print MODEL's function as a gnuplot expression in x and l1..l6"},
    [MODE_COUNT] = {NULL},
};

/* One data set's fits. */
typedef struct {
    lop_fit_t fit;            /* the chosen (auto) or forced (--model) model */
    lop_fitter_stats_t stats;
    double fit_ms;            /* auto: of all candidates */
    int has_sel;              /* auto: sel holds every candidate */
    int selected;             /* auto: 1 if a model was eligible, 0 if the richest one
                                 that could be fitted was taken (too few points) */
    lop_selection_t sel;
    int has_line;             /* --compare: the LogP line was fitted too */
    lop_fit_t line;
    double line_ms;
} result_t;

/* ---------------------------------------------------------------- options */

static lop_status_t stat_item(void *ctx, char *item)
{
    int index;
    (void)ctx;
    return lop_cli_choice("stat", item, lop_fmt_series_stats, &index);
}

static lop_status_t parse_stats(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    ((opts_t *)opts)->stats = arg;
    return lop_cli_items(opt->name, arg, stat_item, NULL);
}

static lop_status_t parse_models(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    (void)opt;
    ((opts_t *)opts)->models = arg;
    return lop_fitdata_check_models(arg);
}

/* A model named by an option, from lop_models[]. */
static lop_status_t parse_gnuplot_expr(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    char models[LOP_MODEL_NAMES_LEN];
    const lop_model_t **model = &((opts_t *)opts)->gnuplot_expr;
    *model = lop_model_find(arg);
    if (*model)
        return LOP_OK;
    lop_status_t st = lop_model_names(NULL, " or ", models, sizeof models);
    return st ? st : lop_err(LOP_ERR_INVALID, "option --%s: unknown model '%s' (%s)", opt->name,
                             arg, models);
}

/* The options and their mode: one a run, and no option or operand it would
 * ignore (the tables' columns). */
static lop_status_t parse_options(int argc, char **argv, opts_t *o, int *first_file)
{
    lop_cli_t cli;
    *o = (opts_t){.stats = "min,avg", .fitter = lop_fitter_defaults};
    o->fitter.weight = LOP_WEIGHT_REL; /* honest intervals for timing noise: fit/README.md */
    lop_status_t st = lop_cli_init(&cli, argc, argv, options);
    st = st ? st : lop_cli_parse(&cli, o);
    if (st == LOP_OK && !o->help && !o->list_options)
        st = lop_cli_check(&cli, modes, &o->mode);
    *first_file = lop_cli_operand_index(&cli);
    lop_cli_free(&cli);
    return st;
}

/* ----------------------------------------------------------------- report */

static const char *criterion_name(lop_criterion_t c)
{
    return c == LOP_CRIT_BIC ? "BIC" : "AICc";
}

/* Why a parameter is weak, for the report (model.h bits). */
static const char *weak_reason(unsigned weak)
{
    return weak & LOP_FIT_WEAK_SINGULAR  ? "singular"
           : weak & LOP_FIT_WEAK_ILLCOND ? "ill-conditioned"
                                         : "se > |value|";
}

static void print_value(double v, double se, unsigned weak)
{
    if (isnan(se))
        printf("%12.6g ± n/a       ", v);
    else
        printf("%12.6g ± %-10.3g ", v, se);
    if (weak)
        printf(" WEAK (%s)", weak_reason(weak));
    printf("\n");
}

/* Why a candidate is not eligible (or "eligible"). */
static const char *eligibility(const lop_selection_t *sel, const lop_candidate_t *c, size_t n,
                               char *buf, size_t len)
{
    int need = sel->criterion == LOP_CRIT_AICC ? c->k + 2 : c->k + 1;
    const lop_model_t *m = sel->family->member[c - sel->cand];
    if (!c->fitted)
        snprintf(buf, len, "not fitted: %zu points for %d parameters", n, m->n_params);
    else if (!c->eligible)
        snprintf(buf, len, "not eligible: %s needs n >= %d (k = %d)",
                 criterion_name(sel->criterion), need, c->k);
    else
        snprintf(buf, len, "eligible");
    return buf;
}

/* %g of v in 'width' columns, "-" where undefined (NaN). */
static const char *cell(char *buf, size_t len, int width, double v)
{
    if (isnan(v))
        snprintf(buf, len, "%*s", width, "-");
    else
        snprintf(buf, len, "%*.6g", width, v);
    return buf;
}

/* Every candidate side by side, the chosen one marked. */
static void print_selection(const result_t *r)
{
    const lop_selection_t *sel = &r->sel;
    size_t n = r->fit.n;
    printf("  model selection by %s, n %zu:\n", criterion_name(sel->criterion), n);
    printf("      %-10s %2s %14s %12s %12s %10s\n", "model", "k", "SSR", "AICc", "BIC", "delta");
    for (int i = 0; i < sel->n_cand; i++) {
        const lop_candidate_t *c = &sel->cand[i];
        char why[96], b[4][32];
        printf("    %c %-10s %2d %s %s %s %s  %s%s\n", i == sel->best ? '*' : ' ',
               sel->family->member[i]->name, c->k,
               cell(b[0], sizeof b[0], 14, c->fitted ? c->fit.ssr : NAN),
               cell(b[1], sizeof b[1], 12, c->aicc), cell(b[2], sizeof b[2], 12, c->bic),
               cell(b[3], sizeof b[3], 10, c->delta), eligibility(sel, c, n, why, sizeof why),
               i == sel->best ? ", chosen" : "");
    }
    if (!r->selected)
        printf("  not enough points to select: no model is eligible under %s; %s is used "
               "(the richest with a residual degree of freedom, else the richest fitted)\n",
               criterion_name(sel->criterion), r->fit.model->name);
    else if (isinf(sel->margin))
        printf("  margin inf: the only eligible model\n");
    else if (sel->margin < 0)
        printf("  margin %.4g: the runner-up scores lower, but the data cannot determine its "
               "parameters (ill-conditioned or singular) and give no real preference: the "
               "simpler fit is taken\n", sel->margin);
    else
        printf("  margin %.4g to the runner-up%s\n", sel->margin,
               sel->margin < 2 ? " (below 2: no real preference)" : "");
}

/* The weak parameters and what more data would determine them. */
static void print_weak_summary(const lop_fit_t *f)
{
    lop_hint_t hint = lop_fitter_hint(f);
    if (hint == LOP_HINT_NONE)
        return;
    printf("  weak:");
    for (int j = 0; j < f->model->n_params; j++)
        if (f->weak[j])
            printf(" %s", f->model->param[j]);
    printf(": %s would determine them\n", lop_fitter_hint_name(hint));
}

/* The LogP line's SSR against the chosen model's, as a ratio where the
 * model's is not 0: a line against an exact fit is no finite multiple, and
 * two exact fits (constant data) are no multiple at all. */
static const char *ssr_ratio(double line, double chosen, char *buf, size_t len)
{
    if (chosen > 0)
        snprintf(buf, len, "%.3gx LoP's", line / chosen);
    else
        snprintf(buf, len, line > 0 ? "LoP's is 0" : "both 0");
    return buf;
}

/* R^2 for the summary; NaN where the data are constant (no variance). */
static const char *r2_text(double r2, char *buf, size_t len)
{
    if (isnan(r2))
        return "undefined (constant data)";
    snprintf(buf, len, "%.6f", r2);
    return buf;
}

static void print_fit(const result_t *r, int weighted)
{
    const lop_fit_t *f = &r->fit;
    printf("%s %s %s  (%s)\n", f->series, f->quantity, f->stat, f->file);
    if (r->has_sel)
        print_selection(r);
    printf("  %s%s: %s\n", f->model->name, r->has_sel ? "" : " (forced by --model)",
           f->model->formula);
    for (int j = 0; j < f->model->n_params; j++) {
        printf("  %s = ", f->model->param[j]);
        print_value(f->lambda[j], f->se[j], f->weak[j]);
    }
    char r2[2][32], ratio[32];
    printf("  n %zu  p %g..%g  SSR %.6g  RMSE %.4g %s  R^2 %s  %.2f ms\n", f->n, f->pmin,
           f->pmax, f->ssr, f->rmse, weighted ? "(relative: weights 1/y^2)" : "us",
           r2_text(f->r2, r2[0], sizeof r2[0]), r->fit_ms);
    print_weak_summary(f);
    if (r->has_line)
        printf("  LogP line l1 + l2*p: l1 %.6g l2 %.6g  SSR %.6g (%s)  R^2 %s\n",
               r->line.lambda[0], r->line.lambda[1], r->line.ssr,
               ssr_ratio(r->line.ssr, f->ssr, ratio, sizeof ratio),
               r2_text(r->line.r2, r2[1], sizeof r2[1]));
    printf("\n");
}

static void print_csv_row(lop_out_t *t, const lop_fit_t *fit, double ms)
{
    lop_fmt_params_cells(t, fit, lop_fitter_hint(fit));
    lop_out_num(t, ms);
    lop_out_row(t);
}

static lop_status_t print_report(const opts_t *o, const result_t *res, size_t n)
{
    lop_out_t t;
    if (!o->csv) {
        for (size_t i = 0; i < n; i++)
            print_fit(&res[i], o->fitter.weight == LOP_WEIGHT_REL);
        return LOP_OK;
    }
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", 1, lop_fmt_params_columns,
                                    LOP_FMT_PARAMS_COLUMNS + 1);
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        print_csv_row(&t, &res[i].fit, res[i].fit_ms);
        if (res[i].has_line)
            print_csv_row(&t, &res[i].line, res[i].line_ms);
    }
    return st ? st : lop_out_end(&t);
}

/* A warning on a line of its own: 'ctx' is the progress line on the
 * terminal (or NULL), cleared first and redrawn by its next step. */
static void warn_stderr(void *ctx, const char *msg)
{
    lop_progress_done(ctx);
    fprintf(stderr, PROG ": warning: %s\n", msg);
}

/* ---------------------------------------------------------------- fitting */

static double now_ms(void)
{
    return 1e-6 * (double)lop_timer_clock_ns();
}

/* The data set's names on a fit. */
static void name_fit(const lop_fitdata_t *d, lop_fit_t *fit)
{
    snprintf(fit->file, sizeof fit->file, "%s", d->file); /* whole: checked by check_unique */
    memcpy(fit->series, d->series, sizeof fit->series);
    memcpy(fit->quantity, d->quantity, sizeof fit->quantity);
    memcpy(fit->stat, d->stat, sizeof fit->stat);
}

/* A model given by --model (or --compare's line): criterion "forced". */
static lop_status_t fit_one(const lop_fitdata_t *d, const lop_model_t *model,
                            const lop_fitter_opts_t *fo, lop_fit_t *fit,
                            lop_fitter_stats_t *stats, double *ms)
{
    double start = now_ms();
    memset(fit, 0, sizeof *fit);
    lop_status_t st = lop_fitter_run(model, d->p, d->y, d->n, fo, fit, stats);
    *ms = now_ms() - start;
    if (st)
        return lop_err(st, "%s: %s: %s", d->file, d->stat, lop_errmsg());
    name_fit(d, fit);
    snprintf(fit->criterion, sizeof fit->criterion, "forced");
    lop_fitter_score(fit, &fit->k, &fit->aicc, &fit->bic);
    fit->margin = NAN;
    return LOP_OK;
}

/* --model auto: every member of the family, the chosen one in r->fit.  With
 * too few points for any eligible member, the richest one that has residual
 * degrees of freedom left (so a covariance, so intervals: 3 points give a
 * constant with an honest error, not a 3-parameter curve through them with
 * none), else the richest that could be fitted at all (fitter.h: the
 * selection is filled with best = -1 then). */
static lop_status_t select_one(const opts_t *o, const lop_fitdata_t *d, result_t *r)
{
    lop_selection_t *sel = &r->sel;
    double start = now_ms();
    memset(sel, 0, sizeof *sel);
    lop_status_t st = lop_fitter_select(d->family, o->criterion, d->p, d->y, d->n, &o->fitter,
                                        sel);
    r->fit_ms = now_ms() - start;
    r->selected = st == LOP_OK;
    for (int pass = 0; st == LOP_ERR_INVALID && sel->family && pass < 2; pass++)
        for (int i = 0; i < sel->n_cand && sel->best < 0; i++)
            if (sel->cand[i].fitted && (pass || sel->cand[i].fit.has_cov))
                sel->best = i;
    if (st == LOP_ERR_INVALID && sel->family && sel->best >= 0)
        st = LOP_OK;
    if (st)
        return lop_err(st, "%s: %s: %s", d->file, d->stat, lop_errmsg());
    for (int i = 0; i < sel->n_cand; i++)
        name_fit(d, &sel->cand[i].fit);
    const lop_candidate_t *c = &sel->cand[sel->best];
    r->has_sel = 1;
    r->fit = c->fit;
    snprintf(r->fit.criterion, sizeof r->fit.criterion, "%s", criteria[o->criterion]);
    r->fit.k = c->k;
    r->fit.aicc = c->aicc;
    r->fit.bic = c->bic;
    r->fit.margin = r->selected ? sel->margin : NAN;
    return LOP_OK;
}

static lop_status_t fit_all(const opts_t *o, const lop_fitdata_list_t *data, result_t *res)
{
    for (size_t i = 0; i < data->n; i++) {
        const lop_fitdata_t *d = &data->set[i];
        result_t *r = &res[i];
        lop_status_t st = d->family ? select_one(o, d, r)
                                    : fit_one(d, d->model, &o->fitter, &r->fit, &r->stats,
                                              &r->fit_ms);
        int line_fits = d->n >= (size_t)lop_model_linear.n_params;
        r->has_line = o->compare && r->fit.model != &lop_model_linear && line_fits;
        if (st == LOP_OK && o->compare && !line_fits) /* two nodes: RTT(1) alone */
            fprintf(stderr, PROG ": note: %s: %s: --compare: %zu point, the LogP line needs %d: "
                    "not compared\n", d->file, d->stat, d->n, lop_model_linear.n_params);
        if (st == LOP_OK && r->has_line)
            st = fit_one(d, &lop_model_linear, &o->fitter, &r->line, NULL, &r->line_ms);
        if (st)
            return st;
    }
    return LOP_OK;
}

/* Two files giving the same params.csv key would make lookups ambiguous, and
 * a path is params.csv's file cell: one a reader would not read back whole
 * is refused before the work (it is only a cell here, lopfit reads it). */
static lop_status_t check_params_rows(const lop_fitdata_list_t *data)
{
    const size_t cell_max = sizeof ((lop_fit_t *)0)->file;
    for (size_t i = 0; i < data->n; i++) {
        const char *path = data->set[i].file;
        if (strlen(path) >= cell_max || !lop_csv_cell_ok(path))
            return lop_err(LOP_ERR_INVALID, "%s: cannot be params.csv's file cell: %s (rename "
                           "or move it, or fit without -o)", path,
                           strlen(path) >= cell_max ? "longer than 255 bytes" : lop_csv_cell_rule);
        for (size_t k = 0; k < i; k++) {
            const lop_fitdata_t *a = &data->set[k], *b = &data->set[i];
            if (!strcmp(a->series, b->series) && !strcmp(a->quantity, b->quantity) &&
                !strcmp(a->stat, b->stat))
                return lop_err(LOP_ERR_INVALID, "%s: series '%s' quantity '%s' is also in %s",
                               b->file, b->series, b->quantity, a->file);
        }
    }
    return LOP_OK;
}

static lop_status_t read_all(const opts_t *o, int n_files, char **files,
                             lop_fitdata_list_t *data)
{
    for (int i = 0; i < n_files; i++) {
        lop_status_t st = lop_fitdata_read(files[i], o->models, o->stats,
                                           o->fitter.weight == LOP_WEIGHT_REL, data);
        if (st == LOP_ERR_UNSUPPORTED)
            fprintf(stderr, PROG ": note: %s\n", lop_errmsg());
        else if (st)
            return st;
    }
    if (data->n == 0)
        return lop_err(LOP_ERR_INVALID, "nothing to fit");
    return o->out_dir ? check_params_rows(data) : LOP_OK;
}

/* ----------------------------------------------------------------- output */

/* The tables' progress line, on a terminal only (a log gets the cost said up
 * front and the warnings). */
static lop_progress_t *tables_progress(lop_progress_t *buf)
{
    if (!isatty(STDERR_FILENO))
        return NULL;
    lop_progress_init(buf, PROG, 0, 0);
    return buf;
}

/* params.csv (fits, then --compare lines) and the tables, all or nothing:
 * written into the staging directory of 'out' (csv.h), named after DIR. */
static lop_status_t write_outputs(const opts_t *o, const lop_outdir_t *out, const result_t *res,
                                  size_t n)
{
    char path[4096];
    lop_fitout_batch_t batch = {0};
    lop_progress_t progress;
    size_t n_fits = 0, n_tables;
    lop_fit_t *fits = lop_calloc(2 * n, sizeof *fits);
    if (!fits)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        fits[n_fits++] = res[i].fit;
    for (size_t i = 0; i < n; i++)
        if (res[i].has_line)
            fits[n_fits++] = res[i].line;
    snprintf(path, sizeof path, "%s/" LOP_FMT_PARAMS_NAME, out->dir);
    lop_paramset_t set = {path, fits, n_fits};
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < n_fits && st == LOP_OK; i++) /* what lopredict could not read */
        st = lop_fit_check(&fits[i], fits[i].file);
    st = st ? st : lop_fitout_params(&batch, out->stage, fits, n_fits, weights[o->fitter.weight]);
    lop_progress_t *pr = tables_progress(&progress);
    st = st ? st : lop_fitout_tables(&batch, out->stage, &set, warn_stderr, pr, pr, &n_tables);
    st = st ? st : lop_fitout_curves(&batch, out->stage, &set);
    st = lop_fitout_batch_end(&batch, st);
    free(fits);
    return st;
}

static lop_status_t run_fits(const opts_t *o, int n_files, char **files)
{
    lop_fitdata_list_t data = {0};
    result_t *res = NULL;
    /* DIR and params.csv first, before the work (lop_outdir_end checks every
     * file again) */
    lop_status_t st = o->out_dir ? lop_outdir_prepare(o->out_dir) : LOP_OK;
    st = st || !o->out_dir ? st : lop_outdir_target_check(o->out_dir, LOP_FMT_PARAMS_NAME);
    st = st ? st : read_all(o, n_files, files, &data);
    if (st == LOP_OK) {
        res = lop_calloc(data.n, sizeof *res);
        st = res ? fit_all(o, &data, res) : LOP_ERR_NOMEM;
    }
    if (st == LOP_OK && o->out_dir) {
        /* the report before the commit: DIR gets the new set only when
         * stdout took it (> /dev/full, a closed stdout leave DIR as it was) */
        lop_outdir_t out;
        st = lop_outdir_begin(&out, o->out_dir);
        if (st == LOP_OK) {
            st = write_outputs(o, &out, res, data.n);
            st = st ? st : print_report(o, res, data.n);
            st = st ? st : lop_stdout_check();
            st = lop_outdir_end(&out, st);
        }
    } else if (st == LOP_OK) {
        st = print_report(o, res, data.n);
    }
    free(res);
    lop_fitdata_free(&data);
    return st;
}

/* --from-params and --synth: a parameter set in, files out. */
static lop_status_t run_from_set(const opts_t *o, int n_files, char **files)
{
    (void)n_files, (void)files; /* none: lop_cli_check */
    lop_paramset_t set;
    lop_fitout_batch_t batch = {0};
    lop_progress_t progress;
    lop_outdir_t out;
    size_t n_tables = 0;
    const char *path = o->from_params ? o->from_params : o->synth;
    lop_status_t st = lop_outdir_prepare(o->out_dir); /* needed: lop_cli_check */
    st = st ? st : lop_fmt_params_read(path, &set);
    if (st)
        return st;
    st = lop_outdir_begin(&out, o->out_dir);
    if (st == LOP_OK && o->from_params) {
        lop_progress_t *pr = tables_progress(&progress);
        st = lop_fitout_tables(&batch, out.stage, &set, warn_stderr, pr, pr, &n_tables);
        if (st == LOP_OK && n_tables == 0)
            st = lop_err(LOP_ERR_INVALID, "%s: no series with both an rtt and an os fit", path);
        st = st ? st : lop_fitout_curves(&batch, out.stage, &set);
    } else if (st == LOP_OK) {
        st = lop_fitout_synth(&batch, out.stage, &set, &o->noise, o->fitter.seed);
    }
    st = lop_outdir_end(&out, lop_fitout_batch_end(&batch, st));
    lop_paramset_free(&set);
    return st;
}

static lop_status_t run_gnuplot_expr(const opts_t *o, int n_files, char **files)
{
    (void)n_files, (void)files; /* none: lop_cli_check */
    printf("%s\n", o->gnuplot_expr->gnuplot);
    return LOP_OK;
}

/* The function of each mode, indexed like 'modes'. */
static lop_status_t (*const mode_run[MODE_COUNT])(const opts_t *o, int n_files, char **files) = {
    [MODE_FIT] = run_fits,
    [MODE_FROM_PARAMS] = run_from_set,
    [MODE_SYNTH] = run_from_set,
    [MODE_GNUPLOT_EXPR] = run_gnuplot_expr,
};

int main(int argc, char **argv)
{
    opts_t o;
    int first_file;
    char models[LOP_MODEL_NAMES_LEN];
    lop_status_t st = lop_model_names(NULL, " or ", models, sizeof models);
    snprintf(model_help, sizeof model_help, MODEL_HELP, models);
    st = st ? st : parse_options(argc, argv, &o, &first_file);
    if (st == LOP_OK && o.help) {
        lop_cli_usage(stdout, PROG " [options] FILE...",
                      "Fit the LoP RTT and overhead models to lopbench CSVs (thesis 2.3.6.1)\n"
                      "and derive L(p) and o(p) (2.3.4).  See fit/README.md.",
                      options);
        lop_cli_modes_usage(stdout, options, modes);
    }
    if (st == LOP_OK && o.list_options)
        lop_cli_list_options(stdout, options, modes);
    if (st == LOP_OK && !o.help && !o.list_options)
        st = mode_run[o.mode](&o, argc - first_file, argv + first_file);
    if (st)
        lop_err_print(PROG);
    int write_failed = lop_stdout_close(PROG, st != LOP_OK);
    return st ? lop_exit_code(st) : write_failed ? LOP_EXIT_FAILED : LOP_EXIT_OK;
}
