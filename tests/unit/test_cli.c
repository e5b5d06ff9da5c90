/* Option parsing: the table drives parsing and help; errors name the option;
 * options as data (kinds, fields, marks, "only with", choices in help). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

static const lop_cli_opt_t opts[] = {
    {"max-post", 'k', "K", "posts per series (default: 16)"},
    {"quiet", 'q', NULL, "no progress"},
    {"ops", 1000, "LIST", "operations"},
    {NULL, 0, NULL, NULL},
};

static int parse(int argc, char **argv, int *keys, const char **args)
{
    lop_cli_t cli;
    lop_cli_init(&cli, argc, argv, opts);
    int n = 0, c;
    const char *arg;
    while ((c = lop_cli_next(&cli, &arg)) >= 0) {
        keys[n] = c;
        args[n++] = arg;
    }
    lop_cli_free(&cli);
    return c == LOP_CLI_ERROR ? -1 : n;
}

/* lop_cli_usage's text of 'rows'. */
static void usage_text(const lop_cli_opt_t *rows, char *text, size_t size)
{
    FILE *f = tmpfile();
    lop_cli_usage(f, "x [options]", "About.", rows);
    rewind(f);
    size_t len = fread(text, 1, size - 1, f);
    text[len] = '\0';
    fclose(f);
}

/* ---- options as data: every kind of row fills its field, a row's mark
 * and "only with" work, numbered rows need no key, and "{}" in a help line
 * is the row's choices */

typedef struct {
    int verbose, mode, mode_given, level_given;
    const char *file, *color;
    long count;
    int small;
    double rate;
    unsigned colors;
    int custom_calls;
} data_opts_t;

static const char *const modes[] = {"fast", "slow", NULL};
static const char *const colors[] = {"red", "green", "blue", NULL};

static lop_status_t parse_even(void *data, const lop_cli_opt_t *opt, const char *arg)
{
    data_opts_t *o = data;
    o->custom_calls++;
    if (strlen(arg) % 2)
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' has an odd length", opt->name, arg);
    return LOP_OK;
}

#define AT(member) LOP_CLI_AT(data_opts_t, member)

static const lop_cli_opt_t table[] = {
    {"verbose", 'v', NULL, "talk", LOP_CLI_FLAG, AT(verbose)},
    {"file", 0, "FILE", "a file", LOP_CLI_TEXT, AT(file), .only_with = "verbose"},
    {"count", 0, "N", "a long", LOP_CLI_INT, AT(count), .min = 1, .max = 10},
    {"small", 0, "N", "an int", LOP_CLI_INT, AT(small), .min = -5, .max = 5,
     .given = LOP_CLI_MARK(data_opts_t, level_given)},
    {"rate", 0, "R", "a double", LOP_CLI_REAL, AT(rate), .min = 0, .max = 1},
    {"mode", 'm', "M", "{} (default: fast)", LOP_CLI_CHOICE, AT(mode), .choices = modes,
     .join = " or ", .given = LOP_CLI_MARK(data_opts_t, mode_given)},
    {"color", 0, "C", "one of {}", LOP_CLI_NAME, AT(color), .choices = colors, .join = ", "},
    {"colors", 0, "LIST", "{} (default: all)", LOP_CLI_SET, AT(colors), .choices = colors,
     .join = " and "},
    {"even", 0, "S", "an even-length word", LOP_CLI_CUSTOM, .parse = parse_even},
    {NULL, 0, NULL, NULL},
};

/* Parse the words (NULL-terminated) by 'rows' into 'o', which holds the
 * defaults; the status of parse and of the check (one mode: only_with). */
static lop_status_t parse_words(const lop_cli_opt_t *rows, void *o, char **words)
{
    static const lop_cli_mode_t one_mode[] = {{"x", NULL, NULL, NULL, "the only mode"}, {NULL}};
    int argc = 0, mode;
    while (words[argc])
        argc++;
    lop_cli_t cli;
    lop_status_t st = lop_cli_init(&cli, argc, words, rows);
    st = st ? st : lop_cli_parse(&cli, o);
    st = st ? st : lop_cli_check(&cli, one_mode, &mode);
    lop_cli_free(&cli);
    return st;
}

