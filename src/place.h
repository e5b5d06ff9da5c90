/*
 * place.h - where every rank of a run is: its place at each level, outermost
 * first.  lop's one placement type, whoever knows the places:
 *
 *   lopbench gathers the run's own    bench/place_gather.h lop_place_gather
 *   placement.csv is read             lop_place_read (src/fmt_placement.h)
 *   a synthetic machine lays out      models/pairs.h pairs_machine_place
 *
 * and what is read off it: the hybrid barrier's tiers and groups
 * (models/hybrid.h, by lop_place_order and lop_place_same), per-pair costs
 * per level (lop_place_level), lopbench --pairs-sample's pair classes
 * (lop_place_class).
 *
 *   lop_place_t pl;
 *   lop_place_read("placement.csv", max_p, &pl);   levels host, socket, numa, core
 *   pl.id[r * pl.n_levels + k]                     rank r's place at level k
 *   lop_place_free(&pl);
 *
 * A place is a number per level: two ranks are in one place at level k when
 * their ids there are equal.  The levels are compared as given, not as
 * nested (socket 0 of one host and socket 0 of another have one id), so the
 * ranks that agree at every level 0..k form one group of level k.
 */
#ifndef LOP_PLACE_H
#define LOP_PLACE_H

#include <stdint.h>

#include "lop.h"

#define LOP_PLACE_MAX_LEVELS 8
#define LOP_PLACE_NAME_MAX 16 /* bytes of a level's name, with its NUL */

typedef struct {
    uint32_t p;        /* ranks */
    uint32_t n_levels; /* levels per rank, outermost first */
    uint32_t *id;      /* id[r * n_levels + k]: rank r's place at level k */
    char level_name[LOP_PLACE_MAX_LEVELS][LOP_PLACE_NAME_MAX]; /* "host", "socket", ... */
} lop_place_t;

/* Room for p ranks of 'levels' levels, every id 0 and no names, for a
 * producer that computes the ids (a synthetic machine). */
lop_status_t lop_place_alloc(uint32_t p, uint32_t levels, lop_place_t *pl);
/* A placement from text labels: label[r * levels + k] is rank r's place at
 * level k (equal text, equal place); name[k] the levels' names. */
lop_status_t lop_place_labels(uint32_t p, uint32_t levels, const char *const *label,
                              const char *const *name, lop_place_t *pl);
/* Read placement.csv of 1..max_p ranks (the format and its checks:
 * src/fmt_placement.h): levels host, socket, numa, core, cells compared as
 * text.  Errors "file:line: reason". */
lop_status_t lop_place_read(const char *path, uint32_t max_p, lop_place_t *pl);
void lop_place_free(lop_place_t *pl);

/* Do ranks a and b agree at levels 0..levels-1?  levels = n_levels + 1
 * asks whether they are one rank (a group of the level below the last). */
int lop_place_same(const lop_place_t *pl, uint32_t a, uint32_t b, uint32_t levels);
/* The outermost level where ranks a and b are placed apart; n_levels when
 * they agree at every level (e.g. two ranks on one core). */
uint32_t lop_place_level(const lop_place_t *pl, uint32_t a, uint32_t b);
/* Ranks 0..p-1 (p <= pl->p) into order[], sorted by their places, outermost
 * level first, then by rank: every group of every level is a run of it. */
void lop_place_order(const lop_place_t *pl, uint32_t p, uint32_t *order);
/* The pair's relation as one small class number: bit 0 another place at
 * level 0, else bit k for every level k where the two differ (0: the same
 * place everywhere).  On placement.csv's levels: bit 0 other host, else
 * bit 1 other socket, bit 2 other NUMA node, bit 3 other CPU.  Pairs of one
 * class are alike to the hardware (lopbench --pairs-sample measures one
 * pair per class). */
unsigned lop_place_class(const lop_place_t *pl, uint32_t a, uint32_t b);

#endif
