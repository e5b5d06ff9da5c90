/*
 * lopredict - barrier algorithms in the LogP and LoP models: closed-form
 * costs, message schedules, the validity check and event simulation
 * (models/README.md).  This file is the command line: the option table, the
 * table of modes (one file each, mode_*.c) that --help lists and that
 * refuses two at once, and the order of a run.  Rows are printed as they are
 * computed (src/out.h), so a long --p list needs no memory for its table; an
 * error stops the table with a message and a non-zero exit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "costs.h"
#include "lopredict.h"
#include "out.h"
#include "params.h"
#include "work.h"

static const char prog[] = LOPREDICT_PROG;

static lop_cli_parse_fn parse_algs, parse_o, parse_cnt, parse_draws, parse_hybrid_algs;

static const char *const model_names[] = {"logp", "lop", "both", NULL};
static const int model_bits[] = {MODEL_LOGP, MODEL_LOP, MODEL_LOGP | MODEL_LOP};
static const char *const stat_names[] = {"min", "avg", "median", NULL};
static const char *const lop_arg_names[] = {"stream", "batch", NULL};       /* sched_lop_arg_t */
static const char *const map_names[] = {"block", "rr", NULL};               /* pairs_map_t */
static const char *const recv_order_names[] = {"program", "arrival", NULL}; /* sched_recv_order_t */

#define AT(member) LOP_CLI_AT(lopredict_opts_t, member)
#define MARK(member) LOP_CLI_MARK(lopredict_opts_t, member)
/* A time in us. */
#define US(member) LOP_CLI_REAL, AT(member), .max = 1e9
/* A LogP parameter in us, and the option that gave it (for "# machine:"). */
#define LOGP_US(member, param) US(member), .named = MARK(logp_opt[param])

/* Which modes an option has an effect in (the rows' 'modes' column). */
#define IN(m) LOP_CLI_IN(MODE_##m)
/* Times from a model: its parameters matter. */
#define TIMED (IN(PREDICT) | IN(CHECK_SCHEDULE) | IN(MEASURED) | IN(VERIFY) | IN(BEST))
/* Closed forms. */
#define CLOSED (IN(PREDICT) | IN(MEASURED) | IN(VERIFY) | IN(BEST))
/* Simulations, asked for or always. */
#define SIMULATED (IN(PREDICT) | IN(CHECK_SCHEDULE) | IN(MEASURED) | IN(VERIFY))
/* The hybrid's search simulates LogP. */
#define HYBRID (IN(PREDICT) | IN(HYBRID_REPORT) | IN(SCHEDULE) | IN(VERIFY) | IN(BEST) | IN(GOAL))
/* Per-pair costs (costs.c says which modes then use them). */
#define PAIRS (HYBRID | IN(CHECK_SCHEDULE))
/* Algorithms, n and P selected. */
#define ALGS (IN(PREDICT) | IN(SCHEDULE) | IN(VERIFY) | IN(BEST) | IN(GOAL))
/* A table printed (--csv). */
#define TABLES (CLOSED | IN(HYBRID_REPORT) | IN(LIST_ALGS))
/* Everything but listing the algorithms and printing a file as it is. */
#define WORK (~0u & ~IN(LIST_ALGS) & ~IN(GOAL_FILE))

/* A mode's option: a flag, or a FILE; --help lists them with the modes. */
#define MODE_FLAG(m) LOP_CLI_FLAG, AT(mode_given[m])

