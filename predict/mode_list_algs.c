/*
 * mode_list_algs.c - lopredict --list-algs [--csv]: one row per algorithm of
 * barrier_algs (barrier.h), each column what its descriptor says (printed by
 * the model library, barrier_algs_print: columns in README.md), so tests and
 * scripts derive their counts from it.
 */
#include <stdio.h>

#include "lopredict.h"

lop_status_t mode_list_algs_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    (void)r, (void)failed; /* nothing is set up or verified */
    return barrier_algs_print(stdout, o->csv);
}
