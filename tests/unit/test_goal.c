/* The GOAL module both ways: every algorithm written as GOAL reads back as
 * the same schedule (ops, steps, MCASTs) and simulates to the same time; a
 * file as LogGOPSim's schedule generator writes its dissemination (tag 0, a
 * send requiring the last receive only) reads as lop's diss with the loose
 * sends counted; what lop cannot run is refused by file:line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "barrier.h"
#include "fixture.h"
#include "goal.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "tap.h"

static double sim_us(const sched_t *s)
{
    barrier_cost_t cost;
    barrier_cost_init(&cost);
    cost.logp = (logp_t){2.5, 0.7, 1.3, 1.9};
    sched_sim_t par = {SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    sched_sim_result_t r;
    return sched_sim_run(s, &par, 0, &r) == LOP_OK ? r.max_us : -1;
}

/* Write, read back: the same schedule, the same time (g > 0: every op's
 * order counts), no loose send (every op requires the previous one). */
static void round_trip(void)
{
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if (!(*a)->build_rank)
            continue;
        uint32_t bad = 0, tried = 0, loose = 0;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 3 : 1); n++)
            for (uint32_t p = 1; p <= 40; p++, tried++) {
                sched_t s, back;
                goal_notes_t notes;
                sched_build(*a, p, n, &s);
                FILE *f = fopen(fixture_path("s.goal"), "w");
                sched_goal_write(&s, f);
                fclose(f);
                lop_status_t st = sched_goal_read(fixture_path("s.goal"), &back, &notes);
                if (st != LOP_OK || !sched_equal(&s, &back) || sim_us(&s) != sim_us(&back))
                    bad = bad ? bad : p;
                loose += st == LOP_OK && notes.loose != 0;
                if (st == LOP_OK)
                    sched_free(&back);
                sched_free(&s);
            }
        ok(!bad && !loose, "%s: %u schedules written as GOAL read back the same, same time%s",
           (*a)->name, tried, !strcmp((*a)->name, "rgm") ? " (its MCAST too)" : "");
        if (bad || loose)
            printf("#   first wrong at P = %u, %u with loose sends\n", bad, loose);
    }
}

/* LogGOPSim's schedgen -p dissemination: sends require the last receive
 * only, receives nothing, every tag 0. */
static void schedgen_dissemination(void)
{
    FILE *f = fopen(fixture_path("sg.goal"), "w");
    fprintf(f, "num_ranks 8\n");
    for (int r = 0, label; r < 8; r++) {
        fprintf(f, "\nrank %d {\n", r);
        label = 0;
        for (int d = 1; d < 8; d *= 2, label += 2) {
            fprintf(f, "l%d: send 1b to %d tag 0\n", label + 1, (r + d) % 8);
            if (label)
                fprintf(f, "l%d requires l%d\n", label + 1, label);
            fprintf(f, "l%d: recv 1b from %d tag 0\n", label + 2, (r + 8 - d) % 8);
        }
        fprintf(f, "}\n");
    }
    fclose(f);
    sched_t s, diss;
    goal_notes_t notes;
    lop_status_t st = sched_goal_read(fixture_path("sg.goal"), &s, &notes);
    sched_build(barrier_alg_find("diss"), 8, 0, &diss);
    int ops = st == LOP_OK && s.n_ops == diss.n_ops;
    for (uint32_t i = 0; ops && i < s.n_ops; i++)
        ops = s.op[i].peer == diss.op[i].peer && s.op[i].kind == diss.op[i].kind;
    ok(ops && s.n_steps == 1, "schedgen's dissemination reads as lop's diss (in one step: tag 0)");
    ok(st == LOP_OK && sched_check(&s) == LOP_OK && sim_us(&s) == sim_us(&diss),
       "... a barrier in the order written, with diss's time");
    ok(notes.loose == 8 && notes.loose_line == 9,
       "... whose third send of every rank does not require the first receive (%llu, line %u)",
       (unsigned long long)notes.loose, notes.loose_line);
    if (st == LOP_OK)
        sched_free(&s);
    sched_free(&diss);
}

