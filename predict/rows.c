/* rows.c - the cells every lopredict table prints alike, and the comments above it. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "rows.h"

void rows_n_out(lop_out_t *t, const barrier_alg_t *alg, uint32_t n)
{
    if (alg->takes_n)
        lop_out_int(t, n);
    else
        lop_out_empty(t);
}

void rows_flag_add(rows_flags_t *f, const char *col, const char *word)
{
    size_t len = strlen(f->text);
    snprintf(f->text + len, sizeof f->text - len, "%s%s%s%s", len ? ";" : "", col ? col : "",
             col ? "=" : "", word);
}

/* No time is never a number: the CSV cell is empty, the table shows the
 * word, the flags say which. */
void rows_time_out(lop_out_t *t, rows_flags_t *f, const char *col, const predict_time_t *v)
{
    const char *bad = v ? predict_invalid(v->us) : NULL;
    if (!v)
        lop_out_empty(t);
    else if (bad) {
        rows_flag_add(f, col, bad);
        if (t->csv)
            lop_out_empty(t);
        else
            lop_out_str(t, bad);
    } else
        lop_out_num(t, v->us);
    lop_out_num(t, v ? v->lo_us : NAN);
    lop_out_num(t, v ? v->hi_us : NAN);
    if (v && v->n_invalid)
        rows_flag_add(f, col, "partial-interval");
    if (v && v->no_interval)
        rows_flag_add(f, col, "no-interval");
    if (v && v->off_interval)
        rows_flag_add(f, col, "interval-excludes-estimate");
    if (v && v->negative_logp)
        rows_flag_add(f, col, "negative-logp");
    if (v && v->extrapolated && !f->extrapolated) {
        rows_flag_add(f, NULL, "extrapolated");
        f->extrapolated = 1;
    }
}

const char *rows_model_name(int model)
{
    return model == MODEL_LOGP ? "logp" : "lop";
}

/* ------------------------------------------------------------ comments */

void rows_interval_print(FILE *out, const lopredict_opts_t *o, const lopredict_run_t *r)
{
    const lop_fit_t *u = r->pred.uncertain;
    if (u && !o->measured) {
        fprintf(out, "# intervals: none: the %s fit of %s %s (%s fitted to n = %zu) has no "
                "covariance, its error is unknown (flag no-interval)\n", u->quantity, u->series,
                u->stat, u->model->name, u->n);
        return;
    }
    if (!r->pred.closed && (!o->measured || !r->have_set)) {
        if (r->cost.lop)
            fprintf(out, "# intervals: none (the fits of %s %s have no covariance)\n",
                    r->series, o->stat);
        return;
    }
    fprintf(out, "# intervals: %.0f %% Monte Carlo over the fits of the series%s: %zu draws "
            "for closed forms, %zu for simulations (sim_*), seed %lu\n",
            100 * o->uncert.level,
            o->measured ? " (empty where they have no covariance, and for the loop and the "
                          "bucket where their gap is the one the exchange X(1) implies: one "
                          "point, its error unknown)"
                        : "",
            o->uncert.n_draws, o->sim_draws, o->uncert.seed);
}

/* "# logp: L=.. os=.. or=.. g=.. us": exact numbers (the only record of the
 * parameters), each below 0 marked "(negative)": the times from it are flagged. */
static void logp_comment(FILE *out, const logp_t *m)
{
    const char *name[] = {"L", "os", "or", "g"};
    const double v[] = {m->L_us, m->os_us, m->or_us, m->g_us};
    char num[LOP_OUT_NUM_LEN];
    fputs("# logp:", out);
    for (size_t i = 0; i < COUNT(v); i++)
        fprintf(out, " %s=%s%s", name[i], lop_out_format_csv(num, v[i]),
                v[i] < 0 ? " (negative)" : "");
    fputs(" us\n", out);
}

