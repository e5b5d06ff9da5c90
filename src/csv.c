/* csv.c - the CSV reader, its cells and names (csv.h). */
#include "csv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ cells */

const char lop_csv_cell_rule[] = "a CSV cell holds no comma, no control character (a line "
                                 "break) and no space at either end";

int lop_csv_cell_ok(const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    return len == 0 || (!isspace((unsigned char)s[0]) && !isspace((unsigned char)s[len - 1]));
}

/* ------------------------------------------------------------------ names */

const char lop_name_rule[] = "must be 1 to 63 letters, digits, '.', '_' or '-', "
                             "not starting with '.' or '-'";

int lop_name_ok(const char *name)
{
    size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789._-");
    return len > 0 && len <= LOP_NAME_MAX && name[len] == '\0' && name[0] != '.' &&
           name[0] != '-';
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* The cell of 'line' at *at, in place: plain up to the next comma (trimmed),
 * or quoted as RFC 4180 says ("a ""b"", c" is the text a "b", c; blanks
 * around the quotes ignored).  *at moves past its comma, or becomes NULL
 * after the last cell.  NULL, with *why, for a quoted cell not closed on its
 * line or with text after its closing quote. */
static char *next_cell(char **at, const char **why)
{
    char *c = *at + strspn(*at, " \t");
    if (*c != '"') {
        char *comma = strchr(c, ',');
        if (comma)
            *comma = '\0';
        *at = comma ? comma + 1 : NULL;
        return trim(c);
    }
    char *w = c, *r = c + 1;
    for (; *r != '"' || r[1] == '"'; r++) {
        if (*r == '\0') {
            *why = "a quoted cell is not closed on its line (a line break inside a cell is "
                   "not read)";
            return NULL;
        }
        *w++ = *r;
        r += *r == '"'; /* "" is one quote */
    }
    *w = '\0';
    r += 1 + strspn(r + 1, " \t\r");
    if (*r != ',' && *r != '\0') {
        *why = "text after a quoted cell's closing quote";
        return NULL;
    }
    *at = *r ? r + 1 : NULL;
    return c;
}

/* Split a line in place into cells (next_cell); returns a new array of
 * copies. */
static lop_status_t split_cells(const lop_csv_t *csv, size_t lineno, char *line, char ***cells,
                                size_t *n)
{
    size_t most = 1, count = 0;
    for (char *c = line; *c; c++)
        most += *c == ',';
    char **out = lop_calloc(most, sizeof *out);
    if (!out)
        return LOP_ERR_NOMEM;
    lop_status_t st = LOP_OK;
    for (char *at = line; at && st == LOP_OK; count++) {
        const char *why = NULL;
        char *cell = next_cell(&at, &why);
        st = !cell ? lop_err(LOP_ERR_PARSE, "%s:%zu: cell %zu: %s", csv->path, lineno,
                             count + 1, why)
                   : (out[count] = lop_strdup(cell)) ? LOP_OK : LOP_ERR_NOMEM;
    }
    if (st) {
        for (size_t j = 0; j < count; j++)
            free(out[j]);
        free(out);
        return st;
    }
    *cells = out;
    *n = count;
    return LOP_OK;
}

static void free_cells(char **cells, size_t n)
{
    for (size_t i = 0; i < n && cells; i++)
        free(cells[i]);
    free(cells);
}

static lop_status_t add_meta(lop_csv_t *csv, size_t lineno, char *text)
{
    char *colon = strchr(text, ':');
    if (!colon)
        return LOP_OK; /* a plain comment */
    *colon = '\0';
    lop_csv_meta_t *m = lop_realloc_array(csv->meta, csv->n_meta + 1, sizeof *m);
    if (!m)
        return LOP_ERR_NOMEM;
    csv->meta = m;
    m[csv->n_meta].key = lop_strdup(trim(text));
    m[csv->n_meta].value = lop_strdup(trim(colon + 1));
    m[csv->n_meta].line = lineno;
    csv->n_meta++;
    return m[csv->n_meta - 1].key && m[csv->n_meta - 1].value ? LOP_OK : LOP_ERR_NOMEM;
}

typedef struct {
    const char *name;
    size_t index;
} named_t;

static int named_cmp(const void *a, const void *b)
{
    const named_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The earliest name in 'names' that repeats one before it: 1, its index in
 * *again and the first occurrence's in *first; 0 if all differ.  Sorted, not
 * compared pairwise: a file may have very many metadata lines. */
static int find_repeat(named_t *names, size_t n, size_t *first, size_t *again)
{
    int found = 0;
    qsort(names, n, sizeof *names, named_cmp);
    for (size_t i = 1; i < n; i++) /* sorted by name, then index: a run starts at its first */
        if (strcmp(names[i - 1].name, names[i].name) == 0 &&
            (i < 2 || strcmp(names[i - 2].name, names[i].name) != 0) &&
            (!found || names[i].index < *again)) {
            *first = names[i - 1].index;
            *again = names[i].index;
            found = 1;
        }
    return found;
}

/* A metadata key or a header column given twice: every reader looks names
 * up by the first, so the second would be read by nobody and the file say
 * two things at once.  Checked at the header, where the metadata ends. */
static lop_status_t refuse_repeats(const lop_csv_t *csv)
{
    size_t most = csv->n_meta > csv->n_columns ? csv->n_meta : csv->n_columns;
    named_t *names = lop_calloc(most ? most : 1, sizeof *names);
    if (!names)
        return LOP_ERR_NOMEM;
    size_t first = 0, again = 0;
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < csv->n_meta; i++)
        names[i] = (named_t){csv->meta[i].key, i};
    if (find_repeat(names, csv->n_meta, &first, &again))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: metadata key '%s' given twice (first on line %zu)",
                     csv->path, csv->meta[again].line, csv->meta[again].key,
                     csv->meta[first].line);
    for (size_t i = 0; i < csv->n_columns && st == LOP_OK; i++)
        names[i] = (named_t){csv->columns[i], i};
    if (st == LOP_OK && find_repeat(names, csv->n_columns, &first, &again))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s' given twice (columns %zu and %zu)",
                     csv->path, csv->header_line, csv->columns[again], first + 1, again + 1);
    free(names);
    return st;
}

