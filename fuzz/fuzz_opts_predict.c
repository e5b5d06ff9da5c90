/* fuzz_opts_predict.c - lopredict's options: predict/main.c is built into
 * the harness (its main renamed) so that its own parser, parse_args(), runs
 * on a fuzzed argv, one argument per input line, with the check of its
 * modes.  Nothing is read or predicted. */
#define main lopredict_main
#include "../predict/main.c"
#undef main

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int argc;
    char **argv = fuzz_argv(prog, data, size, &argc);
    lopredict_opts_t o;
    opts_init(&o);
    fuzz_getopt_reset();
    fuzz_quiet(1);
    parse_args(&o, argc, argv);
    fuzz_quiet(0);
    opts_free(&o);
    fuzz_argv_free(argv);
    return 0;
}
