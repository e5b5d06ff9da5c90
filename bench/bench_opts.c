/* bench_opts.c - lopbench's option table and parser (bench_opts.h). */
#include "bench_opts.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "barrier_mode.h"
#include "cli.h"
#include "congest.h"
#include "ibmcast.h"
#include "timer.h"

const char *const lop_pairs_methods[LOP_PAIRS_METHOD_COUNT + 1] = {"issend", "series", NULL};
const char *const lop_pairs_stats[LOP_PAIRS_STAT_COUNT + 1] = {"min", "avg", "median", NULL};

/* Choices that come from the tables they name (filled by choices_fill),
 * sized from the tables' counts. */
static const char *transport_names[LOP_TRANSPORT_COUNT + 2] = {"auto"}; /* then transports[] */
static const char *executor_names[LOP_BARRIER_EXEC_COUNT + 1]; /* lop_barrier_execs[] */
static const char *op_names[LOP_OP_COUNT + 1];        /* lop_op_desc[] */
static const char *post_names[LOP_POST_COUNT + 1];    /* lop_post_desc[] */
static const char *congest_names[LOP_CONGEST_PATTERN_COUNT + 1]; /* lop_congest_patterns[] */
static const char *const rma_names[] = {"auto", "shared", "put", NULL}; /* lop_rma_mode_t */
_Static_assert(LOP_BARRIER_EXEC_COUNT <= sizeof(unsigned) * CHAR_BIT,
               "--executor's set is a bit per executor in an unsigned");

/* --transport's help: auto tries the transports in the table's order
 * ("auto = verbs if usable, else mpi"). */
static char transport_help[160];

static lop_status_t transport_help_fill(void)
{
    size_t len = sizeof transport_help;
    size_t used = (size_t)snprintf(transport_help, len, "{} (default: auto = ");
    for (size_t i = 0; lop_transport_name(i) && used < len; i++)
        used += (size_t)snprintf(transport_help + used, len - used, "%s%s",
                                 i == 0 ? "" : " if usable, else ", lop_transport_name(i));
    if (used < len)
        used += (size_t)snprintf(transport_help + used, len - used, ")");
    if (used >= len) /* the table outgrew the buffer: refuse to run, not print it cut */
        return lop_err(LOP_ERR_RANGE, "internal: --transport's help needs more than %zu bytes",
                       len - 1);
    return LOP_OK;
}

static lop_status_t choices_fill(void)
{
    for (size_t i = 0; i < LOP_TRANSPORT_COUNT; i++)
        transport_names[i + 1] = lop_transport_name(i);
    for (int i = 0; i < LOP_BARRIER_EXEC_COUNT; i++)
        executor_names[i] = lop_barrier_execs[i].name;
    for (int i = 0; i < LOP_OP_COUNT; i++)
        op_names[i] = lop_op_desc[i].name;
    for (int i = 0; i < LOP_POST_COUNT; i++)
        post_names[i] = lop_post_desc[i].name;
    for (int i = 0; i < LOP_CONGEST_PATTERN_COUNT; i++)
        congest_names[i] = lop_congest_patterns[i].name;
    return transport_help_fill();
}

static lop_cli_parse_fn parse_scenarios, parse_algs, parse_n, parse_p, parse_gid;

#define AT(member) LOP_CLI_AT(lop_bench_opts_t, member)
#define MARK(member) LOP_CLI_MARK(lop_bench_opts_t, member)
/* Which modes an option has an effect in (the rows' 'modes' column). */
#define IN(m) LOP_CLI_IN(LOP_BENCH_##m)
#define SCENARIO_MODES (IN(SCENARIOS) | IN(CALIBRATED)) /* the scenarios run */
#define OVER_TRANSPORT (SCENARIO_MODES | IN(PAIRS)) /* the scenarios' transport and series */
#define BARRIERS (IN(BARRIER) | IN(SCHEDULE))
#define TIMED_ALGS (IN(BARRIER) | IN(CALIBRATED)) /* --alg's barriers timed */
#define CONGEST_MODES (BARRIERS | IN(SCENARIOS)) /* bench/congest.h */

