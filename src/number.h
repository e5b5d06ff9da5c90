/*
 * number.h - numbers from text: a CSV cell (csv.h lop_csv_number) and an
 * option's argument (cli.h) are read by the same rule, and refused in the
 * same words.
 */
#ifndef LOP_NUMBER_H
#define LOP_NUMBER_H

/* Parse a whole string as a finite double (no trailing junk; white space
 * at either end is allowed). */
int lop_parse_double(const char *s, double *value);
/* Why lop_parse_double refused 's', as the end of a sentence after it:
 * "is not a number", "is not finite" or "underflows (...)". */
const char *lop_parse_double_why(const char *s);

#endif
