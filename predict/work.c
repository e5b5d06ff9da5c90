/* work.c - selections, limits, schedules and predicted times of lopredict (work.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out.h"
#include "params.h"
#include "rows.h"
#include "sched_check.h"
#include "timer.h"
#include "work.h"

/* --alg all (the default) selects every algorithm. */
size_t work_algs_select(const lopredict_opts_t *o, int schedules, const barrier_alg_t **out)
{
    size_t n = 0;
    if (!o->alg_all) {
        for (size_t i = 0; i < o->n_alg; i++)
            if (!schedules || !(o->alg[i]->flags & BARRIER_COST_ONLY))
                out[n++] = o->alg[i];
        return n;
    }
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        if (!schedules || !((*a)->flags & BARRIER_COST_ONLY))
            out[n++] = *a;
    for (size_t i = 0; i < o->n_alg; i++) /* --alg all,hybrid */
        if (o->alg[i]->flags & BARRIER_HYBRID)
            out[n++] = o->alg[i];
    return n;
}

size_t work_n_count(const lopredict_opts_t *o, const barrier_alg_t *a)
{
    return a->takes_n && o->n.count ? o->n.count : 1;
}

uint32_t work_n_value(const lopredict_opts_t *o, const barrier_alg_t *a, size_t k)
{
    return a->takes_n && o->n.count ? (uint32_t)o->n.values[k] : a->default_n;
}

size_t work_best_n_count(const lopredict_opts_t *o, const barrier_alg_t *a)
{
    return !a->takes_n ? 1 : o->n.count ? o->n.count : 8;
}

uint32_t work_best_n_value(const lopredict_opts_t *o, const barrier_alg_t *a, size_t k)
{
    return !a->takes_n ? a->default_n : o->n.count ? (uint32_t)o->n.values[k] : (uint32_t)k + 1;
}

int work_hybrid_wanted(const lopredict_opts_t *o)
{
    for (size_t i = 0; i < o->n_alg; i++)
        if (o->alg[i]->flags & BARRIER_HYBRID)
            return 1;
    return o->mode == MODE_HYBRID_REPORT;
}

/* ------------------------------------------------------------- limits */

static lop_status_t p_too_large(long p)
{
    return lop_err(LOP_ERR_RANGE, "option --p: P = %ld is too large for a schedule (at most %u)",
                   p, SCHED_MAX_P);
}

/* A limit's message as the option's error: "option --p: ...". */
static lop_status_t option_error(lop_status_t st, const char *opt)
{
    return lop_err(st, "option --%s: %s", opt, lop_errmsg());
}

/* Every schedule the rows build at P fits (stored for --schedule and --goal,
 * generated where it can be for a simulation), and with --verify its check:
 * the limits count ops by each algorithm's rule, nothing is built.  'best'
 * takes --best's n list. */
static lop_status_t limits_algs(const lopredict_opts_t *o, const barrier_alg_t *const *algs,
                                size_t n_algs, int best, uint32_t p)
{
    int verify = o->mode == MODE_VERIFY;
    int stored = o->mode == MODE_SCHEDULE || o->mode == MODE_GOAL;
    for (size_t a = 0; a < n_algs; a++) {
        if (!algs[a]->build_rank)
            continue; /* cost-only: its cells say so; hybrid: limits_hybrid */
        size_t count = best ? work_best_n_count(o, algs[a]) : work_n_count(o, algs[a]);
        for (size_t k = 0; k < count; k++) {
            uint32_t n = best ? work_best_n_value(o, algs[a], k) : work_n_value(o, algs[a], k);
            lop_status_t st = verify   ? sched_check_limit(algs[a], p, n)
                              : stored ? sched_limit(algs[a], p, n, NULL)
                                       : sched_generate_limit(algs[a], p, n, NULL);
            if (st)
                return option_error(st, verify ? "verify" : "p");
        }
    }
    return LOP_OK;
}

/* Before any work: a late error would leave a cut table.  Op counts and the
 * checker's work are non-decreasing in P, so the largest P of the list decides. */
