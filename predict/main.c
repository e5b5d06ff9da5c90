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

static lop_cli_parse_fn parse_algs, parse_o, parse_draws, parse_hybrid_algs;

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

/* The options that are not modes (those are in 'modes'). */
static const lop_cli_opt_t options[] = {
    {"alg", 'a', "NAMES", "algorithms, comma-separated, or all (default: all)", LOP_CLI_CUSTOM,
     .parse = parse_algs},
    {"n", 'n', "LIST", "n of the algorithms that take one: 2, 1,4 or 1..8 (default: theirs)",
     LOP_CLI_LONGS, AT(n), .min = 1, .max = 1000000},
    {"p", 'p', "LIST", "process counts: 64, 2,4,8 or 2..64 (default: 2..64; with --costs or "
                       "--topology, the ranks they describe)", LOP_CLI_LONGS, AT(p), .min = 1,
     .max = INT32_MAX},
    {"model", 'm', "MODEL", "{} (default: both; logp with --costs or --topology)",
     LOP_CLI_CHOICE, AT(models), .choices = model_names, .choice_values = model_bits,
     .join = " or ", .given = MARK(model_given)},
    {"params", 0, "FILE", "parameter set (default: the shipped mozart-2005/params.csv)",
     LOP_CLI_TEXT, AT(params)},
    {"series", 0, "NAME", "series of the set for LoP (default: rdmaw-inline)", LOP_CLI_TEXT,
     AT(series), .given = MARK(series_named)},
    {"stat", 0, "STAT", "{} (default: min)", LOP_CLI_NAME, AT(stat), .choices = stat_names,
     .join = " or ", .given = MARK(stat_named)},
    {"L", 0, "US", "LogP latency L (default: L(1) of the series)", LOGP_US(L, LOGP_L)},
    {"o", 0, "US", "LogP overhead, o_s = o_r = o", LOP_CLI_CUSTOM, .max = 1e9,
     .parse = parse_o},
    {"os", 0, "US", "LogP send overhead o_s (default: o_s(1) of the series)",
     LOGP_US(os, LOGP_OS)},
    {"or", 0, "US", "LogP receive overhead o_r (default: o_r(1), else o_s(1); with "
                    "--costs or --topology the pair's o)", LOGP_US(or, LOGP_OR)},
    {"g", 0, "US", "LogP gap g (default: 0; thesis 2.1.4.5: g << o)", LOGP_US(g, LOGP_G)},
    {"cnt", 0, "C", "barriers run back to back, thesis 2.3.7.1 (default: 1)", LOP_CLI_REAL,
     AT(cost.cnt), .min = 1, .max = 1e9},
    {"links", 0, "M", "independent links m of thesis 2.2.6 (default: 1)", LOP_CLI_INT,
     AT(cost.links), .min = 1, .max = 1000000},
    {"lop-arg", 0, "HOW", "LoP simulation: p of o(p), L(p) per {}", LOP_CLI_CHOICE,
     AT(lop_arg), .choices = lop_arg_names, .join = " or "},
    {"op-const", 0, "US", "hardware barriers: o_p(P) constant part (default: 0)",
     US(cost.op_const_us)},
    {"op-per-p", 0, "US", "o_p(P) per host (default: 0.01, thesis 3.2.2.1)",
     US(cost.op_per_p_us)},
    {"op-per-log2p", 0, "US", "o_p(P) per log2 P (default: 0)", US(cost.op_per_log2p_us)},
    {"ow", 0, "US", "hwnet port write overhead o_w (default: 1.2, thesis 3.2.2.1)",
     US(cost.ow_us)},
    {"hw-or", 0, "US", "hwnet port read overhead o_r (default: 1.2, thesis 3.2.2.1)",
     US(cost.hw_or_us)},
    {"csv", 0, NULL, "CSV output", LOP_CLI_FLAG, AT(csv)},
    {"simulate", 0, NULL, "add the simulated time of the selected model(s)", LOP_CLI_FLAG,
     AT(simulate)},
    {"timing", 0, NULL, "wall time and events per second on stderr", LOP_CLI_FLAG, AT(timing)},
    {"draws", 0, "N",
     "Monte Carlo draws per simulated time's interval, at least 40 for a 95 % interval "
     "(default: 200)", LOP_CLI_CUSTOM, .min = 1, .max = 1000000, .parse = parse_draws},
    {"seed", 0, "S", "seed of the draws of the intervals (default: 1)", LOP_CLI_INT,
     AT(uncert.seed), .min = 0, .max = (double)LONG_MAX},
    {"costs", 0, "FILE", "LogP with per-pair o and L from pairs.csv", LOP_CLI_TEXT,
     AT(pairs_opts.costs)},
    {"topology", 0, "SPEC", "per-pair costs of a machine, outermost level first: 8x2x4",
     LOP_CLI_TEXT, AT(pairs_opts.topology)},
    {"level-L", 0, "LIST", "--topology: L per level in us, outermost first: 3,0.8,0.2",
     LOP_CLI_REALS, AT(pairs_opts.level_L_us), .max = 1e9},
    {"level-o", 0, "LIST", "--topology: o per level in us, outermost first", LOP_CLI_REALS,
     AT(pairs_opts.level_o_us), .max = 1e9},
    {"map", 0, "MAP", "--topology: rank placement, {} (default: block)", LOP_CLI_CHOICE,
     AT(pairs_opts.map), .choices = map_names, .join = " or ",
     .given = MARK(pairs_opts.map_given)},
    {"write-costs", 0, "FILE", "save the per-pair costs as pairs.csv", LOP_CLI_TEXT,
     AT(write_costs)},
    {"recv-order", 0, "HOW", "LogP receive overhead: {} order", LOP_CLI_CHOICE,
     AT(recv_order), .choices = recv_order_names, .join = " or "},
    {"placement", 0, "FILE", "--alg hybrid with --costs: levels from placement.csv",
     LOP_CLI_TEXT, AT(placement)},
    {"hybrid-algs", 0, "NAMES", "candidates of --alg hybrid (default: all)", LOP_CLI_CUSTOM,
     .parse = parse_hybrid_algs},
    {"help", 'h', NULL, "print this help", LOP_CLI_FLAG, AT(help)},
    {NULL, 0, NULL, NULL},
};

