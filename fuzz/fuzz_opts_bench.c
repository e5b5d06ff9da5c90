/* fuzz_opts_bench.c - lopbench's options (bench/bench_opts.h
 * lop_bench_opts_parse) on a fuzzed argv, one argument per input line.  No
 * MPI_Init: the parser needs none. */
#include "bench_opts.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int argc;
    char **argv = fuzz_argv("lopbench", data, size, &argc);
    lop_bench_opts_t o;
    fuzz_getopt_reset();
    fuzz_quiet(1);
    if (lop_bench_opts_parse(argc, argv, &o) == LOP_OK &&
        (o.n_alg > LOP_BENCH_MAX_LIST || o.n_n > LOP_BENCH_MAX_LIST || o.n_p > LOP_BENCH_MAX_LIST))
        abort(); /* the fixed lists must not overflow */
    fuzz_quiet(0);
    fuzz_argv_free(argv);
    return 0;
}
