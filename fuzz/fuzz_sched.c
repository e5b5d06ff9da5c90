/* fuzz_sched.c - schedule files as lopredict --check-schedule reads them: a
 * schedule CSV (models/sched_csv.h sched_csv_read) or GOAL (models/goal.h
 * sched_goal_read, told apart by sched_goal_sniff), then what lopredict
 * --check-schedule and lopbench --schedule do with what was read: the
 * barrier check and a LogP simulation.  Both are bounded here so that a
 * fuzzed "# p: 16777216" is a fast input, not a slow one: the check up to
 * FUZZ_CHECK_WORK word operations, the simulation up to FUZZ_SIM_OPS ops
 * (the tools bound them by SCHED_CHECK_MAX_WORK and SCHED_MAX_OPS).  A GOAL
 * schedule written back as GOAL must read as the same ops. */
#include "fuzz.h"
#include "goal.h"
#include "sched.h"
#include "sched_check.h"
#include "sched_csv.h"
#include "sched_sim.h"

#define FUZZ_CHECK_WORK 1e6
#define FUZZ_SIM_OPS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Written back as GOAL (into a second memfd) and read again: the same ops. */
static void goal_round_trip(const sched_t *s)
{
    static int fd = -1;
    static char path[64];
    sched_t back;
    goal_notes_t notes;
    if (fd < 0 && (fd = memfd_create("lop-fuzz-back", 0)) >= 0)
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    FILE *f = fd >= 0 && ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0
                  ? fdopen(dup(fd), "w") : NULL;
    if (!f)
        abort();
    sched_goal_write(s, f);
    fclose(f);
    if (sched_goal_read(path, &back, &notes) != LOP_OK || !sched_equal(s, &back))
        abort();
    sched_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sched_t s;
    goal_notes_t notes;
    const char *path = fuzz_file(data, size);
    int goal = sched_goal_sniff(path);
    if ((goal ? sched_goal_read(path, &s, &notes) : sched_csv_read(path, &s)) != LOP_OK)
        return 0;
    if (s.first[s.p] != s.n_ops)
        abort(); /* the per-rank offsets must cover every op */
    if (sched_check_work(&s) <= FUZZ_CHECK_WORK)
        sched_check(&s);
    if (s.n_ops <= FUZZ_SIM_OPS) {
        barrier_cost_t cost;
        barrier_cost_init(&cost);
        cost.logp = (logp_t){4.0, 1.5, 1.5, 0.0};
        sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &cost, .lop_arg = SCHED_LOP_STREAM};
        sched_sim_result_t res;
        if (sched_sim_run(&s, &par, 1, &res) == LOP_OK)
            free(res.rank_us);
        if (goal)
            goal_round_trip(&s);
    }
    sched_free(&s);
    return 0;
}
