/*
 * samples.h - lopbench's measurements: per series and quantity, R samples for
 * each p, written as one summary CSV (and optionally a raw one) with the
 * run's metadata.  The formats are documented in bench/README.md.
 *
 *   DIR/<op>-<post>-<quantity>.csv      p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us
 *   DIR/<op>-<post>-<quantity>-raw.csv  p,rep,us
 */
#ifndef LOP_SAMPLES_H
#define LOP_SAMPLES_H

#include <stddef.h>

#include "csv.h"
#include "lop.h"
#include "stats.h"

typedef struct {
    char series[32];      /* "<op>-<post>", e.g. "send-normal" */
    const char *quantity; /* "rtt", "os", "or" or "oc" */
    size_t n_p;           /* rows p = 1..n_p */
    size_t reps;          /* samples per p */
    double *us;           /* us[(p - 1) * reps + rep], microseconds */
} lop_samples_t;

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
    int have_reference;           /* the reference ping-pong was run */
    lop_stats_t reference;        /* its RTT statistics */
} lop_run_meta_t;

/* '# host:' (rank 0's) and '# hosts:' (every node of the run), which every
 * lopbench file carries. */
void lop_run_meta_hosts_write(lop_csv_writer_t *w, const lop_run_meta_t *m);
/* The run's lines of every lopbench file (transport ... unit), in file order. */
void lop_run_meta_write(lop_csv_writer_t *w, const lop_run_meta_t *m);

lop_status_t lop_samples_init(lop_samples_t *s, const char *series, const char *quantity,
                              size_t n_p, size_t reps);
void lop_samples_free(lop_samples_t *s);

/* Where sample 'rep' (0-based) of row p (1-based) goes. */
static inline double *lop_samples_at(lop_samples_t *s, size_t p, size_t rep)
{
    return &s->us[(p - 1) * s->reps + rep];
}

/* Statistics of row p (does not reorder the samples). */
lop_status_t lop_samples_stats(const lop_samples_t *s, size_t p, lop_stats_t *out);

/* "<series>-<quantity>.csv" (or "-raw.csv") in 'name': the one place file names are made. */
#define LOP_SAMPLES_NAME_LEN 64
void lop_samples_file_name(char *name, const char *series, const char *quantity, int raw);
/* Write DIR/<series>-<quantity>.csv (and -raw.csv when 'raw'), atomically. */
lop_status_t lop_samples_write(const lop_samples_t *s, const lop_run_meta_t *meta,
                               const char *dir, int raw);

/* Check that 'dir' can be made (later, by lop_outdir_begin) and files
 * created in it: the deepest part of it that exists is a directory we can
 * write in.  Makes nothing. */
lop_status_t lop_outdir_prepare(const char *dir);

#endif
