/* outdir.c - a run's output directory, all or nothing (outdir.h). */
#include "outdir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "csv_writer.h"

int lop_mkdir_p(char *path)
{
    for (char *slash = path[0] ? strchr(path + 1, '/') : NULL;; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        if (mkdir(path, 0777) == 0) {
            if (lop_cleanup_add(path, LOP_CLEANUP_MADE) != LOP_OK) {
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

#define STAGE_PREFIX ".lop-stage."

/* Remove what a dead run left in DIR: a staging directory nobody holds the
 * lock of (stage_make).  A run killed by SIGKILL, or by mpirun's SIGKILL
 * while its handler was still removing files (mpirun sends it a moment after
 * SIGTERM), leaves its stage; the next run into DIR removes it.  A live
 * run's stage is locked and left alone; so is one where locks do not work
 * (the lock fails with another error than EWOULDBLOCK). */
static void stale_stages_remove(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, STAGE_PREFIX, strlen(STAGE_PREFIX)) != 0)
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        DIR *s = fdopendir(fd); /* closing it releases the lock, after the rmdir */
        for (struct dirent *f; s && (f = readdir(s));)
            if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0)
                unlinkat(fd, f->d_name, 0);
        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
        if (s)
            closedir(s);
        else
            close(fd);
    }
    if (d)
        closedir(d);
}

/* mkdtemp the stage (a template ending in XXXXXX) and lock it (flock, held
 * until the process ends or lop_outdir_end closes it).  Between the mkdtemp
 * and the lock another run's stale_stages_remove may take it for a dead
 * run's and remove it: then the lock fails, or the name no longer leads to
 * the locked directory, and another name is tried.  Returns the stage's
 * descriptor (locked where locks work), or -1 (errno). */
static int stage_make(char *stage)
{
    size_t len = strlen(stage);
    for (int tries = 0; tries < 100; tries++) {
        memcpy(stage + len - 6, "XXXXXX", 6);
        if (!mkdtemp(stage))
            return -1;
        int fd = open(stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            int saved = errno;
            rmdir(stage);
            errno = saved;
            return -1;
        }
        int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        struct stat a, b;
        if (!locked && errno != EWOULDBLOCK)
            return fd; /* no locks here: the stage is never taken for stale */
        if (locked && fstat(fd, &a) == 0 && stat(stage, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino)
            return fd;
        close(fd);
    }
    errno = EEXIST;
    return -1;
}

/* Can files be made in the existing directory 'path'?  A probe file where
 * it exists (root passes access(); a read-only mount or a full quota does
 * not pass a real file), with the signals that clean up held back while it
 * exists: it is in no cleanup list. */
static lop_status_t dir_writable(const char *path)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.lop-probe.XXXXXX", path);
    sigset_t old;
    lop_cleanup_signals_block(1, &old);
    int fd = mkstemp(probe);
    int saved = errno;
    if (fd >= 0) {
        close(fd);
        unlink(probe);
    }
    lop_cleanup_signals_block(0, &old);
    if (fd < 0)
        return lop_err(LOP_ERR_IO, "option --output: cannot write in '%s': %s", path,
                       strerror(saved));
    return LOP_OK;
}

lop_status_t lop_outdir_prepare(const char *dir)
{
    char path[4096];
    if (dir[0] == '\0') /* lop_cli_dir refuses it; a caller without it gets the same */
        return lop_err(LOP_ERR_INVALID, "option --output: empty directory name");
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return lop_err(LOP_ERR_INVALID, "option --output: directory name too long");
    /* The deepest part of 'dir' that exists: the directory is made only when
     * the files are written (lop_outdir_begin), so a run stopped before,
     * even by SIGKILL, leaves no directory behind. */
    for (;;) {
        struct stat sb;
        if (stat(path[0] ? path : ".", &sb) == 0) {
            /* DIR itself: refused, as a target that is not a regular file is;
             * a file above it: DIR cannot be made, the run fails */
            if (!S_ISDIR(sb.st_mode) && strcmp(path, dir) == 0)
                return lop_err(LOP_ERR_INVALID, "option --output: %s is not a directory", dir);
            if (!S_ISDIR(sb.st_mode))
                return lop_err(LOP_ERR_IO, "option --output: cannot create directory '%s': "
                               "'%s' is not a directory", dir, path);
            return dir_writable(path[0] ? path : ".");
        }
        if (errno != ENOENT)
            return lop_err(LOP_ERR_IO, "option --output: cannot create directory '%s': %s: %s",
                           dir, path, strerror(errno));
        char *slash = strrchr(path, '/');
        while (slash && slash > path && slash[-1] == '/')
            slash--;
        if (!slash)
            path[0] = '\0';
        else
            slash[slash == path] = '\0'; /* "/x" leaves "/" */
    }
}

