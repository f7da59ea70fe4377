/* link.c — everything the driver does outside the compiler proper:
 * temporary files, finding the runtime, linking, running the program.
 *
 * Linking runs the C compiler configure found (MOSAIC_LINK_CC, or the
 * MOSAIC_CC environment variable) as
 *
 *   CC -o OUT OBJECT RUNTIME/libmosaicrt.a [MOSAIC_LINK_FLAGS] MOSAIC_RT_LIBS
 *
 * (--distributed: libmosaicrt-mpi.a, then Open MPI's libraries as
 * configure found them, MOSAIC_MPI_LIBS, before MOSAIC_RT_LIBS; a mosaicc
 * configured without Open MPI refuses --distributed, driver_can_distribute)
 *
 * and, without -g, with -Wl,-S: the runtime library carries its own debug
 * information (most of a small program's file), which only a -g build of
 * the program has a use for.
 *
 * with posix_spawn, never through a shell, so no file name is ever parsed
 * or quoted.  The runtime is found without any environment variable:
 * MOSAIC_RUNTIME_DIR if set, else stdlib/libmosaicrt.a beside the running
 * executable (the in-tree ./mosaicc of a build tree), else the installed
 * MOSAIC_LIBDIR.  The gdb pretty-printers a -g executable names
 * (stdlib/mosaic-gdb.py) are found the same way, without the variable.
 *
 * --run ignores SIGINT and SIGQUIT while the program runs (as system()
 * does), so that ^C stops the program and mosaicc still cleans up and
 * reports 128 + SIGINT.  The temporary directory is removed by an atexit
 * handler, and by handlers of the signals that end a process (SIGINT,
 * SIGTERM from `timeout`, SIGPIPE from `mosaicc -S -o - x.mos | head`), so
 * every way out cleans up.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1    /* POSIX and Linux calls under -std=c11 */
#endif
#include "driver.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/arena.h"

extern char **environ;

#ifndef MOSAIC_LINK_CC
#define MOSAIC_LINK_CC "cc"
#endif
#ifndef MOSAIC_RT_LIBS
#define MOSAIC_RT_LIBS "-lgc -lpthread -lm"
#endif
#ifndef MOSAIC_LINK_FLAGS
#define MOSAIC_LINK_FLAGS ""
#endif
#include "driver/paths.h"     /* MOSAIC_LIBDIR, MOSAIC_GDBDIR, generated (driver/local.mk) */
#ifndef MOSAIC_LIBDIR
#define MOSAIC_LIBDIR "/usr/local/lib"
#endif

#ifndef MOSAIC_GDBDIR
#define MOSAIC_GDBDIR "/usr/local/share/mosaic/gdb"
#endif

#define RUNTIME_NAME "libmosaicrt.a"
#define MPI_RUNTIME_NAME "libmosaicrt-mpi.a"     /* --distributed */
#define GDB_SCRIPT_NAME "mosaic-gdb.py"

/* ---- the temporary directory --------------------------------------------- */

/* Static storage, not the arena: cleanup runs after main has freed the
 * arena, or in a signal handler.  The driver makes at most a few files
 * (an object, an executable, an output for `-o -`). */
#define MAX_TEMP_FILES 8
static char temp_dir[PATH_MAX];
static char temp_files[MAX_TEMP_FILES][PATH_MAX];
static volatile sig_atomic_t ntemp_files;

/* Only unlink and rmdir: async-signal-safe, so signal handlers call it. */
static void remove_temp_dir(void)
{
    if (!temp_dir[0]) return;
    for (int i = 0; i < ntemp_files; i++) unlink(temp_files[i]);
    rmdir(temp_dir);
}

static void on_exit_signal(int sig)
{
    remove_temp_dir();
    signal(sig, SIG_DFL);
    raise(sig);
}

