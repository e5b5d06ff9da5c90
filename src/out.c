/* out.c - typed tables as CSV or aligned text, every write checked (out.h). */
#include "out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- numbers */

const char *lop_out_format_csv(char *buf, double v)
{
    if (isnan(v))
        buf[0] = '\0';
    else if (isinf(v))
        strcpy(buf, v < 0 ? "-inf" : "inf");
    else
        for (int digits = 15; digits <= 17; digits++) { /* 17 always reads back */
            snprintf(buf, LOP_OUT_NUM_LEN, "%.*g", digits, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    return buf;
}

/* A number for people: 'decimals' after the point, and below 0.1, where
 * that would leave fewer significant digits, 'decimals' significant digits
 * (0.0003469 with 4; %e form below 1e-4: 3.469e-05), so a non-zero value
 * never shows as 0; %g form where the fixed form would be long (never a cut
 * string). */
static void format_table_num(char *buf, double v, int decimals)
{
    int exponent = v != 0 && isfinite(v) ? (int)floor(log10(fabs(v))) : 0;
    if (isnan(v))
        strcpy(buf, "-");
    else if (isinf(v))
        strcpy(buf, v < 0 ? "-inf" : "inf");
    else if (fabs(v) >= 1e9)
        snprintf(buf, LOP_OUT_NUM_LEN, "%.6g", v);
    else if (v == 0 || exponent >= -1)
        snprintf(buf, LOP_OUT_NUM_LEN, "%.*f", decimals, v == 0 ? 0.0 : v); /* no "-0.0000" */
    else if (exponent >= -4)
        snprintf(buf, LOP_OUT_NUM_LEN, "%.*f", decimals - 1 - exponent, v);
    else
        snprintf(buf, LOP_OUT_NUM_LEN, "%.*e", decimals - 1, v);
}

/* ------------------------------------------------------------------ writes */

/* The first write error on stdout, for lop_stdout_close()'s message: by the
 * time stdout is closed, errno may no longer say what went wrong. */
static int stdout_errnum;

static void fail_write(lop_out_t *t)
{
    if (!t->errnum)
        t->errnum = errno ? errno : EIO;
    if (t->file == stdout && !stdout_errnum)
        stdout_errnum = t->errnum;
}

static void flush_held(lop_out_t *t);

static void put(lop_out_t *t, const char *s)
{
    if (fputs(s, t->file) == EOF)
        fail_write(t);
}

static void put_padded(lop_out_t *t, const char *s, size_t width, int left)
{
    if (fprintf(t->file, left ? "%-*s" : "%*s", (int)width, s) < 0)
        fail_write(t);
}

static char **row_cells(lop_out_t *t, size_t row)
{
    return t->cell + row * t->n_col;
}

static void free_held(lop_out_t *t)
{
    for (size_t i = 0; i < t->n_row * t->n_col; i++) {
        free(t->cell[i]);
        t->cell[i] = NULL;
    }
    t->n_row = 0;
    t->n_set = 0;
}

static void write_csv_row(lop_out_t *t, char *const *cells)
{
    for (size_t c = 0; c < t->n_col; c++) {
        if (c)
            put(t, ",");
        put(t, cells[c]);
    }
    put(t, "\n");
}

/* One aligned row: the first column and text columns left, numbers right. */
static void write_table_row(lop_out_t *t, char *const *cells)
{
    for (size_t c = 0; c < t->n_col; c++) {
        int left = c == 0 || t->col[c].kind == LOP_OUT_STR;
        int last = c + 1 == t->n_col;
        put_padded(t, cells[c][0] ? cells[c] : "-", last && left ? 0 : t->width[c], left);
        put(t, last ? "\n" : " ");
    }
}

static void widen(lop_out_t *t, char *const *cells)
{
    for (size_t c = 0; c < t->n_col; c++) {
        size_t len = strlen(cells[c][0] ? cells[c] : "-");
        if (len > t->width[c])
            t->width[c] = len;
    }
}

/* Write the held, finished rows (the aligned table's header with the first block). */
static void flush_held(lop_out_t *t)
{
    if (!t->csv) {
        for (size_t r = 0; r < t->n_row; r++)
            widen(t, row_cells(t, r));
        if (!t->header_done) {
            char **names = lop_calloc(t->n_col, sizeof *names);
            if (!names) {
                t->status = LOP_ERR_NOMEM;
                return;
            }
            for (size_t c = 0; c < t->n_col; c++)
                names[c] = (char *)t->col[c].name;
            write_table_row(t, names);
            free(names);
            t->header_done = 1;
        }
    }
    for (size_t r = 0; r < t->n_row; r++)
        (t->csv ? write_csv_row : write_table_row)(t, row_cells(t, r));
    free_held(t);
}

/* ------------------------------------------------------------------ tables */

lop_status_t lop_out_begin(lop_out_t *t, FILE *file, const char *what, int csv,
                           const lop_out_col_t *col, size_t n_col)
{
    *t = (lop_out_t){.file = file, .what = what, .csv = csv, .col = col, .n_col = n_col};
    size_t rows = csv ? 1 : LOP_OUT_BLOCK;
    t->width = lop_calloc(n_col, sizeof *t->width);
    t->cell = lop_calloc(rows * n_col, sizeof *t->cell);
    if (!t->width || !t->cell) {
        free(t->width);
        free(t->cell);
        return LOP_ERR_NOMEM;
    }
    for (size_t c = 0; c < n_col; c++)
        t->width[c] = strlen(col[c].name);
    if (csv)
        for (size_t c = 0; c < n_col; c++) {
            put(t, c ? "," : "");
            put(t, col[c].name);
        }
    if (csv)
        put(t, "\n");
    t->header_done = csv;
    return LOP_OK;
}

/* Store the next cell; a failed allocation is kept and reported at the end. */
static void set_cell(lop_out_t *t, const char *text)
{
    if (t->status || t->n_set >= t->n_col)
        return;
    char *copy = lop_strdup(text);
    if (!copy) {
        t->status = LOP_ERR_NOMEM;
        return;
    }
    row_cells(t, t->n_row)[t->n_set++] = copy;
}

/* Text as one cell: a control byte as \xNN, so that the cell stays on its
 * line (README, "Data formats"), and in CSV a cell holding a comma or a
 * quote quoted as RFC 4180 says, its quotes doubled (a path in lopfit's
 * file column, lopredict --hybrid-report's "nwise(n=3,full)"). */
void lop_out_str(lop_out_t *t, const char *s)
{
    size_t len = strlen(s), extra = 0;
    for (const char *c = s; *c; c++)
        extra += (unsigned char)*c < 0x20 || *c == 0x7f ? 3 : *c == '"';
    int quote = t->csv && strpbrk(s, ",\"");
    if (!extra && !quote) {
        set_cell(t, s);
        return;
    }
    char *cell = lop_calloc(len + extra + 3, 1), *w = cell;
    if (!cell) {
        t->status = t->status ? t->status : LOP_ERR_NOMEM;
        return;
    }
    if (quote)
        *w++ = '"';
    for (const char *c = s; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            w += sprintf(w, "\\x%02x", (unsigned char)*c);
        else {
            if (*c == '"' && quote)
                *w++ = '"'; /* a quote inside is doubled */
            *w++ = *c;
        }
    }
    if (quote)
        *w = '"';
    set_cell(t, cell);
    free(cell);
}

void lop_out_int(lop_out_t *t, long long v)
{
    char buf[LOP_OUT_NUM_LEN];
    snprintf(buf, sizeof buf, "%lld", v);
    set_cell(t, buf);
}

void lop_out_num(lop_out_t *t, double v)
{
    char buf[LOP_OUT_NUM_LEN];
    const lop_out_col_t *c = &t->col[t->n_set < t->n_col ? t->n_set : 0];
    int decimals = c->decimals ? c->decimals : 4;
    if (t->csv || isnan(v))
        lop_out_format_csv(buf, v);
    else if (c->kind == LOP_OUT_PCT && isfinite(v) && fabs(v) < 1e7)
        snprintf(buf, sizeof buf, "%+.0f%%", 100 * v);
    else
        format_table_num(buf, v, decimals);
    set_cell(t, buf);
}

void lop_out_empty(lop_out_t *t)
{
    set_cell(t, "");
}

lop_status_t lop_out_row(lop_out_t *t)
{
    if (t->status)
        return t->status;
    while (t->n_set < t->n_col) /* a row never comes out short */
        lop_out_empty(t);
    t->n_row++;
    t->n_set = 0;
    if (t->csv || t->n_row == LOP_OUT_BLOCK)
        flush_held(t);
    return t->status;
}

lop_status_t lop_out_comment(lop_out_t *t, const char *fmt, ...)
{
    va_list ap;
    if (t->n_row)
        flush_held(t);
    put(t, "# ");
    va_start(ap, fmt);
    if (vfprintf(t->file, fmt, ap) < 0)
        fail_write(t);
    va_end(ap);
    put(t, "\n");
    return t->status;
}

lop_status_t lop_out_end(lop_out_t *t)
{
    /* an unfinished row (an error midway) is dropped, not padded */
    for (size_t c = 0; c < t->n_set; c++) {
        free(row_cells(t, t->n_row)[c]);
        row_cells(t, t->n_row)[c] = NULL;
    }
    t->n_set = 0;
    if (t->status == LOP_OK && (t->n_row || !t->header_done))
        flush_held(t);
    free_held(t);
    free(t->cell);
    free(t->width);
    t->cell = NULL;
    t->width = NULL;
    if (t->status == LOP_OK && (t->errnum || fflush(t->file) != 0 || ferror(t->file)))
        t->status = lop_err(LOP_ERR_IO, "error writing %s: %s", t->what,
                            strerror(t->errnum ? t->errnum : errno ? errno : EIO));
    return t->status;
}

/* ------------------------------------------------------------------ stdout */

lop_status_t lop_stdout_check(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout) && !stdout_errnum)
        return LOP_OK;
    int err = stdout_errnum ? stdout_errnum : errno ? errno : EIO;
    return lop_err(LOP_ERR_IO, "error writing standard output: %s", strerror(err));
}

int lop_stdout_close(const char *prog, int quiet)
{
    errno = 0;
    int failed = fflush(stdout) != 0;
    int err = stdout_errnum ? stdout_errnum : errno;
    failed |= ferror(stdout) != 0;
    failed |= fclose(stdout) != 0;
    if (!err)
        err = errno ? errno : EIO;
    if (failed && !quiet)
        fprintf(stderr, "%s: error writing standard output: %s\n", prog, strerror(err));
    return failed;
}
