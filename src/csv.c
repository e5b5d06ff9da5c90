/* csv.c - atomic CSV writing and line-checked reading (csv.h). */
#include "csv.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---------------------------------------------------------------- cleanup */

/* Paths to remove if the process dies of a signal or exits before a commit:
 * temporary files of open writers, the staging directory and the files in
 * it, and the output directories this run created (removed while empty, so
 * a run that failed leaves no DIR where there was none).  Changed only with
 * the signals blocked, so the handler always sees a consistent list; removed
 * newest first (files before their directory). */
typedef enum { CLEANUP_FILE, CLEANUP_STAGE, CLEANUP_MADE } cleanup_kind_t;

typedef struct {
    char *path;
    cleanup_kind_t kind;
} cleanup_t;

static cleanup_t *cleanup_list;
static size_t cleanup_n, cleanup_cap;
static const char *cleanup_stage; /* the open staging directory, or NULL */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

void lop_cleanup_now(void)
{
    for (size_t i = cleanup_n; i-- > 0;) {
        if (cleanup_list[i].kind != CLEANUP_FILE)
            rmdir(cleanup_list[i].path);
        else
            unlink(cleanup_list[i].path);
    }
}

/* What each of cleanup_signals did before (an MPI library may have its own
 * handler), restored before the signal is raised again. */
static struct sigaction cleanup_old[sizeof cleanup_signals / sizeof *cleanup_signals];

static void cleanup_on_signal(int sig)
{
    /* The list is changed by the main thread with these signals blocked
     * there, but an MPI library's threads may take a signal meant for the
     * process: hand it to the main thread, which runs this when the list is
     * consistent. */
    pid_t pid = getpid();
    if ((pid_t)syscall(SYS_gettid) != pid) {
        syscall(SYS_tgkill, pid, pid, sig);
        return;
    }
    lop_cleanup_now();
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++)
        if (cleanup_signals[i] == sig)
            sigaction(sig, &cleanup_old[i], NULL);
    raise(sig); /* delivered when this handler returns: what the signal did before */
}

/* Hold back (block = 1) or let through (block = 0, 'old' from the block)
 * the signals that clean up. */
static void cleanup_block(int block, sigset_t *old)
{
    if (!block) {
        sigprocmask(SIG_SETMASK, old, NULL);
        return;
    }
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++)
        sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Once: the handler for every signal not ignored (an ignored SIGHUP, as
 * under nohup, stays ignored), and the same cleanup at exit. */
static void cleanup_install(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++) {
        struct sigaction sa = {.sa_handler = cleanup_on_signal};
        sigemptyset(&sa.sa_mask);
        if (sigaction(cleanup_signals[i], NULL, &cleanup_old[i]) == 0 &&
            cleanup_old[i].sa_handler != SIG_IGN)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
    atexit(lop_cleanup_now);
}

static lop_status_t cleanup_add(const char *path, cleanup_kind_t kind)
{
    char *copy = lop_strdup(path);
    if (!copy)
        return LOP_ERR_NOMEM;
    cleanup_install();
    sigset_t old;
    cleanup_block(1, &old);
    cleanup_t *grown = cleanup_list;
    if (cleanup_n == cleanup_cap) { /* realloc may grow in place: the capacity grows either way */
        grown = lop_realloc_array(cleanup_list, 2 * cleanup_cap + 8, sizeof *grown);
        if (grown) {
            cleanup_list = grown;
            cleanup_cap = 2 * cleanup_cap + 8;
        }
    }
    if (grown)
        cleanup_list[cleanup_n++] = (cleanup_t){copy, kind};
    cleanup_block(0, &old);
    if (!grown)
        free(copy);
    return grown ? LOP_OK : LOP_ERR_NOMEM;
}

/* Forget the newest entry for 'path' (it was renamed or removed). */
static void cleanup_forget(const char *path)
{
    char *gone = NULL;
    sigset_t old;
    cleanup_block(1, &old);
    for (size_t i = cleanup_n; i-- > 0 && !gone;) {
        if (strcmp(cleanup_list[i].path, path) != 0)
            continue;
        gone = cleanup_list[i].path;
        memmove(&cleanup_list[i], &cleanup_list[i + 1], (cleanup_n - i - 1) * sizeof *cleanup_list);
        cleanup_n--;
    }
    cleanup_block(0, &old);
    free(gone);
}

