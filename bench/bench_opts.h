/*
 * bench_opts.h - lopbench's command line, parsed without MPI so that every
 * rank parses the same argv the same way (and tests need no mpirun).
 */
#ifndef LOP_BENCH_OPTS_H
#define LOP_BENCH_OPTS_H

#include <stdio.h>

#include "barrier.h"
#include "barrier_exec.h"
#include "lop.h"
#include "transport.h"

#define LOP_BENCH_MAX_LIST 64 /* most entries of --alg, --n and --p lists */

/* The modes, one a run, in the order of bench_opts.c's table (which says
 * which options each takes) and of main.c's (what each runs). */
typedef enum {
    LOP_BENCH_SCENARIOS, /* the default: scenarios 1, 2 (and 3) */
    LOP_BENCH_BARRIER,   /* --barrier */
    LOP_BENCH_SCHEDULE,  /* --barrier --schedule FILE */
    LOP_BENCH_PAIRS,     /* --pairs (or --pairs-sample) */
    LOP_BENCH_CALIBRATED, /* --barrier --with-scenarios: the scenarios, then the barriers */
    LOP_BENCH_MODE_COUNT
} lop_bench_mode_t;

typedef struct {
    int help;                  /* --help: print usage and stop */
    int list_options;          /* --list-options: print the option table and stop */
    int mode;                  /* lop_bench_mode_t: what the options chose */
    const char *transport;     /* "auto", "verbs" or "mpi" */
    int scenario[4];           /* scenario[1], [2], [3]: run it */
    unsigned ops;              /* bit (1 << lop_op_t) per operation to measure */
    unsigned posts;            /* bit (1 << lop_post_t) per post type */
    long max_post;             /* K: scenario 1 posts k = 1..K requests */
    long reps;                 /* measured repetitions */
    long warmup;               /* repetitions run first and discarded */
    double idle_us;            /* idle gap before every repetition */
    const char *outdir;        /* -o DIR; NULL = data/<host>-<date> */
    lop_transport_cfg_t tcfg;  /* device, port, GID index, RMA mode */
    int raw;                   /* also write every sample */
    int quiet;                 /* no progress or notes on stderr */
    double timeout_s;          /* --timeout: a wait for a peer gives up after this; 0 = never */
    /* --barrier mode (barrier_mode.h) */
    int barrier;               /* run barrier algorithms instead of the scenarios */
    int with_scenarios;        /* --with-scenarios: the scenarios first, in the same launch */
    const struct barrier_alg *alg[LOP_BENCH_MAX_LIST]; /* --alg, schedule-based ones */
    size_t n_alg;
    long n_value[LOP_BENCH_MAX_LIST]; /* --n values; none = each algorithm's default */
    size_t n_n;
    long p_value[LOP_BENCH_MAX_LIST]; /* --p sizes; none = every rank */
    size_t n_p;
    unsigned executors;        /* bit i: lop_barrier_execs[i] runs */
    int executors_named;       /* --executor given: a listed executor must work */
    const char *schedule_file; /* --schedule FILE instead of --alg */
    const char *pairs_file;    /* --pairs-file: per-pair costs of --alg hybrid (NULL: per level) */
    const char *placement;     /* --placement: the ranks' levels for --alg hybrid */
    int check;                 /* --check: verify instead of timing */
    double check_delay_us;     /* --check: largest random arrival delay */
    unsigned long seed;        /* --check: seed of the delays; --congest uniform: of the
                                  destinations */
    int check_witness;         /* --check-witness: lop_witness_kind_t */
    int congest;               /* --congest: index into lop_congest_patterns (congest.h) */
    int congest_on;            /* --congest given */
    long congest_ranks;        /* --congest-ranks K; 0: lop_congest_default_k */
    long congest_size;         /* bytes a message */
    long congest_window;       /* messages in flight per congestor */
    long congest_max;          /* messages per congestor per congested phase */
    /* --pairs mode (pairs_mode.h) */
    int pairs;                 /* measure o and L of every ordered pair of ranks */
    int pairs_sample;          /* --pairs-sample: one pair per placement class */
    unsigned methods;          /* bit (1 << lop_pairs_method_t): issend, series */
    int pairs_stat;            /* --pairs-stat: index into lop_pairs_stats */
    int reps_named, warmup_named; /* --reps, --warmup given (--pairs has its own defaults) */
} lop_bench_opts_t;

/* --pairs: the two ways of measuring a pair, and the statistic of o_us, L_us. */
typedef enum { LOP_PAIRS_ISSEND, LOP_PAIRS_SERIES, LOP_PAIRS_METHOD_COUNT } lop_pairs_method_t;
extern const char *const lop_pairs_methods[LOP_PAIRS_METHOD_COUNT + 1];
typedef enum { LOP_PAIRS_MIN, LOP_PAIRS_AVG, LOP_PAIRS_MEDIAN, LOP_PAIRS_STAT_COUNT } lop_pairs_stat_t;
extern const char *const lop_pairs_stats[LOP_PAIRS_STAT_COUNT + 1];
#define LOP_PAIRS_REPS 100  /* --pairs: --reps default */
#define LOP_PAIRS_WARMUP 10 /* --pairs: --warmup default */

/* Parse argv into opts (defaults first).  Errors name the option. */
lop_status_t lop_bench_opts_parse(int argc, char **argv, lop_bench_opts_t *opts);

/* The --help text, made from the option table (after lop_bench_opts_parse,
 * which fills its choices in from the transport and executor tables). */
void lop_bench_opts_usage(FILE *out);
/* --list-options: the modes and which options each takes, as CSV. */
void lop_bench_opts_list(FILE *out);

/* A note on stderr, "lopbench: ...", from rank 0 only and not with --quiet. */
void lop_bench_note(const lop_bench_opts_t *opts, int rank, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
