/* fitdata.c - data sets from series files, and the models that fit them (fitdata.h). */
#include "fitdata.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cli.h"
#include "fmt_series.h"

/* ------------------------------------------------------- model selection */

/* The model name a --model spec gives a file of 'quantity': "MODEL" for
 * every file, or "QUANTITY=MODEL,..." for those quantities; "auto" (select
 * from the quantity's family) when the spec does not name it. */
static const char *spec_for(const char *spec, const char *quantity, char *buf, size_t len)
{
    if (spec && !strchr(spec, '='))
        return spec;
    for (const char *item = spec; item;) {
        size_t n = strcspn(item, "=");
        if (quantity && strlen(quantity) == n && strncmp(item, quantity, n) == 0) {
            snprintf(buf, len, "%.*s", (int)strcspn(item + n + 1, ","), item + n + 1);
            return buf;
        }
        item = strchr(item, ',');
        item = item ? item + 1 : NULL;
    }
    return "auto";
}

static int model_name_ok(const char *name)
{
    return strcmp(name, "auto") == 0 || lop_model_find(name);
}

/* The q-th quantity --model takes: a series file's, then the derived ones
 * (fmt_series.h); NULL past the last. */
static const char *quantity_at(int q)
{
    if (q < LOP_FMT_SERIES_QUANTITIES)
        return lop_fmt_series_quantities[q];
    q -= LOP_FMT_SERIES_QUANTITIES;
    return q < LOP_FMT_SERIES_DERIVED ? lop_fmt_series_derived[q].quantity : NULL;
}

/* The first n quantities joined "rtt, os, ... or ring", for messages. */
static const char *quantity_names(int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int q = 0; q < n && quantity_at(q) && used < len; q++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", q == 0 ? ""
                                 : q + 1 < n && quantity_at(q + 1) ? ", " : " or ",
                                 quantity_at(q));
    return buf;
}

/* --model's QUANTITY=MODEL items: the models' names for the messages, and
 * which quantities were given. */
typedef struct {
    const char *models;
    int given[LOP_FMT_SERIES_QUANTITIES + LOP_FMT_SERIES_DERIVED];
} model_items_t;

static lop_status_t model_item(void *ctx, char *item)
{
    /* A typo (rt=) or a second model for a quantity would be ignored by
     * spec_for (which takes the first): refuse both. */
    model_items_t *m = ctx;
    char names[64];
    char *eq = strchr(item, '=');
    if (!eq || eq == item || !model_name_ok(eq + 1))
        return lop_err(LOP_ERR_INVALID, "option --model: '%s' is not QUANTITY=MODEL "
                       "with MODEL auto, %s", item, m->models);
    *eq = '\0';
    int q = 0;
    while (quantity_at(q) && strcmp(item, quantity_at(q)) != 0)
        q++;
    if (!quantity_at(q))
        return lop_err(LOP_ERR_INVALID, "option --model: unknown quantity '%s' (%s)", item,
                       quantity_names((int)COUNT(m->given), names, sizeof names));
    if (m->given[q]++)
        return lop_err(LOP_ERR_INVALID, "option --model: quantity '%s' given twice", item);
    return LOP_OK;
}

lop_status_t lop_fitdata_check_models(const char *spec)
{
    char models[LOP_MODEL_NAMES_LEN];
    lop_status_t st = lop_model_names(NULL, " or ", models, sizeof models);
    if (st != LOP_OK)
        return st;
    if (!strchr(spec, '=')) {
        if (model_name_ok(spec))
            return LOP_OK;
        return lop_err(LOP_ERR_INVALID, "option --model: unknown model '%s' (auto, %s)", spec,
                       models);
    }
    model_items_t items = {models, {0}};
    return lop_cli_values("model", spec, model_item, &items); /* no empty item */
}

/* The model or family of a file (fitdata.h); NULL model and family: none. */
static void model_of(const char *spec, const char *quantity, lop_fitdata_t *proto)
{
    char buf[32];
    const char *name = spec_for(spec, quantity, buf, sizeof buf);
    proto->family = NULL;
    proto->model = NULL;
    if (strcmp(name, "auto") != 0) {
        proto->model = lop_model_find(name);
        return;
    }
    proto->family = quantity ? lop_family_for_quantity(quantity) : NULL;
    proto->model = proto->family ? proto->family->member[0] : NULL;
}

