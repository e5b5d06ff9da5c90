/*
 * lopredict.h - what lopredict's files share: the options (what the command
 * line asked for, read-only once parsed), the run state (what a run builds:
 * the parameter set, per-pair costs, the predictor, the hybrid's levels) and
 * the modes, one file each (mode_*.c), chosen from the table in main.c.
 */
#ifndef LOPREDICT_H
#define LOPREDICT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "barrier.h"
#include "cli.h"
#include "csv.h"
#include "hybrid.h"
#include "model.h"
#include "pairs.h"
#include "place.h"
#include "predict.h"
#include "sched_sim.h"
#include "uncert.h"

#define LOPREDICT_PROG "lopredict"

enum { MODEL_LOGP = 1, MODEL_LOP = 2 };

/* The LogP parameters, in the order of lopredict_opts_t.logp_opt and of "# machine:". */
enum { LOGP_L, LOGP_OS, LOGP_OR, LOGP_G, LOGP_PARAMS };

#define MAX_ALGS 32

/* The modes, in the order of main.c's table: one a run (two are refused). */
typedef enum {
    MODE_PREDICT,        /* the default: no option */
    MODE_CHECK_SCHEDULE, /* --check-schedule FILE */
    MODE_MEASURED,       /* --measured FILE */
    MODE_HYBRID_REPORT,  /* --hybrid-report */
    MODE_SCHEDULE,       /* --schedule */
    MODE_VERIFY,         /* --verify */
    MODE_BEST,           /* --best */
    MODE_GOAL,           /* --goal */
    MODE_GOAL_FILE,      /* --goal --check-schedule FILE */
    MODE_LIST_ALGS,      /* --list-algs */
    MODE_COUNT
} lopredict_mode_t;

typedef struct {
    int mode_given[MODE_COUNT];         /* the flags of the modes' options */
    lopredict_mode_t mode;              /* the one mode asked for (lop_cli_check) */
    const barrier_alg_t *alg[MAX_ALGS]; /* --alg names, in order */
    size_t n_alg;                       /* how many */
    int alg_all;                        /* --alg all or no --alg: every algorithm */
    lop_cli_longs_t n, p;               /* --n (none: each algorithm's default), --p (none:
                                           the run's default, lopredict_run_t.p) */
    int models;                         /* MODEL_LOGP | MODEL_LOP */
    int model_given;                    /* --model was given (else per-pair costs imply LogP) */
    const char *params;                 /* --params (NULL: the shipped set) */
    const char *series, *stat;          /* the LoP fits to use */
    const char *check_file;             /* --check-schedule */
    const char *measured;               /* --measured FILE */
    int series_named;                   /* --series given (else --measured picks per executor) */
    int stat_named;                     /* --stat given (refused with per-pair costs) */
    double L, os, or, g;                /* LogP options in us; NAN: from the set */
    const char *logp_opt[LOGP_PARAMS];  /* the option that gave L, os, or, g, without its
                                           "--" (NULL: none) */
    sched_lop_arg_t lop_arg;            /* --lop-arg */
    int csv, simulate, loop, timing;    /* flags */
    barrier_cost_t cost;                /* --cnt, --links and the hardware barriers' options */
    pairs_opts_t pairs_opts;            /* --costs, --topology, --level-L/-o, --map */
    const char *write_costs;            /* --write-costs FILE */
    sched_recv_order_t recv_order;      /* --recv-order */
    lop_uncert_opts_t uncert;           /* --seed; draws of the closed forms' intervals */
    size_t sim_draws;                   /* --draws: of the simulations' intervals */
    const char *placement;              /* --placement FILE */
    const barrier_alg_t *hybrid_algs[MAX_ALGS + 1]; /* --hybrid-algs, NULL-terminated */
    int hybrid_algs_given;              /* else every algorithm */
    int help, list_options;             /* --help, --list-options */
} lopredict_opts_t;

typedef struct {
    const char *params;                 /* the set's path: --params or the shipped one */
    char params_buf[PATH_MAX + 64];     /* the shipped one, resolved */
    const char *series;                 /* the series of the rows (--measured: the row's) */
    char series_buf[LOP_NAME_SIZE];     /* --measured: the row's series, owned (the CSV's
                                           cells are freed before the end-of-run warning) */
    const long *p;                      /* the P list: --p, else p_default */
    size_t n_p;
    long *p_default;                    /* the costs' ranks, else 2..64 */
    barrier_cost_t cost;                /* what the formulas use */
    lop_paramset_t set;                 /* the set read */
    lop_view_t lop;                      /* its fits for series and stat */
    int have_set;                       /* was a set read? */
    pairs_t pairs;                      /* per-pair costs of --costs or --topology */
    int have_pairs;                     /* were per-pair costs asked for? */
    uint32_t uniform_p;                 /* ranks 0..uniform_p-1 of them all cost alike
                                           (pairs_uniform_p): LogP's closed forms hold */
    lop_csv_writer_t costs_w;           /* --write-costs' temporary file, renamed last */
    int costs_open;                     /* costs_w holds it */
    predict_t pred;                     /* times and intervals over cost (predict.h) */
    int have_pred;                      /* pred is set up */
    char pred_series[LOP_NAME_SIZE];    /* the series pred draws the fits of */
    lop_place_t place;                  /* the levels of --alg hybrid */
    int have_place;                     /* were they set up? */
    char hybrid_config[256];            /* the last hybrid built: its choices */
    double hybrid_us;                   /* ... its LogP time, as the search simulated it */
    const void *hybrid_ops;             /* ... its schedule's ops (NULL: none built): what
                                           that time is the time of (work_predict_time) */
} lopredict_run_t;

/* A mode: runs on the checked options and the set-up run state, writing to
 * stdout; *failed when a schedule is no barrier (or --best found none). */
typedef lop_status_t lopredict_mode_fn(const lopredict_opts_t *o, lopredict_run_t *r,
                                       int *failed);

lopredict_mode_fn mode_predict_run, mode_check_schedule_run, mode_measured_run,
    mode_hybrid_report_run, mode_schedule_run, mode_verify_run, mode_best_run, mode_goal_run,
    mode_list_algs_run;

/* --schedule and --goal print one schedule: refused unless one --alg, n and P. */
lop_status_t mode_schedule_opts_check(const lopredict_opts_t *o, const lopredict_run_t *r);

/* A schedule file, CSV or GOAL (--check-schedule, --goal, --measured's "file:" rows). */
lop_status_t mode_schedule_file_read(const char *path, sched_t *s);

#endif
