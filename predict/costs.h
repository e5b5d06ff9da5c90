/*
 * costs.h - lopredict's per-pair costs (--costs, --topology): what they imply
 * for the options, the P list they describe, the hybrid's levels
 * (--placement), and --write-costs' file, written all or nothing.
 */
#ifndef LOPREDICT_COSTS_H
#define LOPREDICT_COSTS_H

#include "lopredict.h"

/* Per-pair costs are LogP parameters: LogP is implied (o->models), and an
 * option that would bring a second machine into a row is refused. */
lop_status_t costs_model_imply(lopredict_opts_t *o);

/* The costs read or built, the run's P list, and the checks against them. */
lop_status_t costs_pairs_setup(const lopredict_opts_t *o, lopredict_run_t *r);

/* The hybrid's levels, after the limits (work_p_list_check). */
lop_status_t costs_place_setup(const lopredict_opts_t *o, lopredict_run_t *r);

/* --write-costs' temporary file, after every check of the run. */
lop_status_t costs_file_begin(const lopredict_opts_t *o, lopredict_run_t *r);
/* Rename it into place when 'status' is LOP_OK, else remove it; returns
 * the outcome (LOP_OK without --write-costs). */
lop_status_t costs_file_end(lopredict_run_t *r, lop_status_t status);

#endif