static const lop_cli_opt_t options[] = {
    {"alg", 'a', "NAMES", "algorithms, comma-separated, or all (default: all)", LOP_CLI_CUSTOM,
     .parse = parse_algs, .modes = ALGS},
    {"n", 'n', "LIST", "n of the algorithms that take one: 2, 1,4 or 1..8 (default: theirs)",
     LOP_CLI_LONGS, AT(n), .min = 1, .max = 1000000, .modes = ALGS},
    {"p", 'p', "LIST", "process counts: 64, 2,4,8 or 2..64 (default: 2..64; with --costs or "
                       "--topology, the ranks they describe)", LOP_CLI_LONGS, AT(p), .min = 1,
     .max = INT32_MAX, .modes = ALGS | IN(HYBRID_REPORT)},
    {"model", 'm', "MODEL", "{} (default: both; logp with --costs or --topology)",
     LOP_CLI_CHOICE, AT(models), .choices = model_names, .choice_values = model_bits,
     .join = " or ", .given = MARK(model_given), .modes = TIMED},
    {"params", 0, "FILE", "parameter set (default: the shipped mozart-2005/params.csv)",
     LOP_CLI_TEXT, AT(params), .modes = TIMED},
    {"series", 0, "NAME", "series of the set for LoP (default: rdmaw-inline)", LOP_CLI_TEXT,
     AT(series), .given = MARK(series_named), .modes = TIMED},
    {"stat", 0, "STAT", "{} (default: min)", LOP_CLI_NAME, AT(stat), .choices = stat_names,
     .join = " or ", .given = MARK(stat_named), .modes = TIMED},
    {"L", 0, "US", "LogP latency L (default: L(1) of the series)", LOGP_US(L, LOGP_L),
     .modes = TIMED},
    {"o", 0, "US", "LogP overhead, o_s = o_r = o", LOP_CLI_CUSTOM, .max = 1e9,
     .parse = parse_o, .modes = TIMED},
    {"os", 0, "US", "LogP send overhead o_s (default: o_s(1) of the series)",
     LOGP_US(os, LOGP_OS), .modes = TIMED},
    {"or", 0, "US", "LogP receive overhead o_r (default: o_r(1), else o_s(1); with "
                    "--costs or --topology the pair's o)", LOGP_US(or, LOGP_OR),
     .modes = TIMED | HYBRID},
    {"g", 0, "US", "LogP gap g (default: 0; thesis 2.1.4.5: g << o)", LOGP_US(g, LOGP_G),
     .modes = TIMED | HYBRID},
    {"cnt", 0, "C", "barriers run back to back, a whole number, thesis 2.3.7.1 (default: 1)",
     LOP_CLI_CUSTOM, .min = 1, .max = 1e9, .parse = parse_cnt, .modes = TIMED},
    {"links", 0, "M", "independent links m of thesis 2.2.6 (default: 1)", LOP_CLI_INT,
     AT(cost.links), .min = 1, .max = 1000000, .modes = CLOSED},
    {"lop-arg", 0, "HOW", "LoP simulation: p of o(p), L(p) per {}", LOP_CLI_CHOICE,
     AT(lop_arg), .choices = lop_arg_names, .join = " or ", .modes = SIMULATED,
     .only_with = "simulate"},
    {"op-const", 0, "US", "hardware barriers: o_p(P) constant part (default: 0)",
     US(cost.op_const_us), .modes = IN(PREDICT) | IN(BEST)},
    {"op-per-p", 0, "US", "o_p(P) per host (default: 0.01, thesis 3.2.2.1)",
     US(cost.op_per_p_us), .modes = IN(PREDICT) | IN(BEST)},
    {"op-per-log2p", 0, "US", "o_p(P) per log2 P (default: 0)", US(cost.op_per_log2p_us),
     .modes = IN(PREDICT) | IN(BEST)},
    {"ow", 0, "US", "hwnet port write overhead o_w (default: 1.2, thesis 3.2.2.1)",
     US(cost.ow_us), .modes = IN(PREDICT) | IN(BEST)},
    {"hw-or", 0, "US", "hwnet port read overhead o_r (default: 1.2, thesis 3.2.2.1)",
     US(cost.hw_or_us), .modes = IN(PREDICT) | IN(BEST)},
    {"csv", 0, NULL, "CSV output", LOP_CLI_FLAG, AT(csv), .modes = TABLES},
    {"simulate", 0, NULL, "add the simulated time of the selected model(s)", LOP_CLI_FLAG,
     AT(simulate), .modes = IN(PREDICT) | IN(CHECK_SCHEDULE)},
    {"loop", 0, NULL,
     "add the loop's and the bucket's times: the barrier back to back on the measured machine, "
     "as --measured prices it (models/README.md \"The loop\", \"The bucket\")",
     LOP_CLI_FLAG, AT(loop), .modes = IN(PREDICT)},
    {"timing", 0, NULL, "wall time and events per second on stderr", LOP_CLI_FLAG, AT(timing),
     .modes = WORK},
    {"draws", 0, "N",
     "Monte Carlo draws per simulated time's interval, at least 40 for a 95 % interval "
     "(default: 200)", LOP_CLI_CUSTOM, .min = 1, .max = 1000000, .parse = parse_draws,
     .modes = IN(PREDICT) | IN(MEASURED), .only_with = "simulate|loop"},
    {"seed", 0, "S", "seed of the draws of the intervals (default: 1)", LOP_CLI_INT,
     AT(uncert.seed), .min = 0, .max = (double)LONG_MAX,
     .modes = IN(PREDICT) | IN(MEASURED) | IN(BEST)},
    {"costs", 0, "FILE", "LogP with per-pair o and L from pairs.csv", LOP_CLI_TEXT,
     AT(pairs_opts.costs), .modes = PAIRS},
    {"topology", 0, "SPEC", "per-pair costs of a machine, outermost level first: 8x2x4",
     LOP_CLI_TEXT, AT(pairs_opts.topology), .modes = PAIRS},
    {"level-L", 0, "LIST", "--topology: L per level in us, outermost first: 3,0.8,0.2",
     LOP_CLI_REALS, AT(pairs_opts.level_L_us), .max = 1e9, .modes = PAIRS},
    {"level-o", 0, "LIST", "--topology: o per level in us, outermost first", LOP_CLI_REALS,
     AT(pairs_opts.level_o_us), .max = 1e9, .modes = PAIRS},
    {"map", 0, "MAP", "--topology: rank placement, {} (default: block)", LOP_CLI_CHOICE,
     AT(pairs_opts.map), .choices = map_names, .join = " or ",
     .given = MARK(pairs_opts.map_given), .modes = PAIRS},
    {"write-costs", 0, "FILE", "save the per-pair costs as pairs.csv", LOP_CLI_TEXT,
     AT(write_costs), .modes = PAIRS, .only_with = "costs|topology"},
    {"recv-order", 0, "HOW", "LogP receive overhead: {} order", LOP_CLI_CHOICE,
     AT(recv_order), .choices = recv_order_names, .join = " or ", .modes = SIMULATED | HYBRID,
     .only_with = "simulate|alg=hybrid|costs|topology"},
    {"placement", 0, "FILE", "--alg hybrid with --costs: levels from placement.csv",
     LOP_CLI_TEXT, AT(placement), .modes = HYBRID, .only_with = "alg=hybrid"},
    {"hybrid-algs", 0, "NAMES", "candidates of --alg hybrid (default: all)", LOP_CLI_CUSTOM,
     .parse = parse_hybrid_algs, .modes = HYBRID, .only_with = "alg=hybrid"},
    {"help", 'h', NULL, "print this help", LOP_CLI_FLAG, AT(help)},
    LOP_CLI_LIST_OPTIONS(lopredict_opts_t, list_options),
    /* the modes' options, listed with the modes */
    {"check-schedule", 0, "FILE", NULL, LOP_CLI_TEXT, AT(check_file)},
    {"measured", 0, "FILE", NULL, LOP_CLI_TEXT, AT(measured)},
    {"hybrid-report", 0, NULL, NULL, MODE_FLAG(MODE_HYBRID_REPORT)},
    {"schedule", 0, NULL, NULL, MODE_FLAG(MODE_SCHEDULE)},
    {"verify", 0, NULL, NULL, MODE_FLAG(MODE_VERIFY)},
    {"best", 0, NULL, NULL, MODE_FLAG(MODE_BEST)},
    {"goal", 0, NULL, NULL, MODE_FLAG(MODE_GOAL)},
    {"list-algs", 0, NULL, NULL, MODE_FLAG(MODE_LIST_ALGS)},
    {NULL, 0, NULL, NULL},
};

