/* The placement type (src/place.h) on a hand-made placement of 2 hosts x 2
 * sockets: ids from text labels, the groups of each level (lop_place_same,
 * lop_place_order), the level and class of pairs.  (placement.csv read into
 * one: tests/unit/test_hybrid.c; a machine's: test_pairs.c; lopbench's
 * gathered one: tests/13-lopbench-pairs.t.) */
#include <stdio.h>
#include <string.h>

#include "place.h"
#include "tap.h"

enum { N = 6, LEVELS = 4 };

/* ranks 0..5: hostA socket 0 cpu 0, hostA socket 0 cpu 1, hostA socket 1 cpu 4,
 * hostB socket 0 cpu 0, hostB socket 0 cpu 0 (a shared CPU), hostA socket 1 cpu 5;
 * NUMA node = socket */
static lop_status_t make(lop_place_t *pl)
{
    static const char *const name[LEVELS] = {"host", "socket", "numa", "core"};
    static const char *const label[N * LEVELS] = {
        "hostA", "0", "0", "0", "hostA", "0", "0", "1", "hostA", "1", "1", "4",
        "hostB", "0", "0", "0", "hostB", "0", "0", "0", "hostA", "1", "1", "5"};
    return lop_place_labels(N, LEVELS, label, name, pl);
}

/* The groups of level k numbered by their lowest rank, through lop_place_same. */
static int groups(const lop_place_t *pl, uint32_t k, int *group)
{
    int n = 0;
    for (uint32_t r = 0; r < N; r++) {
        uint32_t first = 0;
        while (first < r && !lop_place_same(pl, first, r, k + 1))
            first++;
        group[r] = first < r ? group[first] : n++;
    }
    return n;
}

static void test_groups(const lop_place_t *pl)
{
    static const int want[LEVELS][N] = {
        {0, 0, 0, 1, 1, 0}, {0, 0, 1, 2, 2, 1}, {0, 0, 1, 2, 2, 1}, {0, 1, 2, 3, 3, 4}};
    static const int want_n[LEVELS] = {2, 3, 3, 5};
    int g[N];
    for (uint32_t k = 0; k < LEVELS; k++)
        ok(groups(pl, k, g) == want_n[k] && memcmp(g, want[k], sizeof g) == 0,
           "level %u (%s): %d groups", k, pl->level_name[k], want_n[k]);
    ok(lop_place_same(pl, 3, 4, LEVELS) && !lop_place_same(pl, 3, 4, LEVELS + 1) &&
           lop_place_same(pl, 3, 3, LEVELS + 1),
       "one CPU shared: one place at every level, two ranks");
    uint32_t order[N];
    static const uint32_t want_order[N] = {0, 1, 2, 5, 3, 4};
    lop_place_order(pl, N, order);
    ok(memcmp(order, want_order, sizeof order) == 0,
       "ordered by places, then rank: every group a run");
}

static void test_levels(const lop_place_t *pl)
{
    ok(lop_place_level(pl, 0, 3) == 0 && lop_place_level(pl, 0, 2) == 1 &&
           lop_place_level(pl, 0, 1) == 3 && lop_place_level(pl, 3, 4) == LEVELS,
       "outermost level apart: host, socket, core, none");
    ok(lop_place_class(pl, 0, 3) == 1 && lop_place_class(pl, 3, 0) == 1,
       "other host: class 1 whatever the socket");
    ok(lop_place_class(pl, 0, 1) == 8, "same socket, other CPU: class 8");
    ok(lop_place_class(pl, 0, 2) == (2 | 4 | 8), "other socket and NUMA node: class 14");
    ok(lop_place_class(pl, 3, 4) == 0, "one CPU shared: class 0");
    ok(lop_place_class(pl, 2, 5) == lop_place_class(pl, 0, 1),
       "pairs alike in relation share a class");
}

static void test_refused(void)
{
    lop_place_t pl;
    ok(lop_place_alloc(2, LOP_PLACE_MAX_LEVELS + 1, &pl) == LOP_ERR_INVALID && pl.id == NULL,
       "more than %d levels: %s", LOP_PLACE_MAX_LEVELS, lop_errmsg());
}

int main(void)
{
    lop_place_t pl;
    if (!ok(make(&pl) == LOP_OK && pl.p == N && pl.n_levels == LEVELS, "a placement from labels"))
        return tap_done();
    ok(pl.id[3 * LEVELS] == pl.id[4 * LEVELS] && pl.id[0] != pl.id[3 * LEVELS] &&
           pl.id[1] == pl.id[3 * LEVELS + 1],
       "equal text, equal id: socket 0 of hostA and of hostB alike");
    test_groups(&pl);
    test_levels(&pl);
    test_refused();
    lop_place_free(&pl);
    return tap_done();
}
