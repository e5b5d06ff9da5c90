/* lopbench's placement.csv rows (bench/place_gather.c) without MPI: a
 * hand-made file of 2 hosts x 2 sockets written and read back, and a host
 * name that would break it refused.  (The gathering itself runs in
 * tests/13-lopbench-pairs.t; the places' groups and pair classes in
 * test_place.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fixture.h"
#include "place_gather.h"
#include "tap.h"

enum { N = 6 };

/* ranks 0..5: hostA socket 0 cpu 0, hostA socket 0 cpu 1, hostA socket 1 cpu 4,
 * hostB socket 0 cpu 0, hostB socket 0 cpu 0 (a shared CPU), hostA socket 1 cpu 5 */
static void make(lop_place_rows_t *file)
{
    static char host[N][LOP_PLACE_HOST_MAX];
    static lop_fmt_placement_row_t row[N];
    static const int socket[N] = {0, 0, 1, 0, 0, 1}, core[N] = {0, 1, 4, 0, 0, 5};
    const char *names[N] = {"hostA", "hostA", "hostA", "hostB", "hostB", "hostA"};
    for (int r = 0; r < N; r++) {
        snprintf(host[r], sizeof host[r], "%s", names[r]);
        row[r] = (lop_fmt_placement_row_t){host[r], socket[r], socket[r], core[r]};
    }
    *file = (lop_place_rows_t){.n = N, .row = row, .host = host, .topology = 1,
                                   .note = "test"};
}

static void test_write(const lop_place_rows_t *file)
{
    lop_run_meta_t meta = {.oversubscribed = 1, .date = "2024-01-02T03:04:05+0000",
                           .host = "hostA"};
    ok(lop_place_rows_write(file, &meta, fixture_dir) == LOP_OK, "placement.csv written: %s",
       lop_errmsg());
    lop_csv_t *csv = NULL;
    ok(lop_csv_read(fixture_path("placement.csv"), &csv) == LOP_OK, "reads back: %s",
       lop_errmsg());
    if (!csv)
        return;
    size_t c;
    double v = -1;
    ok(csv->n_rows == N && csv->n_columns == 5, "one row per rank, 5 columns");
    ok(lop_csv_column(csv, "core", &c) == LOP_OK && lop_csv_number(csv, 2, c, &v) == LOP_OK &&
           v == 4,
       "rank 2's core");
    ok(lop_csv_meta_get(csv, "topology") && strcmp(lop_csv_meta_get(csv, "topology"), "hwloc") == 0 &&
           lop_csv_meta_get(csv, "placement_note") && lop_csv_meta_get(csv, "ranks"),
       "topology, note and ranks in the metadata");
    lop_csv_free(csv);

    lop_place_rows_t bad = *file;
    lop_fmt_placement_row_t row[N];
    memcpy(row, file->row, sizeof row);
    row[1].host = "a,b";
    bad.row = row;
    ok(lop_place_rows_write(&bad, &meta, fixture_dir) == LOP_ERR_INVALID,
       "a host name with a comma is refused: %s", lop_errmsg());
}

int main(void)
{
    lop_place_rows_t file;
    make(&file);
    if (fixture_dir_make("placement") != 0)
        return 1;
    test_write(&file);
    fixture_dir_remove();
    return tap_done();
}
