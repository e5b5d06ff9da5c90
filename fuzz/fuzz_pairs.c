/* fuzz_pairs.c - per-pair costs (src/fmt_pairs.h lop_fmt_pairs_read), as
 * lopredict --costs reads them: what the reader accepts must hold its
 * promises, every pair's times finite and >= 0 and the diagonal 0. */
#include <math.h>

#include "fmt_pairs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lop_fmt_pairs_t f;
    if (lop_fmt_pairs_read(fuzz_file(data, size), &f) != LOP_OK)
        return 0;
    if (f.p < 1)
        abort();
    for (size_t i = 0; i < f.p; i++)
        for (size_t j = 0; j < f.p; j++) {
            double o = f.o_us[i * f.p + j], L = f.L_us[i * f.p + j];
            if (!isfinite(o) || !isfinite(L) || o < 0 || L < 0 || (i == j && (o != 0 || L != 0)))
                abort();
        }
    lop_fmt_pairs_free(&f);
    return 0;
}
