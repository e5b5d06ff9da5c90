/*
 * fuzz.h - what every libFuzzer harness in fuzz/ shares (fuzz/README.md).
 *
 * The readers take a path, so an input is written to one memfd per process
 * and read back through /proc/self/fd/N.  Option parsers take argv, so an
 * input is split at newlines into at most FUZZ_MAX_ARGS arguments.  The
 * tools' own messages are silenced (stdio's stdout and stderr point at
 * /dev/null during a call); sanitizer and libFuzzer reports are written to
 * file descriptor 2 directly and still show.
 */
#ifndef LOP_FUZZ_H
#define LOP_FUZZ_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FUZZ_MAX_ARGS 64

/* The input as a file: a path valid until the next call. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("lop-fuzz", 0);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("fuzz input");
        abort();
    }
    return path;
}

/* Point stdio's stdout and stderr at /dev/null (quiet = 1) or back. */
static FILE *fuzz_null_out, *fuzz_null_err, *fuzz_real_out, *fuzz_real_err;

static inline FILE *fuzz_open_null(void)
{
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        abort();
    return f;
}

static inline void fuzz_quiet(int quiet)
{
    if (!fuzz_null_err) {
        fuzz_null_out = fuzz_open_null();
        fuzz_null_err = fuzz_open_null();
        fuzz_real_out = stdout;
        fuzz_real_err = stderr;
    }
    stdout = quiet ? fuzz_null_out : fuzz_real_out;
    stderr = quiet ? fuzz_null_err : fuzz_real_err;
}

/* A tool's main ends with lop_stdout_close(), which fclose()s the quiet
 * stdout: open another for the next run. */
static inline void fuzz_stdout_was_closed(void)
{
    fuzz_null_out = fuzz_open_null();
}

/* argv from the input: "name" then one argument per line (at most
 * FUZZ_MAX_ARGS - 1; a final newline ends the last line, it adds no empty
 * argument).  Free with fuzz_argv_free(). */
static inline char **fuzz_argv(const char *name, const uint8_t *data, size_t size, int *argc)
{
    char **argv = calloc(FUZZ_MAX_ARGS + 1, sizeof *argv);
    char *text = malloc(size + 1);
    if (!argv || !text)
        abort();
    if (size && data[size - 1] == '\n')
        size--;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[0] = strdup(name);
    int n = 1;
    for (char *line = text; size && n < FUZZ_MAX_ARGS;) {
        char *end = memchr(line, '\n', (size_t)(text + size - line));
        if (end)
            *end = '\0';
        argv[n++] = strdup(line);
        if (!end)
            break;
        line = end + 1;
    }
    free(text);
    *argc = n;
    return argv;
}

static inline void fuzz_argv_free(char **argv)
{
    for (int i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* A harness parses many argvs in one process, each freed after use:
 * optind = 0 is glibc's documented full reset of getopt's scanning state
 * (lop_cli_init() sets 1, enough for a tool that parses once). */
static inline void fuzz_getopt_reset(void)
{
    char *argv[] = {"fuzz", NULL};
    optind = 0;
    opterr = 0;
    while (getopt(1, argv, "") != -1)
        ;
}

#endif
