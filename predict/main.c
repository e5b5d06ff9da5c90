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

enum {
    OPT_PARAMS = 256, OPT_SERIES, OPT_STAT, OPT_L, OPT_O, OPT_OS, OPT_OR, OPT_G, OPT_CNT,
    OPT_LINKS, OPT_LOP_ARG, OPT_OP_CONST, OPT_OP_PER_P, OPT_OP_LOG, OPT_OW, OPT_HW_OR, OPT_CSV,
    OPT_SIMULATE, OPT_TIMING, OPT_DRAWS, OPT_SEED, OPT_COSTS, OPT_TOPOLOGY, OPT_LEVEL_L,
    OPT_LEVEL_O, OPT_MAP, OPT_WRITE_COSTS, OPT_RECV_ORDER, OPT_PLACEMENT, OPT_HYBRID_ALGS,
    OPT_MODE /* OPT_MODE + m: the option of mode m */
};

/* The options that are not modes (those are in 'modes'). */
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
    {"simulate", OPT_SIMULATE, NULL, "add the simulated time of the selected model(s)"},
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
    {"recv-order", OPT_RECV_ORDER, "HOW", "LogP receive overhead: program or arrival order"},
    {"placement", OPT_PLACEMENT, "FILE", "--alg hybrid with --costs: levels from placement.csv"},
    {"hybrid-algs", OPT_HYBRID_ALGS, "NAMES", "candidates of --alg hybrid (default: all)"},
    {"help", 'h', NULL, "print this help"},
    {NULL, 0, NULL, NULL},
};

/* The modes, indexed by lopredict_mode_t; the option of mode m has the key
 * OPT_MODE + m (the default mode, predict, has none). */
static const struct {
    const char *name;
    lop_cli_opt_t option;
    lopredict_mode_fn *run;
    const char *help;
} modes[MODE_COUNT] = {
    [MODE_PREDICT] = {"predict", {NULL, 0, NULL, NULL}, mode_predict_run,
                      "closed forms per algorithm, n and P (with --simulate, simulated times)"},
    [MODE_CHECK_SCHEDULE] = {"check-schedule",
                             {"check-schedule", OPT_MODE + MODE_CHECK_SCHEDULE, "FILE", NULL},
                             mode_check_schedule_run,
                             "check (and with --simulate simulate) a schedule CSV or GOAL file"},
    [MODE_MEASURED] = {"measured", {"measured", OPT_MODE + MODE_MEASURED, "FILE", NULL},
                       mode_measured_run,
                       "join lopbench --barrier's barrier.csv with the predictions"},
    [MODE_HYBRID_REPORT] = {"hybrid-report",
                            {"hybrid-report", OPT_MODE + MODE_HYBRID_REPORT, NULL, NULL},
                            mode_hybrid_report_run, "per P: best flat, greedy and searched hybrid"},
    [MODE_SCHEDULE] = {"schedule", {"schedule", OPT_MODE + MODE_SCHEDULE, NULL, NULL},
                       mode_schedule_run, "print the schedule of one algorithm, n and P as CSV"},
    [MODE_VERIFY] = {"verify", {"verify", OPT_MODE + MODE_VERIFY, NULL, NULL}, mode_verify_run,
                     "check every schedule; closed form next to simulation"},
    [MODE_BEST] = {"best", {"best", OPT_MODE + MODE_BEST, NULL, NULL}, mode_best_run,
                   "the algorithm and n with the lowest predicted time per P"},
    [MODE_GOAL] = {"goal", {"goal", OPT_MODE + MODE_GOAL, NULL, NULL}, mode_goal_run,
                   "print one schedule (or --check-schedule's) as LogGOPSim GOAL"},
    [MODE_LIST_ALGS] = {"list-algs", {"list-algs", OPT_MODE + MODE_LIST_ALGS, NULL, NULL},
                        mode_list_algs_run,
                        "the algorithms and what their descriptors say (--csv: as CSV)"},
};

/* The parser's table: 'options' and the modes' options. */
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

static lop_status_t parse_algs(lopredict_opts_t *o, const char *arg)
{
    o->n_alg = 0;
    o->alg_all = 0;
    return lop_cli_items("alg", arg, alg_item, o);
}

/* Options that set a number or a flag in lopredict_opts_t. */
typedef struct {
    int key;
    const char *name;
    double min;    /* smallest value allowed (doubles) */
    size_t offset; /* of the double or int in lopredict_opts_t */
} field_opt_t;

