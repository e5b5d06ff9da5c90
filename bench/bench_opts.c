/* bench_opts.c - lopbench's option table and parser (bench_opts.h). */
#include "bench_opts.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
    OPT_RMA,
    OPT_RAW
};

static const lop_cli_opt_t options[] = {
    {"transport", OPT_TRANSPORT, "NAME", "auto, verbs or mpi (default: auto = verbs if usable, else mpi)"},
    {"scenario", OPT_SCENARIO, "LIST", "1 = overheads o_s/o_r, 2 = RTT(p) (default: 1,2)"},
    {"ops", OPT_OPS, "LIST", "send, rdmaw (default: send,rdmaw)"},
    {"post", OPT_POST, "LIST", "normal, inline, list (default: normal,inline,list)"},
    {"max-post", OPT_MAX_POST, "K", "scenario 1 posts 1..K requests (default: 16)"},
    {"reps", OPT_REPS, "R", "measured repetitions (default: 1000)"},
    {"warmup", OPT_WARMUP, "W", "discarded repetitions before them (default: 100)"},
    {"idle-us", OPT_IDLE, "US", "idle gap before each repetition (default: 1000, thesis 2.3.5)"},
    {"output", OPT_OUTDIR, "DIR", "output directory (default: data/<host>-<date>)"},
    {"raw", OPT_RAW, NULL, "also write every sample to <series>-<quantity>-raw.csv"},
    {"device", OPT_DEVICE, "NAME", "verbs: RDMA device (default: the first one)"},
    {"port", OPT_PORT, "N", "verbs: device port (default: 1)"},
    {"gid-index", OPT_GID, "I", "verbs: GID index, for RoCE or a routed fabric (default: 0)"},
    {"rma", OPT_RMA, "MODE", "mpi rdmaw: auto, shared (one node) or put (default: auto)"},
    {"quiet", OPT_QUIET, NULL, "no progress or notes on stderr"},
    {"help", OPT_HELP, NULL, "print this help and exit"},
    {NULL, 0, NULL, NULL},
};

void lop_bench_opts_usage(FILE *out)
{
    lop_cli_usage(out, "mpirun -np N lopbench [options]   (N >= 2)",
                  "Measure the LoP model's parameters (thesis 2.3.4-2.3.5): the CPU overheads\n"
                  "o_s(k), o_r(k) of posting k requests (scenario 1) and RTT(p) of rank 0 talking\n"
                  "to p peers at once (scenario 2), over InfiniBand verbs or MPI.  One CSV per\n"
                  "series and quantity: DIR/<op>-<post>-<rtt|os|or|oc>.csv.",
                  options);
}

/* A comma-separated list of names from 'names' (NULL-terminated) as a bit mask. */
static lop_status_t parse_names(const char *opt, const char *arg, const char *const *names,
                                unsigned *mask)
{
    *mask = 0;
    for (const char *item = arg;; item++) {
        size_t len = strcspn(item, ",");
        char name[64];
        int index;
        snprintf(name, sizeof name, "%.*s", (int)len, item);
        if (len > 0 && lop_cli_choice(opt, name, names, &index) != LOP_OK)
            return LOP_ERR_INVALID;
        if (len > 0)
            *mask |= 1u << index;
        item += len;
        if (*item == '\0')
            break;
    }
    return *mask ? LOP_OK : lop_err(LOP_ERR_INVALID, "option --%s: empty list", opt);
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

static lop_status_t parse_one(lop_bench_opts_t *o, int key, const char *arg)
{
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
        return lop_cli_long("reps", arg, 1, 10000000, &o->reps);
    case OPT_WARMUP:
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
        st = lop_cli_long("gid-index", arg, 0, 255, &v);
        o->tcfg.gid_index = (int)v;
        o->tcfg.gid_index_set = 1;
        return st;
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
        .ops = (1u << LOP_OP_COUNT) - 1,
        .posts = (1u << LOP_POST_COUNT) - 1,
        .max_post = 16,
        .reps = 1000,
        .warmup = 100,
        .idle_us = 1000,
        .tcfg = {.device = NULL, .port = 1, .gid_index = 0, .rma = LOP_RMA_AUTO},
    };
}

/* Combinations no single option can reject. */
static lop_status_t check_consistent(const lop_bench_opts_t *o)
{
    int verbs_only = o->tcfg.device || o->tcfg.port != 1 || o->tcfg.gid_index_set;
    if (verbs_only && strcmp(o->transport, "mpi") == 0)
        return lop_err(LOP_ERR_INVALID, "option --%s: only for the verbs transport",
                       o->tcfg.device ? "device" : o->tcfg.port != 1 ? "port" : "gid-index");
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
    return st;
}