/* Is 'path' a file in the open staging directory? */
static int in_stage(const char *path)
{
    size_t n = cleanup_stage ? strlen(cleanup_stage) : 0;
    return n && strncmp(path, cleanup_stage, n) == 0 && path[n] == '/';
}

/* The mode fopen() would give a new file: 0666 less the umask (mkstemp's
 * 0600 would hide the data from the user's group). */
static mode_t file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* ---------------------------------------------------------------- writing */

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t mode)
{
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

lop_status_t lop_csv_target_check(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return errno == ENOENT ? LOP_OK
                               : lop_err(LOP_ERR_IO, "%s: cannot check: %s", path, strerror(errno));
    if (S_ISREG(sb.st_mode))
        return LOP_OK;
    return lop_err(LOP_ERR_INVALID, "%s: exists and is %s; lop replaces only regular files, "
                   "so it is left as it is", path, file_kind(sb.st_mode));
}

static void writer_release(lop_csv_writer_t *w)
{
    free(w->path);
    free(w->tmp_path);
    memset(w, 0, sizeof *w);
}

lop_status_t lop_csv_writer_open(lop_csv_writer_t *w, const char *path)
{
    memset(w, 0, sizeof *w);
    lop_status_t checked = in_stage(path) ? LOP_OK : lop_csv_target_check(path);
    if (checked != LOP_OK)
        return checked;
    size_t len = strlen(path) + sizeof ".tmp.XXXXXX";
    w->path = lop_strdup(path);
    w->tmp_path = lop_calloc(len, 1);
    lop_status_t st = w->path && w->tmp_path ? LOP_OK : LOP_ERR_NOMEM;
    if (st != LOP_OK)
        goto err_release;
    snprintf(w->tmp_path, len, "%s.tmp.XXXXXX", path);
    sigset_t old;
    cleanup_block(1, &old); /* no window where the file exists unlisted */
    int fd = mkstemp(w->tmp_path);
    int saved = errno;
    st = fd < 0 ? LOP_OK : cleanup_add(w->tmp_path, CLEANUP_FILE);
    st = st || fd < 0 || !in_stage(path) ? st : cleanup_add(path, CLEANUP_FILE);
    cleanup_block(0, &old);
    if (fd < 0) {
        st = lop_err(LOP_ERR_IO, "%s: cannot create: %s", path, strerror(saved));
        goto err_release;
    }
    w->file = st ? NULL : fdopen(fd, "w");
    if (!w->file || fchmod(fd, file_mode()) != 0) {
        st = st ? st : lop_err(LOP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        if (w->file)
            fclose(w->file);
        else
            close(fd);
        w->file = NULL;
        unlink(w->tmp_path);
        cleanup_forget(w->tmp_path);
        goto err_release;
    }
    return LOP_OK;

err_release:
    writer_release(w);
    return st;
}

void lop_meta_print(FILE *f, const char *key, const char *value)
{
    /* A value is one line: a control character (a newline in a path) would
     * end the metadata line, and every reader would refuse the file; it is
     * written as \xNN, as the error messages show it. */
    fprintf(f, "# %s: ", key);
    for (const char *c = value; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            fprintf(f, "\\x%02x", (unsigned char)*c);
        else
            fputc(*c, f);
    }
    fputc('\n', f);
}

void lop_csv_meta(lop_csv_writer_t *w, const char *key, const char *fmt, ...)
{
    va_list ap;
    char *value = NULL;
    va_start(ap, fmt);
    int len = vasprintf(&value, fmt, ap);
    va_end(ap);
    if (len < 0) { /* the commit reports it: the file is not written */
        w->nomem = 1;
        return;
    }
    lop_meta_print(w->file, key, value);
    free(value);
}

void lop_csv_line(lop_csv_writer_t *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(w->file, fmt, ap);
    va_end(ap);
    fputc('\n', w->file);
}

lop_status_t lop_csv_writer_commit(lop_csv_writer_t *w)
{
    int failed = ferror(w->file) || fflush(w->file) != 0 || fsync(fileno(w->file)) != 0;
    failed |= fclose(w->file) != 0;
    w->file = NULL;
    lop_status_t st = w->nomem ? LOP_ERR_NOMEM : LOP_OK;
    /* again: the target may have changed since the open */
    if (st == LOP_OK && !failed && !in_stage(w->path))
        st = lop_csv_target_check(w->path);
    if (st == LOP_OK && (failed || rename(w->tmp_path, w->path) != 0))
        st = lop_err(LOP_ERR_IO, "%s: cannot write: %s", w->path, strerror(errno));
    if (st != LOP_OK)
        unlink(w->tmp_path);
    cleanup_forget(w->tmp_path);
    writer_release(w);
    return st;
}

void lop_csv_writer_abort(lop_csv_writer_t *w)
{
    if (w->file)
        fclose(w->file);
    if (w->tmp_path) {
        unlink(w->tmp_path);
        cleanup_forget(w->tmp_path);
    }
    writer_release(w);
}

lop_status_t lop_csv_writer_end(lop_csv_writer_t *w, lop_status_t status)
{
    if (status == LOP_OK)
        return lop_csv_writer_commit(w);
    lop_csv_writer_abort(w);
    return status;
}

int lop_mkdir_p(char *path)
{
    for (char *slash = path[0] ? strchr(path + 1, '/') : NULL;; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        if (mkdir(path, 0777) == 0) {
            if (cleanup_add(path, CLEANUP_MADE) != LOP_OK) {
                rmdir(path);
                errno = ENOMEM;
                return -1;
            }
        } else if (errno != EEXIST) {
            return -1;
        }
        if (!slash)
            return 0;
        *slash = '/';
    }
}

/* The directories lop_mkdir_p made: kept once a run committed files into
 * them, removed while empty otherwise. */
static void made_dirs_settle(int keep)
{
    for (size_t i = cleanup_n; i-- > 0;) {
        if (cleanup_list[i].kind != CLEANUP_MADE)
            continue;
        if (!keep)
            rmdir(cleanup_list[i].path);
        cleanup_forget(cleanup_list[i].path);
    }
}

/* ------------------------------------------------------------------ cells */

const char lop_csv_cell_rule[] = "a CSV cell holds no comma, no control character (a line "
                                 "break) and no space at either end";

int lop_csv_cell_ok(const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    return len == 0 || (!isspace((unsigned char)s[0]) && !isspace((unsigned char)s[len - 1]));
}

/* ------------------------------------------------------------------ names */

const char lop_name_rule[] = "must be 1 to 63 letters, digits, '.', '_' or '-', "
                             "not starting with '.' or '-'";

int lop_name_ok(const char *name)
{
    size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789._-");
    return len > 0 && len <= LOP_NAME_MAX && name[len] == '\0' && name[0] != '.' &&
           name[0] != '-';
}

/* ------------------------------------------------------ output directories */

static int names_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "DIR/name" in a new string, or NULL (LOP_ERR_NOMEM). */
static char *path_join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = lop_calloc(len, 1);
    if (p)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

lop_status_t lop_outdir_target_check(const char *dir, const char *name)
{
    char *path = path_join(dir, name);
    lop_status_t st = path ? lop_csv_target_check(path) : LOP_ERR_NOMEM;
    free(path);
    return st;
}

lop_status_t lop_outdir_begin(lop_outdir_t *t, const char *dir)
{
    memset(t, 0, sizeof *t);
    char *made = lop_strdup(dir);
    t->dir = lop_strdup(dir);
    t->stage = path_join(dir, ".lop-stage.XXXXXX");
    lop_status_t st = made && t->dir && t->stage ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK && lop_mkdir_p(made) != 0)
        st = lop_err(LOP_ERR_IO, "%s: cannot create directory: %s", made, strerror(errno));
    free(made);
    sigset_t old;
    cleanup_block(1, &old);
    if (st == LOP_OK && !mkdtemp(t->stage))
        st = lop_err(LOP_ERR_IO, "%s: cannot write in it: %s", dir, strerror(errno));
    else if (st == LOP_OK && (st = cleanup_add(t->stage, CLEANUP_STAGE)) != LOP_OK)
        rmdir(t->stage);
    cleanup_stage = st == LOP_OK ? t->stage : NULL;
    cleanup_block(0, &old);
    if (st != LOP_OK) {
        free(t->dir);
        free(t->stage);
        memset(t, 0, sizeof *t);
    }
    return st;
}

/* The names of the files in the staging directory, sorted. */
static lop_status_t stage_names(const lop_outdir_t *t, char ***names, size_t *n)
{
    DIR *d = opendir(t->stage);
    if (!d)
        return lop_err(LOP_ERR_IO, "%s: cannot read: %s", t->stage, strerror(errno));
    lop_status_t st = LOP_OK;
    *names = NULL;
    *n = 0;
    for (struct dirent *e; st == LOP_OK && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **grown = lop_realloc_array(*names, *n + 1, sizeof *grown);
        char *copy = grown ? lop_strdup(e->d_name) : NULL;
        if (grown)
            *names = grown;
        if (copy)
            (*names)[(*n)++] = copy;
        else
            st = LOP_ERR_NOMEM;
    }
    closedir(d);
    if (st == LOP_OK && *n > 1)
        qsort(*names, *n, sizeof **names, names_cmp);
    return st;
}

static void names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Is 'name' one of the sorted 'names'? */
static int names_have(char *const *names, size_t n, const char *name)
{
    return n && bsearch(&name, names, n, sizeof *names, names_cmp) != NULL;
}

/* The files an earlier marker of DIR lists (none without a marker), sorted. */
static lop_status_t marker_read(const char *marker, char ***names, size_t *n)
{
    lop_csv_t *csv = NULL;
    size_t col;
    *names = NULL;
    *n = 0;
    if (access(marker, F_OK) != 0)
        return LOP_OK;
    lop_status_t st = lop_csv_read(marker, &csv);
    st = st ? st : lop_csv_column(csv, "file", &col);
    if (st == LOP_OK && !(*names = lop_calloc(csv->n_rows, sizeof **names)))
        st = LOP_ERR_NOMEM;
    for (size_t r = 0; st == LOP_OK && r < csv->n_rows; r++)
        if (!((*names)[(*n)++] = lop_strdup(csv->cells[r][col])))
            st = LOP_ERR_NOMEM;
    if (st == LOP_OK && *n > 1)
        qsort(*names, *n, sizeof **names, names_cmp);
    lop_csv_free(csv);
    return st;
}

/* Write the marker listing 'a' and those of 'b' not in 'a' (both sorted);
 * with none, remove it. */
static lop_status_t marker_write(const char *marker, char *const *a, size_t n_a,
                                 char *const *b, size_t n_b)
{
    if (n_a + n_b == 0)
        return unlink(marker) == 0 || errno == ENOENT
                   ? LOP_OK
                   : lop_err(LOP_ERR_IO, "%s: cannot remove: %s", marker, strerror(errno));
    lop_csv_writer_t w;
    lop_status_t st = lop_csv_writer_open(&w, marker);
    if (st)
        return st;
    lop_csv_meta(&w, "lop", "an interrupted run was moving these files into place; until a "
                 "run writes them again they may mix two runs");
    lop_csv_line(&w, "file");
    for (size_t i = 0; i < n_a; i++)
        lop_csv_line(&w, "%s", a[i]);
    for (size_t i = 0; i < n_b; i++)
        if (!names_have(a, n_a, b[i]))
            lop_csv_line(&w, "%s", b[i]);
    return lop_csv_writer_commit(&w);
}

/* Move the staged files into DIR, the marker around them. */
static lop_status_t stage_commit(const lop_outdir_t *t, char *const *names, size_t n)
{
    char **old = NULL, **left = NULL;
    size_t n_old = 0, n_left = 0;
    char *marker = path_join(t->dir, LOP_OUTDIR_MARKER);
    lop_status_t st = marker ? marker_read(marker, &old, &n_old) : LOP_ERR_NOMEM;
    int marked = n > 1 || n_old > 0; /* one rename alone is atomic */
    for (size_t i = 0; i < n && st == LOP_OK; i++) /* every target, before the first move */
        st = lop_outdir_target_check(t->dir, names[i]);
    if (st == LOP_OK && marked)
        st = marker_write(marker, names, n, old, n_old);
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        char *from = path_join(t->stage, names[i]), *to = path_join(t->dir, names[i]);
        if (!from || !to)
            st = LOP_ERR_NOMEM;
        else if (rename(from, to) != 0)
            st = lop_err(LOP_ERR_IO, "%s: cannot move into place: %s (%s marks %s incomplete)",
                         to, strerror(errno), LOP_OUTDIR_MARKER, t->dir);
        free(from);
        free(to);
    }
    int fd = st == LOP_OK ? open(t->dir, O_RDONLY | O_DIRECTORY) : -1;
    if (st == LOP_OK && (fd < 0 || fsync(fd) != 0))
        st = lop_err(LOP_ERR_IO, "%s: cannot sync: %s", t->dir, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (st == LOP_OK && marked) { /* what an earlier interrupted run left unreplaced */
        left = n_old ? lop_calloc(n_old, sizeof *left) : NULL;
        for (size_t i = 0; i < n_old && left; i++)
            if (!names_have(names, n, old[i]))
                left[n_left++] = old[i];
        st = n_old && !left ? LOP_ERR_NOMEM : marker_write(marker, left, n_left, NULL, 0);
    }
    free(left);
    names_free(old, n_old);
    free(marker);
    return st;
}

/* Remove the stage and what is left in it. */
static void stage_remove(const lop_outdir_t *t, char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *path = path_join(t->stage, names[i]);
        if (path)
            unlink(path);
        free(path);
    }
    rmdir(t->stage);
}