const char *driver_temp_path(const char *name)
{
    if (!temp_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp) tmp = "/tmp";
        int n = snprintf(temp_dir, sizeof temp_dir, "%s/mosaicc-XXXXXX", tmp);
        if (n < 0 || (size_t)n >= sizeof temp_dir || !mkdtemp(temp_dir)) {
            fprintf(stderr, "mosaicc: error: cannot create a temporary directory in '%s': %s\n",
                    tmp, strerror(errno));
            temp_dir[0] = '\0';
            return NULL;
        }
        atexit(remove_temp_dir);
        /* Interrupted, killed by `timeout`, or writing to a closed pipe:
         * remove the files, then die of the signal as before. */
        int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa = {0}, old;
            sa.sa_handler = on_exit_signal;
            sigemptyset(&sa.sa_mask);
            /* Leave alone a signal the caller asked us to ignore. */
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
            sigaction(sigs[i], &sa, NULL);
        }
    }
    if (ntemp_files == MAX_TEMP_FILES) {
        fprintf(stderr, "mosaicc: internal error: too many temporary files\n");
        return NULL;
    }
    int n = snprintf(temp_files[ntemp_files], PATH_MAX, "%s/%s", temp_dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "mosaicc: error: temporary file name too long\n");
        return NULL;
    }
    return arena_strdup(temp_files[ntemp_files++]);
}

/* ---- running programs ------------------------------------------------------ */

/* Spawns argv (PATH searched when `search`), waits, and returns the raw
 * wait status, or -1 after printing why it could not start. */
static int spawn_wait(char **argv, bool search, bool ignore_interrupts)
{
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    struct sigaction ign = {0}, old_int, old_quit;
    if (ignore_interrupts) {
        /* The child gets default handling back; only we ignore them. */
        sigset_t def;
        sigemptyset(&def);
        sigaddset(&def, SIGINT);
        sigaddset(&def, SIGQUIT);
        posix_spawnattr_setsigdefault(&attr, &def);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGINT, &ign, &old_int);
        sigaction(SIGQUIT, &ign, &old_quit);
    }
    fflush(NULL);   /* our buffered output first, in order */
    pid_t pid;
    int err = search ? posix_spawnp(&pid, argv[0], NULL, &attr, argv, environ)
                     : posix_spawn(&pid, argv[0], NULL, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    int status = -1;
    if (err != 0) {
        fprintf(stderr, "mosaicc: error: cannot run '%s': %s\n", argv[0], strerror(err));
    } else {
        while (waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                fprintf(stderr, "mosaicc: error: waiting for '%s': %s\n", argv[0], strerror(errno));
                status = -1;
                break;
            }
        }
    }
    if (ignore_interrupts) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
    }
    return status;
}

/* An exit status for a wait status: the code, or 128 + the signal. */
static int exit_status_of(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return EXIT_ERRORS;
}

int driver_run(const char *exe, char **args, int nargs)
{
    char **argv = arena_alloc((size_t)(nargs + 2) * sizeof *argv);
    argv[0] = (char *)exe;
    for (int i = 0; i < nargs; i++) argv[i + 1] = args[i];
    int status = spawn_wait(argv, false, true);
    if (status == -1) return EXIT_USAGE;
    return exit_status_of(status);
}

/* ---- linking ----------------------------------------------------------- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The path of stdlib/NAME beside the running executable (the in-tree
 * ./mosaicc of a build tree), whether it exists or not; NULL if unknown. */
static const char *beside_self(const char *name)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return NULL;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return NULL;
    *slash = '\0';
    return arena_printf("%s/stdlib/%s", self, name);
}

/* Where the runtime library `name` is, or NULL after saying where it was
 * looked for. */
