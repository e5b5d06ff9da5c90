/*
 * lop.h - what every lop module shares: the version, one status type, and
 * the error message that travels with a failing status.
 *
 * The function that first detects an error calls lop_err() with a message
 * that names the file:line or option at fault; callers only pass the status
 * up.  The command-line layer prints lop_errmsg() once, as one line.
 */
#ifndef LOP_LOP_H
#define LOP_LOP_H

#include <stdarg.h>
#include <stddef.h>

#define LOP_VERSION "0.1.0"

/* The elements of an array (an array, not a pointer: of a pointer sizeof
 * gives the pointer's size). */
#define COUNT(a) (sizeof(a) / sizeof *(a))

typedef enum {
    LOP_OK = 0,
    LOP_ERR_INVALID,     /* bad argument or option value */
    LOP_ERR_PARSE,       /* input file refused: malformed, missing or unreadable */
    LOP_ERR_IO,          /* file system or device error */
    LOP_ERR_NOMEM,       /* allocation failed */
    LOP_ERR_UNSUPPORTED, /* backend or feature not available here */
    LOP_ERR_RANGE,       /* value outside the range it is defined for */
    LOP_ERR_TIMEOUT,     /* a wait outlived its deadline (a peer stopped or died) */
    LOP_ERR_NO           /* a check's answer is no (a rank left a barrier early) */
} lop_status_t;

/* The exit status of every lop tool (README "Exit status"):
 *   0  success;
 *   1  a check answered no (lopredict --check-schedule, --verify, --best
 *      without a winner; lopbench --barrier --check);
 *   2  the input is refused: an option, a file's contents (INVALID, PARSE, RANGE);
 *   3  the run failed: I/O, memory, unsupported here, a timeout. */
enum { LOP_EXIT_OK = 0, LOP_EXIT_NO = 1, LOP_EXIT_INPUT = 2, LOP_EXIT_FAILED = 3 };
int lop_exit_code(lop_status_t st);

/* Record the message for a failure and return 'status', so that a detector
 * can write: return lop_err(LOP_ERR_PARSE, "%s:%zu: ...", file, line); */
lop_status_t lop_err(lop_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Control bytes in the message (from file contents, metadata, arguments)
 * are written as \xNN, so a message is always one printable line. */

/* The message of the most recent lop_err() (empty if none). */
const char *lop_errmsg(void);

/* Print "prog: message" for the last error to stderr. */
void lop_err_print(const char *prog);

/* 'v' as a whole number in min..max: 1 and *out set, or 0 (NaN, infinite,
 * fractional or out of range) without converting, so no float->int cast is
 * ever undefined.  Callers add the file:line or option to their message. */
int lop_double_to_long(double v, long min, long max, long *out);

/* Allocation that reports LOP_ERR_NOMEM through lop_err(); NULL on failure. */
void *lop_calloc(size_t n, size_t size);
void *lop_realloc_array(void *ptr, size_t n, size_t size);
char *lop_strdup(const char *s);

#endif