lop_status_t lop_outdir_end(lop_outdir_t *t, lop_status_t status)
{
    if (!t->stage)
        return status;
    char **names = NULL;
    size_t n = 0;
    lop_status_t st = stage_names(t, &names, &n);
    sigset_t old;
    cleanup_block(1, &old); /* the moves run to their end */
    if (status == LOP_OK && st == LOP_OK)
        status = stage_commit(t, names, n);
    else if (status == LOP_OK)
        status = st;
    stage_remove(t, names, n);
    while (cleanup_n > 0 && strcmp(cleanup_list[cleanup_n - 1].path, t->stage) != 0)
        cleanup_forget(cleanup_list[cleanup_n - 1].path);
    cleanup_forget(t->stage);
    made_dirs_settle(status == LOP_OK);
    cleanup_stage = NULL;
    cleanup_block(0, &old);
    names_free(names, n);
    free(t->dir);
    free(t->stage);
    memset(t, 0, sizeof *t);
    return status;
}

/* ---------------------------------------------------------------- reading */

int lop_parse_double(const char *s, double *value)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    /* ERANGE with a nonzero finite result is a subnormal: exact enough, and
     * what a writer prints for one; an overflow or a total underflow is not. */
    if (end == s || *end != '\0' || !isfinite(v) || (errno == ERANGE && (v == 0 || isinf(v))))
        return 0;
    *value = v;
    return 1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Split a line in place at commas; returns a new array of trimmed copies. */
