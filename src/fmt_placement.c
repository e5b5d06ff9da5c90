/* fmt_placement.c - placement.csv written and read (fmt_placement.h). */
#include "fmt_placement.h"

#include <stdlib.h>
#include <string.h>

#include "out.h"

const char *const lop_fmt_placement_level[LOP_FMT_PLACEMENT_LEVELS] = {"host", "socket", "numa",
                                                                       "core"};

static const lop_out_col_t placement_cols[] = {
    {"rank", LOP_OUT_INT, 0}, {"host", LOP_OUT_STR, 0}, {"socket", LOP_OUT_INT, 0},
    {"numa", LOP_OUT_INT, 0}, {"core", LOP_OUT_INT, 0},
};

/* A host name goes into a CSV cell as it is: it must not break the line. */
static lop_status_t host_ok(const char *host)
{
    for (const char *c = host; *c; c++)
        if (*c == ',' || *c == '"' || (unsigned char)*c < 0x20)
            return lop_err(LOP_ERR_INVALID, "placement: host name '%s' cannot be a CSV cell",
                           host);
    return LOP_OK;
}

lop_status_t lop_fmt_placement_write_begin(lop_csv_writer_t *w, const char *path,
                                           const lop_fmt_placement_meta_t *meta,
                                           const lop_fmt_placement_row_t *row)
{
    lop_status_t st = LOP_OK;
    for (int r = 0; r < meta->ranks && st == LOP_OK; r++)
        st = host_ok(row[r].host);
    st = st ? st : lop_csv_writer_open(w, path);
    if (st != LOP_OK)
        return st;
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "placement");
    lop_csv_meta(w, "definition", "where each rank ran: host name, socket (hwloc package) and "
                 "NUMA node on that host (logical indexes), core = the CPU sched_getcpu() "
                 "returned; levels, outermost first: host 0, socket 1, numa 2, core 3");
    lop_csv_meta(w, "ranks", "%d", meta->ranks);
    lop_csv_meta(w, "topology", "%s", meta->topology ? "hwloc" : "none");
    lop_csv_meta(w, "placement_note", "%s", meta->note);
    lop_csv_meta(w, "oversubscribed", "%s", meta->oversubscribed ? "yes" : "no");
    lop_csv_meta(w, "date", "%s", meta->date);
    return LOP_OK;
}

lop_status_t lop_fmt_placement_write_rows(lop_csv_writer_t *w, const lop_fmt_placement_row_t *row,
                                          int ranks)
{
    lop_out_t o;
    lop_status_t st = lop_out_begin(&o, w->file, w->path, 1, placement_cols,
                                    COUNT(placement_cols));
    if (st != LOP_OK)
        return lop_csv_writer_end(w, st);
    for (int r = 0; r < ranks && st == LOP_OK; r++) {
        lop_out_int(&o, r);
        lop_out_str(&o, row[r].host);
        lop_out_int(&o, row[r].socket);
        lop_out_int(&o, row[r].numa);
        lop_out_int(&o, row[r].core);
        st = lop_out_row(&o);
    }
    lop_status_t end = lop_out_end(&o);
    return lop_csv_writer_end(w, st ? st : end);
}

/* The rank column: every rank 0..rows-1 exactly once. */
static lop_status_t placement_ranks(const lop_csv_t *csv, size_t col, uint32_t *rank_of_row)
{
    uint8_t *seen = lop_calloc(csv->n_rows ? csv->n_rows : 1, 1);
    lop_status_t st = seen ? LOP_OK : LOP_ERR_NOMEM;
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        long v;
        st = lop_csv_integer(csv, r, col, 0, (long)csv->n_rows - 1, &v);
        if (st == LOP_OK && seen[v])
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: a second row for rank %ld", csv->path,
                         csv->line[r], v);
        if (st == LOP_OK)
            seen[v] = 1;
        rank_of_row[r] = st ? 0 : (uint32_t)v;
    }
    free(seen);
    return st;
}

/* The cells of every rank's levels, by rank. */
static lop_status_t placement_labels(lop_fmt_placement_t *pl, size_t rank_col, const size_t *col)
{
    const lop_csv_t *csv = pl->csv;
    uint32_t *rank_of_row = lop_calloc(csv->n_rows, sizeof *rank_of_row);
    pl->label = lop_calloc(csv->n_rows * LOP_FMT_PLACEMENT_LEVELS, sizeof *pl->label);
    lop_status_t st = rank_of_row && pl->label ? LOP_OK : LOP_ERR_NOMEM;
    st = st ? st : placement_ranks(csv, rank_col, rank_of_row);
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        for (int k = 0; k < LOP_FMT_PLACEMENT_LEVELS; k++)
            pl->label[(size_t)rank_of_row[r] * LOP_FMT_PLACEMENT_LEVELS + k] =
                csv->cells[r][col[k]];
    free(rank_of_row);
    return st;
}

lop_status_t lop_fmt_placement_read(const char *path, uint32_t max_p, lop_fmt_placement_t *pl)
{
    size_t rank_col, col[LOP_FMT_PLACEMENT_LEVELS];
    memset(pl, 0, sizeof *pl);
    lop_status_t st = lop_csv_read(path, &pl->csv);
    if (st)
        return st;
    st = lop_csv_column(pl->csv, "rank", &rank_col);
    for (int k = 0; k < LOP_FMT_PLACEMENT_LEVELS && st == LOP_OK; k++)
        st = lop_csv_column(pl->csv, lop_fmt_placement_level[k], &col[k]);
    if (st == LOP_OK && (pl->csv->n_rows < 1 || pl->csv->n_rows > max_p))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu ranks (1..%u)", path, pl->csv->header_line,
                     pl->csv->n_rows, max_p);
    st = st ? st : placement_labels(pl, rank_col, col);
    pl->p = st ? 0 : (uint32_t)pl->csv->n_rows;
    if (st)
        lop_fmt_placement_free(pl);
    return st;
}

void lop_fmt_placement_free(lop_fmt_placement_t *pl)
{
    free(pl->label);
    lop_csv_free(pl->csv);
    memset(pl, 0, sizeof *pl);
}
