/*
 * lopredict - barrier algorithms in the LogP and LoP models: closed-form
 * costs, message schedules, the validity check and event simulation
 * (models/README.md).  Rows are printed as they are computed (src/out.h), so
 * a long --p list needs no memory for its table; an error stops the table
 * with a message and a non-zero exit.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "barrier.h"
#include "cli.h"
#include "csv.h"
#include "fmt_barrier.h"
#include "goal.h"
#include "hybrid.h"
#include "pairs.h"
#include "out.h"
#include "predict.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "timer.h"

static const char prog[] = "lopredict";

enum {
    OPT_PARAMS = 256, OPT_SERIES, OPT_STAT, OPT_L, OPT_O, OPT_OS, OPT_OR, OPT_G, OPT_CNT,
    OPT_LINKS, OPT_LOP_ARG, OPT_OP_CONST, OPT_OP_PER_P, OPT_OP_LOG, OPT_OW, OPT_HW_OR, OPT_CSV,
    OPT_SCHEDULE, OPT_SIMULATE, OPT_VERIFY, OPT_BEST, OPT_CHECK, OPT_MEASURED, OPT_TIMING,
    OPT_DRAWS, OPT_SEED, OPT_COSTS, OPT_TOPOLOGY, OPT_LEVEL_L, OPT_LEVEL_O, OPT_MAP,
    OPT_WRITE_COSTS, OPT_GOAL, OPT_RECV_ORDER, OPT_PLACEMENT, OPT_HYBRID_ALGS, OPT_HYBRID_REPORT,
    OPT_LIST_ALGS
};

static const lop_cli_opt_t options[] = {
    {"alg", 'a', "NAMES", "algorithms, comma-separated, or all (default: all)"},
    {"n", 'n', "LIST", "n of the algorithms that take one: 2, 1,4 or 1..8 (default: theirs)"},
    {"p", 'p', "LIST", "process counts: 64, 2,4,8 or 2..64 (default: 2..64; with --costs or "
                       "--topology, the ranks they describe)"},
    {"model", 'm', "MODEL", "logp, lop or both (default: both; logp with --costs or --topology)"},
    {"params", OPT_PARAMS, "FILE", "parameter set (default: the shipped mozart-2005/params.csv)"},
    {"series", OPT_SERIES, "NAME", "series of the set for LoP (default: rdmaw-inline)"},
    {"stat", OPT_STAT, "STAT", "min or avg (default: min)"},
    {"L", OPT_L, "US", "LogP latency L (default: L(1) of the series)"},
    {"o", OPT_O, "US", "LogP overhead, o_s = o_r = o"},
    {"os", OPT_OS, "US", "LogP send overhead o_s (default: o_s(1) of the series)"},
    {"or", OPT_OR, "US", "LogP receive overhead o_r (default: o_r(1), else o_s(1); with "
                         "--costs or --topology the pair's o)"},
    {"g", OPT_G, "US", "LogP gap g (default: 0; thesis 2.1.4.5: g << o)"},
    {"cnt", OPT_CNT, "C", "barriers run back to back, thesis 2.3.7.1 (default: 1)"},
    {"links", OPT_LINKS, "M", "independent links m of thesis 2.2.6 (default: 1)"},
    {"lop-arg", OPT_LOP_ARG, "HOW", "LoP simulation: p of o(p), L(p) per stream or batch"},
    {"op-const", OPT_OP_CONST, "US", "hardware barriers: o_p(P) constant part (default: 0)"},
    {"op-per-p", OPT_OP_PER_P, "US", "o_p(P) per host (default: 0.01, thesis 3.2.2.1)"},
    {"op-per-log2p", OPT_OP_LOG, "US", "o_p(P) per log2 P (default: 0)"},
    {"ow", OPT_OW, "US", "hwnet port write overhead o_w (default: 1.2, thesis 3.2.2.1)"},
    {"hw-or", OPT_HW_OR, "US", "hwnet port read overhead o_r (default: 1.2, thesis 3.2.2.1)"},
    {"csv", OPT_CSV, NULL, "CSV output"},
    {"schedule", OPT_SCHEDULE, NULL, "print the schedule of one algorithm, n and P as CSV"},
    {"simulate", OPT_SIMULATE, NULL, "add the simulated time of the selected model(s)"},
    {"verify", OPT_VERIFY, NULL, "check every schedule; closed form next to simulation"},
    {"best", OPT_BEST, NULL, "the algorithm and n with the lowest predicted time per P"},
    {"check-schedule", OPT_CHECK, "FILE",
     "check (and with --simulate simulate) a schedule CSV or GOAL file"},
    {"measured", OPT_MEASURED, "FILE", "join lopbench --barrier's barrier.csv with the predictions"},
    {"timing", OPT_TIMING, NULL, "wall time and events per second on stderr"},
    {"draws", OPT_DRAWS, "N",
     "Monte Carlo draws per simulated time's interval, at least 40 for a 95 % interval "
     "(default: 200)"},
    {"seed", OPT_SEED, "S", "seed of the draws of the intervals (default: 1)"},
    {"costs", OPT_COSTS, "FILE", "LogP with per-pair o and L from pairs.csv"},
    {"topology", OPT_TOPOLOGY, "SPEC", "per-pair costs of a machine, outermost level first: 8x2x4"},
    {"level-L", OPT_LEVEL_L, "LIST", "--topology: L per level in us, outermost first: 3,0.8,0.2"},
    {"level-o", OPT_LEVEL_O, "LIST", "--topology: o per level in us, outermost first"},
    {"map", OPT_MAP, "MAP", "--topology: rank placement, block or rr (default: block)"},
    {"write-costs", OPT_WRITE_COSTS, "FILE", "save the per-pair costs as pairs.csv"},
    {"goal", OPT_GOAL, NULL, "print one schedule (or --check-schedule's) as LogGOPSim GOAL"},
    {"recv-order", OPT_RECV_ORDER, "HOW", "LogP receive overhead: program or arrival order"},
    {"placement", OPT_PLACEMENT, "FILE", "--alg hybrid with --costs: levels from placement.csv"},
    {"hybrid-algs", OPT_HYBRID_ALGS, "NAMES", "candidates of --alg hybrid (default: all)"},
    {"hybrid-report", OPT_HYBRID_REPORT, NULL, "per P: best flat, greedy and searched hybrid"},
    {"list-algs", OPT_LIST_ALGS, NULL, "the algorithms' table: n, exactness, LoP band (--csv)"},
    {"help", 'h', NULL, "print this help"},
    {NULL, 0, NULL, NULL},
};

enum { MODEL_LOGP = 1, MODEL_LOP = 2 };

/* The LogP parameters, in the order of opts_t.logp_opt and of "# machine:". */
enum { LOGP_L, LOGP_OS, LOGP_OR, LOGP_G, LOGP_PARAMS };

#define MAX_ALGS 32

typedef struct {
    const barrier_alg_t *alg[MAX_ALGS]; /* --alg names, in order */
    size_t n_alg;                       /* how many */
    int alg_all;                        /* --alg all or no --alg: every algorithm */
    long *n, *p;                        /* --n (NULL: each algorithm's default), --p */
    size_t n_n, n_p;                    /* their lengths */
    int models;                         /* MODEL_LOGP | MODEL_LOP */
    int model_given;                    /* --model was given (else per-pair costs imply LogP) */
    const char *params;                 /* parameter set path (NULL: the shipped one) */
    const char *series, *stat;          /* the LoP fits to use */
    const char *check_file;             /* --check-schedule */
    const char *measured;               /* --measured FILE */
    int series_named;                   /* --series given (else --measured picks per executor) */
    int stat_named;                     /* --stat given (refused with per-pair costs) */
    double L, os, or, g;                /* LogP options in us; NAN: from the set */
    const char *logp_opt[LOGP_PARAMS];  /* the option that gave L, os, or, g (NULL: none) */
    sched_lop_arg_t lop_arg;            /* --lop-arg */
    int csv, schedule, simulate, verify, best, timing, list_algs; /* flags */
    barrier_cost_t cost;                /* what the formulas use */
    char params_buf[PATH_MAX + 64];     /* the default path, resolved */
    lop_paramset_t set;                 /* the set read */
    lop_lop_t lop;                      /* its fits for series and stat */
    int have_set;                       /* was a set read? */
    pairs_opts_t pairs_opts;            /* --costs, --topology, --level-L/-o, --map */
    pairs_t pairs;                      /* per-pair costs they describe */
    int have_pairs;                     /* were per-pair costs asked for? */
    uint32_t uniform_p;                 /* ranks 0..uniform_p-1 of them all cost alike
                                           (pairs_uniform_p): LogP's closed forms hold */
    const char *write_costs;            /* --write-costs FILE */
    lop_csv_writer_t costs_w;           /* its temporary file, renamed into place last */
    int costs_open;                     /* costs_w holds it */
    int goal;                           /* --goal */
    sched_recv_order_t recv_order;      /* --recv-order */
    lop_uncert_opts_t uncert;           /* --seed; draws of the closed forms' intervals */
    size_t sim_draws;                   /* --draws: of the simulations' intervals */
    predict_t pred;                     /* times and intervals over cost (predict.h) */
    int have_pred;                      /* pred is set up */
    char pred_series[64];               /* the series pred draws the fits of */
    char series_buf[64];                /* --measured: the row's series, owned (the CSV's
                                           cells are freed before the end-of-run warning) */
    const char *placement;              /* --placement FILE */
    hybrid_place_t place;               /* the levels of --alg hybrid */
    int have_place;                     /* were they set up? */
    const barrier_alg_t *hybrid_algs[MAX_ALGS + 1]; /* --hybrid-algs, NULL-terminated */
    int hybrid_algs_given;              /* else every algorithm */
    int hybrid_report;                  /* --hybrid-report */
    char hybrid_config[256];            /* the last hybrid built: its choices */
} opts_t;

/* ---------------------------------------------------------------- output */

/* The n cell: empty for algorithms without n. */
static void n_out(lop_out_t *t, const barrier_alg_t *alg, uint32_t n)
{
    if (alg->takes_n)
        lop_out_int(t, n);
    else
        lop_out_empty(t);
}

/* "# intervals: ..." (formats.md): how many draws each column used. */
static void interval_comment(FILE *out, const opts_t *o)
{
    const lop_fit_t *u = o->pred.uncertain;
    if (u && !o->measured) {
        fprintf(out, "# intervals: none: the %s fit of %s %s (%s fitted to n = %zu) has no covariance, "
                "its error is unknown (flag no-interval)\n", u->quantity, u->series, u->stat,
                u->model->name, u->n);
        return;
    }
    if (!o->pred.closed && (!o->measured || !o->have_set)) {
        if (o->cost.lop)
            fprintf(out, "# intervals: none (the fits of %s %s have no covariance)\n",
                    o->series, o->stat);
        return;
    }
    fprintf(out, "# intervals: %.0f %% Monte Carlo over the fits of the series%s: %zu draws "
            "for closed forms, %zu for simulations (sim_*), seed %lu\n",
            100 * o->uncert.level, o->measured ? " (empty where they have no covariance)" : "",
            o->uncert.n_draws, o->sim_draws, o->uncert.seed);
}

/* "# logp: L=.. os=.. or=.. g=.. us": exact numbers (the only record of the
 * parameters), each below 0 marked "(negative)": the times from it are flagged. */
static void logp_comment(FILE *out, const logp_t *m)
{
    const char *name[] = {"L", "os", "or", "g"};
    const double v[] = {m->L_us, m->os_us, m->or_us, m->g_us};
    char num[LOP_OUT_NUM_LEN];
    fputs("# logp:", out);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        fprintf(out, " %s=%s%s", name[i], lop_out_format_csv(num, v[i]),
                v[i] < 0 ? " (negative)" : "");
    fputs(" us\n", out);
}

