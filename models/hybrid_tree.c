/* hybrid_tree.c - the tiers and groups of a placement's ranks (hybrid.h). */
#include "hybrid_tree.h"

#include <stdlib.h>
#include <string.h>

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Tier t over the sorted ranks: groups agree on levels < t, children on levels <= t.
 * *kept is 0 when no group has two members. */
static lop_status_t tier_fill(const lop_place_t *pl, const uint32_t *order, uint32_t p,
                              uint32_t t, tier_t *tier, int *kept)
{
    tier->start = lop_calloc((size_t)p + 1, sizeof *tier->start);
    tier->member = lop_calloc(p, sizeof *tier->member);
    if (!tier->start || !tier->member)
        return LOP_ERR_NOMEM;
    uint32_t n = 0, g = 0;
    *kept = 0;
    for (uint32_t i = 0; i < p; i++) {
        if (i > 0 && !lop_place_same(pl, order[i], order[i - 1], t)) {
            tier->start[++g] = n; /* a new group */
            tier->member[n++] = order[i];
        } else if (i == 0 || !lop_place_same(pl, order[i], order[i - 1], t + 1)) {
            tier->member[n++] = order[i]; /* a new child: its first rank, for now */
        } else if (order[i] < tier->member[n - 1]) {
            tier->member[n - 1] = order[i]; /* the child's leader is its lowest rank */
        }
    }
    tier->n_groups = g + 1;
    tier->start[g + 1] = n;
    for (g = 0; g < tier->n_groups; g++) {
        uint32_t size = tier->start[g + 1] - tier->start[g];
        qsort(tier->member + tier->start[g], size, sizeof *tier->member, u32_cmp);
        *kept |= size > 1;
    }
    snprintf(tier->name, sizeof tier->name, "%s", t < pl->n_levels ? pl->level_name[t] : "rank");
    return LOP_OK;
}

static void tier_free(tier_t *tier)
{
    free(tier->start);
    free(tier->member);
    memset(tier, 0, sizeof *tier);
}

lop_status_t hybrid_tree_new(const lop_place_t *pl, uint32_t p, hybrid_tree_t **tree)
{
    if (p < 1 || p > pl->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the placement has %u ranks", p,
                       pl->p);
    hybrid_tree_t *tr = lop_calloc(1, sizeof *tr);
    uint32_t *order = lop_calloc(p, sizeof *order);
    lop_status_t st = tr && order ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK) {
        lop_place_order(pl, p, order);
        tr->p = p;
    }
    for (uint32_t t = 0; t <= pl->n_levels && st == LOP_OK; t++) {
        int kept = 0;
        st = tier_fill(pl, order, p, t, &tr->tier[tr->n_tiers], &kept);
        if (kept)
            tr->n_tiers++;
        else
            tier_free(&tr->tier[tr->n_tiers]);
    }
    free(order);
    if (st) {
        hybrid_tree_free(tr);
        return st;
    }
    *tree = tr;
    return LOP_OK;
}

void hybrid_tree_free(hybrid_tree_t *tree)
{
    if (!tree)
        return;
    for (uint32_t t = 0; t <= HYBRID_MAX_LEVELS; t++)
        tier_free(&tree->tier[t]);
    free(tree);
}

uint32_t hybrid_tree_tiers(const hybrid_tree_t *tree)
{
    return tree->n_tiers;
}

uint32_t hybrid_tree_p(const hybrid_tree_t *tree)
{
    return tree->p;
}

uint32_t hybrid_tree_groups(const hybrid_tree_t *tree, uint32_t tier)
{
    return tree->tier[tier].n_groups;
}

const uint32_t *hybrid_tree_members(const hybrid_tree_t *tree, uint32_t tier, uint32_t g,
                                    uint32_t *count)
{
    const tier_t *t = &tree->tier[tier];
    *count = t->start[g + 1] - t->start[g];
    return t->member + t->start[g];
}
