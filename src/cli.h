/*
 * cli.h - command-line options from one table.
 *
 * Each tool describes its options once, as a table of lop_cli_opt_t; the
 * parser (getopt_long underneath) and the --help text are both made from it,
 * so an option cannot be parsed without being documented.  Errors name the
 * option: "option --max-post: '0' is not in 1..64".
 */
#ifndef LOP_CLI_H
#define LOP_CLI_H

#include <stdio.h>

#include "lop.h"

typedef struct {
    const char *name; /* long name without "--"; NULL ends the table */
    int key;          /* value returned by lop_cli_next(); a printable char doubles as -c */
    const char *arg;  /* argument placeholder ("K", "FILE"), or NULL for a flag */
    const char *help; /* one line; "(default: ...)" belongs here */
} lop_cli_opt_t;

typedef struct {
    int argc;
    char **argv;
    const lop_cli_opt_t *opts;
    void *getopt_table; /* struct option[], built from 'opts' */
    char *shortopts;    /* "o:qh", built from 'opts' */
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

/* Print "Usage: synopsis" and the option table. */
void lop_cli_usage(FILE *out, const char *synopsis, const char *about, const lop_cli_opt_t *opts);

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
