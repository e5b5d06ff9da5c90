/* cli.c - table-driven option parsing and help (cli.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

/* The key getopt returns for row i: its own, or one above every char and
 * every key a tool picks. */
#define AUTO_KEY 0x10000

static size_t table_length(const lop_cli_opt_t *opts)
{
    size_t n = 0;
    while (opts[n].name)
        n++;
    return n;
}

static int row_key(const lop_cli_opt_t *opts, size_t i)
{
    return opts[i].key ? opts[i].key : AUTO_KEY + (int)i;
}

/* A SET row stores choices[i] as bit i of an unsigned (1u << i): a row with
 * more choices than bits would overflow the shift, so its table is refused
 * before anything is parsed by it. */
static lop_status_t table_check(const lop_cli_opt_t *opts)
{
    const size_t bits = sizeof(unsigned) * CHAR_BIT;
    for (const lop_cli_opt_t *o = opts; o->name; o++) {
        size_t n = 0;
        while (o->kind == LOP_CLI_SET && o->choices && o->choices[n])
            n++;
        if (n > bits)
            return lop_err(LOP_ERR_RANGE, "internal: option --%s has %zu choices, more "
                           "than the %zu bits of its set", o->name, n, bits);
    }
    return LOP_OK;
}

lop_status_t lop_cli_init(lop_cli_t *cli, int argc, char **argv, const lop_cli_opt_t *opts)
{
    *cli = (lop_cli_t){0}; /* on failure: lop_cli_free of it is a no-op */
    lop_status_t st = table_check(opts);
    if (st != LOP_OK)
        return st;
    size_t n = table_length(opts);
    struct option *table = lop_calloc(n + 1, sizeof *table);
    char *shortopts = lop_calloc(2 * n + 2, 1);
    unsigned char *given = lop_calloc(n + 1, 1);
    const char **args = lop_calloc(n + 1, sizeof *args);
    if (!table || !shortopts || !given || !args) {
        free(table);
        free(shortopts);
        free(given);
        free(args);
        return LOP_ERR_NOMEM;
    }
    char *s = shortopts;
    *s++ = ':'; /* report a missing argument as ':' rather than '?' */
    for (size_t i = 0; i < n; i++) {
        table[i] = (struct option){opts[i].name, opts[i].arg ? required_argument : no_argument,
                                   NULL, row_key(opts, i)};
        if (opts[i].key > 0 && opts[i].key < 128) {
            *s++ = (char)opts[i].key;
            if (opts[i].arg)
                *s++ = ':';
        }
    }
    *cli = (lop_cli_t){argc, argv, opts, table, shortopts, given, args};
    opterr = 0;
    optind = 1;
    return LOP_OK;
}

void lop_cli_free(lop_cli_t *cli)
{
    free(cli->getopt_table);
    free(cli->shortopts);
    free(cli->given);
    free(cli->args);
}

int lop_cli_operand_index(const lop_cli_t *cli)
{
    (void)cli;
    return optind;
}

int lop_cli_next(lop_cli_t *cli, const char **arg)
{
    int c = getopt_long(cli->argc, cli->argv, cli->shortopts, cli->getopt_table, NULL);
    *arg = optarg;
    if (c == -1)
        return LOP_CLI_END;
    if (c == '?' || c == ':') {
        const char *word = cli->argv[optind - 1];
        const char *eq = strncmp(word, "--", 2) == 0 ? strchr(word, '=') : NULL;
        if (c == ':')
            lop_err(LOP_ERR_INVALID, "option %s needs an argument (see --help)", word);
        else if (eq && optopt) /* getopt_long's '?' for --flag=VALUE sets optopt to its key */
            lop_err(LOP_ERR_INVALID, "option %.*s takes no value (see --help)",
                    (int)(eq - word), word);
        else if (optopt)
            lop_err(LOP_ERR_INVALID, "unknown option '-%c' (see --help)", optopt);
        else
            lop_err(LOP_ERR_INVALID, "unknown option '%s' (see --help)", word);
        return LOP_CLI_ERROR;
    }
    return c;
}

