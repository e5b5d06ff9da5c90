/* bench_opts.c - lopbench's option table and parser (bench_opts.h). */
#include "bench_opts.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hybrid.h"

enum {
    OPT_TRANSPORT = 't',
    OPT_OUTDIR = 'o',
    OPT_QUIET = 'q',
    OPT_HELP = 'h',
    OPT_SCENARIO = 1000,
    OPT_OPS,
    OPT_POST,
    OPT_MAX_POST,
    OPT_REPS,
    OPT_WARMUP,
    OPT_IDLE,
    OPT_DEVICE,
    OPT_PORT,
    OPT_GID,
    OPT_TCLASS,
    OPT_SL,
    OPT_TIMEOUT,
    OPT_RMA,
    OPT_RAW,
    OPT_BARRIER,
    OPT_ALG,
    OPT_N,
    OPT_P,
    OPT_EXECUTOR,
    OPT_SCHEDULE,
    OPT_CHECK,
    OPT_CHECK_DELAY,
    OPT_MCAST_NAK,
    OPT_PLACEMENT,
    OPT_PAIRS_FILE,
    OPT_SEED,
    OPT_PAIRS,
    OPT_PAIRS_SAMPLE,
    OPT_METHOD,
    OPT_PAIRS_STAT
};

const char *const lop_pairs_methods[LOP_PAIRS_METHOD_COUNT + 1] = {"issend", "series", NULL};
const char *const lop_pairs_stats[LOP_PAIRS_STAT_COUNT + 1] = {"min", "avg", "median", NULL};

static const lop_cli_opt_t options[] = {
    {"transport", OPT_TRANSPORT, "NAME", "auto, verbs or mpi (default: auto = verbs if usable, else mpi)"},
    {"scenario", OPT_SCENARIO, "LIST", "1 = overheads o_s/o_r, 2 = RTT(p) (default: 1,2)"},
    {"ops", OPT_OPS, "LIST", "send, rdmaw, mcast (scenario 2, verbs: one hardware multicast "
                              "answered by RDMA writes) (default: send,rdmaw)"},
    {"post", OPT_POST, "LIST", "normal, inline, list (default: normal,inline,list)"},
    {"max-post", OPT_MAX_POST, "K", "scenario 1 posts 1..K requests (default: 16)"},
    {"reps", OPT_REPS, "R", "measured repetitions (default: 1000; --pairs: 100)"},
    {"warmup", OPT_WARMUP, "W", "discarded repetitions before them (default: 100; --pairs: 10)"},
    {"idle-us", OPT_IDLE, "US", "idle gap before each repetition (default: 1000, thesis 2.3.5)"},
    {"output", OPT_OUTDIR, "DIR", "output directory (default: data/<host>-<date>)"},
    {"raw", OPT_RAW, NULL, "also write every sample to <series>-<quantity>-raw.csv"},
    {"device", OPT_DEVICE, "NAME", "verbs: RDMA device (default: the first one)"},
    {"port", OPT_PORT, "N", "verbs: device port (default: 1)"},
    {"gid-index", OPT_GID, "I", "verbs: GID index, or auto = RoCE v2 IPv4, then v2, then v1 (default: auto)"},
    {"tclass", OPT_TCLASS, "T", "verbs: traffic class of the global route header, 0..255 (default: 0)"},
    {"sl", OPT_SL, "S", "verbs: service level, 0..15 (lossless classes on PFC fabrics) (default: 0)"},
    {"rma", OPT_RMA, "MODE", "mpi rdmaw: auto, shared (one node) or put (default: auto)"},
    {"barrier", OPT_BARRIER, NULL, "run barrier algorithms instead of scenarios 1 and 2"},
    {"alg", OPT_ALG, "LIST", "barrier: algorithms (lopredict's names; all: every one with a "
                             "schedule, e.g. all,hybrid) (default: all)"},
    {"n", OPT_N, "LIST", "barrier: n for algorithms that take one, e.g. 1..4 (default: theirs)"},
    {"p", OPT_P, "LIST", "barrier: numbers of ranks to run on, e.g. 2..4 (default: all ranks)"},
    {"executor", OPT_EXECUTOR, "LIST", "barrier: p2p, shm, verbs, mpi (default: all usable)"},
    {"schedule", OPT_SCHEDULE, "FILE", "barrier: run this schedule (lopredict --schedule CSV)"},
    {"check", OPT_CHECK, NULL, "barrier: verify no rank leaves before all entered; no timing"},
    {"placement", OPT_PLACEMENT, "FILE", "barrier --alg hybrid: the ranks' levels (default: the run's own)"},
    {"pairs-file", OPT_PAIRS_FILE, "FILE", "barrier --alg hybrid: per-pair costs (default: per level)"},
    {"check-delay-us", OPT_CHECK_DELAY, "US", "barrier --check: largest random arrival delay (default: 200)"},
    {"seed", OPT_SEED, "N", "barrier --check: seed of the random delays (default: 1)"},
    {"mcast-nak-ms", OPT_MCAST_NAK, "MS", "barrier verbs multicast: a rank waiting this long for a "
                                          "release asks again (a NAK) (default: 100)"},
    {"pairs", OPT_PAIRS, NULL, "o and L of every ordered pair of ranks, and placement.csv"},
    {"pairs-sample", OPT_PAIRS_SAMPLE, NULL, "pairs: one pair per placement class fills the matrix"},
    {"method", OPT_METHOD, "LIST", "pairs: issend (Meyer & Elster), series (--ops/--post over the transport) (default: both)"},
    {"pairs-stat", OPT_PAIRS_STAT, "STAT", "pairs: min, avg or median in o_us and L_us (default: median)"},
    {"timeout", OPT_TIMEOUT, "S", "give up any wait for a peer after S seconds, 0 = never (default: 60)"},
    {"quiet", OPT_QUIET, NULL, "no progress or notes on stderr"},
    {"help", OPT_HELP, NULL, "print this help and exit"},
    {NULL, 0, NULL, NULL},
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
                  "and time them against MPI_Barrier (thesis 4.3.2): DIR/barrier.csv.\n"
                  "With --pairs, measure the send overhead o and latency L of a small message\n"
                  "for every ordered pair of ranks (Meyer and Elster's P x P matrices), in\n"
                  "rounds of disjoint pairs: DIR/pairs.csv (zero-byte MPI_Issend, the paper's\n"
                  "regressions), DIR/pairs-<op>-<post>.csv (lop's series over the transport:\n"
                  "o = o_s(1), L = RTT(1)/2 - 2 o_s(1)) and DIR/placement.csv.",
                  options);
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