/* ------------------------------------------------------------ reading */

/* A file whose quantity has no model: skipped with a note, whose advice
 * names --model QUANTITY= only where --model takes that quantity (a file of
 * lopbench --barrier, quantity barrier, is lopredict --measured's input). */
static lop_status_t no_model(const char *path, const char *quantity)
{
    char names[64];
    for (int q = 0; lop_fmt_series_quantities[q]; q++)
        if (strcmp(quantity, lop_fmt_series_quantities[q]) == 0)
            return lop_err(LOP_ERR_UNSUPPORTED, "%s: quantity '%s' has no model, skipped "
                           "(--model %s=MODEL fits it)", path, quantity, quantity);
    return lop_err(LOP_ERR_UNSUPPORTED, "%s: quantity '%s' is none of a series' (%s), "
                   "skipped", path, quantity,
                   quantity_names(LOP_FMT_SERIES_QUANTITIES, names, sizeof names));
}

/* Does --model give the data set a model of its quantity? */
static lop_status_t check_model(const char *path, const lop_fitdata_t *proto)
{
    if (lop_model_fits_quantity(proto->model, proto->quantity))
        return LOP_OK;
    char names[LOP_MODEL_NAMES_LEN];
    lop_status_t st = lop_model_names(lop_family_for_quantity(proto->quantity), " or ", names,
                                      sizeof names);
    return st ? st : lop_err(LOP_ERR_INVALID, "%s: quantity '%s' takes model %s, not %s (--model)",
                             path, proto->quantity, names, proto->model->name);
}

/* File-level fields of every data set of 'f': model, quantity, series. */
static lop_status_t read_header(const lop_fmt_series_t *f, const char *models, lop_fitdata_t *proto)
{
    const lop_csv_t *csv = f->csv;
    const char *quantity = f->quantity;
    model_of(models, quantity, proto);
    if (!quantity && !proto->model)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: no '# quantity:' line before the header "
                       "(or give --model)", csv->path, csv->header_line);
    if (!proto->model)
        return no_model(csv->path, quantity);
    lop_status_t st = lop_fmt_series_names(f, quantity ? quantity : "unknown", proto->quantity,
                                           sizeof proto->quantity, proto->series);
    return st ? st : check_model(csv->path, proto);
}

static lop_status_t append(lop_fitdata_list_t *list, const lop_fitdata_t *set)
{
    lop_fitdata_t *grown = lop_realloc_array(list->set, list->n + 1, sizeof *grown);
    if (!grown)
        return LOP_ERR_NOMEM;
    list->set = grown;
    list->set[list->n++] = *set;
    return LOP_OK;
}

/* One data set: 'proto' with points p and the column 'col' as y, or with
 * the quantity 'derived' of it. */
static lop_status_t read_set(const lop_fmt_series_t *f, const lop_fitdata_t *proto,
                             const lop_fmt_series_derived_t *derived, const char *stat,
                             size_t col, const double *p, int positive, lop_fitdata_list_t *list)
{
    lop_fitdata_t set = *proto;
    snprintf(set.stat, sizeof set.stat, "%s", stat);
    set.n = f->csv->n_rows;
    set.p = lop_calloc(set.n, sizeof *set.p);
    set.y = lop_calloc(set.n, sizeof *set.y);
    lop_status_t st = set.p && set.y ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK)
        memcpy(set.p, p, set.n * sizeof *set.p);
    st = st ? st : lop_fmt_series_times(f, col, set.y);
    for (size_t r = 0; r < set.n && st == LOP_OK && derived; r++)
        set.y[r] = derived->value(set.p[r], set.y[r]);
    for (size_t r = 0; r < set.n && st == LOP_OK && positive; r++)
        if (!(set.y[r] > 0))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': time %g, relative weights 1/y^2 "
                         "need y > 0 (lopfit --weight none fits it)", f->csv->path,
                         f->csv->line[r], f->csv->columns[col], set.y[r]);
    st = st ? st : append(list, &set);
    if (st) {
        free(set.p);
        free(set.y);
    }
    return st;
}

