/* goal.c - schedules as LogGOPSim GOAL text: the reader (goal.h; the writer
 * is goal_write.c). */
#include "goal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "sched_csv.h"
#include "sched_flow.h"

/* -------------------------------------------------------------- reading */

#define MAX_TOKENS 16

static const char utf8_bom[] = "\xef\xbb\xbf";

/* A label of the rank being read: its text in the arena and its op. */
typedef struct {
    uint32_t text; /* offset into arena */
    uint32_t op;   /* the rank's op index (an MCAST's sends share one) */
} label_t;

/* What an op of the open rank is sure to know: its rank's leading receives
 * it requires (transitively), and how many receives are written before it. */
typedef struct {
    uint32_t cover, before;
} order_t;

typedef struct {
    const char *path;
    FILE *f;
    char *line;          /* the current line, comments blanked */
    size_t line_cap;
    uint32_t line_no;
    int in_comment;      /* inside a block comment */
    sched_t *s;
    uint32_t p;          /* num_ranks (0: not read yet) */
    int64_t rank;        /* the open block (-1: none) */
    uint32_t next_rank;  /* ranks below are done */
    uint32_t base;       /* the open rank's first op (global index) */
    label_t *label;      /* the open rank's labels */
    uint32_t n_label, label_cap;
    uint32_t *table;     /* open addressing: label index + 1, 0 empty */
    uint32_t table_size; /* a power of two */
    char *arena;
    size_t arena_len, arena_cap;
    uint64_t *edge;      /* the open rank's "requires": tail << 32 | head */
    uint32_t n_edge, edge_cap;
    order_t *order;      /* per op of the open rank (rank_order) */
    uint32_t order_cap;
    uint32_t op_line_cap; /* entries of s->line */
    uint32_t mcast_left; /* sends still to fold into the open MCAST */
    uint32_t mcast_peer; /* the next one's peer */
    uint32_t mcast_step; /* its tag */
    int mcast_first;     /* the next send is the MCAST itself */
    goal_notes_t *notes;
} reader_t;

