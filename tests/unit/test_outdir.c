/* test_outdir.c - all-or-nothing output directories, the name rule, and the
 * check that params.csv rows can be read back (csv.h, model.h). */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "csv.h"
#include "fixture.h"
#include "model.h"
#include "tap.h"

static int exists(const char *name)
{
    return access(fixture_path(name), F_OK) == 0;
}

/* A file NAME holding TEXT, written through 'out''s staging directory. */
static lop_status_t stage_file(const lop_outdir_t *out, const char *name, const char *text)
{
    char path[512];
    lop_csv_writer_t w;
    snprintf(path, sizeof path, "%s/%s", out->stage, name);
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st == LOP_OK)
        lop_csv_line(&w, "%s", text);
    return st ? st : lop_csv_writer_commit(&w);
}

/* The staging directory's name, after the fixture directory. */
static int stage_left(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q '^\\.lop-stage\\.'", fixture_path("d"));
    return system(cmd) == 0;
}

static void test_names(void)
{
    const char *good[] = {"send-normal", "a.b_c-1", "x", NULL};
    const char *bad[] = {"", "..", ".hidden", "-opt", "a/b", "../../up", "a b", "a,b", NULL};
    for (int i = 0; good[i]; i++)
        ok(lop_name_ok(good[i]), "name '%s' is fine", good[i]);
    for (int i = 0; bad[i]; i++)
        ok(!lop_name_ok(bad[i]), "name '%s' is refused", bad[i]);
    char longest[LOP_NAME_MAX + 2];
    memset(longest, 'x', sizeof longest);
    longest[LOP_NAME_MAX] = '\0';
    ok(lop_name_ok(longest), "%d characters are fine", LOP_NAME_MAX);
    longest[LOP_NAME_MAX] = 'x';
    longest[LOP_NAME_MAX + 1] = '\0';
    ok(!lop_name_ok(longest), "%d are not", LOP_NAME_MAX + 1);
}

