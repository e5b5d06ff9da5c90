/* lop.c - status messages and checked allocation (see lop.h). */
#include "lop.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char lop_last_error[1024];

/* Copy 'in' to 'out' with bytes below 0x20 and 0x7f as \xNN (cut to 'len'). */
static void escape_controls(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)in; *c && o + 5 <= len; c++) {
        if (*c < 0x20 || *c == 0x7f)
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", *c);
        else
            out[o++] = (char)*c;
    }
    out[o] = '\0';
}

lop_status_t lop_err(lop_status_t status, const char *fmt, ...)
{
    /* Format aside first: an argument may be lop_errmsg() itself, when a
     * caller adds context to a message from below. */
    char msg[sizeof lop_last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    escape_controls(msg, lop_last_error, sizeof lop_last_error);
    return status;
}

int lop_double_to_long(double v, long min, long max, long *out)
{
    /* Compare as doubles first: (double)LONG_MAX rounds up, so '<' not '<='. */
    if (!(v >= (double)min && v < (double)max + 1.0) || v != floor(v))
        return 0;
    long l = (long)v;
    if (l < min || l > max)
        return 0;
    *out = l;
    return 1;
}

const char *lop_errmsg(void)
{
    return lop_last_error;
}

int lop_exit_code(lop_status_t st)
{
    switch (st) {
    case LOP_OK:
        return LOP_EXIT_OK;
    case LOP_ERR_NO:
        return LOP_EXIT_NO;
    case LOP_ERR_INVALID:
    case LOP_ERR_PARSE:
    case LOP_ERR_RANGE:
        return LOP_EXIT_INPUT;
    default:
        return LOP_EXIT_FAILED;
    }
}

void lop_err_print(const char *prog)
{
    fprintf(stderr, "%s: %s\n", prog, lop_last_error);
}

void *lop_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        lop_err(LOP_ERR_NOMEM, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *lop_realloc_array(void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        lop_err(LOP_ERR_NOMEM, "allocation overflow (%zu x %zu bytes)", n, size);
        return NULL;
    }
    void *p = realloc(ptr, n * size > 0 ? n * size : 1);
    if (!p)
        lop_err(LOP_ERR_NOMEM, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

char *lop_strdup(const char *s)
{
    char *d = lop_calloc(strlen(s) + 1, 1);
    if (d)
        strcpy(d, s);
    return d;
}
