/*
 * rows.h - lopredict's tables: the cells every mode prints alike (n, a time
 * with its interval, the flags), and the comments above a table that say
 * where its parameters came from (README.md "Data formats"; the flags:
 * models/README.md "Intervals and flags").
 */
#ifndef LOPREDICT_ROWS_H
#define LOPREDICT_ROWS_H

#include <stdio.h>

#include "lopredict.h"
#include "out.h"

/* The flags cell of a row (models/README.md "Intervals and flags"): tokens
 * joined by ';'. */
typedef struct {
    char text[1024];
    int extrapolated; /* the token is there */
} rows_flags_t;

/* A time column and its interval (README.md "Data formats"). */
#define ROWS_TIME_COLS(x) {x "_us", LOP_OUT_NUM, 0}, {x "_lo_us", LOP_OUT_NUM, 0}, \
                          {x "_hi_us", LOP_OUT_NUM, 0}
#define ROWS_FLAGS_COL {"flags", LOP_OUT_STR, 0}

/* The n cell: empty for algorithms without n. */
void rows_n_out(lop_out_t *t, const barrier_alg_t *alg, uint32_t n);

/* Add token 'word' (col=word when 'col' is not NULL) to the flags. */
void rows_flag_add(rows_flags_t *f, const char *col, const char *word);

/* The three cells X_us,X_lo_us,X_hi_us of a predicted time 'v' in column
 * 'col' (NULL v: not predicted, all empty), and its flags. */
void rows_time_out(lop_out_t *t, rows_flags_t *f, const char *col, const predict_time_t *v);

/* "logp" or "lop". */
const char *rows_model_name(int model);

/* The comments above a table (version, set, cnt, links, LogP, machine,
 * intervals), then the table of columns 'col' on stdout. */
lop_status_t rows_table_begin(lop_out_t *t, const lopredict_opts_t *o, const lopredict_run_t *r,
                              const lop_out_col_t *col, size_t n_col);
/* "# machine:": where every parameter of the rows came from. */
void rows_machine_print(FILE *out, const lopredict_opts_t *o, const lopredict_run_t *r);
/* "# intervals: ...": how many draws each column used. */
void rows_interval_print(FILE *out, const lopredict_opts_t *o, const lopredict_run_t *r);

#endif
