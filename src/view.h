/*
 * view.h - the LoP view of a parameter set: the fits of one series and
 * statistic together (RTT, o_s, o_s of a list, o_r), and what the thesis
 * derives from them: o(p), L(p), L^list(p) (2.3.4, 2.3.7); with a measured
 * hardware multicast beside them (rgm's release), its o_mc(p) and L_mc(p).  The
 * algorithms' costs (models/barrier.h) and lopfit's tables evaluate them
 * here.
 */
#ifndef LOP_VIEW_H
#define LOP_VIEW_H

#include "lop.h"
#include "model.h"
#include "paramset.h"

/* The LoP parameters of one series and statistic (thesis 2.3.4, 2.3.7). */
typedef struct {
    const lop_fit_t *rtt;     /* RTT(p) of the series */
    const lop_fit_t *os;      /* o_s(p) of the series */
    const lop_fit_t *os_list; /* o_s(p) when posting a list (<op>-list); may be NULL */
    const lop_fit_t *orecv;   /* o_r(p) of the series; may be NULL */
    const lop_fit_t *prtt;    /* PRTT(k) of the series (lopbench --scenario 3: k messages
                                 back to back, one reply); may be NULL.  Its k is not a
                                 count of peers: it leaves pmin, pmax alone */
    const lop_fit_t *round;   /* T(p) = p RTT(p) of the series, scenario 2's round
                                 (models bucket, linear); may be NULL.  Like prtt it
                                 leaves pmin, pmax alone */
    const lop_fit_t *exch;    /* X(1) of the series, scenario 3's exchange (a constant);
                                 may be NULL.  It picks the loop's adapter (models/
                                 README.md "The loop"), a choice the intervals keep,
                                 so it is never drawn */
    const lop_fit_t *ring;    /* R(P) of the series, scenario 3's ring of all P ranks (a
                                 constant at p = P), its mean whatever the statistic;
                                 may be NULL.  It prices the acknowledgement of a
                                 message not answered on its pair (models/README.md
                                 "The loop"), never drawn either */
    /* A measured hardware multicast (lopbench --ops rdmaw,mcast):
     * RTT_mcast(p) and o_s of its post (series LOP_MCAST_SERIES), and the
     * rtt and os of its answers, RDMA writes (LOP_MCAST_ANSWERS); all NULL
     * when the set has no multicast series or lop_view_mcast_from_set was
     * not called. */
    const lop_fit_t *mc_rtt, *mc_os, *ans_rtt, *ans_os;
    double pmin, pmax;        /* p range where every fit above has data */
} lop_view_t;

#define LOP_MCAST_SERIES "mcast-normal"
#define LOP_MCAST_ANSWERS "rdmaw-normal"

/* Look up the fits of 'series' (e.g. "rdmaw-inline", not the multicast's)
 * for 'stat'; the rtt and os fits must exist.  Errors name the file and
 * what is missing. */
lop_status_t lop_view_from_set(const lop_paramset_t *set, const char *series, const char *stat,
                               lop_view_t *view);
/* Then the multicast's, where the set has a fit of LOP_MCAST_SERIES: its
 * rtt and os and those of LOP_MCAST_ANSWERS must exist, and p's range
 * narrows to theirs (lopredict; lopfit's L(p) tables are of one series). */
lop_status_t lop_view_mcast_from_set(const lop_paramset_t *set, const char *stat,
                                     lop_view_t *view);

/* o(p) = o_s(p): CPU time per message when posting p messages back to back. */
double lop_view_o(const lop_view_t *view, double p);
/* L(p) = lop_latency(RTT(p), o_s(p), o_s(1)) of the fits. */
double lop_view_L(const lop_view_t *view, double p);
/* L^list(p) = RTT(p)/2 - (p*o_s^list(p) + o_s^list(1)); NaN without a list fit. */
double lop_view_Llist(const lop_view_t *view, double p);
/* A hardware multicast to p receivers (Kini et al. 3.3), where
 * view->mc_rtt is set (NaN otherwise): the CPU time of its one post,
 * o_mc(p) = o_s of LOP_MCAST_SERIES, and its latency L_mc(p) from the round
 * trip lopbench measures, one multicast out and p RDMA writes back (a
 * t_p:1 of the answers' series, thesis 2.3.7):
 *   p RTT_mcast(p) = o_mc(p) + L_mc(p) + o_a(1) + p L_a(p). */
double lop_view_omcast(const lop_view_t *view, double p);
double lop_view_Lmcast(const lop_view_t *view, double p);
/* LogP's gap g: the slope of PRTT(k) over the fitted k (lopbench's scenario
 * 3, netgauge's PRTT(n, 0, s)); NaN without a prtt fit or with one k. */
double lop_view_gap(const lop_view_t *view);
/* Does the round fit measure a token bucket's knot: model bucket, peers
 * beyond the knot slower than within the burst (l3 > l2), and a measured
 * peer beyond the knot (l4 <= pmax - 1), so that g is measured? */
int lop_view_knot(const lop_view_t *view);
/* Why the series shows no token bucket (models/README.md "The bucket"),
 * or NULL when it does: a knot (lop_view_knot), or a round of 2 peers or
 * more without one while a round trip after idle is shorter than the
 * exchange back to back, T(1) < X(1): the adapters pace messages back to
 * back, and passed all the round's peers at once after idle. */
const char *lop_view_no_burst(const lop_view_t *view);
/* The adapter of a bucket: *burst messages pass at once after idle, then
 * one per *g_us; *t1_us = T(1), a round trip after idle (the bucket full).
 * From a knot l4 and l3; without one the round's pmax peers and NaN (the
 * gap the exchange X(1) implies: predict_duplex). */
void lop_view_bucket(const lop_view_t *view, double *g_us, double *burst, double *t1_us);
/* Is p inside the range the fits were made on? */
int lop_view_in_range(const lop_view_t *view, double p);

#endif