/* ------------------------------------------------------- options as data */

/* A comma-separated list of choices as a bit mask. */
typedef struct {
    const char *opt;
    const char *const *choices;
    unsigned mask;
} choice_set_t;

static lop_status_t choice_set_item(void *ctx, char *item)
{
    choice_set_t *s = ctx;
    int index;
    lop_status_t st = lop_cli_choice(s->opt, item, s->choices, &index);
    s->mask |= st == LOP_OK ? 1u << index : 0;
    return st;
}

/* An integer into a field of int or long size (unsigned long: the same bits
 * for the non-negative values a range allows). */
static void integer_store(char *at, size_t size, long v)
{
    int small = (int)v;
    if (size == sizeof small)
        memcpy(at, &small, sizeof small);
    else
        memcpy(at, &v, sizeof v);
}

/* A row's bound as a long: .max = LONG_MAX is 2^63 as a double, which no
 * long holds (the cast would be undefined). */
static long long_bound(double x)
{
    return x >= (double)LONG_MAX ? LONG_MAX : x <= (double)LONG_MIN ? LONG_MIN : (long)x;
}

static lop_status_t apply_int(const lop_cli_opt_t *o, char *at, const char *arg)
{
    long v;
    lop_status_t st = lop_cli_long(o->name, arg, long_bound(o->min), long_bound(o->max), &v);
    if (st == LOP_OK)
        integer_store(at, o->size, v);
    return st;
}

/* CHOICE: the index, or the row's value for it, into an integer field;
 * NAME: the choice itself into a const char * field. */
static lop_status_t apply_choice(const lop_cli_opt_t *o, char *at, const char *arg)
{
    int index;
    lop_status_t st = lop_cli_choice(o->name, arg, o->choices, &index);
    if (st == LOP_OK && o->kind == LOP_CLI_NAME)
        memcpy(at, &o->choices[index], sizeof o->choices[index]);
    else if (st == LOP_OK)
        integer_store(at, o->size, o->choice_values ? o->choice_values[index] : index);
    return st;
}

static lop_status_t apply_set(const lop_cli_opt_t *o, char *at, const char *arg)
{
    choice_set_t set = {o->name, o->choices, 0};
    lop_status_t st = lop_cli_items(o->name, arg, choice_set_item, &set);
    if (st == LOP_OK)
        memcpy(at, &set.mask, sizeof set.mask);
    return st;
}

static lop_status_t apply_longs(const lop_cli_opt_t *o, char *at, const char *arg)
{
    lop_cli_longs_t *list = (lop_cli_longs_t *)(void *)at;
    free(list->values); /* the option given before: the last one counts */
    return lop_cli_long_list(o->name, arg, long_bound(o->min), long_bound(o->max), &list->values,
                             &list->count);
}

/* REALS: the list being filled, and the row that bounds its values. */
typedef struct {
    const lop_cli_opt_t *row;
    lop_cli_reals_t *list;
} reals_fill_t;

static lop_status_t real_item(void *ctx, char *item)
{
    reals_fill_t *f = ctx;
    double *v = &f->list->values[f->list->count];
    lop_status_t st = lop_cli_double(f->row->name, item, f->row->min, f->row->max, v);
    f->list->count += st == LOP_OK;
    return st;
}

static lop_status_t apply_reals(const lop_cli_opt_t *o, char *at, const char *arg)
{
    lop_cli_reals_t *list = (lop_cli_reals_t *)(void *)at;
    size_t items = 1; /* one more than the commas: room for every item */
    for (const char *c = arg; *c; c++)
        items += *c == ',';
    free(list->values); /* the option given before: the last one counts */
    *list = (lop_cli_reals_t){lop_calloc(items, sizeof *list->values), 0};
    if (!list->values)
        return LOP_ERR_NOMEM;
    reals_fill_t fill = {o, list};
    lop_status_t st = lop_cli_values(o->name, arg, real_item, &fill);
    if (st) { /* no half list */
        free(list->values);
        *list = (lop_cli_reals_t){NULL, 0};
    }
    return st;
}