static const lop_cli_opt_t options[] = {
    {"transport", 't', "NAME", transport_help, LOP_CLI_NAME, AT(transport),
     .choices = transport_names, .join = " or ", .modes = OVER_TRANSPORT},
    {"scenario", 0, "LIST",
     "1 = overheads o_s/o_r, 2 = RTT(p), 3 = the gap PRTT(k) and the exchange X(1) "
     "(default: 1,2)",
     LOP_CLI_CUSTOM,
     .parse = parse_scenarios, .modes = SCENARIO_MODES},
    {"ops", 0, "LIST", "send, rdmaw, mcast (scenario 2, verbs: one hardware multicast "
                       "answered by RDMA writes) (default: send,rdmaw)", LOP_CLI_SET, AT(ops),
     .choices = op_names, .modes = OVER_TRANSPORT},
    {"post", 0, "LIST", "normal, inline, list (default: normal,inline,list)", LOP_CLI_SET,
     AT(posts), .choices = post_names, .modes = OVER_TRANSPORT},
    {"max-post", 0, "K", "scenario 1 posts 1..K requests (default: 16)", LOP_CLI_INT,
     AT(max_post), .min = 1, .max = 1024, .modes = SCENARIO_MODES},
    {"reps", 0, "R", "measured repetitions (default: 1000; --pairs: 100)", LOP_CLI_INT, AT(reps),
     .min = 1, .max = 10000000, .given = MARK(reps_named)},
    {"warmup", 0, "W", "discarded repetitions before them (default: 100; --pairs: 10)",
     LOP_CLI_INT, AT(warmup), .min = 0, .max = 10000000, .given = MARK(warmup_named)},
    {"idle-us", 0, "US", "idle gap before each repetition, scenario 2: each round (default: 1000, "
     "thesis 2.3.5)",
     LOP_CLI_REAL, AT(idle_us), .min = 0, .max = 1e7, .modes = OVER_TRANSPORT},
    {"output", 'o', "DIR", "output directory (default: data/<host>-<date>)", LOP_CLI_CUSTOM,
     AT(outdir), .parse = lop_cli_dir},
    {"raw", 0, NULL, "also write every sample to <series>-<quantity>-raw.csv", LOP_CLI_FLAG,
     AT(raw), .modes = SCENARIO_MODES},
    {"device", 0, "NAME", "verbs: RDMA device (default: the first one)", LOP_CLI_TEXT,
     AT(tcfg.device)},
    {"port", 0, "N", "verbs: device port (default: 1)", LOP_CLI_INT, AT(tcfg.port), .min = 1,
     .max = 255},
    {"gid-index", 0, "I", "verbs: GID index, or auto = RoCE v2 IPv4, then v2, then v1 (default: auto)",
     LOP_CLI_CUSTOM, .parse = parse_gid},
    {"tclass", 0, "T", "verbs: traffic class of the global route header, 0..255 (default: 0)",
     LOP_CLI_INT, AT(tcfg.tclass), .min = 0, .max = 255},
    {"sl", 0, "S", "verbs: service level, 0..15 (lossless classes on PFC fabrics) (default: 0)",
     LOP_CLI_INT, AT(tcfg.sl), .min = 0, .max = 15},
    {"rma", 0, "MODE", "mpi rdmaw: auto, shared (one node) or put (default: auto)",
     LOP_CLI_CHOICE, AT(tcfg.rma), .choices = rma_names},
    {"alg", 0, "LIST", "barrier: algorithms (lopredict's names; all: every one with a "
                       "schedule, e.g. all,hybrid) (default: all)", LOP_CLI_CUSTOM,
     .parse = parse_algs, .modes = TIMED_ALGS},
    {"n", 0, "LIST", "barrier: n for algorithms that take one, e.g. 1..4 (default: theirs)",
     LOP_CLI_CUSTOM, .parse = parse_n, .modes = TIMED_ALGS},
    {"p", 0, "LIST", "barrier: numbers of ranks to run on, e.g. 2..4 (default: all ranks)",
     LOP_CLI_CUSTOM, .parse = parse_p, .modes = BARRIERS | IN(CALIBRATED)},
    {"executor", 0, "LIST", "barrier: {} (default: all usable)", LOP_CLI_SET, AT(executors),
     .choices = executor_names, .join = ", ", .given = MARK(executors_named),
     .modes = BARRIERS | IN(CALIBRATED)},
    {"check", 0, NULL, "barrier: verify no rank leaves before all entered; no timing",
     LOP_CLI_FLAG, AT(check), .modes = BARRIERS},
    {"placement", 0, "FILE", "barrier --alg hybrid: the ranks' levels (default: the run's own)",
     LOP_CLI_TEXT, AT(placement), .modes = IN(BARRIER), .only_with = "alg=hybrid"},
    {"pairs-file", 0, "FILE", "barrier --alg hybrid: per-pair costs (default: per level)",
     LOP_CLI_TEXT, AT(pairs_file), .modes = IN(BARRIER), .only_with = "alg=hybrid"},
    {"check-delay-us", 0, "US", "barrier --check: largest random arrival delay (default: 200)",
     LOP_CLI_REAL, AT(check_delay_us), .min = 1, .max = 1e6, .modes = BARRIERS,
     .only_with = "check"},
    {"check-witness", 0, "KIND", "barrier --check: auto (one-sided on one node, else "
                                 "two-sided), one-sided (an MPI window) or two-sided "
                                 "(MPI_Issend) (default: auto)", LOP_CLI_CHOICE,
     AT(check_witness), .choices = lop_witness_names, .modes = BARRIERS, .only_with = "check"},
    {"seed", 0, "N", "barrier --check: seed of the random delays; --congest uniform: of the "
                     "destinations (default: 1)", LOP_CLI_INT,
     AT(seed), .min = 0, .max = 1L << 30, .modes = CONGEST_MODES,
     .only_with = "check|congest=uniform"},
    {"congest", 0, "PATTERN", "the last --congest-ranks ranks send background traffic: {}; "
                              "barrier: every run timed isolated and again under it; scenarios: "
                              "measured under it (bench/README.md)",
     LOP_CLI_CHOICE, AT(congest), .choices = congest_names, .join = " or ",
     .given = MARK(congest_on), .modes = CONGEST_MODES},
    {"congest-ranks", 0, "K", "--congest: the last K ranks congest, the others are "
                              "timed (default: 80 %, leaving 2 timed)", LOP_CLI_INT,
     AT(congest_ranks), .min = 1, .max = 1 << 20, .modes = CONGEST_MODES, .only_with = "congest"},
    {"congest-size", 0, "BYTES", "--congest: bytes a message (default: 4096)",
     LOP_CLI_INT, AT(congest_size), .min = 1, .max = 1 << 20, .modes = CONGEST_MODES,
     .only_with = "congest"},
    {"congest-window", 0, "W", "--congest: messages in flight per congestor "
                               "(default: 8)", LOP_CLI_INT, AT(congest_window), .min = 1,
     .max = 256, .modes = CONGEST_MODES, .only_with = "congest"},
    {"congest-max", 0, "N", "--congest: messages per congestor per congested phase, "
                            "at most (default: 100000000)", LOP_CLI_INT, AT(congest_max),
     .min = 1, .max = 1e12, .modes = CONGEST_MODES, .only_with = "congest"},
    {"mcast-nak-ms", 0, "MS", "barrier verbs multicast: a rank waiting this long for a "
                              "release asks again (a NAK) (default: 100)", LOP_CLI_REAL,
     AT(tcfg.nak_ms), .min = 0.001, .max = 1e6, .modes = BARRIERS | IN(CALIBRATED)},
    /* --pairs-sample implies --pairs: its mark is the pairs flag */
    {"pairs-sample", 0, NULL, "pairs: one pair per placement class fills the matrix",
     LOP_CLI_FLAG, AT(pairs_sample), .given = MARK(pairs), .modes = IN(PAIRS)},
    {"method", 0, "LIST", "pairs: issend (Meyer & Elster), series (--ops/--post over the transport) (default: both)",
     LOP_CLI_SET, AT(methods), .choices = lop_pairs_methods, .modes = IN(PAIRS)},
    {"pairs-stat", 0, "STAT", "pairs: min, avg or median in o_us and L_us (default: median)",
     LOP_CLI_CHOICE, AT(pairs_stat), .choices = lop_pairs_stats, .modes = IN(PAIRS)},
    {"timeout", 0, "S", "give up any wait for a peer after S seconds, 0 = never (default: 60)",
     LOP_CLI_REAL, AT(timeout_s), .min = 0, .max = 1e6},
    {"quiet", 'q', NULL, "no progress or notes on stderr", LOP_CLI_FLAG, AT(quiet)},
    {"help", 'h', NULL, "print this help and exit", LOP_CLI_FLAG, AT(help)},
    LOP_CLI_LIST_OPTIONS(lop_bench_opts_t, list_options),
    /* the modes' options, listed with the modes */
    {"barrier", 0, NULL, NULL, LOP_CLI_FLAG, AT(barrier)},
    {"with-scenarios", 0, NULL, NULL, LOP_CLI_FLAG, AT(with_scenarios)},
    {"schedule", 0, "FILE", NULL, LOP_CLI_TEXT, AT(schedule_file)},
    {"pairs", 0, NULL, NULL, LOP_CLI_FLAG, AT(pairs)},
    {NULL, 0, NULL, NULL},
};