static void refused(const char *label, const char *text, const char *want)
{
    sched_t s;
    goal_notes_t notes;
    fixture_file_write("bad.goal", text);
    lop_status_t st = sched_goal_read(fixture_path("bad.goal"), &s, &notes);
    ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), want), "%s: %s", label, lop_errmsg());
    if (st == LOP_OK)
        sched_free(&s);
}

#define HEAD "num_ranks 2\nrank 0 {\n"

static void errors(void)
{
    refused("calc", HEAD "l1: calc 100\n}\n", "bad.goal:3: calc (a computation)");
    refused("irequires", HEAD "l1: send 8b to 1\nl2: recv 8b from 1\nl2 irequires l1\n}\n",
            "bad.goal:5: irequires");
    refused("any source", HEAD "l1: recv 8b from -1 tag 0\n}\n", "bad.goal:3: from -1 (any source)");
    refused("any tag", HEAD "l1: recv 8b from 1 tag -1\n}\n", "bad.goal:3: tag -1 (any tag)");
    refused("a second cpu", HEAD "l1: send 8b to 1 tag 0 cpu 1\n}\n", "bad.goal:3: cpu 1");
    refused("a second nic", HEAD "l1: send 8b to 1 nic 2\n}\n", "bad.goal:3: nic 2");
    refused("a forward requires", HEAD "l1: send 8b to 1\nl2: recv 8b from 1\nl1 requires l2\n}\n",
            "bad.goal:5: l1 requires l2, written after it");
    refused("an undefined label", HEAD "l1: send 8b to 1\nl1 requires l9\n}\n",
            "bad.goal:4: label l9 is not defined");
    refused("a label twice", HEAD "l1: send 8b to 1\nl1: recv 8b from 1\n}\n",
            "bad.goal:4: label l1 is defined twice");
    refused("a message to itself", HEAD "l1: send 8b to 0\n}\n", "bad.goal:3: to 0: not another rank");
    refused("a rank beyond num_ranks", HEAD "l1: send 8b to 2\n}\n", "bad.goal:3: to 2");
    refused("blocks out of order", "num_ranks 3\nrank 2 {\n}\nrank 1 {\n}\n",
            "bad.goal:4: rank 1 after rank 2");
    refused("no size", HEAD "l1: send to 1\n}\n", "bad.goal:3: expected a size");
    refused("an open block", HEAD "l1: send 8b to 1\n", "rank 0's block has no '}'");
    refused("an open comment", "num_ranks 2 /* no end\n", "a comment is not closed");
    refused("no num_ranks", "rank 0 {\n}\n", "bad.goal:1: a rank's block before num_ranks");
    refused("an mcast cut short", "num_ranks 3\nrank 0 {\n" GOAL_MCAST_MARK
            "\nl1: send 8b to 1\nl2: send 8b to 2 tag 1\n}\n", "bad.goal:5: after");
    sched_t s;
    goal_notes_t notes;
    fixture_file_write("ok.goal", "/* LogGOPSim's own comments */ num_ranks 2\n// a line\n"
                                  "rank 1{\nl_a : recv 8 b from 0 tag 3 cpu 0 // c\n}\n"
                                  "rank 0 {\r\nsend 8b to 1 tag 3 nic 0\r\n}\r\n");
    ok(sched_goal_read(fixture_path("ok.goal"), &s, &notes) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "ok.goal:6: rank 0 after rank 1"),
       "rank blocks in ascending order only: %s", lop_errmsg());
    fixture_file_write("ok.goal", "/* LogGOPSim's own comments */ num_ranks 2\n// a line\n"
                                  "rank 0 {\r\nsend 8b to 1 tag 3 nic 0\r\n}\r\n"
                                  "rank 1{\nl_a : recv 8 b from 0 tag 3 cpu 0 // c\n}\n");
    ok(sched_goal_read(fixture_path("ok.goal"), &s, &notes) == LOP_OK && s.p == 2 &&
           s.n_ops == 2 && s.op[1].step == 3 && s.op[1].kind == SCHED_RECV && s.line[1] == 7,
       "comments, CRLF, '0{', 'l_a :', '8 b', cpu 0, nic 0 and unlabelled ops read");
    ok(sched_goal_sniff(fixture_path("ok.goal")) && !sched_goal_sniff(fixture_path("nope")),
       "a GOAL file is told from a schedule CSV by its first word");
    sched_free(&s);
}