static lop_status_t parse_data(data_opts_t *o, char **words)
{
    *o = (data_opts_t){.colors = 7};
    return parse_words(table, o, words);
}

#define WORDS(...) ((char *[]){"x", __VA_ARGS__, NULL})

static void test_data_rows(void)
{
    data_opts_t o;
    ok(parse_data(&o, WORDS("-v", "--file", "f.csv", "--count", "7", "--small", "-3", "--rate",
                       "0.5", "-m", "slow", "--color", "green", "--colors", "blue,red",
                       "--even", "ab")) == LOP_OK,
       "every kind parses: %s", lop_errmsg());
    ok(o.verbose == 1 && strcmp(o.file, "f.csv") == 0, "FLAG and TEXT fill their fields");
    ok(o.count == 7 && o.small == -3 && o.rate == 0.5, "INT into a long and an int, REAL");
    ok(o.mode == 1 && o.mode_given && o.level_given, "CHOICE gives the index; marks are set");
    ok(strcmp(o.color, "green") == 0 && o.color == colors[1], "NAME points to the choice");
    ok(o.colors == (1u << 2 | 1u << 0), "SET gives the bits of the listed choices");
    ok(o.custom_calls == 1, "CUSTOM calls the row's function");

    ok(parse_data(&o, WORDS("--count", "7")) == LOP_OK && !o.mode_given && o.colors == 7,
       "an option not given keeps its default and its mark");
    static const struct {
        const char *option, *value, *message;
    } refused[] = {
        {"--count", "11", "option --count: '11' is not in 1..10"},          /* INT */
        {"--small", "6", "option --small: '6' is not in -5..5"},            /* negative bounds */
        {"--rate", "2", "option --rate: '2' is not in 0..1"},               /* REAL */
        {"-m", "medium", "option --mode: unknown value 'medium' (one of: fast, slow)"},
        {"--colors", "red,red", "option --colors: 'red' is named twice"},   /* SET */
        {"--even", "abc", "option --even: 'abc' has an odd length"},        /* CUSTOM's own */
        {"--file", "f.csv", "option --file: only with --verbose"},          /* only with */
        {"--file", "", "option --file: FILE is empty"},                     /* TEXT: '' */
        {"--bogus", NULL, "unknown option '--bogus' (see --help)"},
    };
    for (size_t i = 0; i < COUNT(refused); i++)
        ok(parse_data(&o, WORDS((char *)refused[i].option, (char *)refused[i].value)) ==
                   LOP_ERR_INVALID && strcmp(lop_errmsg(), refused[i].message) == 0,
           "refused: %s", lop_errmsg());
    ok(parse_data(&o, WORDS("--file", "f.csv", "--verbose")) == LOP_OK,
       "only with, the flag after the option");

    char text[4096];
    usage_text(table, text, sizeof text);
    ok(strstr(text, "fast or slow (default: fast)") != NULL, "{} joins the choices with 'join'");
    ok(strstr(text, "one of red, green, blue\n") != NULL, "{} at the end of the help");
    ok(strstr(text, "red, green and blue (default: all)") != NULL, "another join");
    ok(strstr(text, "  --count N") != NULL && strstr(text, "-v, --verbose") != NULL,
       "numbered rows have no short option, keyed ones do");
}

/* ---- lists, choice values, 'named' marks and the widest integer range */

typedef struct {
    lop_cli_longs_t ps;
    lop_cli_reals_t levels;
    int bits;
    double os, or;
    const char *os_from; /* which option gave os */
    long big;
} list_opts_t;

static lop_status_t parse_both(void *data, const lop_cli_opt_t *opt, const char *arg)
{
    list_opts_t *o = data;
    lop_status_t st = lop_cli_double(opt->name, arg, 0, 10, &o->os);
    o->or = o->os;
    o->os_from = opt->name;
    return st;
}