/* The modes, indexed by lop_bench_mode_t (what each runs: main.c). */
static const lop_cli_mode_t modes[LOP_BENCH_MODE_COUNT + 1] = {
    [LOP_BENCH_SCENARIOS] = {"scenarios", NULL, NULL, NULL,
                             "the scenarios of --scenario over the transport, a CSV per series"},
    [LOP_BENCH_BARRIER] = {"barrier", "barrier", NULL, NULL,
                           "lopredict's barrier schedules on every executor, and MPI_Barrier"},
    [LOP_BENCH_SCHEDULE] = {"schedule", "barrier,schedule", NULL, NULL,
                            "a schedule file (lopredict --schedule's CSV, or GOAL) instead "
                            "of --alg"},
    [LOP_BENCH_PAIRS] = {"pairs", "pairs", NULL, NULL,
                         "o and L of every ordered pair of ranks, and placement.csv"},
    [LOP_BENCH_CALIBRATED] = {"calibrated", "barrier,with-scenarios", NULL, NULL,
                              "the scenarios of --scenario, then the barriers of --alg, in "
                              "one launch: the parameters measured in the state the barriers "
                              "run in"},
    [LOP_BENCH_MODE_COUNT] = {NULL},
};

void lop_bench_opts_usage(FILE *out)
{
    lop_cli_usage(out, "mpirun -np N lopbench [options]   (N >= 2)\n"
                  "       mpirun -np N lopbench --barrier [--alg LIST] [--executor LIST] [--check]\n"
                  "       mpirun -np N lopbench --pairs [--pairs-sample] [--method LIST]",
                  "Measure the LoP model's parameters (thesis 2.3.4-2.3.5): the CPU overheads\n"
                  "o_s(k), o_r(k) of posting k requests (scenario 1) and RTT(p) of rank 0 talking\n"
                  "to p peers at once (scenario 2), over InfiniBand verbs or MPI.  One CSV per\n"
                  "series and quantity: DIR/<op>-<post>-<rtt|os|or|oc>.csv.\n"
                  "With --barrier, run lopredict's barrier schedules for real on every executor\n"
                  "and time them against MPI_Barrier (thesis 4.3.2): DIR/barrier.csv, and\n"
                  "DIR/barrier-hist.csv their per-iteration times binned.  With --congest\n"
                  "PATTERN, again while the last ranks send background traffic:\n"
                  "DIR/barrier-congested.csv with each run's impact factor.\n"
                  "With --pairs, measure the send overhead o and latency L of a small message\n"
                  "for every ordered pair of ranks (Meyer and Elster's P x P matrices), in\n"
                  "rounds of disjoint pairs: DIR/pairs.csv (zero-byte MPI_Issend, the paper's\n"
                  "regressions), DIR/pairs-<op>-<post>.csv (lop's series over the transport:\n"
                  "o = o_s(1), L = RTT(1)/2 - 2 o_s(1)) and DIR/placement.csv.\n"
                  "LOP_TIMER=clock times with clock_gettime instead of the cycle counter.",
                  options);
    lop_cli_modes_usage(out, options, modes);
}

