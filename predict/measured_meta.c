/* measured_meta.c - lopredict --measured's lines on the machine's case
 * (measured_meta.h). */
#include "measured_meta.h"

#include <stdio.h>
#include <string.h>

#include "out.h"
#include "params.h"

/* The i-th fit of the set if it is a series' fit of 'quantity' in
 * statistic 'stat' (the one lop_paramset_find takes of that series), else
 * NULL: each line below speaks of every series once. */
static const lop_fit_t *series_fit(const lopredict_run_t *run, size_t i, const char *quantity,
                                   const char *stat)
{
    const lop_fit_t *f = &run->set.fit[i];
    if (strcmp(f->quantity, quantity) != 0 || strcmp(f->stat, stat) != 0)
        return NULL;
    return lop_paramset_find(&run->set, f->series, quantity, stat) == f ? f : NULL;
}

/* '# bucket:' - the model, and the round fits it prices each series with
 * (the one lop_paramset_find takes of a series). */
void measured_bucket_print(const lopredict_opts_t *o, const lopredict_run_t *run)
{
    printf("# bucket: the loop with a token bucket of B messages refilled one per g on each "
           "adapter where the series shows one (models/README.md \"The bucket\"): o_s, o_r as "
           "the loop's, L = T(1)/2 - o_s - o_r (T(1) = 1 RTT(1), a round trip after idle, the "
           "bucket full), and g = l3, B = l4 of a knot in the round's bucket fit T(p) = p "
           "RTT(p); where the round has no knot but a round trip after idle is shorter than "
           "the exchange back to back (T(1) < X(1)), B = the round's peers (passed at once) "
           "and g the gap X(1) implies; elsewhere the loop");
    const char *sep = "; round fits:";
    for (size_t i = 0; run->have_set && i < run->set.n; i++) {
        const lop_fit_t *f = series_fit(run, i, "round", o->stat);
        if (!f)
            continue;
        lop_view_t v = {.round = f,
                        .exch = lop_paramset_find(&run->set, f->series, "exch", o->stat)};
        double g, B, t1;
        const char *none = lop_view_no_burst(&v);
        printf("%s %s %s ", sep, f->series, f->model->name);
        char n[3][LOP_OUT_NUM_LEN];
        if (none) {
            printf("(the loop: %s)", none);
        } else if (lop_view_bucket(&v, &g, &B, &t1), lop_view_knot(&v)) {
            printf("(T(1) = %s us, g = %s us, B = %s)", lop_out_format_csv(n[0], t1),
                   lop_out_format_csv(n[1], g), lop_out_format_csv(n[2], B));
        } else {
            printf("(no knot: T(1) = %s us < X(1) = %s us, B = %s peers, g from X(1))",
                   lop_out_format_csv(n[0], t1),
                   lop_out_format_csv(n[1], lop_fit_eval(v.exch, 1)),
                   lop_out_format_csv(n[2], B));
        }
        sep = ",";
    }
    printf("%s\n", *sep == ';' ? "; the set has none: the loop" : "");
}

/* The share of the one-way time RTT(1)/2 a series' overheads o_s(1) +
 * o_r(1) take, and what it means for the models. */
static const char *overheads_regime(double share)
{
    return share < 0.1   ? "o << L holds"
           : share < 0.5 ? "o a sizable part of the latency"
                         : "the host's overheads make most of the latency: o << L does not "
                           "hold, LoP's L(1) = RTT(1)/2 - 2 o_s(1) undercounts a message, the loop "
                           "and the bucket keep RTT(1)/2";
}

/* '# overheads:' - which case the machine is in, series by series: LoP
 * assumes o << L (thesis 2.3.3), which an adapter that offloads the send
 * meets and a host stack (TCP: the send is a system call) does not. */
void measured_overheads_print(const lopredict_opts_t *o, const lopredict_run_t *run)
{
    printf("# overheads: o_s(1) + o_r(1) against the one-way time RTT(1)/2 of each series "
           "(o_s(1) for o_r without an o_r fit; LoP assumes o << L, thesis 2.3.3)");
    const char *sep = ":";
    for (size_t i = 0; run->have_set && i < run->set.n; i++) {
        const lop_fit_t *f = series_fit(run, i, "rtt", o->stat);
        lop_view_t v;
        if (!f || strcmp(f->series, LOP_MCAST_SERIES) == 0 ||
            lop_view_from_set(&run->set, f->series, o->stat, &v) != LOP_OK)
            continue;
        double os = lop_fit_eval(v.os, 1), orecv = v.orecv ? lop_fit_eval(v.orecv, 1) : os;
        double one_way = lop_fit_eval(v.rtt, 1) / 2, share = (os + orecv) / one_way;
        char n[2][LOP_OUT_NUM_LEN];
        lop_out_format_csv(n[0], os + orecv);
        lop_out_format_csv(n[1], one_way);
        if (one_way > 0)
            printf("%s %s %s of %s us (%.0f %%: %s)", sep, f->series, n[0], n[1], 100 * share,
                   overheads_regime(share));
        else /* a fit below zero at p = 1: no share to speak of */
            printf("%s %s %s of %s us (no one-way time)", sep, f->series, n[0], n[1]);
        sep = ",";
    }
    printf("%s\n", *sep == ':' ? ": the set has none" : "");
}

/* The loop's part of a series' line, then the bucket's where the round
 * shows one: 'part' prints a kind's with a predictor of the series' own
 * costs, after 'what' ("the loop", "the bucket"). */