static const field_opt_t double_opts[] = {
    {OPT_L, "L", 0, offsetof(lopredict_opts_t, L)},
    {OPT_OS, "os", 0, offsetof(lopredict_opts_t, os)},
    {OPT_OR, "or", 0, offsetof(lopredict_opts_t, or)},
    {OPT_G, "g", 0, offsetof(lopredict_opts_t, g)},
    {OPT_CNT, "cnt", 1, offsetof(lopredict_opts_t, cost.cnt)},
    {OPT_OP_CONST, "op-const", 0, offsetof(lopredict_opts_t, cost.op_const_us)},
    {OPT_OP_PER_P, "op-per-p", 0, offsetof(lopredict_opts_t, cost.op_per_p_us)},
    {OPT_OP_LOG, "op-per-log2p", 0, offsetof(lopredict_opts_t, cost.op_per_log2p_us)},
    {OPT_OW, "ow", 0, offsetof(lopredict_opts_t, cost.ow_us)},
    {OPT_HW_OR, "hw-or", 0, offsetof(lopredict_opts_t, cost.hw_or_us)},
};

static const field_opt_t flag_opts[] = {
    {OPT_CSV, "csv", 0, offsetof(lopredict_opts_t, csv)},
    {OPT_SIMULATE, "simulate", 0, offsetof(lopredict_opts_t, simulate)},
    {OPT_TIMING, "timing", 0, offsetof(lopredict_opts_t, timing)},
};

/* Options with a word argument or a list. */
static lop_status_t parse_word(lopredict_opts_t *o, int key, const char *arg)
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
    }
    return lop_err(LOP_ERR_INVALID, "option %d not handled", key);
}

/* --hybrid-algs: schedule algorithms only. */
static lop_status_t hybrid_alg_item(void *ctx, char *name)
{
    lopredict_opts_t *o = ctx;
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

/* Per-pair costs, placement and the receive order (options after OPT_COSTS). */
static lop_status_t parse_sim_option(lopredict_opts_t *o, int key, const char *arg)
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
    case OPT_PLACEMENT: o->placement = arg; return LOP_OK;
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
static void logp_opt_note(lopredict_opts_t *o, int key)
{
    static const int keys[LOGP_PARAMS] = {OPT_L, OPT_OS, OPT_OR, OPT_G};
    static const char *const names[LOGP_PARAMS] = {"--L", "--os", "--or", "--g"};
    for (int i = 0; i < LOGP_PARAMS; i++)
        if (keys[i] == key)
            o->logp_opt[i] = names[i];
    if (key == OPT_O)
        o->logp_opt[LOGP_OS] = o->logp_opt[LOGP_OR] = "--o";
}

/* A mode's option: noted (modes_check refuses two), with its FILE. */
static lop_status_t parse_mode(lopredict_opts_t *o, lopredict_mode_t m, const char *arg)
{
    o->modes_given |= 1u << m;
    if (m == MODE_CHECK_SCHEDULE)
        o->check_file = arg;
    if (m == MODE_MEASURED)
        o->measured = arg;
    return LOP_OK;
}

/* The first option given that --list-algs would ignore (all but --csv). */
static void ignored_note(lopredict_opts_t *o, int key)
{
    for (const lop_cli_opt_t *opt = options; opt->name && !o->ignored; opt++)
        if (opt->key == key && key != OPT_CSV)
            o->ignored = opt->name;
}

static lop_status_t parse_option(lopredict_opts_t *o, int key, const char *arg)
{
    if (key >= OPT_MODE)
        return parse_mode(o, (lopredict_mode_t)(key - OPT_MODE), arg);
    logp_opt_note(o, key);
    ignored_note(o, key);
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
    free(o->n);
    free(o->p);
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
    unsigned given = o->modes_given;
    const char *first = NULL;
    if (given & (1u << MODE_GOAL)) /* --goal --check-schedule FILE prints the file's */
        given &= ~(1u << MODE_CHECK_SCHEDULE);
    for (int m = 0; m < MODE_COUNT; m++) {
        if (!(given & (1u << m)))
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
static lop_status_t parse_args(lopredict_opts_t *o, int argc, char **argv, int *help)
{
    lop_cli_t cli;
    const char *arg;
    lop_status_t st = lop_cli_init(&cli, argc, argv, cli_table_make());
    for (int key; st == LOP_OK && (key = lop_cli_next(&cli, &arg)) != LOP_CLI_END;)
        st = key == LOP_CLI_ERROR ? LOP_ERR_INVALID
             : key == 'h'         ? (*help = 1, LOP_OK)
                                  : parse_option(o, key, arg);
    if (st == LOP_OK && lop_cli_operand_index(&cli) < argc)
        st = lop_err(LOP_ERR_INVALID, "unexpected argument '%s' (see --help)",
                     argv[lop_cli_operand_index(&cli)]);
    lop_cli_free(&cli);
    if (st || *help)
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
    int help = 0, failed = 0;
    opts_init(&o);
    lop_status_t st = parse_args(&o, argc, argv, &help);
    run_init(&o, &r);
    if (st == LOP_OK && help) {
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