/* The modes, indexed by lopredict_mode_t: what --help lists and
 * lop_cli_check chooses from, and the function (mode_*.c) that runs each. */
static const lop_cli_mode_t modes[MODE_COUNT + 1] = {
    [MODE_PREDICT] = {"predict", NULL, NULL, NULL,
                      "closed forms per algorithm, n and P (with --simulate, simulated times)"},
    [MODE_CHECK_SCHEDULE] = {"check-schedule", "check-schedule", NULL, NULL,
                             "check (and with --simulate simulate) a schedule CSV or GOAL file"},
    [MODE_MEASURED] = {"measured", "measured", NULL, NULL,
                       "join lopbench --barrier's barrier.csv with the predictions",
                       .implies = "simulate"},
    [MODE_HYBRID_REPORT] = {"hybrid-report", "hybrid-report", NULL, NULL,
                            "per P: best flat, greedy and searched hybrid",
                            .implies = "simulate,alg=hybrid"},
    [MODE_SCHEDULE] = {"schedule", "schedule", NULL, NULL,
                       "print the schedule of one algorithm, n and P as CSV"},
    [MODE_VERIFY] = {"verify", "verify", NULL, NULL,
                     "check every schedule; closed form next to simulation",
                     .implies = "simulate"},
    [MODE_BEST] = {"best", "best", NULL, NULL,
                   "the algorithm and n with the lowest predicted time per P"},
    [MODE_GOAL] = {"goal", "goal", NULL, NULL,
                   "print the schedule of one algorithm, n and P as LogGOPSim GOAL"},
    [MODE_GOAL_FILE] = {"goal-file", "goal,check-schedule", NULL, NULL,
                        "print --check-schedule's file as LogGOPSim GOAL"},
    [MODE_LIST_ALGS] = {"list-algs", "list-algs", NULL, NULL,
                        "the algorithms and what their descriptors say (--csv: as CSV)"},
    [MODE_COUNT] = {NULL},
};

