/*
 * holdstage.c - an interposer of rename() (LD_PRELOAD) that holds a lop tool
 * in its staging directory (src/outdir.h): after the first file is renamed
 * into a DIR/.lop-stage.XXXXXX, the process writes its pid to a file and
 * waits there for a signal, so a test can signal it while its stage is
 * certainly there, at a known point rather than at a random time.
 *
 *   LOP_HOLD_STAGE=FILE        where the pid goes (unset: no hold)
 *   LOP_HOLD_SIGNALS=blocked   every signal held back while it waits: only
 *                              SIGKILL ends it (as when mpirun's SIGKILL
 *                              overtakes lop's SIGTERM handler); otherwise
 *                              the signals reach lop's handlers
 *
 * It also interposes mkstemp(): with LOP_PROBE_SIGTERM=1 the process sends
 * itself SIGTERM right after it created lopbench's probe file
 * (.lop-probe.XXXXXX, bench/samples.c), the moment a Ctrl-C would
 * leave that file behind unless the signal waits until it is removed.
 *
 * Build: cc -shared -fPIC -o libholdstage.so holdstage.c
 * Use:   mpirun -np 2 env LD_PRELOAD=.../libholdstage.so LOP_HOLD_STAGE=F lopbench ...
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    static int held;
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    int rc = real(from, to);
    const char *file = getenv("LOP_HOLD_STAGE");
    if (rc != 0 || held || !file || !strstr(to, "/.lop-stage."))
        return rc;
    held = 1;
    const char *how = getenv("LOP_HOLD_SIGNALS");
    sigset_t all;
    sigfillset(&all);
    if (how && strcmp(how, "blocked") == 0)
        sigprocmask(SIG_BLOCK, &all, NULL);
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, pid, (size_t)len) != len)
        abort();
    close(fd);
    for (;;)
        pause();
}

int mkstemp(char *template)
{
    static int (*real)(char *);
    if (!real)
        real = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
    int fd = real(template);
    const char *on = getenv("LOP_PROBE_SIGTERM");
    if (fd >= 0 && on && strcmp(on, "1") == 0 && strstr(template, "/.lop-probe."))
        raise(SIGTERM);
    return fd;
}