lop_status_t lop_outdir_begin(lop_outdir_t *t, const char *dir)
{
    memset(t, 0, sizeof *t);
    t->lock = -1;
    char *made = lop_strdup(dir);
    t->dir = lop_strdup(dir);
    t->stage = path_join(dir, STAGE_PREFIX "XXXXXX");
    lop_status_t st = made && t->dir && t->stage ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK && lop_mkdir_p(made) != 0)
        st = lop_err(LOP_ERR_IO, "%s: cannot create directory: %s", made, strerror(errno));
    free(made);
    if (st == LOP_OK)
        stale_stages_remove(dir);
    sigset_t old;
    lop_cleanup_signals_block(1, &old);
    if (st == LOP_OK && (t->lock = stage_make(t->stage)) < 0)
        st = lop_err(LOP_ERR_IO, "%s: cannot write in it: %s", dir, strerror(errno));
    else if (st == LOP_OK && (st = lop_cleanup_add(t->stage, LOP_CLEANUP_STAGE)) != LOP_OK)
        rmdir(t->stage);
    lop_cleanup_stage_set(st == LOP_OK ? t->stage : NULL);
    lop_cleanup_signals_block(0, &old);
    if (st != LOP_OK) {
        if (t->lock >= 0)
            close(t->lock);
        free(t->dir);
        free(t->stage);
        memset(t, 0, sizeof *t);
    }
    return st;
}

/* Append a copy of 'name' to names[*n]. */
static lop_status_t names_add(char ***names, size_t *n, const char *name)
{
    char **grown = lop_realloc_array(*names, *n + 1, sizeof *grown);
    char *copy = grown ? lop_strdup(name) : NULL;
    if (grown)
        *names = grown;
    if (!copy)
        return LOP_ERR_NOMEM;
    (*names)[(*n)++] = copy;
    return LOP_OK;
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
    for (struct dirent *e; st == LOP_OK && (e = readdir(d));)
        if (e->d_name[0] != '.')
            st = names_add(names, n, e->d_name);
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

/* A line without the white space at its ends. */
static char *trimmed(char *line)
{
    size_t len = strlen(line);
    while (len > 0 && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    while (isspace((unsigned char)*line))
        line++;
    return line;
}

/* Open 'path' for reading if it is a regular file.  O_NONBLOCK: open() of
 * a FIFO without a writer would wait for one forever, and a terminal or
 * a device like /dev/zero never ends; the kind is asked of what was
 * opened, so nothing can be swapped in between. */
static lop_status_t open_regular(const char *path, FILE **f)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return lop_err(LOP_ERR_PARSE, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    lop_status_t st = LOP_OK;
    if (fstat(fd, &sb) != 0 || fcntl(fd, F_SETFL, 0) != 0)
        st = lop_err(LOP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        st = lop_err(LOP_ERR_PARSE, "%s: is %s; lop reads only regular files", path,
                     lop_file_kind(sb.st_mode));
    else if (!(*f = fdopen(fd, "r")))
        st = lop_err(LOP_ERR_NOMEM, "%s: cannot open: %s", path, strerror(errno));
    if (st != LOP_OK)
        close(fd);
    return st;
}

/* The files an earlier marker of DIR lists (none without a marker), sorted.
 * Read line by line, as marker_write writes it ('#' lines, the header
 * "file", a name a line), not by lop_csv_read: that reader asks this file
 * whether what it reads is complete (lop_input_open). */
static lop_status_t marker_read(const char *marker, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    if (access(marker, F_OK) != 0)
        return LOP_OK;
    FILE *f = NULL;
    lop_status_t opened = open_regular(marker, &f);
    if (opened != LOP_OK)
        return opened;
    char *buf = NULL;
    size_t cap = 0, lineno = 0;
    int header = 0;
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && getline(&buf, &cap, f) >= 0) {
        char *line = trimmed(buf);
        lineno++;
        if (*line == '\0' || *line == '#')
            continue;
        if (header)
            st = names_add(names, n, line);
        else if (strcmp(line, "file") != 0)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: no column 'file'", marker, lineno);
        header = 1;
    }
    if (st == LOP_OK && ferror(f))
        st = lop_err(LOP_ERR_IO, "%s: read error: %s", marker, strerror(errno));
    free(buf);
    fclose(f);
    if (st == LOP_OK && *n > 1)
        qsort(*names, *n, sizeof **names, names_cmp);
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

lop_status_t lop_outdir_retire(lop_outdir_t *t, const char *name)
{
    if (t->n_retire == COUNT(t->retire))
        return lop_err(LOP_ERR_RANGE, "%s: more than %zu files to retire", name,
                       COUNT(t->retire));
    t->retire[t->n_retire++] = name;
    return LOP_OK;
}

static int is_retired(const lop_outdir_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_retire; i++)
        if (strcmp(t->retire[i], name) == 0)
            return 1;
    return 0;
}

/* The retired names the run did not stage after all join the staged ones
 * (sorted) for the marker; the others are no longer retired. */
static lop_status_t retired_join(lop_outdir_t *t, char ***names, size_t *n)
{
    size_t kept = 0, staged = *n;
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < t->n_retire && st == LOP_OK; i++)
        if (!names_have(*names, staged, t->retire[i])) {
            t->retire[kept++] = t->retire[i];
            st = names_add(names, n, t->retire[i]);
        }
    t->n_retire = kept;
    if (st == LOP_OK && *n > 1)
        qsort(*names, *n, sizeof **names, names_cmp);
    return st;
}

/* Remove DIR's files that the run retires (lop_outdir_retire). */
static lop_status_t retired_remove(const lop_outdir_t *t)
{
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < t->n_retire && st == LOP_OK; i++) {
        char *path = path_join(t->dir, t->retire[i]);
        if (!path)
            st = LOP_ERR_NOMEM;
        else if (unlink(path) != 0 && errno != ENOENT)
            st = lop_err(LOP_ERR_IO, "%s: cannot remove an earlier run's file: %s (%s marks %s "
                         "incomplete)", path, strerror(errno), LOP_OUTDIR_MARKER, t->dir);
        free(path);
    }
    return st;
}

