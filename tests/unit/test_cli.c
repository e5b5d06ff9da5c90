/* Option parsing: the table drives parsing and help; errors name the option. */
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

    FILE *f = tmpfile();
    lop_cli_usage(f, "x [options]", "About.", opts);
    char text[2048] = "";
    rewind(f);
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    ok(strstr(text, "--max-post K") && strstr(text, "(default: 16)") && strstr(text, "--ops LIST"),
       "help is printed from the table");
    return tap_done();
}
