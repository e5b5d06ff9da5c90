/* Modes as data (src/cli_mode.c): the mode chosen by exactly its options,
 * two modes refused, an option refused in the modes its row leaves out,
 * "only with" met, unmet and met by the mode itself, operands and a mode's
 * needed option; --help's list of modes and --list-options from the tables. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

enum { RUN, SHOW, SHOW_FILE, LIST, SYNTH, N_MODES };

typedef struct {
    int show, list, simulate, sample, help;
    const char *file, *algs, *out, *draws;
} opts_t;

#define AT(member) LOP_CLI_AT(opts_t, member)
#define IN(m) LOP_CLI_IN(m)

static const lop_cli_opt_t rows[] = {
    {"alg", 0, "NAMES", "algorithms", LOP_CLI_TEXT, AT(algs), .modes = IN(RUN) | IN(SHOW)},
    {"simulate", 0, NULL, "simulate", LOP_CLI_FLAG, AT(simulate), .modes = IN(RUN)},
    {"draws", 0, "N", "draws", LOP_CLI_TEXT, AT(draws), .modes = IN(RUN) | IN(LIST),
     .only_with = "simulate"},
    {"levels", 0, "FILE", "levels", LOP_CLI_TEXT, AT(draws), .modes = IN(RUN) | IN(SHOW),
     .only_with = "simulate|alg=hybrid"},
    {"output", 'o', "DIR", "output", LOP_CLI_TEXT, AT(out), .modes = IN(SYNTH)},
    {"show", 0, NULL, NULL, LOP_CLI_FLAG, AT(show)},
    {"file", 0, "FILE", NULL, LOP_CLI_TEXT, AT(file)},
    {"list", 0, NULL, NULL, LOP_CLI_FLAG, AT(list)},
    {"list-sample", 0, NULL, "one of each", LOP_CLI_FLAG, AT(sample), .modes = IN(LIST),
     .given = LOP_CLI_MARK(opts_t, list)},
    {"synth", 0, NULL, NULL, LOP_CLI_FLAG, AT(help)},
    {NULL, 0, NULL, NULL},
};

static const lop_cli_mode_t modes[] = {
    [RUN] = {"run", NULL, "data files", NULL, "the default"},
    [SHOW] = {"show", "show", NULL, NULL, "show one"},
    [SHOW_FILE] = {"show-file", "show,file", NULL, NULL, "show a file"},
    [LIST] = {"list", "list", NULL, NULL, "list them", .implies = "simulate"},
    [SYNTH] = {"synth", "synth", NULL, "output", "make data"},
    [N_MODES] = {NULL},
};

#define WORDS(...) ((char *[]){"x", __VA_ARGS__, NULL})

/* The status of parsing and checking the words; *mode the mode chosen. */
static lop_status_t check(char **words, int *mode)
{
    int argc = 0;
    while (words[argc])
        argc++;
    opts_t o = {0};
    lop_cli_t cli;
    *mode = -1;
    lop_status_t st = lop_cli_init(&cli, argc, words, rows);
    st = st ? st : lop_cli_parse(&cli, &o);
    st = st ? st : lop_cli_check(&cli, modes, mode);
    lop_cli_free(&cli);
    return st;
}

static void test_chosen(void)
{
    const struct { /* not static: the words are compound literals */
        char **words;
        int mode;
    } taken[] = {
        {WORDS("f.csv"), RUN},
        {WORDS("--simulate", "--draws", "9", "f.csv"), RUN},
        {WORDS("--levels", "l", "--alg", "diss,hybrid", "f.csv"), RUN},
        {WORDS("--show", "--alg", "diss"), SHOW},
        {WORDS("--levels", "l", "--show", "--alg", "hybrid"), SHOW},
        {WORDS("--file", "s.csv", "--show"), SHOW_FILE},
        {WORDS("--list-sample"), LIST},
        {WORDS("--list", "--draws", "5"), LIST},
        {WORDS("--synth", "-o", "d"), SYNTH},
    };
    for (size_t i = 0; i < COUNT(taken); i++) {
        int mode;
        lop_status_t st = check(taken[i].words, &mode);
        ok(st == LOP_OK && mode == taken[i].mode, "%s %s ...: mode %s (%s)", taken[i].words[1],
           taken[i].words[2] ? taken[i].words[2] : "", modes[taken[i].mode].name,
           st ? lop_errmsg() : "taken");
    }
}