static lop_status_t split_cells(char *line, char ***cells, size_t *n)
{
    size_t count = 1;
    for (char *c = line; *c; c++)
        count += *c == ',';
    char **out = lop_calloc(count, sizeof *out);
    if (!out)
        return LOP_ERR_NOMEM;
    char *cur = line;
    for (size_t i = 0; i < count; i++) {
        char *comma = strchr(cur, ',');
        if (comma)
            *comma = '\0';
        out[i] = lop_strdup(trim(cur));
        if (!out[i]) {
            for (size_t j = 0; j < i; j++)
                free(out[j]);
            free(out);
            return LOP_ERR_NOMEM;
        }
        cur = comma ? comma + 1 : cur + strlen(cur);
    }
    *cells = out;
    *n = count;
    return LOP_OK;
}

static void free_cells(char **cells, size_t n)
{
    for (size_t i = 0; i < n && cells; i++)
        free(cells[i]);
    free(cells);
}

static lop_status_t add_meta(lop_csv_t *csv, char *text)
{
    char *colon = strchr(text, ':');
    if (!colon)
        return LOP_OK; /* a plain comment */
    *colon = '\0';
    lop_csv_meta_t *m = lop_realloc_array(csv->meta, csv->n_meta + 1, sizeof *m);
    if (!m)
        return LOP_ERR_NOMEM;
    csv->meta = m;
    m[csv->n_meta].key = lop_strdup(trim(text));
    m[csv->n_meta].value = lop_strdup(trim(colon + 1));
    csv->n_meta++;
    return m[csv->n_meta - 1].key && m[csv->n_meta - 1].value ? LOP_OK : LOP_ERR_NOMEM;
}

