/*
 * cli.h - command-line options from one table.
 *
 * Each tool describes its options once, as a table of lop_cli_opt_t; the
 * parser (getopt_long underneath) and the --help text are both made from it,
 * so an option cannot be parsed without being documented.  Errors name the
 * option: "option --max-post: '0' is not in 1..64".
 *
 * Options as data: a row says what its argument is (kind), where it goes
 * (a field of the tool's options struct, by offsetof), its range, its
 * choices, the modes it has an effect in and the option it needs ("only
 * with").  lop_cli_parse() fills the struct from the rows; what no kind says
 * is a CUSTOM row's function.  A row of kind LOP_CLI_KEY is left to the
 * tool: lop_cli_next() returns its key.
 *
 * Modes as data: a tool's table of modes (lop_cli_mode_t) names the options
 * that choose each; lop_cli_check() finds the run's mode and refuses, with
 * one line naming the option, two modes, an option the mode would ignore, an
 * option without the one it needs, and operands the mode takes none of.
 *
 *   {"max-post", 0, "K", "posts 1..K (default: 16)", LOP_CLI_INT,
 *    LOP_CLI_AT(opts_t, max_post), .min = 1, .max = 1024},
 */
#ifndef LOP_CLI_H
#define LOP_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "lop.h"

/* What lop_cli_parse() does with an option (the field is the row's). */
typedef enum {
    LOP_CLI_KEY,    /* nothing: the tool handles the key lop_cli_next() returns */
    LOP_CLI_FLAG,   /* int field = 1 */
    LOP_CLI_TEXT,   /* const char * field = the argument, never empty (a file, a
                       directory or a name: "option --output: DIR is empty") */
    LOP_CLI_INT,    /* a whole number in min..max into an integer field (int or long size) */
    LOP_CLI_REAL,   /* a finite number in min..max into a double field */
    LOP_CLI_CHOICE, /* one of choices: its index into an int (or enum) field */
    LOP_CLI_NAME,   /* one of choices: the const char * field points to it */
    LOP_CLI_SET,    /* comma-separated choices: bit i of an unsigned field for choices[i] */
    LOP_CLI_LONGS,  /* integers and ranges "1,4..8" in min..max, none twice (they would
                       repeat rows), into a lop_cli_longs_t field */
    LOP_CLI_REALS,  /* numbers "3,0.8,0.2" in min..max, repeats allowed (two levels
                       alike), into a lop_cli_reals_t field */
    LOP_CLI_CUSTOM  /* the row's parse function */
} lop_cli_kind_t;

/* The lists of LONGS and REALS rows: allocated by lop_cli_parse (an option
 * given again replaces its list), freed by lop_cli_lists_free; count 0: the
 * option was not given. */
typedef struct {
    long *values;
    size_t count;
} lop_cli_longs_t;

typedef struct {
    double *values;
    size_t count;
} lop_cli_reals_t;

struct lop_cli_opt;
/* A CUSTOM row's parser: 'opts' is the tool's options struct, 'opt' the row
 * (opt->name for messages). */
typedef lop_status_t lop_cli_parse_fn(void *opts, const struct lop_cli_opt *opt, const char *arg);

typedef struct lop_cli_opt {
    const char *name; /* long name without "--"; NULL ends the table */
    int key;          /* a printable char doubles as -c; 0: lop_cli_init numbers the row */
    const char *arg;  /* argument placeholder ("K", "FILE"), or NULL for a flag */
    const char *help; /* one line; "(default: ...)" belongs here; see join */
    lop_cli_kind_t kind;
    size_t field, size;         /* where the value goes: LOP_CLI_AT(type, member) */
    double min, max;            /* INT, REAL, LONGS, REALS: the range of a value
                                   ((double)LONG_MAX stands for LONG_MAX) */
    const char *const *choices; /* CHOICE, NAME, SET: NULL-terminated */
    const int *choice_values;   /* CHOICE: the value stored for choices[i] (NULL: i) */
    const char *join;           /* non-NULL: "{}" in help stands for the choices, joined
                                   by ", " and 'join' before the last ("a, b or c") */
    size_t given;               /* LOP_CLI_MARK(type, member): an int set to 1 when the
                                   option is given; 0: none */
    size_t named;               /* LOP_CLI_MARK(type, member): a const char * set to the
                                   row's name when the option is given, to say later
                                   which of two options that set one field gave it */
    const char *only_with;      /* what this option needs: "check" (that option given),
                                   "alg=hybrid" (given, "hybrid" among its comma-separated
                                   items), alternatives joined by '|'
                                   ("simulate|alg=hybrid"); NULL: nothing.  What the
                                   run's mode implies is met (lop_cli_mode_t) */
    lop_cli_parse_fn *parse;    /* CUSTOM */
    unsigned modes;             /* LOP_CLI_IN(m) | ...: the modes the option has an effect
                                   in, refused in the others; 0: every mode.  Ignored for
                                   the options that choose modes (lop_cli_mode_t) */
} lop_cli_opt_t;

#define LOP_CLI_AT(type, member) offsetof(type, member), sizeof(((type *)0)->member)
#define LOP_CLI_MARK(type, member) (offsetof(type, member) + 1)
#define LOP_CLI_IN(mode) (1u << (mode))
/* The --list-options row, the same in every tool: an int flag 'member'. */
#define LOP_CLI_LIST_OPTIONS(type, member)                                                  \
    {"list-options", 0, NULL, "print the modes and the options each takes as CSV, and exit", \
     LOP_CLI_FLAG, LOP_CLI_AT(type, member)}

