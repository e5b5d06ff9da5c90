/* lopbench's command line (bench/bench_opts.c): defaults, every option, and
 * the one-line error of each bad input; the transport tables, which ranks a
 * transport links, and the receive ring backends share.  No MPI_Init: none
 * of it needs MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_opts.h"
#include "congest.h"
#include "tap.h"

static lop_status_t parse(lop_bench_opts_t *o, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return lop_bench_opts_parse(argc, argv, o);
}

/* bad(msg, args...): parsing fails with exactly 'msg' */
#define bad(msg, ...)                                                                         \
    do {                                                                                      \
        char *argv_[] = {"lopbench", __VA_ARGS__, NULL};                                      \
        lop_bench_opts_t o_;                                                                  \
        ok(parse(&o_, argv_) != LOP_OK && strcmp(lop_errmsg(), msg) == 0, "rejects: %s", msg); \
        if (strcmp(lop_errmsg(), msg) != 0)                                                   \
            printf("#   got: %s\n", lop_errmsg());                                            \
    } while (0)

/* --transport's choices as its error lists them, from the transport table:
 * "auto, verbs, mpi". */
static void transport_choices(char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "auto");
    for (size_t i = 0; lop_transport_name(i) && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, ", %s", lop_transport_name(i));
}

static void test_defaults(void)
{
    char *argv[] = {"lopbench", NULL};
    lop_bench_opts_t o;
    ok(parse(&o, argv) == LOP_OK, "no options parse");
    ok(strcmp(o.transport, "auto") == 0, "default transport auto");
    ok(o.scenario[1] && o.scenario[2], "default scenarios 1,2");
    ok(o.ops == (1u << LOP_OP_SEND | 1u << LOP_OP_RDMAW) && o.posts == 7,
       "default: every op but mcast (asked for), every post type");
    ok(o.max_post == 16 && o.reps == 1000 && o.warmup == 100, "default K, R, W");
    is_num(o.idle_us, 1000, 0, "default idle gap 1000 us (thesis listing 2.11)");
    ok(o.outdir == NULL && !o.raw && !o.quiet && !o.help, "default: data/<host>-<date>, no flags");
    ok(o.tcfg.device == NULL && o.tcfg.port == 1 && o.tcfg.gid_index == LOP_GID_AUTO &&
           !o.tcfg.gid_index_set && o.tcfg.rma == LOP_RMA_AUTO && o.tcfg.tclass == 0 &&
           o.tcfg.sl == 0,
       "default device, port 1, GID auto, traffic class 0, SL 0, rma auto");
    is_num(o.timeout_s, 60, 0, "default --timeout 60 s");
}

