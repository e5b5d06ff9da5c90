/* hybrid_place.c - where every rank is, for the hybrid barrier: a
 * synthetic machine's places, text labels, placement.csv, and per-pair costs
 * per level (hybrid.h). */
#include "hybrid.h"

#include <stdlib.h>
#include <string.h>

#include "fmt_placement.h"

void hybrid_place_free(hybrid_place_t *pl)
{
    free(pl->place);
    memset(pl, 0, sizeof *pl);
}

static lop_status_t place_alloc(hybrid_place_t *pl, uint32_t p, uint32_t levels)
{
    memset(pl, 0, sizeof *pl);
    pl->p = p;
    pl->n_levels = levels;
    pl->place = lop_calloc((size_t)p * (levels ? levels : 1), sizeof *pl->place);
    return pl->place ? LOP_OK : LOP_ERR_NOMEM;
}

lop_status_t hybrid_place_machine(const pairs_t *c, uint32_t p, hybrid_place_t *pl)
{
    static const char *const three[] = {"node", "socket", "core"};
    if (c->o_us || !c->n_levels)
        return lop_err(LOP_ERR_INVALID, "hybrid: a cost matrix has no levels (--placement FILE)");
    if (p > c->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the machine has %u places", p, c->p);
    lop_status_t st = place_alloc(pl, p, c->n_levels);
    for (uint32_t k = 0; k < c->n_levels && !st; k++) {
        if (c->n_levels == 3)
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", three[k]);
        else
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "level%u", k);
        for (uint32_t r = 0; r < p; r++)
            pl->place[(size_t)r * c->n_levels + k] = pairs_place(c, r, k);
    }
    return st;
}

/* Cells of one placement column, for interning. */
typedef struct {
    const char *text;
    uint32_t rank;
} cell_t;

static int cell_cmp(const void *a, const void *b)
{
    return strcmp(((const cell_t *)a)->text, ((const cell_t *)b)->text);
}

/* Level k's labels of every rank into place ids: equal text, equal id. */
static lop_status_t intern_level(const char *const *label, hybrid_place_t *pl, uint32_t k)
{
    cell_t *cell = lop_calloc(pl->p, sizeof *cell);
    if (!cell)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < pl->p; r++)
        cell[r] = (cell_t){label[(size_t)r * pl->n_levels + k], r};
    qsort(cell, pl->p, sizeof *cell, cell_cmp);
    uint32_t id = 0;
    for (uint32_t r = 0; r < pl->p; r++) {
        id += r > 0 && strcmp(cell[r].text, cell[r - 1].text) != 0;
        pl->place[(size_t)cell[r].rank * pl->n_levels + k] = id;
    }
    free(cell);
    return LOP_OK;
}

lop_status_t hybrid_place_labels(uint32_t p, uint32_t levels, const char *const *label,
                                 const char *const *name, hybrid_place_t *pl)
{
    if (levels > HYBRID_MAX_LEVELS)
        return lop_err(LOP_ERR_INVALID, "hybrid: more than %d levels", HYBRID_MAX_LEVELS);
    lop_status_t st = place_alloc(pl, p, levels);
    for (uint32_t k = 0; k < levels && st == LOP_OK; k++) {
        snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", name[k]);
        st = intern_level(label, pl, k);
    }
    if (st)
        hybrid_place_free(pl);
    return st;
}

lop_status_t hybrid_place_read(const char *path, hybrid_place_t *pl)
{
    lop_fmt_placement_t file;
    memset(pl, 0, sizeof *pl);
    lop_status_t st = lop_fmt_placement_read(path, SCHED_MAX_P, &file);
    if (st)
        return st;
    st = hybrid_place_labels(file.p, LOP_FMT_PLACEMENT_LEVELS, file.label,
                             lop_fmt_placement_level, pl);
    lop_fmt_placement_free(&file);
    return st;
}

lop_status_t hybrid_place_costs(const hybrid_place_t *pl, uint32_t p, const double *L_us,
                                const double *o_us, pairs_t *c)
{
    memset(c, 0, sizeof *c);
    if (p > pl->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the placement has %u ranks", p,
                       pl->p);
    c->p = p;
    c->o_us = lop_calloc((size_t)p * p, sizeof *c->o_us);
    c->L_us = lop_calloc((size_t)p * p, sizeof *c->L_us);
    if (!c->o_us || !c->L_us) {
        pairs_free(c);
        return LOP_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t j = 0; j < p; j++) {
            uint32_t k = 0;
            while (k < pl->n_levels && pl->place[(size_t)i * pl->n_levels + k] ==
                                           pl->place[(size_t)j * pl->n_levels + k])
                k++;
            c->o_us[(size_t)i * p + j] = o_us[k];
            c->L_us[(size_t)i * p + j] = L_us[k];
        }
    return LOP_OK;
}
