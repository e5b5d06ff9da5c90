/* lopbench's placement (bench/placement.c) without MPI: the groups of each
 * level and the pair classes of a hand-made placement of 2 hosts x 2 sockets,
 * and placement.csv written and read back.  (The gathering itself runs in
 * tests/13-lopbench-pairs.t.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fixture.h"
#include "placement.h"
#include "tap.h"

enum { N = 6 };

/* ranks 0..5: hostA socket 0 cpu 0, hostA socket 0 cpu 1, hostA socket 1 cpu 4,
 * hostB socket 0 cpu 0, hostB socket 0 cpu 0 (a shared CPU), hostA socket 1 cpu 5 */
static void make(lop_placement_t *pl)
{
    static char host[N][LOP_PLACEMENT_HOST_MAX];
    static int socket[N] = {0, 0, 1, 0, 0, 1}, numa[N] = {0, 0, 1, 0, 0, 1},
               core[N] = {0, 1, 4, 0, 0, 5};
    const char *names[N] = {"hostA", "hostA", "hostA", "hostB", "hostB", "hostA"};
    for (int r = 0; r < N; r++)
        snprintf(host[r], sizeof host[r], "%s", names[r]);
    *pl = (lop_placement_t){.n = N, .host = host, .socket = socket, .numa = numa,
                            .core = core, .topology = 1, .note = "test"};
}

static void test_groups(const lop_placement_t *pl)
{
    int g[N], n;
    static const int want[3][N] = {{0, 0, 0, 1, 1, 0}, {0, 0, 1, 2, 2, 1}, {0, 1, 2, 3, 3, 4}};
    static const int want_n[3] = {2, 3, 5};
    for (int level = 0; level < 3; level++) {
        ok(lop_placement_groups(pl, level, g, &n) == LOP_OK && n == want_n[level] &&
               memcmp(g, want[level], sizeof g) == 0,
           "level %d: %d groups numbered by their lowest rank", level, want_n[level]);
    }
    ok(lop_placement_groups(pl, 3, g, &n) == LOP_ERR_INVALID, "no level 3: %s", lop_errmsg());
}

static void test_classes(const lop_placement_t *pl)
{
    ok(lop_placement_class(pl, 0, 3) == 1 && lop_placement_class(pl, 3, 0) == 1,
       "other host: class 1 whatever the socket");
    ok(lop_placement_class(pl, 0, 1) == 8, "same socket, other CPU: class 8");
    ok(lop_placement_class(pl, 0, 2) == (2 | 4 | 8), "other socket and NUMA node: class 14");
    ok(lop_placement_class(pl, 3, 4) == 0, "one CPU shared: class 0");
    ok(lop_placement_class(pl, 2, 5) == lop_placement_class(pl, 0, 1),
       "pairs alike in relation share a class");
}

static void test_write(const lop_placement_t *pl)
{
    lop_run_meta_t meta = {.oversubscribed = 1, .date = "2024-01-02T03:04:05+0000",
                           .host = "hostA"};
    ok(lop_placement_write(pl, &meta, fixture_dir) == LOP_OK, "placement.csv written: %s",
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

    lop_placement_t bad = *pl;
    char host[N][LOP_PLACEMENT_HOST_MAX];
    memcpy(host, pl->host, sizeof host);
    snprintf(host[1], sizeof host[1], "a,b");
    bad.host = host;
    ok(lop_placement_write(&bad, &meta, fixture_dir) == LOP_ERR_INVALID,
       "a host name with a comma is refused: %s", lop_errmsg());
}

int main(void)
{
    lop_placement_t pl;
    make(&pl);
    if (fixture_dir_make("placement") != 0)
        return 1;
    test_groups(&pl);
    test_classes(&pl);
    test_write(&pl);
    fixture_dir_remove();
    return tap_done();
}