/* Append to the text in buf (truncated at len). */
static void text_add(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    size_t used = strlen(buf);
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* The series of the set the rows use: --series (or the default), or with
 * --measured without --series each row's own (its series column). */
static const char *rows_series(const opts_t *o)
{
    return o->measured && !o->series_named ? "each row's series," : o->series;
}

/* Where LogP parameter i (LOGP_L..LOGP_G) came from: its option and value,
 * the per-pair costs, the parameter set at p = 1, or g's default. */
static const char *logp_source(const opts_t *o, int i, char *buf, size_t len)
{
    const double given[LOGP_PARAMS] = {o->L, o->os, o->or, o->g};
    const char *set = o->params != o->params_buf ? "--params" : "the shipped set";
    char num[LOP_OUT_NUM_LEN];
    if (o->logp_opt[i])
        snprintf(buf, len, "%s %s", o->logp_opt[i], lop_out_format_csv(num, given[i]));
    else if (i == LOGP_G)
        snprintf(buf, len, "the default 0 (thesis 2.1.4.5: g << o)");
    else if (o->have_pairs && o->pairs_opts.costs)
        snprintf(buf, len, "--costs %s (per pair)", o->pairs_opts.costs);
    else if (o->have_pairs)
        snprintf(buf, len, "--topology %s %s (per level)", o->pairs_opts.topology,
                 o->pairs_opts.map == PAIRS_RR ? "rr" : "block");
    else if (i == LOGP_OR && o->cost.lop && !o->cost.lop->orecv)
        snprintf(buf, len, "o_s(1) of %s (%s %s has no o_r fit)", set, o->series, o->stat);
    else if (i == LOGP_OR && o->measured && !o->cost.lop) /* each row's series: may have none */
        snprintf(buf, len, "%s (%s %s at p = 1; o_s(1) where it has no o_r fit)", set,
                 rows_series(o), o->stat);
    else
        snprintf(buf, len, "%s (%s %s at p = 1)", set, rows_series(o), o->stat);
    return buf;
}

/* Which rows of per-pair costs have closed forms, and with what L and o
 * (--verify: every row, check_p_list refuses a P beyond them). */
static void machine_closed(const opts_t *o, char *text, size_t len)
{
    char L[LOP_OUT_NUM_LEN], os[LOP_OUT_NUM_LEN];
    lop_out_format_csv(L, o->cost.logp.L_us);
    lop_out_format_csv(os, o->cost.logp.os_us);
    if (o->uniform_p >= 2 && o->uniform_p == o->pairs.p)
        text_add(text, len, "; %s: every pair costs L = %s, o_s = %s",
                 o->verify ? "closed_us" : "logp_us", L, os);
    else if (o->verify)
        text_add(text, len, "; closed_us: ranks 0..P-1 all cost L = %s, o_s = %s (P <= %u)", L,
                 os, o->uniform_p);
    else if (o->uniform_p >= 2)
        text_add(text, len, "; logp_us where ranks 0..P-1 all cost the same, P <= %u (L = %s, "
                 "o_s = %s), else empty (logp_us=unequal-costs)", o->uniform_p, L, os);
    else
        text_add(text, len, "; logp_us empty: the pairs cost differently (logp_us=unequal-costs)");
}

/* "# machine:": where every parameter of the rows came from, parameters of
 * one source named together (issue 21: a row describes one machine). */
static void machine_comment(FILE *out, const opts_t *o)
{
    static const char *const name[LOGP_PARAMS] = {"L", "o_s", "o_r", "g"};
    char src[LOGP_PARAMS][PATH_MAX + 128], text[LOGP_PARAMS * (PATH_MAX + 160)] = "";
    int done[LOGP_PARAMS] = {0};
    for (int i = 0; i < LOGP_PARAMS && (o->models & MODEL_LOGP); i++)
        logp_source(o, i, src[i], sizeof src[i]);
    for (int i = 0; i < LOGP_PARAMS && (o->models & MODEL_LOGP); i++) {
        if (done[i])
            continue;
        text_add(text, sizeof text, "%s%s", *text ? "; " : "", name[i]);
        for (int j = i + 1; j < LOGP_PARAMS; j++)
            if (!done[j] && strcmp(src[j], src[i]) == 0) {
                text_add(text, sizeof text, ", %s", name[j]);
                done[j] = 1;
            }
        text_add(text, sizeof text, " from %s", src[i]);
    }
    if (o->have_pairs && !o->best && !o->hybrid_report) /* the modes with a logp_us column */
        machine_closed(o, text, sizeof text);
    if (o->models & MODEL_LOP)
        text_add(text, sizeof text, "%sLoP o(p), L(p) from %s (%s %s)", *text ? "; " : "",
                 o->params != o->params_buf ? "--params" : "the shipped set", rows_series(o),
                 o->stat);
    if ((o->models & MODEL_LOP) && o->cost.lop && o->cost.lop->mc_rtt) /* issue 19 */
        text_add(text, sizeof text, "; a multicast (rgm's release) o_mc, L_mc(P-1) from "
                 LOP_MCAST_SERIES " %s, its answers " LOP_MCAST_ANSWERS, o->stat);
    lop_meta_print(out, "machine", text);
}

static void header_comments(FILE *out, const opts_t *o)
{
    fprintf(out, "# lopredict: %s\n", LOP_VERSION);
    if (o->have_set) {
        lop_meta_print(out, "params", o->params);
        fprintf(out, "# series: %s\n# stat: %s\n", o->series, o->stat);
    }
    char cnt[LOP_OUT_NUM_LEN];
    fprintf(out, "# cnt: %s\n# links: %u\n", lop_out_format_csv(cnt, o->cost.cnt), o->cost.links);
    /* per-pair costs: one o and one L only when every pair costs the same */
    if ((o->models & MODEL_LOGP) && (!o->have_pairs || (o->uniform_p >= 2 &&
                                                        o->uniform_p == o->pairs.p)))
        logp_comment(out, &o->cost.logp);
    machine_comment(out, o);
    interval_comment(out, o);
}

/* The flags cell of a row (formats.md): tokens joined by ';'. */
typedef struct {
    char text[1024];
    int extrapolated; /* the token is there */
} flags_t;

static void flag_add(flags_t *f, const char *col, const char *word)
{
    size_t len = strlen(f->text);
    snprintf(f->text + len, sizeof f->text - len, "%s%s%s%s", len ? ";" : "", col ? col : "",
             col ? "=" : "", word);
}

/* The three cells X_us,X_lo_us,X_hi_us of a predicted time 'v' in column
 * 'col' (NULL v: not predicted, all empty).  No time is never a number: the
 * CSV cell is empty, the table shows the word, the flags say which. */
static void time_out(lop_out_t *t, flags_t *f, const char *col, const predict_time_t *v)
{
    const char *bad = v ? predict_invalid(v->us) : NULL;
    if (!v)
        lop_out_empty(t);
    else if (bad) {
        flag_add(f, col, bad);
        if (t->csv)
            lop_out_empty(t);
        else
            lop_out_str(t, bad);
    } else
        lop_out_num(t, v->us);
    lop_out_num(t, v ? v->lo_us : NAN);
    lop_out_num(t, v ? v->hi_us : NAN);
    if (v && v->n_invalid)
        flag_add(f, col, "partial-interval");
    if (v && v->no_interval)
        flag_add(f, col, "no-interval");
    if (v && v->negative_logp)
        flag_add(f, col, "negative-logp");
    if (v && v->extrapolated && !f->extrapolated) {
        flag_add(f, NULL, "extrapolated");
        f->extrapolated = 1;
    }
}

/* A time column and its interval (formats.md). */
#define TIME_COLS(x) {x "_us", LOP_OUT_NUM, 0}, {x "_lo_us", LOP_OUT_NUM, 0}, \
                     {x "_hi_us", LOP_OUT_NUM, 0}
#define FLAGS_COL {"flags", LOP_OUT_STR, 0}


/* ------------------------------------------------------------ options */

static lop_status_t alg_item(void *ctx, char *name)
{
    opts_t *o = ctx;
    if (strcmp(name, "all") != 0)
        return barrier_alg_list_add("alg", name, o->alg, &o->n_alg, MAX_ALGS);
    o->alg_all = 1;
    return LOP_OK;
}

static lop_status_t parse_algs(opts_t *o, const char *arg)
{
    o->n_alg = 0;
    o->alg_all = 0;
    return lop_cli_items("alg", arg, alg_item, o);
}

/* Options that set a number or a flag in opts_t. */
typedef struct {
    int key;
    const char *name;
    double min;    /* smallest value allowed (doubles) */
    size_t offset; /* of the double or int in opts_t */
} field_opt_t;

static const field_opt_t double_opts[] = {
    {OPT_L, "L", 0, offsetof(opts_t, L)},
    {OPT_OS, "os", 0, offsetof(opts_t, os)},
    {OPT_OR, "or", 0, offsetof(opts_t, or)},
    {OPT_G, "g", 0, offsetof(opts_t, g)},
    {OPT_CNT, "cnt", 1, offsetof(opts_t, cost.cnt)},
    {OPT_OP_CONST, "op-const", 0, offsetof(opts_t, cost.op_const_us)},
    {OPT_OP_PER_P, "op-per-p", 0, offsetof(opts_t, cost.op_per_p_us)},
    {OPT_OP_LOG, "op-per-log2p", 0, offsetof(opts_t, cost.op_per_log2p_us)},
    {OPT_OW, "ow", 0, offsetof(opts_t, cost.ow_us)},
    {OPT_HW_OR, "hw-or", 0, offsetof(opts_t, cost.hw_or_us)},
};

static const field_opt_t flag_opts[] = {
    {OPT_CSV, "csv", 0, offsetof(opts_t, csv)},
    {OPT_SCHEDULE, "schedule", 0, offsetof(opts_t, schedule)},
    {OPT_SIMULATE, "simulate", 0, offsetof(opts_t, simulate)},
    {OPT_VERIFY, "verify", 0, offsetof(opts_t, verify)},
    {OPT_BEST, "best", 0, offsetof(opts_t, best)},
    {OPT_TIMING, "timing", 0, offsetof(opts_t, timing)},
    {OPT_LIST_ALGS, "list-algs", 0, offsetof(opts_t, list_algs)},
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* Options with a word argument or a list. */
static lop_status_t parse_word(opts_t *o, int key, const char *arg)
{
    static const char *const model_names[] = {"logp", "lop", "both", NULL};
    static const char *const stat_names[] = {"min", "avg", NULL};
    static const char *const arg_names[] = {"stream", "batch", NULL};
    static const int model_bits[] = {MODEL_LOGP, MODEL_LOP, MODEL_LOGP | MODEL_LOP};
    int i = 0;
    long v = 1;
    lop_status_t st;
    switch (key) {
    case 'a': return parse_algs(o, arg);
    case 'n': free(o->n); return lop_cli_long_list("n", arg, 1, 1000000, &o->n, &o->n_n);
    case 'p': free(o->p); return lop_cli_long_list("p", arg, 1, INT32_MAX, &o->p, &o->n_p);
    case 'm':
        st = lop_cli_choice("model", arg, model_names, &i);
        o->models = model_bits[i];
        o->model_given = 1;
        return st;
    case OPT_STAT:
        st = lop_cli_choice("stat", arg, stat_names, &i);
        o->stat = stat_names[i];
        o->stat_named = 1;
        return st;
    case OPT_LOP_ARG:
        st = lop_cli_choice("lop-arg", arg, arg_names, &i);
        o->lop_arg = i ? SCHED_LOP_BATCH : SCHED_LOP_STREAM;
        return st;
    case OPT_LINKS:
        st = lop_cli_long("links", arg, 1, 1000000, &v);
        o->cost.links = (unsigned)v;
        return st;
    case OPT_DRAWS:
        st = lop_cli_long("draws", arg, 1, 1000000, &v);
        if (st == LOP_OK && v < PREDICT_SIM_DRAWS_MIN)
            return lop_err(LOP_ERR_INVALID, "option --draws: %ld draws are too few for a 95 %% "
                           "interval (its 2.5 %% tail needs a draw): at least %d", v,
                           PREDICT_SIM_DRAWS_MIN);
        o->sim_draws = (size_t)v;
        return st;
    case OPT_SEED:
        st = lop_cli_long("seed", arg, 0, LONG_MAX, &v);
        o->uncert.seed = (unsigned long)v;
        return st;
    case OPT_PARAMS: o->params = arg; return LOP_OK;
    case OPT_SERIES: o->series = arg; o->series_named = 1; return LOP_OK;
    case OPT_MEASURED: o->measured = arg; return LOP_OK;
    case OPT_CHECK: o->check_file = arg; return LOP_OK;
    }
    return lop_err(LOP_ERR_INVALID, "option %d not handled", key);
}

/* --hybrid-algs: schedule algorithms only. */
static lop_status_t hybrid_alg_item(void *ctx, char *name)
{
    opts_t *o = ctx;
    const barrier_alg_t *a = barrier_alg_find(name);
    size_t n = 0;
    while (o->hybrid_algs[n])
        n++;
    if (!a || (a->flags & BARRIER_COST_ONLY))
        return lop_err(LOP_ERR_INVALID, "option --hybrid-algs: '%s' is not a schedule "
                       "algorithm (see --help)", name);
    if (n == MAX_ALGS)
        return lop_err(LOP_ERR_INVALID, "option --hybrid-algs: more than %d names", MAX_ALGS);
    o->hybrid_algs[n] = a;
    o->hybrid_algs_given = 1;
    return LOP_OK;
}

/* Per-pair costs, GOAL output and the receive order (options after OPT_COSTS). */
static lop_status_t parse_sim_option(opts_t *o, int key, const char *arg)
{
    static const char *const map_names[] = {"block", "rr", NULL};
    static const char *const order_names[] = {"program", "arrival", NULL};
    pairs_opts_t *po = &o->pairs_opts;
    lop_status_t st;
    int i = 0;
    switch (key) {
    case OPT_COSTS: po->costs = arg; return LOP_OK;
    case OPT_TOPOLOGY: po->topology = arg; return LOP_OK;
    case OPT_WRITE_COSTS: o->write_costs = arg; return LOP_OK;
    case OPT_GOAL: o->goal = 1; return LOP_OK;
    case OPT_PLACEMENT: o->placement = arg; return LOP_OK;
    case OPT_HYBRID_REPORT: o->hybrid_report = 1; return LOP_OK;
    case OPT_HYBRID_ALGS:
        memset(o->hybrid_algs, 0, sizeof o->hybrid_algs);
        return lop_cli_items("hybrid-algs", arg, hybrid_alg_item, o);
    case OPT_LEVEL_L: return pairs_parse_levels("level-L", arg, po->level_L_us, &po->n_L);
    case OPT_LEVEL_O: return pairs_parse_levels("level-o", arg, po->level_o_us, &po->n_o);
    case OPT_MAP:
        st = lop_cli_choice("map", arg, map_names, &i);
        po->map = i ? PAIRS_RR : PAIRS_BLOCK;
        po->map_given = 1;
        return st;
    case OPT_RECV_ORDER:
        st = lop_cli_choice("recv-order", arg, order_names, &i);
        o->recv_order = i ? SCHED_RECV_ARRIVAL : SCHED_RECV_PROGRAM;
        return st;
    }
    return lop_err(LOP_ERR_INVALID, "option %d not handled", key);
}

/* Which option gave a LogP parameter, for "# machine:" (--o gives two). */
static void logp_opt_note(opts_t *o, int key)
{
    static const int keys[LOGP_PARAMS] = {OPT_L, OPT_OS, OPT_OR, OPT_G};
    static const char *const names[LOGP_PARAMS] = {"--L", "--os", "--or", "--g"};
    for (int i = 0; i < LOGP_PARAMS; i++)
        if (keys[i] == key)
            o->logp_opt[i] = names[i];
    if (key == OPT_O)
        o->logp_opt[LOGP_OS] = o->logp_opt[LOGP_OR] = "--o";
}

static lop_status_t parse_option(opts_t *o, int key, const char *arg)
{
    logp_opt_note(o, key);
    for (size_t i = 0; i < COUNT(double_opts); i++)
        if (double_opts[i].key == key)
            return lop_cli_double(double_opts[i].name, arg, double_opts[i].min, 1e9,
                                  (double *)((char *)o + double_opts[i].offset));
    for (size_t i = 0; i < COUNT(flag_opts); i++)
        if (flag_opts[i].key == key) {
            *(int *)((char *)o + flag_opts[i].offset) = 1;
            return LOP_OK;
        }
    if (key >= OPT_COSTS)
        return parse_sim_option(o, key, arg);
    if (key == OPT_O) {
        lop_status_t st = lop_cli_double("o", arg, 0, 1e9, &o->os);
        o->or = o->os;
        return st;
    }
    return parse_word(o, key, arg);
}

static void opts_init(opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->alg_all = 1;
    o->models = MODEL_LOGP | MODEL_LOP;
    o->series = "rdmaw-inline";
    o->stat = "min";
    o->L = o->os = o->or = o->g = NAN;
    barrier_cost_init(&o->cost);
    o->uncert = lop_uncert_defaults;
    o->sim_draws = PREDICT_SIM_DRAWS;
}

static void opts_free(opts_t *o)
{
    free(o->n);
    free(o->p);
    pairs_free(&o->pairs);
    if (o->have_pred)
        predict_free(&o->pred);
    hybrid_place_free(&o->place);
    if (o->have_set)
        lop_paramset_free(&o->set);
}

/* The default P list: the ranks that per-pair costs describe (the machine
 * they were measured or built for), else 2..64. */
static lop_status_t default_p(opts_t *o)
{
    char list[32] = "2..64";
    if (o->have_pairs)
        snprintf(list, sizeof list, "%u", o->pairs.p);
    return o->p ? LOP_OK : lop_cli_long_list("p", list, 1, INT32_MAX, &o->p, &o->n_p);
}

/* ------------------------------------------------------- parameter set */

/* The shipped set: $LOP_DATA_DIR/mozart-2005/params.csv, else beside the
 * executable (bin/../data, or bin/../share/lop when installed), else ./data. */
static const char *default_params(char *buf, size_t len)
{
    static const char *const beside[] = {"../data", "../share/lop"};
    const char *env = getenv("LOP_DATA_DIR");
    char exe[PATH_MAX];
    if (env && *env) {
        snprintf(buf, len, "%s/mozart-2005/params.csv", env);
        return buf;
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? memrchr(exe, '/', (size_t)k) : NULL;
    for (size_t i = 0; slash && i < COUNT(beside); i++) {
        *slash = '\0';
        snprintf(buf, len, "%s/%s/mozart-2005/params.csv", exe, beside[i]);
        char *real = realpath(buf, NULL);
        if (real && strlen(real) < len)
            strcpy(buf, real);
        free(real);
        if (access(buf, R_OK) == 0)
            return buf;
    }
    snprintf(buf, len, "data/mozart-2005/params.csv");
    return buf;
}

/* Read the set when LoP or a LogP default needs it (or --params names one);
 * per-pair costs give every LogP parameter (logp_setup). */
static lop_status_t load_params(opts_t *o)
{
    int per_pair = o->pairs_opts.costs || o->pairs_opts.topology;
    int logp_defaults = !per_pair && (isnan(o->L) || isnan(o->os) || isnan(o->or));
    if (!(o->models & MODEL_LOP) && !logp_defaults && !o->params)
        return LOP_OK;
    if (!o->params)
        o->params = default_params(o->params_buf, sizeof o->params_buf);
    lop_status_t st = lop_paramset_read(o->params, &o->set);
    if (st)
        return st;
    o->have_set = 1;
    if (o->measured && !o->series_named)
        return LOP_OK; /* the series follows each row's executor */
    st = lop_lop_from_set(&o->set, o->series, o->stat, &o->lop);
    st = st ? st : lop_lop_mcast_from_set(&o->set, o->stat, &o->lop);
    o->cost.lop = st ? NULL : &o->lop;
    return st;
}

/* LogP parameters: the options, else the set at p = 1 (thesis 2.3.7: t_1:1).
 * With per-pair costs: L and o of the leading ranks that all cost the same
 * (the closed forms' machine, pairs_uniform_p), o_r that o unless --or
 * gives it (LogP has one o), never a parameter set's. */
static void logp_setup(opts_t *o)
{
    double pair_o, pair_L;
    if (!o->have_pairs) {
        /* without a set (--measured: set per row) the given values, NaN where none */
        predict_logp(o->cost.lop, o->L, o->os, o->or, o->g, &o->cost.logp);
        return;
    }
    o->uniform_p = pairs_uniform_p(&o->pairs, &pair_o, &pair_L);
    predict_logp(NULL, pair_L, pair_o, isnan(o->or) ? pair_o : o->or, o->g, &o->cost.logp);
}

/* How schedules are simulated under 'model': on the per-pair costs when
 * given, each receive then charged its own pair's o unless --or gave o_r. */
static sched_sim_t sim_params(opts_t *o, int model)
{
    sched_sim_t par = {model == MODEL_LOGP ? SCHED_SIM_LOGP : SCHED_SIM_LOP, &o->cost,
                       o->lop_arg, o->have_pairs ? &o->pairs : NULL, o->recv_order,
                       o->have_pairs && isnan(o->or)};
    return par;
}

/* The predictor over o->cost: draws of the fits of the series, if they
 * have a covariance (again whenever --measured changes the series). */
static lop_status_t pred_setup(opts_t *o)
{
    sched_sim_t sim = sim_params(o, MODEL_LOGP);
    if (o->have_pred && strcmp(o->pred_series, o->series) == 0)
        return LOP_OK;
    if (o->have_pred)
        predict_free(&o->pred);
    o->have_pred = 0;
    lop_status_t st = predict_init(&o->pred, &o->cost, o->L, o->os, o->or, &sim, &o->uncert,
                                   o->sim_draws);
    o->have_pred = st == LOP_OK;
    snprintf(o->pred_series, sizeof o->pred_series, "%s", o->cost.lop ? o->series : "");
    return st;
}


/* Say so when LoP was evaluated outside the fitted p range. */
static void warn_extrapolation(const opts_t *o)
{
    const barrier_cost_t *c = &o->cost;
    if (!c->lop || c->lop_pmin > c->lop_pmax)
        return;
    if (c->lop_pmin < c->lop->pmin || c->lop_pmax > c->lop->pmax)
        fprintf(stderr,
                "%s: warning: LoP evaluates o(p), L(p) at p = %g..%g, outside the range "
                "%g..%g fitted for %s %s: extrapolated\n",
                prog, c->lop_pmin, c->lop_pmax, c->lop->pmin, c->lop->pmax, o->series, o->stat);
}

/* --------------------------------------------------------- selections */

/* Is algorithm a selected?  With --alg all (the default), every one;
 * 'schedules' leaves the cost-only ones out. */
static size_t selection(const opts_t *o, int schedules, const barrier_alg_t **out)
{
    size_t n = 0;
    if (!o->alg_all) {
        for (size_t i = 0; i < o->n_alg; i++)
            if (!schedules || !(o->alg[i]->flags & BARRIER_COST_ONLY))
                out[n++] = o->alg[i];
        return n;
    }
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        if (!schedules || !((*a)->flags & BARRIER_COST_ONLY))
            out[n++] = *a;
    for (size_t i = 0; i < o->n_alg; i++) /* --alg all,hybrid */
        if (o->alg[i]->flags & BARRIER_HYBRID)
            out[n++] = o->alg[i];
    return n;
}

/* The k-th n to run 'a' with, and how many there are. */
static size_t n_count(const opts_t *o, const barrier_alg_t *a)
{
    return a->takes_n && o->n ? o->n_n : 1;
}

static uint32_t n_value(const opts_t *o, const barrier_alg_t *a, size_t k)
{
    return a->takes_n && o->n ? (uint32_t)o->n[k] : a->default_n;
}

/* n candidates for --best: the --n list, else 1..8. */
static size_t best_n_count(const opts_t *o, const barrier_alg_t *a)
{
    return !a->takes_n ? 1 : o->n ? o->n_n : 8;
}

static uint32_t best_n_value(const opts_t *o, const barrier_alg_t *a, size_t k)
{
    return !a->takes_n ? a->default_n : o->n ? (uint32_t)o->n[k] : (uint32_t)k + 1;
}

/* Is the hybrid asked for (--alg ...,hybrid or --hybrid-report)? */
static int wants_hybrid(const opts_t *o)
{
    for (size_t i = 0; i < o->n_alg; i++)
        if (o->alg[i]->flags & BARRIER_HYBRID)
            return 1;
    return o->hybrid_report;
}

/* ------------------------------------------------- schedules and runs */

static lop_status_t p_too_large(long p)
{
    return lop_err(LOP_ERR_RANGE, "option --p: P = %ld is too large for a schedule (at most %u)",
                   p, SCHED_MAX_P);
}

/* A limit's message as the option's error: "option --p: ...". */
static lop_status_t option_error(lop_status_t st, const char *opt)
{
    return lop_err(st, "option --%s: %s", opt, lop_errmsg());
}

/* Every schedule the rows build at P fits (stored for --schedule and --goal,
 * generated where it can be for a simulation), and with --verify its check:
 * the limits count ops by each algorithm's rule, nothing is built.  'best'
 * takes --best's n list. */
static lop_status_t limits_algs(const opts_t *o, const barrier_alg_t *const *algs, size_t n_algs,
                                int best, uint32_t p)
{
    for (size_t a = 0; a < n_algs; a++) {
        if (!algs[a]->build_rank)
            continue; /* cost-only: its cells say so; hybrid: limits_hybrid */
        for (size_t k = 0; k < (best ? best_n_count(o, algs[a]) : n_count(o, algs[a])); k++) {
            uint32_t n = best ? best_n_value(o, algs[a], k) : n_value(o, algs[a], k);
            lop_status_t st = o->verify                 ? sched_check_limit(algs[a], p, n)
                              : o->schedule || o->goal ? sched_limit(algs[a], p, n, NULL)
                                                       : sched_generate_limit(algs[a], p, n, NULL);
            if (st)
                return option_error(st, o->verify ? "verify" : "p");
        }
    }
    return LOP_OK;
}

/* Refuse before the first line, and before any work, what a row would
 * refuse: rows are streamed, so a late error would leave a cut table.  Op
 * counts and the checker's work are non-decreasing in P, so the largest P
 * of the list decides. */
static lop_status_t check_p_list(const opts_t *o)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = selection(o, 1, algs);
    int builds = o->simulate || o->verify || o->schedule || o->goal || (o->best && o->have_pairs);
    long p = 0;
    for (size_t i = 0; i < o->n_p; i++)
        p = o->p[i] > p ? o->p[i] : p;
    if (o->verify && n_algs == 0)
        return lop_err(LOP_ERR_INVALID, "option --verify: %s %s no schedule to check (a cost "
                       "model only)", o->alg[0]->name, o->n_alg > 1 ? "and the others have" : "has");
    if (o->verify && o->have_pairs && p > (long)o->uniform_p)
        return lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but ranks 0..%ld of --%s do "
                       "not all cost the same (ranks 0..P-1 do for P <= %u): --verify "
                       "compares LogP's closed forms, which assume one L and one o", p, p - 1,
                       o->pairs_opts.costs ? "costs" : "topology", o->uniform_p);
    if (o->measured || o->check_file || !(builds || wants_hybrid(o)))
        return LOP_OK; /* their schedules: measured_precheck, the file's reader */
    if (p > SCHED_MAX_P)
        return p_too_large(p);
    if (o->best)
        n_algs = selection(o, o->alg_all, algs);
    return builds ? limits_algs(o, algs, n_algs, o->best, (uint32_t)p) : LOP_OK;
}

/* The hybrid barrier at P, searched and checked (hybrid.h); with --timing
 * what the search found and gained over greedy on stderr. */
static lop_status_t hybrid_for(opts_t *o, long p, hybrid_result_t *res)
{
    sched_sim_t par = sim_params(o, MODEL_LOGP);
    char a[LOP_OUT_NUM_LEN], b[LOP_OUT_NUM_LEN], c[LOP_OUT_NUM_LEN], d[LOP_OUT_NUM_LEN];
    lop_status_t st = hybrid_build(&o->place, (uint32_t)p, &par,
                                   o->hybrid_algs_given ? o->hybrid_algs : NULL, res);
    if (st)
        return st;
    snprintf(o->hybrid_config, sizeof o->hybrid_config, "%s", res->config);
    if (o->timing)
        fprintf(stderr, "%s: hybrid P=%ld: %s us from %s [%s]; greedy %s us [%s], gain over "
                "greedy %s us; best flat %s %s us (%u too large to simulate, %u bounded out); %s "
                "search: %llu "
                "hybrids simulated, %llu combinations bounded out; a barrier by %s; %.3f s\n",
                prog, p, lop_out_format_csv(a, res->us), res->how, res->config,
                lop_out_format_csv(b, res->greedy_us), res->greedy,
                lop_out_format_csv(c, res->greedy_us - res->us),
                res->flat.alg ? res->flat.alg->name : "-", lop_out_format_csv(d, res->flat_us),
                res->flat_skipped, res->flat_bounded, res->exhaustive ? "exhaustive" : "local",
                (unsigned long long)res->evaluated, (unsigned long long)res->pruned, res->proof,
                res->search_s);
    return LOP_OK;
}

/* The schedule of a row; 'sim': for a simulation only, so generated from
 * rank 0's ops where the rule allows (sched_generate), else stored. */
static lop_status_t build(opts_t *o, const barrier_alg_t *a, uint32_t n, long p, int sim,
                          sched_t *s)
{
    if (p > SCHED_MAX_P)
        return p_too_large(p);
    if (a->flags & BARRIER_HYBRID) {
        hybrid_result_t res;
        lop_status_t st = hybrid_for(o, p, &res);
        if (st == LOP_OK)
            *s = res.sched; /* the result owns nothing else */
        return st;
    }
    double t0 = lop_timer_clock_s();
    lop_status_t st = sim ? sched_generate(a, (uint32_t)p, n, s) : sched_build(a, (uint32_t)p, n, s);
    if (st == LOP_OK && o->timing)
        fprintf(stderr, "%s: build %s n=%u P=%ld: %u ops%s in %.3f s\n", prog, a->name, n, p,
                s->n_ops, s->form ? " (generated from rank 0's)" : "", lop_timer_clock_s() - t0);
    return st;
}

static const char *model_name(int model)
{
    return model == MODEL_LOGP ? "logp" : "lop";
}

/* --timing: what one simulation of s under 'model' took. */
static void sim_timing(const opts_t *o, const sched_t *s, int model, const sched_sim_result_t *res)
{
    if (o->timing)
        fprintf(stderr,
                "%s: simulate %s P=%u %s: matching %.3f s, %llu events in %.3f s = %.3g "
                "events/s\n",
                prog, s->alg[0] ? s->alg : "schedule", s->p, model_name(model), res->match_s,
                (unsigned long long)res->events, res->run_s,
                res->events / fmax(res->run_s, 1e-9));
}

/* Simulated time of s under one model. */
static lop_status_t simulate(opts_t *o, const sched_t *s, int model, double *us)
{
    sched_sim_t par = sim_params(o, model);
    sched_sim_result_t res;
    lop_status_t st = sched_sim_run(s, &par, 0, &res);
    if (st)
        return st;
    *us = res.max_us;
    sim_timing(o, s, model, &res);
    return LOP_OK;
}

/* The model of a kind of prediction. */
static int kind_model(predict_kind_t kind)
{
    return kind == PREDICT_LOGP || kind == PREDICT_SIM_LOGP ? MODEL_LOGP : MODEL_LOP;
}

/* One predicted time with its interval; NULL *out when not predicted: the
 * model is not selected, or a simulation without a schedule (cost-only). */
static lop_status_t predict_one(opts_t *o, predict_kind_t kind, const barrier_alg_t *a,
                                uint32_t n, long p, const sched_t *s, predict_time_t *v,
                                const predict_time_t **out)
{
    int sim = kind == PREDICT_SIM_LOGP || kind == PREDICT_SIM_LOP;
    *out = NULL;
    if (!(o->models & kind_model(kind)) || (sim && !s))
        return LOP_OK;
    lop_status_t st = predict_time(&o->pred, kind, a, n, (uint32_t)p, s, v);
    if (st == LOP_OK && sim)
        sim_timing(o, s, kind_model(kind), &v->sim);
    *out = st ? NULL : v;
    return st;
}

static lop_status_t check(const opts_t *o, const sched_t *s)
{
    double t0 = lop_timer_clock_s();
    lop_status_t st = sched_check(s);
    if (o->timing)
        fprintf(stderr, "%s: check %s P=%u: %.3f s\n", prog, s->alg, s->p, lop_timer_clock_s() - t0);
    return st;
}

/* Closed form of one model. */
static double closed_us(opts_t *o, const barrier_alg_t *a, int model, uint32_t n, long p)
{
    if (!(o->models & model))
        return NAN;
    return model == MODEL_LOGP ? a->logp_us(&o->cost, (uint32_t)p, n)
                               : a->lop_us(&o->cost, (uint32_t)p, n);
}

/* -------------------------------------------------------- predictions */

/* Columns: alg,n,p,rounds, logp_us and lop_us, then with --simulate sim_us
 * for one model or sim_logp_us,sim_lop_us for both, each time with its
 * interval (X_lo_us,X_hi_us), then flags (formats.md). */
static const lop_out_col_t predict_cols[] = {
    {"alg", LOP_OUT_STR, 0},    {"n", LOP_OUT_INT, 0},     {"p", LOP_OUT_INT, 0},
    {"rounds", LOP_OUT_INT, 0}, TIME_COLS("logp"),         TIME_COLS("lop"),
    TIME_COLS("sim_logp"),      TIME_COLS("sim_lop"),      FLAGS_COL,
};
static const lop_out_col_t predict_sim1_cols[] = {
    {"alg", LOP_OUT_STR, 0},    {"n", LOP_OUT_INT, 0},     {"p", LOP_OUT_INT, 0},
    {"rounds", LOP_OUT_INT, 0}, TIME_COLS("logp"),         TIME_COLS("lop"),
    TIME_COLS("sim"),           FLAGS_COL,
};
static const lop_out_col_t predict_nosim_cols[] = {
    {"alg", LOP_OUT_STR, 0},    {"n", LOP_OUT_INT, 0},     {"p", LOP_OUT_INT, 0},
    {"rounds", LOP_OUT_INT, 0}, TIME_COLS("logp"),         TIME_COLS("lop"),
    FLAGS_COL,
};

static lop_status_t predict_begin(const opts_t *o, lop_out_t *t)
{
    if (!o->simulate)
        return lop_out_begin(t, stdout, "standard output", o->csv, predict_nosim_cols,
                             COUNT(predict_nosim_cols));
    if (o->models != (MODEL_LOGP | MODEL_LOP))
        return lop_out_begin(t, stdout, "standard output", o->csv, predict_sim1_cols,
                             COUNT(predict_sim1_cols));
    return lop_out_begin(t, stdout, "standard output", o->csv, predict_cols,
                         COUNT(predict_cols));
}

/* The simulated cells of one row from schedule s (NULL: empty cells, a
 * cost-only algorithm has no schedule). */
static lop_status_t sim_cells(opts_t *o, lop_out_t *t, flags_t *f, const barrier_alg_t *a,
                              uint32_t n, long p, const sched_t *s)
{
    static const char *const col[2] = {"sim_logp_us", "sim_lop_us"};
    const int one = o->models != (MODEL_LOGP | MODEL_LOP);
    const predict_time_t *out;
    predict_time_t v;
    lop_status_t st = LOP_OK;
    for (int k = PREDICT_SIM_LOGP; k <= PREDICT_SIM_LOP && !st; k++) {
        if (one && !(o->models & kind_model(k)))
            continue;
        st = predict_one(o, k, a, n, p, s, &v, &out);
        time_out(t, f, one ? "sim_us" : col[k - PREDICT_SIM_LOGP], out);
    }
    return st;
}

/* Simulated cells of one row (empty for cost-only algorithms). */
static lop_status_t predict_sim(opts_t *o, lop_out_t *t, flags_t *f, const barrier_alg_t *a,
                                uint32_t n, long p)
{
    sched_t s;
    if (a->flags & BARRIER_COST_ONLY)
        return sim_cells(o, t, f, a, n, p, NULL);
    lop_status_t st = build(o, a, n, p, 1, &s);
    if (st)
        return st;
    st = sim_cells(o, t, f, a, n, p, &s);
    sched_free(&s); /* a failed simulation too */
    return st;
}

/* A hybrid row: no closed forms; rounds and times of the schedule built. */
static lop_status_t predict_hybrid_row(opts_t *o, lop_out_t *t, long p)
{
    flags_t f = {0};
    sched_t s;
    lop_status_t st = build(o, &barrier_alg_hybrid, 0, p, 0, &s);
    if (st)
        return st;
    lop_out_str(t, barrier_alg_hybrid.name);
    lop_out_empty(t);
    lop_out_int(t, p);
    lop_out_int(t, s.n_steps);
    time_out(t, &f, "logp_us", NULL);
    time_out(t, &f, "lop_us", NULL);
    st = o->simulate ? sim_cells(o, t, &f, &barrier_alg_hybrid, 0, p, &s) : LOP_OK;
    sched_free(&s);
    lop_out_str(t, f.text);
    return st ? st : lop_out_row(t);
}

/* The LogP closed form's cells.  Its forms assume one o and one L, so with
 * per-pair costs it is computed only where ranks 0..P-1 all cost the same,
 * else left empty and flagged: never another machine's number (issue 21). */
static lop_status_t logp_cells(opts_t *o, lop_out_t *t, flags_t *f, const barrier_alg_t *a,
                               uint32_t n, long p)
{
    const predict_time_t *out = NULL;
    predict_time_t v;
    lop_status_t st = LOP_OK;
    if (o->have_pairs && p > (long)o->uniform_p)
        flag_add(f, "logp_us", "unequal-costs");
    else
        st = predict_one(o, PREDICT_LOGP, a, n, p, NULL, &v, &out);
    time_out(t, f, "logp_us", out);
    return st;
}

static lop_status_t predict_row(opts_t *o, lop_out_t *t, const barrier_alg_t *a, uint32_t n,
                                long p)
{
    if (a->flags & BARRIER_HYBRID)
        return predict_hybrid_row(o, t, p);
    flags_t f = {0};
    const predict_time_t *out;
    predict_time_t v;
    lop_out_str(t, a->name);
    n_out(t, a, n);
    lop_out_int(t, p);
    lop_out_int(t, a->rounds((uint32_t)p, n));
    lop_status_t st = logp_cells(o, t, &f, a, n, p);
    st = st ? st : predict_one(o, PREDICT_LOP, a, n, p, NULL, &v, &out);
    time_out(t, &f, "lop_us", st ? NULL : out);
    st = st ? st : o->simulate ? predict_sim(o, t, &f, a, n, p) : LOP_OK;
    lop_out_str(t, f.text);
    return st ? st : lop_out_row(t);
}

static lop_status_t run_predict(opts_t *o)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = selection(o, 0, algs);
    lop_out_t t;
    header_comments(stdout, o);
    lop_status_t st = predict_begin(o, &t);
    if (st)
        return st;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < n_count(o, algs[a]) && !st; k++)
            for (size_t i = 0; i < o->n_p && !st; i++)
                st = predict_row(o, &t, algs[a], n_value(o, algs[a], k), o->p[i]);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* ------------------------------------------------------------- verify */