static void test_refused(void)
{
    const struct { /* not static: the words are compound literals */
        char **words;
        const char *message;
    } refused[] = {
        {WORDS("--show", "--list"), "options --show and --list are two modes: give one (see --help)"},
        {WORDS("--list-sample", "--synth"),
         "options --list-sample and --synth are two modes: give one (see --help)"},
        {WORDS("--file", "s.csv"), "option --file: only with --show"},
        {WORDS("--show", "--simulate"), "option --simulate has no effect with --show"},
        {WORDS("--file", "s", "--show", "--alg", "a"),
         "option --alg has no effect with --show --file"},
        {WORDS("-o", "d", "f.csv"), "option --output: only with --synth"},
        {WORDS("--list-sample", "--alg", "a"), "option --alg has no effect with --list"},
        {WORDS("--draws", "9", "f.csv"), "option --draws: only with --simulate"},
        {WORDS("--levels", "l", "--alg", "diss", "f.csv"),
         "option --levels: only with --simulate or --alg hybrid"},
        {WORDS("--show", "--levels", "l"), "option --levels: only with --simulate or --alg hybrid"},
        {WORDS("--alg", "a"), "no data files (see --help)"},
        {WORDS("--show", "f.csv"), "option --show takes no data files"},
        {WORDS("--synth"), "option --synth needs -o DIR"},
    };
    for (size_t i = 0; i < COUNT(refused); i++) {
        int mode;
        lop_status_t st = check(refused[i].words, &mode);
        ok(st == LOP_ERR_INVALID && strcmp(lop_errmsg(), refused[i].message) == 0,
           "refused: %s", lop_errmsg());
    }
}

/* A table naming an option it does not have is refused, not half-checked. */
static void test_table(void)
{
    static const lop_cli_mode_t bad[] = {{"run", NULL, NULL, NULL, "x"},
                                         {"show", "show,nosuch", NULL, NULL, "x"}, {NULL}};
    lop_cli_t cli;
    opts_t o = {0};
    int mode;
    lop_status_t st = lop_cli_init(&cli, 1, WORDS("unused"), rows);
    st = st ? st : lop_cli_parse(&cli, &o);
    ok(lop_cli_check(&cli, bad, &mode) == LOP_ERR_RANGE &&
           strcmp(lop_errmsg(), "internal: mode show: no option nosuch") == 0,
       "a mode naming no option: %s", lop_errmsg());
    lop_cli_free(&cli);
}

/* Text written by 'print' into a string (freed by the caller). */
static char *text_of(void (*print)(FILE *, const lop_cli_opt_t *, const lop_cli_mode_t *))
{
    char *text = NULL;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    print(f, rows, modes);
    fclose(f);
    return text;
}

static void test_listings(void)
{
    char *help = text_of(lop_cli_modes_usage), *list = text_of(lop_cli_list_options);
    ok(strstr(help, "without a mode's options, run):\n  run             (default)") != NULL &&
           strstr(help, "  show-file       --show --file FILE           show a file\n") != NULL,
       "--help lists every mode with the options that choose it");
    ok(strstr(list, "mode,options,operands,needs,implies\nrun,,data files,,\nshow,show,,,\n"
                    "show-file,show file,,,\nlist,list,,,simulate\n") != NULL &&
           strstr(list, "synth,synth,,output,\n\noption,arg,modes,only_with,chooses\n") != NULL,
       "--list-options: the modes");
    ok(strstr(list, "\ndraws,N,run list,simulate,\n") != NULL &&
           strstr(list, "\nlevels,FILE,run show,simulate|alg=hybrid,\n") != NULL &&
           strstr(list, "\nfile,FILE,show-file,,show-file\n") != NULL &&
           strstr(list, "\nlist-sample,,list,,list\n") != NULL,
       "--list-options: each option's modes and need, and the modes it chooses");
    free(help);
    free(list);
}

int main(void)
{
    test_chosen();
    test_refused();
    test_table();
    test_listings();
    return tap_done();
}
