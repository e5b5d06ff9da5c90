/* pairs_series.c - lopbench --pairs: lop's own series over the transport
 * (pairs_method.h, pairs_mode.h). */
#include "pairs_method.h"

#include "model.h"
#include "samples.h"

enum { N_STAT = LOP_PAIRS_STAT_COUNT };

/* Scenarios 1 (k = 1) and 2 (p = 1) on a two-rank view of the pair. */
static lop_status_t series_measure(lop_pairs_ctx_t *x, MPI_Comm pair, int sender, int peer,
                                   const lop_pairs_series_t *f, lop_pairs_cost_t *c)
{
    lop_bench_t *b = x->b;
    int me_sends = b->rank == sender, other = me_sends ? peer : sender;
    lop_bench_t v = *b;
    v.comm = v.pair = pair;
    v.rank = me_sends ? 0 : 1;
    v.size = 2;
    v.max_post = 1;
    v.to_other = v.star = &other;
    v.progress = NULL;
    lop_samples_t os = {0}, oc = {0}, rtt = {0};
    size_t reps = (size_t)x->opts->reps;
    lop_status_t st = LOP_OK;
    if (me_sends) {
        st = lop_samples_init(&os, f->series, "os", 1, reps);
        st = st ? st : lop_samples_init(&oc, f->series, "oc", 1, reps);
        st = st ? st : lop_samples_init(&rtt, f->series, "rtt", 1, reps);
    }
    st = st ? st : lop_scenario1_run(&v, f->op, f->post, me_sends ? &os : NULL,
                                     me_sends ? &oc : NULL, NULL);
    st = st ? st : lop_scenario2_run(&v, f->op, f->post, me_sends ? &rtt : NULL, NULL);
    b->seq = v.seq;
    lop_stats_t so, sr;
    if (st == LOP_OK && me_sends) {
        st = lop_samples_stats(&os, 1, &so);
        st = st ? st : lop_samples_stats(&rtt, 1, &sr);
    }
    if (st == LOP_OK && me_sends) {
        const double o[N_STAT] = {so.min, so.mean, so.median},
                     r[N_STAT] = {sr.min, sr.mean, sr.median};
        for (int k = 0; k < N_STAT; k++) {
            c->o[k] = o[k];
            c->rtt[k] = r[k];
            c->L[k] = lop_latency(r[k], o[k], o[k]);
        }
    }
    lop_samples_free(&os);
    lop_samples_free(&oc);
    lop_samples_free(&rtt);
    return st;
}

const lop_pairs_method_desc_t lop_pairs_series = {
    "lop's series over the transport on a two-rank view of the pair: o = o_s(1) (scenario "
    "1, k = 1), rtt = RTT(1) (scenario 2, p = 1), L = RTT(1)/2 - 2 o_s(1) (thesis 2.3.4), "
    "per statistic",
    NULL,
    series_measure,
    NULL,
};
