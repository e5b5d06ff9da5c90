/* Schedule CSV (models/sched_csv.h): written as lopredict --schedule writes
 * it, byte for byte, read back as written, and malformed input refused
 * naming file:line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "sched.h"
#include "sched_csv.h"
#include "tap.h"

static void written(void)
{
    sched_t s;
    lop_status_t st = sched_build(barrier_alg_find("diss"), 3, 0, &s);
    FILE *f = fopen(fixture_path("diss.csv"), "w");
    if (st == LOP_OK && f)
        sched_csv_write(&s, f);
    if (f)
        fclose(f);
    char *text = fixture_file_text(fixture_path("diss.csv"));
    ok(st == LOP_OK && strcmp(text, "# alg: diss\n# p: 3\nrank,step,op,peer\n"
                              "0,0,send,1\n0,0,recv,2\n0,1,send,2\n0,1,recv,1\n"
                              "1,0,send,2\n1,0,recv,0\n1,1,send,0\n1,1,recv,2\n"
                              "2,0,send,0\n2,0,recv,1\n2,1,send,1\n2,1,recv,0\n") == 0,
       "diss P=3 written as lopredict --schedule writes it:\n%s", text);
    free(text);
    if (st == LOP_OK)
        sched_free(&s);
}

static void csv_round_trip(void)
{
    static const char *const algs[] = {"ndiss", "rgm", "bfly", "mcs"};
    for (size_t i = 0; i < 4; i++) {
        sched_t s, back;
        if (sched_build(barrier_alg_find(algs[i]), 13, 3, &s) != LOP_OK)
            diag(lop_errmsg());
        FILE *f = fopen(fixture_path("s.csv"), "w");
        sched_csv_write(&s, f);
        fclose(f);
        lop_status_t st = sched_csv_read(fixture_path("s.csv"), &back);
        ok(st == LOP_OK && sched_equal(&s, &back) && strcmp(back.alg, algs[i]) == 0,
           "%s P=13 n=3 reads back as written %s", algs[i], st ? lop_errmsg() : "");
        if (st == LOP_OK)
            sched_free(&back);
        sched_free(&s);
    }
}

static void csv_error(const char *label, const char *text, const char *want)
{
    sched_t s;
    fixture_file_write("bad.csv", text);
    lop_status_t st = sched_csv_read(fixture_path("bad.csv"), &s);
    ok(st != LOP_OK && strstr(lop_errmsg(), want), "%s -> %s", label, lop_errmsg());
    if (st == LOP_OK)
        sched_free(&s);
}

static void csv_errors(void)
{
    csv_error("unknown op", "rank,step,op,peer\n0,0,put,1\n", "bad.csv:2: op 'put' is not send");
    csv_error("mcast with a peer", "rank,step,op,peer\n0,0,mcast,1\n", "bad.csv:2: peer -1 is for");
    csv_error("send to -1", "rank,step,op,peer\n0,0,send,-1\n", "bad.csv:2: peer -1 is for");
    csv_error("fractional rank", "rank,step,op,peer\n0.5,0,send,1\n", "column 'rank': '0.5'");
    csv_error("missing column", "rank,op,peer\n0,send,1\n", "no column 'step'");
    csv_error("rank beyond # p", "# p: 2\nrank,step,op,peer\n2,0,send,1\n", "names rank 2 but p");
    sched_t s;
    fixture_file_write("ok.csv", "rank,step,op,peer\n1,0,recv,0\n0,0,send,1\n");
    ok(sched_csv_read(fixture_path("ok.csv"), &s) == LOP_OK && s.p == 2 && s.first[1] == 1 &&
           s.op[0].kind == SCHED_SEND,
       "rows of different ranks may interleave; P from the largest rank");
    sched_free(&s);
}

int main(void)
{
    if (fixture_dir_make("sched-csv") != 0)
        return 1;
    written();
    csv_round_trip();
    csv_errors();
    fixture_dir_remove();
    return tap_done();
}
