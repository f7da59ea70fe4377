/* tune.c — mosaicc --tune-layouts: layouts chosen by measuring them.
 *
 * `mosaicc --tune-layouts [--runs K] [--tune-out FILE] prog.mos [ARGS...]`
 * takes, for each pool that a loop visits, the layouts worth trying — the
 * one in force, `aos`, `soa`, the layouts declared for its class and the
 * hot/cold split of the fields its loops touch (typecheck/advisor.c,
 * tc_tune_candidates) — builds the program once per candidate (this very
 * compiler, run again with one more `--layout POOL=SPEC`), runs each build
 * K times (default 3) with the given arguments and standard input, and
 * prints a table per pool: the median time and the range, the bytes per
 * object the advisor's cost model predicts, and the rank each gives.  The
 * winners can be written as a layout file (driver/layout_file.c reads it
 * back with --layout-file).
 *
 * The search stays small because pools are tuned one at a time, the
 * others keeping the layout in force: n pools with c candidates each cost
 * n*c builds, not c^n.  That is exact when no code touches two pools
 * (each loop's memory traffic depends on its own pool's layout only),
 * and an approximation otherwise; so when more than one pool changes,
 * the winners are built and measured together once more, and the table
 * says how that compares with the layouts in force.
 *
 * Every build must print what the layouts in force print, with the same
 * exit status: layouts never change a program's meaning (LANGUAGE.md §6),
 * so a difference is a compiler bug — or a program whose output is not
 * deterministic — and is reported loudly, with status 1 at the end.  A
 * candidate that fails to build, fails or times out is reported and left
 * out; the others go on.  Progress goes to standard error.  All files live
 * in one temporary directory, removed at the end and on SIGINT/SIGTERM
 * (the running build or program is killed first).
 *
 * Times are wall-clock, from fork to exit, of whole runs: what a user
 * would measure with `time`, start-up included.  The median of K is what
 * ranks candidates; with K = 1 it is a single run, so noisy.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "support/arena.h"
#include "typecheck/layouts.h"

/* ---- the scratch directory, and cleaning it up on any exit --------------------- */

/* Paths are kept in fixed buffers so that the signal handler can remove
 * them without allocating: the directory, its inputs and outputs, and one
 * executable per candidate (at most this many: a class's fields give a
 * handful of candidates, and programs few pools). */
#define MAX_TUNE_FILES 256
#define TUNE_PATH 512

static char scratch[TUNE_PATH];
static char made[MAX_TUNE_FILES][TUNE_PATH];
static int nmade;
static volatile pid_t running;      /* the child being waited for, or 0 */

static void remove_scratch(void)
{
    for (int i = nmade - 1; i >= 0; i--)
        unlink(made[i]);
    if (scratch[0])
        rmdir(scratch);
    nmade = 0;
    scratch[0] = '\0';
}

static void on_signal(int sig)
{
    if (running > 0)
        kill(running, SIGKILL);
    remove_scratch();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A path in the scratch directory, remembered for removal. */
static const char *scratch_file(const char *name)
{
    if (nmade == MAX_TUNE_FILES)
        return NULL;
    int n = snprintf(made[nmade], TUNE_PATH, "%s/%s", scratch, name);
    if (n < 0 || n >= TUNE_PATH)
        return NULL;        /* TMPDIR too long: refused by prepare() first */
    return made[nmade++];
}

/* ---- running a child ---------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct Outcome {
    int status;         /* exit status, 128 + signal, or -1: timed out */
    double seconds;
} Outcome;

/* Runs argv with the given files as its standard streams (NULL: the
 * tuner's own), killing it after `limit` seconds. */