/* Columns and points of a checked header; appends a set per statistic (of
 * the quantity 'derived' of the file's, unless NULL). */
static lop_status_t read_sets(const lop_fmt_series_t *f, const lop_fitdata_t *proto,
                              const lop_fmt_series_derived_t *derived, const char *stats,
                              int positive, lop_fitdata_list_t *list)
{
    const lop_csv_t *csv = f->csv;
    lop_fmt_series_cols_t cols;
    const lop_model_t *least = proto->family /* auto: its simplest member */
                                   ? proto->family->member[proto->family->n_members - 1]
                                   : proto->model;
    int n_params = least->n_params;
    lop_status_t st = lop_fmt_series_columns(f, stats, &cols);
    if (st == LOP_OK && csv->n_rows < (size_t)n_params)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu data rows, the %d-parameter %s model needs %d "
                     "(--model %s=linear needs 2)", csv->path,
                     csv->n_rows ? csv->line[csv->n_rows - 1] : csv->header_line, csv->n_rows,
                     n_params, least->name, n_params, proto->quantity);
    if (st)
        return st;
    double *p = lop_calloc(csv->n_rows, sizeof *p);
    st = p ? lop_fmt_series_p(f, cols.p, p) : LOP_ERR_NOMEM;
    for (int s = 0; lop_fmt_series_stats[s] && st == LOP_OK; s++)
        if (lop_cli_list_has(stats, lop_fmt_series_stats[s]))
            st = read_set(f, proto, derived, lop_fmt_series_stats[s], cols.us[s], p, positive,
                          list);
    free(p);
    return st;
}

/* The sets of the quantities derived from the file's (fmt_series.h): with
 * the model --model gives them, or selected from their family, also when a
 * plain --model MODEL names one of another family (it is for the files' own
 * quantities).  Selected with too few rows for any member (a 2-rank run's
 * one RTT), a derived quantity is not fitted: the file's own fits stand. */
static lop_status_t read_derived(const lop_fmt_series_t *f, const lop_fitdata_t *proto,
                                 const char *models, const char *stats, int positive,
                                 lop_fitdata_list_t *list)
{
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < COUNT(lop_fmt_series_derived) && st == LOP_OK; i++) {
        const lop_fmt_series_derived_t *d = &lop_fmt_series_derived[i];
        lop_fitdata_t set = *proto;
        if (strcmp(proto->quantity, d->from) != 0)
            continue;
        snprintf(set.quantity, sizeof set.quantity, "%s", d->quantity);
        model_of(models, d->quantity, &set);
        if (models && !strchr(models, '=') && !lop_model_fits_quantity(set.model, d->quantity))
            model_of(NULL, d->quantity, &set);
        if (set.family &&
            f->csv->n_rows < (size_t)set.family->member[set.family->n_members - 1]->n_params)
            continue;
        st = check_model(f->csv->path, &set);
        st = st ? st : read_sets(f, &set, d, stats, positive, list);
    }
    return st;
}

lop_status_t lop_fitdata_read(const char *path, const char *models, const char *stats,
                              int positive, lop_fitdata_list_t *list)
{
    lop_fmt_series_t f;
    lop_fitdata_t proto;
    memset(&proto, 0, sizeof proto);
    lop_status_t st = lop_fmt_series_read(path, &f);
    if (st)
        return st;
    size_t before = list->n;
    proto.file = path; /* checked as a params.csv cell only where it is written (lopfit -o) */
    st = read_header(&f, models, &proto);
    st = st ? st : read_sets(&f, &proto, NULL, stats, positive, list);
    st = st ? st : read_derived(&f, &proto, models, stats, positive, list);
    while (st && list->n > before) { /* all of a file or nothing */
        list->n--;
        free(list->set[list->n].p);
        free(list->set[list->n].y);
    }
    lop_fmt_series_free(&f);
    return st;
}

void lop_fitdata_free(lop_fitdata_list_t *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free(list->set[i].p);
        free(list->set[i].y);
    }
    free(list->set);
    memset(list, 0, sizeof *list);
}
