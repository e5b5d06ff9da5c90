/*
 * params.h - lopredict's parameters: the parameter set and its LoP fits,
 * LogP's L, o_s, o_r, g (options, the set at p = 1, or per-pair costs), how
 * schedules are simulated, and the predictor over them (predict.h).
 */
#ifndef LOPREDICT_PARAMS_H
#define LOPREDICT_PARAMS_H

#include "lopredict.h"

/* Read the set when LoP or a LogP default needs it (or --params names one). */
lop_status_t params_set_load(const lopredict_opts_t *o, lopredict_run_t *r);

/* LogP parameters: the options, else the set at p = 1, else per-pair costs. */
void params_logp_setup(const lopredict_opts_t *o, lopredict_run_t *r);

/* How schedules are simulated under 'model' (MODEL_LOGP or MODEL_LOP). */
sched_sim_t params_sim_get(const lopredict_opts_t *o, lopredict_run_t *r, int model);

/* The predictor over r->cost (again whenever --measured changes the series). */
lop_status_t params_pred_setup(const lopredict_opts_t *o, lopredict_run_t *r);

/* --measured: LoP and LogP parameters of a row's 'series', and the predictor. */
lop_status_t params_series_use(const lopredict_opts_t *o, lopredict_run_t *r,
                               const char *series);

/* Say so on stderr when LoP was evaluated outside the fitted p range. */
void params_extrapolation_warn(const lopredict_opts_t *o, const lopredict_run_t *r);

#endif