typedef struct {
    int failed;           /* a schedule that is not a barrier */
    int approx[MAX_ALGS][2];    /* per selected algorithm and model: a closed form differed */
    char failures[2048];  /* why, one line each */
} verdict_t;

static const lop_out_col_t verify_cols[] = {
    {"alg", LOP_OUT_STR, 0},       {"n", LOP_OUT_INT, 0},      {"p", LOP_OUT_INT, 0},
    {"model", LOP_OUT_STR, 0},     {"rounds", LOP_OUT_INT, 0}, {"closed_us", LOP_OUT_NUM, 0},
    {"sim_us", LOP_OUT_NUM, 0},    {"diff_us", LOP_OUT_NUM, 0}, {"form", LOP_OUT_STR, 0},
    {"barrier", LOP_OUT_STR, 0},
};

static lop_status_t verify_model(opts_t *o, lop_out_t *t, const sched_t *s,
                                 const barrier_alg_t *a, int model, int valid, int *approx)
{
    double closed = closed_us(o, a, model, s->n ? s->n : a->default_n, s->p), sim = NAN;
    if (valid && simulate(o, s, model, &sim) != LOP_OK)
        sim = NAN;
    double diff = sim - closed;
    int exact = fabs(diff) <= 1e-9 * fmax(1, fabs(closed));
    *approx |= valid && !exact;
    lop_out_str(t, a->name);
    n_out(t, a, s->n);
    lop_out_int(t, s->p);
    lop_out_str(t, model_name(model));
    lop_out_int(t, s->n_steps);
    lop_out_num(t, closed);
    lop_out_num(t, sim);
    lop_out_num(t, diff);
    lop_out_str(t, !valid ? "" : exact ? "exact" : "approx");
    lop_out_str(t, valid ? "yes" : "NO");
    return lop_out_row(t);
}

