/*
 * fmt_run.h - the run's metadata lines that every lopbench file carries
 * (transport, device, ranks, repetitions, timer, date, hosts ...; README
 * "Data formats").  The formats' own modules (fmt_barrier.h, fmt_pairs.h,
 * fmt_series.h) write them at their place in the file.
 */
#ifndef LOP_FMT_RUN_H
#define LOP_FMT_RUN_H

#include "csv.h"
#include "stats.h"

/* Metadata every file of a run carries. */
typedef struct {
    const char *transport;        /* "verbs" or "mpi" */
    const char *transport_choice; /* how it was chosen ("auto; verbs not usable: ...") */
    const char *device;           /* what was measured */
    int ranks;                    /* MPI ranks in the run */
    long reps, warmup, max_post;  /* --reps, --warmup, --max-post */
    double idle_us;               /* --idle-us */
    int oversubscribed;           /* more local ranks than CPUs */
    char timer[192];              /* lop_timer_describe() of rank 0 */
    double timer_calibration_s;   /* how long calibrating it took */
    char date[40];                /* ISO 8601, local time */
    char host[128];               /* rank 0's host name */
    char *hosts;                  /* rank 0: every node of the run (lop_mpi_hosts) */
    const char *congest;          /* --congest: '# congest:', '# congest_cores:', */
    const char *congest_cores;    /* '# congest_traffic:' (bench/congest.h); NULL: */
    const char *congest_traffic;  /* not written (barrier.csv writes its own) */
    char slurm[1024];             /* the Slurm job it ran in (lop_run_meta_slurm), or "" */
    int have_reference;           /* the reference ping-pong was run */
    lop_stats_t reference;        /* its RTT statistics */
} lop_run_meta_t;

/* m->slurm from the environment Slurm gives a job's tasks: "job <id>, nodes
 * <nodelist>, partition <p>" when SLURM_JOB_ID is set, else "". */
void lop_run_meta_slurm(lop_run_meta_t *m);
/* '# host:' (rank 0's), '# hosts:' (every node of the run) and, in a Slurm
 * job, '# slurm:', which every lopbench file carries. */
void lop_run_meta_hosts_write(lop_csv_writer_t *w, const lop_run_meta_t *m);
/* The run's lines of every lopbench file (transport ... unit), in file order. */
void lop_run_meta_write(lop_csv_writer_t *w, const lop_run_meta_t *m);

#endif