typedef lop_status_t (*kind_part_fn)(predict_t *pr, predict_kind_t kind, const char *what);

static lop_status_t kinds_print(const lopredict_opts_t *o, const lopredict_run_t *run,
                                const lop_view_t *v, kind_part_fn part)
{
    barrier_cost_t c = run->cost;
    c.lop = v;
    predict_t pr = {.cost = &c};
    pr.sim = (sched_sim_t){SCHED_SIM_LOGP, &c, o->lop_arg, NULL, o->recv_order, 0};
    lop_status_t st = part(&pr, PREDICT_LOOP, "the loop");
    if (st == LOP_OK && !lop_view_no_burst(v)) {
        printf(", ");
        st = part(&pr, PREDICT_BUCKET, "the bucket");
    }
    return st;
}

/* One kind's choice: "apart 12.03, shared 15.75 us: shared", the gap from
 * X(1) where one was taken, and why not shared where X(1) is closer to it
 * on a machine whose wire, not its host, makes the latency. */
static lop_status_t duplex_part(predict_t *pr, predict_kind_t kind, const char *what)
{
    predict_duplex_t d;
    lop_status_t st = predict_duplex(pr, kind, &d);
    if (st)
        return st;
    char n[3][LOP_OUT_NUM_LEN];
    printf("%s apart %s, shared %s us: %s", what, lop_out_format_csv(n[0], d.apart_us),
           lop_out_format_csv(n[1], d.shared_us),
           d.shared                   ? "shared"
           : d.closer && d.gap_us <= 0 ? "apart (o_s + o_r < L: the wire, not the host, paces it)"
                                       : "apart");
    if (d.gap_us > 0)
        printf(" (the gap from X(1): %s us a message)", lop_out_format_csv(n[2], d.gap_us));
    else if (d.why)
        printf(" (no gap from X(1): %s)", d.why);
    return LOP_OK;
}

/* One kind's ring without acknowledgements and the acknowledgement, with
 * the adapters predict_duplex chooses. */
static lop_status_t ack_part(predict_t *pr, predict_kind_t kind, const char *what)
{
    predict_duplex_t d;
    predict_ack_t k;
    lop_status_t st = predict_duplex(pr, kind, &d);
    pr->shared[kind == PREDICT_BUCKET] = d.shared;
    pr->gap_us[kind == PREDICT_BUCKET] = d.gap_us;
    st = st ? st : predict_ack(pr, kind, &k);
    if (st)
        return st;
    char n[2][LOP_OUT_NUM_LEN];
    printf("%s's ring %s us: ack %s us%s%s%s", what, lop_out_format_csv(n[0], k.plain_us),
           lop_out_format_csv(n[1], k.ack_us), k.why ? " (" : "", k.why ? k.why : "",
           k.why ? ")" : "");
    return LOP_OK;
}

/* One line over the series that have 'quantity' in 'stat': each
 * series' "<label>(<its p>) = <its fit there> us, " (a one-point fit: X(1),
 * the ring's R(P)) and then its kinds' parts (kinds_print); 'none' after the
 * colon when no series has it. */
static void series_line(const lopredict_opts_t *o, const lopredict_run_t *run,
                        const char *quantity, const char *stat, const char *label,
                        const char *none, kind_part_fn part)
{
    const char *sep = ":";
    for (size_t i = 0; run->have_set && i < run->set.n; i++) {
        const lop_fit_t *f = series_fit(run, i, quantity, stat);
        lop_view_t v;
        if (!f || lop_view_from_set(&run->set, f->series, o->stat, &v) != LOP_OK)
            continue;
        char x[LOP_OUT_NUM_LEN];
        printf("%s %s %s(%g) = %s us, ", sep, f->series, label, f->pmin,
               lop_out_format_csv(x, lop_fit_eval(f, f->pmin)));
        if (kinds_print(o, run, &v, part) != LOP_OK)
            printf(" %s: %s", f->series, lop_errmsg());
        sep = ";";
    }
    printf("%s\n", *sep == ':' ? none : "");
}

void measured_duplex_print(const lopredict_opts_t *o, const lopredict_run_t *run)
{
    printf("# duplex: scenario 3's exchange X(1), both ranks sending at once, against the "
           "exchange's period with each adapter passing sends and deliveries a gap each "
           "(apart: LogP, one message's time) or one gap for both (shared: a host that "
           "handles them one at a time); where the exchange is shorter than X(1) and no token "
           "bucket shows, the loop and the bucket take the gap that makes it X(1), shared "
           "where o_s + o_r >= L and even shared is shorter, else apart; elsewhere the "
           "closer, shared only where o_s + o_r >= L (models/README.md \"The loop\")");
    series_line(o, run, "exch", o->stat, "X", ": the set has no exchange: apart", duplex_part);
}

void measured_ack_print(const lopredict_opts_t *o, const lopredict_run_t *run)
{
    printf("# ack: scenario 3's ring R(P) (its mean round, the ring's period), each of its P "
           "ranks sending to the next, no message answered on its pair, against the ring's "
           "period without acknowledgements; the "
           "loop and the bucket charge the receiver's adapter the acknowledgement that makes "
           "it R(P) for every message its receiver never answers, which a transport "
           "acknowledges on its own (models/README.md \"The loop\")");
    series_line(o, run, "ring", "avg", "R", ": the set has no ring: none charged", ack_part);
}
