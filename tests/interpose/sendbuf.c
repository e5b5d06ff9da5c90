/*
 * sendbuf.c - a PMPI interposer (LD_PRELOAD) that catches send buffers
 * changed while their send is pending.
 *
 * MPI forbids changing the buffer of a send between its post and its
 * completion.  Open MPI copies small messages at once, so such a bug goes
 * unseen there and surfaces elsewhere (MPICH, RDMA networks).  This library
 * copies every send buffer when the send starts and compares when MPI reports
 * it complete:
 *   MPI_Isend                 copied at post, compared when its request completes;
 *   MPI_Send_init + MPI_Start(all)  copied at each start, compared at completion;
 *   MPI_Put, MPI_Accumulate   copied at post, compared at MPI_Win_flush(_all,
 *                             _local, _local_all), MPI_Win_unlock(_all), fence.
 * Completion is caught in MPI_Wait/Waitall/Waitany/Waitsome and
 * MPI_Test/Testall/Testany/Testsome.  At MPI_Finalize each rank prints
 *   sendbuf: rank R: S sends checked, C changed
 * on stderr.  Datatypes are taken as contiguous (count * MPI_Type_size bytes),
 * which holds for everything lopbench sends.
 *
 * Build: mpicc -shared -fPIC -o libsendbuf.so sendbuf.c
 * Use:   mpirun -np 4 env LD_PRELOAD=.../libsendbuf.so prog ...
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ pending send buffers */

typedef struct {
    int used;          /* slot holds a tracked request */
    int active;        /* a copy is held: the send is pending */
    MPI_Request req;   /* the request (persistent ones stay while not freed) */
    const void *buf;   /* the user's buffer */
    size_t bytes;      /* its length */
    void *copy;        /* its contents when the send started */
} tracked_t;

/* Open addressing over request handles, which are ints (MPICH) or pointers
 * (Open MPI): keyed by their bytes. */
static tracked_t *table;
static size_t table_cap;
static size_t table_used;
static unsigned long n_checked, n_changed, n_freed;

static size_t req_hash(MPI_Request r)
{
    unsigned char b[sizeof r];
    memcpy(b, &r, sizeof r);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof r; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return (size_t)h;
}

static int req_equal(MPI_Request a, MPI_Request b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static tracked_t *find(MPI_Request r)
{
    if (!table_cap)
        return NULL;
    for (size_t i = req_hash(r) & (table_cap - 1);; i = (i + 1) & (table_cap - 1)) {
        if (!table[i].used)
            return NULL;
        if (req_equal(table[i].req, r))
            return &table[i];
    }
}

static void insert_raw(tracked_t *t)
{
    size_t i = req_hash(t->req) & (table_cap - 1);
    while (table[i].used)
        i = (i + 1) & (table_cap - 1);
    table[i] = *t;
}

static void grow(void)
{
    tracked_t *old = table;
    size_t old_cap = table_cap;
    table_cap = old_cap ? 2 * old_cap : 1024;
    table = calloc(table_cap, sizeof *table);
    if (!table) {
        fprintf(stderr, "sendbuf: out of memory\n");
        abort();
    }
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].used)
            insert_raw(&old[i]);
    free(old);
}

/* Removal in linear probing: re-insert the rest of the cluster. */
static void erase(tracked_t *t)
{
    free(t->copy);
    size_t i = (size_t)(t - table);
    table[i].used = 0;
    table_used--;
    for (i = (i + 1) & (table_cap - 1); table[i].used; i = (i + 1) & (table_cap - 1)) {
        tracked_t moved = table[i];
        table[i].used = 0;
        insert_raw(&moved);
    }
}

static size_t type_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    PMPI_Type_size(type, &size);
    return count > 0 && size > 0 ? (size_t)count * (size_t)size : 0;
}

static void *snapshot(const void *buf, size_t bytes)
{
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy) {
        fprintf(stderr, "sendbuf: out of memory\n");
        abort();
    }
    if (bytes) /* a zero-byte send may pass NULL, which memcpy may not take */
        memcpy(copy, buf, bytes);
    return copy;
}

