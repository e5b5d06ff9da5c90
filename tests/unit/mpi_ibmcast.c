/* The parts of lopbench's multicast that need no device (bench/ibmcast.c):
 * the group address, the barrier-id bookkeeping that recognises duplicates
 * and late releases, the NAK timer, the root's answer to a NAK, and the
 * test hooks' values.  No MPI_Init, no RDMA device. */
#include <stdlib.h>
#include <string.h>

#include "ibmcast.h"
#include "tap.h"

static void test_group(void)
{
    static const uint32_t seeds[] = {0, 1, 253, 254, 255, 0xfefe, 0xffff, 0xffffffffu,
                                     0x12345678u, 0xdeadbeefu};
    int all_ok = 1;
    for (size_t i = 0; i < COUNT(seeds); i++) {
        uint32_t g = lop_mcast_group_pick(seeds[i]), a = g >> 8 & 255, b = g & 255;
        all_ok &= g >> 16 == (239u << 8 | 255u) && a >= 1 && a <= 254 && b >= 1 && b <= 254;
    }
    for (uint32_t r = 0; r < 200000; r += 7) { /* a sweep of the 16 low bits and more */
        uint32_t g = lop_mcast_group_pick(r * 2654435761u);
        all_ok &= (g & 255) != 0 && (g & 255) != 255 && (g >> 8 & 255) != 255 &&
                  (g >> 8 & 255) != 0;
    }
    ok(all_ok, "groups are 239.255.a.b with a, b in 1..254 (never SSDP's .255.250 or SLP's .255.253)");
    ok(lop_mcast_group_pick(1) != lop_mcast_group_pick(2) &&
           lop_mcast_group_pick(0x100) != lop_mcast_group_pick(0x200),
       "different random bits, different groups");
}

static void test_ids(void)
{
    uint64_t seen = 0;
    ok(lop_mcast_take(&seen, 1) && seen == 1, "the first release is new");
    ok(!lop_mcast_take(&seen, 1) && seen == 1, "its retransmission is a duplicate");
    ok(lop_mcast_take(&seen, 3) && seen == 3, "a later one is new (a wait for 2 is satisfied)");
    ok(!lop_mcast_take(&seen, 2) && seen == 3, "a late release of an older barrier is ignored");
    ok(!lop_mcast_take(&seen, 0), "id 0 is never a release");
}

static void test_nak(void)
{
    double next = 0;
    ok(!lop_mcast_nak_due(10.0, 0.1, &next) && next > 10.09 && next < 10.11,
       "the first look arms the timer");
    ok(!lop_mcast_nak_due(10.05, 0.1, &next), "no NAK before the timeout");
    ok(lop_mcast_nak_due(10.1, 0.1, &next), "a NAK at the timeout");
    ok(!lop_mcast_nak_due(10.15, 0.1, &next), "... and not again at once");
    ok(lop_mcast_nak_due(10.25, 0.1, &next), "another one a timeout later");

    ok(lop_mcast_nak_valid(5, 5) && lop_mcast_nak_valid(4, 5),
       "a NAK for a release sent is answered (the last, or an earlier one)");
    ok(!lop_mcast_nak_valid(6, 5), "a NAK for a release not sent yet is early: ignored");
    ok(!lop_mcast_nak_valid(0, 5) && !lop_mcast_nak_valid(1, 0), "id 0, or nothing sent: ignored");
}

static void test_hooks(void)
{
    int rank;
    uint64_t k;
    ok(lop_mcast_drop_parse("1:2", &rank, &k) == LOP_OK && rank == 1 && k == 2,
       "LOP_TEST_MCAST_DROP=1:2");
    static const char *const bad[] = {"", "1", "1:", ":2", "1:0", "-1:2", "1:-2", "1:2x", "a:b"};
    int refused = 1;
    for (size_t i = 0; i < COUNT(bad); i++)
        refused &= lop_mcast_drop_parse(bad[i], &rank, &k) == LOP_ERR_INVALID;
    ok(refused, "malformed values refused");
    ok(strstr(lop_errmsg(), "LOP_TEST_MCAST_DROP: 'a:b' is not RANK:K") != NULL,
       "the message names the variable: %s", lop_errmsg());

    unsetenv("LOP_TEST_MCAST_DROP");
    setenv("LOP_TEST_MCAST_NONE", "2", 1);
    ok(lop_mcast_hooks_check() == LOP_OK, "LOP_TEST_MCAST_NONE=2 accepted");
    setenv("LOP_TEST_MCAST_NONE", "two", 1);
    ok(lop_mcast_hooks_check() == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "LOP_TEST_MCAST_NONE: 'two' is not a rank") != NULL,
       "LOP_TEST_MCAST_NONE=two refused: %s", lop_errmsg());
    unsetenv("LOP_TEST_MCAST_NONE");
    setenv("LOP_TEST_MCAST_DROP", "3", 1);
    ok(lop_mcast_hooks_check() == LOP_ERR_INVALID, "LOP_TEST_MCAST_DROP=3 refused");
    unsetenv("LOP_TEST_MCAST_DROP");
    ok(lop_mcast_hooks_check() == LOP_OK, "no hooks: fine");
}

static void test_counts(void)
{
    lop_mcast_counts_t a = {1, 2, 3, 4, 5, 6, 7, 8}, b = {1, 1, 1, 1, 1, 1, 1, 1};
    lop_mcast_counts_add(&a, &b, 1);
    ok(a.sent == 2 && a.naks_early == 9, "counts add field by field");
    lop_mcast_counts_add(&a, &b, -1);
    ok(a.sent == 1 && a.resent == 2 && a.naks_early == 8, "... and subtract");
}

int main(void)
{
    test_group();
    test_ids();
    test_nak();
    test_hooks();
    test_counts();
    return tap_done();
}