static void test_commit_and_abort(void)
{
    lop_outdir_t out;
    ok(lop_outdir_begin(&out, fixture_path("d")) == LOP_OK, "begin makes the directory: %s",
       lop_errmsg());
    ok(stage_file(&out, "a.csv", "a\n1") == LOP_OK && stage_file(&out, "b.csv", "b\n1") == LOP_OK,
       "two files staged");
    ok(!exists("d/a.csv"), "... not in the directory before the end");
    ok(lop_outdir_end(&out, LOP_OK) == LOP_OK, "end moves them: %s", lop_errmsg());
    ok(exists("d/a.csv") && exists("d/b.csv") && !exists("d/" LOP_OUTDIR_MARKER) && !stage_left(),
       "both in place, no marker, no stage");
    struct stat sa;
    mode_t mask = umask(0);
    umask(mask);
    ok(stat(fixture_path("d/a.csv"), &sa) == 0 && (sa.st_mode & 0777) == (0666 & ~mask),
       "mode 0%o is 0666 & ~umask", (unsigned)(sa.st_mode & 0777));

    ok(lop_outdir_begin(&out, fixture_path("d")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n2") == LOP_OK,
       "a second run stages a new a.csv");
    ok(lop_outdir_end(&out, lop_err(LOP_ERR_IO, "disk full")) == LOP_ERR_IO &&
           strcmp(lop_errmsg(), "disk full") == 0,
       "a failed run ends with its own error");
    lop_csv_t *csv = NULL;
    ok(lop_csv_read(fixture_path("d/a.csv"), &csv) == LOP_OK && csv->n_rows == 1 &&
           strcmp(csv->cells[0][0], "1") == 0 && !stage_left(),
       "... and leaves the old a.csv and no stage");
    lop_csv_free(csv);
}

/* A retired file goes when the run commits, stays when it fails, and is
 * kept when the run staged it after all. */
static void test_retire(void)
{
    lop_outdir_t out;
    mkdir(fixture_path("r"), 0777);
    fixture_file_write("r/old.csv", "o\n1");
    ok(lop_outdir_begin(&out, fixture_path("r")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n1") == LOP_OK,
       "a run stages a.csv");
    lop_outdir_retire(&out, "old.csv");
    ok(lop_outdir_end(&out, lop_err(LOP_ERR_IO, "disk full")) == LOP_ERR_IO &&
           exists("r/old.csv") && !exists("r/a.csv"),
       "a failed run retires nothing");
    ok(lop_outdir_begin(&out, fixture_path("r")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n1") == LOP_OK,
       "another run stages a.csv");
    lop_outdir_retire(&out, "old.csv");
    lop_outdir_retire(&out, "never.csv");
    ok(lop_outdir_end(&out, LOP_OK) == LOP_OK && exists("r/a.csv") && !exists("r/old.csv") &&
           !exists("r/" LOP_OUTDIR_MARKER),
       "it commits: a.csv in, old.csv gone, a missing name no error, no marker: %s",
       lop_errmsg());
    ok(lop_outdir_begin(&out, fixture_path("r")) == LOP_OK &&
           stage_file(&out, "old.csv", "o\n2") == LOP_OK,
       "a run stages the name it also retires");
    lop_outdir_retire(&out, "old.csv");
    ok(lop_outdir_end(&out, LOP_OK) == LOP_OK && exists("r/old.csv"),
       "... and the staged file stays");
    ok(lop_outdir_begin(&out, fixture_path("r")) == LOP_OK, "a run retires five names");
    int took = 0;
    for (int i = 0; i < 4; i++)
        took += lop_outdir_retire(&out, "x.csv") == LOP_OK;
    ok(took == 4 && lop_outdir_retire(&out, "fifth.csv") == LOP_ERR_RANGE &&
           strstr(lop_errmsg(), "fifth.csv") != NULL,
       "... four taken, the fifth refused by name, never dropped: %s", lop_errmsg());
    lop_outdir_end(&out, LOP_ERR_RANGE);
}

/* A marker left by a run that died between two renames. */
static void test_marker(void)
{
    fixture_file_write("d/" LOP_OUTDIR_MARKER, "file\na.csv\nb.csv\n");
    lop_csv_t *csv = NULL;
    ok(lop_csv_read(fixture_path("d/a.csv"), &csv) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "an interrupted run left"),
       "a listed file is refused: %s", lop_errmsg());
    lop_outdir_t out;
    ok(lop_outdir_begin(&out, fixture_path("d")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n3") == LOP_OK && lop_outdir_end(&out, LOP_OK) == LOP_OK,
       "a run rewrites a.csv only");
    ok(lop_csv_read(fixture_path("d/a.csv"), &csv) == LOP_OK, "a.csv reads again");
    lop_csv_free(csv);
    csv = NULL;
    ok(lop_csv_read(fixture_path("d/b.csv"), &csv) == LOP_ERR_PARSE,
       "b.csv is still marked: it may be from the interrupted run");
    ok(lop_outdir_begin(&out, fixture_path("d")) == LOP_OK &&
           stage_file(&out, "b.csv", "b\n3") == LOP_OK && lop_outdir_end(&out, LOP_OK) == LOP_OK &&
           !exists("d/" LOP_OUTDIR_MARKER),
       "once b.csv is rewritten the marker goes");
    fixture_file_write("d/" LOP_OUTDIR_MARKER, "# lop: x\r\nname\r\nb.csv\r\n");
    ok(lop_csv_read(fixture_path("d/b.csv"), &csv) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), LOP_OUTDIR_MARKER ":2: no column 'file'"),
       "a marker without its header is an error, not an empty list: %s", lop_errmsg());
    fixture_file_write("d/" LOP_OUTDIR_MARKER, "# lop: x\r\n file \r\n\r\n b.csv \r\n");
    ok(lop_csv_read(fixture_path("d/b.csv"), &csv) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "an interrupted run left"),
       "a marker's lines are trimmed as CSV cells are");
    unlink(fixture_path("d/" LOP_OUTDIR_MARKER));
}