void lop_bench_opts_list(FILE *out)
{
    lop_cli_list_options(out, options, modes);
}

void lop_bench_note(const lop_bench_opts_t *opts, int rank, const char *fmt, ...)
{
    if (rank != 0 || opts->quiet)
        return;
    char note[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof note, fmt, ap);
    va_end(ap);
    /* one write: under mpirun stderr and stdout are forwarded apart, and a
     * line written in pieces had stdout's text spliced into it */
    fprintf(stderr, "lopbench: %s\n", note);
}

static lop_status_t parse_scenarios(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lop_bench_opts_t *o = opts;
    long *list;
    size_t n;
    lop_status_t st = lop_cli_long_list(opt->name, arg, 1, 3, &list, &n);
    if (st != LOP_OK)
        return st;
    o->scenario[1] = o->scenario[2] = o->scenario[3] = 0;
    for (size_t i = 0; i < n; i++)
        o->scenario[list[i]] = 1;
    free(list);
    return LOP_OK;
}

/* One algorithm onto --alg's list, once ("all" may have named it). */
static lop_status_t alg_add(lop_bench_opts_t *o, const char *name)
{
    for (size_t i = 0; i < o->n_alg; i++)
        if (strcmp(o->alg[i]->name, name) == 0)
            return lop_err(LOP_ERR_INVALID, "option --alg: '%s' is named twice (all names every "
                           "algorithm with a schedule)", name);
    lop_status_t st = barrier_alg_list_add("alg", name, o->alg, &o->n_alg, LOP_BENCH_MAX_LIST);
    if (st == LOP_OK && (o->alg[o->n_alg - 1]->flags & BARRIER_COST_ONLY))
        return lop_err(LOP_ERR_INVALID, "option --alg: '%s' is a cost model only, there is no "
                       "schedule to run", name);
    return st;
}