/* A FIFO without a writer is refused at once, by the reader and the sniffer
 * (open() of it for reading once waited for a writer forever); alarm() is a
 * hang guard, not a threshold. */
static void not_regular(void)
{
    sched_t s;
    goal_notes_t notes;
    const char *fifo = fixture_path("fifo.goal");
    if (mkfifo(fifo, 0600) != 0) {
        ok(0, "mkfifo %s", fifo);
        return;
    }
    alarm(10);
    ok(sched_goal_read(fifo, &s, &notes) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "fifo.goal: is a FIFO; lop reads only regular files"),
       "a FIFO is refused: %s", lop_errmsg());
    ok(!sched_goal_sniff(fifo), "... and is no GOAL file to the sniffer");
    ok(sched_goal_read(fixture_dir, &s, &notes) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), ": is a directory; lop reads only regular files"),
       "so is a directory: %s", lop_errmsg());
    alarm(0);
}

/* What the tools read (sched_file_read): GOAL is told apart after an
 * editor's byte order mark, and by a num_ranks line without its count, which
 * the GOAL reader then refuses by its line (as CSV, it lacked a column). */
static void file_read(void)
{
    sched_t s;
    goal_notes_t notes;
    fixture_file_write("bom.goal", "\xef\xbb\xbf" "num_ranks 2\nrank 0 {\nsend 8b to 1\n}\n"
                                   "rank 1 {\nrecv 8b from 0\n}\n");
    lop_status_t st = sched_file_read(fixture_path("bom.goal"), &s, &notes);
    ok(st == LOP_OK && s.p == 2 && s.n_ops == 2 && s.line[1] == 6,
       "GOAL after a UTF-8 byte order mark: %s", st ? lop_errmsg() : "read");
    if (st == LOP_OK)
        sched_free(&s);
    static const struct {
        const char *text, *want;
    } bare[] = {{"num_ranks\nrank 0 {\n}\n", "bare.goal:1: num_ranks: expected a number"},
                {"// c\nnum_ranks \r\n", "bare.goal:2: num_ranks: expected a number"},
                {"\xef\xbb\xbf" "num_ranks\n", "bare.goal:1: num_ranks: expected a number"}};
    for (size_t i = 0; i < COUNT(bare); i++) {
        fixture_file_write("bare.goal", bare[i].text);
        st = sched_file_read(fixture_path("bare.goal"), &s, &notes);
        ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), bare[i].want),
           "num_ranks without a count is GOAL, refused by its line: %s", lop_errmsg());
        if (st == LOP_OK)
            sched_free(&s);
    }
    fixture_file_write("s.csv", "rank,step,op,peer\n0,0,send,1\n1,0,recv,0\n");
    st = sched_file_read(fixture_path("s.csv"), &s, &notes);
    ok(st == LOP_OK && s.p == 2 && notes.loose == 0, "a schedule CSV is read as CSV");
    if (st == LOP_OK)
        sched_free(&s);
}

int main(void)
{
    if (fixture_dir_make("goal") != 0)
        return 1;
    round_trip();
    schedgen_dissemination();
    errors();
    not_regular();
    file_read();
    fixture_dir_remove();
    return tap_done();
}
