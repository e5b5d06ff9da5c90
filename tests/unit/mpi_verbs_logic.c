/* The parts of the verbs code that need no device (bench/ibconn.c): the
 * --gid-index auto choice and GID naming, the check of a peer's address;
 * and the deadline every wait loop
 * has (bench/mpisync.h lop_poll_pause).  No MPI_Init, no RDMA device. */
#include <string.h>

#include "ibconn.h"
#include "mpisync.h"
#include "tap.h"

/* A GID entry of 'port': index, type, and an IPv4-mapped address or not. */
static struct ibv_gid_entry gid(uint32_t port, uint32_t index, int type, int ipv4)
{
    struct ibv_gid_entry e;
    memset(&e, 0, sizeof e);
    e.port_num = port;
    e.gid_index = index;
    e.gid_type = (uint32_t)type;
    if (ipv4) {
        e.gid.raw[10] = e.gid.raw[11] = 0xff;
        e.gid.raw[12] = 192, e.gid.raw[15] = 7;
    } else {
        e.gid.raw[0] = 0xfe, e.gid.raw[1] = 0x80, e.gid.raw[15] = 7; /* fe80::7 */
    }
    return e;
}

static void test_gid_choice(void)
{
    /* A typical RoCE table: per address a v1 and a v2 entry, link-local first. */
    struct ibv_gid_entry t[] = {
        gid(1, 0, IBV_GID_TYPE_ROCE_V1, 0), gid(1, 1, IBV_GID_TYPE_ROCE_V2, 0),
        gid(1, 2, IBV_GID_TYPE_ROCE_V1, 1), gid(1, 3, IBV_GID_TYPE_ROCE_V2, 1),
    };
    ok(lop_ib_gid_choose(t, 4, 1) == 3, "RoCE v2 with an IPv4-mapped address first");
    ok(lop_ib_gid_choose(t, 3, 1) == 1, "then RoCE v2 (link-local)");
    ok(lop_ib_gid_choose(t, 1, 1) == 0, "then RoCE v1");
    ok(lop_ib_gid_choose(t, 4, 2) == -1, "none on a port without entries");
    ok(lop_ib_gid_choose(t, 0, 1) == -1, "none in an empty table");

    /* Soft-RoCE on a netdev with only a link-local address: one v2 GID. */
    struct ibv_gid_entry rxe[] = {gid(1, 0, IBV_GID_TYPE_ROCE_V2, 0)};
    ok(lop_ib_gid_choose(rxe, 1, 1) == 0, "Soft-RoCE's only GID");

    /* Equals: the lowest index wins, whatever the table order; other ports ignored. */
    struct ibv_gid_entry two[] = {
        gid(2, 0, IBV_GID_TYPE_ROCE_V2, 1), gid(1, 5, IBV_GID_TYPE_ROCE_V2, 1),
        gid(1, 4, IBV_GID_TYPE_ROCE_V2, 1), gid(1, 6, IBV_GID_TYPE_IB, 0),
    };
    ok(lop_ib_gid_choose(two, 4, 1) == 2, "lowest index among equals, on the asked port");
    ok(lop_ib_gid_choose(two, 4, 2) == 0, "port 2's own entry");

    ok(lop_ib_gid_is_ipv4(&t[3].gid) && !lop_ib_gid_is_ipv4(&t[1].gid),
       "IPv4-mapped GIDs are told from link-local ones");
    ok(strcmp(lop_ib_gid_type_name(IBV_GID_TYPE_ROCE_V2, 1), "RoCE v2") == 0 &&
           strcmp(lop_ib_gid_type_name(IBV_GID_TYPE_IB, 1), "RoCE v1") == 0 &&
           strcmp(lop_ib_gid_type_name(IBV_GID_TYPE_ROCE_V1, 1), "RoCE v1") == 0 &&
           strcmp(lop_ib_gid_type_name(IBV_GID_TYPE_IB, 0), "IB") == 0,
       "GID type names (type IB on an Ethernet port is RoCE v1)");
}

/* A connection of a RoCE device routing by 'ours' to rank 1 routing by 'theirs'. */
static lop_status_t conn_check(struct ibv_gid_entry ours, struct ibv_gid_entry theirs)
{
    lop_ib_dev_t dev;
    lop_ib_conn_t c;
    memset(&dev, 0, sizeof dev);
    memset(&c, 0, sizeof c);
    strcpy(dev.name, "rxe0");
    dev.port_attr.link_layer = IBV_LINK_LAYER_ETHERNET;
    dev.gid_index = (int)ours.gid_index;
    dev.gid = ours.gid;
    c.peer = 1;
    c.local = (lop_ib_addr_t){.gid_type = (uint8_t)ours.gid_type, .use_grh = 1};
    c.remote = (lop_ib_addr_t){.gid_type = (uint8_t)theirs.gid_type, .use_grh = 1};
    memcpy(c.local.gid, ours.gid.raw, 16);
    memcpy(c.remote.gid, theirs.gid.raw, 16);
    return lop_ib_conn_check(&dev, &c);
}

static void test_conn_check(void)
{
    struct ibv_gid_entry v2_ll = gid(1, 0, IBV_GID_TYPE_ROCE_V2, 0);
    struct ibv_gid_entry v2_v4 = gid(1, 1, IBV_GID_TYPE_ROCE_V2, 1);
    struct ibv_gid_entry v1_v4 = gid(1, 2, IBV_GID_TYPE_ROCE_V1, 1);
    ok(conn_check(v2_v4, v2_v4) == LOP_OK, "peers routing by IPv4-mapped RoCE v2 GIDs connect");
    ok(conn_check(v2_ll, v2_ll) == LOP_OK, "so do peers routing by IPv6 ones");
    ok(conn_check(v2_ll, v2_v4) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "rank 1 routes by an IPv4-mapped GID, we by an IPv6 one "
                                "(GID index 0)") != NULL,
       "an IPv4-mapped GID against an IPv6 one is refused, naming both: %s", lop_errmsg());
    ok(conn_check(v2_v4, v1_v4) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "rank 1 routes by a RoCE v1 GID, we by RoCE v2") != NULL,
       "RoCE v1 against v2 is refused: %s", lop_errmsg());
}

static void test_deadline(void)
{
    lop_poll_t never = {0, 0, 0, NULL};
    lop_wait_t w = {0};
    int expired = 0;
    for (int i = 0; i < 100000 && !expired; i++)
        expired = lop_poll_pause(&never, &w);
    ok(!expired && w.checks == 100000, "--timeout 0: a wait never gives up");

    lop_poll_t soon = {0, 0, 0.002, NULL};
    lop_wait_t w2 = {0};
    long checks = 0;
    while (!lop_poll_pause(&soon, &w2))
        checks++;
    ok(checks >= 1 && lop_timer_clock_s() > w2.deadline_s,
       "a wait gives up after its deadline has passed (%ld checks)", checks);

    lop_poll_timeout(&soon, "a message from rank %d", 3);
    ok(strstr(lop_errmsg(), "timed out after 0.002 s waiting for a message from rank 3") != NULL,
       "the timeout names what was awaited: %s", lop_errmsg());
}

int main(void)
{
    test_gid_choice();
    test_conn_check();
    test_deadline();
    return tap_done();
}