/* --alg: a list of names, "all" among them standing for every algorithm
 * with a schedule (e.g. all,hybrid, as lopredict takes it). */
static lop_status_t alg_item(void *ctx, char *name)
{
    lop_bench_opts_t *o = ctx;
    lop_status_t st = LOP_OK;
    if (strcmp(name, "all") != 0)
        return alg_add(o, name);
    for (const barrier_alg_t *const *a = barrier_algs; *a && st == LOP_OK; a++)
        if (!((*a)->flags & BARRIER_COST_ONLY))
            st = alg_add(o, (*a)->name);
    return st;
}

static lop_status_t parse_algs(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lop_bench_opts_t *o = opts;
    o->n_alg = 0;
    return lop_cli_items(opt->name, arg, alg_item, o);
}

/* A list of integers "1,3..5" into a fixed array. */
static lop_status_t parse_longs(const char *opt, const char *arg, long min, long max, long *out,
                                size_t *n)
{
    long *list;
    size_t count;
    lop_status_t st = lop_cli_long_list(opt, arg, min, max, &list, &count);
    if (st == LOP_OK && count > LOP_BENCH_MAX_LIST)
        st = lop_err(LOP_ERR_INVALID, "option --%s: more than %d values", opt, LOP_BENCH_MAX_LIST);
    if (st == LOP_OK)
        memcpy(out, list, count * sizeof *list);
    *n = st == LOP_OK ? count : 0;
    free(list);
    return st;
}

static lop_status_t parse_n(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lop_bench_opts_t *o = opts;
    return parse_longs(opt->name, arg, 1, 1 << 20, o->n_value, &o->n_n);
}

static lop_status_t parse_p(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lop_bench_opts_t *o = opts;
    return parse_longs(opt->name, arg, 2, 1 << 20, o->p_value, &o->n_p);
}

/* --gid-index: auto or a number; either way the user asked for a route. */
static lop_status_t parse_gid(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    lop_transport_cfg_t *t = &((lop_bench_opts_t *)opts)->tcfg;
    long v = LOP_GID_AUTO;
    lop_status_t st = strcmp(arg, "auto") == 0 ? LOP_OK : lop_cli_long(opt->name, arg, 0, 255, &v);
    t->gid_index_set = 1;
    t->gid_index = (int)v;
    return st;
}

