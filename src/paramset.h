/*
 * paramset.h - a parameter set: one fitted model (model.h) per row of a
 * params.csv (src/fmt_params.h: its format, writer and reader), and the
 * lookup every tool makes in it.
 */
#ifndef LOP_PARAMSET_H
#define LOP_PARAMSET_H

#include <stddef.h>

#include "lop.h"
#include "model.h"

typedef struct {
    char *path;     /* the file read */
    lop_fit_t *fit; /* rows in file order */
    size_t n;
} lop_paramset_t;

void lop_paramset_free(lop_paramset_t *set);
/* The fit for (series, quantity, stat), or NULL.  A set holds at most one
 * row of a model other than linear and one linear row (lopfit --compare's
 * LogP line) per (series, quantity, stat); the other model is preferred. */
const lop_fit_t *lop_paramset_find(const lop_paramset_t *set, const char *series,
                                   const char *quantity, const char *stat);

#endif
