/* fitdata.c - reading and checking measurement CSVs (fitdata.h). */
#include "fitdata.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cli.h"
#include "csv.h"

const char *const lop_fitdata_stats[] = {"min", "avg", "median", NULL};

/* Copy 's' into a fixed-size field of a data set; it must fit and, since it
 * ends up in a CSV cell, hold no comma. */
static lop_status_t copy_field(const lop_csv_t *csv, const char *what, const char *s, char *dst,
                               size_t len)
{
    if (strlen(s) >= len || strchr(s, ','))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s '%s' is too long or contains a comma",
                       csv->path, csv->header_line, what, s);
    memcpy(dst, s, strlen(s) + 1);
    return LOP_OK;
}

/* A series or quantity names output files (lop-<series>-<stat>.csv,
 * <series>-<quantity>.csv): csv.h's rule for names. */
static lop_status_t check_name(const lop_csv_t *csv, const char *what, const char *name)
{
    if (!lop_name_ok(name))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s '%s' %s", csv->path, csv->header_line, what,
                       name, lop_name_rule);
    return LOP_OK;
}

/* "dir/send-normal-rtt.csv" with quantity rtt -> "send-normal". */
static void series_from_path(const char *path, const char *quantity, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base), q = strlen(quantity);
    if (n > 4 && strcmp(base + n - 4, ".csv") == 0)
        n -= 4;
    if (n > q + 1 && base[n - q - 1] == '-' && strncmp(base + n - q, quantity, q) == 0)
        n -= q + 1;
    snprintf(out, len, "%.*s", (int)n, base);
}

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

/* --model's QUANTITY=MODEL items: the models' names for the messages, and
 * which quantities were given. */
typedef struct {
    const char *models;
    int given[5];
} model_items_t;

static lop_status_t model_item(void *ctx, char *item)
{
    /* A typo (rt=) or a second model for a quantity would be ignored by
     * spec_for (which takes the first): refuse both. */
    static const char *const quantities[] = {"rtt", "os", "or", "oc", "prtt"};
    model_items_t *m = ctx;
    char *eq = strchr(item, '=');
    if (!eq || eq == item || !model_name_ok(eq + 1))
        return lop_err(LOP_ERR_INVALID, "option --model: '%s' is not QUANTITY=MODEL "
                       "with MODEL auto, %s", item, m->models);
    *eq = '\0';
    size_t q = 0;
    while (q < sizeof quantities / sizeof *quantities && strcmp(item, quantities[q]) != 0)
        q++;
    if (q == sizeof quantities / sizeof *quantities)
        return lop_err(LOP_ERR_INVALID, "option --model: unknown quantity '%s' "
                       "(rtt, os, or, oc or prtt)", item);
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

/* lopbench --raw writes every sample as p,rep,us beside the summaries: not
 * lopfit's input, but found by the same glob. */
static int is_raw_samples(const lop_csv_t *csv)
{
    for (size_t i = 0; i < csv->n_columns; i++)
        if (strcmp(csv->columns[i], "rep") == 0)
            return 1;
    return 0;
}

/* File-level fields of every data set of 'csv': model, quantity, series, file. */
static lop_status_t read_header(const lop_csv_t *csv, const char *models, lop_fitdata_t *proto)
{
    const char *quantity = lop_csv_meta_get(csv, "quantity");
    const char *series = lop_csv_meta_get(csv, "series");
    char from_path[256];
    if (quantity && quantity[0] == '\0')
        quantity = NULL;
    model_of(models, quantity, proto);
    if (!quantity && !proto->model)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: no '# quantity:' line before the header "
                       "(or give --model)", csv->path, csv->header_line);
    if (!proto->model)
        return lop_err(LOP_ERR_UNSUPPORTED,
                       "%s: quantity '%s' has no model, skipped (--model %s=MODEL fits it)",
                       csv->path, quantity, quantity);
    if (!quantity)
        quantity = "unknown";
    if (!series || series[0] == '\0') {
        series_from_path(csv->path, quantity, from_path, sizeof from_path);
        series = from_path;
    }
    lop_status_t st = copy_field(csv, "quantity", quantity, proto->quantity,
                                 sizeof proto->quantity);
    st = st ? st : copy_field(csv, "series", series, proto->series, sizeof proto->series);
    st = st ? st : check_name(csv, "series", proto->series);
    st = st ? st : check_name(csv, "quantity", proto->quantity);
    if (st != LOP_OK || lop_model_fits_quantity(proto->model, proto->quantity))
        return st;
    char names[LOP_MODEL_NAMES_LEN];
    st = lop_model_names(lop_family_for_quantity(proto->quantity), " or ", names, sizeof names);
    return st ? st : lop_err(LOP_ERR_INVALID, "%s: quantity '%s' takes model %s, not %s (--model)",
                             csv->path, proto->quantity, names, proto->model->name);
}

/* Rows ordered by p, then by row. */
static const double *sort_p;

static int p_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, k = *(const size_t *)b;
    int c = (sort_p[i] > sort_p[k]) - (sort_p[i] < sort_p[k]);
    return c ? c : (i > k) - (i < k);
}

/* A repeated p: sort the row indices by p (n log n: a file may have 10^6
 * rows) and compare neighbours; names the later line of the first pair. */