static lop_status_t add_row(lop_csv_t *csv, size_t lineno, char *text)
{
    char **cells;
    size_t n;
    lop_status_t st = split_cells(text, &cells, &n);
    if (st != LOP_OK)
        return st;
    if (!csv->columns) {
        csv->columns = cells;
        csv->n_columns = n;
        csv->header_line = lineno;
        for (size_t i = 0; i < n; i++)
            if (cells[i][0] == '\0')
                return lop_err(LOP_ERR_PARSE, "%s:%zu: header column %zu is empty", csv->path,
                               lineno, i + 1);
        return LOP_OK;
    }
    if (n != csv->n_columns) {
        free_cells(cells, n);
        return lop_err(LOP_ERR_PARSE, "%s:%zu: expected %zu fields, found %zu", csv->path, lineno,
                       csv->n_columns, n);
    }
    char ***rows = lop_realloc_array(csv->cells, csv->n_rows + 1, sizeof *rows);
    size_t *lines = rows ? lop_realloc_array(csv->line, csv->n_rows + 1, sizeof *lines) : NULL;
    if (rows)
        csv->cells = rows;
    if (!lines) {
        free_cells(cells, n);
        return LOP_ERR_NOMEM;
    }
    csv->line = lines;
    csv->cells[csv->n_rows] = cells;
    csv->line[csv->n_rows] = lineno;
    csv->n_rows++;
    return LOP_OK;
}