static const char *const models[] = {"logp", "lop", "both", NULL};
static const int model_bits[] = {1, 2, 3};

#define LIST_AT(member) LOP_CLI_AT(list_opts_t, member)

static const lop_cli_opt_t list_table[] = {
    {"p", 'p', "LIST", "process counts", LOP_CLI_LONGS, LIST_AT(ps), .min = 2, .max = 64},
    {"level", 0, "LIST", "times per level", LOP_CLI_REALS, LIST_AT(levels), .min = 0, .max = 5},
    {"model", 0, "M", "{}", LOP_CLI_CHOICE, LIST_AT(bits), .choices = models,
     .choice_values = model_bits, .join = " or "},
    {"os", 0, "US", "send overhead", LOP_CLI_REAL, LIST_AT(os), .min = 0, .max = 10,
     .named = LOP_CLI_MARK(list_opts_t, os_from)},
    {"o", 0, "US", "both overheads", LOP_CLI_CUSTOM, .parse = parse_both},
    {"big", 0, "N", "any long >= 0", LOP_CLI_INT, LIST_AT(big), .min = 0, .max = (double)LONG_MAX},
    {NULL, 0, NULL, NULL},
};

static lop_status_t parse_lists(list_opts_t *o, char **words)
{
    *o = (list_opts_t){.bits = 3};
    return parse_words(list_table, o, words);
}

static void test_list_rows(void)
{
    list_opts_t o;
    ok(parse_lists(&o, WORDS("-p", "64", "--p", "2,4..6", "--level", "3,0.5,0.5", "--model",
                             "lop", "--big", "9223372036854775807")) == LOP_OK,
       "lists, a choice value and LONG_MAX parse: %s", lop_errmsg());
    ok(o.ps.count == 4 && o.ps.values[0] == 2 && o.ps.values[3] == 6,
       "LONGS: the last --p counts, ranges expanded");
    ok(o.levels.count == 3 && o.levels.values[0] == 3 && o.levels.values[2] == 0.5,
       "REALS: values in order, a repeat allowed");
    ok(o.bits == 2, "CHOICE with choice_values stores the choice's value");
    ok(o.big == LONG_MAX, ".max = LONG_MAX is the largest long, not an overflow");
    lop_cli_lists_free(list_table, &o);
    ok(o.ps.values == NULL && o.ps.count == 0 && o.levels.values == NULL,
       "lop_cli_lists_free empties every list");

    ok(parse_lists(&o, WORDS("--o", "2", "--os", "1")) == LOP_OK && o.os == 1 && o.or == 2 &&
           strcmp(o.os_from, "os") == 0, "named: the last option that set a field is its source");
    ok(parse_lists(&o, WORDS("--os", "1", "--o", "2")) == LOP_OK && o.os == 2 &&
           strcmp(o.os_from, "o") == 0, "... in command-line order");
    ok(parse_lists(&o, WORDS("--model", "lop")) == LOP_OK && o.os_from == NULL,
       "named: NULL when no option set it");

    static const struct {
        const char *option, *value, *message;
    } refused[] = {
        {"--p", "1,4", "option --p: '1' is not in 2..64"},
        {"--p", "4,2..8", "option --p: '4' is named twice"},
        {"--level", "1,x", "option --level: 'x' is not a number"},
        {"--level", "1,6", "option --level: '6' is not in 0..5"},
        {"--level", "1,,2", "option --level: empty item in '1,,2'"},
        {"--big", "-1", "option --big: '-1' is not in 0..9223372036854775807"},
    };
    for (size_t i = 0; i < COUNT(refused); i++) {
        ok(parse_lists(&o, WORDS("--p", "8", "--level", "1", (char *)refused[i].option,
                                 (char *)refused[i].value)) == LOP_ERR_INVALID &&
               strcmp(lop_errmsg(), refused[i].message) == 0,
           "refused: %s", lop_errmsg());
        lop_cli_lists_free(list_table, &o); /* a refused list holds nothing to free */
    }
    ok(parse_lists(&o, WORDS("--level", "1", "--level", "1,x")) == LOP_ERR_INVALID &&
           o.levels.values == NULL && o.levels.count == 0,
       "a refused list leaves no half list behind");
}

