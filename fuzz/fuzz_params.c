/* fuzz_params.c - parameter sets (src/fmt_params.h lop_fmt_params_read) and what
 * lopredict and lopfit do with one: look up every series' LoP fits and
 * evaluate them and L(p) at the ends of their p range. */
#include <math.h>

#include "fmt_params.h"
#include "fuzz.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void evaluate(const lop_paramset_t *set, const char *series, const char *stat)
{
    lop_view_t lop;
    if (lop_view_from_set(set, series, stat, &lop) != LOP_OK)
        return;
    double at[] = {1, 2, lop.pmin, lop.pmax, 0.5 * (lop.pmin + lop.pmax)};
    for (size_t i = 0; i < COUNT(at); i++) {
        lop_view_o(&lop, at[i]);
        lop_view_L(&lop, at[i]);
        lop_view_Llist(&lop, at[i]);
        lop_view_in_range(&lop, at[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lop_paramset_t set;
    if (lop_fmt_params_read(fuzz_file(data, size), &set) != LOP_OK)
        return 0;
    for (size_t i = 0; i < set.n; i++) {
        const lop_fit_t *f = &set.fit[i];
        if (!lop_paramset_find(&set, f->series, f->quantity, f->stat))
            abort(); /* a row read must be found again */
        lop_fit_eval(f, f->pmin);
        lop_fit_eval(f, f->pmax);
        evaluate(&set, f->series, f->stat);
    }
    lop_paramset_free(&set);
    return 0;
}