/* SIGINT in the middle of a run: the handler removes the stage and the
 * writer's temporary file, then the process dies of the signal. */
static void test_signal(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        lop_outdir_t out;
        lop_csv_writer_t w;
        char path[512];
        if (lop_outdir_begin(&out, fixture_path("d")) != LOP_OK)
            _exit(3);
        stage_file(&out, "c.csv", "c\n1");
        snprintf(path, sizeof path, "%s/half.csv", out.stage);
        if (lop_csv_writer_open(&w, path) != LOP_OK)
            _exit(4);
        lop_csv_line(&w, "half");
        raise(SIGINT);
        _exit(5);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "the run dies of SIGINT");
    ok(!stage_left() && !exists("d/c.csv"), "... leaving no stage and no new file");
}

/* The staging directories in the fixture directory d. */
static int stages(void)
{
    DIR *d = opendir(fixture_path("d"));
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, ".lop-stage.", 11) == 0;
    if (d)
        closedir(d);
    return n;
}

/* A run that stages a file, tells 'ready' and waits for a signal, or dies
 * of SIGKILL (ready < 0): a child, returns its pid. */
static pid_t staging_child(int ready)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    lop_outdir_t out;
    if (lop_outdir_begin(&out, fixture_path("d")) != LOP_OK || stage_file(&out, "c.csv", "c\n1"))
        _exit(3);
    if (ready < 0)
        raise(SIGKILL);
    if (write(ready, "x", 1) != 1)
        _exit(4);
    for (;;)
        pause();
}

/* SIGKILL leaves the stage (as mpirun's SIGKILL does when it overtakes the
 * SIGTERM handler); the next run into DIR removes it, and not the stage of
 * a run still alive. */
static void test_stale_stage(void)
{
    int status = 0, fds[2];
    char c = 0;
    pid_t live = pipe(fds) == 0 ? staging_child(fds[1]) : -1;
    ok(live > 0 && read(fds[0], &c, 1) == 1 && stages() == 1, "a live run stages a file");
    waitpid(staging_child(-1), &status, 0);
    ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && stages() == 2,
       "a run beside it killed by SIGKILL leaves its stage");
    lop_outdir_t out;
    ok(lop_outdir_begin(&out, fixture_path("d")) == LOP_OK &&
           stage_file(&out, "e.csv", "e\n1") == LOP_OK && lop_outdir_end(&out, LOP_OK) == LOP_OK &&
           exists("d/e.csv"),
       "the next run into DIR commits");
    ok(stages() == 1, "... it removed the dead run's stage and left the live one's (%d left)",
       stages());
    kill(live, SIGTERM);
    waitpid(live, &status, 0);
    ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM && stages() == 0 && !exists("d/c.csv"),
       "SIGTERM: the live run removes its own");
    close(fds[0]);
    close(fds[1]);
}

/* A DIR the run made is gone again when the run fails or is interrupted
 * (it did not exist before), kept when the run commits into it, and a
 * directory that existed is never removed. */
static void test_made_dirs(void)
{
    lop_outdir_t out;
    ok(lop_outdir_begin(&out, fixture_path("new/deeper")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n1") == LOP_OK &&
           lop_outdir_end(&out, lop_err(LOP_ERR_IO, "disk full")) == LOP_ERR_IO,
       "a failed run into a new DIR/deeper");
    ok(!exists("new"), "... leaves neither directory it made");
    ok(lop_outdir_begin(&out, fixture_path("d/sub")) == LOP_OK &&
           lop_outdir_end(&out, LOP_ERR_RANGE) == LOP_ERR_RANGE && !exists("d/sub") &&
           exists("d/a.csv"),
       "a failed run into a new d/sub removes sub, keeps d and its files");
    ok(lop_outdir_begin(&out, fixture_path("new/kept")) == LOP_OK &&
           stage_file(&out, "a.csv", "a\n1") == LOP_OK && lop_outdir_end(&out, LOP_OK) == LOP_OK &&
           exists("new/kept/a.csv"),
       "a committed run keeps what it made");
    lop_cleanup_now();
    ok(exists("new/kept/a.csv"), "... and a later cleanup leaves it alone");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (lop_outdir_begin(&out, fixture_path("sig/a/b")) != LOP_OK)
            _exit(3);
        stage_file(&out, "c.csv", "c\n1");
        raise(SIGTERM);
        _exit(5);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM && !exists("sig"),
       "SIGTERM mid-run removes the directories the run made");
    pid = fork();
    if (pid == 0)
        exit(lop_outdir_begin(&out, fixture_path("exit/a")) == LOP_OK ? 0 : 3);
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && !exists("exit"),
       "an exit before the end removes them too");
}

