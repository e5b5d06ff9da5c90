/* CSV: atomic round trip, metadata, and each malformed-input message. */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "fixture.h"
#include "tap.h"

static int count_files(void)
{
    int n = 0;
    DIR *d = opendir(fixture_dir);
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Reading 'text' fails, and the message contains 'want'. */
static void expect_error(const char *label, const char *text, const char *want)
{
    lop_csv_t *csv = NULL;
    fixture_file_write("bad.csv", text);
    lop_status_t st = lop_csv_read(fixture_path("bad.csv"), &csv);
    ok(st != LOP_OK && strstr(lop_errmsg(), want) != NULL, "%s -> '%s'", label, lop_errmsg());
    if (st == LOP_OK)
        lop_csv_free(csv);
}

static void round_trip(void)
{
    lop_csv_writer_t w;
    ok(lop_csv_writer_open(&w, fixture_path("a.csv")) == LOP_OK, "open writer");
    lop_csv_meta(&w, "quantity", "%s", "rtt");
    lop_csv_meta(&w, "unit", "us");
    lop_csv_line(&w, "p,min_us");
    lop_csv_line(&w, "%d,%.3f", 1, 2.5);
    lop_csv_line(&w, "%d,%.3f", 2, 3.25);
    ok(access(fixture_path("a.csv"), F_OK) != 0, "target does not exist before commit");
    ok(lop_csv_writer_commit(&w) == LOP_OK, "commit");
    ok(count_files() == 1, "no temporary file left after commit");

    lop_csv_t *csv;
    ok(lop_csv_read(fixture_path("a.csv"), &csv) == LOP_OK, "read back");
    ok(csv->n_rows == 2 && csv->n_columns == 2, "2 rows x 2 columns");
    const char *q = lop_csv_meta_get(csv, "quantity");
    ok(q && strcmp(q, "rtt") == 0, "metadata quantity = rtt");
    ok(lop_csv_meta_get(csv, "nothing") == NULL, "absent metadata is NULL");
    size_t col;
    double v;
    ok(lop_csv_column(csv, "min_us", &col) == LOP_OK && col == 1, "column lookup");
    ok(lop_csv_number(csv, 1, col, &v) == LOP_OK && v == 3.25, "number in row 2");
    ok(csv->line[1] == 5, "row 2 is line 5");
    ok(lop_csv_column(csv, "max_us", &col) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "no column 'max_us'"),
       "missing column named: %s", lop_errmsg());
    lop_csv_free(csv);

    ok(lop_csv_writer_open(&w, fixture_path("b.csv")) == LOP_OK, "open second writer");
    lop_csv_line(&w, "half");
    lop_csv_writer_abort(&w);
    ok(access(fixture_path("b.csv"), F_OK) != 0 && count_files() == 1, "abort leaves nothing");
    ok(lop_csv_writer_open(&w, "/nonexistent-dir/x.csv") == LOP_ERR_IO &&
           strstr(lop_errmsg(), "/nonexistent-dir/x.csv"),
       "unwritable directory named: %s", lop_errmsg());
}

static void malformed(void)
{
    char want[600];
    expect_error("empty file", "", ": empty file");
    expect_error("only metadata", "# a: b\n", "no header row");
    snprintf(want, sizeof want, "%s:3: expected 2 fields, found 3", fixture_path("bad.csv"));
    expect_error("extra field", "p,v\n1,2\n3,4,5\n", want);
    snprintf(want, sizeof want, "%s:2: expected 2 fields, found 1", fixture_path("bad.csv"));
    expect_error("missing field", "p,v\n1\n", want);
    expect_error("empty header cell", "p,,v\n", "header column 2 is empty");

    lop_csv_t *csv;
    fixture_file_write("num.csv", "# unit: us\np,v\n1,abc\n2,nan\n3,inf\n4, 5 \n5,\n");
    ok(lop_csv_read(fixture_path("num.csv"), &csv) == LOP_OK,
       "numbers file reads (cells are text)");
    double v;
    snprintf(want, sizeof want, "%s:3: column 'v': 'abc' is not a number",
             fixture_path("num.csv"));
    ok(lop_csv_number(csv, 0, 1, &v) == LOP_ERR_PARSE && strcmp(lop_errmsg(), want) == 0,
       "non-numeric cell: %s", lop_errmsg());
    ok(lop_csv_number(csv, 1, 1, &v) == LOP_ERR_PARSE && strstr(lop_errmsg(), ":4:"),
       "NaN cell rejected at line 4");
    ok(lop_csv_number(csv, 2, 1, &v) == LOP_ERR_PARSE && strstr(lop_errmsg(), ":5:"),
       "inf cell rejected at line 5");
    ok(lop_csv_number(csv, 3, 1, &v) == LOP_OK && v == 5, "spaces around a number are fine");
    ok(lop_csv_number(csv, 4, 1, &v) == LOP_ERR_PARSE, "empty cell is not a number");
    lop_csv_free(csv);
    ok(lop_csv_read(fixture_path("missing.csv"), &csv) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "missing.csv: cannot open"),
       "missing file: %s", lop_errmsg());
}

