/*
 * fitdata.h - the data sets lopfit fits, read from series files
 * (src/fmt_series.h: lopbench's <series>-<quantity>.csv), one per file and
 * statistic; "# quantity:" says which model fits (rtt -> rtt, os/or -> ov).
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
 *
 * A file also gives the sets of the quantities derived from its own
 * (fmt_series.h: round = p·rtt), after its own, with the model
 * "round=MODEL" names or selected from their family (a plain "MODEL" only
 * where it is one of theirs); none where too few rows for any member.
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

/* Is 'spec' a valid --model spec?  "option --model: ..." errors. */
lop_status_t lop_fitdata_check_models(const char *spec);

/* Read 'path' and append one data set per statistic of 'stats' (a
 * comma-separated list of lop_fmt_series_stats), with the models of the
 * --model spec 'models' (NULL: by quantity); 'positive': every time must be
 * > 0 (a fit with relative weights 1/y^2), else refused by file:line.  A
 * file is added whole or not at all. */
lop_status_t lop_fitdata_read(const char *path, const char *models, const char *stats,
                              int positive, lop_fitdata_list_t *list);
void lop_fitdata_free(lop_fitdata_list_t *list);

#endif