lop_status_t work_p_list_check(const lopredict_opts_t *o, const lopredict_run_t *r)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = work_algs_select(o, 1, algs);
    int verify = o->mode == MODE_VERIFY, best = o->mode == MODE_BEST;
    int builds = o->simulate || verify || o->mode == MODE_SCHEDULE || o->mode == MODE_GOAL ||
                 (best && r->have_pairs);
    long p = 0;
    for (size_t i = 0; i < r->n_p; i++)
        p = r->p[i] > p ? r->p[i] : p;
    if (verify && n_algs == 0)
        return lop_err(LOP_ERR_INVALID, "option --verify: %s %s no schedule to check (a cost "
                       "model only)", o->alg[0]->name,
                       o->n_alg > 1 ? "and the others have" : "has");
    if (verify && r->have_pairs && p > (long)r->uniform_p)
        return lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but ranks 0..%ld of --%s do "
                       "not all cost the same (ranks 0..P-1 do for P <= %u): --verify "
                       "compares LogP's closed forms, which assume one L and one o", p, p - 1,
                       o->pairs_opts.costs ? "costs" : "topology", r->uniform_p);
    if (o->measured || o->check_file || !(builds || work_hybrid_wanted(o)))
        return LOP_OK; /* their schedules: the measured mode's precheck, the file's reader */
    if (p > SCHED_MAX_P)
        return p_too_large(p);
    if (best)
        n_algs = work_algs_select(o, o->alg_all, algs);
    return builds ? limits_algs(o, algs, n_algs, best, (uint32_t)p) : LOP_OK;
}

/* ---------------------------------------------------------- schedules */

/* With --timing what the search found and gained over greedy on stderr. */
lop_status_t work_hybrid_search(const lopredict_opts_t *o, lopredict_run_t *r, long p,
                                hybrid_result_t *res)
{
    sched_sim_t par = params_sim_get(o, r, MODEL_LOGP);
    char a[LOP_OUT_NUM_LEN], b[LOP_OUT_NUM_LEN], c[LOP_OUT_NUM_LEN], d[LOP_OUT_NUM_LEN];
    lop_status_t st = hybrid_build(&r->place, (uint32_t)p, &par,
                                   o->hybrid_algs_given ? o->hybrid_algs : NULL, res);
    if (st)
        return st;
    snprintf(r->hybrid_config, sizeof r->hybrid_config, "%s", res->config);
    r->hybrid_us = res->us; /* its schedule simulated with these LogP parameters */
    r->hybrid_ops = res->sched.op;
    if (o->timing)
        fprintf(stderr, "%s: hybrid P=%ld: %s us from %s [%s]; greedy %s us [%s], gain over "
                "greedy %s us; best flat %s %s us (%u too large to simulate, %u bounded out, %u "
                "stopped once slower); %s "
                "search: %llu hybrids simulated, %llu combinations bounded out; a barrier by %s; "
                "%.3f s\n",
                LOPREDICT_PROG, p, lop_out_format_csv(a, res->us), res->how, res->config,
                lop_out_format_csv(b, res->greedy_us), res->greedy,
                lop_out_format_csv(c, res->greedy_us - res->us),
                res->flat.alg ? res->flat.alg->name : "-", lop_out_format_csv(d, res->flat_us),
                res->flat_skipped, res->flat_bounded, res->flat_stopped, res->exhaustive ? "exhaustive" : "local",
                (unsigned long long)res->evaluated, (unsigned long long)res->pruned, res->proof,
                res->search_s);
    return LOP_OK;
}