/* Append to the text in buf (truncated at len). */
static void text_add(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    size_t used = strlen(buf);
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* The series of the set the rows use: --series (or the default), or with
 * --measured without --series each row's own (its series column). */
static const char *rows_series(const lopredict_opts_t *o, const lopredict_run_t *r)
{
    return o->measured && !o->series_named ? "each row's series," : r->series;
}

/* Where LogP parameter i (LOGP_L..LOGP_G) came from: its option and value,
 * the per-pair costs, the parameter set at p = 1, or g's default. */
static const char *logp_source(const lopredict_opts_t *o, const lopredict_run_t *r, int i,
                               char *buf, size_t len)
{
    const double given[LOGP_PARAMS] = {o->L, o->os, o->or, o->g};
    const char *set = o->params ? "--params" : "the shipped set";
    char num[LOP_OUT_NUM_LEN];
    if (o->logp_opt[i])
        snprintf(buf, len, "--%s %s", o->logp_opt[i], lop_out_format_csv(num, given[i]));
    else if (i == LOGP_G)
        snprintf(buf, len, "the default 0 (thesis 2.1.4.5: g << o)");
    else if (r->have_pairs && o->pairs_opts.costs)
        snprintf(buf, len, "--costs %s (per pair)", o->pairs_opts.costs);
    else if (r->have_pairs)
        snprintf(buf, len, "--topology %s %s (per level)", o->pairs_opts.topology,
                 o->pairs_opts.map == PAIRS_RR ? "rr" : "block");
    else if (i == LOGP_OR && r->cost.lop && !r->cost.lop->orecv)
        snprintf(buf, len, "o_s(1) of %s (%s %s has no o_r fit)", set, r->series, o->stat);
    else if (i == LOGP_OR && o->measured && !r->cost.lop) /* each row's series: may have none */
        snprintf(buf, len, "%s (%s %s at p = 1; o_s(1) where it has no o_r fit)", set,
                 rows_series(o, r), o->stat);
    else
        snprintf(buf, len, "%s (%s %s at p = 1)", set, rows_series(o, r), o->stat);
    return buf;
}

/* Which rows of per-pair costs have closed forms, and with what L and o
 * (--verify: every row, work_p_list_check refuses a P beyond them). */
static void machine_closed(const lopredict_opts_t *o, const lopredict_run_t *r, char *text,
                           size_t len)
{
    char L[LOP_OUT_NUM_LEN], os[LOP_OUT_NUM_LEN];
    int verify = o->mode == MODE_VERIFY;
    const char *col = verify ? "closed_us" : "logp_us";
    lop_out_format_csv(L, r->cost.logp.L_us);
    lop_out_format_csv(os, r->cost.logp.os_us);
    if (r->uniform_p < 2) /* no two ranks cost alike: no L, no o, and P = 1 sends nothing */
        text_add(text, len, "; %s: 0 at P = 1, where no message is sent; %s", col,
                 r->pairs.p < 2 ? "one rank, no pair to cost: no L, no o"
                 : verify ? "ranks 0 and 1 cost differently: no L, no o"
                          : "else empty: ranks 0 and 1 cost differently (logp_us=unequal-costs)");
    else if (r->uniform_p == r->pairs.p)
        text_add(text, len, "; %s: every pair costs L = %s, o_s = %s", col, L, os);
    else if (verify)
        text_add(text, len, "; closed_us: ranks 0..P-1 all cost L = %s, o_s = %s (P <= %u)", L,
                 os, r->uniform_p);
    else
        text_add(text, len, "; logp_us where ranks 0..P-1 all cost the same, P <= %u (L = %s, "
                 "o_s = %s), else empty (logp_us=unequal-costs)", r->uniform_p, L, os);
}

/* Parameters of one source are named together: a row describes one machine,
 * and the line says which. */
void rows_machine_print(FILE *out, const lopredict_opts_t *o, const lopredict_run_t *r)
{
    static const char *const name[LOGP_PARAMS] = {"L", "o_s", "o_r", "g"};
    char src[LOGP_PARAMS][PATH_MAX + 128], text[LOGP_PARAMS * (PATH_MAX + 160)] = "";
    int done[LOGP_PARAMS] = {0};
    for (int i = 0; i < LOGP_PARAMS && (o->models & MODEL_LOGP); i++)
        logp_source(o, r, i, src[i], sizeof src[i]);
    for (int i = 0; i < LOGP_PARAMS && (o->models & MODEL_LOGP); i++) {
        if (done[i])
            continue;
        text_add(text, sizeof text, "%s%s", *text ? "; " : "", name[i]);
        for (int j = i + 1; j < LOGP_PARAMS; j++)
            if (!done[j] && strcmp(src[j], src[i]) == 0) {
                text_add(text, sizeof text, ", %s", name[j]);
                done[j] = 1;
            }
        text_add(text, sizeof text, " from %s", src[i]);
    }
    /* the modes with a logp_us column */
    if (r->have_pairs && o->mode != MODE_BEST && o->mode != MODE_HYBRID_REPORT)
        machine_closed(o, r, text, sizeof text);
    if (o->models & MODEL_LOP)
        text_add(text, sizeof text, "%sLoP o(p), L(p) from %s (%s %s)", *text ? "; " : "",
                 o->params ? "--params" : "the shipped set", rows_series(o, r), o->stat);
    if ((o->models & MODEL_LOP) && r->cost.lop && r->cost.lop->mc_rtt) /* measured multicast */
        text_add(text, sizeof text, "; a multicast (rgm's release) o_mc, L_mc(P-1) from "
                 LOP_MCAST_SERIES " %s, its answers " LOP_MCAST_ANSWERS, o->stat);
    lop_meta_print(out, "machine", text);
}

static void header_print(FILE *out, const lopredict_opts_t *o, const lopredict_run_t *r)
{
    fprintf(out, "# lopredict: %s\n", LOP_VERSION);
    if (r->have_set) {
        lop_meta_print(out, "params", r->params);
        fprintf(out, "# series: %s\n# stat: %s\n", r->series, o->stat);
    }
    char cnt[LOP_OUT_NUM_LEN];
    fprintf(out, "# cnt: %s\n# links: %u\n", lop_out_format_csv(cnt, r->cost.cnt), r->cost.links);
    /* per-pair costs: one o and one L only when every pair costs the same */
    if ((o->models & MODEL_LOGP) && (!r->have_pairs || (r->uniform_p >= 2 &&
                                                        r->uniform_p == r->pairs.p)))
        logp_comment(out, &r->cost.logp);
    rows_machine_print(out, o, r);
    rows_interval_print(out, o, r);
}

lop_status_t rows_table_begin(lop_out_t *t, const lopredict_opts_t *o, const lopredict_run_t *r,
                              const lop_out_col_t *col, size_t n_col)
{
    header_print(stdout, o, r);
    return lop_out_begin(t, stdout, "standard output", o->csv, col, n_col);
}