/* One line into 'buf' (LOP_CSV_MAX_LINE + 1 bytes), without its newline:
 * 1 read, 0 end of file, or an error for an over-long line or a NUL byte.
 * Bounded, unlike getline(): /dev/zero or a file without newlines stops
 * after LOP_CSV_MAX_LINE bytes instead of filling memory. */
static lop_status_t read_line(lop_csv_t *csv, FILE *f, size_t lineno, char *buf, int *got)
{
    size_t len = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if (c == '\0')
            return lop_err(LOP_ERR_PARSE, "%s:%zu: contains a NUL byte", csv->path, lineno);
        if (len == LOP_CSV_MAX_LINE)
            return lop_err(LOP_ERR_PARSE, "%s:%zu: line longer than %d bytes", csv->path,
                           lineno, LOP_CSV_MAX_LINE);
        buf[len++] = (char)c;
    }
    buf[len] = '\0';
    *got = c != EOF || len > 0;
    return LOP_OK;
}

static lop_status_t parse_stream(lop_csv_t *csv, FILE *f)
{
    static const char bom[] = "\xef\xbb\xbf"; /* UTF-8 byte order mark: not part of line 1 */
    char *line = lop_calloc(LOP_CSV_MAX_LINE + 1, 1);
    size_t lineno = 0;
    int got = 0;
    lop_status_t st = line ? LOP_OK : LOP_ERR_NOMEM;
    while (st == LOP_OK && (st = read_line(csv, f, lineno + 1, line, &got)) == LOP_OK && got) {
        lineno++;
        char *text = lineno == 1 && strncmp(line, bom, 3) == 0 ? trim(line + 3) : trim(line);
        if (*text == '\0')
            continue;
        if (*text == '#')
            st = csv->columns ? LOP_OK : add_meta(csv, text + 1);
        else
            st = add_row(csv, lineno, text);
    }
    int read_errno = errno; /* getc's reason (EISDIR for a directory), before free() */
    free(line);
    if (st == LOP_OK && ferror(f))
        st = read_errno == EISDIR ? lop_err(LOP_ERR_PARSE, "%s: read error: is a directory", csv->path)
                                  : lop_err(LOP_ERR_IO, "%s: read error: %s", csv->path,
                                            strerror(read_errno));
    if (st == LOP_OK && !csv->columns && lineno == 0)
        st = lop_err(LOP_ERR_PARSE, "%s: empty file", csv->path);
    if (st == LOP_OK && !csv->columns)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: no header row", csv->path, lineno);
    return st;
}

/* Refuse a file that DIR/.lop-incomplete lists: a run was interrupted
 * while it moved its files into place (lop_outdir_end), so the set may mix
 * two runs.  'path' names the file in DIR, 'shown' as the user named it. */