static lop_status_t verify_one(opts_t *o, lop_out_t *t, size_t ai, const barrier_alg_t *a,
                               uint32_t n, long p, verdict_t *v)
{
    sched_t s; /* its check's size was refused up front (check_p_list) */
    lop_status_t st = build(o, a, n, p, 0, &s);
    if (st)
        return st;
    st = check(o, &s);
    if (st != LOP_OK && st != LOP_ERR_INVALID) { /* trouble, not a verdict */
        sched_free(&s);
        return st;
    }
    int valid = st == LOP_OK;
    if (!valid) {
        size_t len = strlen(v->failures);
        snprintf(v->failures + len, sizeof v->failures - len, "%s\n", lop_errmsg());
        v->failed = 1;
    }
    st = LOP_OK;
    for (int model = MODEL_LOGP; model <= MODEL_LOP && !st; model <<= 1)
        if (o->models & model)
            st = verify_model(o, t, &s, a, model, valid, &v->approx[ai][model - 1]);
    sched_free(&s);
    return st;
}

/* After the table: why forms were approximate, and which schedules failed. */
static lop_status_t verify_notes(lop_out_t *t, const verdict_t *v,
                                 const barrier_alg_t *const *algs, size_t n_algs)
{
    lop_status_t st = LOP_OK;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (int m = 0; m < 2 && !st; m++)
            if (v->approx[a][m])
                st = lop_out_comment(t, "approx: %s %s: %s", algs[a]->name, m ? "LoP" : "LogP",
                                     m ? algs[a]->lop_note : algs[a]->logp_note);
    for (const char *line = v->failures; *line && !st; line += strcspn(line, "\n") + 1)
        st = lop_out_comment(t, "%.*s", (int)strcspn(line, "\n"), line);
    return st;
}

