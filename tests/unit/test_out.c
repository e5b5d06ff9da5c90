/* The output layer (src/out.h): exact CSV numbers, cells never cut, write
 * errors reported ("never silently wrong"); the helpers beside it (lists,
 * casts, errors). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "out.h"
#include "tap.h"

/* Every double the CSV writer prints reads back to the same bits. */
static void round_trips(void)
{
    const double v[] = {1e308,   -1e308,  1e-308,     -1e-308, 4.9e-324, 1.7976931348623157e308,
                        -0.0,    0.0,     0.1,        1.0 / 3, 43.25192462652605,
                        -4.396520486243513e+46,       INFINITY, -INFINITY};
    for (size_t i = 0; i < COUNT(v); i++) {
        char buf[LOP_OUT_NUM_LEN];
        lop_out_format_csv(buf, v[i]);
        double back = strtod(buf, NULL);
        ok(memcmp(&back, &v[i], sizeof back) == 0, "CSV number %s reads back bit for bit", buf);
    }
    char buf[LOP_OUT_NUM_LEN];
    ok(strcmp(lop_out_format_csv(buf, 0.1), "0.1") == 0, "0.1 is printed as 0.1 (shortest)");
    ok(strcmp(lop_out_format_csv(buf, NAN), "") == 0, "NaN (unknown) is an empty cell");
    ok(strcmp(lop_out_format_csv(buf, -0.0), "-0") == 0, "-0 keeps its sign");
}

/* A table into a memory stream; returns its text (free it). */
static char *table_text(int csv, double v, const char *name, lop_status_t *st)
{
    static const lop_out_col_t cols[] = {
        {"alg", LOP_OUT_STR, 0}, {"p", LOP_OUT_INT, 0}, {"us", LOP_OUT_NUM, 0}};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    lop_out_t t;
    *st = lop_out_begin(&t, f, "memory", csv, cols, 3);
    lop_out_str(&t, name);
    lop_out_int(&t, 123456789012345LL);
    lop_out_num(&t, v);
    *st = *st ? *st : lop_out_row(&t);
    lop_status_t end = lop_out_end(&t);
    *st = *st ? *st : end;
    fclose(f);
    return text;
}

static void no_cut_cells(void)
{
    char name[200];
    lop_status_t st;
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    char *text = table_text(1, -4.396520486243513e+46, name, &st);
    ok(st == LOP_OK && strstr(text, "\n") && strstr(text, ",123456789012345,-4.396520486243513e+46\n"),
       "CSV: a 199-byte name, a 15-digit integer and -4.4e46 come out whole");
    ok(strlen(text) > 199, "CSV: the long name is not cut");
    free(text);
    text = table_text(0, -4.396520486243513e+46, "diss", &st);
    ok(st == LOP_OK && strstr(text, "-4.39652e+46") && strstr(text, "123456789012345"),
       "table: a huge value in %%g form, integers whole");
    free(text);
    text = table_text(0, 2.5, "diss", &st);
    ok(st == LOP_OK && strstr(text, "alg  ") == text && strstr(text, " 2.5000\n"),
       "table: widths from the cells, 4 decimals for people");
    free(text);
    /* 4 decimals would cut 3.469e-05 to 0.0000: a number shown as zero */
    static const struct {
        double v;
        const char *shown;
    } small[] = {{3.469e-05, " 3.469e-05\n"}, {0.00034690000000000003, " 0.0003469\n"},
                 {-0.02471, " -0.02471\n"},   {0.1234, " 0.1234\n"},
                 {-0.0, " 0.0000\n"},         {1e-300, " 1.000e-300\n"}};
    for (size_t i = 0; i < COUNT(small); i++) {
        text = table_text(0, small[i].v, "diss", &st);
        ok(st == LOP_OK && strstr(text, small[i].shown),
           "table: %g keeps 4 significant digits (a non-zero value never shows as 0)",
           small[i].v);
        free(text);
    }
}

/* The next RFC 4180 field of a CSV line at *at into 'out' (len bytes). */
static int csv_field(const char **at, char *out, size_t len)
{
    const char *c = *at;
    size_t n = 0;
    int quoted = *c == '"';
    for (c += quoted; *c && (quoted || (*c != ',' && *c != '\n')); c++) {
        if (quoted && *c == '"' && c[1] != '"') {
            quoted = 0; /* the closing quote */
            continue;
        }
        c += quoted && *c == '"'; /* "" is one quote */
        if (n + 1 < len)
            out[n++] = *c;
    }
    out[n] = '\0';
    *at = *c == ',' ? c + 1 : c;
    return *c == ',';
}

/* Text cells with commas and quotes read back from CSV as they were written
 * (lopredict --hybrid-report's "node:nwise(n=3,full)"); plain ones unquoted. */
