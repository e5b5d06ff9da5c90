/* The simulator against saved results: every algorithm, P = 2..64 and a few
 * large P, n = 1 and 3 where it applies, LogP with g = 0 and with g > o, LoP
 * with the stream and the batch argument; every schedule as sched_build
 * stores it and as sched_generate makes it for the simulator (rank 0's ops
 * moved by the rank, run slot by slot: diss, ndiss, and bfly, pe at 2^k).
 * tests/data/sim/golden/<alg>.txt holds an algorithm's max_us and the sum of
 * the per-rank times as C99 hex floats, written by the simulator of commit
 * dc73683 (per-op match and time arrays); any change of a single bit fails,
 * and so does an algorithm with a schedule but no file, or a file of no
 * algorithm.  LOP_SIM_GOLDEN_WRITE=DIR writes DIR/<alg>.txt instead. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "sched_sim.h"
#include "tap.h"

#define GOLDEN_DIR "tests/data/sim/golden"

static const uint32_t big_p[] = {100, 1000, 4096};

/* RTT(p) = 12/(1+p) + 9, o(p) = 0.4 + 0.6/p (as test_sim.c). */
static const char lop_rows[] = "x,t-inline,rtt,min,rtt,9,1,64,12,1,9,0,0,0\n"
                               "x,t-inline,os,min,ov,9,1,64,0.4,0.6,0,,,\n";

typedef struct {
    const char *label;
    sched_sim_model_t model;
    logp_t logp;
    sched_lop_arg_t arg;
    double cnt;
} config_t;

static const config_t configs[] = {
    {"logp-g0", SCHED_SIM_LOGP, {5, 1, 1, 0}, SCHED_LOP_STREAM, 1},
    {"logp-g", SCHED_SIM_LOGP, {2.5, 0.7, 1.3, 1.9}, SCHED_LOP_STREAM, 1},
    {"lop-stream", SCHED_SIM_LOP, {0, 0, 0, 0}, SCHED_LOP_STREAM, 3},
    {"lop-batch", SCHED_SIM_LOP, {0, 0, 0, 0}, SCHED_LOP_BATCH, 2},
};

static int generated;      /* cases run from a generated schedule */
static int diss_generated; /* ... diss at P = 4096 among them */

/* One line per algorithm, n, P and configuration into 'out'; 'generate':
 * the schedule sched_generate makes. */
static void one(FILE *out, const barrier_alg_t *a, uint32_t n, uint32_t p, const lop_view_t *lop,
                int generate)
{
    sched_t s;
    if ((generate ? sched_generate(a, p, n, &s) : sched_build(a, p, n, &s)) != LOP_OK)
        return;
    generated += s.form != SCHED_STORED;
    diss_generated |= s.form == SCHED_SHIFT && p == 4096 && strcmp(a->name, "diss") == 0;
    for (size_t c = 0; c < COUNT(configs); c++) {
        barrier_cost_t cost;
        barrier_cost_init(&cost);
        cost.logp = configs[c].logp;
        cost.lop = lop;
        cost.cnt = configs[c].cnt;
        sched_sim_t par = {configs[c].model, &cost, configs[c].arg, NULL, SCHED_RECV_PROGRAM, 0};
        sched_sim_result_t r;
        double sum = 0;
        if (sched_sim_run(&s, &par, 1, &r) != LOP_OK) {
            fprintf(out, "%s %u %u %s error\n", a->name, n, p, configs[c].label);
            continue;
        }
        for (uint32_t i = 0; i < p; i++)
            sum += r.rank_us[i];
        fprintf(out, "%s %u %u %s %a %a\n", a->name, n, p, configs[c].label, r.max_us, sum);
        free(r.rank_us);
    }
    sched_free(&s);
}

/* Every case of one algorithm into 'out'. */
static void alg_cases(FILE *out, const barrier_alg_t *a, const lop_view_t *lop, int generate)
{
    for (uint32_t n = 1; n <= (a->takes_n ? 3 : 1); n += 2) {
        uint32_t nn = a->takes_n ? n : a->default_n;
        for (uint32_t p = 2; p <= 64; p++)
            one(out, a, nn, p, lop, generate);
        for (size_t k = 0; k < COUNT(big_p); k++)
            one(out, a, nn, big_p[k], lop, generate);
    }
}