static lop_status_t run_verify(opts_t *o, int *failed)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = selection(o, 1, algs);
    verdict_t *v = lop_calloc(1, sizeof *v);
    lop_out_t t;
    if (!v)
        return LOP_ERR_NOMEM;
    header_comments(stdout, o);
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", o->csv, verify_cols,
                                    COUNT(verify_cols));
    if (st) {
        free(v);
        return st;
    }
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < n_count(o, algs[a]) && !st; k++)
            for (size_t i = 0; i < o->n_p && !st; i++)
                st = verify_one(o, &t, a, algs[a], n_value(o, algs[a], k), o->p[i], v);
    if (st == LOP_OK)
        st = verify_notes(&t, v, algs, n_algs);
    lop_status_t end = lop_out_end(&t);
    *failed = v->failed;
    free(v);
    return st ? st : end;
}

/* --------------------------------------------------------------- best */

/* us is the winner's time; tie lists the runners-up whose interval overlaps
 * the winner's ("tie within uncertainty"), cheapest first, as alg or alg:n. */
static const lop_out_col_t best_cols[] = {
    {"p", LOP_OUT_INT, 0},     {"model", LOP_OUT_STR, 0}, {"alg", LOP_OUT_STR, 0},
    {"n", LOP_OUT_INT, 0},     {"us", LOP_OUT_NUM, 0},    {"lo_us", LOP_OUT_NUM, 0},
    {"hi_us", LOP_OUT_NUM, 0}, {"tie", LOP_OUT_STR, 0},   FLAGS_COL,
};

/* What --best ranks: the closed form, or with per-pair costs the simulated
 * time (undefined for a cost-only barrier, which has no schedule). */
static lop_status_t best_time(opts_t *o, const barrier_alg_t *a, int model, uint32_t n, long p,
                              predict_time_t *v)
{
    int logp = model == MODEL_LOGP;
    if (!o->have_pairs)
        return predict_time(&o->pred, logp ? PREDICT_LOGP : PREDICT_LOP, a, n, (uint32_t)p, NULL,
                            v);
    *v = (predict_time_t){.us = NAN, .lo_us = NAN, .hi_us = NAN};
    if (a->flags & BARRIER_COST_ONLY)
        return LOP_OK;
    sched_t s;
    lop_status_t st = build(o, a, n, p, 1, &s);
    if (st)
        return st;
    st = predict_time(&o->pred, logp ? PREDICT_SIM_LOGP : PREDICT_SIM_LOP, a, n, (uint32_t)p, &s,
                      v);
    sched_free(&s);
    return st;
}

/* One candidate of --best: an algorithm, its n and its predicted time. */
typedef struct {
    const barrier_alg_t *alg;
    uint32_t n;
    size_t order; /* in --alg and n order: equal times keep it */
    predict_time_t v;
} cand_t;

/* Valid times first, cheapest first; equal ones (and invalid ones) in order. */
static int cand_cmp(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    int bx = predict_invalid(x->v.us) != NULL, by = predict_invalid(y->v.us) != NULL;
    if (bx != by)
        return bx - by;
    if (!bx && x->v.us != y->v.us)
        return (x->v.us > y->v.us) - (x->v.us < y->v.us);
    return (x->order > y->order) - (x->order < y->order);
}

/* Every candidate's time at P under 'model', sorted by cand_cmp. */
static lop_status_t best_candidates(opts_t *o, const barrier_alg_t *const *algs, size_t n_algs,
                                    int model, long p, cand_t *c, size_t *n_c)
{
    lop_status_t st = LOP_OK;
    *n_c = 0;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < best_n_count(o, algs[a]) && !st; k++) {
            cand_t *x = &c[*n_c];
            x->order = (*n_c)++;
            x->alg = algs[a];
            x->n = best_n_value(o, algs[a], k);
            st = best_time(o, x->alg, model, x->n, p, &x->v);
        }
    qsort(c, *n_c, sizeof *c, cand_cmp);
    return st;
}

/* Why no candidate has a time: "3 infinite, 2 negative" ('none' when no candidate). */
static void best_why_none(const cand_t *c, size_t n_c, char *buf, size_t len)
{
    static const char *const word[] = {"negative", "infinite", "undefined"};
    buf[0] = '\0';
    for (size_t w = 0; w < COUNT(word); w++) {
        size_t k = 0, used = strlen(buf);
        for (size_t i = 0; i < n_c; i++)
            k += strcmp(predict_invalid(c[i].v.us), word[w]) == 0;
        if (k)
            snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "", k, word[w]);
    }
}

/* The winner (or, when no candidate has a valid time, a row saying so and
 * *none set) and the runners-up within its interval. */
static lop_status_t best_row(opts_t *o, lop_out_t *t, const barrier_alg_t *const *algs,
                             size_t n_algs, cand_t *c, int model, long p, int *none)
{
    size_t n_c;
    char tie[1024] = "";
    flags_t f = {0};
    lop_status_t st = best_candidates(o, algs, n_algs, model, p, c, &n_c);
    if (st)
        return st;
    int valid = n_c > 0 && !predict_invalid(c[0].v.us);
    for (size_t i = 1; valid && i < n_c && !predict_invalid(c[i].v.us); i++) {
        size_t len = strlen(tie);
        if (predict_overlap(&c[0].v, &c[i].v))
            snprintf(tie + len, sizeof tie - len, "%s%s%s%.0u", len ? ";" : "", c[i].alg->name,
                     c[i].alg->takes_n ? ":" : "", c[i].alg->takes_n ? c[i].n : 0);
    }
    lop_out_int(t, p);
    lop_out_str(t, model_name(model));
    if (!valid) { /* say so rather than print a made-up winner */
        char why[128];
        best_why_none(c, n_c, why, sizeof why);
        fprintf(stderr, "%s: --best: no candidate has a valid %s time at P = %ld (%s)\n", prog,
                model_name(model), p, why);
        *none = 1;
        lop_out_empty(t);
        lop_out_empty(t);
        time_out(t, &f, "us", &(predict_time_t){.us = NAN, .lo_us = NAN, .hi_us = NAN,
                                                 .extrapolated = n_c && c[0].v.extrapolated});
        lop_out_empty(t);
        lop_out_str(t, f.text);
        return lop_out_row(t);
    }
    lop_out_str(t, c[0].alg->name);
    n_out(t, c[0].alg, c[0].n);
    time_out(t, &f, "us", &c[0].v);
    lop_out_str(t, tie);
    lop_out_str(t, f.text);
    return lop_out_row(t);
}

/* Exit status 1 (*none) when at some P and model no candidate had a valid
 * time (every one negative, infinite or undefined): the row says so. */