static const char *find_runtime(const char *name)
{
    const char *env = getenv("MOSAIC_RUNTIME_DIR");
    if (env && *env) {
        const char *p = arena_printf("%s/%s", env, name);
        if (is_file(p)) return p;
        fprintf(stderr, "mosaicc: error: MOSAIC_RUNTIME_DIR is set but '%s' does not exist\n", p);
        return NULL;
    }
    /* In a build tree: stdlib/NAME beside ./mosaicc. */
    const char *in_tree = beside_self(name);
    if (in_tree && is_file(in_tree)) return in_tree;
    const char *installed = arena_printf("%s/%s", MOSAIC_LIBDIR, name);
    if (is_file(installed)) return installed;
    fprintf(stderr, "mosaicc: error: cannot find the runtime library %s (looked for '%s'%s%s%s)\n",
            name, installed, in_tree ? " and '" : "", in_tree ? in_tree : "",
            in_tree ? "'" : "");
    return NULL;
}

const char *driver_gdb_script(void)
{
    const char *in_tree = beside_self(GDB_SCRIPT_NAME);
    if (in_tree && is_file(in_tree)) return in_tree;
    const char *installed = MOSAIC_GDBDIR "/" GDB_SCRIPT_NAME;
    return is_file(installed) ? installed : NULL;
}

/* Appends the whitespace-separated words of `s` to argv. */
static void push_words(char **argv, int *argc, const char *s)
{
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        argv[(*argc)++] = arena_strndup(start, (size_t)(p - start));
    }
}

static int count_words(const char *s)
{
    int n = 0;
    for (const char *p = s; *p;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        n++;
        while (*p && *p != ' ' && *p != '\t') p++;
    }
    return n;
}

#ifdef MOSAIC_MPI_LIBS
bool driver_can_distribute(void)
{
    return true;
}
#else
bool driver_can_distribute(void)
{
    fprintf(stderr, "mosaicc: error: --distributed needs Open MPI, and this mosaicc was built "
                    "without it\n"
                    "mosaicc: note: on Debian: apt-get install libopenmpi-dev openmpi-bin, then "
                    "./configure and make again\n");
    return false;
}
#define MOSAIC_MPI_LIBS ""
#endif

int driver_link(const char *object, const char *output, bool debug_info, bool distributed)
{
    const char *runtime = find_runtime(distributed ? MPI_RUNTIME_NAME : RUNTIME_NAME);
    const char *mpi_libs = distributed ? MOSAIC_MPI_LIBS : "";
    if (!runtime) return EXIT_USAGE;
    const char *cc = getenv("MOSAIC_CC");
    if (!cc || !*cc) cc = MOSAIC_LINK_CC;

    int cap = count_words(cc) + count_words(MOSAIC_LINK_FLAGS) +
              count_words(MOSAIC_RT_LIBS) + count_words(mpi_libs) + 8;
    char **argv = arena_alloc((size_t)cap * sizeof *argv);
    int argc = 0;
    push_words(argv, &argc, cc);
    if (argc == 0) {
        fprintf(stderr, "mosaicc: error: MOSAIC_CC is empty\n");
        return EXIT_USAGE;
    }
    argv[argc++] = "-o";
    argv[argc++] = (char *)output;
    argv[argc++] = (char *)object;
    argv[argc++] = (char *)runtime;
    push_words(argv, &argc, MOSAIC_LINK_FLAGS);
    push_words(argv, &argc, mpi_libs);
    push_words(argv, &argc, MOSAIC_RT_LIBS);
    if (!debug_info)
        argv[argc++] = "-Wl,-S";
    argv[argc] = NULL;

    int status = spawn_wait(argv, true, false);
    if (status == -1) return EXIT_USAGE;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "mosaicc: error: linking '%s' failed\n", output);
        return EXIT_ERRORS;
    }
    return EXIT_OK;
}

int driver_copy_to_stdout(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "mosaicc: error: cannot read '%s': %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        if (fwrite(buf, 1, n, stdout) != n) break;
    }
    bool failed = ferror(in) || fflush(stdout) != 0 || ferror(stdout);
    fclose(in);
    if (failed) {
        fprintf(stderr, "mosaicc: error: cannot write to standard output\n");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}