/* A tool's modes, one a run, indexed by the tool's enum; a NULL name ends
 * the table.  The first is the default, chosen by no option; each other is
 * chosen by giving exactly the options its 'options' names (a FLAG option
 * counts as given when another row's 'given' mark sets its field). */
typedef struct {
    const char *name;     /* "predict", "barrier": --help's and --list-options' */
    const char *options;  /* comma-separated options that choose it ("goal,check-schedule");
                             NULL for the default */
    const char *operands; /* what its operands are ("data files"); NULL: it takes none */
    const char *needs;    /* an option it cannot run without ("output"), or NULL */
    const char *help;     /* one line for --help */
    const char *implies;  /* what it does without being asked, for the only_with of
                             its options: "simulate,alg=hybrid"; NULL: nothing */
} lop_cli_mode_t;

typedef struct {
    int argc;
    char **argv;
    const lop_cli_opt_t *opts;
    void *getopt_table; /* struct option[], built from 'opts' */
    char *shortopts;    /* "o:qh", built from 'opts' */
    unsigned char *given; /* given[i]: opts[i] was on the command line (lop_cli_parse) */
    const char **args;    /* args[i]: its argument, the last one given */
} lop_cli_t;

enum {
    LOP_CLI_END = -1,  /* all options consumed; operands start at lop_cli_operand_index() */
    LOP_CLI_ERROR = -2 /* unknown option or missing argument; lop_errmsg() says which */
};

lop_status_t lop_cli_init(lop_cli_t *cli, int argc, char **argv, const lop_cli_opt_t *opts);
/* Next option key; '*arg' is its argument (or NULL). */
int lop_cli_next(lop_cli_t *cli, const char **arg);
int lop_cli_operand_index(const lop_cli_t *cli);
void lop_cli_free(lop_cli_t *cli);

/* Every option into the fields of 'opts' (which hold the defaults), by the
 * rows' kinds; stops at the first error.  Operands start at
 * lop_cli_operand_index() afterwards. */
lop_status_t lop_cli_parse(lop_cli_t *cli, void *opts);
/* After lop_cli_parse: '*mode' the index in 'modes' of the run's mode, and
 * every option and operand given one it takes, else the first problem as
 * the error: "options --verify and --best are two modes: give one", "option
 * --p has no effect with --list-algs", "option --alg: only with --barrier"
 * (in the default mode), "option --draws: only with --simulate", "no data
 * files", "option --synth needs -o DIR". */
lop_status_t lop_cli_check(const lop_cli_t *cli, const lop_cli_mode_t *modes, int *mode);
/* Free the lists the LONGS and REALS rows of 'opts_table' hold in 'opts'. */
void lop_cli_lists_free(const lop_cli_opt_t *opts_table, void *opts);

/* Print "Usage: synopsis" and the option table (rows without help, the
 * options that choose a mode, are in the list of modes). */
void lop_cli_usage(FILE *out, const char *synopsis, const char *about, const lop_cli_opt_t *opts);
/* --help's list of modes: name, the options that choose it, help. */
void lop_cli_modes_usage(FILE *out, const lop_cli_opt_t *opts, const lop_cli_mode_t *modes);
/* --list-options, as CSV for scripts and tests: the modes
 * (mode,options,operands,needs,implies), a blank line, then every option
 * (option,arg,modes,only_with,chooses: the modes that take it, and those it
 * chooses, or chooses with others, space-separated). */
void lop_cli_list_options(FILE *out, const lop_cli_opt_t *opts, const lop_cli_mode_t *modes);

/* A CUSTOM row's parser of a directory to write into (-o DIR): its const
 * char * field, refused when empty ("option --output: empty directory
 * name", rather than a later "cannot create directory ''"). */
lop_cli_parse_fn lop_cli_dir;

/* Typed arguments; 'opt' is the option's long name, for the message. */
lop_status_t lop_cli_long(const char *opt, const char *arg, long min, long max, long *value);
lop_status_t lop_cli_double(const char *opt, const char *arg, double min, double max,
                            double *value);
/* One of 'choices' (NULL-terminated); returns its index. */
lop_status_t lop_cli_choice(const char *opt, const char *arg, const char *const *choices,
                            int *index);
/* The one parser of comma-separated options: calls 'each' with every item
 * of 'arg' in order (a writable copy, as long as it is: nothing is cut); an
 * empty item ("a,,b", a trailing comma) and an item named twice ("a,b,a": it
 * would repeat rows) are errors naming the option.  Stops
 * at the first status 'each' returns other than LOP_OK. */
typedef lop_status_t lop_cli_item_fn(void *ctx, char *item);
lop_status_t lop_cli_items(const char *opt, const char *arg, lop_cli_item_fn *each, void *ctx);
/* The same for a list of values that may repeat (--level-L 1,1: two levels
 * alike), not a selection. */
lop_status_t lop_cli_values(const char *opt, const char *arg, lop_cli_item_fn *each, void *ctx);

/* Longest integer list an option takes (README "Limits"): a larger one is
 * refused before anything is allocated. */
#define LOP_CLI_LIST_MAX 1000000

/* A list of integers "1,2,8" or ranges "2..64" (and mixtures "1,4..6"), each in
 * min..max, no value twice ("4,4" or "2..8,4" is refused: it would repeat a
 * row), at most LOP_CLI_LIST_MAX values; '*values' is allocated (free it). */
lop_status_t lop_cli_long_list(const char *opt, const char *arg, long min, long max,
                               long **values, size_t *n);
/* Is 'name' one of the comma-separated items of 'list'? */
int lop_cli_list_has(const char *list, const char *name);

#endif
