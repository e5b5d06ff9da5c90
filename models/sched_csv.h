/*
 * sched_csv.h - a schedule as CSV, the format lopredict --schedule writes and
 * --check-schedule, --measured and lopbench --schedule FILE read (README
 * "Data formats"): the one place its columns and metadata keys are spelled,
 * its writer and its reader.  GOAL, the other schedule format, is goal.h.
 *
 *   # alg: <name>      (when the schedule has one)
 *   # n: <n>           (when the algorithm takes one)
 *   # p: <P>
 *   rank,step,op,peer
 *
 * One row per operation, a rank's rows in execution order; op is send, recv
 * or mcast (sched_kind_name), peer -1 for mcast and mcast only.  The reader
 * takes rows of different ranks interleaved, P from "# p:" (else 1 + the
 * largest rank or peer) and the name from "# alg:" (else the file's name).
 */
#ifndef LOP_SCHED_CSV_H
#define LOP_SCHED_CSV_H

#include <stdio.h>

#include "lop.h"
#include "sched.h"

/* Write the schedule as CSV to 'out' (rows of one rank in execution order). */
void sched_csv_write(const sched_t *s, FILE *out);
/* Read a schedule written by sched_csv_write; each op keeps its file line
 * (s->path, s->line) for messages.  Errors name file:line. */
lop_status_t sched_csv_read(const char *path, sched_t *s);

#endif