static lop_status_t bad(const reader_t *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static lop_status_t bad(const reader_t *rd, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return lop_err(LOP_ERR_PARSE, "%s:%u: %s", rd->path, rd->line_no, why);
}

/* Grow *buf (of *cap elements of 'size') to hold 'need'. */
static int grow(void **buf, uint32_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    uint64_t cap2 = *cap ? 2 * (uint64_t)*cap : 64;
    cap2 = cap2 < need ? need : cap2;
    void *grown = cap2 <= UINT32_MAX ? lop_realloc_array(*buf, cap2, size) : NULL;
    if (!grown)
        return 0;
    *buf = grown;
    *cap = (uint32_t)cap2;
    return 1;
}

/* ---- lines and tokens ---- */

/* Blank comments out of the line (a block comment may span lines). */
static void strip_comments(reader_t *rd)
{
    for (char *c = rd->line; *c; c++) {
        if (rd->in_comment) {
            rd->in_comment = !(c[0] == '*' && c[1] == '/');
            *c = ' ';
            if (!rd->in_comment)
                *++c = ' ';
        } else if (c[0] == '/' && c[1] == '*') {
            rd->in_comment = 1;
            *c++ = ' ';
            *c = ' ';
        } else if (c[0] == '/' && c[1] == '/') {
            *c = '\0';
            return;
        }
    }
}

/* Split at blanks; ':', '{' and '}' are tokens of their own ("l1:" is "l1"
 * ":", "0{" is "0" "{").
 * Returns the count, or MAX_TOKENS + 1 for a line with more. */
static size_t split(char *line, const char **tok)
{
    static const char *const marks[] = {":", "{", "}"};
    size_t n = 0;
    for (char *c = line; *c;) {
        if (isspace((unsigned char)*c)) {
            *c++ = '\0';
            continue;
        }
        if (n == MAX_TOKENS)
            return MAX_TOKENS + 1;
        const char *punct = strchr(":{}", *c);
        if (*c && punct) { /* ends the word before it, if any */
            tok[n++] = marks[punct - ":{}"];
            *c++ = '\0';
            continue;
        }
        tok[n++] = c;
        while (*c && !isspace((unsigned char)*c) && !strchr(":{}", *c))
            c++;
    }
    return n;
}

/* A decimal number 0..max (no sign, no blank). */
static int number(const char *t, uint64_t max, uint64_t *v)
{
    if (!isdigit((unsigned char)*t))
        return 0;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(t, &end, 10);
    if (*end || errno || x > max)
        return 0;
    *v = x;
    return 1;
}

static int is_label(const char *t)
{
    if (!isalpha((unsigned char)*t))
        return 0;
    while (*++t)
        if (!isalnum((unsigned char)*t) && *t != '_')
            return 0;
    return 1;
}

/* ---- labels of the open rank ---- */

static uint32_t label_hash(const char *t)
{
    uint32_t h = 2166136261u;
    while (*t)
        h = (h ^ (unsigned char)*t++) * 16777619u;
    return h;
}

/* The slot of label 't' in the table: its entry or the empty slot for it. */
static uint32_t label_slot(const reader_t *rd, const char *t)
{
    uint32_t i = label_hash(t) & (rd->table_size - 1);
    while (rd->table[i] && strcmp(rd->arena + rd->label[rd->table[i] - 1].text, t) != 0)
        i = (i + 1) & (rd->table_size - 1);
    return i;
}

/* The op a label names, or UINT32_MAX. */
static uint32_t label_find(const reader_t *rd, const char *t)
{
    uint32_t e = rd->table_size ? rd->table[label_slot(rd, t)] : 0;
    return e ? rd->label[e - 1].op : UINT32_MAX;
}

static lop_status_t table_grow(reader_t *rd)
{
    if (2 * (uint64_t)(rd->n_label + 1) <= rd->table_size)
        return LOP_OK;
    uint32_t size = rd->table_size ? 2 * rd->table_size : 64;
    uint32_t *t = lop_calloc(size, sizeof *t);
    if (!t)
        return LOP_ERR_NOMEM;
    free(rd->table);
    rd->table = t;
    rd->table_size = size;
    for (uint32_t k = 0; k < rd->n_label; k++)
        rd->table[label_slot(rd, rd->arena + rd->label[k].text)] = k + 1;
    return LOP_OK;
}

static lop_status_t label_add(reader_t *rd, const char *t, uint32_t op)
{
    size_t len = strlen(t) + 1;
    if (label_find(rd, t) != UINT32_MAX)
        return bad(rd, "label %s is defined twice in rank %lld's block", t, (long long)rd->rank);
    if (table_grow(rd) || !grow((void **)&rd->label, &rd->label_cap, rd->n_label + 1,
                                sizeof *rd->label))
        return LOP_ERR_NOMEM;
    if (rd->arena_len + len > rd->arena_cap) {
        size_t cap = 2 * (rd->arena_len + len);
        char *a = lop_realloc_array(rd->arena, cap, 1);
        if (!a)
            return LOP_ERR_NOMEM;
        rd->arena = a;
        rd->arena_cap = cap;
    }
    memcpy(rd->arena + rd->arena_len, t, len);
    rd->label[rd->n_label] = (label_t){(uint32_t)rd->arena_len, op};
    rd->table[label_slot(rd, t)] = ++rd->n_label;
    rd->arena_len += len;
    return LOP_OK;
}

/* ---- ops ---- */

/* Append an op to the open rank, with its line. */
static lop_status_t push(reader_t *rd, sched_kind_t kind, int32_t peer, uint32_t step)
{
    sched_t *s = rd->s;
    if (s->n_ops == SCHED_MAX_OPS)
        return bad(rd, "more than %u operations, the most a schedule holds", SCHED_MAX_OPS);
    sched_push(s, kind, peer, step);
    if (s->error || !grow((void **)&s->line, &rd->op_line_cap, s->n_ops, sizeof *s->line))
        return s->error ? s->error : LOP_ERR_NOMEM;
    s->line[s->n_ops - 1] = rd->line_no;
    return LOP_OK;
}

/* The size: "8b" or "8" "b" (read, not used: lop's LogP has no G). */
static lop_status_t op_size(const reader_t *rd, const char **t, size_t n, size_t *i)
{
    char num[32];
    uint64_t v;
    size_t len = *i < n ? strlen(t[*i]) : 0;
    if (len > 1 && len < sizeof num && t[*i][len - 1] == 'b') {
        memcpy(num, t[*i], len - 1);
        num[len - 1] = '\0';
        if (number(num, UINT64_MAX, &v))
            return ++*i, LOP_OK;
    } else if (len && *i + 1 < n && strcmp(t[*i + 1], "b") == 0 && number(t[*i], UINT64_MAX, &v)) {
        *i += 2;
        return LOP_OK;
    }
    return bad(rd, "expected a size in bytes (8b) after %s", t[0]);
}

/* tag T, cpu C, nic K, each at most once: the tag, or what lop cannot run. */
static lop_status_t op_options(const reader_t *rd, const char **t, size_t n, size_t i,
                               uint32_t *tag)
{
    int seen[3] = {0, 0, 0};
    static const char *const word[] = {"tag", "cpu", "nic"};
    for (; i < n; i += 2) {
        int k = 0;
        uint64_t v;
        while (k < 3 && strcmp(t[i], word[k]) != 0)
            k++;
        if (k == 3 || seen[k]++ || i + 1 == n)
            return bad(rd, "'%s': expected tag, cpu or nic and a number", t[i]);
        if (strcmp(t[i + 1], "-1") == 0 && k == 0)
            return bad(rd, "tag -1 (any tag): lop matches the messages of a pair in order");
        if (!number(t[i + 1], k ? UINT64_MAX : (1u << 30) - 1, &v))
            return bad(rd, "%s %s: not a number%s", t[i], t[i + 1],
                       k ? "" : " in 0..1073741823 (lop keeps the tag as the op's step)");
        if (k && v != 0)
            return bad(rd, "%s %s: lop runs a rank on one CPU and one NIC (0)", t[i], t[i + 1]);
        if (k == 0)
            *tag = (uint32_t)v;
    }
    return LOP_OK;
}

/* "send SIZEb to R [options]" or "recv SIZEb from R [options]". */
static lop_status_t op_parse(const reader_t *rd, const char **t, size_t n, sched_kind_t *kind,
                             uint32_t *peer, uint32_t *tag)
{
    size_t i = 1;
    uint64_t v;
    if (strcmp(t[0], "calc") == 0)
        return bad(rd, "calc (a computation): lop's schedules have sends and receives only");
    if (strcmp(t[0], "send") != 0 && strcmp(t[0], "recv") != 0)
        return bad(rd, "'%s': expected send, recv, requires, rank or '}'", t[0]);
    *kind = t[0][0] == 's' ? SCHED_SEND : SCHED_RECV;
    lop_status_t st = op_size(rd, t, n, &i);
    if (st)
        return st;
    const char *dir = *kind == SCHED_SEND ? "to" : "from";
    if (i + 1 >= n || strcmp(t[i], dir) != 0)
        return bad(rd, "expected '%s RANK' after the size", dir);
    if (strcmp(t[i + 1], "-1") == 0)
        return bad(rd, "%s -1 (any source): lop receives from a named rank", dir);
    if (!number(t[i + 1], rd->p - 1, &v) || v == (uint64_t)rd->rank)
        return bad(rd, "%s %s: not another rank of 0..%u", dir, t[i + 1], rd->p - 1);
    *peer = (uint32_t)v;
    *tag = 0;
    return op_options(rd, t, n, i + 2, tag);
}

/* The next peer of an MCAST's sends: every rank but the sender, in order. */
static uint32_t mcast_next(const reader_t *rd, uint32_t q)
{
    return q + 1 == rd->rank ? q + 2 : q + 1;
}

/* One of the sends after GOAL_MCAST_MARK: the first is the MCAST, the others
 * name it too.  '*op' is the op its label names. */
static lop_status_t mcast_send(reader_t *rd, sched_kind_t kind, uint32_t peer, uint32_t tag,
                               uint32_t *op)
{
    int first = rd->mcast_first;
    if (kind != SCHED_SEND || peer != rd->mcast_peer || (!first && tag != rd->mcast_step))
        return bad(rd, "after '" GOAL_MCAST_MARK "': expected send to %u tag %u (an mcast is a "
                   "send to every other rank in order, one tag)", rd->mcast_peer,
                   first ? tag : rd->mcast_step);
    rd->mcast_step = tag;
    rd->mcast_first = 0;
    rd->mcast_peer = mcast_next(rd, peer);
    rd->mcast_left--;
    *op = rd->s->n_ops - rd->base - !first;
    return first ? push(rd, SCHED_MCAST, -1, tag) : LOP_OK;
}

/* "[LABEL :] send|recv ...": the op, and its label. */
static lop_status_t op_line(reader_t *rd, const char *label, const char **t, size_t n)
{
    sched_kind_t kind = SCHED_SEND;
    uint32_t peer = 0, tag = 0, op = rd->s->n_ops - rd->base;
    lop_status_t st = op_parse(rd, t, n, &kind, &peer, &tag);
    if (st == LOP_OK && rd->mcast_left)
        st = mcast_send(rd, kind, peer, tag, &op);
    else if (st == LOP_OK)
        st = push(rd, kind, (int32_t)peer, tag);
    return st || !label ? st : label_add(rd, label, op);
}

/* "A requires B": B must be written before A (lop's order holds it). */
static lop_status_t requires(reader_t *rd, const char *tail, const char *head)
{
    uint32_t a = label_find(rd, tail), b = label_find(rd, head);
    if (a == UINT32_MAX || b == UINT32_MAX)
        return bad(rd, "label %s is not defined before this line in rank %lld's block",
                   a == UINT32_MAX ? tail : head, (long long)rd->rank);
    if (a == b && strcmp(tail, head) != 0)
        return LOP_OK; /* two sends of one MCAST */
    if (b >= a)
        return bad(rd, "%s requires %s, written %s it: lop runs a rank's ops in the order "
                   "written", tail, head, a == b ? "as" : "after");
    if (!grow((void **)&rd->edge, &rd->edge_cap, rd->n_edge + 1, sizeof *rd->edge))
        return LOP_ERR_NOMEM;
    rd->edge[rd->n_edge++] = (uint64_t)a << 32 | b;
    return LOP_OK;
}

/* ---- blocks ---- */

static lop_status_t num_ranks(reader_t *rd, const char **t, size_t n)
{
    uint64_t v;
    if (rd->p || rd->rank >= 0)
        return bad(rd, "num_ranks again, or inside a block: it comes once, first");
    if (n != 2 || !number(t[1], SCHED_MAX_P, &v) || v < 1)
        return bad(rd, "num_ranks: expected a number of ranks in 1..%u", SCHED_MAX_P);
    rd->p = (uint32_t)v;
    return sched_init(rd->s, rd->p);
}

/* "rank R {": ranks skipped since the last block have no ops. */
static lop_status_t rank_open(reader_t *rd, const char **t, size_t n)
{
    uint64_t v;
    if (!rd->p)
        return bad(rd, "a rank's block before num_ranks");
    if (rd->rank >= 0)
        return bad(rd, "rank inside rank %lld's block (no '}' before it)", (long long)rd->rank);
    if (n != 3 || strcmp(t[2], "{") != 0 || !number(t[1], rd->p - 1, &v))
        return bad(rd, "expected 'rank R {' with R in 0..%u", rd->p - 1);
    if (v < rd->next_rank)
        return bad(rd, "rank %s after rank %u: blocks come in ascending order (LogGOPSim's "
                   "txt2bin reads them so)", t[1], rd->next_rank - 1);
    for (; rd->next_rank < v; rd->next_rank++)
        sched_end_rank(rd->s, rd->next_rank);
    rd->rank = (int64_t)v;
    rd->base = rd->s->n_ops;
    return LOP_OK;
}

/* Which sends carry, in lop's order, what a receive they do not require
 * brought: per op the leading receives of its rank it requires, transitively
 * (the edges point back, so one pass in order sees every head finished). */
static lop_status_t rank_order(reader_t *rd)
{
    uint32_t count = rd->s->n_ops - rd->base, e = 0, recvs = 0;
    if (count == 0)
        return LOP_OK;
    const sched_op_t *op = rd->s->op + rd->base;
    if (!grow((void **)&rd->order, &rd->order_cap, count, sizeof *rd->order))
        return LOP_ERR_NOMEM;
    order_t *o = rd->order;
    sched_keys_sort(rd->edge, rd->n_edge);
    for (uint32_t k = 0; k < count; k++) {
        o[k] = (order_t){0, recvs};
        for (; e < rd->n_edge && rd->edge[e] >> 32 == k; e++) {
            const order_t *h = &o[(uint32_t)rd->edge[e]];
            uint32_t c = h->cover + (op[(uint32_t)rd->edge[e]].kind == SCHED_RECV &&
                                     h->cover == h->before);
            o[k].cover = c > o[k].cover ? c : o[k].cover;
        }
        if (op[k].kind != SCHED_RECV && o[k].cover < recvs && !rd->notes->loose++)
            rd->notes->loose_line = rd->s->line[rd->base + k];
        recvs += op[k].kind == SCHED_RECV;
    }
    return LOP_OK;
}

static lop_status_t rank_close(reader_t *rd)
{
    if (rd->rank < 0)
        return bad(rd, "'}' outside a rank's block");
    if (rd->mcast_left)
        return bad(rd, "'}' after %u of the sends of an mcast", rd->p - 1 - rd->mcast_left);
    lop_status_t st = rank_order(rd);
    sched_end_rank(rd->s, (uint32_t)rd->rank);
    rd->next_rank = (uint32_t)rd->rank + 1;
    rd->rank = -1;
    rd->n_label = rd->n_edge = 0;
    rd->arena_len = 0;
    if (rd->table)
        memset(rd->table, 0, rd->table_size * sizeof *rd->table);
    return st;
}

/* The comment line before an MCAST's sends. */
static lop_status_t mcast_mark(reader_t *rd)
{
    if (rd->rank < 0 || rd->mcast_left)
        return bad(rd, "'" GOAL_MCAST_MARK "' outside a block or inside an mcast");
    rd->mcast_left = rd->p - 1;
    rd->mcast_peer = rd->rank == 0 ? 1 : 0;
    rd->mcast_first = 1;
    return rd->p == 1 ? push(rd, SCHED_MCAST, -1, 0) : LOP_OK;
}

static lop_status_t statement(reader_t *rd, const char **t, size_t n)
{
    if (n == 0)
        return LOP_OK;
    if (n > MAX_TOKENS)
        return bad(rd, "more than %d words", MAX_TOKENS);
    if (strcmp(t[0], "num_ranks") == 0)
        return num_ranks(rd, t, n);
    if (strcmp(t[0], "rank") == 0)
        return rank_open(rd, t, n);
    if (strcmp(t[0], "}") == 0)
        return n == 1 ? rank_close(rd) : bad(rd, "'}' is a line of its own");
    if (rd->rank < 0)
        return bad(rd, "'%s' outside a rank's block", t[0]);
    if (n == 3 && strcmp(t[1], "irequires") == 0)
        return bad(rd, "irequires (a dependency on an op's start): lop runs a rank's ops in "
                   "order, each after the previous one ends");
    if (n == 3 && strcmp(t[1], "requires") == 0)
        return requires(rd, t[0], t[2]);
    if (n > 2 && strcmp(t[1], ":") == 0 && is_label(t[0]))
        return op_line(rd, t[0], t + 2, n - 2);
    return op_line(rd, NULL, t, n);
}

/* Every line: the mark, or a statement with its comments blanked. */
static lop_status_t read_lines(reader_t *rd)
{
    const char *t[MAX_TOKENS + 1];
    lop_status_t st = LOP_OK;
    ssize_t len;
    while (st == LOP_OK && (len = getline(&rd->line, &rd->line_cap, rd->f)) >= 0) {
        rd->line_no++;
        if ((size_t)len != strlen(rd->line))
            return bad(rd, "a NUL byte");
        if (rd->line_no == 1 && strncmp(rd->line, utf8_bom, 3) == 0)
            memset(rd->line, ' ', 3); /* an editor's byte order mark: not a word */
        char *c = rd->line + strspn(rd->line, " \t");
        size_t mark = strlen(GOAL_MCAST_MARK);
        if (!rd->in_comment && strncmp(c, GOAL_MCAST_MARK, mark) == 0 &&
            c[mark + strspn(c + mark, " \t\r\n")] == '\0') {
            st = mcast_mark(rd);
            continue;
        }
        strip_comments(rd);
        st = statement(rd, t, split(rd->line, t));
    }
    if (st == LOP_OK && ferror(rd->f))
        st = lop_err(LOP_ERR_IO, "%s: cannot read: %s", rd->path, strerror(errno));
    return st;
}

static lop_status_t read_end(reader_t *rd)
{
    if (rd->in_comment)
        return bad(rd, "a comment is not closed");
    if (rd->rank >= 0)
        return bad(rd, "rank %lld's block has no '}'", (long long)rd->rank);
    if (!rd->p)
        return bad(rd, "no num_ranks line");
    for (; rd->next_rank < rd->p; rd->next_rank++)
        sched_end_rank(rd->s, rd->next_rank);
    if (!rd->s->op) /* no op at all: walkers still add offsets to it */
        rd->s->op = lop_calloc(1, sizeof *rd->s->op);
    return rd->s->op ? LOP_OK : LOP_ERR_NOMEM;
}

static void reader_free(reader_t *rd)
{
    free(rd->line);
    free(rd->label);
    free(rd->table);
    free(rd->arena);
    free(rd->edge);
    free(rd->order);
    if (rd->f)
        fclose(rd->f);
}

lop_status_t sched_goal_read(const char *path, sched_t *s, goal_notes_t *notes)
{
    reader_t rd = {.path = path, .s = s, .rank = -1, .notes = notes};
    memset(s, 0, sizeof *s);
    memset(notes, 0, sizeof *notes);
    lop_status_t st = lop_input_open(path, &rd.f);
    if (st)
        return st;
    st = read_lines(&rd);
    st = st ? st : read_end(&rd);
    if (st == LOP_OK) {
        const char *slash = strrchr(path, '/');
        snprintf(s->alg, sizeof s->alg, "%s", slash ? slash + 1 : path);
        s->path = lop_strdup(path);
        st = s->path ? LOP_OK : LOP_ERR_NOMEM;
    }
    reader_free(&rd);
    if (st)
        sched_free(s);
    return st;
}

int sched_goal_sniff(const char *path)
{
    char head[4096];
    FILE *f = NULL; /* a file refused here is refused again, and said, by the reader */
    size_t n = lop_input_open(path, &f) == LOP_OK ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
        fclose(f);
    head[n] = '\0';
    const char *c = strncmp(head, utf8_bom, 3) == 0 ? head + 3 : head;
    for (;;) { /* blanks and comments before the first word */
        c += strspn(c, " \t\r\n");
        if (c[0] == '/' && c[1] == '/')
            c += strcspn(c, "\n");
        else if (c[0] == '/' && c[1] == '*' && strstr(c + 2, "*" "/"))
            c = strstr(c + 2, "*" "/") + 2;
        else
            break;
    }
    /* "num_ranks" alone, or with a bad count, is a GOAL file whose reader
     * says what is wrong with that line (as CSV it lacked a column) */
    return strncmp(c, "num_ranks", 9) == 0 && (c[9] == '\0' || isspace((unsigned char)c[9]));
}

lop_status_t sched_file_read(const char *path, sched_t *s, goal_notes_t *notes)
{
    memset(notes, 0, sizeof *notes);
    return sched_goal_sniff(path) ? sched_goal_read(path, s, notes) : sched_csv_read(path, s);
}

void goal_notes_say(const goal_notes_t *notes, const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%u: this send and %llu more do not require every receive "
             "written before them: lop runs a rank's ops in the order written, so the check "
             "and the times are those of that order", path, notes->loose_line,
             (unsigned long long)notes->loose - 1);
}
