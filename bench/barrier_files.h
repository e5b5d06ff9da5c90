/*
 * barrier_files.h - the files of lopbench --barrier, from rank 0's rows
 * (barrier_mode.h): barrier.csv (isolated rows), barrier-hist.csv (every
 * row's per-iteration times, binned) and with --congest
 * barrier-congested.csv (congested rows with their impact factors), in the
 * formats of src/fmt_barrier.h.
 */
#ifndef LOP_BARRIER_FILES_H
#define LOP_BARRIER_FILES_H

#include "barrier_mode.h"

/* The files a --barrier run may write, NULL-terminated (lop_outdir_agree). */
extern const char *const lop_barrier_files[];

/* Write the files into the staging directory 'stage'; 'executors' for
 * '# executors:'.  Rank 0. */
lop_status_t lop_barrier_files_write(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                     const char *executors, const char *stage);

#endif