/* A mode's option marks mode_given[m]: a flag, or a FILE into its field. */
#define MODE_FLAG(m) LOP_CLI_FLAG, AT(mode_given[m])
#define MODE_FILE(m, member) LOP_CLI_TEXT, AT(member), .given = MARK(mode_given[m])

/* The modes, indexed by lopredict_mode_t (the default mode, predict, has no
 * option). */
static const struct {
    const char *name;
    lop_cli_opt_t option;
    lopredict_mode_fn *run;
    const char *help;
} modes[MODE_COUNT] = {
    [MODE_PREDICT] = {"predict", {NULL, 0, NULL, NULL}, mode_predict_run,
                      "closed forms per algorithm, n and P (with --simulate, simulated times)"},
    [MODE_CHECK_SCHEDULE] = {"check-schedule",
                             {"check-schedule", 0, "FILE", NULL,
                              MODE_FILE(MODE_CHECK_SCHEDULE, check_file)},
                             mode_check_schedule_run,
                             "check (and with --simulate simulate) a schedule CSV or GOAL file"},
    [MODE_MEASURED] = {"measured",
                       {"measured", 0, "FILE", NULL, MODE_FILE(MODE_MEASURED, measured)},
                       mode_measured_run,
                       "join lopbench --barrier's barrier.csv with the predictions"},
    [MODE_HYBRID_REPORT] = {"hybrid-report",
                            {"hybrid-report", 0, NULL, NULL, MODE_FLAG(MODE_HYBRID_REPORT)},
                            mode_hybrid_report_run, "per P: best flat, greedy and searched hybrid"},
    [MODE_SCHEDULE] = {"schedule", {"schedule", 0, NULL, NULL, MODE_FLAG(MODE_SCHEDULE)},
                       mode_schedule_run, "print the schedule of one algorithm, n and P as CSV"},
    [MODE_VERIFY] = {"verify", {"verify", 0, NULL, NULL, MODE_FLAG(MODE_VERIFY)}, mode_verify_run,
                     "check every schedule; closed form next to simulation"},
    [MODE_BEST] = {"best", {"best", 0, NULL, NULL, MODE_FLAG(MODE_BEST)}, mode_best_run,
                   "the algorithm and n with the lowest predicted time per P"},
    [MODE_GOAL] = {"goal", {"goal", 0, NULL, NULL, MODE_FLAG(MODE_GOAL)}, mode_goal_run,
                   "print one schedule (or --check-schedule's) as LogGOPSim GOAL"},
    [MODE_LIST_ALGS] = {"list-algs", {"list-algs", 0, NULL, NULL, MODE_FLAG(MODE_LIST_ALGS)},
                        mode_list_algs_run,
                        "the algorithms and what their descriptors say (--csv: as CSV)"},
};

/* The parser's table: 'options', then the modes' options. */
static lop_cli_opt_t cli_table[COUNT(options) + MODE_COUNT];