/* Track request r; 'copy' (owned from here on) is its buffer's contents at
 * post, NULL for a persistent request not yet started.  A handle may be
 * tracked twice: Open MPI hands out one static request for every send it
 * completed at once; each completion of it then settles one entry. */
static void track(MPI_Request r, const void *buf, size_t bytes, void *copy)
{
    if (r == MPI_REQUEST_NULL) {
        free(copy);
        return;
    }
    if (2 * (table_used + 1) > table_cap)
        grow();
    tracked_t t = {1, copy != NULL, r, buf, bytes, copy};
    insert_raw(&t);
    table_used++;
}

static void compare(const void *buf, size_t bytes, const void *copy)
{
    n_checked++;
    n_changed += bytes && memcmp(buf, copy, bytes) != 0;
}

/* A send is complete: compare and drop the copy (and the entry unless it
 * is persistent). */
static void completed(tracked_t *t, int persistent)
{
    if (t->active)
        compare(t->buf, t->bytes, t->copy);
    if (!persistent) {
        erase(t);
        return;
    }
    free(t->copy);
    t->copy = NULL;
    t->active = 0;
}

/* --------------------------------------------------------- posting sends */

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    size_t bytes = type_bytes(count, type);
    void *copy = snapshot(buf, bytes);
    int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
    if (rc == MPI_SUCCESS)
        track(*req, buf, bytes, copy);
    else
        free(copy);
    return rc;
}

/* Persistent sends are tracked from their creation; each start copies. */
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Send_init(buf, count, type, dest, tag, comm, req);
    if (rc == MPI_SUCCESS)
        track(*req, buf, type_bytes(count, type), NULL);
    return rc;
}

static void started(MPI_Request r)
{
    tracked_t *t = find(r);
    if (!t)
        return;
    free(t->copy);
    t->copy = snapshot(t->buf, t->bytes);
    t->active = 1;
}

int MPI_Start(MPI_Request *req)
{
    started(*req);
    return PMPI_Start(req);
}

int MPI_Startall(int n, MPI_Request reqs[])
{
    for (int i = 0; i < n; i++)
        started(reqs[i]);
    return PMPI_Startall(n, reqs);
}

int MPI_Request_free(MPI_Request *req)
{
    tracked_t *t = find(*req);
    if (t) {
        n_freed += t->active; /* freed while pending: never checked */
        erase(t);
    }
    return PMPI_Request_free(req);
}

/* ------------------------------------------------------- completing sends */

/* Is the request persistent?  Inactive persistent requests stay valid after
 * completion, so the handle is still the same object. */
static int is_persistent(MPI_Request before, MPI_Request after)
{
    return after != MPI_REQUEST_NULL && req_equal(before, after);
}

/* After a completion call: request i (handle 'before' on entry) completed. */
static void done_one(MPI_Request before, MPI_Request after)
{
    tracked_t *t = before == MPI_REQUEST_NULL ? NULL : find(before);
    if (t)
        completed(t, is_persistent(before, after));
}

/* Copies of the handles, taken before MPI nulls the completed ones. */
static MPI_Request *save(int n, const MPI_Request *reqs)
{
    MPI_Request *s = malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s) {
        fprintf(stderr, "sendbuf: out of memory\n");
        abort();
    }
    memcpy(s, reqs, (size_t)(n > 0 ? n : 0) * sizeof *s);
    return s;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_Request before = *req;
    int rc = PMPI_Wait(req, status);
    done_one(before, *req);
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Request before = *req;
    int rc = PMPI_Test(req, flag, status);
    if (*flag)
        done_one(before, *req);
    return rc;
}

static void done_all(int n, const MPI_Request *before, const MPI_Request *after)
{
    for (int i = 0; i < n; i++)
        done_one(before[i], after[i]);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Waitall(n, reqs, statuses);
    done_all(n, before, reqs);
    free(before);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Testall(n, reqs, flag, statuses);
    if (*flag)
        done_all(n, before, reqs);
    free(before);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Waitany(n, reqs, index, status);
    if (*index != MPI_UNDEFINED)
        done_one(before[*index], reqs[*index]);
    free(before);
    return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Testany(n, reqs, index, flag, status);
    if (*flag && *index != MPI_UNDEFINED)
        done_one(before[*index], reqs[*index]);
    free(before);
    return rc;
}