static lop_status_t add_row(lop_csv_t *csv, size_t lineno, char *text)
{
    char **cells;
    size_t n;
    lop_status_t st = split_cells(csv, lineno, text, &cells, &n);
    if (st != LOP_OK)
        return st;
    if (!csv->columns) {
        csv->columns = cells;
        csv->n_columns = n;
        csv->header_line = lineno;
        for (size_t i = 0; i < n; i++)
            if (cells[i][0] == '\0')
                return lop_err(LOP_ERR_PARSE, "%s:%zu: header column %zu is empty", csv->path,
                               lineno, i + 1);
        return refuse_repeats(csv);
    }
    if (n != csv->n_columns) {
        free_cells(cells, n);
        return lop_err(LOP_ERR_PARSE, "%s:%zu: expected %zu fields, found %zu", csv->path, lineno,
                       csv->n_columns, n);
    }
    char ***rows = lop_realloc_array(csv->cells, csv->n_rows + 1, sizeof *rows);
    size_t *lines = rows ? lop_realloc_array(csv->line, csv->n_rows + 1, sizeof *lines) : NULL;
    if (rows)
        csv->cells = rows;
    if (!lines) {
        free_cells(cells, n);
        return LOP_ERR_NOMEM;
    }
    csv->line = lines;
    csv->cells[csv->n_rows] = cells;
    csv->line[csv->n_rows] = lineno;
    csv->n_rows++;
    return LOP_OK;
}

/* One line into 'buf' (LOP_CSV_MAX_LINE + 1 bytes), without its newline:
 * 1 read, 0 end of file, or an error for an over-long line or a NUL byte.
 * Bounded, unlike getline(): /dev/zero or a file without newlines stops
 * after LOP_CSV_MAX_LINE bytes instead of filling memory. */
static lop_status_t read_line(lop_csv_t *csv, FILE *f, size_t lineno, char *buf, int *got)
{
    size_t len = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if (c == '\0')
            return lop_err(LOP_ERR_PARSE, "%s:%zu: contains a NUL byte", csv->path, lineno);
        if (len == LOP_CSV_MAX_LINE)
            return lop_err(LOP_ERR_PARSE, "%s:%zu: line longer than %d bytes", csv->path,
                           lineno, LOP_CSV_MAX_LINE);
        buf[len++] = (char)c;
    }
    buf[len] = '\0';
    *got = c != EOF || len > 0;
    return LOP_OK;
}