static lop_status_t run_best(opts_t *o, int *none)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = selection(o, o->alg_all, algs), n_cand = 0;
    for (size_t a = 0; a < n_algs; a++)
        n_cand += best_n_count(o, algs[a]);
    cand_t *c = lop_calloc(n_cand ? n_cand : 1, sizeof *c);
    lop_out_t t;
    if (!c)
        return LOP_ERR_NOMEM;
    header_comments(stdout, o);
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", o->csv, best_cols,
                                    COUNT(best_cols));
    if (st) {
        free(c);
        return st;
    }
    if (o->have_pairs)
        st = lop_out_comment(&t, "us: simulated LogP times on the per-pair costs");
    for (size_t i = 0; i < o->n_p && !st; i++)
        for (int model = MODEL_LOGP; model <= MODEL_LOP && !st; model <<= 1)
            if (o->models & model)
                st = best_row(o, &t, algs, n_algs, c, model, o->p[i], none);
    if (st == LOP_OK && o->pred.closed)
        st = lop_out_comment(&t, "tie: runners-up whose %.0f %% interval overlaps the "
                             "winner's (tie within uncertainty)", 100 * o->uncert.level);
    lop_status_t end = lop_out_end(&t);
    free(c);
    return st ? st : end;
}

/* ---------------------------------------------------------- schedules */

/* --schedule and --goal print one schedule (--goal may print
 * --check-schedule's instead): refused with the run's other checks, before
 * a file is written. */
static lop_status_t check_one_schedule(const opts_t *o)
{
    if (!o->schedule && !(o->goal && !o->check_file))
        return LOP_OK;
    if (!o->alg_all && o->n_alg == 1 && o->n_n <= 1 && o->n_p == 1)
        return LOP_OK;
    return lop_err(LOP_ERR_INVALID, "option %s: needs one --alg, at most one --n and one --p%s",
                   o->schedule ? "--schedule" : "--goal",
                   o->schedule ? "" : ", or --check-schedule FILE");
}

static lop_status_t run_schedule(opts_t *o)
{
    sched_t s;
    const barrier_alg_t *a = o->alg[0];
    lop_status_t st = build(o, a, n_value(o, a, 0), o->p[0], 0, &s);
    if (st)
        return st;
    if (a->flags & BARRIER_HYBRID) /* checked by hybrid_build */
        printf("# hybrid: %s\n", o->hybrid_config);
    sched_csv_write(&s, stdout);
    sched_free(&s);
    return LOP_OK;
}

/* A schedule file, CSV or GOAL (goal.h).  Where a GOAL file leaves a send
 * free to run before a receive written above it, lop's in-order run is
 * stronger than the file's order: said on stderr, since the check and the
 * times are those of the order written. */
static lop_status_t schedule_read(const char *path, sched_t *s)
{
    goal_notes_t notes;
    if (!sched_goal_sniff(path))
        return sched_csv_read(path, s);
    lop_status_t st = sched_goal_read(path, s, &notes);
    if (st == LOP_OK && notes.loose)
        fprintf(stderr, "%s: warning: %s:%u: this send and %llu more do not require every "
                "receive written before them: lop runs a rank's ops in the order written, so "
                "the check and the times are those of that order\n", prog, path,
                notes.loose_line, (unsigned long long)notes.loose - 1);
    return st;
}

/* --goal: the schedule of one algorithm, n and P (or of --check-schedule's
 * file) in LogGOPSim's GOAL format. */
static lop_status_t run_goal(opts_t *o, FILE *out)
{
    sched_t s;
    lop_status_t st;
    if (o->check_file) /* a schedule file (read, not checked) */
        st = schedule_read(o->check_file, &s);
    else /* one --alg, --n and --p: check_one_schedule */
        st = build(o, o->alg[0], n_value(o, o->alg[0], 0), o->p[0], 0, &s);
    if (st)
        return st;
    sched_goal_write(&s, out);
    sched_free(&s);
    return LOP_OK;
}

/* The levels of the hybrid: --placement FILE (with --costs), or the
 * --topology machine's.  Errors name the option: first the options ... */
static lop_status_t place_options(const opts_t *o)
{
    int hybrid = wants_hybrid(o);
    if (o->placement && !o->pairs_opts.costs)
        return lop_err(LOP_ERR_INVALID, "option --placement: needs --costs FILE (the per-pair "
                                        "costs of the placed ranks)");
    if (o->placement && !hybrid)
        return lop_err(LOP_ERR_INVALID, "option --placement: only with --alg hybrid or "
                                        "--hybrid-report");
    if (hybrid && !o->have_pairs)
        return lop_err(LOP_ERR_INVALID, "option --alg: hybrid needs per-pair costs and levels: "
                                        "--topology SPEC --level-L .. --level-o .., or --costs "
                                        "FILE --placement FILE");
    if (hybrid && !o->placement && o->pairs_opts.costs)
        return lop_err(LOP_ERR_INVALID, "option --costs: hybrid needs the levels of the ranks: "
                                        "--placement FILE");
    return LOP_OK;
}

/* ... and the levels themselves, after the limits (check_p_list). */
static lop_status_t setup_place(opts_t *o)
{
    if (!wants_hybrid(o))
        return LOP_OK;
    lop_status_t st = o->placement ? hybrid_place_read(o->placement, &o->place)
                                   : hybrid_place_machine(&o->pairs, o->pairs.p, &o->place);
    o->have_place = st == LOP_OK;
    for (size_t i = 0; i < o->n_p && st == LOP_OK; i++)
        if (o->p[i] > (long)o->place.p)
            st = lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but --placement %s places %u "
                         "ranks", o->p[i], o->placement, o->place.p);
    return st;
}

/* Per-pair costs from --costs or --topology (LogP simulations only). */
static lop_status_t setup_pairs(opts_t *o)
{
    if (wants_hybrid(o) && o->verify)
        return lop_err(LOP_ERR_INVALID, "option --verify: hybrid has no closed form (use "
                                        "--simulate; hybrid schedules are checked when built)");
    lop_status_t st = pairs_from_opts(&o->pairs_opts, &o->pairs, &o->have_pairs);
    st = st ? st : default_p(o); /* the costs' ranks, before the checks against them */
    if (st)
        return st;
    if (o->write_costs && !o->have_pairs)
        return lop_err(LOP_ERR_INVALID, "option --write-costs: needs --topology or --costs");
    const char *from = o->pairs_opts.costs ? "costs" : "topology";
    int hybrid = wants_hybrid(o), uses = o->simulate || o->write_costs || o->best || o->verify ||
                                         (hybrid && (o->schedule || o->goal || o->hybrid_report));
    if (o->have_pairs && o->measured)
        return lop_err(LOP_ERR_INVALID, "option --%s: --measured compares each row with the "
                                        "fits of its series in a parameter set, not with "
                                        "per-pair costs (use --simulate)", from);
    if (o->have_pairs && !uses)
        return lop_err(LOP_ERR_INVALID, "option --%s: per-pair costs are used by --simulate, "
                                        "--best, --verify and --alg hybrid (and saved by "
                                        "--write-costs)", from);
    for (size_t i = 0; i < o->n_p && o->have_pairs && !o->check_file; i++)
        if (o->p[i] > (long)o->pairs.p)
            return lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but the per-pair costs of --%s "
                                            "describe %u ranks",
                           o->p[i], o->pairs_opts.costs ? "costs" : "topology", o->pairs.p);
    return place_options(o);
}

/* After the limits (check_p_list): the hybrid's levels. */
static lop_status_t setup_outputs(opts_t *o)
{
    return setup_place(o);
}

/* --write-costs, after every check of the run: the file is written to a
 * temporary file beside it, which costs_end() renames into place only when
 * the run and its output succeeded.  A refused or failed run leaves no file
 * (README, "A run's files are all or nothing"). */
static lop_status_t costs_begin(opts_t *o)
{
    char source[PATH_MAX + 64];
    if (!o->write_costs)
        return LOP_OK;
    snprintf(source, sizeof source, "%s%s%s", o->pairs_opts.costs ? o->pairs_opts.costs : "",
             o->pairs_opts.topology ? o->pairs_opts.topology : "",
             !o->pairs_opts.topology ? "" : o->pairs_opts.map == PAIRS_RR ? " rr" : " block");
    lop_status_t st = pairs_write_begin(&o->pairs, o->pairs.p, o->write_costs, source,
                                        &o->costs_w);
    o->costs_open = st == LOP_OK;
    return st;
}

/* Rename the --write-costs file into place when 'status' is LOP_OK, else
 * remove it; returns the outcome (LOP_OK without --write-costs). */
static lop_status_t costs_end(opts_t *o, lop_status_t status)
{
    if (!o->costs_open)
        return LOP_OK;
    o->costs_open = 0;
    return lop_csv_writer_end(&o->costs_w, status);
}

/* --hybrid-report: per P what the hybrid search found against greedy and
 * the best flat algorithm (the same numbers --timing notes). */
static const lop_out_col_t report_cols[] = {
    {"p", LOP_OUT_INT, 0},          {"tiers", LOP_OUT_INT, 0},       {"flat_alg", LOP_OUT_STR, 0},
    {"flat_n", LOP_OUT_INT, 0},     {"flat_us", LOP_OUT_NUM, 0},     {"greedy_us", LOP_OUT_NUM, 0},
    {"hybrid_us", LOP_OUT_NUM, 0},  {"gain_us", LOP_OUT_NUM, 0},     {"from", LOP_OUT_STR, 0},
    {"search", LOP_OUT_STR, 0},     {"simulated", LOP_OUT_INT, 0},   {"bounded", LOP_OUT_INT, 0},
    {"hybrid", LOP_OUT_STR, 0},     {"greedy", LOP_OUT_STR, 0},      {"proof", LOP_OUT_STR, 0},
};

static lop_status_t report_row(opts_t *o, lop_out_t *t, long p)
{
    hybrid_result_t res;
    lop_status_t st = hybrid_for(o, p, &res);
    if (st)
        return st;
    lop_out_int(t, p);
    lop_out_int(t, res.n_tiers);
    lop_out_str(t, res.flat.alg ? res.flat.alg->name : "");
    if (res.flat.alg && res.flat.alg->takes_n)
        lop_out_int(t, res.flat.n);
    else
        lop_out_empty(t);
    lop_out_num(t, res.flat.alg ? res.flat_us : NAN);
    lop_out_num(t, res.greedy_us);
    lop_out_num(t, res.us);
    lop_out_num(t, res.greedy_us - res.us);
    lop_out_str(t, res.how);
    lop_out_str(t, res.exhaustive ? "exhaustive" : "descent");
    lop_out_int(t, (long)res.evaluated);
    lop_out_int(t, (long)res.pruned);
    lop_out_text(t, res.config); /* "nwise(n=3,full)": a comma */
    lop_out_text(t, res.greedy);
    lop_out_str(t, res.proof);
    hybrid_result_free(&res);
    return lop_out_row(t);
}

static lop_status_t run_hybrid_report(opts_t *o)
{
    lop_out_t t;
    header_comments(stdout, o);
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", o->csv, report_cols,
                                    COUNT(report_cols));
    if (st == LOP_OK)
        st = lop_out_comment(&t, "simulated LogP times on per-pair costs; gain_us = greedy_us - "
                                 "hybrid_us; from: where the hybrid came from");
    for (size_t i = 0; i < o->n_p && !st; i++)
        st = report_row(o, &t, o->p[i]);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* --check-schedule FILE: is it a barrier; with --simulate its times. */
static lop_status_t run_check_file(opts_t *o, int *failed)
{
    char num[LOP_OUT_NUM_LEN];
    sched_t s;
    lop_status_t st = schedule_read(o->check_file, &s);
    if (st)
        return st;
    if (o->simulate && o->have_pairs && o->pairs.p < s.p) { /* before anything is printed */
        st = lop_err(LOP_ERR_INVALID, "per-pair costs for %u ranks, the schedule has P = %u",
                     o->pairs.p, s.p);
        sched_free(&s);
        return st;
    }
    st = check(o, &s);
    *failed = st == LOP_ERR_INVALID;
    st = *failed ? LOP_OK : st;
    if (*failed)
        fprintf(stderr, "%s: %s\n", prog, lop_errmsg()); /* "FILE:LINE: schedule ..." */
    else if (st == LOP_OK)
        printf("%s: a barrier: P = %u, %u ops, %u steps\n", o->check_file, s.p, s.n_ops,
                s.n_steps);
    for (int model = MODEL_LOGP; model <= MODEL_LOP && !*failed && !st && o->simulate;
         model <<= 1) {
        double us;
        if (!(o->models & model))
            continue;
        st = simulate(o, &s, model, &us);
        if (st == LOP_OK && predict_invalid(us)) /* no time is printed as one */
            printf("%s: simulated %s: %s\n", o->check_file, model_name(model),
                   predict_invalid(us));
        else if (st == LOP_OK)
            printf("%s: simulated %s: %s us\n", o->check_file, model_name(model),
                   lop_out_format_csv(num, us));
    }
    sched_free(&s);
    return st;
}