static void test_fit_check(void)
{
    lop_fit_t fit = {.series = "send-normal", .quantity = "rtt", .stat = "min",
                     .model = &lop_model_rtt, .pmin = 1, .pmax = 8,
                     .lambda = {1, 2, 3, 4, -0.1, 1}};
    ok(lop_fit_check(&fit, "f:1") == LOP_OK, "a fit lopredict can read: %s", lop_errmsg());
    fit.lambda[0] = INFINITY;
    ok(lop_fit_check(&fit, "f:1") == LOP_ERR_RANGE &&
           strcmp(lop_errmsg(), "f:1: series 'send-normal' rtt min: l1 = inf is not finite") == 0,
       "l1 = inf is refused (it would be written as an empty cell): %s", lop_errmsg());
    fit.lambda[0] = 1e-308;
    ok(lop_fit_check(&fit, "f:1") == LOP_OK, "a subnormal l1 is fine");
    fit.pmax = LOP_MODEL_MAX_P + 1;
    ok(lop_fit_check(&fit, "f:1") == LOP_ERR_RANGE, "pmax beyond %d is refused: %s",
       LOP_MODEL_MAX_P, lop_errmsg());
    fit.pmax = 8;
    fit.model = &lop_model_ov;
    ok(lop_fit_check(&fit, "f:1") == LOP_ERR_PARSE, "rtt with model ov is refused: %s",
       lop_errmsg());
    fit.model = &lop_model_linear;
    ok(lop_fit_check(&fit, "f:1") == LOP_OK, "rtt with the linear LogP line is fine");
    snprintf(fit.series, sizeof fit.series, "../x");
    ok(lop_fit_check(&fit, "f:1") == LOP_ERR_PARSE, "series '../x' is refused: %s", lop_errmsg());
}

/* A target that exists and is not a regular file is never replaced: not by
 * a writer (at its open, or at its commit when it changed since), not by a
 * run's moves, which check every target before the first. */
