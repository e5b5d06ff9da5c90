/* watchdog.c - a heartbeat watched by a thread (watchdog.h). */
#include "watchdog.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lop.h"

volatile unsigned long lop_watchdog_beats;

/* MPI_Finalize after the run ended waits at most this long (watchdog.h). */
#define FINALIZE_LIMIT_S 10.0

static struct {
    char prog[32];
    int rank;
    double timeout_s;        /* --timeout */
    volatile double limit_s; /* --timeout; at least LOP_WATCHDOG_INIT_S in MPI_Init, at
                              * most FINALIZE_LIMIT_S in MPI_Finalize */
    char phase[128];         /* written by the main thread, read only to print */
    int exit_code;           /* of a bark */
} dog = {.exit_code = LOP_EXIT_FAILED};

/* Last words: write(2) of a line made before, then _exit (no stdio, no
 * atexit handlers that could wait on MPI). */
static void bark(void)
{
    char line[320];
    int n = snprintf(line, sizeof line, "%s: rank %d: no progress for %g s in %s (is a peer "
                     "stopped or dead? --timeout sets the limit)\n", dog.prog, dog.rank,
                     dog.limit_s, dog.phase[0] ? dog.phase : "start-up");
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line) < 0)
        n = 0; /* nothing more to be done about it */
    _exit(dog.exit_code);
}

static void *watch(void *unused)
{
    (void)unused;
    double period = (dog.timeout_s < FINALIZE_LIMIT_S ? dog.timeout_s : FINALIZE_LIMIT_S) / 4;
    struct timespec nap = {(time_t)period, (long)((period - (double)(time_t)period) * 1e9)};
    unsigned long seen = lop_watchdog_beats;
    double quiet_s = 0; /* without a beat */
    for (;;) {
        nanosleep(&nap, NULL);
        unsigned long now = lop_watchdog_beats;
        quiet_s = now == seen ? quiet_s + period : 0;
        seen = now;
        if (quiet_s > dog.limit_s)
            bark();
    }
    return NULL;
}

void lop_watchdog_start(const char *prog, int rank, double timeout_s)
{
    snprintf(dog.prog, sizeof dog.prog, "%s", prog);
    dog.rank = rank;
    dog.timeout_s = timeout_s;
    dog.limit_s = timeout_s > LOP_WATCHDOG_INIT_S ? timeout_s : LOP_WATCHDOG_INIT_S;
    snprintf(dog.phase, sizeof dog.phase, "MPI_Init");
    if (timeout_s <= 0)
        return;
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, watch, NULL) != 0)
        fprintf(stderr, "%s: rank %d: note: no watchdog thread; a stopped peer may hang a "
                "blocking MPI call\n", prog, rank);
    pthread_attr_destroy(&attr);
}

void lop_watchdog_finalize(int code)
{
    if (code == 0)
        snprintf(dog.phase, sizeof dog.phase, "MPI_Finalize, after the run succeeded (its "
                 "output is written; exit status 0)");
    else
        snprintf(dog.phase, sizeof dog.phase, "MPI_Finalize, after the run failed (exit "
                 "status %d)", code);
    dog.exit_code = code;
    if (dog.limit_s > FINALIZE_LIMIT_S)
        dog.limit_s = FINALIZE_LIMIT_S;
    lop_watchdog_beat();
}

void lop_watchdog_phase(const char *what)
{
    snprintf(dog.phase, sizeof dog.phase, "%s", what);
    if (dog.limit_s > dog.timeout_s) /* MPI_Init is over (MPI_Finalize lowers it, never raises) */
        dog.limit_s = dog.timeout_s;
    lop_watchdog_beat();
}