lop_status_t lop_cli_dir(void *opts, const lop_cli_opt_t *opt, const char *arg)
{
    if (*arg == '\0')
        return lop_err(LOP_ERR_INVALID, "option --%s: empty directory name", opt->name);
    memcpy((char *)opts + opt->field, &arg, sizeof arg);
    return LOP_OK;
}

static lop_status_t row_apply(const lop_cli_opt_t *o, void *opts, const char *arg)
{
    char *at = (char *)opts + o->field;
    int one = 1;
    switch (o->kind) {
    case LOP_CLI_FLAG: memcpy(at, &one, sizeof one); return LOP_OK;
    case LOP_CLI_TEXT: /* a file, a directory or a name: '' names none */
        if (!*arg)
            return lop_err(LOP_ERR_INVALID, "option --%s: %s is empty", o->name,
                           o->arg ? o->arg : "the argument");
        memcpy(at, &arg, sizeof arg);
        return LOP_OK;
    case LOP_CLI_INT: return apply_int(o, at, arg);
    case LOP_CLI_REAL: return lop_cli_double(o->name, arg, o->min, o->max, (double *)(void *)at);
    case LOP_CLI_CHOICE:
    case LOP_CLI_NAME: return apply_choice(o, at, arg);
    case LOP_CLI_SET: return apply_set(o, at, arg);
    case LOP_CLI_LONGS: return apply_longs(o, at, arg);
    case LOP_CLI_REALS: return apply_reals(o, at, arg);
    case LOP_CLI_CUSTOM: return o->parse(opts, o, arg);
    default: return lop_err(LOP_ERR_INVALID, "option --%s: no parser (a key row)", o->name);
    }
}

/* A given option's marks: its 'given' int set to 1, its 'named' to its name. */
static void row_mark(const lop_cli_opt_t *o, void *opts)
{
    int one = 1;
    if (o->given)
        memcpy((char *)opts + o->given - 1, &one, sizeof one);
    if (o->named)
        memcpy((char *)opts + o->named - 1, &o->name, sizeof o->name);
}

lop_status_t lop_cli_parse(lop_cli_t *cli, void *opts)
{
    const char *arg;
    int key;
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && (key = lop_cli_next(cli, &arg)) != LOP_CLI_END) {
        size_t i = 0;
        while (key != LOP_CLI_ERROR && row_key(cli->opts, i) != key)
            i++;
        st = key == LOP_CLI_ERROR ? LOP_ERR_INVALID : row_apply(&cli->opts[i], opts, arg);
        if (st == LOP_OK) {
            row_mark(&cli->opts[i], opts);
            cli->given[i] = 1;
            cli->args[i] = arg;
        }
    }
    return st;
}

void lop_cli_lists_free(const lop_cli_opt_t *opts_table, void *opts)
{
    for (const lop_cli_opt_t *o = opts_table; o->name; o++) {
        char *at = (char *)opts + o->field;
        if (o->kind == LOP_CLI_LONGS) {
            lop_cli_longs_t *longs = (lop_cli_longs_t *)(void *)at;
            free(longs->values);
            *longs = (lop_cli_longs_t){NULL, 0};
        } else if (o->kind == LOP_CLI_REALS) {
            lop_cli_reals_t *reals = (lop_cli_reals_t *)(void *)at;
            free(reals->values);
            *reals = (lop_cli_reals_t){NULL, 0};
        }
    }
}

/* 'choices' joined by ", " and 'last_sep' before the last one ("a, b or c"),
 * written out whole: no buffer to outgrow. */
static void choices_print(FILE *out, const char *const *choices, const char *last_sep)
{
    for (size_t i = 0; choices[i]; i++)
        fprintf(out, "%s%s", i == 0 ? "" : choices[i + 1] ? ", " : last_sep, choices[i]);
}