static void test_everything(void)
{
    char *argv[] = {"lopbench", "--transport", "verbs", "--scenario", "2", "--ops", "rdmaw",
                    "--post", "inline,list", "--max-post", "8", "--reps", "50", "--warmup", "0",
                    "--idle-us", "2.5", "-o", "out/dir", "--device", "mlx5_1", "--port", "2",
                    "--gid-index", "3", "--rma", "put", "--raw", "-q", NULL};
    lop_bench_opts_t o;
    ok(parse(&o, argv) == LOP_OK, "every option parses: %s", lop_errmsg());
    ok(strcmp(o.transport, "verbs") == 0, "--transport verbs");
    ok(!o.scenario[1] && o.scenario[2], "--scenario 2");
    ok(o.ops == 1u << LOP_OP_RDMAW, "--ops rdmaw");
    ok(o.posts == (1u << LOP_POST_INLINE | 1u << LOP_POST_LIST), "--post inline,list");
    ok(o.max_post == 8 && o.reps == 50 && o.warmup == 0, "--max-post, --reps, --warmup");
    is_num(o.idle_us, 2.5, 0, "--idle-us 2.5");
    ok(o.outdir && strcmp(o.outdir, "out/dir") == 0, "-o");
    ok(o.tcfg.device && strcmp(o.tcfg.device, "mlx5_1") == 0 && o.tcfg.port == 2 &&
           o.tcfg.gid_index == 3 && o.tcfg.gid_index_set,
       "--device, --port, --gid-index");
    ok(o.tcfg.rma == LOP_RMA_PUT && o.raw && o.quiet, "--rma put, --raw, -q");
    char *route[] = {"lopbench", "--gid-index", "auto", "--tclass", "106", "--sl", "3",
                     "--timeout", "0.5", NULL};
    ok(parse(&o, route) == LOP_OK && o.tcfg.gid_index == LOP_GID_AUTO && o.tcfg.tclass == 106 &&
           o.tcfg.sl == 3,
       "--gid-index auto, --tclass, --sl");
    is_num(o.timeout_s, 0.5, 0, "--timeout 0.5");

    char *help[] = {"lopbench", "--reps", "3", "--help", NULL};
    ok(parse(&o, help) == LOP_OK && o.help, "--help is a flag");
    char *twice[] = {"lopbench", "--ops", "send,send", NULL};
    ok(parse(&o, twice) == LOP_ERR_INVALID && strstr(lop_errmsg(), "'send' is named twice"),
       "an item named twice is refused, as in every list: %s", lop_errmsg());
    char *overlap[] = {"lopbench", "--scenario", "1,1..2", NULL};
    ok(parse(&o, overlap) == LOP_ERR_INVALID, "... also inside a range");
    char *all_hybrid[] = {"lopbench", "--barrier", "--alg", "all,hybrid", NULL};
    size_t sched = 0; /* the algorithms with a schedule, from the table */
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        sched += !((*a)->flags & BARRIER_COST_ONLY);
    ok(parse(&o, all_hybrid) == LOP_OK && sched > 0 && o.n_alg == sched + 1 &&
           strcmp(o.alg[sched]->name, "hybrid") == 0,
       "--alg all,hybrid: the %zu algorithms with a schedule, then hybrid", sched);
    char *all_diss[] = {"lopbench", "--barrier", "--alg", "all,diss", NULL};
    ok(parse(&o, all_diss) == LOP_ERR_INVALID && strstr(lop_errmsg(), "'diss' is named twice"),
       "--alg all,diss: refused, all names diss: %s", lop_errmsg());
    char *sample[] = {"lopbench", "--pairs-sample", NULL};
    ok(parse(&o, sample) == LOP_OK && o.mode == LOP_BENCH_PAIRS && o.pairs,
       "--pairs-sample alone: the pairs mode");
    char *file[] = {"lopbench", "--schedule", "s.csv", "--barrier", NULL};
    ok(parse(&o, file) == LOP_OK && o.mode == LOP_BENCH_SCHEDULE, "--barrier --schedule: its mode");
}

static void test_errors(void)
{
    bad("unknown option '--bogus' (see --help)", "--bogus");
    bad("option --max-post needs an argument (see --help)", "--max-post");
    bad("option --max-post: '0' is not in 1..1024", "--max-post", "0");
    bad("option --max-post: '1025' is not in 1..1024", "--max-post", "1025");
    bad("option --reps: 'ten' is not an integer", "--reps", "ten");
    bad("option --reps: '0' is not in 1..10000000", "--reps", "0");
    bad("option --warmup: '-1' is not in 0..10000000", "--warmup", "-1");
    bad("option --idle-us: '-5' is not in 0..1e+07", "--idle-us", "-5");
    bad("option --scenario: '4' is not in 1..3", "--scenario", "4");
    bad("option --ops: unknown value 'rdmar' (one of: send, rdmaw, mcast)", "--ops", "send,rdmar");
    bad("option --ops: empty list", "--ops", ",");
    bad("option --post: unknown value 'batch' (one of: normal, inline, list)", "--post", "batch");
    char transports[128], unknown[256];
    transport_choices(transports, sizeof transports);
    snprintf(unknown, sizeof unknown, "option --transport: unknown value 'tcp' (one of: %s)",
             transports);
    bad(unknown, "--transport", "tcp");
    bad("option --rma: unknown value 'get' (one of: auto, shared, put)", "--rma", "get");
    bad("option --port: '0' is not in 1..255", "--port", "0");
    bad("option --output: empty directory name", "-o", "");
    bad("option --device: only for the verbs transport", "--transport", "mpi", "--device", "x");
    bad("option --gid-index: only for the verbs transport", "--gid-index", "1", "--transport",
        "mpi");
    bad("option --sl: '16' is not in 0..15", "--sl", "16");
    bad("option --tclass: '256' is not in 0..255", "--tclass", "256");
    bad("option --timeout: '-1' is not in 0..1e+06", "--timeout", "-1");
    bad("option --gid-index: 'best' is not an integer", "--gid-index", "best");
    bad("option --sl: only for the verbs transport", "--transport", "mpi", "--sl", "1");
    bad("unexpected argument 'extra' (see --help)", "extra");
    bad("option --ops: mcast is measured by scenario 2 alone (not with --pairs)", "--ops", "mcast",
        "--pairs");
    bad("option --ops has no effect with --barrier", "--ops", "rdmaw,mcast", "--barrier");
    bad("option --ops: mcast is measured by scenario 2 alone (not with --scenario 1 alone)",
        "--ops", "mcast", "--scenario", "1");
}

