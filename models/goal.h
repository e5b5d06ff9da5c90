/*
 * goal.h - a schedule in the GOAL text format of LogGOPSim (Hoefler,
 * Schneider, Lumsdaine, 2010), both ways, so the same barrier runs in both
 * simulators and users bring their own schedules to lop's checker.
 *
 *   num_ranks 4
 *   rank 0 {
 *   l1: send 8b to 1 tag 0
 *   l2: recv 8b from 3 tag 0
 *   l2 requires l1
 *   }
 *
 * Writing: one block per rank, one label per op in program order, the tag
 * is the op's step (sched.h promises that (step, peer) names a message, so
 * tags match exactly the messages lop's FIFO rule matches).  lop's rule is
 * in-order execution on one CPU: every op requires the previous op of its
 * rank, sends included - a send after a send waits for the first one's
 * overhead in lop too (the CPU is busy), and a receive after a send is not
 * posted early.  An MCAST has no GOAL counterpart: it is written as P - 1
 * sends in rank order after the comment line GOAL_MCAST_MARK (LogGOPSim
 * ignores comments and charges P - 1 send overheads where lop charges one;
 * lop reads the sends back as the one MCAST).
 *
 * Reading (LogGOPSim's txt2bin grammar: "num_ranks N", "rank R {" .. "}",
 * "[LABEL:] send SIZEb to R [tag T] [cpu C] [nic K]", the same with "recv
 * .. from R", "A requires B", comments "//" and "/" "* .. *" "/"): a rank's
 * ops run in the order written, one at a time (lop's semantics above), so
 * every "requires" must name an op written before it (else refused by
 * file:line); the tag becomes the step (the checker then proves that FIFO
 * order per pair and the tags pair the same messages); the size is read and
 * not used (lop's LogP has no per-byte G).  What lop cannot run is refused
 * by file:line: calc (computation), irequires (a start dependency), a cpu or
 * nic other than 0, any source or any tag (-1).  Rank blocks come in
 * ascending order (txt2bin reads them so, up to rank num_ranks - 1); a rank
 * without a block has no ops.  Where a file leaves ops unordered (LogGOPSim's
 * schedule generator's dissemination: a send requires only the last
 * receive), lop's order is stronger than the file's, and goal_notes_t counts
 * the sends that carry, in lop's order, what a receive they do not require
 * brought: the check and the times are then those of the order written.
 */
#ifndef LOP_GOAL_H
#define LOP_GOAL_H

#include <stdint.h>
#include <stdio.h>

#include "lop.h"
#include "sched.h"

/* The comment line before the P - 1 sends of an MCAST. */
#define GOAL_MCAST_MARK "/" "* lop: mcast *" "/"

/* Write 's' as GOAL to 'out'. */
void sched_goal_write(const sched_t *s, FILE *out);

/* What a read found beside the schedule. */
typedef struct {
    uint64_t loose;      /* sends after a receive of their rank they do not require */
    uint32_t loose_line; /* the first such send's line (0: none) */
} goal_notes_t;

/* Read a GOAL file into *s (alg: the file's name; s->path and s->line name
 * every op's line).  Errors "FILE:LINE: reason". */
lop_status_t sched_goal_read(const char *path, sched_t *s, goal_notes_t *notes);

/* Does the file read as GOAL (its first word, after a UTF-8 byte order
 * mark, blank lines and comments, is num_ranks)?  Else it is a schedule CSV. */
int sched_goal_sniff(const char *path);

/* A schedule file of either format, told apart by sched_goal_sniff (*notes
 * zero for a CSV): what lopredict --check-schedule, --measured and lopbench
 * --schedule read. */
lop_status_t sched_file_read(const char *path, sched_t *s, goal_notes_t *notes);

/* The warning for notes->loose > 0 (without the tool's name) into buf. */
void goal_notes_say(const goal_notes_t *notes, const char *path, char *buf, size_t size);

#endif