static lop_status_t parse_stream(lop_csv_t *csv, FILE *f)
{
    static const char bom[] = "\xef\xbb\xbf"; /* UTF-8 byte order mark: not part of line 1 */
    char *line = lop_calloc(LOP_CSV_MAX_LINE + 1, 1);
    size_t lineno = 0;
    int got = 0;
    lop_status_t st = line ? LOP_OK : LOP_ERR_NOMEM;
    while (st == LOP_OK && (st = read_line(csv, f, lineno + 1, line, &got)) == LOP_OK && got) {
        lineno++;
        char *text = lineno == 1 && strncmp(line, bom, 3) == 0 ? trim(line + 3) : trim(line);
        if (*text == '\0')
            continue;
        if (*text == '#')
            st = csv->columns ? LOP_OK : add_meta(csv, lineno, text + 1);
        else
            st = add_row(csv, lineno, text);
    }
    int read_errno = errno; /* getc's reason, before free() */
    free(line);
    if (st == LOP_OK && ferror(f))
        st = lop_err(LOP_ERR_IO, "%s: read error: %s", csv->path, strerror(read_errno));
    if (st == LOP_OK && !csv->columns && lineno == 0)
        st = lop_err(LOP_ERR_PARSE, "%s: empty file", csv->path);
    if (st == LOP_OK && !csv->columns)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: no header row", csv->path, lineno);
    return st;
}

lop_status_t lop_csv_read(const char *path, lop_csv_t **out)
{
    FILE *f = NULL;
    lop_status_t st = lop_input_open(path, &f);
    if (st != LOP_OK)
        return st;
    lop_csv_t *csv = lop_calloc(1, sizeof *csv);
    if (csv)
        csv->path = lop_strdup(path);
    if (!csv || !csv->path) {
        free(csv);
        fclose(f);
        return LOP_ERR_NOMEM;
    }
    st = parse_stream(csv, f);
    fclose(f);
    if (st != LOP_OK) {
        lop_csv_free(csv);
        return st;
    }
    *out = csv;
    return LOP_OK;
}

void lop_csv_free(lop_csv_t *csv)
{
    if (!csv)
        return;
    for (size_t i = 0; i < csv->n_meta; i++) {
        free(csv->meta[i].key);
        free(csv->meta[i].value);
    }
    free(csv->meta);
    free_cells(csv->columns, csv->n_columns);
    for (size_t r = 0; r < csv->n_rows; r++)
        free_cells(csv->cells[r], csv->n_columns);
    free(csv->cells);
    free(csv->line);
    free(csv->path);
    free(csv);
}

const char *lop_csv_meta_get(const lop_csv_t *csv, const char *key)
{
    for (size_t i = 0; i < csv->n_meta; i++)
        if (strcmp(csv->meta[i].key, key) == 0)
            return csv->meta[i].value;
    return NULL;
}

lop_status_t lop_csv_column(const lop_csv_t *csv, const char *name, size_t *index)
{
    for (size_t i = 0; i < csv->n_columns; i++) {
        if (strcmp(csv->columns[i], name) == 0) {
            *index = i;
            return LOP_OK;
        }
    }
    return lop_err(LOP_ERR_PARSE, "%s:%zu: no column '%s'", csv->path, csv->header_line, name);
}

lop_status_t lop_csv_number(const lop_csv_t *csv, size_t row, size_t column, double *value)
{
    const char *cell = csv->cells[row][column];
    if (!lop_parse_double(cell, value))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': '%s' %s", csv->path,
                       csv->line[row], csv->columns[column], cell, lop_parse_double_why(cell));
    return LOP_OK;
}

lop_status_t lop_csv_integer(const lop_csv_t *csv, size_t row, size_t column, long min, long max,
                             long *value)
{
    double v;
    lop_status_t st = lop_csv_number(csv, row, column, &v);
    if (st == LOP_OK && !lop_double_to_long(v, min, max, value))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': '%s' is not a whole number in %ld..%ld",
                     csv->path, csv->line[row], csv->columns[column], csv->cells[row][column],
                     min, max);
    return st;
}