/* A comma-separated list of names from 'names' (NULL-terminated) as a bit mask. */
typedef struct {
    const char *opt;
    const char *const *names;
    unsigned mask;
} names_t;

static lop_status_t name_item(void *ctx, char *item)
{
    names_t *n = ctx;
    int index;
    lop_status_t st = lop_cli_choice(n->opt, item, n->names, &index);
    n->mask |= st == LOP_OK ? 1u << index : 0;
    return st;
}

static lop_status_t parse_names(const char *opt, const char *arg, const char *const *names,
                                unsigned *mask)
{
    names_t n = {opt, names, 0};
    lop_status_t st = lop_cli_items(opt, arg, name_item, &n);
    *mask = n.mask;
    return st;
}

static lop_status_t parse_scenarios(const char *arg, int *scenario)
{
    long *list;
    size_t n;
    lop_status_t st = lop_cli_long_list("scenario", arg, 1, 2, &list, &n);
    if (st != LOP_OK)
        return st;
    scenario[1] = scenario[2] = 0;
    for (size_t i = 0; i < n; i++)
        scenario[list[i]] = 1;
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

static lop_status_t parse_algs(const char *arg, lop_bench_opts_t *o)
{
    o->n_alg = 0;
    return lop_cli_items("alg", arg, alg_item, o);
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

static lop_status_t parse_executors(const char *arg, lop_bench_opts_t *o)
{
    const char *names[8] = {NULL};
    for (int i = 0; lop_barrier_execs[i].name && i < 7; i++)
        names[i] = lop_barrier_execs[i].name;
    o->executors_named = 1;
    return parse_names("executor", arg, names, &o->executors);
}

static lop_status_t parse_barrier_option(lop_bench_opts_t *o, int key, const char *arg)
{
    switch (key) {
    case OPT_ALG:
        o->alg_named = 1;
        return parse_algs(arg, o);
    case OPT_N:
        return parse_longs("n", arg, 1, 1 << 20, o->n_value, &o->n_n);
    case OPT_P:
        return parse_longs("p", arg, 2, 1 << 20, o->p_value, &o->n_p);
    case OPT_EXECUTOR:
        return parse_executors(arg, o);
    case OPT_SCHEDULE:
        o->schedule_file = arg;
        return LOP_OK;
    case OPT_PLACEMENT:
        o->placement = arg;
        return LOP_OK;
    case OPT_PAIRS_FILE:
        o->pairs_file = arg;
        return LOP_OK;
    case OPT_CHECK:
        o->check = 1;
        return LOP_OK;
    case OPT_CHECK_DELAY:
        return lop_cli_double("check-delay-us", arg, 1, 1e6, &o->check_delay_us);
    case OPT_MCAST_NAK:
        o->mcast_nak_named = 1;
        return lop_cli_double("mcast-nak-ms", arg, 0.001, 1e6, &o->tcfg.nak_ms);
    case OPT_SEED: {
        long v;
        lop_status_t st = lop_cli_long("seed", arg, 0, 1L << 30, &v);
        o->seed = (unsigned long)v;
        return st;
    }
    default: /* OPT_BARRIER */
        o->barrier = 1;
        return LOP_OK;
    }
}

static lop_status_t parse_pairs_option(lop_bench_opts_t *o, int key, const char *arg)
{
    switch (key) {
    case OPT_PAIRS_SAMPLE:
        o->pairs_sample = 1;
        o->pairs = 1;
        return LOP_OK;
    case OPT_METHOD:
        o->methods_named = 1;
        return parse_names("method", arg, lop_pairs_methods, &o->methods);
    case OPT_PAIRS_STAT:
        o->pairs_stat_named = 1;
        return lop_cli_choice("pairs-stat", arg, lop_pairs_stats, &o->pairs_stat);
    default: /* OPT_PAIRS */
        o->pairs = 1;
        return LOP_OK;
    }
}

static lop_status_t parse_one(lop_bench_opts_t *o, int key, const char *arg)
{
    if (key >= OPT_BARRIER && key <= OPT_SEED)
        return parse_barrier_option(o, key, arg);
    if (key >= OPT_PAIRS && key <= OPT_PAIRS_STAT)
        return parse_pairs_option(o, key, arg);
    static const char *const transports[] = {"auto", "verbs", "mpi", NULL};
    static const char *const rma[] = {"auto", "shared", "put", NULL};
    const char *ops[LOP_OP_COUNT + 1] = {NULL}, *posts[LOP_POST_COUNT + 1] = {NULL};
    for (int i = 0; i < LOP_OP_COUNT; i++)
        ops[i] = lop_op_desc[i].name;
    for (int i = 0; i < LOP_POST_COUNT; i++)
        posts[i] = lop_post_desc[i].name;
    long v;
    int index;
    lop_status_t st = LOP_OK;
    switch (key) {
    case OPT_TRANSPORT:
        st = lop_cli_choice("transport", arg, transports, &index);
        o->transport = transports[st == LOP_OK ? index : 0];
        return st;
    case OPT_SCENARIO:
        return parse_scenarios(arg, o->scenario);
    case OPT_OPS:
        return parse_names("ops", arg, ops, &o->ops);
    case OPT_POST:
        return parse_names("post", arg, posts, &o->posts);
    case OPT_MAX_POST:
        return lop_cli_long("max-post", arg, 1, 1024, &o->max_post);
    case OPT_REPS:
        o->reps_named = 1;
        return lop_cli_long("reps", arg, 1, 10000000, &o->reps);
    case OPT_WARMUP:
        o->warmup_named = 1;
        return lop_cli_long("warmup", arg, 0, 10000000, &o->warmup);
    case OPT_IDLE:
        return lop_cli_double("idle-us", arg, 0, 1e7, &o->idle_us);
    case OPT_OUTDIR:
        if (*arg == '\0')
            return lop_err(LOP_ERR_INVALID, "option --output: empty directory name");
        o->outdir = arg;
        return LOP_OK;
    case OPT_DEVICE:
        o->tcfg.device = arg;
        return LOP_OK;
    case OPT_PORT:
        st = lop_cli_long("port", arg, 1, 255, &v);
        o->tcfg.port = (int)v;
        return st;
    case OPT_GID:
        o->tcfg.gid_index_set = 1;
        if (strcmp(arg, "auto") == 0) {
            o->tcfg.gid_index = LOP_GID_AUTO;
            return LOP_OK;
        }
        st = lop_cli_long("gid-index", arg, 0, 255, &v);
        o->tcfg.gid_index = (int)v;
        return st;
    case OPT_TCLASS:
        st = lop_cli_long("tclass", arg, 0, 255, &v);
        o->tcfg.tclass = (int)v;
        return st;
    case OPT_SL:
        st = lop_cli_long("sl", arg, 0, 15, &v);
        o->tcfg.sl = (int)v;
        return st;
    case OPT_TIMEOUT:
        return lop_cli_double("timeout", arg, 0, 1e6, &o->timeout_s);
    case OPT_RMA:
        st = lop_cli_choice("rma", arg, rma, &index);
        o->tcfg.rma = (lop_rma_mode_t)index;
        return st;
    case OPT_RAW:
        o->raw = 1;
        return LOP_OK;
    case OPT_QUIET:
        o->quiet = 1;
        return LOP_OK;
    default: /* OPT_HELP */
        o->help = 1;
        return LOP_OK;
    }
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
        .methods = (1u << LOP_PAIRS_METHOD_COUNT) - 1,
        .pairs_stat = LOP_PAIRS_MEDIAN,
    };
    parse_algs("all", o);
}

/* Combinations no single option can reject. */
static lop_status_t check_consistent(const lop_bench_opts_t *o)
{
    static const char *const barrier_only[] = {"alg", "n", "p", "executor", "schedule", "check",
                                               "mcast-nak-ms"};
    int given[] = {o->alg_named, o->n_n > 0, o->n_p > 0, o->executors_named,
                   o->schedule_file != NULL, o->check, o->mcast_nak_named};
    for (size_t i = 0; i < sizeof given / sizeof *given && !o->barrier; i++)
        if (given[i])
            return lop_err(LOP_ERR_INVALID, "option --%s: only with --barrier", barrier_only[i]);
    if (o->pairs && o->barrier)
        return lop_err(LOP_ERR_INVALID, "option --pairs: not with --barrier (one mode per run)");
    static const char *const pairs_only[] = {"method", "pairs-stat"};
    int pairs_given[] = {o->methods_named, o->pairs_stat_named};
    for (size_t i = 0; i < sizeof pairs_given / sizeof *pairs_given && !o->pairs; i++)
        if (pairs_given[i])
            return lop_err(LOP_ERR_INVALID, "option --%s: only with --pairs", pairs_only[i]);
    if ((o->ops >> LOP_OP_MCAST & 1) && (o->pairs || o->barrier || !o->scenario[2]))
        return lop_err(LOP_ERR_INVALID, "option --ops: mcast is measured by scenario 2 alone "
                       "(not with %s)", o->pairs ? "--pairs" : o->barrier ? "--barrier" :
                       "--scenario 1 alone");
    if (o->schedule_file && o->alg_named)
        return lop_err(LOP_ERR_INVALID, "option --schedule: give either --schedule or --alg");
    int hybrid = 0;
    for (size_t i = 0; i < o->n_alg; i++)
        hybrid |= (o->alg[i]->flags & BARRIER_HYBRID) != 0;
    if ((o->placement || o->pairs_file) && !hybrid)
        return lop_err(LOP_ERR_INVALID, "option --%s: only with --barrier --alg hybrid",
                       o->placement ? "placement" : "pairs-file");
    static const char *const verbs_only[] = {"device", "port", "gid-index", "tclass", "sl"};
    int set[] = {o->tcfg.device != NULL, o->tcfg.port != 1, o->tcfg.gid_index_set,
                 o->tcfg.tclass != 0, o->tcfg.sl != 0};
    for (size_t i = 0; i < sizeof set / sizeof *set && strcmp(o->transport, "mpi") == 0; i++)
        if (set[i])
            return lop_err(LOP_ERR_INVALID, "option --%s: only for the verbs transport",
                           verbs_only[i]);
    return LOP_OK;
}

lop_status_t lop_bench_opts_parse(int argc, char **argv, lop_bench_opts_t *opts)
{
    lop_cli_t cli;
    set_defaults(opts);
    lop_status_t st = lop_cli_init(&cli, argc, argv, options);
    if (st != LOP_OK)
        return st;
    int key;
    const char *arg;
    while (st == LOP_OK && (key = lop_cli_next(&cli, &arg)) != LOP_CLI_END)
        st = key == LOP_CLI_ERROR ? LOP_ERR_INVALID : parse_one(opts, key, arg);
    int first_operand = lop_cli_operand_index(&cli);
    lop_cli_free(&cli);
    if (st == LOP_OK && first_operand < argc)
        st = lop_err(LOP_ERR_INVALID, "unexpected argument '%s' (see --help)", argv[first_operand]);
    if (st == LOP_OK && !opts->help)
        st = check_consistent(opts);
    if (st == LOP_OK && opts->pairs) { /* a P x P matrix: fewer samples per pair */
        opts->reps = opts->reps_named ? opts->reps : LOP_PAIRS_REPS;
        opts->warmup = opts->warmup_named ? opts->warmup : LOP_PAIRS_WARMUP;
    }
    return st;
}