/* Move the staged files into DIR and remove the retired ones, the marker
 * around them ('names': the staged and the retired, sorted). */
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
        else if (rename(from, to) != 0 && !(errno == ENOENT && is_retired(t, names[i])))
            st = lop_err(LOP_ERR_IO, "%s: cannot move into place: %s (%s marks %s incomplete)",
                         to, strerror(errno), LOP_OUTDIR_MARKER, t->dir);
        free(from);
        free(to);
    }
    st = st ? st : retired_remove(t);
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
    st = st ? st : retired_join(t, &names, &n);
    sigset_t old;
    lop_cleanup_signals_block(1, &old); /* the moves run to their end */
    if (status == LOP_OK && st == LOP_OK)
        status = stage_commit(t, names, n);
    else if (status == LOP_OK)
        status = st;
    stage_remove(t, names, n);
    close(t->lock); /* after the rmdir: a live stage is never taken for stale */
    lop_cleanup_forget_newer(t->stage);
    lop_cleanup_forget(t->stage);
    lop_cleanup_made_settle(status == LOP_OK);
    lop_cleanup_stage_set(NULL);
    lop_cleanup_signals_block(0, &old);
    names_free(names, n);
    free(t->dir);
    free(t->stage);
    memset(t, 0, sizeof *t);
    return status;
}

/* Refuse a file that DIR/.lop-incomplete lists: a run was interrupted
 * while it moved its files into place (lop_outdir_end), so the set may mix
 * two runs.  'path' names the file in DIR, 'shown' as the user named it. */
static lop_status_t check_listed(const char *path, const char *shown)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
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
 * symbolic link from another directory leads into a marked set as well),
 * then the file opened. */
lop_status_t lop_input_open(const char *path, FILE **f)
{
    lop_status_t st = check_listed(path, path);
    char *real = st == LOP_OK ? realpath(path, NULL) : NULL;
    if (real && strcmp(real, path) != 0)
        st = check_listed(real, path);
    free(real);
    return st == LOP_OK ? open_regular(path, f) : st;
}