/* --check-witness: one of the witnesses' table (bench/witness.h), auto by
 * default, and only with --check. */
static void test_check_witness(void)
{
    lop_bench_opts_t o;
    char *dflt[] = {"lopbench", "--barrier", "--check", NULL};
    ok(parse(&o, dflt) == LOP_OK && o.check_witness == LOP_WITNESS_AUTO, "--check-witness: auto");
    for (int k = 0; k < LOP_WITNESS_KIND_COUNT; k++) {
        char *argv[] = {"lopbench", "--barrier", "--check", "--check-witness",
                        (char *)lop_witness_names[k], NULL};
        ok(parse(&o, argv) == LOP_OK && o.check_witness == k, "--check-witness %s",
           lop_witness_names[k]);
    }
    bad("option --check-witness: unknown value 'rma' (one of: auto, one-sided, two-sided)",
        "--barrier", "--check", "--check-witness", "rma");
    bad("option --check-witness: only with --check", "--barrier", "--check-witness", "two-sided");
}

/* The device and route options, with every transport of the table: taken
 * where its ops table says it has a device, else refused naming the option;
 * auto takes them all. */
static void test_device_options(void)
{
    static char *const device_options[][2] = {
        {"--device", "x"}, {"--port", "2"}, {"--gid-index", "1"}, {"--tclass", "1"}, {"--sl", "1"}};
    for (size_t i = 0; i <= LOP_TRANSPORT_COUNT; i++) {
        const char *name = i < LOP_TRANSPORT_COUNT ? lop_transport_name(i) : "auto";
        const lop_transport_ops_t *t = lop_transport_find(name);
        for (size_t k = 0; k < COUNT(device_options); k++) {
            char *argv[] = {"lopbench", "--transport", (char *)name, device_options[k][0],
                            device_options[k][1], NULL};
            char refused[128];
            snprintf(refused, sizeof refused, "option %s: only for the verbs transport",
                     device_options[k][0]);
            lop_bench_opts_t o;
            lop_status_t st = parse(&o, argv);
            if (t && !t->takes_device)
                ok(st == LOP_ERR_INVALID && strcmp(lop_errmsg(), refused) == 0,
                   "--transport %s refuses %s: %s", name, device_options[k][0], lop_errmsg());
            else
                ok(st == LOP_OK, "--transport %s takes %s", name, device_options[k][0]);
        }
    }
}

/* --help says auto's order, which is the transport table's. */
static void test_help(void)
{
    char want[256], *text = NULL;
    size_t used = (size_t)snprintf(want, sizeof want, "(default: auto = ");
    for (size_t i = 0; lop_transport_name(i) && used < sizeof want; i++)
        used += (size_t)snprintf(want + used, sizeof want - used, "%s%s",
                                 i ? " if usable, else " : "", lop_transport_name(i));
    size_t size;
    FILE *f = open_memstream(&text, &size);
    lop_bench_opts_usage(f);
    fclose(f);
    ok(strstr(text, want) != NULL, "--help: %s)", want);
    free(text);
}

