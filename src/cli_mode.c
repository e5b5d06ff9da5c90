/* cli_mode.c - a tool's modes and the options each takes, as data (cli.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MODES_MAX (int)(sizeof(unsigned) * CHAR_BIT) /* a row's modes are bits */
#define NAME_MAX_LEN 64                              /* an option named in a list */

/* The row named by the first 'len' bytes of 'name', or NULL. */
static const lop_cli_opt_t *row_find(const lop_cli_opt_t *opts, const char *name, size_t len)
{
    for (const lop_cli_opt_t *o = opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* The first 'len' bytes of 'text' as a string in buf (len < NAME_MAX_LEN:
 * table_check). */
static const char *cut(char *buf, const char *text, size_t len)
{
    snprintf(buf, NAME_MAX_LEN, "%.*s", (int)len, text);
    return buf;
}

static int mode_has(const lop_cli_mode_t *mode, const char *name)
{
    return mode->options && lop_cli_list_has(mode->options, name);
}

/* Does some mode's list of options name this one? */
static int row_chooses(const lop_cli_mode_t *modes, const char *name)
{
    for (int m = 0; modes[m].name; m++)
        if (mode_has(&modes[m], name))
            return 1;
    return 0;
}

/* The row whose FLAG field row o's 'given' mark sets (--pairs-sample: --pairs), or o. */
static const lop_cli_opt_t *row_implied(const lop_cli_opt_t *opts, const lop_cli_opt_t *o)
{
    for (const lop_cli_opt_t *k = opts; o->given && k->name; k++)
        if (k->kind == LOP_CLI_FLAG && o->given == k->field + 1)
            return k;
    return o;
}

/* The row that gave row k: k itself, or a given row that implies it; -1:
 * not given. */
static long row_giver(const lop_cli_t *cli, size_t k)
{
    for (size_t j = 0; cli->opts[j].name; j++)
        if (cli->given[j] && row_implied(cli->opts, &cli->opts[j]) == &cli->opts[k])
            return (long)j;
    return cli->given[k] ? (long)k : -1;
}

/* Is every item of list 'a' one of list 'b'? */
static int list_within(const char *a, const char *b)
{
    char item[NAME_MAX_LEN];
    for (const char *p = a; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!lop_cli_list_has(b, cut(item, p, strcspn(p, ","))))
            return 0;
    return 1;
}

/* "--goal --check-schedule", each option followed by its argument when
 * 'opts' is given ("--check-schedule FILE"); the characters written. */
static int options_print(FILE *out, const lop_cli_opt_t *opts, const char *list)
{
    int n = 0;
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t len = strcspn(p, ",");
        const lop_cli_opt_t *o = opts ? row_find(opts, p, len) : NULL;
        n += fprintf(out, "%s--%.*s%s%s", n ? " " : "", (int)len, p, o && o->arg ? " " : "",
                     o && o->arg ? o->arg : "");
    }
    return n;
}

/* Mode m of 'set' is left out of a list of them when another of the set is
 * chosen by fewer of the same options (--barrier beside --barrier --schedule). */
static int includes_another(const lop_cli_mode_t *modes, unsigned set, int m)
{
    for (int b = 0; modes[b].name; b++)
        if (b != m && (set >> b & 1) && modes[b].options &&
            list_within(modes[b].options, modes[m].options) &&
            (!list_within(modes[m].options, modes[b].options) || b < m))
            return 1;
    return 0;
}

/* The end of a message built in a memory stream: NULL when out of memory. */
static char *text_end(FILE *f, char **text)
{
    if (!f || fclose(f) != 0) {
        free(*text);
        return NULL;
    }
    return *text;
}

/* The modes of 'set' as a message says them: "--barrier or --pairs"
 * (allocated; NULL: out of memory). */
static char *modes_text(const lop_cli_mode_t *modes, unsigned set)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    for (int m = 0, n = 0; f && modes[m].name; m++) {
        if (!(set >> m & 1) || !modes[m].options || includes_another(modes, set, m))
            continue;
        fputs(n++ ? " or " : "", f);
        options_print(f, NULL, modes[m].options);
    }
    return text_end(f, &text);
}

