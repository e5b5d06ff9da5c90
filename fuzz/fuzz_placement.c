/* fuzz_placement.c - placement.csv (src/fmt_placement.h) read into a
 * placement (src/place.h lop_place_read), as lopredict --placement and
 * lopbench --alg hybrid read it, then the level of every pair of ranks. */
#include "fuzz.h"
#include "place.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lop_place_t pl;
    if (lop_place_read(fuzz_file(data, size), 1u << 20, &pl) != LOP_OK)
        return 0;
    if (pl.p < 1 || pl.n_levels < 1 || pl.n_levels > LOP_PLACE_MAX_LEVELS)
        abort();
    for (uint32_t a = 0; a < pl.p; a++) {
        if (!lop_place_same(&pl, a, a, pl.n_levels) || lop_place_level(&pl, a, a) != pl.n_levels)
            abort(); /* a rank is where it is, at every level */
        for (uint32_t b = a + 1; b < pl.p && b < a + 64; b++)
            if (lop_place_level(&pl, a, b) != lop_place_level(&pl, b, a))
                abort(); /* the level two ranks part at is the same both ways */
    }
    uint32_t *order = malloc(pl.p * sizeof *order), *seen = calloc(pl.p, sizeof *seen);
    if (order && seen) {
        lop_place_order(&pl, pl.p, order); /* the hybrid's groups follow this order */
        for (uint32_t r = 0; r < pl.p; r++)
            if (order[r] >= pl.p || seen[order[r]]++)
                abort(); /* every rank once */
    }
    free(order);
    free(seen);
    lop_place_free(&pl);
    return 0;
}
