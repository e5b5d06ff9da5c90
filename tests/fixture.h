/*
 * fixture.h - scratch files for the C unit tests (header only, like tap.h).
 *
 *   fixture_dir_make("csv")          a fresh /tmp/lop-test-csv-XXXXXX in fixture_dir
 *   fixture_path("a.csv")            a name inside it (static buffer: use it at once)
 *   fixture_file_write("a.csv", s)   a file holding the text s
 *   fixture_file_text(path)          a file's text, up to 8 KiB ("" if none; free it)
 *   fixture_dir_remove()             rm -rf the directory
 *   fixture_lop_load(rows, &set, &lop)  params.csv rows (columns file..l6) read
 *                                    as a set, and its LoP view of t-inline, min
 *   fixture_predictor(&lop, &c, &pr) a predictor over that view's fits
 */
#ifndef LOP_FIXTURE_H
#define LOP_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fmt_params.h"
#include "predict.h"
#include "view.h"
#include "tap.h"

static char fixture_dir[64]; /* the scratch directory */

/* 0 on success. */
__attribute__((unused)) static int fixture_dir_make(const char *tag)
{
    snprintf(fixture_dir, sizeof fixture_dir, "/tmp/lop-test-%s-XXXXXX", tag);
    return mkdtemp(fixture_dir) ? 0 : -1;
}

__attribute__((unused)) static const char *fixture_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", fixture_dir, name);
    return buf;
}

__attribute__((unused)) static void fixture_file_write(const char *name, const char *text)
{
    FILE *f = fopen(fixture_path(name), "w");
    fputs(text, f);
    fclose(f);
}

__attribute__((unused)) static char *fixture_file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 8192);
    if (f && text)
        text[fread(text, 1, 8191, f)] = '\0';
    if (f)
        fclose(f);
    return text;
}

__attribute__((unused)) static void fixture_dir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fixture_dir);
    if (system(cmd) != 0)
        diag("could not remove the temporary directory");
}

/* One test point: the set reads and has an rtt and an os fit of t-inline. */
__attribute__((unused)) static void fixture_lop_load(const char *rows, lop_paramset_t *set,
                                                     lop_view_t *lop)
{
    char path[] = "/tmp/lop-test-set-XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fprintf(f, "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6\n%s", rows);
    fclose(f);
    ok(lop_fmt_params_read(path, set) == LOP_OK &&
           lop_view_from_set(set, "t-inline", "min", lop) == LOP_OK,
       "LoP fixture set %s", lop_errmsg());
    unlink(path);
}

/* A predictor over the fits of 'lop', LogP from them ('c' outlives it). */
__attribute__((unused)) static int fixture_predictor(lop_view_t *lop, barrier_cost_t *c,
                                                     predict_t *pr)
{
    barrier_cost_init(c);
    c->lop = lop;
    predict_logp(lop, NAN, NAN, NAN, NAN, &c->logp);
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = c};
    lop_uncert_opts_t uo = lop_uncert_defaults;
    return predict_init(pr, c, NAN, NAN, NAN, &par, &uo, 40) == LOP_OK;
}

#endif
