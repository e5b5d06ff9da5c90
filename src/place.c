/* place.c - every rank's place per level: made, read and compared (place.h). */
#include "place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_placement.h"

/* ------------------------------------------------------------ made, read */

lop_status_t lop_place_alloc(uint32_t p, uint32_t levels, lop_place_t *pl)
{
    memset(pl, 0, sizeof *pl);
    if (levels > LOP_PLACE_MAX_LEVELS)
        return lop_err(LOP_ERR_INVALID, "placement: more than %d levels", LOP_PLACE_MAX_LEVELS);
    pl->p = p;
    pl->n_levels = levels;
    pl->id = lop_calloc((size_t)p * (levels ? levels : 1), sizeof *pl->id);
    return pl->id ? LOP_OK : LOP_ERR_NOMEM;
}

void lop_place_free(lop_place_t *pl)
{
    free(pl->id);
    memset(pl, 0, sizeof *pl);
}

/* Cells of one level, for interning. */
typedef struct {
    const char *text;
    uint32_t rank;
} cell_t;

static int cell_cmp(const void *a, const void *b)
{
    return strcmp(((const cell_t *)a)->text, ((const cell_t *)b)->text);
}

/* Level k's labels of every rank into ids: equal text, equal id. */
static lop_status_t intern_level(const char *const *label, lop_place_t *pl, uint32_t k)
{
    cell_t *cell = lop_calloc(pl->p ? pl->p : 1, sizeof *cell);
    if (!cell)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < pl->p; r++)
        cell[r] = (cell_t){label[(size_t)r * pl->n_levels + k], r};
    qsort(cell, pl->p, sizeof *cell, cell_cmp);
    uint32_t id = 0;
    for (uint32_t r = 0; r < pl->p; r++) {
        id += r > 0 && strcmp(cell[r].text, cell[r - 1].text) != 0;
        pl->id[(size_t)cell[r].rank * pl->n_levels + k] = id;
    }
    free(cell);
    return LOP_OK;
}

lop_status_t lop_place_labels(uint32_t p, uint32_t levels, const char *const *label,
                              const char *const *name, lop_place_t *pl)
{
    lop_status_t st = lop_place_alloc(p, levels, pl);
    for (uint32_t k = 0; k < levels && st == LOP_OK; k++) {
        snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", name[k]);
        st = intern_level(label, pl, k);
    }
    if (st)
        lop_place_free(pl);
    return st;
}

lop_status_t lop_place_read(const char *path, uint32_t max_p, lop_place_t *pl)
{
    lop_fmt_placement_t file;
    memset(pl, 0, sizeof *pl);
    lop_status_t st = lop_fmt_placement_read(path, max_p, &file);
    if (st)
        return st;
    st = lop_place_labels(file.p, LOP_FMT_PLACEMENT_LEVELS, file.label, lop_fmt_placement_level,
                          pl);
    lop_fmt_placement_free(&file);
    return st;
}

/* ------------------------------------------------------------- compared */

/* Rank r's ids, level 0 first. */
static const uint32_t *ids(const lop_place_t *pl, uint32_t r)
{
    return pl->id + (size_t)r * pl->n_levels;
}

int lop_place_same(const lop_place_t *pl, uint32_t a, uint32_t b, uint32_t levels)
{
    if (levels > pl->n_levels)
        return a == b;
    return memcmp(ids(pl, a), ids(pl, b), levels * sizeof *pl->id) == 0;
}

uint32_t lop_place_level(const lop_place_t *pl, uint32_t a, uint32_t b)
{
    const uint32_t *ia = ids(pl, a), *ib = ids(pl, b);
    uint32_t k = 0;
    while (k < pl->n_levels && ia[k] == ib[k])
        k++;
    return k;
}

/* qsort context: ranks ordered by their places, then by rank. */
static const lop_place_t *sort_place;

static int rank_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t k = lop_place_level(sort_place, x, y);
    if (k < sort_place->n_levels)
        return ids(sort_place, x)[k] < ids(sort_place, y)[k] ? -1 : 1;
    return (x > y) - (x < y);
}

void lop_place_order(const lop_place_t *pl, uint32_t p, uint32_t *order)
{
    for (uint32_t r = 0; r < p; r++)
        order[r] = r;
    sort_place = pl;
    qsort(order, p, sizeof *order, rank_cmp);
}

unsigned lop_place_class(const lop_place_t *pl, uint32_t a, uint32_t b)
{
    const uint32_t *ia = ids(pl, a), *ib = ids(pl, b);
    uint32_t k = lop_place_level(pl, a, b);
    if (k == 0 && pl->n_levels > 0)
        return 1; /* apart at level 0 (another host): how they differ inside does not count */
    unsigned c = 0;
    for (; k < pl->n_levels; k++)
        c |= (unsigned)(ia[k] != ib[k]) << k;
    return c;
}
