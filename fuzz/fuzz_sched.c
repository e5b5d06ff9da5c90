/* fuzz_sched.c - the schedule CSV (models/sched.h sched_csv_read), then
 * what lopredict --check-schedule and lopbench --schedule do with what was
 * read: the barrier check and a LogP simulation.  Both are bounded here so
 * that a fuzzed "# p: 16777216" is a fast input, not a slow one: the check
 * up to FUZZ_CHECK_WORK word operations, the simulation up to
 * FUZZ_SIM_OPS ops (the tools bound them by SCHED_CHECK_MAX_WORK and
 * SCHED_MAX_OPS). */
#include "fuzz.h"
#include "sched.h"
#include "sched_check.h"
#include "sched_sim.h"

#define FUZZ_CHECK_WORK 1e6
#define FUZZ_SIM_OPS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sched_t s;
    if (sched_csv_read(fuzz_file(data, size), &s) != LOP_OK)
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
    }
    sched_free(&s);
    return 0;
}