static lop_status_t check_p_unique(const lop_csv_t *csv, const double *p)
{
    size_t *order = lop_calloc(csv->n_rows, sizeof *order);
    if (!order)
        return LOP_ERR_NOMEM;
    for (size_t r = 0; r < csv->n_rows; r++)
        order[r] = r;
    sort_p = p;
    qsort(order, csv->n_rows, sizeof *order, p_cmp);
    size_t later = csv->n_rows, earlier = 0;
    for (size_t i = 1; i < csv->n_rows; i++)
        if (p[order[i]] == p[order[i - 1]] && order[i] < later) {
            later = order[i];
            earlier = order[i - 1];
        }
    free(order);
    if (later == csv->n_rows)
        return LOP_OK;
    return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %g repeats line %zu", csv->path,
                   csv->line[later], p[later], csv->line[earlier]);
}

/* The p column: whole numbers >= 1 (p counts hosts), none repeated. */
static lop_status_t read_p(const lop_csv_t *csv, size_t col, double *p)
{
    for (size_t r = 0; r < csv->n_rows; r++) {
        lop_status_t st = lop_csv_number(csv, r, col, &p[r]);
        if (st)
            return st;
        if (!(p[r] >= 1))
            return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %g is not >= 1", csv->path,
                           csv->line[r], p[r]);
        if (p[r] != floor(p[r]))
            return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %.17g is not a whole number", csv->path,
                           csv->line[r], p[r]);
    }
    return check_p_unique(csv, p);
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

/* One data set: 'proto' with points p and the column 'col' as y. */
static lop_status_t read_set(const lop_csv_t *csv, const lop_fitdata_t *proto, const char *stat,
                             size_t col, const double *p, lop_fitdata_list_t *list)
{
    lop_fitdata_t set = *proto;
    snprintf(set.stat, sizeof set.stat, "%s", stat);
    set.n = csv->n_rows;
    set.p = lop_calloc(set.n, sizeof *set.p);
    set.y = lop_calloc(set.n, sizeof *set.y);
    lop_status_t st = set.p && set.y ? LOP_OK : LOP_ERR_NOMEM;
    for (size_t r = 0; r < set.n && st == LOP_OK; r++) {
        set.p[r] = p[r];
        st = lop_csv_number(csv, r, col, &set.y[r]);
        if (st == LOP_OK && set.y[r] < 0) /* a time: a negative one is a broken file */
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': time %g is negative", csv->path,
                         csv->line[r], csv->columns[col], set.y[r]);
        /* Refused rather than rescaled: the fitter's sums of squares underflow
         * below ~1e-154 (1e-300 us fitted with "SSR 0" 17 % off) and overflow
         * above ~1e154, and no timer measures such times (lopbench's resolves
         * ~1e-3 us), so a file holding them is broken, not a case to fit. */
        if (st == LOP_OK && set.y[r] != 0 && !(set.y[r] >= 1e-100 && set.y[r] <= 1e100))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': time %g us is outside "
                         "1e-100..1e100 (a fit's sums of squares would under- or overflow)",
                         csv->path, csv->line[r], csv->columns[col], set.y[r]);
    }
    st = st ? st : append(list, &set);
    if (st) {
        free(set.p);
        free(set.y);
    }
    return st;
}

/* Columns and points of a checked header; appends a set per statistic. */
static lop_status_t read_sets(const lop_csv_t *csv, const lop_fitdata_t *proto,
                              const char *stats, lop_fitdata_list_t *list)
{
    size_t p_col, cols[3];
    const lop_model_t *least = proto->family /* auto: its simplest member */
                                   ? proto->family->member[proto->family->n_members - 1]
                                   : proto->model;
    int n_params = least->n_params;
    lop_status_t st = lop_csv_column(csv, "p", &p_col);
    for (int s = 0; lop_fitdata_stats[s] && st == LOP_OK; s++) {
        char name[32];
        snprintf(name, sizeof name, "%s_us", lop_fitdata_stats[s]);
        if (lop_cli_list_has(stats, lop_fitdata_stats[s]))
            st = lop_csv_column(csv, name, &cols[s]);
    }
    if (st == LOP_OK && csv->n_rows < (size_t)n_params)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu data rows, the %d-parameter %s model needs %d "
                     "(--model %s=linear needs 2)", csv->path,
                     csv->n_rows ? csv->line[csv->n_rows - 1] : csv->header_line, csv->n_rows,
                     n_params, least->name, n_params, proto->quantity);
    if (st)
        return st;
    double *p = lop_calloc(csv->n_rows, sizeof *p);
    st = p ? read_p(csv, p_col, p) : LOP_ERR_NOMEM;
    for (int s = 0; lop_fitdata_stats[s] && st == LOP_OK; s++)
        if (lop_cli_list_has(stats, lop_fitdata_stats[s]))
            st = read_set(csv, proto, lop_fitdata_stats[s], cols[s], p, list);
    free(p);
    return st;
}

lop_status_t lop_fitdata_read(const char *path, const char *models, const char *stats,
                              lop_fitdata_list_t *list)
{
    lop_csv_t *csv;
    lop_fitdata_t proto;
    memset(&proto, 0, sizeof proto);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    size_t before = list->n;
    if (is_raw_samples(csv))
        st = lop_err(LOP_ERR_UNSUPPORTED, "%s: raw samples (lopbench --raw), skipped", path);
    proto.file = path; /* checked as a params.csv cell only where it is written (lopfit -o) */
    st = st ? st : read_header(csv, models, &proto);
    st = st ? st : read_sets(csv, &proto, stats, list);
    while (st && list->n > before) { /* all of a file or nothing */
        list->n--;
        free(list->set[list->n].p);
        free(list->set[list->n].y);
    }
    lop_csv_free(csv);
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