static void done_some(const MPI_Request *before, const MPI_Request *reqs, int outcount,
                      const int *indices)
{
    for (int i = 0; outcount != MPI_UNDEFINED && i < outcount; i++)
        done_one(before[indices[i]], reqs[indices[i]]);
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    done_some(before, reqs, *outcount, indices);
    free(before);
    return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPI_Request *before = save(n, reqs);
    int rc = PMPI_Testsome(n, reqs, outcount, indices, statuses);
    done_some(before, reqs, *outcount, indices);
    free(before);
    return rc;
}

/* ------------------------------------------------------------------ RMA */

typedef struct {
    MPI_Win win;
    int target;
    const void *buf;
    size_t bytes;
    void *copy;
} put_t;

static put_t *puts_;
static size_t n_puts, puts_cap;

/* A one-sided write of buf to target started. */
static void put_started(MPI_Win win, int target, const void *buf, int count, MPI_Datatype type)
{
    if (n_puts == puts_cap) {
        puts_cap = puts_cap ? 2 * puts_cap : 256;
        puts_ = realloc(puts_, puts_cap * sizeof *puts_);
        if (!puts_) {
            fprintf(stderr, "sendbuf: out of memory\n");
            abort();
        }
    }
    size_t bytes = type_bytes(count, type);
    puts_[n_puts++] = (put_t){win, target, buf, bytes, snapshot(buf, bytes)};
}

int MPI_Put(const void *buf, int count, MPI_Datatype type, int target, MPI_Aint disp,
            int tcount, MPI_Datatype ttype, MPI_Win win)
{
    put_started(win, target, buf, count, type);
    return PMPI_Put(buf, count, type, target, disp, tcount, ttype, win);
}

int MPI_Accumulate(const void *buf, int count, MPI_Datatype type, int target, MPI_Aint disp,
                   int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
    put_started(win, target, buf, count, type);
    return PMPI_Accumulate(buf, count, type, target, disp, tcount, ttype, op, win);
}

/* The puts into 'win' to 'target' (-1: any) are complete at their origin. */
static void puts_done(MPI_Win win, int target)
{
    size_t keep = 0;
    for (size_t i = 0; i < n_puts; i++) {
        put_t *p = &puts_[i];
        if (p->win == win && (target < 0 || p->target == target)) {
            compare(p->buf, p->bytes, p->copy);
            free(p->copy);
        } else {
            puts_[keep++] = *p;
        }
    }
    n_puts = keep;
}

/* The calls that complete the puts to one target, or to all, of a window. */
#define COMPLETES_TARGET(call)                                                                 \
    int MPI_##call(int rank, MPI_Win win)                                                      \
    {                                                                                          \
        int rc = PMPI_##call(rank, win);                                                       \
        puts_done(win, rank);                                                                  \
        return rc;                                                                             \
    }
#define COMPLETES_ALL(call)                                                                    \
    int MPI_##call(MPI_Win win)                                                                \
    {                                                                                          \
        int rc = PMPI_##call(win);                                                             \
        puts_done(win, -1);                                                                    \
        return rc;                                                                             \
    }
COMPLETES_TARGET(Win_flush)
COMPLETES_TARGET(Win_flush_local)
COMPLETES_TARGET(Win_unlock)
COMPLETES_ALL(Win_flush_all)
COMPLETES_ALL(Win_flush_local_all)
COMPLETES_ALL(Win_unlock_all)

int MPI_Win_fence(int assert, MPI_Win win)
{
    int rc = PMPI_Win_fence(assert, win);
    puts_done(win, -1);
    return rc;
}

/* -------------------------------------------------------------- report */

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t pending = n_puts;
    for (size_t i = 0; i < table_cap; i++)
        pending += table[i].used && table[i].active;
    char line[256];
    int len = snprintf(line, sizeof line, "sendbuf: rank %d: %lu sends checked, %lu changed",
                       rank, n_checked, n_changed);
    if (n_freed || pending)
        snprintf(line + len, sizeof line - (size_t)len,
                 " (unchecked: %lu freed while pending, %zu never completed)", n_freed, pending);
    fprintf(stderr, "%s\n", line); /* one write: ranks share the terminal */
    return PMPI_Finalize();
}