/* Compare line by line; report the first difference. */
static void compare(const char *now, const char *want, const char *path, const char *how)
{
    size_t line = 1, i = 0;
    while (now[i] && now[i] == want[i])
        line += now[i++] == '\n';
    int differ = now[i] || want[i];
    ok(!differ, "%s: simulated times are bit-identical to %s%s%zu", how, path,
       differ ? "; first difference on line " : " lines: ", line - 1 + !!differ);
    if (differ) {
        const char *a = now + i, *b = want + i;
        while (a > now && a[-1] != '\n')
            a--;
        while (b > want && b[-1] != '\n')
            b--;
        printf("# now:  %.*s\n# want: %.*s\n", (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = calloc((size_t)len + 1, 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static void golden_path(char *buf, size_t len, const char *dir, const barrier_alg_t *a)
{
    snprintf(buf, len, "%s/%s.txt", dir, a->name);
}

/* One algorithm's cases, stored and generated, against its golden file. */
static void alg_compare(const barrier_alg_t *a, const lop_view_t *lop)
{
    char path[256];
    golden_path(path, sizeof path, GOLDEN_DIR, a);
    char *want = slurp(path);
    if (!want) {
        ok(0, "%s: no golden file %s (LOP_SIM_GOLDEN_WRITE=DIR writes one)", a->name, path);
        return;
    }
    for (int generate = 0; generate <= 1; generate++) {
        char *now = NULL, how[64];
        size_t len = 0;
        FILE *out = open_memstream(&now, &len);
        alg_cases(out, a, lop, generate);
        fclose(out);
        snprintf(how, sizeof how, "%s %s", a->name,
                 generate ? "generated where the rule is symmetric" : "stored");
        compare(now, want, path, how);
        free(now);
    }
    free(want);
}

/* Is 'file' (a directory entry) the golden file of an algorithm with a schedule? */
static int golden_of_some_alg(const char *file)
{
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        char name[128];
        snprintf(name, sizeof name, "%s.txt", (*a)->name);
        if (!((*a)->flags & BARRIER_COST_ONLY) && strcmp(name, file) == 0)
            return 1;
    }
    return 0;
}

/* Every file in the golden directory belongs to an algorithm. */
static void no_stray_files(void)
{
    DIR *d = opendir(GOLDEN_DIR);
    int stray = 0;
    for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
        if (e->d_name[0] != '.' && !golden_of_some_alg(e->d_name)) {
            printf("# %s/%s: no algorithm with a schedule has this name\n", GOLDEN_DIR,
                   e->d_name);
            stray++;
        }
    ok(d && !stray, "%s holds a file for algorithms only (%d other)", GOLDEN_DIR, stray);
    if (d)
        closedir(d);
}

/* LOP_SIM_GOLDEN_WRITE=DIR: DIR/<alg>.txt for every algorithm with a schedule. */
static void golden_write(const char *dir, const lop_view_t *lop)
{
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        char path[4096];
        golden_path(path, sizeof path, dir, *a);
        FILE *out = (*a)->flags & BARRIER_COST_ONLY ? NULL : fopen(path, "w");
        if (out) {
            alg_cases(out, *a, lop, 0);
            ok(fclose(out) == 0, "wrote %s", path);
        } else if (!((*a)->flags & BARRIER_COST_ONLY)) {
            ok(0, "cannot write %s", path);
        }
    }
}

int main(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    fixture_lop_load(lop_rows, &set, &lop);
    const char *write_to = getenv("LOP_SIM_GOLDEN_WRITE");
    if (write_to) {
        golden_write(write_to, &lop);
    } else {
        for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
            if (!((*a)->flags & BARRIER_COST_ONLY))
                alg_compare(*a, &lop);
        no_stray_files();
        ok(diss_generated, "%d cases ran from generated schedules, diss at P = 4096 among them",
           generated);
    }
    lop_paramset_free(&set);
    return tap_done();
}
