/*
 * work.h - what lopredict's modes run: the algorithms and n selected, the
 * limits checked before the first line, schedules built, checked and
 * simulated, and one predicted time with its interval.
 */
#ifndef LOPREDICT_WORK_H
#define LOPREDICT_WORK_H

#include "lopredict.h"

/* The selected algorithms into 'out' (MAX_ALGS entries); 'schedules'
 * leaves the cost-only ones out.  Returns how many. */
size_t work_algs_select(const lopredict_opts_t *o, int schedules, const barrier_alg_t **out);

/* How many n to run 'a' with, and the k-th: --n, else its default. */
size_t work_n_count(const lopredict_opts_t *o, const barrier_alg_t *a);
uint32_t work_n_value(const lopredict_opts_t *o, const barrier_alg_t *a, size_t k);
/* The same for --best's candidates: --n, else 1..8. */
size_t work_best_n_count(const lopredict_opts_t *o, const barrier_alg_t *a);
uint32_t work_best_n_value(const lopredict_opts_t *o, const barrier_alg_t *a, size_t k);

/* Is the hybrid asked for (--alg ...,hybrid or --hybrid-report)? */
int work_hybrid_wanted(const lopredict_opts_t *o);

/* Refuse before the first line what a row would refuse (rows are streamed). */
lop_status_t work_p_list_check(const lopredict_opts_t *o, const lopredict_run_t *r);

/* The hybrid barrier at P, searched and checked (hybrid.h). */
lop_status_t work_hybrid_search(const lopredict_opts_t *o, lopredict_run_t *r, long p,
                                hybrid_result_t *res);

/* The schedule of a row; 'sim': for a simulation only (sched_generate). */
lop_status_t work_sched_build(const lopredict_opts_t *o, lopredict_run_t *r,
                              const barrier_alg_t *a, uint32_t n, long p, int sim, sched_t *s);

/* Simulated time of s under one model. */
lop_status_t work_sched_simulate(const lopredict_opts_t *o, lopredict_run_t *r, const sched_t *s,
                                 int model, double *us);

/* Is s a barrier (sched_check), timed with --timing. */
lop_status_t work_sched_check(const lopredict_opts_t *o, const sched_t *s);

/* The model of a kind of prediction. */
int work_kind_model(predict_kind_t kind);

/* One predicted time with its interval; NULL *out when not predicted: the
 * model is not selected or a simulation without a schedule (cost-only). */
lop_status_t work_time_predict(const lopredict_opts_t *o, lopredict_run_t *r,
                               predict_kind_t kind, const barrier_alg_t *a, uint32_t n, long p,
                               const sched_t *s, predict_time_t *v, const predict_time_t **out);
/* predict_time, except that the LogP simulation of the hybrid schedule the
 * last hybrid search built (r->hybrid_ops; every hybrid schedule comes from
 * a search just before) is the search's (r->hybrid_us): the same schedule
 * under the same parameters, not run again. */
lop_status_t work_predict_time(lopredict_run_t *r, predict_kind_t kind, const barrier_alg_t *a,
                               uint32_t n, long p, const sched_t *s, predict_time_t *v);

#endif
