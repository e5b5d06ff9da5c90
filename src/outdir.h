/*
 * outdir.h - a run's output directory: all or nothing.
 *
 * A run writes every file into a private staging directory DIR/.lop-stage.XXXXXX
 * (hidden: a glob of DIR's *.csv files never sees it) and lop_outdir_end() moves them into
 * DIR.  While they are moved, DIR/.lop-incomplete lists them; it is removed
 * when the last one is in place, so a crash in between leaves the marker.
 * lop_csv_read() refuses a file the marker lists ("an interrupted run left
 * DIR incomplete").  SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the staging
 * directory and every temporary file of a writer (lop_cleanup_now(),
 * cleanup.h), then kill the process as the signal would have; during the
 * moves they are held back.  A run holds a lock (flock) on its stage; a stage
 * whose lock nobody holds is a dead run's (SIGKILL, or mpirun's SIGKILL
 * overtaking the handler), and the next lop_outdir_begin() on DIR removes it.
 */

#ifndef LOP_OUTDIR_H
#define LOP_OUTDIR_H

#include <stdio.h>

#include "lop.h"

#define LOP_OUTDIR_MARKER ".lop-incomplete"

/* Open an input file, as every reader does (lop_csv_read, the GOAL reader):
 * LOP_OK and '*f' to read, or LOP_ERR_PARSE when 'path' cannot be opened,
 * is not a regular file ("PATH: is a FIFO; lop reads only regular files":
 * a FIFO without a writer would block forever, a device never end), or it
 * (or where it leads) is listed as incomplete by its directory's marker. */
lop_status_t lop_input_open(const char *path, FILE **f);

typedef struct {
    char *dir;   /* the target directory */
    char *stage; /* DIR/.lop-stage.XXXXXX: where the run's files are written */
    int lock;    /* the stage, open and locked while the run lives */
    const char *retire[4]; /* names removed from DIR when the run commits */
    size_t n_retire;
} lop_outdir_t;

/* Check, before a run's work, that 'dir' (-o) can be made (later, by
 * lop_outdir_begin) and files created in it: it is not empty and the deepest
 * part of it that exists is a directory we can write in.  Makes nothing;
 * "option --output: ..." errors: LOP_ERR_INVALID for an empty name or one
 * that exists and is not a directory, LOP_ERR_IO for one that cannot be made
 * or written in. */
lop_status_t lop_outdir_prepare(const char *dir);

/* mkdir -p DIR, remove the stages dead runs left in it and create the
 * staging directory; "DIR: cannot ..." errors. */
lop_status_t lop_outdir_begin(lop_outdir_t *t, const char *dir);
/* lop_csv_target_check() of DIR/name: a tool checks the files it will write
 * before its work, and lop_outdir_end() checks them all before the first move. */
lop_status_t lop_outdir_target_check(const char *dir, const char *name);
/* A file of the run's set that this run does not write (barrier-congested.csv
 * after a run without --congest): removed from DIR when the staged files
 * move in, under the same marker, so that DIR never pairs the new files with
 * an earlier run's.  'name' must outlive 't'; at most four names, a fifth
 * is LOP_ERR_RANGE (never dropped: it would stay beside the new set). */
lop_status_t lop_outdir_retire(lop_outdir_t *t, const char *name);
/* When 'status' is LOP_OK, move every file of the stage into DIR (see above);
 * otherwise remove the stage, leaving DIR as it was.  Releases 't' either
 * way (a zeroed 't' is a no-op) and returns the outcome. */
lop_status_t lop_outdir_end(lop_outdir_t *t, lop_status_t status);

/* mkdir -p for the directory output files go in: makes 'path' and its
 * missing parents.  Returns 0, or -1 with errno set and 'path' cut after the
 * directory that could not be made (for the caller's message).  What it made
 * is removed again (while empty) unless a lop_outdir_end() commits into it:
 * at a failed lop_outdir_end(), a signal or the exit. */
int lop_mkdir_p(char *path);

#endif
