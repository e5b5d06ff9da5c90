/* placement.csv (src/fmt_placement.h): written as lopbench --pairs writes it,
 * byte for byte, read back by rank with its metadata ignored, and refused
 * where a host name would break the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "fmt_placement.h"
#include "tap.h"

static void written_and_read(void)
{
    const lop_fmt_placement_row_t row[] = {{"n1", 0, 0, 3}, {"n2", 1, 1, 0}, {"n1", 0, 0, 2}};
    const lop_fmt_placement_meta_t meta = {3, 1, "hwloc placed every rank", 0, "2026-11-26"};
    char path[512];
    lop_csv_writer_t w;
    snprintf(path, sizeof path, "%s", fixture_path(LOP_FMT_PLACEMENT_NAME));
    lop_status_t st = lop_fmt_placement_write_begin(&w, path, &meta, row);
    if (st == LOP_OK) {
        lop_csv_meta(&w, "host_n1", "a line of the caller's");
        st = lop_fmt_placement_write_rows(&w, row, 3);
    }
    char *text = fixture_file_text(path);
    ok(st == LOP_OK && strcmp(text,
       "# lopbench: " LOP_VERSION "\n# quantity: placement\n# definition: where each rank ran: "
       "host name, socket (hwloc package) and NUMA node on that host (logical indexes), core = "
       "the CPU sched_getcpu() returned; levels, outermost first: host 0, socket 1, numa 2, core 3\n# ranks: 3\n"
       "# topology: hwloc\n# placement_note: hwloc placed every rank\n# oversubscribed: no\n"
       "# date: 2026-11-26\n# host_n1: a line of the caller's\nrank,host,socket,numa,core\n"
       "0,n1,0,0,3\n1,n2,1,1,0\n2,n1,0,0,2\n") == 0, "written as lopbench writes it:\n%s", text);
    free(text);
    lop_fmt_placement_t pl;
    st = lop_fmt_placement_read(path, 8, &pl);
    ok(st == LOP_OK && pl.p == 3 && strcmp(pl.label[1 * 4 + 0], "n2") == 0 &&
       strcmp(pl.label[2 * 4 + 3], "2") == 0 && strcmp(pl.label[0 * 4 + 1], "0") == 0,
       "read back by rank: rank 1 on n2, rank 2 on core 2");
    lop_fmt_placement_free(&pl);
    ok(lop_fmt_placement_read(path, 2, &pl) == LOP_ERR_PARSE && strstr(lop_errmsg(), "3 ranks (1..2)"),
       "more ranks than the reader takes: %s", lop_errmsg());
}

static void refused(void)
{
    const lop_fmt_placement_row_t row[] = {{"n1", 0, 0, 0}, {"a,b", 0, 0, 1}};
    const lop_fmt_placement_meta_t meta = {2, 0, "none", 0, "today"};
    char path[512];
    lop_csv_writer_t w;
    snprintf(path, sizeof path, "%s", fixture_path("bad.csv"));
    ok(lop_fmt_placement_write_begin(&w, path, &meta, row) == LOP_ERR_INVALID &&
       strstr(lop_errmsg(), "'a,b' cannot be a CSV cell") && fopen(path, "r") == NULL,
       "a host name with a comma is refused before a file is made: %s", lop_errmsg());
    fixture_file_write("twice.csv", "rank,host,socket,numa,core\n0,a,0,0,0\n0,a,0,0,1\n");
    lop_fmt_placement_t pl;
    ok(lop_fmt_placement_read(fixture_path("twice.csv"), 8, &pl) == LOP_ERR_PARSE &&
       strstr(lop_errmsg(), "twice.csv:3: a second row for rank 0"), "a rank twice: %s",
       lop_errmsg());
}

int main(void)
{
    fixture_dir_make("fmt-placement");
    written_and_read();
    refused();
    fixture_dir_remove();
    return tap_done();
}