/* A name given twice is refused where the second one is, naming the first:
 * every reader takes the first, so the second would be silently ignored. */
static void repeats(void)
{
    char want[600];
    snprintf(want, sizeof want, "%s:4: metadata key 'p' given twice (first on line 2)",
             fixture_path("bad.csv"));
    expect_error("a metadata key twice", "# quantity: rtt\n# p: 4\n# unit: us\n#p : 8\ni,j\n",
                 want);
    snprintf(want, sizeof want, "%s:3: metadata key 'b' given twice (first on line 2)",
             fixture_path("bad.csv"));
    expect_error("the earliest repeat is named", "# c: 1\n# b: 1\n# b: 2\n# c: 3\np\n", want);
    snprintf(want, sizeof want, "%s:2: column 'min_us' given twice (columns 2 and 4)",
             fixture_path("bad.csv"));
    expect_error("a column twice", "# unit: us\np,min_us,n,min_us\n1,2,3,4\n", want);
    expect_error("the earliest repeated column", "b,a,a,b\n",
                 "column 'a' given twice (columns 2 and 3)");

    lop_csv_t *csv = NULL;
    fixture_file_write("ok.csv", "# a comment without a colon\n# a comment without a colon\n"
                                 "# p: 4\np,v\n# p: 8 (after the header: a comment)\n1,2\n");
    ok(lop_csv_read(fixture_path("ok.csv"), &csv) == LOP_OK && csv->n_meta == 1 &&
           csv->meta[0].line == 3,
       "plain comments may repeat, '#' lines after the header are not metadata");
    lop_csv_free(csv);
}

/* RFC 4180 quoting, as spreadsheets write a header and lop_out_text a text
 * cell: a quoted header once gave "no column 'p'". */
static void quoted(void)
{
    lop_csv_t *csv;
    size_t c;
    fixture_file_write("q.csv", "\"p\", \"min_us\" ,\"a, \"\"b\"\"\"\n"
                                "1,\"2.5\",\"\"\n"
                                "\"3\",4,x\n");
    lop_status_t st = lop_csv_read(fixture_path("q.csv"), &csv);
    ok(st == LOP_OK, "a quoted header reads: %s", st ? lop_errmsg() : "");
    if (st)
        return;
    double v;
    ok(csv->n_columns == 3 && lop_csv_column(csv, "p", &c) == LOP_OK && c == 0 &&
           lop_csv_column(csv, "min_us", &c) == LOP_OK && c == 1 &&
           strcmp(csv->columns[2], "a, \"b\"") == 0,
       "its names unquoted, a comma and doubled quotes inside one: '%s'", csv->columns[2]);
    ok(csv->n_rows == 2 && lop_csv_number(csv, 0, 1, &v) == LOP_OK && v == 2.5 &&
           csv->cells[0][2][0] == '\0' && lop_csv_number(csv, 1, 0, &v) == LOP_OK && v == 3,
       "quoted data cells too: \"2.5\" is 2.5, \"\" is empty");
    lop_csv_free(csv);
    expect_error("a quote not closed", "p,v\n1,\"2\n3\"\n",
                 "bad.csv:2: cell 2: a quoted cell is not closed on its line");
    expect_error("text after the closing quote", "\"p\"x,v\n", "bad.csv:1: cell 1: text after");
}

int main(void)
{
    if (fixture_dir_make("csv") != 0)
        return 1;
    round_trip();
    malformed();
    repeats();
    quoted();
    fixture_dir_remove();
    return tap_done();
}
