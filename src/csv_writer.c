/* csv_writer.c - the atomic file writer and its CSV lines (csv_writer.h). */
#include "csv_writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cleanup.h"

/* The mode fopen() would give a new file: 0666 less the umask (mkstemp's
 * 0600 would hide the data from the user's group). */
static mode_t file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

lop_status_t lop_csv_writer_room(const char *path, uint64_t bytes)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    struct statvfs fs;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (statvfs(dir, &fs) != 0)
        return LOP_OK; /* the open says what is wrong with the directory */
    uint64_t room = (uint64_t)fs.f_bavail * fs.f_frsize;
    char need[LOP_BYTES_TEXT_LEN], free_[LOP_BYTES_TEXT_LEN];
    if (bytes <= room)
        return LOP_OK;
    return lop_err(LOP_ERR_IO, "%s: about %s, its filesystem has %s free", path,
                   lop_bytes_text(bytes, need), lop_bytes_text(room, free_));
}

const char *lop_bytes_text(uint64_t bytes, char buf[LOP_BYTES_TEXT_LEN])
{
    double b = (double)bytes;
    if (b >= 1e9)
        snprintf(buf, LOP_BYTES_TEXT_LEN, "%.1f GB", b / 1e9);
    else
        snprintf(buf, LOP_BYTES_TEXT_LEN, "%.0f %s", b >= 1e6 ? b / 1e6 : b / 1e3,
                 b >= 1e6 ? "MB" : "kB");
    return buf;
}

const char *lop_file_kind(mode_t mode)
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
                   "so it is left as it is", path, lop_file_kind(sb.st_mode));
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
    lop_status_t checked = lop_cleanup_in_stage(path) ? LOP_OK : lop_csv_target_check(path);
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
    lop_cleanup_signals_block(1, &old); /* no window where the file exists unlisted */
    int fd = mkstemp(w->tmp_path);
    int saved = errno;
    st = fd < 0 ? LOP_OK : lop_cleanup_add(w->tmp_path, LOP_CLEANUP_FILE);
    st = st || fd < 0 || !lop_cleanup_in_stage(path) ? st : lop_cleanup_add(path, LOP_CLEANUP_FILE);
    lop_cleanup_signals_block(0, &old);
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
        lop_cleanup_forget(w->tmp_path);
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

lop_status_t lop_csv_writer_finish(lop_csv_writer_t *w)
{
    if (!w->file)
        return LOP_OK; /* finished already */
    /* errno: the failed write's own reason when a row failed before */
    int failed = fflush(w->file) != 0 || ferror(w->file) || fsync(fileno(w->file)) != 0;
    int errnum = errno ? errno : EIO;
    failed |= fclose(w->file) != 0;
    w->file = NULL;
    lop_status_t st = w->nomem ? LOP_ERR_NOMEM : LOP_OK;
    if (st == LOP_OK && failed)
        st = lop_err(LOP_ERR_IO, "%s: cannot write: %s", w->path, strerror(errnum));
    if (st != LOP_OK)
        lop_csv_writer_abort(w);
    return st;
}

lop_status_t lop_csv_writer_commit(lop_csv_writer_t *w)
{
    lop_status_t st = lop_csv_writer_finish(w);
    if (st != LOP_OK)
        return st;
    /* again: the target may have changed since the open */
    if (!lop_cleanup_in_stage(w->path))
        st = lop_csv_target_check(w->path);
    if (st == LOP_OK && rename(w->tmp_path, w->path) != 0)
        st = lop_err(LOP_ERR_IO, "%s: cannot write: %s", w->path, strerror(errno));
    if (st != LOP_OK)
        unlink(w->tmp_path);
    lop_cleanup_forget(w->tmp_path);
    writer_release(w);
    return st;
}

void lop_csv_writer_abort(lop_csv_writer_t *w)
{
    if (w->file)
        fclose(w->file);
    if (w->tmp_path) {
        unlink(w->tmp_path);
        lop_cleanup_forget(w->tmp_path);
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