/* The row's help line, its "{}" replaced by its choices. */
static void help_print(FILE *out, const lop_cli_opt_t *o)
{
    const char *mark = o->join && o->choices ? strstr(o->help, "{}") : NULL;
    if (!mark) {
        fputs(o->help, out);
        return;
    }
    fwrite(o->help, 1, (size_t)(mark - o->help), out);
    choices_print(out, o->choices, o->join);
    fputs(mark + 2, out);
}

void lop_cli_usage(FILE *out, const char *synopsis, const char *about, const lop_cli_opt_t *opts)
{
    enum { LEFT_WIDTH = 28 }; /* the option column; a longer one pushes its help right */
    fprintf(out, "Usage: %s\n%s\n\nOptions:\n", synopsis, about);
    for (const lop_cli_opt_t *o = opts; o->name; o++) {
        int has_short = o->key > 0 && o->key < 128;
        if (!o->help)
            continue;
        fputs("  ", out);
        int left = fprintf(out, "%s%c%s--%s%s%s", has_short ? "-" : "  ", has_short ? o->key : ' ',
                           has_short ? ", " : "  ", o->name, o->arg ? " " : "",
                           o->arg ? o->arg : "");
        fprintf(out, "%*s ", left < LEFT_WIDTH ? LEFT_WIDTH - left : 0, "");
        help_print(out, o);
        fputc('\n', out);
    }
}

lop_status_t lop_cli_long(const char *opt, const char *arg, long min, long max, long *value)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || errno == ERANGE)
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' is not an integer", opt, arg);
    if (v < min || v > max)
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' is not in %ld..%ld", opt, arg, min,
                       max);
    *value = v;
    return LOP_OK;
}

lop_status_t lop_cli_double(const char *opt, const char *arg, double min, double max,
                            double *value)
{
    double v;
    if (!lop_parse_double(arg, &v))
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' %s", opt, arg,
                       lop_parse_double_why(arg));
    if (v < min || v > max)
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' is not in %g..%g", opt, arg, min,
                       max);
    *value = v;
    return LOP_OK;
}

lop_status_t lop_cli_choice(const char *opt, const char *arg, const char *const *choices,
                            int *index)
{
    for (int i = 0; choices[i]; i++) {
        if (strcmp(arg, choices[i]) == 0) {
            *index = i;
            return LOP_OK;
        }
    }
    char *known = NULL; /* the choices, as long as they are */
    size_t len;
    FILE *list = open_memstream(&known, &len);
    if (list)
        choices_print(list, choices, ", ");
    if (!list || fclose(list) != 0) {
        free(known);
        return lop_err(LOP_ERR_NOMEM, "out of memory (the choices of option --%s)", opt);
    }
    lop_status_t st = lop_err(LOP_ERR_INVALID, "option --%s: unknown value '%s' (one of: %s)",
                              opt, arg, known);
    free(known);
    return st;
}

/* Is 'item' one of the items before it in 'list' (cut at its commas so far)? */
static int item_earlier(const char *list, const char *item)
{
    for (const char *p = list; p < item; p += strlen(p) + 1)
        if (strcmp(p, item) == 0)
            return 1;
    return 0;
}

static lop_status_t items(const char *opt, const char *arg, lop_cli_item_fn *each, void *ctx,
                          int unique)
{
    if (arg[strspn(arg, ",")] == '\0')
        return lop_err(LOP_ERR_INVALID, "option --%s: empty list", opt);
    char *copy = lop_strdup(arg); /* as long as the argument: no item is ever cut */
    if (!copy)
        return LOP_ERR_NOMEM;
    lop_status_t st = LOP_OK;
    char *item = copy;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (*item == '\0')
            st = lop_err(LOP_ERR_INVALID, "option --%s: empty item in '%s'", opt, arg);
        else if (unique && item_earlier(copy, item))
            st = lop_err(LOP_ERR_INVALID, "option --%s: '%s' is named twice", opt, item);
        st = st ? st : each(ctx, item);
        if (st || !comma)
            break;
        item = comma + 1;
    }
    free(copy);
    return st;
}