static lop_status_t check_listed(const char *path, const char *shown)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (strcmp(base, LOP_OUTDIR_MARKER) == 0)
        return LOP_OK;
    char *dir = slash ? lop_strdup(path) : lop_strdup(".");
    if (dir && slash)
        dir[slash - path + (slash == path)] = '\0'; /* "/x" -> "/" */
    char *marker = dir ? path_join(dir, LOP_OUTDIR_MARKER) : NULL, **names = NULL;
    size_t n = 0;
    lop_status_t st = marker ? marker_read(marker, &names, &n) : LOP_ERR_NOMEM;
    if (st == LOP_OK && names_have(names, n, base))
        st = lop_err(LOP_ERR_PARSE, "%s: an interrupted run left %s incomplete (%s lists this "
                     "file): run it again", shown, dir, marker);
    names_free(names, n);
    free(marker);
    free(dir);
    return st;
}

/* check_listed() where the user named the file and where it really is (a
 * symbolic link from another directory leads into a marked set as well). */
lop_status_t lop_file_complete(const char *path)
{
    lop_status_t st = check_listed(path, path);
    char *real = st == LOP_OK ? realpath(path, NULL) : NULL;
    if (real && strcmp(real, path) != 0)
        st = check_listed(real, path);
    free(real);
    return st;
}

lop_status_t lop_csv_read(const char *path, lop_csv_t **out)
{
    lop_status_t complete = lop_file_complete(path);
    if (complete != LOP_OK)
        return complete;
    lop_csv_t *csv = lop_calloc(1, sizeof *csv);
    if (!csv)
        return LOP_ERR_NOMEM;
    csv->path = lop_strdup(path);
    if (!csv->path) {
        free(csv);
        return LOP_ERR_NOMEM;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        /* a path the user named wrongly: the input is refused (exit 2) */
        lop_status_t st = lop_err(LOP_ERR_PARSE, "%s: cannot open: %s", path, strerror(errno));
        lop_csv_free(csv);
        return st;
    }
    lop_status_t st = parse_stream(csv, f);
    fclose(f);
    if (st != LOP_OK) {
        lop_csv_free(csv);
        return st;
    }
    *out = csv;
    return LOP_OK;
}

void lop_csv_free(lop_csv_t *csv)
{
    if (!csv)
        return;
    for (size_t i = 0; i < csv->n_meta; i++) {
        free(csv->meta[i].key);
        free(csv->meta[i].value);
    }
    free(csv->meta);
    free_cells(csv->columns, csv->n_columns);
    for (size_t r = 0; r < csv->n_rows; r++)
        free_cells(csv->cells[r], csv->n_columns);
    free(csv->cells);
    free(csv->line);
    free(csv->path);
    free(csv);
}

const char *lop_csv_meta_get(const lop_csv_t *csv, const char *key)
{
    for (size_t i = 0; i < csv->n_meta; i++)
        if (strcmp(csv->meta[i].key, key) == 0)
            return csv->meta[i].value;
    return NULL;
}

lop_status_t lop_csv_column(const lop_csv_t *csv, const char *name, size_t *index)
{
    for (size_t i = 0; i < csv->n_columns; i++) {
        if (strcmp(csv->columns[i], name) == 0) {
            *index = i;
            return LOP_OK;
        }
    }
    return lop_err(LOP_ERR_PARSE, "%s:%zu: no column '%s'", csv->path, csv->header_line, name);
}

const char *lop_parse_double_why(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (end != s && isspace((unsigned char)*end))
        end++;
    if (end == s || *end != '\0')
        return "is not a number";
    if (errno == ERANGE && v == 0) /* 1e-400: nonzero, but below every double */
        return "underflows (its magnitude is below the smallest double)";
    return "is not finite";
}

lop_status_t lop_csv_number(const lop_csv_t *csv, size_t row, size_t column, double *value)
{
    const char *cell = csv->cells[row][column];
    if (!lop_parse_double(cell, value))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': '%s' %s", csv->path,
                       csv->line[row], csv->columns[column], cell, lop_parse_double_why(cell));
    return LOP_OK;
}

lop_status_t lop_csv_integer(const lop_csv_t *csv, size_t row, size_t column, long min, long max,
                             long *value)
{
    double v;
    lop_status_t st = lop_csv_number(csv, row, column, &v);
    if (st == LOP_OK && !lop_double_to_long(v, min, max, value))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': '%s' is not a whole number in %ld..%ld",
                     csv->path, csv->line[row], csv->columns[column], csv->cells[row][column],
                     min, max);
    return st;
}
