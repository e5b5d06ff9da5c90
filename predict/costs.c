/* costs.c - lopredict's per-pair costs, placement and --write-costs (costs.h). */
#include <stdio.h>

#include "cli.h"
#include "costs.h"
#include "work.h"

/* Meyer and Elster's O and L: an option that would bring a second machine
 * into a row (LoP, a parameter set, its series or statistic, one L or o_s
 * for every pair) is refused before anything is read or written: a row
 * describes one machine.
 * --or and --g stay: the costs have no gap, and o_r defaults to the pair's
 * o.  --stat chooses among a set's fits (min, avg) and had no effect here; a
 * pairs.csv has its statistic in o_us, L_us already (lopbench --pairs-stat,
 * "# stat:"). */
lop_status_t costs_model_imply(lopredict_opts_t *o)
{
    const char *from = o->pairs_opts.costs ? "--costs" : "--topology";
    const char *twice = o->logp_opt[LOGP_L] ? o->logp_opt[LOGP_L] : o->logp_opt[LOGP_OS];
    if (!o->pairs_opts.costs && !o->pairs_opts.topology)
        return LOP_OK;
    if (o->model_given && (o->models & MODEL_LOP))
        return lop_err(LOP_ERR_INVALID, "option --model: LoP is not defined on per-pair costs "
                       "(%s gives LogP's o and L per pair): LogP is implied, leave --model out",
                       from);
    if (twice)
        return lop_err(LOP_ERR_INVALID, "option --%s: %s gives L and o_s per pair (--or and --g "
                       "set the receive overhead and the gap)", twice, from);
    if (o->params || o->series_named || o->stat_named)
        return lop_err(LOP_ERR_INVALID, "option --%s: no parameter set is used with %s (its "
                       "costs give LogP's parameters; LoP is not defined on them)%s",
                       o->params ? "params" : o->series_named ? "series" : "stat", from,
                       o->params || o->series_named || !o->pairs_opts.costs ? ""
                       : "; pairs.csv's o_us and L_us are already the statistic lopbench "
                         "--pairs-stat chose");
    o->models = MODEL_LOGP;
    return LOP_OK;
}

/* The P list: --p, else the ranks that per-pair costs describe (the machine
 * they were measured or built for), else 2..64. */
static lop_status_t costs_p_list(const lopredict_opts_t *o, lopredict_run_t *r)
{
    char list[32] = "2..64";
    if (o->p.count) {
        r->p = o->p.values;
        r->n_p = o->p.count;
        return LOP_OK;
    }
    if (r->have_pairs)
        snprintf(list, sizeof list, "%u", r->pairs.p);
    lop_status_t st = lop_cli_long_list("p", list, 1, INT32_MAX, &r->p_default, &r->n_p);
    r->p = r->p_default;
    return st;
}

/* The levels of the hybrid: --placement FILE (with --costs), or the
 * --topology machine's.  Errors name the option: first the options (that
 * --placement is only for the hybrid: the option table) ... */
static lop_status_t place_options(const lopredict_opts_t *o, const lopredict_run_t *r)
{
    int hybrid = work_hybrid_wanted(o);
    if (o->placement && !o->pairs_opts.costs)
        return lop_err(LOP_ERR_INVALID, "option --placement: needs --costs FILE (the per-pair "
                                        "costs of the placed ranks)");
    if (hybrid && !r->have_pairs)
        return lop_err(LOP_ERR_INVALID, "option --alg: hybrid needs per-pair costs and levels: "
                                        "--topology SPEC --level-L .. --level-o .., or --costs "
                                        "FILE --placement FILE");
    if (hybrid && !o->placement && o->pairs_opts.costs)
        return lop_err(LOP_ERR_INVALID, "option --costs: hybrid needs the levels of the ranks: "
                                        "--placement FILE");
    return LOP_OK;
}

