/* fuzz_measured.c - barrier.csv as lopredict --measured reads it: the
 * input is the file of "lopredict --measured FILE --params <the shipped
 * Mozart set> --csv", run by predict/main.c built into the harness (its main
 * renamed; the modes from libpredict.a).  Every row is predicted and
 * simulated at its p, so inputs whose p cells add up to more than
 * FUZZ_MAX_P_SUM are skipped: a barrier.csv of P = 2^24 rows is a slow
 * input, not a defect. */
#define main lopredict_main
#include "../predict/main.c"
#undef main

#include "fuzz.h"

#define FUZZ_MAX_P_SUM 2048

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is the work the file asks for small? */
static int small_enough(const char *path)
{
    lop_csv_t *csv;
    size_t col;
    double sum = 0, p;
    if (lop_csv_read(path, &csv) != LOP_OK)
        return 1; /* refused at once by the tool as well */
    for (size_t r = 0; r < csv->n_rows && lop_csv_column(csv, "p", &col) == LOP_OK; r++)
        if (lop_parse_double(csv->cells[r][col], &p))
            sum += p > 0 ? p : 0;
    lop_csv_free(csv);
    return sum <= FUZZ_MAX_P_SUM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    if (!small_enough(path))
        return 0;
    char *argv[] = {"lopredict", "--measured", (char *)path, "--params",
                    FUZZ_DATA_DIR "/mozart-2005/params.csv", "--csv", NULL};
    fuzz_getopt_reset();
    fuzz_quiet(1);
    lopredict_main(6, argv);
    fuzz_stdout_was_closed();
    fuzz_quiet(0);
    return 0;
}