/* ------------------------------------------------------------- measured */

/* LoP and LogP parameters of 'series' (LogP from the set at p = 1), and
 * draws of its fits. */
static lop_status_t use_series(opts_t *o, const char *series)
{
    if (strlen(series) >= sizeof o->series_buf)
        return lop_err(LOP_ERR_PARSE, "series '%.20s...' is longer than %zu characters", series,
                       sizeof o->series_buf - 1);
    snprintf(o->series_buf, sizeof o->series_buf, "%s", series);
    o->series = o->series_buf;
    /* no set read (--model logp with --L, --os, --or): the series is a label */
    lop_status_t st = o->have_set ? lop_lop_from_set(&o->set, series, o->stat, &o->lop) : LOP_OK;
    st = st || !o->have_set ? st : lop_lop_mcast_from_set(&o->set, o->stat, &o->lop);
    o->cost.lop = st || !o->have_set ? NULL : &o->lop;
    if (st == LOP_OK)
        logp_setup(o);
    return st ? st : pred_setup(o);
}

enum { M_LOGP = PREDICT_LOGP, M_LOP = PREDICT_LOP, M_SIM_LOGP = PREDICT_SIM_LOGP,
       M_SIM_LOP = PREDICT_SIM_LOP, M_COUNT = PREDICT_KINDS }; /* the predictions compared */
static const char *const m_label[M_COUNT] = {"LogP closed form", "LoP closed form",
                                             "LogP simulation", "LoP simulation"};

/* MPI_Barrier's time at one p (rows of executor mpi). */
typedef struct {
    double p, us;
    size_t line;
} mpi_time_t;

/* What the join keeps; barrier.csv itself is read by fmt_barrier.h.  A
 * "file:<name>" row's schedule (lopbench --barrier --schedule) is the file
 * <name> beside barrier.csv, read once. */
typedef struct {
    const lop_fmt_barrier_t *f;      /* barrier.csv's rows */
    double abs_err[M_COUNT];         /* sums of |predicted - measured| / measured */
    size_t count[M_COUNT];
    mpi_time_t *mpi;                 /* MPI_Barrier rows, sorted by p */
    size_t n_mpi;
    char file_name[64];              /* the schedule file in 'file_sched', or "" */
    sched_t file_sched;
} measured_t;

static int mpi_time_cmp(const void *a, const void *b)
{
    double x = ((const mpi_time_t *)a)->p, y = ((const mpi_time_t *)b)->p;
    return (x > y) - (x < y);
}

/* Index every MPI_Barrier row by p, once (a lookup per row would make the
 * join quadratic).  A repeated p is an error: silently skipping it would
 * change vs_mpi. */
static lop_status_t mpi_index(measured_t *m)
{
    const lop_fmt_barrier_t *f = m->f;
    m->mpi = lop_calloc(f->n_rows, sizeof *m->mpi);
    if (!m->mpi)
        return LOP_ERR_NOMEM;
    for (size_t r = 0; r < f->n_rows; r++)
        if (strcmp(f->row[r].executor, LOP_FMT_BARRIER_MPI_EXEC) == 0)
            m->mpi[m->n_mpi++] = (mpi_time_t){f->row[r].p, f->row[r].avg_us, f->row[r].line};
    qsort(m->mpi, m->n_mpi, sizeof *m->mpi, mpi_time_cmp);
    lop_status_t st = LOP_OK;
    for (size_t i = 1; i < m->n_mpi && st == LOP_OK; i++)
        if (m->mpi[i].p == m->mpi[i - 1].p)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: a second MPI_Barrier row for p = %.0f "
                         "(line %zu)", f->path, m->mpi[i].line > m->mpi[i - 1].line ?
                         m->mpi[i].line : m->mpi[i - 1].line, m->mpi[i].p,
                         m->mpi[i].line > m->mpi[i - 1].line ? m->mpi[i - 1].line :
                         m->mpi[i].line);
    return st;
}

/* MPI_Barrier's time at p in the same file (0 if absent). */
static double mpi_barrier_us(const measured_t *m, double p)
{
    mpi_time_t key = {p, 0, 0};
    const mpi_time_t *t = m->n_mpi ? bsearch(&key, m->mpi, m->n_mpi, sizeof key,
                                             mpi_time_cmp) : NULL;
    return t ? t->us : 0;
}

/* The four predictions of one algorithm, n and P, or of schedule 's' (no
 * closed forms); pred[k] NULL where none. */
static lop_status_t predict_all(opts_t *o, const barrier_alg_t *a, uint32_t n, long p,
                                const sched_t *s, predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT && !st; k++) {
        int sim = k == M_SIM_LOGP || k == M_SIM_LOP;
        pred[k] = NULL;
        if (sim || a)
            st = predict_one(o, k, a, n, p, sim ? s : NULL, &v[k], &pred[k]);
    }
    return st;
}

/* The predictions of an algorithm row (its schedule built here). */
static lop_status_t predict_alg(opts_t *o, const barrier_alg_t *a, uint32_t n, long p,
                                predict_time_t *v, const predict_time_t **pred)
{
    if (a->flags & BARRIER_HYBRID) { /* needs per-pair costs: not predicted here */
        for (int k = 0; k < M_COUNT; k++)
            pred[k] = NULL;
        return LOP_OK;
    }
    sched_t s;
    int sched = !(a->flags & BARRIER_COST_ONLY);
    lop_status_t st = sched ? build(o, a, n, p, 1, &s) : LOP_OK;
    if (st)
        return st;
    st = predict_all(o, a, n, p, sched ? &s : NULL, v, pred);
    if (sched)
        sched_free(&s);
    return st;
}

/* The schedule file of a "file:<name>" row, beside barrier.csv and checked;
 * NULL with a warning when there is none (the row is then not predicted). */
static const sched_t *file_schedule(const lop_fmt_barrier_row_t *row, measured_t *m,
                                    const char *name, lop_status_t *st)
{
    if (strcmp(m->file_name, name) == 0)
        return &m->file_sched;
    sched_free(&m->file_sched);
    m->file_name[0] = '\0';
    const char *slash = strrchr(m->f->path, '/');
    char path[4200];
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - m->f->path + 1) : 0, m->f->path,
             name);
    if (!lop_name_ok(name) || access(path, R_OK) != 0)
        return NULL; /* predict_file warns */
    *st = schedule_read(path, &m->file_sched);
    *st = *st ? *st : sched_check(&m->file_sched);
    if (*st) {
        char why[1024];
        snprintf(why, sizeof why, "%s", lop_errmsg());
        *st = lop_err(*st, "%s:%zu: %s", m->f->path, row->line, why); /* why: "FILE:LINE: ..." */
        return NULL;
    }
    snprintf(m->file_name, sizeof m->file_name, "%s", name);
    return &m->file_sched;
}

/* The schedule of a "file:<name>" row at P, read and checked; NULL with
 * *st LOP_OK when there is no such file. */
static const sched_t *file_row_schedule(const lop_fmt_barrier_row_t *row, measured_t *m,
                                        lop_status_t *st)
{
    const char *name = row->alg + strlen(LOP_FMT_BARRIER_FILE_PREFIX);
    const sched_t *s = file_schedule(row, m, name, st);
    if (s && s->p != row->p) {
        *st = lop_err(LOP_ERR_PARSE, "%s:%zu: p = %u, but schedule '%s' is for %u ranks",
                      m->f->path, row->line, row->p, name, s->p);
        return NULL;
    }
    return s;
}

/* A "file:<name>" row: simulations from the schedule file, no closed form. */
static lop_status_t predict_file(opts_t *o, const lop_fmt_barrier_row_t *row, measured_t *m,
                                 predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT; k++)
        pred[k] = NULL;
    const sched_t *s = file_row_schedule(row, m, &st);
    if (!s && st == LOP_OK)
        fprintf(stderr, "%s: warning: %s:%zu: no schedule file '%s' beside it: row not "
                "predicted\n", prog, m->f->path, row->line,
                row->alg + strlen(LOP_FMT_BARRIER_FILE_PREFIX));
    return s ? predict_all(o, NULL, 0, row->p, s, v, pred) : st;
}

/* The algorithm of a row of barrier.csv (read and checked by fmt_barrier.h)
 * and its n; '*a' is NULL for a "file:<name>" row. */
static lop_status_t measured_alg(const measured_t *m, const lop_fmt_barrier_row_t *row,
                                 const barrier_alg_t **a, uint32_t *n)
{
    const char *name = row->alg, *prefix = LOP_FMT_BARRIER_FILE_PREFIX;
    int from_file = strncmp(name, prefix, strlen(prefix)) == 0;
    *a = strcmp(name, "hybrid") == 0 ? &barrier_alg_hybrid : barrier_alg_find(name);
    *n = 0;
    if (!*a && !from_file)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown algorithm '%s'", m->f->path, row->line,
                       name);
    if (*a && (*a)->takes_n && row->n == 0) /* never the default in its place */
        return lop_err(LOP_ERR_PARSE, "%s:%zu: n %s: %s takes an n >= 1", m->f->path, row->line,
                       row->n_empty ? "is empty" : "= 0", name);
    *n = *a ? barrier_alg_n(*a, row->n) : 0;
    return LOP_OK;
}

/* inside_X: is the measurement within the prediction's interval? */
static void inside_out(lop_out_t *t, const predict_time_t *v, double us)
{
    if (!v || isnan(v->lo_us) || isnan(v->hi_us))
        lop_out_empty(t);
    else
        lop_out_str(t, us >= v->lo_us && us <= v->hi_us ? "yes" : "no");
}

static lop_status_t measured_row(opts_t *o, const lop_fmt_barrier_row_t *row, measured_t *m,
                                 lop_out_t *t)
{
    static const char *const col[M_COUNT] = {"logp_us", "lop_us", "sim_logp_us", "sim_lop_us"};
    const barrier_alg_t *a;
    const predict_time_t *pred[M_COUNT];
    predict_time_t v[M_COUNT];
    flags_t f = {0};
    uint32_t n = 0, p = row->p;
    double us = row->avg_us;
    lop_status_t st = measured_alg(m, row, &a, &n);
    if (st == LOP_OK && !o->series_named)
        st = use_series(o, row->series);
    st = st ? st : a ? predict_alg(o, a, n, p, v, pred) : predict_file(o, row, m, v, pred);
    if (st)
        return st;
    lop_out_str(t, row->executor);
    lop_out_str(t, a ? a->name : row->alg);
    if (a)
        n_out(t, a, n);
    else
        lop_out_empty(t);
    lop_out_int(t, p);
    lop_out_str(t, o->series);
    lop_out_num(t, us);
    double err[M_COUNT];
    for (int k = 0; k < M_COUNT; k++) {
        int time = pred[k] && !predict_invalid(pred[k]->us);
        err[k] = time ? (pred[k]->us - us) / us : NAN;
        time_out(t, &f, col[k], pred[k]);
        m->abs_err[k] += isnan(err[k]) ? 0 : fabs(err[k]);
        m->count[k] += !isnan(err[k]);
    }
    for (int k = 0; k < M_COUNT; k++)
        lop_out_num(t, err[k]);
    for (int k = 0; k < M_COUNT; k++)
        inside_out(t, pred[k], us);
    double base = mpi_barrier_us(m, (double)p);
    lop_out_num(t, base > 0 ? us / base : NAN);
    lop_out_str(t, f.text);
    return lop_out_row(t);
}

/* Which model describes the machine: mean |relative error| of each. */
static lop_status_t measured_summary(lop_out_t *t, const measured_t *m)
{
    int best = -1;
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT; k++) {
        if (!m->count[k])
            continue;
        double mean = m->abs_err[k] / (double)m->count[k];
        st = st ? st : lop_out_comment(t, "mean |error| of the %s: %.1f%% over %zu rows",
                                       m_label[k], 100 * mean, m->count[k]);
        if (best < 0 || mean < m->abs_err[best] / (double)m->count[best])
            best = k;
    }
    if (best >= 0 && st == LOP_OK)
        st = lop_out_comment(t, "closest to the measurements: the %s", m_label[best]);
    return st;
}

/* --measured FILE: every algorithm row of lopbench --barrier's output next
 * to the LogP and LoP predictions for the same algorithm, n and P. */
