/* number.c - numbers from text, for files and options alike (number.h). */
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

int lop_parse_double(const char *s, double *value)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    /* ERANGE with a nonzero finite result is a subnormal: exact enough, and
     * what a writer prints for one; an overflow or a total underflow is not. */
    if (end == s || *end != '\0' || !isfinite(v) || (errno == ERANGE && (v == 0 || isinf(v))))
        return 0;
    *value = v;
    return 1;
}

const char *lop_parse_double_why(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (end != s && isspace((unsigned char)*end))
        end++;
    if (end == s || *end != '\0')
        return "is not a number";
    if (errno == ERANGE && v == 0) /* 1e-400: nonzero, but below every double */
        return "underflows (its magnitude is below the smallest double)";
    return "is not finite";
}