static void test_tables(void)
{
    size_t n = 0, found = 0;
    for (; lop_transport_name(n); n++) {
        const lop_transport_ops_t *t = lop_transport_find(lop_transport_name(n));
        found += t && strcmp(t->name, lop_transport_name(n)) == 0;
    }
    ok(n == LOP_TRANSPORT_COUNT && found == n,
       "transport table: LOP_TRANSPORT_COUNT = %zu transports, each found by its name", n);
    ok(lop_transport_find("verbs") == &lop_transport_verbs &&
           lop_transport_find("mpi") == &lop_transport_mpi && !lop_transport_find("auto"),
       "transport table: verbs, mpi; auto is a choice, not a transport");
    ok(strcmp(lop_op_desc[LOP_OP_SEND].name, "send") == 0 && lop_op_desc[LOP_OP_SEND].uses_recv &&
           strcmp(lop_op_desc[LOP_OP_RDMAW].name, "rdmaw") == 0 &&
           !lop_op_desc[LOP_OP_RDMAW].uses_recv,
       "ops: send posts receives, rdmaw polls memory");
    ok(strcmp(lop_op_desc[LOP_OP_MCAST].name, "mcast") == 0 && lop_op_desc[LOP_OP_MCAST].multicast &&
           !lop_op_desc[LOP_OP_MCAST].uses_recv && !lop_op_desc[LOP_OP_SEND].multicast &&
           !lop_op_desc[LOP_OP_RDMAW].multicast,
       "ops: mcast is the one multicast, answered by RDMA writes");
    ok(lop_post_desc[LOP_POST_NORMAL].in_rtt && lop_post_desc[LOP_POST_INLINE].in_rtt &&
           !lop_post_desc[LOP_POST_LIST].in_rtt,
       "post types: lists are measured in scenario 1 only (thesis 2.3.7)");
    int execs_ok = 1;
    for (const lop_barrier_exec_t *x = lop_barrier_execs; x->name; x++) {
        lop_op_t op;
        lop_post_t post;
        char series[64];
        lop_barrier_exec_how(x, &op, &post);
        lop_barrier_exec_series(x, post, series, sizeof series);
        execs_ok &= x->transport ? lop_transport_find(x->transport) && x->series &&
                                       strcmp(series, x->series) == 0
                                 : !x->series && series[0] == '\0';
    }
    ok(execs_ok, "executors: each one's series is an op and a post of its transport's");
    const lop_transport_ops_t *m = &lop_transport_mpi;
    ok(m->why_not(NULL, LOP_OP_SEND, LOP_POST_NORMAL) == NULL &&
           m->why_not(NULL, LOP_OP_SEND, LOP_POST_LIST) == NULL &&
           m->why_not(NULL, LOP_OP_RDMAW, LOP_POST_NORMAL) == NULL,
       "mpi measures send normal/list and rdmaw normal");
    ok(m->why_not(NULL, LOP_OP_SEND, LOP_POST_INLINE) != NULL &&
           m->why_not(NULL, LOP_OP_RDMAW, LOP_POST_LIST) != NULL,
       "mpi declines inline and RMA lists");
    const char *why = m->why_not(NULL, LOP_OP_MCAST, LOP_POST_NORMAL);
    ok(why && strstr(why, "no hardware multicast"), "mpi declines mcast: %s", why ? why : "");
}

static void test_recv_ring(void)
{
    lop_recv_ring_t ring;
    size_t a, b, c;
    ok(lop_recv_ring_init(&ring, "x", 3, 2) == LOP_OK, "ring: 3 peers x 2 slots");
    ok(lop_recv_ring_take(&ring, 1, &a) == LOP_ERR_RANGE &&
           strcmp(lop_errmsg(), "x: no receive posted for rank 1") == 0,
       "ring: nothing to take before a post");
    ok(lop_recv_ring_post(&ring, 2, &a) == LOP_OK && lop_recv_ring_post(&ring, 2, &b) == LOP_OK &&
           a == 4 && b == 5,
       "ring: peer 2 posts into slots 4, 5");
    ok(lop_recv_ring_post(&ring, 2, &c) == LOP_ERR_RANGE &&
           strcmp(lop_errmsg(), "x: more than 2 receives outstanding from rank 2") == 0,
       "ring: a third outstanding receive is refused");
    ok(lop_recv_ring_take(&ring, 2, &c) == LOP_OK && c == 4, "ring: oldest first");
    ok(lop_recv_ring_post(&ring, 2, &c) == LOP_OK && c == 4, "ring: the freed slot is reused");
    ok(lop_recv_ring_take(&ring, 2, &c) == LOP_OK && c == 5, "ring: in order");
    ok(lop_recv_ring_check(&ring, 2, 7, 7) == LOP_OK &&
           lop_recv_ring_check(&ring, 2, 6, 7) == LOP_ERR_IO &&
           strcmp(lop_errmsg(), "x: message from rank 2 carries 6, expected 7") == 0,
       "ring: a stale value is an error");
    lop_recv_ring_free(&ring);
}

