/*
 * vmpoll.c - wait inside a VM of tests/vm/run.sh until a file exists:
 *
 *   vmpoll SECONDS PATTERN...
 *
 * exits 0 as soon as one PATTERN (a glob(3) pattern, or a plain path)
 * matches an existing file, 1 when SECONDS have passed first, 2 on a usage
 * error.  The VMs' agent and jobd wait with it instead of a shell loop of
 * `sleep 0.1`: under qemu's emulation every fork and exec costs 0.1 to 0.25 s
 * of the vCPU, so such a loop took most of a one-vCPU VM away from the
 * ranks it was waiting for.  One exec, then a stat or a directory listing
 * over the 9p share every 100 ms (a glob of the
 * jobs directory costs about 10 ms of emulated CPU).
 */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int any_exists(int n, char **patterns)
{
    for (int i = 0; i < n; i++) {
        glob_t g;
        memset(&g, 0, sizeof g);
        int rc = glob(patterns[i], 0, NULL, &g);
        globfree(&g);
        if (rc == 0)
            return 1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char *end;
    double limit = argc > 2 ? strtod(argv[1], &end) : -1;
    if (argc < 3 || *end != '\0' || !(limit >= 0)) {
        fprintf(stderr, "usage: vmpoll SECONDS PATTERN...\n");
        return 2;
    }
    const struct timespec step = {0, 100 * 1000 * 1000};
    double deadline = now_s() + limit;
    while (!any_exists(argc - 2, argv + 2)) {
        if (now_s() >= deadline)
            return 1;
        nanosleep(&step, NULL);
    }
    return 0;
}