static const lop_out_col_t measured_cols[] = {
    {"executor", LOP_OUT_STR, 0},      {"alg", LOP_OUT_STR, 0},
    {"n", LOP_OUT_INT, 0},             {"p", LOP_OUT_INT, 0},
    {"series", LOP_OUT_STR, 0},        {"measured_us", LOP_OUT_NUM, 0},
    TIME_COLS("logp"),                 TIME_COLS("lop"),
    TIME_COLS("sim_logp"),             TIME_COLS("sim_lop"),
    {"err_logp", LOP_OUT_PCT, 0},      {"err_lop", LOP_OUT_PCT, 0},
    {"err_sim_logp", LOP_OUT_PCT, 0},  {"err_sim_lop", LOP_OUT_PCT, 0},
    {"inside_logp", LOP_OUT_STR, 0},   {"inside_lop", LOP_OUT_STR, 0},
    {"inside_sim_logp", LOP_OUT_STR, 0}, {"inside_sim_lop", LOP_OUT_STR, 0},
    {"vs_mpi", LOP_OUT_NUM, 3},        FLAGS_COL,
};

/* Free what run_measured holds. */
static void measured_free(measured_t *m, lop_fmt_barrier_t *f)
{
    sched_free(&m->file_sched);
    free(m->mpi);
    lop_fmt_barrier_free(f);
}

/* Every row's algorithm, schedule and series found before the first is
 * printed: a bad one leaves stdout empty. */
static lop_status_t measured_precheck(opts_t *o, measured_t *m, int *hybrid_rows)
{
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < m->f->n_rows && st == LOP_OK; r++) {
        const lop_fmt_barrier_row_t *row = &m->f->row[r];
        const barrier_alg_t *a = NULL;
        uint32_t n;
        lop_lop_t lop;
        if (strcmp(row->executor, LOP_FMT_BARRIER_MPI_EXEC) == 0)
            continue;
        st = measured_alg(m, row, &a, &n);
        if (st == LOP_OK && !a) /* a schedule file: refused here, before the first line */
            (void)file_row_schedule(row, m, &st);
        if (st == LOP_OK && a && a->build_rank && sched_limit(a, row->p, n, NULL))
            st = lop_err(LOP_ERR_RANGE, "%s:%zu: %s", m->f->path, row->line, lop_errmsg());
        *hybrid_rows |= st == LOP_OK && a && (a->flags & BARRIER_HYBRID);
        if (st == LOP_OK && !o->series_named && o->have_set &&
            lop_lop_from_set(&o->set, row->series, o->stat, &lop) != LOP_OK)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: %s", m->f->path, row->line, lop_errmsg());
    }
    if (st == LOP_OK && !m->f->has_series && !o->series_named) {
        fprintf(stderr, "%s: warning: %s has no series column (written before lopbench "
                "recorded it): ", prog, m->f->path);
        for (size_t i = 0; lop_fmt_barrier_legacy[i][0]; i++)
            fprintf(stderr, "%s%s%s with %s", i ? ", " : "", lop_fmt_barrier_legacy[i][0],
                    i ? "" : " is compared", lop_fmt_barrier_legacy[i][1]);
        fprintf(stderr, "\n");
    }
    return st;
}

static lop_status_t run_measured(opts_t *o)
{
    lop_fmt_barrier_t f;
    measured_t m = {.f = &f};
    lop_out_t t;
    lop_status_t st = lop_fmt_barrier_read(o->measured, SCHED_MAX_P, &f);
    if (st)
        return st;
    st = mpi_index(&m);
    int hybrid_rows = 0;
    st = st ? st : measured_precheck(o, &m, &hybrid_rows);
    if (st) {
        measured_free(&m, &f);
        return st;
    }
    char cnt[LOP_OUT_NUM_LEN];
    printf("# lopredict: %s\n", LOP_VERSION);
    lop_meta_print(stdout, "measured", o->measured);
    if (o->have_set) { /* else LogP from --L, --os, --or alone */
        lop_meta_print(stdout, "params", o->params);
        printf("# stat: %s\n", o->stat);
    }
    printf("# cnt: %s\n", lop_out_format_csv(cnt, o->cost.cnt));
    machine_comment(stdout, o);
    interval_comment(stdout, o);
    printf("# err_* = (predicted - measured) / measured; inside_* = measured within the "
           "interval; vs_mpi = measured / MPI_Barrier at the same p\n");
    if (hybrid_rows)
        printf("# hybrid rows: not predicted (they need per-pair costs: lopredict --alg hybrid "
               "--simulate --model logp --costs FILE --placement FILE)\n");
    st = lop_out_begin(&t, stdout, "standard output", o->csv, measured_cols,
                       COUNT(measured_cols));
    if (st) {
        measured_free(&m, &f);
        return st;
    }
    for (size_t r = 0; r < f.n_rows && st == LOP_OK; r++)
        if (strcmp(f.row[r].executor, LOP_FMT_BARRIER_MPI_EXEC) != 0)
            st = measured_row(o, &f.row[r], &m, &t);
    if (st == LOP_OK)
        st = measured_summary(&t, &m);
    lop_status_t end = lop_out_end(&t);
    measured_free(&m, &f);
    return st ? st : end;
}

/* --------------------------------------------------------------- main */

/* --help's list of algorithms, from their descriptors (barrier.h). */
static void algs_usage(FILE *out)
{
    fprintf(out, "\nAlgorithms (--alg), with what n means and where they come from:\n");
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        fprintf(out, "  %-9s %s", (*a)->name, (*a)->title);
        if ((*a)->takes_n)
            fprintf(out, "; n: %s (default %u)", (*a)->n_meaning, (*a)->default_n);
        fprintf(out, "\n            %s\n", (*a)->cite);
    }
}

/* One mode a run (--goal may print --check-schedule's schedule), and no
 * option the mode would ignore: two asked for are refused, never resolved
 * by a hidden precedence. */
static lop_status_t check_modes(const opts_t *o)
{
    const struct {
        const char *option;
        int on;
    } mode[] = {
        {"--check-schedule", o->check_file != NULL}, {"--measured", o->measured != NULL},
        {"--hybrid-report", o->hybrid_report},       {"--schedule", o->schedule},
        {"--verify", o->verify},                     {"--best", o->best},
        {"--goal", o->goal && !o->check_file},      {"--list-algs", o->list_algs},
    };
    const char *first = NULL;
    for (size_t i = 0; i < sizeof mode / sizeof *mode; i++) {
        if (mode[i].on && first)
            return lop_err(LOP_ERR_INVALID, "options %s and %s are two modes: give one (see "
                           "--help)", first, mode[i].option);
        first = mode[i].on ? mode[i].option : first;
    }
    if (o->simulate && (o->schedule || o->goal))
        return lop_err(LOP_ERR_INVALID, "option --simulate has no effect with %s: it prints "
                       "a schedule, not times", o->schedule ? "--schedule" : "--goal");
    if (o->csv && o->check_file)
        return lop_err(LOP_ERR_INVALID, "option --csv has no effect with --check-schedule: it "
                       "prints a verdict, not a table");
    return LOP_OK;
}

static lop_status_t parse_args(opts_t *o, int argc, char **argv, int *help)
{
    lop_cli_t cli;
    const char *arg;
    lop_status_t st = lop_cli_init(&cli, argc, argv, options);
    for (int key; st == LOP_OK && (key = lop_cli_next(&cli, &arg)) != LOP_CLI_END;)
        st = key == LOP_CLI_ERROR ? LOP_ERR_INVALID
             : key == 'h'         ? (*help = 1, LOP_OK)
                                  : parse_option(o, key, arg);
    if (st == LOP_OK && lop_cli_operand_index(&cli) < argc)
        st = lop_err(LOP_ERR_INVALID, "unexpected argument '%s' (see --help)",
                     argv[lop_cli_operand_index(&cli)]);
    lop_cli_free(&cli);
    return st || *help ? st : check_modes(o);
}

/* The chosen mode, writing to stdout; *failed when a schedule is no barrier. */
static lop_status_t run_mode(opts_t *o, int *failed)
{
    if (o->check_file)
        return run_check_file(o, failed);
    if (o->measured)
        return run_measured(o);
    if (o->hybrid_report)
        return run_hybrid_report(o);
    if (o->schedule)
        return run_schedule(o);
    if (o->verify)
        return run_verify(o, failed);
    if (o->best)
        return run_best(o, failed);
    return run_predict(o);
}

/* Per-pair costs are LogP parameters (Meyer and Elster's O and L): LogP is
 * implied, and an option that would bring a second machine into a row (LoP,
 * a parameter set, its series or statistic, one L or o_s for every pair) is
 * refused before anything is read or written (issue 21).  --or and --g stay:
 * the costs have no gap, and o_r defaults to the pair's o.  --stat chooses
 * among a set's fits (min, avg) and had no effect here; a pairs.csv has its
 * statistic in o_us, L_us already (lopbench --pairs-stat, "# stat:"). */
static lop_status_t per_pair_model(opts_t *o)
{
    const char *from = o->pairs_opts.costs ? "--costs" : "--topology";
    const char *twice = o->logp_opt[LOGP_L] ? o->logp_opt[LOGP_L] : o->logp_opt[LOGP_OS];
    if (!o->pairs_opts.costs && !o->pairs_opts.topology)
        return LOP_OK;
    if (o->measured)
        return LOP_OK; /* each row's series of a set: setup_pairs refuses the costs, saying why */
    if (o->model_given && (o->models & MODEL_LOP))
        return lop_err(LOP_ERR_INVALID, "option --model: LoP is not defined on per-pair costs "
                       "(%s gives LogP's o and L per pair): LogP is implied, leave --model out",
                       from);
    if (twice)
        return lop_err(LOP_ERR_INVALID, "option %s: %s gives L and o_s per pair (--or and --g "
                       "set the receive overhead and the gap)", twice, from);
    if (o->params || o->series_named || o->stat_named)
        return lop_err(LOP_ERR_INVALID, "option --%s: no parameter set is used with %s (its "
                       "costs give LogP's parameters; LoP is not defined on them)%s",
                       o->params ? "params" : o->series_named ? "series" : "stat", from,
                       o->params || o->series_named || !o->pairs_opts.costs ? ""
                       : "; pairs.csv's o_us and L_us are already the statistic lopbench "
                         "--pairs-stat chose");
    o->models = MODEL_LOGP;
    return LOP_OK;
}

/* Every check of the options first, then --write-costs' temporary file,
 * then the mode (renamed into place by main, after stdout: costs_end). */
static lop_status_t run(opts_t *o, int *failed)
{
    lop_status_t st = per_pair_model(o);
    st = st ? st : load_params(o);
    st = st ? st : setup_pairs(o);
    st = st ? st : check_one_schedule(o);
    if (st)
        return st;
    logp_setup(o);
    st = check_p_list(o); /* before anything is built, written or printed */
    st = st ? st : setup_outputs(o);
    st = st ? st : pred_setup(o);
    st = st ? st : costs_begin(o);
    if (st)
        return st;
    if (o->goal) /* may be large: straight out, like --schedule */
        return run_goal(o, stdout);
    st = run_mode(o, failed);
    warn_extrapolation(o);
    return st;
}

int main(int argc, char **argv)
{
    opts_t o;
    int help = 0, failed = 0;
    opts_init(&o);
    lop_status_t st = parse_args(&o, argc, argv, &help);
    if (st == LOP_OK && help) {
        lop_cli_usage(stdout, "lopredict [options]",
                      "Closed-form LogP and LoP costs, schedules, validity checks and\n"
                      "simulations of barrier algorithms (see models/README.md).",
                      options);
        algs_usage(stdout);
        opts_free(&o);
        return lop_stdout_close(prog, 0) ? LOP_EXIT_FAILED : LOP_EXIT_OK;
    }
    st = st ? st : o.list_algs ? barrier_algs_print(stdout, o.csv) : run(&o, &failed);
    if (st)
        lop_err_print(prog);
    int write_failed = lop_stdout_close(prog, st != LOP_OK);
    /* --write-costs last: its file appears only when the rest succeeded */
    lop_status_t saved = costs_end(&o, st ? st : write_failed ? LOP_ERR_IO : LOP_OK);
    if (st == LOP_OK && !write_failed && saved) {
        lop_err_print(prog);
        st = saved;
    }
    opts_free(&o);
    if (st)
        return lop_exit_code(st);
    return write_failed ? LOP_EXIT_FAILED : failed ? LOP_EXIT_NO : LOP_EXIT_OK;
}