/* --congest and its options (bench/congest.h): defaults, values, and the
 * default split of lop_congest_default_k. */
static void test_congest(void)
{
    char *none[] = {"lopbench", "--barrier", NULL};
    lop_bench_opts_t o;
    ok(parse(&o, none) == LOP_OK && !o.congest_on && o.congest_ranks == 0 &&
           o.congest_size == 4096 && o.congest_window == 8 && o.congest_max == 100000000,
       "default: no traffic; 4096 bytes (GPCNeT), window 8, at most 10^8 messages");
    char *all[] = {"lopbench", "--barrier", "--congest", "complement", "--congest-ranks", "4",
                   "--congest-size", "64", "--congest-window", "2", "--congest-max", "9", NULL};
    ok(parse(&o, all) == LOP_OK && o.congest_on &&
           strcmp(lop_congest_patterns[o.congest].name, "complement") == 0 &&
           o.congest_ranks == 4 && o.congest_size == 64 && o.congest_window == 2 &&
           o.congest_max == 9,
       "--congest complement with every option");
    char *seed[] = {"lopbench", "--congest", "uniform", "--seed", "5", NULL};
    ok(parse(&o, seed) == LOP_OK && o.seed == 5 && o.mode == LOP_BENCH_SCENARIOS,
       "the scenarios take --congest, and --seed for uniform's destinations");
    bad("option --congest: not with --check (--check verifies barriers, --congest times them "
        "under traffic)", "--barrier", "--check", "--congest", "incast");
    bad("option --seed: only with --check or --congest uniform", "--barrier", "--congest",
        "incast", "--seed", "2");
    bad("option --congest-window: '0' is not in 1..256", "--barrier", "--congest", "incast",
        "--congest-window", "0");
    int k[] = {lop_congest_default_k(3), lop_congest_default_k(5), lop_congest_default_k(10),
               lop_congest_default_k(100)};
    ok(k[0] == 1 && k[1] == 3 && k[2] == 8 && k[3] == 80,
       "default K: 80 %% of the ranks, leaving 2 timed (3: %d, 5: %d, 10: %d, 100: %d)", k[0],
       k[1], k[2], k[3]);
}

/* The peers rank 'rank' of 5 links, as a bit mask. */
static unsigned links(int rank, int all_pairs, int link_ring)
{
    lop_transport_t t = {.rank = rank, .size = 5, .all_pairs = all_pairs, .link_ring = link_ring};
    unsigned mask = 0;
    for (int peer = 0; peer < 5; peer++)
        mask |= lop_transport_linked(&t, peer) ? 1u << peer : 0;
    return mask;
}

/* The star, scenario 3's ring on all ranks beside it, and all pairs; the
 * same answer on both ends of every pair. */
static void test_linked(void)
{
    ok(links(0, 0, 0) == 0x1e && links(1, 0, 0) == 0x1 && links(3, 0, 0) == 0x1,
       "the star: rank 0 links 1..4, the others rank 0");
    ok(links(1, 0, 1) == 0x5 && links(2, 0, 1) == 0xb && links(3, 0, 1) == 0x15 &&
           links(4, 0, 1) == 0x9 && links(0, 0, 1) == 0x1e,
       "with the ring: each rank links the next and the previous too (2: 1, 3; 4: 3, 0)");
    ok(links(3, 1, 0) == 0x17, "all pairs: rank 3 links every other rank");
    int symmetric = 1;
    for (int mode = 0; mode < 3; mode++)
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++)
                symmetric &= !!(links(a, mode == 2, mode == 1) & 1u << b) ==
                             !!(links(b, mode == 2, mode == 1) & 1u << a);
    ok(symmetric, "a pair is linked on both ends or on neither, in every mode");
}

int main(void)
{
    test_defaults();
    test_congest();
    test_everything();
    test_errors();
    test_device_options();
    test_check_witness();
    test_help();
    test_tables();
    test_recv_ring();
    test_linked();
    return tap_done();
}
