/* fitout.c - the batch every lopfit file is written in, and params.csv
 * (fitout.h). */
#include "fitout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitter.h"
#include "fmt_params.h"

/* ------------------------------------------------------------------ batch */

lop_status_t lop_fitout_batch_open(lop_fitout_batch_t *b, const char *dir, const char *name,
                                   lop_csv_writer_t **w)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return lop_err(LOP_ERR_INVALID, "%s/%s: path too long", dir, name);
    lop_csv_writer_t **grown = lop_realloc_array(b->writer, b->n + 1, sizeof *grown);
    if (!grown)
        return LOP_ERR_NOMEM;
    b->writer = grown;
    lop_csv_writer_t *writer = lop_calloc(1, sizeof *writer);
    if (!writer)
        return LOP_ERR_NOMEM;
    lop_status_t st = lop_csv_writer_open(writer, path);
    if (st) {
        free(writer);
        return st;
    }
    b->writer[b->n++] = writer;
    *w = writer;
    return LOP_OK;
}

static void batch_release(lop_fitout_batch_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->writer[i]);
    free(b->writer);
    memset(b, 0, sizeof *b);
}

lop_status_t lop_fitout_batch_end(lop_fitout_batch_t *b, lop_status_t status)
{
    for (size_t i = 0; i < b->n; i++)
        status = lop_csv_writer_end(b->writer[i], status);
    batch_release(b);
    return status;
}

lop_status_t lop_fitout_params(lop_fitout_batch_t *b, const char *dir, const lop_fit_t *fits,
                               size_t n, const char *weight)
{
    lop_csv_writer_t *w;
    lop_out_t t;
    lop_status_t st = lop_fitout_batch_open(b, dir, LOP_FMT_PARAMS_NAME, &w);
    st = st ? st : lop_fmt_params_write_begin(&t, w, weight);
    if (st)
        return st;
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        lop_fmt_params_cells(&t, &fits[i], lop_fitter_hint(&fits[i]));
        st = lop_out_row(&t);
    }
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}