static void test_not_regular(void)
{
    lop_csv_writer_t w;
    char link_target[512];
    snprintf(link_target, sizeof link_target, "%s", fixture_path("t/target.csv"));
    mkdir(fixture_path("t"), 0755);
    fixture_file_write("t/target.csv", "x\n1\n");
    ok(mkfifo(fixture_path("t/fifo.csv"), 0644) == 0 &&
           symlink(link_target, fixture_path("t/link.csv")) == 0 &&
           mkdir(fixture_path("t/dir.csv"), 0755) == 0,
       "a FIFO, a symbolic link and a directory");
    const char *kind[] = {"fifo.csv", "a FIFO", "link.csv", "a symbolic link", "dir.csv",
                          "a directory"};
    for (int i = 0; i < 6; i += 2) {
        char path[64];
        snprintf(path, sizeof path, "t/%s", kind[i]);
        ok(lop_csv_writer_open(&w, fixture_path(path)) == LOP_ERR_INVALID &&
               strstr(lop_errmsg(), kind[i + 1]) && strstr(lop_errmsg(), "exists and is"),
           "a writer refuses %s: %s", kind[i + 1], lop_errmsg());
    }
    if (mknod(fixture_path("t/null.csv"), S_IFCHR | 0666, makedev(1, 3)) == 0)
        ok(lop_csv_writer_open(&w, fixture_path("t/null.csv")) == LOP_ERR_INVALID &&
               strstr(lop_errmsg(), "a character device"),
           "a writer refuses a character device (as /dev/full once was replaced)");
    else
        ok(1, "# SKIP mknod needs root: a character device");
    struct stat sb;
    ok(lstat(fixture_path("t/fifo.csv"), &sb) == 0 && S_ISFIFO(sb.st_mode) &&
           lstat(fixture_path("t/link.csv"), &sb) == 0 && S_ISLNK(sb.st_mode),
       "... and leaves them as they are");
    ok(lop_csv_writer_open(&w, fixture_path("t/late.csv")) == LOP_OK, "a writer opens");
    lop_csv_line(&w, "y");
    ok(mkfifo(fixture_path("t/late.csv"), 0644) == 0 &&
           lop_csv_writer_commit(&w) == LOP_ERR_INVALID &&
           lstat(fixture_path("t/late.csv"), &sb) == 0 && S_ISFIFO(sb.st_mode),
       "a target that became a FIFO after the open is refused at the commit");

    lop_outdir_t out;
    ok(lop_outdir_begin(&out, fixture_path("t")) == LOP_OK &&
           stage_file(&out, "a-new.csv", "a\n1") == LOP_OK &&
           stage_file(&out, "fifo.csv", "b\n1") == LOP_OK,
       "a run stages a new file and one whose target is a FIFO");
    ok(lop_outdir_end(&out, LOP_OK) == LOP_ERR_INVALID && !exists("t/a-new.csv") &&
           !exists("t/" LOP_OUTDIR_MARKER) && lstat(fixture_path("t/fifo.csv"), &sb) == 0 &&
           S_ISFIFO(sb.st_mode),
       "the run is refused before its first move: no file, no marker, the FIFO kept");
}

/* The check of -o DIR before a run's work (lopbench, lopfit). */
static void test_prepare(void)
{
    char nested[128], file[128], below[160];
    snprintf(nested, sizeof nested, "%s/a/b//c/", fixture_dir);
    ok(lop_outdir_prepare(nested) == LOP_OK, "a/b//c/ can be made: %s", lop_errmsg());
    ok(!exists("a"), "... and is not made yet (a run stopped before its files, even by "
       "SIGKILL, leaves no directory)");
    ok(lop_mkdir_p(nested) == 0 && lop_outdir_prepare(nested) == LOP_OK,
       "an existing directory is fine");
    snprintf(file, sizeof file, "%s/file", fixture_dir);
    fclose(fopen(file, "w"));
    snprintf(below, sizeof below, "%s/sub", file);
    ok(lop_outdir_prepare(below) == LOP_ERR_IO &&
           strstr(lop_errmsg(), "option --output: cannot create directory") &&
           strstr(lop_errmsg(), "Not a directory"),
       "below a file: cannot be made (exit 3): %s", lop_errmsg());
    ok(lop_outdir_prepare(file) == LOP_ERR_INVALID && strstr(lop_errmsg(), "option --output: ") &&
           strstr(lop_errmsg(), "/file is not a directory"),
       "a file as directory: refused (exit 2): %s", lop_errmsg());
    ok(lop_outdir_prepare("") == LOP_ERR_INVALID &&
           strcmp(lop_errmsg(), "option --output: empty directory name") == 0,
       "an empty name: %s", lop_errmsg());
}

int main(void)
{
    /* A background job of a non-interactive shell inherits SIGINT ignored,
     * and lop leaves an ignored signal alone (as nohup means it), deciding
     * so once, at its first output: test_signal's run is one that SIGINT
     * can stop, wherever the suite is started from. */
    signal(SIGINT, SIG_DFL);
    if (fixture_dir_make("outdir") != 0)
        return 1;
    test_names();
    test_commit_and_abort();
    test_marker();
    test_retire();
    test_not_regular();
    test_signal();
    test_stale_stage();
    test_made_dirs();
    test_fit_check();
    test_prepare();
    fixture_dir_remove();
    return tap_done();
}