static lopredict_mode_fn *const mode_run[MODE_COUNT] = {
    [MODE_PREDICT] = mode_predict_run,           [MODE_CHECK_SCHEDULE] = mode_check_schedule_run,
    [MODE_MEASURED] = mode_measured_run,         [MODE_HYBRID_REPORT] = mode_hybrid_report_run,
    [MODE_SCHEDULE] = mode_schedule_run,         [MODE_VERIFY] = mode_verify_run,
    [MODE_BEST] = mode_best_run,                 [MODE_GOAL] = mode_goal_run,
    [MODE_GOAL_FILE] = mode_goal_run,            [MODE_LIST_ALGS] = mode_list_algs_run,
};

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

/* ------------------------------------------------------------ options */

static lop_status_t alg_item(void *ctx, char *name)
{
    lopredict_opts_t *o = ctx;
    if (strcmp(name, "all") != 0)
        return barrier_alg_list_add("alg", name, o->alg, &o->n_alg, MAX_ALGS);
    o->alg_all = 1;
    return LOP_OK;
}

/* --alg: names, "all" among them for every algorithm (all,hybrid). */
static lop_status_t parse_algs(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lopredict_opts_t *o = opts;
    o->n_alg = 0;
    o->alg_all = 0;
    return lop_cli_items(opt->name, arg, alg_item, o);
}

/* --hybrid-algs: schedule algorithms only. */
static lop_status_t hybrid_alg_item(void *ctx, char *name)
{
    lopredict_opts_t *o = ctx;
    const barrier_alg_t *a = barrier_alg_find(name);
    size_t n = 0;
    while (o->hybrid_algs[n])
        n++;
    if (!a || (a->flags & (BARRIER_COST_ONLY | BARRIER_HYBRID)))
        return lop_err(LOP_ERR_INVALID, "option --hybrid-algs: '%s' is not a schedule "
                       "algorithm (see --help)", name);
    if (n == MAX_ALGS)
        return lop_err(LOP_ERR_INVALID, "option --hybrid-algs: more than %d names", MAX_ALGS);
    o->hybrid_algs[n] = a;
    o->hybrid_algs_given = 1;
    return LOP_OK;
}

static lop_status_t parse_hybrid_algs(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lopredict_opts_t *o = opts;
    memset(o->hybrid_algs, 0, sizeof o->hybrid_algs);
    return lop_cli_items(opt->name, arg, hybrid_alg_item, o);
}

/* --o: both LogP overheads, o_s = o_r, named after it in "# machine:". */
static lop_status_t parse_o(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lopredict_opts_t *o = opts;
    lop_status_t st = lop_cli_double(opt->name, arg, opt->min, opt->max, &o->os);
    if (st == LOP_OK) {
        o->or = o->os;
        o->logp_opt[LOGP_OS] = o->logp_opt[LOGP_OR] = opt->name;
    }
    return st;
}

/* --cnt: a count of barriers (1e6 is one); a fraction of one would be
 * evaluated as if it ran. */
static lop_status_t parse_cnt(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    double *cnt = &((lopredict_opts_t *)opts)->cost.cnt;
    lop_status_t st = lop_cli_double(opt->name, arg, opt->min, opt->max, cnt);
    if (st == LOP_OK && *cnt != floor(*cnt))
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' is not a whole number", opt->name,
                       arg);
    return st;
}