static void text_cells(void)
{
    static const lop_out_col_t cols[] = {
        {"hybrid", LOP_OUT_STR, 0}, {"p", LOP_OUT_INT, 0}, {"note", LOP_OUT_STR, 0},
        {"plain", LOP_OUT_STR, 0}};
    const char *cell[] = {"node:nwise(n=3,full) socket:cc", "", "say \"a, b\"", "core:tour"};
    char *text = NULL, field[64];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    lop_out_t t;
    lop_status_t st = lop_out_begin(&t, f, "memory", 1, cols, 4);
    lop_out_str(&t, cell[0]);
    lop_out_int(&t, 64);
    lop_out_str(&t, cell[2]);
    lop_out_str(&t, cell[3]);
    st = st ? st : lop_out_row(&t);
    lop_status_t end = lop_out_end(&t);
    fclose(f);
    const char *at = strchr(text, '\n') + 1;
    int fields = 0, same = 1;
    for (int more = 1; more && fields < 4; fields++) {
        more = csv_field(&at, field, sizeof field);
        same &= fields == 1 ? strcmp(field, "64") == 0 : strcmp(field, cell[fields]) == 0;
    }
    ok(st == LOP_OK && end == LOP_OK && fields == 4 && same && *at == '\n',
       "CSV text cells with a comma and quotes read back as 4 fields, unchanged: %s", text);
    ok(strstr(text, ",core:tour\n") != NULL, "a text without a comma or quote is not quoted");
    free(text);
}

/* A text cell stays one cell on one line, in CSV and in the table: control
 * bytes as \xNN (lopfit --csv printed a path's newline raw and split the row). */
static void control_cells(void)
{
    static const lop_out_col_t cols[] = {{"file", LOP_OUT_STR, 0}, {"p", LOP_OUT_INT, 0}};
    for (int csv = 1; csv >= 0; csv--) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        lop_out_t t;
        lop_status_t st = lop_out_begin(&t, f, "memory", csv, cols, 2);
        lop_out_str(&t, "a\nb\tc\x7f,d");
        lop_out_int(&t, 1);
        st = st ? st : lop_out_row(&t);
        lop_status_t end = lop_out_end(&t);
        fclose(f);
        const char *want = csv ? "file,p\n\"a\\x0ab\\x09c\\x7f,d\",1\n"
                               : "\na\\x0ab\\x09c\\x7f,d 1\n";
        ok(st == LOP_OK && end == LOP_OK && strstr(text, want) != NULL,
           "%s: control bytes as \\xNN, the cell on one line", csv ? "CSV" : "table");
        free(text);
    }
}

static void write_errors(void)
{
    static const lop_out_col_t cols[] = {{"p", LOP_OUT_INT, 0}};
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        ok(1, "# SKIP no /dev/full");
        return;
    }
    lop_out_t t;
    lop_status_t st = lop_out_begin(&t, full, "/dev/full", 1, cols, 1);
    for (int i = 0; i < 10 && st == LOP_OK; i++) {
        lop_out_int(&t, i);
        st = lop_out_row(&t);
    }
    st = lop_out_end(&t);
    ok(st == LOP_ERR_IO && strstr(lop_errmsg(), "error writing /dev/full: No space left"),
       "a write to a full device is an error naming it (%s)", lop_errmsg());
    fclose(full);
}

static void lists(void)
{
    long *v = NULL;
    size_t n = 0;
    char item[200];
    memset(item, '0', 62);
    strcpy(item + 62, "2..64");
    lop_status_t st = lop_cli_long_list("p", item, 1, 100, &v, &n);
    ok(st == LOP_OK && n == 63 && v[62] == 64, "a 67-character item is read whole (%zu values)",
       n);
    free(v);
    ok(lop_cli_long_list("p", "1..20000000", 1, 2147483647L, &v, &n) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "option --p: list longer than 1000000 values"),
       "a list beyond the limit is refused before it is made: %s", lop_errmsg());
    ok(lop_cli_long_list("p", "2,,4", 1, 100, &v, &n) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "empty item"),
       "an empty item is an error, not skipped");
}

static void casts_and_messages(void)
{
    long l = 7;
    ok(!lop_double_to_long(1e20, 0, 1000, &l) && l == 7, "1e20 is not a long in 0..1000");
    ok(!lop_double_to_long(4294967298.0, 0, 1000000, &l), "4294967298 is not in 0..1e6");
    ok(!lop_double_to_long(1e308, 0, 2147483647L, &l), "1e308 is refused, not converted");
    ok(!lop_double_to_long(NAN, -5, 5, &l) && !lop_double_to_long(2.5, 0, 5, &l),
       "NaN and fractions are refused");
    ok(!lop_double_to_long(9223372036854775808.0, 0, 9223372036854775807L, &l),
       "2^63 is beyond LONG_MAX");
    ok(lop_double_to_long(-3, -5, 5, &l) && l == -3, "-3 in -5..5");
    lop_err(LOP_ERR_PARSE, "f:1: '%s'", "a\033[2Jb\n");
    ok(strcmp(lop_errmsg(), "f:1: 'a\\x1b[2Jb\\x0a'") == 0, "control bytes are escaped: %s",
       lop_errmsg());
}

int main(void)
{
    round_trips();
    no_cut_cells();
    text_cells();
    control_cells();
    write_errors();
    lists();
    casts_and_messages();
    return tap_done();
}