/* LogP simulations only. */
lop_status_t costs_pairs_setup(const lopredict_opts_t *o, lopredict_run_t *r)
{
    lopredict_mode_t m = o->mode;
    int hybrid = work_hybrid_wanted(o);
    if (hybrid && m == MODE_VERIFY)
        return lop_err(LOP_ERR_INVALID, "option --verify: hybrid has no closed form (use "
                                        "--simulate; hybrid schedules are checked when built)");
    lop_status_t st = pairs_from_opts(&o->pairs_opts, &r->pairs, &r->have_pairs);
    st = st ? st : costs_p_list(o, r); /* the costs' ranks, before the checks against them */
    if (st)
        return st;
    const char *from = o->pairs_opts.costs ? "costs" : "topology";
    int uses = o->simulate || o->write_costs || m == MODE_BEST || m == MODE_VERIFY ||
               (hybrid && (m == MODE_SCHEDULE || m == MODE_GOAL || m == MODE_HYBRID_REPORT));
    if (r->have_pairs && !uses)
        return lop_err(LOP_ERR_INVALID, "option --%s: per-pair costs are used by --simulate, "
                                        "--best, --verify and --alg hybrid (and saved by "
                                        "--write-costs)", from);
    for (size_t i = 0; i < r->n_p && r->have_pairs && !o->check_file; i++)
        if (r->p[i] > (long)r->pairs.p)
            return lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but the per-pair costs of --%s "
                                            "describe %u ranks", r->p[i], from, r->pairs.p);
    return place_options(o, r);
}

/* ... and the levels themselves. */
lop_status_t costs_place_setup(const lopredict_opts_t *o, lopredict_run_t *r)
{
    if (!work_hybrid_wanted(o))
        return LOP_OK;
    lop_status_t st = o->placement ? lop_place_read(o->placement, SCHED_MAX_P, &r->place)
                                   : pairs_machine_place(&r->pairs, r->pairs.p, &r->place);
    r->have_place = st == LOP_OK;
    for (size_t i = 0; i < r->n_p && st == LOP_OK; i++)
        if (r->p[i] > (long)r->place.p)
            st = lop_err(LOP_ERR_INVALID, "option --p: P = %ld, but --placement %s places %u "
                         "ranks", r->p[i], o->placement, r->place.p);
    return st;
}

/* A --write-costs file this large is announced before it is written (some
 * 2400 ranks: it takes seconds). */
#define COSTS_NOTE_BYTES 100000000ull

/* The file is written to a temporary file beside it, which costs_file_end()
 * renames into place only when the run and its output succeeded.  A refused
 * or failed run leaves no file (README, "A run's files are all or nothing").
 * It is written whole, checked, before the mode prints anything: a full disk
 * fails the run with stdout empty, not after a table.  Its size grows with
 * P^2 (76 GB at --topology 256x256): said before a large one is begun, and
 * refused where its filesystem has no room. */
lop_status_t costs_file_begin(const lopredict_opts_t *o, lopredict_run_t *r)
{
    char source[PATH_MAX + 64];
    if (!o->write_costs)
        return LOP_OK;
    uint64_t bytes = pairs_write_size(&r->pairs, r->pairs.p);
    lop_status_t room = lop_csv_writer_room(o->write_costs, bytes);
    if (room)
        return lop_err(room, "option --write-costs: %s", lop_errmsg());
    char size[LOP_BYTES_TEXT_LEN];
    if (bytes >= COSTS_NOTE_BYTES)
        fprintf(stderr, "%s: note: --write-costs %s: about %s (%u ranks, %llu pairs)\n",
                LOPREDICT_PROG, o->write_costs, lop_bytes_text(bytes, size), r->pairs.p,
                (unsigned long long)r->pairs.p * (r->pairs.p - 1));
    snprintf(source, sizeof source, "%s%s%s", o->pairs_opts.costs ? o->pairs_opts.costs : "",
             o->pairs_opts.topology ? o->pairs_opts.topology : "",
             !o->pairs_opts.topology ? "" : o->pairs_opts.map == PAIRS_RR ? " rr" : " block");
    lop_status_t st = pairs_write_begin(&r->pairs, r->pairs.p, o->write_costs, source,
                                        &r->costs_w);
    st = st ? st : lop_csv_writer_finish(&r->costs_w);
    r->costs_open = st == LOP_OK;
    return st;
}

lop_status_t costs_file_end(lopredict_run_t *r, lop_status_t status)
{
    if (!r->costs_open)
        return LOP_OK;
    r->costs_open = 0;
    return lop_csv_writer_end(&r->costs_w, status);
}