/* Generated from rank 0's ops where the rule allows (sched_generate), else stored. */
lop_status_t work_sched_build(const lopredict_opts_t *o, lopredict_run_t *r,
                              const barrier_alg_t *a, uint32_t n, long p, int sim, sched_t *s)
{
    if (p > SCHED_MAX_P)
        return p_too_large(p);
    if (a->flags & BARRIER_HYBRID) {
        hybrid_result_t res;
        lop_status_t st = work_hybrid_search(o, r, p, &res);
        if (st == LOP_OK && !sim) { /* written: every rank's ops */
            st = sched_store(&res.sched);
            r->hybrid_ops = res.sched.op;
        }
        if (st == LOP_OK)
            *s = res.sched; /* the result owns nothing else */
        else
            hybrid_result_free(&res);
        return st;
    }
    double t0 = lop_timer_clock_s();
    lop_status_t st = sim ? sched_generate(a, (uint32_t)p, n, s)
                          : sched_build(a, (uint32_t)p, n, s);
    if (st == LOP_OK && o->timing)
        fprintf(stderr, "%s: build %s n=%u P=%ld: %u ops%s in %.3f s\n", LOPREDICT_PROG, a->name,
                n, p, s->n_ops, s->form ? " (generated from rank 0's)" : "",
                lop_timer_clock_s() - t0);
    return st;
}

/* --timing: what one simulation of s under 'model' took. */
static void sim_timing(const lopredict_opts_t *o, const sched_t *s, int model,
                       const sched_sim_result_t *res)
{
    if (o->timing)
        fprintf(stderr,
                "%s: simulate %s P=%u %s: matching %.3f s, %llu events in %.3f s = %.3g "
                "events/s\n",
                LOPREDICT_PROG, s->alg[0] ? s->alg : "schedule", s->p, rows_model_name(model),
                res->match_s, (unsigned long long)res->events, res->run_s,
                res->events / fmax(res->run_s, 1e-9));
}

lop_status_t work_sched_simulate(const lopredict_opts_t *o, lopredict_run_t *r, const sched_t *s,
                                 int model, double *us)
{
    sched_sim_t par = params_sim_get(o, r, model);
    sched_sim_result_t res;
    lop_status_t st = sched_sim_run(s, &par, 0, &res);
    if (st)
        return st;
    *us = res.max_us;
    sim_timing(o, s, model, &res);
    return LOP_OK;
}

lop_status_t work_sched_check(const lopredict_opts_t *o, const sched_t *s)
{
    double t0 = lop_timer_clock_s();
    lop_status_t st = sched_check(s);
    if (o->timing)
        fprintf(stderr, "%s: check %s P=%u: %.3f s\n", LOPREDICT_PROG, s->alg, s->p,
                lop_timer_clock_s() - t0);
    return st;
}

int work_kind_model(predict_kind_t kind)
{
    return kind == PREDICT_LOGP || kind == PREDICT_SIM_LOGP || kind == PREDICT_LOOP ||
                   kind == PREDICT_BUCKET
               ? MODEL_LOGP
               : MODEL_LOP;
}

/* Is s the hybrid schedule the last search built, whose LogP time it has?
 * (The alg too: a freed hybrid's op address may be another schedule's now.) */
static int hybrid_known(const lopredict_run_t *r, predict_kind_t kind, const barrier_alg_t *a,
                        const sched_t *s)
{
    return kind == PREDICT_SIM_LOGP && a && (a->flags & BARRIER_HYBRID) && s && s->op &&
           s->op == r->hybrid_ops;
}

lop_status_t work_time_predict(const lopredict_opts_t *o, lopredict_run_t *r,
                               predict_kind_t kind, const barrier_alg_t *a, uint32_t n, long p,
                               const sched_t *s, predict_time_t *v, const predict_time_t **out)
{
    int sim = predict_kind_sim(kind);
    *out = NULL;
    if (!(o->models & work_kind_model(kind)) || (sim && !s))
        return LOP_OK;
    lop_status_t st = work_predict_time(r, kind, a, n, p, s, v);
    if (st == LOP_OK && sim && !hybrid_known(r, kind, a, s))
        sim_timing(o, s, work_kind_model(kind), &v->sim);
    *out = st ? NULL : v;
    return st;
}

lop_status_t work_predict_time(lopredict_run_t *r, predict_kind_t kind, const barrier_alg_t *a,
                               uint32_t n, long p, const sched_t *s, predict_time_t *v)
{
    if (hybrid_known(r, kind, a, s))
        return predict_time_known(&r->pred, kind, (uint32_t)p, s, r->hybrid_us, v);
    return predict_time(&r->pred, kind, a, n, (uint32_t)p, s, v);
}
