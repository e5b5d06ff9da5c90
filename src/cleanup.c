/* cleanup.c - the registry of paths a failed run removes, and its signal
 * handler (cleanup.h). */
#include "cleanup.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Paths to remove if the process dies of a signal or exits before a commit:
 * temporary files of open writers, the staging directory and the files in
 * it, and the output directories this run created (removed while empty, so
 * a run that failed leaves no DIR where there was none).  Changed only with
 * the signals blocked, so the handler always sees a consistent list; removed
 * newest first (files before their directory). */
typedef struct {
    char *path;
    lop_cleanup_kind_t kind;
} cleanup_t;

static cleanup_t *cleanup_list;
static size_t cleanup_n, cleanup_cap;
static const char *cleanup_stage; /* the open staging directory, or NULL */
/* SIGPIPE too: a reader that stops early (lopredict ... | head, lopfit -o
 * DIR | head -1) kills the writer, which must not leave its temporary file
 * or its stage. */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

void lop_cleanup_now(void)
{
    for (size_t i = cleanup_n; i-- > 0;) {
        if (cleanup_list[i].kind != LOP_CLEANUP_FILE)
            rmdir(cleanup_list[i].path);
        else
            unlink(cleanup_list[i].path);
    }
}

/* What each of cleanup_signals did before (an MPI library may have its own
 * handler), restored before the signal is raised again. */
static struct sigaction cleanup_old[COUNT(cleanup_signals)];

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
    for (size_t i = 0; i < COUNT(cleanup_signals); i++)
        if (cleanup_signals[i] == sig)
            sigaction(sig, &cleanup_old[i], NULL);
    raise(sig); /* delivered when this handler returns: what the signal did before */
}

void lop_cleanup_signals_block(int block, sigset_t *old)
{
    if (!block) {
        sigprocmask(SIG_SETMASK, old, NULL);
        return;
    }
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < COUNT(cleanup_signals); i++)
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
    for (size_t i = 0; i < COUNT(cleanup_signals); i++) {
        struct sigaction sa = {.sa_handler = cleanup_on_signal};
        sigemptyset(&sa.sa_mask);
        if (sigaction(cleanup_signals[i], NULL, &cleanup_old[i]) == 0 &&
            cleanup_old[i].sa_handler != SIG_IGN)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
    atexit(lop_cleanup_now);
}

lop_status_t lop_cleanup_add(const char *path, lop_cleanup_kind_t kind)
{
    char *copy = lop_strdup(path);
    if (!copy)
        return LOP_ERR_NOMEM;
    cleanup_install();
    sigset_t old;
    lop_cleanup_signals_block(1, &old);
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
    lop_cleanup_signals_block(0, &old);
    if (!grown)
        free(copy);
    return grown ? LOP_OK : LOP_ERR_NOMEM;
}

void lop_cleanup_forget(const char *path)
{
    char *gone = NULL;
    sigset_t old;
    lop_cleanup_signals_block(1, &old);
    for (size_t i = cleanup_n; i-- > 0 && !gone;) {
        if (strcmp(cleanup_list[i].path, path) != 0)
            continue;
        gone = cleanup_list[i].path;
        memmove(&cleanup_list[i], &cleanup_list[i + 1], (cleanup_n - i - 1) * sizeof *cleanup_list);
        cleanup_n--;
    }
    lop_cleanup_signals_block(0, &old);
    free(gone);
}

void lop_cleanup_forget_newer(const char *path)
{
    while (cleanup_n > 0 && strcmp(cleanup_list[cleanup_n - 1].path, path) != 0)
        lop_cleanup_forget(cleanup_list[cleanup_n - 1].path);
}

void lop_cleanup_stage_set(const char *stage)
{
    cleanup_stage = stage;
}

int lop_cleanup_in_stage(const char *path)
{
    size_t n = cleanup_stage ? strlen(cleanup_stage) : 0;
    return n && strncmp(path, cleanup_stage, n) == 0 && path[n] == '/';
}

void lop_cleanup_made_settle(int keep)
{
    for (size_t i = cleanup_n; i-- > 0;) {
        if (cleanup_list[i].kind != LOP_CLEANUP_MADE)
            continue;
        if (!keep)
            rmdir(cleanup_list[i].path);
        lop_cleanup_forget(cleanup_list[i].path);
    }
}
