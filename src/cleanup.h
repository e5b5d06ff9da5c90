/*
 * cleanup.h - what a run removes if it dies before it is done.
 *
 * One registry per process of the paths that must not outlive a failed run:
 * an atomic writer's temporary files (csv_writer.h), an output directory's
 * staging directory and the files in it, and the directories lop_mkdir_p()
 * made (outdir.h).  SIGINT, SIGTERM, SIGHUP and SIGPIPE, and the exit,
 * remove them (lop_cleanup_now()), newest first, with async-signal-safe
 * calls only; the signal then does what it did before.  The registry changes only with those
 * signals held back, so the handler always sees a consistent list.
 *
 * Only csv_writer.c and outdir.c register paths; a tool calls lop_cleanup_now()
 * alone (before MPI_Abort, which kills without a signal lop could catch).
 */
#ifndef LOP_CLEANUP_H
#define LOP_CLEANUP_H

#include <signal.h>

#include "lop.h"

typedef enum {
    LOP_CLEANUP_FILE,  /* unlink */
    LOP_CLEANUP_STAGE, /* rmdir: the staging directory (its files are listed after it) */
    LOP_CLEANUP_MADE   /* rmdir while empty: a directory this run made */
} lop_cleanup_kind_t;

/* Remove every temporary file and staging directory this process still has,
 * with async-signal-safe calls only (for a signal handler, or before
 * MPI_Abort). */
void lop_cleanup_now(void);

/* Register 'path'; the first call installs the signal handlers and the exit
 * hook.  LOP_ERR_NOMEM leaves the registry as it was. */
lop_status_t lop_cleanup_add(const char *path, lop_cleanup_kind_t kind);
/* Forget the newest entry for 'path' (it was renamed or removed). */
void lop_cleanup_forget(const char *path);
/* Forget every entry registered after the newest one for 'path'. */
void lop_cleanup_forget_newer(const char *path);
/* Hold back (block = 1) or let through (block = 0, 'old' from the block)
 * the signals that clean up. */
void lop_cleanup_signals_block(int block, sigset_t *old);

/* The open staging directory (NULL: none); its string must live until it is
 * set again. */
void lop_cleanup_stage_set(const char *stage);
/* Is 'path' a file in the open staging directory? */
int lop_cleanup_in_stage(const char *path);
/* The directories lop_mkdir_p made: kept (keep = 1) once a run committed
 * files into them, removed while empty otherwise; forgotten either way. */
void lop_cleanup_made_settle(int keep);

#endif
