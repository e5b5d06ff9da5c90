/* fuzz_opts_fit.c - lopfit's options: fit/main.c is built into the harness
 * (its main renamed) so that its own parser, parse_options(), runs on a
 * fuzzed argv, one argument per input line.  Nothing is read or fitted. */
#define main lopfit_main
#include "../fit/main.c"
#undef main

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int argc, first_file;
    char **argv = fuzz_argv(PROG, data, size, &argc);
    opts_t o;
    fuzz_getopt_reset();
    fuzz_quiet(1);
    if (parse_options(argc, argv, &o, &first_file) == LOP_OK && !o.help &&
        (first_file < 1 || first_file > argc))
        abort(); /* the data files must be within argv */
    fuzz_quiet(0);
    fuzz_argv_free(argv);
    return 0;
}
