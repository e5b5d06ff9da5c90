/*
 * fitdata.h - the measurement CSVs lopfit reads (lopbench's format,
 * bench/README.md):
 *
 *   # quantity: rtt|os|or        which model fits it (rtt -> rtt, os/or -> ov)
 *   # series: <op>-<post>        e.g. send-normal (default: the file name)
 *   p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us
 *   1,1000,3.21,3.40,3.35,4.9,12.0,0.31
 *
 * Every file is checked completely before anything is fitted: errors are
 * "file:line: reason" (LOP_ERR_PARSE).  A file whose quantity has no model
 * (e.g. "oc") is not an error but LOP_ERR_UNSUPPORTED with a message saying
 * it was skipped, unless a model is forced; so is a file of raw samples
 * (lopbench --raw: a "rep" column).
 *
 * Models: "auto" (the default) selects among the quantity's family (rtt:
 * rtt, rtt-nosat, const; os, or: ov, const; fit/fitter.h) unless a --model
 * spec forces one: "MODEL" fits MODEL to every file, "QUANTITY=MODEL,..."
 * to files of those quantities (e.g. "rtt=linear"); MODEL may be "auto".
 */
#ifndef LOP_FITDATA_H
#define LOP_FITDATA_H

#include <stddef.h>

#include "model.h"

/* One column of one file: the points one fit is made to. */
typedef struct {
    const char *file;   /* the path as given: the caller's string, which must outlive the set */
    char series[LOP_NAME_SIZE]; /* "# series:", or the file name without "-<quantity>.csv" */
    char quantity[16];  /* "# quantity:", or "unknown" when --model names the model */
    char stat[16];      /* min, avg or median: column <stat>_us */
    const lop_model_t *model; /* the forced model, or the family's richest */
    const lop_family_t *family; /* auto: select among these; NULL when forced */
    size_t n;           /* points */
    double *p;          /* p of each row (peers or posted requests), >= 1, distinct */
    double *y;          /* the <stat>_us cell of each row, µs */
} lop_fitdata_t;

typedef struct {
    lop_fitdata_t *set; /* data sets in file order, then stat order */
    size_t n;
} lop_fitdata_list_t;

/* The statistics a data file offers, for option checking. */
extern const char *const lop_fitdata_stats[]; /* "min", "avg", "median", NULL */

/* Is 'spec' a valid --model spec?  "option --model: ..." errors. */
lop_status_t lop_fitdata_check_models(const char *spec);

/* Read 'path' and append one data set per statistic of 'stats' (a
 * comma-separated list of lop_fitdata_stats), with the models of the
 * --model spec 'models' (NULL: by quantity).  A file is added whole or not
 * at all. */
lop_status_t lop_fitdata_read(const char *path, const char *models, const char *stats,
                              lop_fitdata_list_t *list);
void lop_fitdata_free(lop_fitdata_list_t *list);

#endif