static void set_defaults(lop_bench_opts_t *o)
{
    *o = (lop_bench_opts_t){
        .transport = "auto",
        .scenario = {0, 1, 1},
        .ops = 1u << LOP_OP_SEND | 1u << LOP_OP_RDMAW, /* mcast: asked for */
        .posts = (1u << LOP_POST_COUNT) - 1,
        .max_post = 16,
        .reps = 1000,
        .warmup = 100,
        .idle_us = 1000,
        .tcfg = {.device = NULL, .port = 1, .gid_index = LOP_GID_AUTO, .rma = LOP_RMA_AUTO,
                 .nak_ms = 100},
        .timeout_s = 60,
        .executors = ~0u,
        .check_delay_us = 200,
        .seed = 1,
        .congest_size = 4096,
        .congest_window = 8,
        .congest_max = 100000000,
        .methods = (1u << LOP_PAIRS_METHOD_COUNT) - 1,
        .pairs_stat = LOP_PAIRS_MEDIAN,
    };
    char all[] = "all";
    alg_item(o, all);
}

/* --device and the route options are for a transport on an RDMA device: one
 * named whose ops table says it has none refuses them.  "auto" takes them
 * (--device then requires verbs: lop_transport_open). */
static lop_status_t check_device_options(const lop_bench_opts_t *o)
{
    static const char *const device_options[] = {"device", "port", "gid-index", "tclass", "sl"};
    int set[] = {o->tcfg.device != NULL, o->tcfg.port != 1, o->tcfg.gid_index_set,
                 o->tcfg.tclass != 0, o->tcfg.sl != 0};
    const lop_transport_ops_t *named = lop_transport_find(o->transport); /* NULL: auto */
    for (size_t i = 0; i < COUNT(set) && named && !named->takes_device; i++)
        if (set[i])
            return lop_err(LOP_ERR_INVALID, "option --%s: only for the verbs transport",
                           device_options[i]);
    return LOP_OK;
}

/* Combinations the option table cannot reject (it says which mode takes
 * which option). */
static lop_status_t check_consistent(const lop_bench_opts_t *o)
{
    if (o->congest_on && o->check)
        return lop_err(LOP_ERR_INVALID, "option --congest: not with --check (--check verifies "
                       "barriers, --congest times them under traffic)");
    if ((o->ops >> LOP_OP_MCAST & 1) && (o->pairs || !o->scenario[2]))
        return lop_err(LOP_ERR_INVALID, "option --ops: mcast is measured by scenario 2 alone "
                       "(not with %s)", o->pairs ? "--pairs" : "--scenario 1 alone");
    return check_device_options(o);
}

/* The environment lopbench reads, refused before anything runs: a test
 * hook or a timer named wrong would silently do nothing. */
static lop_status_t check_environment(void)
{
    lop_status_t st = lop_timer_env_check();
    st = st ? st : lop_barrier_hooks_check();
    return st ? st : lop_mcast_hooks_check();
}

lop_status_t lop_bench_opts_parse(int argc, char **argv, lop_bench_opts_t *opts)
{
    lop_cli_t cli;
    set_defaults(opts);
    lop_status_t st = choices_fill();
    st = st ? st : lop_cli_init(&cli, argc, argv, options);
    if (st != LOP_OK)
        return st;
    st = lop_cli_parse(&cli, opts);
    int stop = opts->help || opts->list_options;
    st = st || stop ? st : lop_cli_check(&cli, modes, &opts->mode);
    st = st || stop ? st : check_consistent(opts);
    st = st || stop ? st : check_environment();
    lop_cli_free(&cli);
    if (st == LOP_OK && opts->pairs) { /* a P x P matrix: fewer samples per pair */
        opts->reps = opts->reps_named ? opts->reps : LOP_PAIRS_REPS;
        opts->warmup = opts->warmup_named ? opts->warmup : LOP_PAIRS_WARMUP;
    }
    return st;
}