static Outcome run_child(char *const argv[], const char *in, const char *out, const char *err,
                         double limit)
{
    Outcome o = {-1, 0};
    fflush(NULL);
    double start = now();
    pid_t pid = fork();
    if (pid < 0) {
        o.status = 127;
        return o;
    }
    if (pid == 0) {
        const char *files[3] = {in, out, err};
        int flags[3] = {O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC, O_WRONLY | O_CREAT | O_TRUNC};
        for (int fd = 0; fd < 3; fd++) {
            if (!files[fd])
                continue;
            int f = open(files[fd], flags[fd], 0644);
            if (f < 0 || dup2(f, fd) < 0)
                _exit(127);
            close(f);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    running = pid;
    int status = 0;
    /* a poll every millisecond: exact enough for runs of a tenth of a
     * second and more, and no SIGCHLD juggling */
    struct timespec tick = {0, 1000000};
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            break;
        if (now() - start > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            running = 0;
            o.seconds = now() - start;
            return o;
        }
        nanosleep(&tick, NULL);
    }
    running = 0;
    o.seconds = now() - start;
    o.status = WIFEXITED(status) ? WEXITSTATUS(status)
             : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
    return o;
}

static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* The first lines of a file, indented, to stderr (a failed build's errors). */
static void show_file(const char *path, int max_lines)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    for (int n = 0; n < max_lines && fgets(line, sizeof line, f); n++)
        fprintf(stderr, "    %s%s", line, strchr(line, '\n') ? "" : "\n");
    fclose(f);
}

/* ---- the tuner ------------------------------------------------------------------- */

typedef struct Tuner {
    const DriverOptions *o;
    char self[PATH_MAX];
    const char *stdin_file;
    const char *reference_out;  /* what the layouts in force print */
    int reference_status;
    double started;
    int step, steps;            /* builds done and to do, for the progress line */
    bool broken;                /* a mismatch or a failure: exit status 1 */
} Tuner;

typedef struct Measured {
    bool ok;
    double median, min, max;
} Measured;

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One line per candidate, as it starts: which, of how many, how long so far. */
static void progress(Tuner *t, const char *what)
{
    fprintf(stderr, "tune: variant %d of %d: %s (a build, then %d run%s); %.1f s elapsed\n",
            t->step, t->steps, what, t->o->tune_runs, t->o->tune_runs == 1 ? "" : "s",
            now() - t->started);
}

/* Builds the program with `extra` overrides (NAME=SPEC each, after the
 * user's own) and runs it K times; `what` names it in messages. */
static Measured measure(Tuner *t, const char *what, const char *const *extra, size_t nextra)
{
    Measured m = {false, 0, 0, 0};
    const DriverOptions *o = t->o;
    char name[32];
    snprintf(name, sizeof name, "variant%d", t->step);
    const char *exe = scratch_file(name);
    snprintf(name, sizeof name, "build%d.err", t->step);
    const char *build_err = scratch_file(name);
    if (!exe || !build_err)
        return m;

    /* mosaicc -On [--no-checks] <the user's layouts> <extra> -o EXE prog.mos */
    size_t cap = 8 + 2 * (o->nlayouts + nextra);
    char **argv = arena_alloc((cap + 1) * sizeof *argv);
    size_t n = 0;
    argv[n++] = t->self;
    argv[n++] = arena_printf("-O%d", o->opt_level);
    if (o->no_checks)
        argv[n++] = "--no-checks";
    for (size_t i = 0; i < o->nlayouts; i++) {
        argv[n++] = o->layouts[i].is_file ? "--layout-file" : "--layout";
        argv[n++] = (char *)o->layouts[i].value;
    }
    for (size_t i = 0; i < nextra; i++) {
        argv[n++] = "--layout";
        argv[n++] = (char *)extra[i];
    }
    argv[n++] = "-o";
    argv[n++] = (char *)exe;
    argv[n++] = (char *)o->input;
    argv[n] = NULL;
    progress(t, what);
    Outcome b = run_child(argv, "/dev/null", "/dev/null", build_err, 600);
    if (b.status != 0) {
        fprintf(stderr, "mosaicc: error: %s: the build failed (status %d):\n", what, b.status);
        show_file(build_err, 10);
        t->broken = true;
        return m;
    }

    char **run = arena_alloc(((size_t)o->nrun_args + 2) * sizeof *run);
    run[0] = (char *)exe;
    for (int i = 0; i < o->nrun_args; i++)
        run[i + 1] = o->run_args[i];
    run[o->nrun_args + 1] = NULL;
    double times[o->tune_runs + 1];
    for (int k = 0; k < o->tune_runs; k++) {
        snprintf(name, sizeof name, "out%d.%d", t->step, k);
        const char *out = scratch_file(name);
        snprintf(name, sizeof name, "err%d.%d", t->step, k);
        const char *err = scratch_file(name);
        if (!out || !err)
            return m;
        Outcome r = run_child(run, t->stdin_file, out, err, o->tune_timeout);
        if (r.status < 0) {
            fprintf(stderr, "mosaicc: error: %s: the program ran for more than %g s and was "
                    "stopped (--tune-timeout S sets the limit)\n", what, o->tune_timeout);
            t->broken = true;
            return m;
        }
        if (!t->reference_out) {
            t->reference_out = out;
            t->reference_status = r.status;
        } else if (t->step == 1 && (r.status != t->reference_status ||
                                    !same_file(out, t->reference_out))) {
            fprintf(stderr, "mosaicc: error: the program did not print the same on two runs "
                    "with the layouts in force: its output is not deterministic, so the "
                    "layouts cannot be checked against each other\n");
            t->broken = true;
            return m;
        } else if (r.status != t->reference_status || !same_file(out, t->reference_out)) {
            fprintf(stderr, "mosaicc: error: %s: the program %s than with the layouts in "
                    "force; layouts never change what a program does, so this is a bug "
                    "of the compiler (or the program's output is not deterministic)\n",
                    what, r.status != t->reference_status
                              ? arena_printf("ended with status %d, not %d,", r.status,
                                             t->reference_status)
                              : "printed other output");
            t->broken = true;
            return m;
        }
        times[k] = r.seconds;
    }
    qsort(times, (size_t)o->tune_runs, sizeof *times, by_double);
    int k = o->tune_runs;
    m.ok = true;
    m.min = times[0];
    m.max = times[k - 1];
    m.median = k % 2 ? times[k / 2] : (times[k / 2 - 1] + times[k / 2]) / 2;
    return m;
}

/* Rank of value i among vals (1 = smallest; equal values share a rank),
 * among the entries that `use` allows. */
static int rank_of(const double *vals, const bool *use, size_t n, size_t i)
{
    int r = 1;
    for (size_t j = 0; j < n; j++)
        if (use[j] && vals[j] < vals[i])
            r++;
    return r;
}

static const char *candidate_label(const TcTuneCandidate *c)
{
    return strcmp(c->what, "aos") == 0 || strcmp(c->what, "soa") == 0
               ? c->spec : arena_printf("%s (%s)", c->spec, c->what);
}

static bool prepare(Tuner *t)
{
    ssize_t n = readlink("/proc/self/exe", t->self, sizeof t->self - 1);
    if (n <= 0) {
        fprintf(stderr, "mosaicc: error: --tune-layouts: cannot find this compiler's own "
                "executable (/proc/self/exe): %s\n", strerror(errno));
        return false;
    }
    t->self[n] = '\0';
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    /* room for the directory's files' names (at most 31 bytes) after it */
    int len = snprintf(scratch, sizeof scratch, "%s/mosaic-tune.XXXXXX", tmp);
    if (len < 0 || len >= TUNE_PATH - 32) {
        fprintf(stderr, "mosaicc: error: --tune-layouts: TMPDIR is too long\n");
        scratch[0] = '\0';
        return false;
    }
    if (!mkdtemp(scratch)) {
        fprintf(stderr, "mosaicc: error: --tune-layouts: cannot make a directory in %s: %s\n",
                tmp, strerror(errno));
        scratch[0] = '\0';
        return false;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* standard input, once, for every run */
    t->stdin_file = scratch_file("stdin");
    FILE *f = fopen(t->stdin_file, "wb");
    if (!f)
        return false;
    if (!isatty(0)) {
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
            fwrite(buf, 1, got, f);
    }
    fclose(f);
    return true;
}

static void write_winners(Tuner *t, const char *path, const TcTunePools *pools,
                          const size_t *winner)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", path, strerror(errno));
        t->broken = true;
        return;
    }
    fprintf(f, "# layouts measured fastest by mosaicc --tune-layouts %s (%d run%s each)\n",
            t->o->input, t->o->tune_runs, t->o->tune_runs == 1 ? "" : "s");
    fprintf(f, "# read back with: mosaicc --layout-file %s ...\n", path);
    for (size_t i = 0; i < pools->len; i++) {
        const TcTunePool *tp = &pools->items[i];
        if (winner[i] != SIZE_MAX)
            fprintf(f, "%s = %s\n", tp->pool->decl->name.text, tp->cands.items[winner[i]].spec);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", path, strerror(errno));
        t->broken = true;
    }
}