lop_status_t lop_cli_items(const char *opt, const char *arg, lop_cli_item_fn *each, void *ctx)
{
    return items(opt, arg, each, ctx, 1);
}

lop_status_t lop_cli_values(const char *opt, const char *arg, lop_cli_item_fn *each, void *ctx)
{
    return items(opt, arg, each, ctx, 0);
}

/* One item of an integer list: "v" or "lo..hi" (min <= lo <= hi <= max). */
static lop_status_t parse_range(const char *opt, char *item, long min, long max, long *lo,
                                long *hi)
{
    char *dots = strstr(item, "..");
    if (!dots) {
        lop_status_t st = lop_cli_long(opt, item, min, max, lo);
        *hi = *lo;
        return st;
    }
    *dots = '\0';
    lop_status_t st = lop_cli_long(opt, item, min, max, lo);
    st = st ? st : lop_cli_long(opt, dots + 2, LONG_MIN, LONG_MAX, hi);
    *dots = '.';
    if (st == LOP_OK && *hi < *lo) /* before the bounds, so every tool says the same */
        return lop_err(LOP_ERR_INVALID, "option --%s: empty range '%s'", opt, item);
    return st ? st : lop_cli_long(opt, dots + 2, min, max, hi);
}

typedef struct {
    const char *opt;
    long min, max;
    long *values; /* NULL: count only */
    size_t n;     /* values so far */
} long_list_t;

static lop_status_t long_item(void *ctx, char *item)
{
    long_list_t *l = ctx;
    long lo, hi;
    lop_status_t st = parse_range(l->opt, item, l->min, l->max, &lo, &hi);
    if (st)
        return st;
    /* counted before anything is allocated, so a huge range costs nothing */
    if ((unsigned long)(hi - lo) >= LOP_CLI_LIST_MAX - l->n)
        return lop_err(LOP_ERR_INVALID, "option --%s: list longer than %d values (README: Limits)",
                       l->opt, LOP_CLI_LIST_MAX);
    for (long v = lo; l->values && v <= hi; v++)
        l->values[l->n++] = v;
    if (!l->values)
        l->n += (size_t)(hi - lo) + 1;
    return LOP_OK;
}

static int long_cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* A value named twice would give the same row twice: an error. */
static lop_status_t no_repeats(const char *opt, const long *values, size_t n)
{
    long *sorted = n > 1 ? lop_calloc(n, sizeof *sorted) : NULL;
    if (n > 1 && !sorted)
        return LOP_ERR_NOMEM;
    lop_status_t st = LOP_OK;
    if (sorted) {
        memcpy(sorted, values, n * sizeof *sorted);
        qsort(sorted, n, sizeof *sorted, long_cmp);
        for (size_t i = 1; i < n && st == LOP_OK; i++)
            if (sorted[i] == sorted[i - 1])
                st = lop_err(LOP_ERR_INVALID, "option --%s: '%ld' is named twice", opt, sorted[i]);
    }
    free(sorted);
    return st;
}

lop_status_t lop_cli_long_list(const char *opt, const char *arg, long min, long max,
                               long **values, size_t *n)
{
    long_list_t count = {opt, min, max, NULL, 0};
    *values = NULL;
    *n = 0;
    lop_status_t st = lop_cli_items(opt, arg, long_item, &count);
    if (st)
        return st;
    long_list_t fill = {opt, min, max, lop_calloc(count.n, sizeof *fill.values), 0};
    if (!fill.values)
        return LOP_ERR_NOMEM;
    st = lop_cli_items(opt, arg, long_item, &fill);
    if (st) {
        free(fill.values);
        return st;
    }
    st = no_repeats(opt, fill.values, fill.n);
    if (st) {
        free(fill.values);
        return st;
    }
    *values = fill.values;
    *n = fill.n;
    return LOP_OK;
}

int lop_cli_list_has(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t item = comma ? (size_t)(comma - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return 1;
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}