static const lop_cli_opt_t *cli_table_make(void)
{
    size_t n = 0;
    for (const lop_cli_opt_t *opt = options; opt->name; opt++)
        cli_table[n++] = *opt;
    for (int m = 0; m < MODE_COUNT; m++)
        if (modes[m].option.name)
            cli_table[n++] = modes[m].option;
    cli_table[n] = (lop_cli_opt_t){NULL, 0, NULL, NULL};
    return cli_table;
}

/* --help's list of modes, from 'modes'. */
static void modes_usage(FILE *out)
{
    fprintf(out, "\nModes (one a run; without one, predict):\n");
    for (int m = 0; m < MODE_COUNT; m++) {
        char option[64] = "(default)";
        const lop_cli_opt_t *opt = &modes[m].option;
        if (opt->name)
            snprintf(option, sizeof option, "--%s%s%s", opt->name, opt->arg ? " " : "",
                     opt->arg ? opt->arg : "");
        fprintf(out, "  %-15s %-22s %s\n", modes[m].name, option, modes[m].help);
    }
}

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

/* The first of 'options' given that --list-algs would ignore (all but
 * --csv; --help prints the help before any check), in the table's order;
 * the parser's table starts with 'options'. */
static const char *list_algs_ignored(const lop_cli_t *cli)
{
    for (size_t i = 0; options[i].name; i++)
        if (cli->given[i] && strcmp(options[i].name, "csv") != 0)
            return options[i].name;
    return NULL;
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

/* One mode a run, and no option the mode would ignore: two asked for are
 * refused, never resolved by a hidden precedence. */
static lop_status_t modes_check(lopredict_opts_t *o)
{
    const char *first = NULL;
    for (int m = 0; m < MODE_COUNT; m++) {
        /* --goal --check-schedule FILE prints the file's: one mode */
        if (!o->mode_given[m] || (m == MODE_CHECK_SCHEDULE && o->mode_given[MODE_GOAL]))
            continue;
        if (first)
            return lop_err(LOP_ERR_INVALID, "options --%s and --%s are two modes: give one (see "
                           "--help)", first, modes[m].option.name);
        first = modes[m].option.name;
        o->mode = (lopredict_mode_t)m;
    }
    if (o->simulate && (o->mode == MODE_SCHEDULE || o->mode == MODE_GOAL))
        return lop_err(LOP_ERR_INVALID, "option --simulate has no effect with --%s: it prints "
                       "a schedule, not times", modes[o->mode].option.name);
    if (o->csv && o->check_file)
        return lop_err(LOP_ERR_INVALID, "option --csv has no effect with --check-schedule: it "
                       "prints a verdict, not a table");
    if (o->mode == MODE_LIST_ALGS && o->ignored)
        return lop_err(LOP_ERR_INVALID, "option --%s has no effect with --list-algs: it lists "
                       "the algorithms", o->ignored);
    return LOP_OK;
}

/* The options, their mode, and what per-pair costs imply (costs_model_imply). */
static lop_status_t parse_args(lopredict_opts_t *o, int argc, char **argv)
{
    lop_cli_t cli;
    lop_status_t st = lop_cli_init(&cli, argc, argv, cli_table_make());
    st = st ? st : lop_cli_parse(&cli, o);
    int first_operand = lop_cli_operand_index(&cli);
    if (st == LOP_OK && first_operand < argc)
        st = lop_err(LOP_ERR_INVALID, "unexpected argument '%s' (see --help)",
                     argv[first_operand]);
    o->ignored = st == LOP_OK ? list_algs_ignored(&cli) : NULL;
    lop_cli_free(&cli);
    if (st || o->help)
        return st;
    st = modes_check(o);
    return st ? st : costs_model_imply(o);
}

/* Every check of the options first, then --write-costs' temporary file,
 * then the mode (renamed into place by main, after stdout: costs_file_end). */
static lop_status_t run_one_mode(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    if (o->mode == MODE_LIST_ALGS) /* reads no parameter: nothing to set up */
        return modes[o->mode].run(o, r, failed);
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
    st = modes[o->mode].run(o, r, failed);
    params_extrapolation_warn(o, r);
    return st;
}

static void help_print(FILE *out)
{
    lop_cli_usage(out, "lopredict [options]",
                  "Closed-form LogP and LoP costs, schedules, validity checks and\n"
                  "simulations of barrier algorithms (see models/README.md).",
                  options);
    modes_usage(out);
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
    if (st == LOP_OK && o.help) {
        help_print(stdout);
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
