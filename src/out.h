/*
 * out.h - the one output layer of every lop tool: tables of typed columns,
 * written as CSV or as an aligned table for people, to any FILE* (stdout or
 * an atomic CSV writer's file).
 *
 * Never silently wrong:
 *  - no cell is ever cut: cells are allocated to their real length, and the
 *    aligned table computes its widths from the real strings;
 *  - CSV numbers read back to the same double: the shortest of %.15g, %.16g
 *    and %.17g that strtod() maps back to the value (−0 stays "-0", ±inf is
 *    "inf"/"-inf", NaN, an unknown value, is an empty cell);
 *  - the aligned table rounds numbers to a column's decimals for people,
 *    below 0.1 to as many significant digits (0.0003469, 3.469e-05: a
 *    non-zero value never shows as 0), and switches to %g form past 1e9
 *    rather than cutting digits (-4.4e46 shows as -4.39652e+46);
 *  - every write is checked: the first failure is kept and returned by
 *    lop_out_end(), and lop_stdout_close() checks stdout before exit.
 *
 * Rows stream: CSV rows are written as they are finished; the aligned table
 * holds at most LOP_OUT_BLOCK rows to compute widths, then writes them (widths
 * only grow from one block to the next, so a long table stays aligned unless
 * a later block holds a wider cell).
 */
#ifndef LOP_OUT_H
#define LOP_OUT_H

#include <stdio.h>

#include "lop.h"

#define LOP_OUT_BLOCK 1024 /* aligned-table rows held to compute widths */

typedef enum {
    LOP_OUT_STR, /* text; left-aligned in the table */
    LOP_OUT_INT, /* whole number */
    LOP_OUT_NUM, /* number: CSV round-trip exact, table 'decimals' after the point
                    (below 0.1: 'decimals' significant digits) */
    LOP_OUT_PCT  /* fraction: CSV as LOP_OUT_NUM, table as a signed percentage */
} lop_out_kind_t;

typedef struct {
    const char *name;    /* header cell */
    lop_out_kind_t kind; /* how cells are written */
    int decimals;        /* LOP_OUT_NUM in the aligned table (0: 4) */
} lop_out_col_t;

typedef struct {
    FILE *file;               /* where rows go */
    const char *what;         /* its name for messages ("standard output", a path) */
    int csv;                  /* CSV, else aligned table */
    const lop_out_col_t *col; /* the columns */
    size_t n_col;
    size_t *width;            /* aligned table: column widths so far */
    char **cell;              /* held cells, row-major: n_row x n_col */
    size_t n_row;             /* held rows (the last possibly unfinished) */
    size_t n_set;             /* cells set in the unfinished row */
    int header_done;          /* header written */
    int errnum;               /* first write error (errno), 0 if none */
    lop_status_t status;      /* first failure (NOMEM, IO) */
} lop_out_t;

/* Start a table on 'file' and write its header (CSV now, table with the first block). */
lop_status_t lop_out_begin(lop_out_t *t, FILE *file, const char *what, int csv,
                           const lop_out_col_t *col, size_t n_col);
/* The next cell of the current row, in column order.  A text cell stays
 * one cell on one line: a control byte (a newline, a tab) is written as
 * \xNN, and in CSV a cell holding a comma or a quote is quoted as RFC 4180
 * says (its quotes doubled); other text is written as it is. */
void lop_out_str(lop_out_t *t, const char *s);
void lop_out_int(lop_out_t *t, long long v);
void lop_out_num(lop_out_t *t, double v); /* NaN: empty cell */
void lop_out_empty(lop_out_t *t);
/* Finish the row; CSV rows are written at once. */
lop_status_t lop_out_row(lop_out_t *t);
/* A "# ..." line between rows (held rows are written first, to keep order). */
lop_status_t lop_out_comment(lop_out_t *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Write what is held, free the table, return the first failure (or LOP_OK). */
lop_status_t lop_out_end(lop_out_t *t);

/* A number as CSV: the shortest %.15g/%.16g/%.17g that reads back to 'v';
 * "inf", "-inf"; "" for NaN.  'buf' holds LOP_OUT_NUM_LEN bytes. */
#define LOP_OUT_NUM_LEN 32
const char *lop_out_format_csv(char *buf, double v);

/* Check every write to stdout before exit: flush and close it; on failure
 * print "prog: error writing standard output: reason" (unless 'quiet': an
 * error was reported already, one line is enough) and return 1, else 0. */
int lop_stdout_close(const char *prog, int quiet);
/* Flush stdout and check every write to it so far: LOP_OK, or LOP_ERR_IO
 * "error writing standard output: reason".  For a run that commits files
 * after printing its report (lopfit -o): a failed report leaves them out. */
lop_status_t lop_stdout_check(void);

#endif