/* ---- nothing cut, nothing overflowed: a long choice list in a message and
 * in a help line comes out whole, a long option column pushes its help
 * right, and a SET with more choices than an unsigned has bits is refused */

enum { MANY = sizeof(unsigned) * CHAR_BIT + 1 }; /* one choice too many for a SET */

static void test_long_tables(void)
{
    static char names[MANY][24];
    const char *choices[MANY + 1] = {NULL};
    for (int i = 0; i < MANY; i++) {
        snprintf(names[i], sizeof names[i], "a-long-choice-%02d", i);
        choices[i] = names[i];
    }
    const char *last = choices[MANY - 1];
    choices[MANY - 1] = NULL; /* as many choices as bits: allowed */
    lop_cli_opt_t rows[] = {
        {"many", 0, "LIST", "{} (default: none)", LOP_CLI_SET, LOP_CLI_AT(data_opts_t, colors),
         .choices = choices, .join = " or "},
        {"a-very-long-option-name-that-outgrows-its-column", 0, "AND-A-LONG-ARGUMENT", "help"},
        {NULL, 0, NULL, NULL},
    };
    data_opts_t o = {0};
    ok(parse_words(rows, &o, WORDS("--many", (char *)choices[MANY - 2])) == LOP_OK &&
           o.colors == 1u << (MANY - 2),
       "a SET of as many choices as bits: the last is the top bit");

    char expect[128];
    snprintf(expect, sizeof expect, ", %s)", choices[MANY - 2]);
    int idx;
    ok(lop_cli_choice("many", "x", choices, &idx) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "(one of: a-long-choice-00, ") && strstr(lop_errmsg(), expect) &&
           strlen(lop_errmsg()) > 512,
       "an unknown choice lists every choice, however long the list");
    char text[4096];
    usage_text(rows, text, sizeof text);
    snprintf(expect, sizeof expect, "%s or %s (default: none)\n", choices[MANY - 3],
             choices[MANY - 2]);
    ok(strstr(text, expect) != NULL, "a help line longer than 512 bytes is printed whole");
    ok(strstr(text, "  --a-very-long-option-name-that-outgrows-its-column AND-A-LONG-ARGUMENT "
                    "help\n") != NULL,
       "an option longer than its column is printed whole, one space before its help");

    choices[MANY - 1] = last; /* one choice more than bits */
    snprintf(expect, sizeof expect,
             "internal: option --many has %d choices, more than the %d bits of its set", MANY,
             MANY - 1);
    lop_cli_t cli;
    ok(lop_cli_init(&cli, 1, WORDS("unused"), rows) == LOP_ERR_RANGE &&
           strcmp(lop_errmsg(), expect) == 0,
       "a SET with more choices than bits is refused at init: %s", lop_errmsg());
    lop_cli_free(&cli); /* a refused init leaves nothing to free */
}