int driver_tune_layouts(const DriverOptions *o, const Program *program)
{
    TcTunePools pools = {0};
    tc_tune_candidates(program, &pools);
    if (pools.len == 0) {
        printf("no loop visits a pool in %s: nothing to tune\n", o->input);
        return 0;
    }
    Tuner t = {.o = o, .started = now()};
    if (!prepare(&t)) {
        remove_scratch();
        return 2;
    }
    t.steps = 1;
    for (size_t i = 0; i < pools.len; i++)
        t.steps += (int)pools.items[i].cands.len - 1;

    t.step = 1;
    Measured base = measure(&t, "the layouts in force", NULL, 0);
    if (!base.ok) {
        fprintf(stderr, "mosaicc: error: --tune-layouts: the program could not be measured "
                "with the layouts in force, so no layout was tried\n");
        remove_scratch();
        return 1;
    }
    size_t *winner = arena_alloc(pools.len * sizeof *winner);
    size_t changed = 0;
    for (size_t i = 0; i < pools.len; i++) {
        TcTunePool *tp = &pools.items[i];
        size_t n = tp->cands.len;
        Measured *m = arena_alloc(n * sizeof *m);
        m[0] = base;
        for (size_t j = 1; j < n; j++) {
            t.step++;
            const char *flag = arena_printf("%s=%s", tp->pool->decl->name.text,
                                            tc_layout_spec_text(tp->cands.items[j].layout));
            m[j] = measure(&t, arena_printf("%s = %s", tp->pool->decl->name.text,
                                            candidate_label(&tp->cands.items[j])),
                           (const char *const *)&flag, 1);
        }
        double *med = arena_alloc(n * sizeof *med), *bytes = arena_alloc(n * sizeof *bytes);
        bool *ok = arena_alloc(n), *all = arena_alloc(n);
        winner[i] = SIZE_MAX;
        for (size_t j = 0; j < n; j++) {
            med[j] = m[j].median;
            bytes[j] = (double)tp->cands.items[j].bytes;
            ok[j] = m[j].ok;
            all[j] = true;
            if (ok[j] && (winner[i] == SIZE_MAX || med[j] < med[winner[i]]))
                winner[i] = j;
        }
        printf("pool %s: %s, %d loop%s over it; %zu layouts, %d run%s each\n",
               tp->pool->decl->name.text, tp->pool->layout->cls->name.text, tp->nloops,
               tp->nloops == 1 ? "" : "s", n, o->tune_runs, o->tune_runs == 1 ? "" : "s");
        int w = 6;      /* the layout column: as wide as its longest entry */
        for (size_t j = 0; j < n; j++)
            if ((int)strlen(candidate_label(&tp->cands.items[j])) > w)
                w = (int)strlen(candidate_label(&tp->cands.items[j]));
        printf("  %-*s %9s %17s %12s %10s %9s\n", w, "layout", "median s", "min-max s",
               "bytes/obj", "predicted", "measured");
        for (size_t j = 0; j < n; j++) {
            const TcTuneCandidate *c = &tp->cands.items[j];
            if (ok[j])
                printf("  %-*s %9.3f %8.3f-%-8.3f %12llu %10d %9d\n", w, candidate_label(c),
                       m[j].median, m[j].min, m[j].max, (unsigned long long)c->bytes,
                       rank_of(bytes, all, n, j), rank_of(med, ok, n, j));
            else
                printf("  %-*s %9s %17s %12llu %10d %9s\n", w, candidate_label(c), "failed",
                       "-", (unsigned long long)c->bytes, rank_of(bytes, all, n, j), "-");
        }
        if (winner[i] != SIZE_MAX) {
            const TcTuneCandidate *w = &tp->cands.items[winner[i]];
            int predicted = rank_of(bytes, all, n, winner[i]);
            printf("  fastest: %s, %.2fx the time of the layout in force; the advisor ranked "
                   "it %d\n", candidate_label(w), med[winner[i]] / (med[0] > 0 ? med[0] : 1),
                   predicted);
            changed += winner[i] != 0;
        }
    }
    if (changed > 1) {
        /* tuned one at a time: check that the winners hold together */
        const char **flags = arena_alloc(pools.len * sizeof *flags);
        size_t nflags = 0;
        for (size_t i = 0; i < pools.len; i++)
            if (winner[i] != SIZE_MAX && winner[i] != 0)
                flags[nflags++] = arena_printf(
                    "%s=%s", pools.items[i].pool->decl->name.text,
                    tc_layout_spec_text(pools.items[i].cands.items[winner[i]].layout));
        t.step++;
        t.steps++;
        Measured all = measure(&t, "every pool's fastest layout together", flags, nflags);
        if (all.ok)
            printf("together: %.3f s (%.3f-%.3f), against %.3f s with the layouts in force\n",
                   all.median, all.min, all.max, base.median);
    }
    if (o->tune_out)
        write_winners(&t, o->tune_out, &pools, winner);
    fprintf(stderr, "tune: done in %.1f s\n", now() - t.started);
    remove_scratch();
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    return t.broken ? 1 : 0;
}
