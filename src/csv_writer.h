/*
 * csv_writer.h - lop's CSV writer (lop_csv_writer_*): files that appear
 * whole or not at all.
 *
 * Rows go to a temporary file beside the target, which
 * lop_csv_writer_commit() syncs and renames into place, so a crash or an
 * error never leaves a half file that looks complete; a signal or the exit
 * removes the temporary file (cleanup.h).  Files get the user's umask
 * (0666 & ~umask), as fopen() would give them.  Inside a run's staging
 * directory (outdir.h) the target is the staged file.
 *
 * The writer writes lop's CSV lines (csv.h): "# key: value" metadata and
 * rows as given.
 */
#ifndef LOP_CSV_WRITER_H
#define LOP_CSV_WRITER_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lop.h"

typedef struct {
    FILE *file;      /* the temporary file being written */
    char *path;      /* final name */
    char *tmp_path;  /* temporary name, renamed to 'path' on commit */
    int nomem;       /* a line could not be made: the commit fails */
} lop_csv_writer_t;

/* A writer replaces only a regular file: 'path' is refused (LOP_ERR_INVALID,
 * "PATH: exists and is a FIFO; ...") if it exists as anything else (a
 * symbolic link, a directory, a FIFO, a device, a socket), at the open and
 * again at the commit.  lop_csv_target_check() is that test alone. */
lop_status_t lop_csv_writer_open(lop_csv_writer_t *w, const char *path);
lop_status_t lop_csv_target_check(const char *path);
/* What a file that is not a regular one is, for messages: "a FIFO",
 * "a directory", ... */
const char *lop_file_kind(mode_t mode);
/* Has the filesystem of 'path' (where its temporary file goes) room for a
 * file of 'bytes'?  Checked before a large file is begun: LOP_ERR_IO "PATH:
 * about 75.9 GB, its filesystem has 64.2 GB free", or LOP_OK (also when
 * statvfs cannot tell). */
lop_status_t lop_csv_writer_room(const char *path, uint64_t bytes);
/* A size for messages, "75.9 GB", "108 MB" or "3 kB", in 'buf'. */
#define LOP_BYTES_TEXT_LEN 32
const char *lop_bytes_text(uint64_t bytes, char buf[LOP_BYTES_TEXT_LEN]);
/* "# key: value" on 'f'; a control character in the value is written as
 * \xNN (the line stays one line, readable by every lop reader).  The one
 * writer of metadata lines: files (lop_csv_meta) and lopredict's tables. */
void lop_meta_print(FILE *f, const char *key, const char *value);
/* lop_meta_print of the formatted value into the writer's file. */
void lop_csv_meta(lop_csv_writer_t *w, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A header or data row, written as given plus a newline. */
void lop_csv_line(lop_csv_writer_t *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Flush, sync and close the temporary file, checking every write; on
 * failure it is removed (as lop_csv_writer_abort) and "PATH: cannot write:
 * reason" returned.  What is left is the commit's rename: a run that
 * prints a report saying it succeeded finishes its file first. */
lop_status_t lop_csv_writer_finish(lop_csv_writer_t *w);
/* lop_csv_writer_finish (unless done) and rename into place. */
lop_status_t lop_csv_writer_commit(lop_csv_writer_t *w);
/* Remove the temporary file; the target is left as it was. */
void lop_csv_writer_abort(lop_csv_writer_t *w);
/* Commit when 'status' is LOP_OK, else abort; returns the outcome (the
 * commit's status, or 'status'). */
lop_status_t lop_csv_writer_end(lop_csv_writer_t *w, lop_status_t status);

#endif