/* --draws: a 95 % interval needs a draw in its 2.5 % tail. */
static lop_status_t parse_draws(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    long v;
    lop_status_t st = lop_cli_long(opt->name, arg, (long)opt->min, (long)opt->max, &v);
    if (st == LOP_OK && v < PREDICT_SIM_DRAWS_MIN)
        return lop_err(LOP_ERR_INVALID, "option --%s: %ld draws are too few for a 95 %% "
                       "interval (its 2.5 %% tail needs a draw): at least %d", opt->name, v,
                       PREDICT_SIM_DRAWS_MIN);
    if (st == LOP_OK)
        ((lopredict_opts_t *)opts)->sim_draws = (size_t)v;
    return st;
}

static void opts_init(lopredict_opts_t *o)
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

static void opts_free(lopredict_opts_t *o)
{
    lop_cli_lists_free(options, o);
}

static void run_init(const lopredict_opts_t *o, lopredict_run_t *r)
{
    memset(r, 0, sizeof *r);
    r->series = o->series;
    r->cost = o->cost;
}

static void run_free(lopredict_run_t *r)
{
    free(r->p_default);
    pairs_free(&r->pairs);
    if (r->have_pred)
        predict_free(&r->pred);
    lop_place_free(&r->place);
    if (r->have_set)
        lop_paramset_free(&r->set);
}

/* ------------------------------------------------------------ the run */

/* The options, their mode (one a run, and no option it would ignore: the
 * table's columns), and what per-pair costs imply (costs_model_imply). */
static lop_status_t parse_args(lopredict_opts_t *o, int argc, char **argv)
{
    lop_cli_t cli;
    int mode = MODE_PREDICT;
    lop_status_t st = lop_cli_init(&cli, argc, argv, options);
    st = st ? st : lop_cli_parse(&cli, o);
    if (st == LOP_OK && !o->help && !o->list_options)
        st = lop_cli_check(&cli, modes, &mode);
    o->mode = (lopredict_mode_t)mode;
    lop_cli_free(&cli);
    if (st || o->help || o->list_options)
        return st;
    return costs_model_imply(o);
}

/* Every check of the options first, then --write-costs' temporary file,
 * then the mode (renamed into place by main, after stdout: costs_file_end). */
static lop_status_t run_one_mode(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    if (o->mode == MODE_LIST_ALGS) /* reads no parameter: nothing to set up */
        return mode_run[o->mode](o, r, failed);
    lop_status_t st = params_set_load(o, r);
    st = st ? st : costs_pairs_setup(o, r);
    st = st ? st : mode_schedule_opts_check(o, r);
    if (st)
        return st;
    params_logp_setup(o, r);
    st = work_p_list_check(o, r); /* before anything is built, written or printed */
    st = st ? st : costs_place_setup(o, r);
    st = st ? st : params_pred_setup(o, r);
    st = st ? st : costs_file_begin(o, r);
    if (st)
        return st;
    st = mode_run[o->mode](o, r, failed);
    params_extrapolation_warn(o, r);
    return st;
}

static void help_print(FILE *out)
{
    lop_cli_usage(out, "lopredict [options]",
                  "Closed-form LogP and LoP costs, schedules, validity checks and\n"
                  "simulations of barrier algorithms (see models/README.md).",
                  options);
    lop_cli_modes_usage(out, options, modes);
    algs_usage(out);
}

int main(int argc, char **argv)
{
    lopredict_opts_t o;
    lopredict_run_t r;
    int failed = 0;
    opts_init(&o);
    lop_status_t st = parse_args(&o, argc, argv);
    run_init(&o, &r);
    if (st == LOP_OK && (o.help || o.list_options)) {
        if (o.help)
            help_print(stdout);
        else
            lop_cli_list_options(stdout, options, modes);
        opts_free(&o);
        return lop_stdout_close(prog, 0) ? LOP_EXIT_FAILED : LOP_EXIT_OK;
    }
    st = st ? st : run_one_mode(&o, &r, &failed);
    if (st)
        lop_err_print(prog);
    int write_failed = lop_stdout_close(prog, st != LOP_OK);
    /* --write-costs last: its file appears only when the rest succeeded */
    lop_status_t saved = costs_file_end(&r, st ? st : write_failed ? LOP_ERR_IO : LOP_OK);
    if (st == LOP_OK && !write_failed && saved) {
        lop_err_print(prog);
        st = saved;
    }
    run_free(&r);
    opts_free(&o);
    if (st)
        return lop_exit_code(st);
    return write_failed ? LOP_EXIT_FAILED : failed ? LOP_EXIT_NO : LOP_EXIT_OK;
}
