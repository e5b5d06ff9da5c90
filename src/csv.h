/*
 * csv.h - the CSV files every lop tool reads and writes.
 *
 * Format (README "Data formats"):
 *   # key: value          metadata lines, before the header
 *   col1,col2,...         one header row
 *   v1,v2,...             data rows, every row as many cells as the header
 * Blank lines and further '#' lines are ignored.  Cells hold no commas,
 * unless quoted as RFC 4180 says ("a ""b"", c"), which a reader takes on one
 * line (as spreadsheets write headers, and lop_out_str text cells).  No
 * metadata key and no header column is given twice.
 *
 * This header is the reader and the rule for cells and for names that
 * become file names.  Every lop CSV file is written with the atomic writer
 * (csv_writer.h) into a run's output directory (outdir.h), and its cells
 * are read as numbers by number.h; all three are included here, so a
 * format's code includes csv.h alone.
 */
#ifndef LOP_CSV_H
#define LOP_CSV_H

#include <stdio.h>

#include "csv_writer.h"
#include "lop.h"
#include "number.h"
#include "outdir.h"

/* ---- cells ---- */

/* Does 's' read back as the same cell?  No comma, no control byte (a line
 * break would split the row) and no space at either end (readers trim). */
int lop_csv_cell_ok(const char *s);
/* The rule in words, for messages. */
extern const char lop_csv_cell_rule[];

/* ---- names that become parts of file names ---- */

#define LOP_NAME_MAX 63 /* longest name */
/* A buffer that holds any name, its NUL included: the one size of every
 * series field (a name that fits in it follows the rule's length). */
#define LOP_NAME_SIZE (LOP_NAME_MAX + 1)

/* The one rule for every name read from a file or an option that ends up in
 * a file name (a series, a schedule's name): 1..LOP_NAME_MAX letters,
 * digits, '.', '_' or '-', not starting with '.' or '-' (so never "..", a
 * hidden file or an option).  Returns 1 if 'name' follows it. */
int lop_name_ok(const char *name);
/* The rule in words, for messages: "must be ..." */
extern const char lop_name_rule[];

/* ---- reading ---- */

typedef struct {
    char *key;   /* metadata key, without "# " and ":" */
    char *value; /* the rest of the line, trimmed */
    size_t line; /* 1-based line number in the file */
} lop_csv_meta_t;

typedef struct {
    char *path;             /* file name, for error messages */
    lop_csv_meta_t *meta;   /* metadata lines in file order */
    size_t n_meta;
    char **columns;         /* header cells */
    size_t n_columns;
    size_t header_line;     /* 1-based line number of the header row */
    char ***cells;          /* cells[row][column] */
    size_t *line;           /* line[row]: 1-based line number in the file */
    size_t n_rows;
} lop_csv_t;

/* Longest line a reader accepts (README "Limits"); a longer one is an error. */
#define LOP_CSV_MAX_LINE 65536

/* Read a whole file, opened by lop_input_open() (outdir.h: a regular file,
 * not marked incomplete).  Errors are "file:line: what is wrong".  A UTF-8
 * byte order mark at the start is skipped.  A metadata key or a header
 * column given twice is refused: every reader looks names up by the first,
 * so the second would be read by nobody and the file mean two things at
 * once. */
lop_status_t lop_csv_read(const char *path, lop_csv_t **out);
void lop_csv_free(lop_csv_t *csv);

/* Metadata value for 'key', or NULL. */
const char *lop_csv_meta_get(const lop_csv_t *csv, const char *key);

/* Index of a column; LOP_ERR_PARSE "file:line: no column 'x'" (the header's line) if absent. */
lop_status_t lop_csv_column(const lop_csv_t *csv, const char *name, size_t *index);

/* A cell as a finite number; "file:line: column 'x': 'abc' is not a number". */
lop_status_t lop_csv_number(const lop_csv_t *csv, size_t row, size_t column, double *value);

/* A cell as a whole number in min..max (checked before any conversion);
 * "file:line: column 'x': '1e20' is not a whole number in 0..100". */
lop_status_t lop_csv_integer(const lop_csv_t *csv, size_t row, size_t column, long min, long max,
                             long *value);

#endif
