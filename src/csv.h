/*
 * csv.h - the CSV files every lop tool reads and writes.
 *
 * Format (README "Data formats"):
 *   # key: value          metadata lines, before the header
 *   col1,col2,...         one header row
 *   v1,v2,...             data rows, every row as many cells as the header
 * Blank lines and further '#' lines are ignored.  Cells hold no commas.
 *
 * Writing is atomic: rows go to a temporary file beside the target, which
 * lop_csv_writer_commit() renames into place, so a crash or an error never
 * leaves a half file that looks complete.  Files get the user's umask
 * (0666 & ~umask), as fopen() would give them.
 */
#ifndef LOP_CSV_H
#define LOP_CSV_H

#include <stdio.h>

#include "lop.h"

/* ---- writing ---- */

typedef struct {
    FILE *file;      /* the temporary file being written */
    char *path;      /* final name */
    char *tmp_path;  /* temporary name, renamed to 'path' on commit */
    int nomem;       /* a line could not be made: the commit fails */
} lop_csv_writer_t;

/* A writer replaces only a regular file: 'path' is refused (LOP_ERR_INVALID,
 * "PATH: exists and is a FIFO; ...") if it exists as anything else (a
 * symbolic link, a directory, a FIFO, a device, a socket), at the open and
 * again at the commit.  lop_csv_target_check() is that test alone. */
lop_status_t lop_csv_writer_open(lop_csv_writer_t *w, const char *path);
lop_status_t lop_csv_target_check(const char *path);
/* "# key: value" on 'f'; a control character in the value is written as
 * \xNN (the line stays one line, readable by every lop reader).  The one
 * writer of metadata lines: files (lop_csv_meta) and lopredict's tables. */
void lop_meta_print(FILE *f, const char *key, const char *value);
/* lop_meta_print of the formatted value into the writer's file. */
void lop_csv_meta(lop_csv_writer_t *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A header or data row, written as given plus a newline. */
void lop_csv_line(lop_csv_writer_t *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Flush, sync and rename into place. */
lop_status_t lop_csv_writer_commit(lop_csv_writer_t *w);
/* Remove the temporary file; the target is left as it was. */
void lop_csv_writer_abort(lop_csv_writer_t *w);
/* Commit when 'status' is LOP_OK, else abort; returns the outcome (the
 * commit's status, or 'status'). */
lop_status_t lop_csv_writer_end(lop_csv_writer_t *w, lop_status_t status);
/* mkdir -p for the directory output files go in: makes 'path' and its
 * missing parents.  Returns 0, or -1 with errno set and 'path' cut after the
 * directory that could not be made (for the caller's message).  What it made
 * is removed again (while empty) unless a lop_outdir_end() commits into it:
 * at a failed lop_outdir_end(), a signal or the exit. */
int lop_mkdir_p(char *path);

/* ---- cells ---- */

/* Does 's' read back as the same cell?  No comma, no control byte (a line
 * break would split the row) and no space at either end (readers trim). */
int lop_csv_cell_ok(const char *s);
/* The rule in words, for messages. */
extern const char lop_csv_cell_rule[];

/* ---- names that become parts of file names ---- */

#define LOP_NAME_MAX 63 /* longest name */

/* The one rule for every name read from a file or an option that ends up in
 * a file name (a series, a schedule's name): 1..LOP_NAME_MAX letters,
 * digits, '.', '_' or '-', not starting with '.' or '-' (so never "..", a
 * hidden file or an option).  Returns 1 if 'name' follows it. */
int lop_name_ok(const char *name);
/* The rule in words, for messages: "must be ..." */
extern const char lop_name_rule[];

/* ---- a run's output directory: all or nothing ----
 *
 * A run writes every file into a private staging directory DIR/.lop-stage.XXXXXX
 * (hidden: a glob of DIR's *.csv files never sees it) and lop_outdir_end() moves them into
 * DIR.  While they are moved, DIR/.lop-incomplete lists them; it is removed
 * when the last one is in place, so a crash in between leaves the marker.
 * lop_csv_read() refuses a file the marker lists ("an interrupted run left
 * DIR incomplete").  SIGINT, SIGTERM and SIGHUP remove the staging directory
 * and every temporary file of a writer (lop_cleanup_now()), then kill the
 * process as the signal would have; during the moves they are held back.
 */

#define LOP_OUTDIR_MARKER ".lop-incomplete"

/* The marker's rule for a reader of another format (a GOAL schedule): LOP_OK,
 * or LOP_ERR_PARSE when 'path' (or where it leads) is listed as incomplete. */
lop_status_t lop_file_complete(const char *path);

typedef struct {
    char *dir;   /* the target directory */
    char *stage; /* DIR/.lop-stage.XXXXXX: where the run's files are written */
} lop_outdir_t;

/* mkdir -p DIR and create the staging directory; "DIR: cannot ..." errors. */
lop_status_t lop_outdir_begin(lop_outdir_t *t, const char *dir);
/* lop_csv_target_check() of DIR/name: a tool checks the files it will write
 * before its work, and lop_outdir_end() checks them all before the first move. */
lop_status_t lop_outdir_target_check(const char *dir, const char *name);
/* When 'status' is LOP_OK, move every file of the stage into DIR (see above);
 * otherwise remove the stage, leaving DIR as it was.  Releases 't' either
 * way (a zeroed 't' is a no-op) and returns the outcome. */
lop_status_t lop_outdir_end(lop_outdir_t *t, lop_status_t status);

/* Remove every temporary file and staging directory this process still has,
 * with async-signal-safe calls only (for a signal handler, or before
 * MPI_Abort). */
void lop_cleanup_now(void);

/* ---- reading ---- */

typedef struct {
    char *key;   /* metadata key, without "# " and ":" */
    char *value; /* the rest of the line, trimmed */
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

/* Read a whole file.  Errors are "file:line: what is wrong".  A UTF-8 byte
 * order mark at the start is skipped. */
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

/* Parse a whole string as a finite double (no trailing junk). */
int lop_parse_double(const char *s, double *value);
/* Why lop_parse_double refused 's', as the end of a sentence after it:
 * "is not a number", "is not finite" or "underflows (...)". */
const char *lop_parse_double_why(const char *s);

#endif
