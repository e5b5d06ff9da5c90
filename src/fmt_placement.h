/*
 * fmt_placement.h - placement.csv, where every rank of a run ran: the one
 * place its columns and metadata keys are spelled, its writer and its reader
 * (README "Data formats").  lopbench --pairs writes it (bench/place_gather.c);
 * lopredict --placement and lopbench --alg hybrid read it into a placement
 * (src/place.c lop_place_read).
 *
 *   # lopbench, quantity: placement, definition, ranks, topology,
 *   # placement_note, oversubscribed, date, then the run's host lines
 *   rank,host,socket,numa,core
 *
 * Levels, outermost first: host (name), socket (hwloc package), NUMA node,
 * core (the CPU sched_getcpu() returned).  The reader takes the rank and
 * level columns by name, ignores other columns and the metadata, and wants
 * every rank 0..P-1 exactly once.
 */
#ifndef LOP_FMT_PLACEMENT_H
#define LOP_FMT_PLACEMENT_H

#include <stdint.h>

#include "csv.h"
#include "lop.h"

#define LOP_FMT_PLACEMENT_NAME "placement.csv"
#define LOP_FMT_PLACEMENT_LEVELS 4 /* host, socket, numa, core */

/* The level columns' names, outermost first. */
extern const char *const lop_fmt_placement_level[LOP_FMT_PLACEMENT_LEVELS];

/* One rank's place, as written. */
typedef struct {
    const char *host;
    int socket, numa, core;
} lop_fmt_placement_row_t;

/* The metadata of one file. */
typedef struct {
    int ranks;          /* rows */
    int topology;       /* 1: hwloc placed every rank's CPU */
    const char *note;   /* how sockets, NUMA nodes and CPUs were found */
    int oversubscribed; /* more ranks than CPUs */
    const char *date;
} lop_fmt_placement_meta_t;

/* Open 'path' (atomically, lop_csv_writer_open) and write the metadata; the
 * caller may add lines of its own (lop_csv_meta), then writes the rows with
 * lop_fmt_placement_write_rows.  Refused before anything is written: a host
 * name that cannot be a CSV cell (a comma, a quote, a control byte). */
lop_status_t lop_fmt_placement_write_begin(lop_csv_writer_t *w, const char *path,
                                           const lop_fmt_placement_meta_t *meta,
                                           const lop_fmt_placement_row_t *row);
/* The header and meta->ranks rows, then the file committed (removed on failure). */
lop_status_t lop_fmt_placement_write_rows(lop_csv_writer_t *w, const lop_fmt_placement_row_t *row,
                                          int ranks);

/* A file read: label[r * LOP_FMT_PLACEMENT_LEVELS + k] is rank r's cell of
 * level k (pointing into csv). */
typedef struct {
    lop_csv_t *csv;
    uint32_t p;
    const char **label;
} lop_fmt_placement_t;

/* Read placement.csv of 1..max_p ranks.  Errors "file:line: reason". */
lop_status_t lop_fmt_placement_read(const char *path, uint32_t max_p, lop_fmt_placement_t *pl);
void lop_fmt_placement_free(lop_fmt_placement_t *pl);

#endif