/* What an only_with says: "--simulate or --alg hybrid" (allocated). */
static char *need_text(const char *need)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    for (const char *p = need; f && p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t n = strcspn(p, "|"), name = strcspn(p, "=|");
        fprintf(f, "%s--%.*s", p == need ? "" : " or ", (int)name, p);
        if (name < n)
            fprintf(f, " %.*s", (int)(n - name - 1), p + name + 1);
    }
    return text_end(f, &text);
}

/* "option --NAME" + what + the text (freed); out of memory: that error. */
static lop_status_t refuse(const char *name, const char *what, char *text)
{
    lop_status_t st = text ? lop_err(LOP_ERR_INVALID, "option --%s%s%s", name, what, text)
                           : lop_err(LOP_ERR_NOMEM, "out of memory (refusing option --%s)", name);
    free(text);
    return st;
}

/* ---------------------------------------------------------- the checks */

/* Every option a table names is one of its rows, and the modes fit the bits. */
static lop_status_t table_check(const lop_cli_opt_t *opts, const lop_cli_mode_t *modes)
{
    char item[NAME_MAX_LEN];
    int m = 0;
    for (; modes[m].name; m++) {
        const char *list = modes[m].options;
        for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
            if (strcspn(p, ",") >= NAME_MAX_LEN || !row_find(opts, p, strcspn(p, ",")))
                return lop_err(LOP_ERR_RANGE, "internal: mode %s: no option %s",
                               modes[m].name, cut(item, p, strcspn(p, ",")));
        if ((m == 0) != (list == NULL) ||
            (modes[m].needs && !row_find(opts, modes[m].needs, strlen(modes[m].needs))))
            return lop_err(LOP_ERR_RANGE, "internal: mode %s: options or needs", modes[m].name);
    }
    for (const lop_cli_opt_t *o = opts; o->name && m <= MODES_MAX; o++)
        for (const char *p = o->only_with; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
            if (strcspn(p, "|") >= NAME_MAX_LEN || !row_find(opts, p, strcspn(p, "=|")))
                return lop_err(LOP_ERR_RANGE, "internal: option --%s needs no option", o->name);
    return m > MODES_MAX || m == 0 ? lop_err(LOP_ERR_RANGE, "internal: %d modes", m) : LOP_OK;
}

/* Are the options given that choose modes exactly mode m's? */
static int mode_matches(const lop_cli_t *cli, const lop_cli_mode_t *modes, int m)
{
    for (size_t i = 0; cli->opts[i].name; i++)
        if (row_chooses(modes, cli->opts[i].name) &&
            (row_giver(cli, i) >= 0) != mode_has(&modes[m], cli->opts[i].name))
            return 0;
    return 1;
}

/* No mode is chosen by exactly the options given: one of them needs another
 * beside it (--schedule: only with --barrier), else two are modes apart. */
static lop_status_t modes_refused(const lop_cli_t *cli, const lop_cli_mode_t *modes)
{
    const lop_cli_opt_t *o = cli->opts;
    for (int m = 1; modes[m].name; m++) {
        int all = 1;                /* mode m has every option given */
        long first = -1;            /* the first option given */
        const char *missing = NULL; /* the first of mode m's options not given */
        for (size_t i = 0; o[i].name; i++) {
            long g = row_chooses(modes, o[i].name) ? row_giver(cli, i) : -1;
            int has = mode_has(&modes[m], o[i].name);
            all &= g < 0 || has;
            first = first < 0 ? g : first;
            missing = missing || g >= 0 || !has ? missing : o[i].name;
        }
        if (all && first >= 0 && missing)
            return lop_err(LOP_ERR_INVALID, "option --%s: only with --%s", o[first].name, missing);
    }
    for (size_t a = 0; o[a].name; a++)
        for (size_t b = a + 1; o[b].name; b++) {
            long ga = row_chooses(modes, o[a].name) ? row_giver(cli, a) : -1;
            long gb = row_chooses(modes, o[b].name) ? row_giver(cli, b) : -1;
            int together = 0;
            for (int m = 0; modes[m].name && ga >= 0 && gb >= 0; m++)
                together |= mode_has(&modes[m], o[a].name) && mode_has(&modes[m], o[b].name);
            if (ga >= 0 && gb >= 0 && !together)
                return lop_err(LOP_ERR_INVALID, "options --%s and --%s are two modes: give one "
                               "(see --help)", o[ga].name, o[gb].name);
        }
    return lop_err(LOP_ERR_RANGE, "internal: no mode for the options given");
}

/* Is the need ("simulate|alg=hybrid") of an option met: one of its
 * alternatives given or implied by the mode? */
static int need_met(const lop_cli_t *cli, const lop_cli_mode_t *mode, const char *need)
{
    char atom[NAME_MAX_LEN], item[NAME_MAX_LEN];
    for (const char *p = need; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        size_t n = strcspn(p, "|"), name = strcspn(p, "=|");
        const lop_cli_opt_t *k = row_find(cli->opts, p, name);
        long g = row_giver(cli, (size_t)(k - cli->opts));
        if (mode->implies && lop_cli_list_has(mode->implies, cut(atom, p, n)))
            return 1;
        if (g >= 0 && (name == n || lop_cli_list_has(cli->args[g], cut(item, p + name + 1,
                                                                         n - name - 1))))
            return 1;
    }
    return 0;
}

/* Every option given has an effect in mode m and has what it needs. */
static lop_status_t rows_check(const lop_cli_t *cli, const lop_cli_mode_t *modes, int m)
{
    const lop_cli_opt_t *o = cli->opts;
    for (size_t i = 0; o[i].name; i++)
        if (cli->given[i] && o[i].modes && !(o[i].modes >> m & 1) &&
            !row_chooses(modes, o[i].name))
            return m == 0 ? refuse(o[i].name, ": only with ", modes_text(modes, o[i].modes))
                          : refuse(o[i].name, " has no effect with ",
                                   modes_text(modes, LOP_CLI_IN(m)));
    for (size_t i = 0; o[i].name; i++)
        if (cli->given[i] && o[i].only_with && !need_met(cli, &modes[m], o[i].only_with))
            return refuse(o[i].name, ": only with ", need_text(o[i].only_with));
    return LOP_OK;
}

/* "option --a --b" (mode m's options) + the rest of a message. */
static lop_status_t mode_refuse(const lop_cli_mode_t *modes, int m, const char *what,
                                const char *tail)
{
    char *label = modes_text(modes, LOP_CLI_IN(m));
    lop_status_t st = label ? lop_err(LOP_ERR_INVALID, "option %s %s%s", label, what, tail)
                            : LOP_ERR_NOMEM;
    free(label);
    return st;
}

/* Operands where the mode takes them, none where it does not. */
static lop_status_t operands_check(const lop_cli_t *cli, const lop_cli_mode_t *modes, int m)
{
    int first = lop_cli_operand_index(cli);
    const char *noun = NULL;
    for (int k = 0; modes[k].name; k++)
        noun = noun ? noun : modes[k].operands;
    if (first < cli->argc && !modes[m].operands && (m == 0 || !noun))
        return lop_err(LOP_ERR_INVALID, "unexpected argument '%s' (see --help)",
                       cli->argv[first]);
    if (first < cli->argc && !modes[m].operands)
        return mode_refuse(modes, m, "takes no ", noun);
    if (first >= cli->argc && modes[m].operands)
        return lop_err(LOP_ERR_INVALID, "no %s (see --help)", modes[m].operands);
    return LOP_OK;
}

/* The option mode m cannot run without, as it is typed: "-o DIR" (NULL: none). */
static const char *mode_need(char *buf, size_t len, const lop_cli_opt_t *opts,
                             const lop_cli_mode_t *mode, const lop_cli_opt_t **row)
{
    const lop_cli_opt_t *o = mode->needs ? row_find(opts, mode->needs, strlen(mode->needs)) : NULL;
    *row = o;
    if (o && o->key > 0 && o->key < 128)
        snprintf(buf, len, "-%c%s%s", o->key, o->arg ? " " : "", o->arg ? o->arg : "");
    else if (o)
        snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    return o ? buf : NULL;
}

/* The option the mode cannot run without: "option --synth needs -o DIR". */
static lop_status_t needs_check(const lop_cli_t *cli, const lop_cli_mode_t *modes, int m)
{
    char buf[NAME_MAX_LEN + 32];
    const lop_cli_opt_t *o;
    const char *need = mode_need(buf, sizeof buf, cli->opts, &modes[m], &o);
    if (!need || row_giver(cli, (size_t)(o - cli->opts)) >= 0)
        return LOP_OK;
    return mode_refuse(modes, m, "needs ", need);
}

lop_status_t lop_cli_check(const lop_cli_t *cli, const lop_cli_mode_t *modes, int *mode)
{
    lop_status_t st = table_check(cli->opts, modes);
    int m = 0;
    while (st == LOP_OK && modes[m].name && !mode_matches(cli, modes, m))
        m++;
    if (st == LOP_OK && !modes[m].name)
        return modes_refused(cli, modes);
    *mode = m;
    st = st ? st : rows_check(cli, modes, m);
    st = st ? st : operands_check(cli, modes, m);
    return st ? st : needs_check(cli, modes, m);
}

/* ------------------------------------------------------------ listings */

void lop_cli_modes_usage(FILE *out, const lop_cli_opt_t *opts, const lop_cli_mode_t *modes)
{
    enum { OPTIONS_WIDTH = 28 }; /* "--goal --check-schedule FILE" */
    fprintf(out, "\nModes (one a run; without a mode's options, %s):\n", modes[0].name);
    for (int m = 0; modes[m].name; m++) {
        char buf[NAME_MAX_LEN + 32];
        const lop_cli_opt_t *row;
        const char *need = mode_need(buf, sizeof buf, opts, &modes[m], &row);
        fprintf(out, "  %-15s ", modes[m].name);
        int left = modes[m].options ? options_print(out, opts, modes[m].options)
                                    : fprintf(out, "(default)");
        left += need ? fprintf(out, " %s", need) : 0;
        fprintf(out, "%*s %s\n", left < OPTIONS_WIDTH ? OPTIONS_WIDTH - left : 0, "",
                modes[m].help);
    }
}

/* A comma-separated list as one CSV cell, its items space-separated. */
static void list_cell(FILE *out, const char *list)
{
    for (const char *p = list; p && *p; p++)
        fputc(*p == ',' ? ' ' : *p, out);
}

void lop_cli_list_options(FILE *out, const lop_cli_opt_t *opts, const lop_cli_mode_t *modes)
{
    fputs("mode,options,operands,needs,implies\n", out);
    for (int m = 0; modes[m].name; m++) {
        fprintf(out, "%s,", modes[m].name);
        list_cell(out, modes[m].options);
        fprintf(out, ",%s,%s,", modes[m].operands ? modes[m].operands : "",
                modes[m].needs ? modes[m].needs : "");
        list_cell(out, modes[m].implies);
        fputc('\n', out);
    }
    fputs("\noption,arg,modes,only_with,chooses\n", out);
    for (const lop_cli_opt_t *o = opts; o->name; o++) {
        const char *chooser = row_implied(opts, o)->name;
        int chooses = row_chooses(modes, chooser);
        fprintf(out, "%s,%s,", o->name, o->arg ? o->arg : "");
        for (int m = 0, n = 0; modes[m].name; m++)
            if (chooses ? mode_has(&modes[m], chooser) : !o->modes || (o->modes >> m & 1))
                fprintf(out, "%s%s", n++ ? " " : "", modes[m].name);
        fprintf(out, ",%s,", o->only_with ? o->only_with : "");
        for (int m = 0, n = 0; modes[m].name && chooses; m++)
            if (mode_has(&modes[m], chooser))
                fprintf(out, "%s%s", n++ ? " " : "", modes[m].name);
        fputc('\n', out);
    }
}
