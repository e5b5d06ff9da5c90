/*
 * hybrid_prove.c - a hybrid barrier proved from its parts (hybrid.h,
 * hybrid_prove), where the checker on the whole would take (ops + P) P / 64
 * word operations: 6.9e10 at 1024x2x512, and a minute of the search first.
 *
 * The composition (hybrid_compose_pieces) puts every rank's arrivals inside
 * out, then the top, then its departures outside in; each phase's messages
 * stay within its group.  If the groups partition the ranks tier by tier
 * (every member of a tier's group leads the set it gathered below, no rank
 * twice, and the top's sets are all P ranks), two ranks share at most one
 * group, so FIFO order per pair pairs no message across phases, and the
 * phases run in one order everywhere: each completes once its members
 * reach it (its local schedule runs to the end when all its ranks start
 * it: the checker says so).  Knowledge then goes as in Meyer and Elster's
 * section VII: after its arrival (a gather to member 0) a leader knows its
 * whole set; after the top (a barrier, or a gather and its departure) every
 * top member knows every rank; each departure (a broadcast from member 0)
 * hands that down.  So the parts are: the partition (union-find, O(P)), and
 * each distinct local schedule checked once for what it must spread.
 */
#include "hybrid.h"

#include <stdlib.h>

#include "sched_check.h"

/* Union-find over the ranks, merged tier by tier inside out. */
static uint32_t find(uint32_t *up, uint32_t r)
{
    while (up[r] != r)
        r = up[r] = up[up[r]];
    return r;
}

/* Every member of a tier's group leads a set of its own (no rank twice, none
 * absorbed below), and after the top one set holds every rank. */
static lop_status_t prove_partition(const hybrid_tree_t *tree, uint32_t p)
{
    uint32_t *up = lop_calloc(p, sizeof *up);
    uint8_t *seen = lop_calloc(p, 1); /* a member in this tier already */
    lop_status_t st = up && seen ? LOP_OK : LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < p && !st; r++)
        up[r] = r;
    for (uint32_t t = hybrid_tree_tiers(tree); t-- > 0 && !st;) {
        for (uint32_t g = 0, k; g < hybrid_tree_groups(tree, t) && !st; g++) {
            const uint32_t *m = hybrid_tree_members(tree, t, g, &k);
            for (uint32_t i = 0; i < k && !st; i++) {
                if (m[i] >= p || seen[m[i]] == t + 1 || find(up, m[i]) != m[i])
                    st = lop_err(LOP_ERR_INVALID, "hybrid: not a barrier: rank %u is not the "
                                 "leader of a set of its own in tier %u", m[i], t);
                else
                    seen[m[i]] = (uint8_t)(t + 1), up[m[i]] = m[0];
            }
        }
    }
    for (uint32_t r = 0; r < p && !st; r++)
        if (find(up, r) != find(up, 0))
            st = lop_err(LOP_ERR_INVALID, "hybrid: not a barrier: rank %u is in no group that "
                         "reaches the top", r);
    free(up);
    free(seen);
    return st;
}

/* A local schedule spreads what it must: a whole top every rank's arrival,
 * an arrival the members' to member 0, its departure member 0's to all. */
static lop_status_t prove_piece(const hybrid_piece_t *piece, uint32_t k, uint32_t t)
{
    const sched_t *s = piece->local;
    if (s->p != k)
        return lop_err(LOP_ERR_INVALID, "hybrid: not a barrier: a group of %u at tier %u has a "
                       "schedule for %u", k, t, s->p);
    if (k == 1)
        return LOP_OK;
    if (piece->whole)
        return t == 0 ? sched_check(s)
                      : lop_err(LOP_ERR_INVALID, "hybrid: a whole barrier below the top");
    sched_t dep;
    lop_status_t st = sched_check_what(s, SCHED_KNOW_GATHER);
    st = st ? st : hybrid_departure(s, &dep);
    if (st)
        return st;
    st = sched_check_what(&dep, SCHED_KNOW_BROADCAST);
    sched_free(&dep);
    return st;
}

lop_status_t hybrid_prove(const hybrid_tree_t *tree, const hybrid_piece_t *piece)
{
    uint32_t tiers = hybrid_tree_tiers(tree), i = 0, n_done = 0, k;
    lop_status_t st = prove_partition(tree, hybrid_tree_p(tree));
    const hybrid_piece_t **done = NULL; /* distinct pieces proved: groups share them */
    for (uint32_t t = 0; t < tiers && !st; t++)
        for (uint32_t g = 0; g < hybrid_tree_groups(tree, t) && !st; g++, i++) {
            hybrid_tree_members(tree, t, g, &k);
            uint32_t d = 0;
            while (d < n_done && !(done[d]->local == piece[i].local &&
                                   done[d]->whole == piece[i].whole))
                d++;
            if (d < n_done)
                continue;
            st = prove_piece(&piece[i], k, t);
            const hybrid_piece_t **grown = lop_realloc_array(done, n_done + 1, sizeof *done);
            st = st ? st : grown ? LOP_OK : LOP_ERR_NOMEM;
            if (grown)
                (done = grown)[n_done++] = &piece[i];
        }
    free(done);
    return st;
}