int main(void)
{
    int keys[8];
    const char *args[8];
    char *a1[] = {"x", "--max-post", "8", "-q", "--ops=send,rdmaw", NULL};
    ok(parse(5, a1, keys, args) == 3, "three options parsed");
    ok(keys[0] == 'k' && strcmp(args[0], "8") == 0, "--max-post 8");
    ok(keys[1] == 'q' && args[1] == NULL, "-q flag");
    ok(keys[2] == 1000 && strcmp(args[2], "send,rdmaw") == 0, "--ops=LIST long-only option");

    char *a2[] = {"x", "--bogus", NULL};
    ok(parse(2, a2, keys, args) == -1 && strstr(lop_errmsg(), "unknown option '--bogus'"),
       "unknown long option: %s", lop_errmsg());
    char *a3[] = {"x", "-z", NULL};
    ok(parse(2, a3, keys, args) == -1 && strstr(lop_errmsg(), "unknown option '-z'"),
       "unknown short option: %s", lop_errmsg());
    char *a5[] = {"x", "--quiet=1", NULL};
    ok(parse(2, a5, keys, args) == -1 && strstr(lop_errmsg(), "option --quiet takes no value"),
       "a value given to a flag names the flag (not '-q'): %s", lop_errmsg());
    char *a6[] = {"x", "--bogus=1", NULL};
    ok(parse(2, a6, keys, args) == -1 && strstr(lop_errmsg(), "unknown option '--bogus=1'"),
       "an unknown option with a value stays unknown: %s", lop_errmsg());
    char *a4[] = {"x", "--max-post", NULL};
    ok(parse(2, a4, keys, args) == -1 && strstr(lop_errmsg(), "--max-post needs an argument"),
       "missing argument: %s", lop_errmsg());

    long v;
    ok(lop_cli_long("max-post", "0", 1, 64, &v) == LOP_ERR_INVALID &&
           strcmp(lop_errmsg(), "option --max-post: '0' is not in 1..64") == 0,
       "range error: %s", lop_errmsg());
    ok(lop_cli_long("max-post", "8x", 1, 64, &v) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "not an integer"),
       "junk after number: %s", lop_errmsg());
    ok(lop_cli_long("max-post", "12", 1, 64, &v) == LOP_OK && v == 12, "valid integer");
    double d;
    ok(lop_cli_double("idle-us", "nan", 0, 1e9, &d) == LOP_ERR_INVALID, "NaN option rejected");
    ok(lop_cli_double("idle-us", "2.5", 0, 1e9, &d) == LOP_OK && d == 2.5, "valid double");
    ok(lop_cli_double("idle-us", "1e-400", 0, 1e9, &d) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "'1e-400' underflows"),
       "1e-400 is an underflow, not 'not finite': %s", lop_errmsg());
    ok(lop_cli_double("idle-us", "1e400", 0, 1e9, &d) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "'1e400' is not finite"), "1e400: %s", lop_errmsg());
    ok(lop_cli_double("idle-us", "x1", 0, 1e9, &d) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "'x1' is not a number"), "x1: %s", lop_errmsg());

    static const char *const choices[] = {"min", "avg", NULL};
    int idx;
    ok(lop_cli_choice("stat", "avg", choices, &idx) == LOP_OK && idx == 1, "choice found");
    ok(lop_cli_choice("stat", "max", choices, &idx) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "one of: min, avg"),
       "bad choice lists the choices: %s", lop_errmsg());

    long *list;
    size_t n;
    ok(lop_cli_long_list("p", "1,4..6,9", 1, 100, &list, &n) == LOP_OK && n == 5 &&
           list[0] == 1 && list[1] == 4 && list[3] == 6 && list[4] == 9,
       "list with a range");
    free(list);
    ok(lop_cli_long_list("p", "5..3", 1, 100, &list, &n) == LOP_ERR_INVALID, "empty range");
    ok(lop_cli_long_list("p", "2..1", 2, 100, &list, &n) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "empty range '2..1'"),
       "an empty range is called one even when its end is below the minimum: %s", lop_errmsg());
    ok(lop_cli_long_list("p", "4,4", 1, 100, &list, &n) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "'4' is named twice"),
       "a value twice is refused: %s", lop_errmsg());
    ok(lop_cli_long_list("p", "2..8,4", 1, 100, &list, &n) == LOP_ERR_INVALID,
       "... also inside a range");
    ok(lop_cli_long_list("p", "2..200", 1, 100, &list, &n) == LOP_ERR_INVALID &&
           strstr(lop_errmsg(), "not in 1..100"),
       "range end out of bounds: %s", lop_errmsg());
    ok(lop_cli_list_has("send,rdmaw", "rdmaw") && !lop_cli_list_has("send,rdmaw", "rdma"),
       "list membership is by whole item");

    char text[2048];
    usage_text(opts, text, sizeof text);
    ok(strstr(text, "--max-post K") && strstr(text, "(default: 16)") && strstr(text, "--ops LIST"),
       "help is printed from the table");
    test_data_rows();
    test_list_rows();
    test_long_tables();
    return tap_done();
}
