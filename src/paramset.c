/* paramset.c - a parameter set: its lookup (paramset.h). */
#include "paramset.h"

#include <stdlib.h>
#include <string.h>

void lop_paramset_free(lop_paramset_t *set)
{
    free(set->path);
    free(set->fit);
    memset(set, 0, sizeof *set);
}

const lop_fit_t *lop_paramset_find(const lop_paramset_t *set, const char *series,
                                   const char *quantity, const char *stat)
{
    const lop_fit_t *line = NULL;
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        if (strcmp(f->series, series) || strcmp(f->quantity, quantity) || strcmp(f->stat, stat))
            continue;
        if (f->model != &lop_model_linear)
            return f;
        line = line ? line : f;
    }
    return line;
}
