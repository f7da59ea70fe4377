/* rank_watch.c — under mpirun, every rank is watched by a small process
 * of its own, so that a rank that dies ends the program with status 101
 * and a message naming it (LANGUAGE.md §10), not with whatever mpirun
 * makes of a signal.
 *
 * mpirun decides its own exit status from the processes it started: a
 * rank killed by a signal (SIGKILL, a crashed machine's rank lost, the
 * out-of-memory killer) makes it exit with 128 plus the signal, 137 for
 * SIGKILL, and no code in the dead rank can run to say otherwise.  So
 * the process mpirun starts is not the rank itself: before anything else
 * (no thread, no collector, no MPI yet) it forks, and the child goes on
 * to be the rank — initialises MPI, runs its node — while the parent,
 * the *watch*, only waits for it:
 *
 *   - the rank exits with a status: the watch exits with the same one
 *     (0 at the end of the program, n after exit(n), 101 after a runtime
 *     error, all of which the rank has already told every other rank);
 *   - the rank dies of a signal that nobody sent through the watch: the
 *     watch writes "runtime error: node K (MPI rank K) died: killed by
 *     signal S (name)" on standard error and exits with 101, which makes
 *     mpirun end every other rank and exit with 101 too;
 *   - mpirun (or a user) signals the watch, to end the job: the watch
 *     passes the signal on to the rank and, once the rank has died of
 *     it, dies of the same signal itself, so mpirun sees what it asked
 *     for.
 *
 * The rank dies with its watch (PR_SET_PDEATHSIG), so that killing the
 * watch cannot leave a rank running that nobody waits for.  The watch is
 * named "mosaic-watch" (its command name, as ps and pgrep show it) and
 * the rank keeps the program's name, so that `pgrep -x prog` finds the
 * ranks themselves.  Started without mpirun, a program runs as one node
 * and nothing is forked.  Nor is it when the process is traced (a rank
 * started under gdb or strace: a debugger that follows the parent of a
 * fork would be left with the watch), or with MOSAIC_WATCH=0 in the
 * environment (for a tool that must be mpirun's child itself); a dead
 * rank then ends the job as mpirun decides.
 */
#include "rt_internal.h"
#include "transport.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t watched;               /* the rank */
static volatile sig_atomic_t asked[65];    /* the signals the watch passed on */

/* A signal for the watch is the rank's.  One that ends the rank also
 * comes with SIGCONT, or a rank stopped by an earlier SIGTSTP would hold
 * it pending, and the watch would wait for ever. */
static void pass_on(int sig)
{
    int saved = errno;
    if (sig > 0 && sig < 65)
        asked[sig] = 1;
    kill(watched, sig);
    if (sig != SIGTSTP && sig != SIGCONT)
        kill(watched, SIGCONT);
    errno = saved;
}

/* The signals that end, stop or continue a job, which mpirun and users
 * send (mpirun forwards SIGTSTP and SIGCONT for job control). */
static const int passed_on[] = {
    SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT,
};
#define NPASSED (sizeof passed_on / sizeof passed_on[0])

/* Waits for the rank to end, then reaps it with the passed signals
 * blocked: while it is a zombie its pid cannot be another process's, so
 * no signal passed on can reach anybody else; and reaped, its resource
 * use counts as the watch's children's (GNU time's peak memory of a
 * rank, say). */
static _Noreturn void watch(const char *rank, const sigset_t *passed, const sigset_t *unblocked)
{
    prctl(PR_SET_NAME, "mosaic-watch", 0, 0, 0);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NPASSED; i++) {
        /* a signal ignored when the program started (nohup) stays ignored */
        if (sigaction(passed_on[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(passed_on[i], &sa, NULL);
    }
    sigprocmask(SIG_SETMASK, unblocked, NULL);
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_PID, (id_t)watched, &info, WEXITED | WNOWAIT) < 0)
        if (errno != EINTR)
            _exit(101);
    sigprocmask(SIG_BLOCK, passed, NULL);
    while (waitpid(watched, NULL, 0) < 0 && errno == EINTR)
        ;
    if (info.si_code == CLD_EXITED)
        _exit(info.si_status);
    int sig = info.si_status;
    if (sig > 0 && sig < 65 && asked[sig]) {
        /* the end mpirun asked for: the watch's own, without a core */
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
        signal(sig, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    fprintf(stderr, "%s: runtime error: node %s (MPI rank %s) died: killed by signal %d (%s)\n",
            RT_NOWHERE, rank, rank, sig, strsignal(sig));
    _exit(101);
}

/* Whether a debugger or tracer (ptrace) is attached to this process. */
static int traced(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[128];
    long tracer = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "TracerPid:", 10) == 0) {
            tracer = strtol(line + 10, NULL, 10);
            break;
        }
    fclose(f);
    return tracer != 0;
}

int rt_tp_started_by_mpirun(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    return size && *size;
}

void rt_tp_watch(void)
{
    const char *off = getenv("MOSAIC_WATCH");
    if (!rt_tp_started_by_mpirun() || (off && strcmp(off, "0") == 0) || traced())
        return;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    pid_t watch_pid = getpid();
    /* The passed signals wait until the watch's handlers are in place (a
     * SIGTSTP in between would stop the watch, not the rank); an ignored
     * SIGCHLD would reap the rank before the watch could learn how it
     * ended. */
    sigset_t passed, before;
    sigemptyset(&passed);
    for (size_t i = 0; i < NPASSED; i++)
        sigaddset(&passed, passed_on[i]);
    sigprocmask(SIG_BLOCK, &passed, &before);
    signal(SIGCHLD, SIG_DFL);
    fflush(NULL);
    watched = fork();
    if (watched > 0)
        watch(rank && *rank ? rank : "?", &passed, &before);
    sigprocmask(SIG_SETMASK, &before, NULL);
    if (watched < 0)
        return;     /* no watch: the rank runs, as mpirun's child */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != watch_pid)     /* the watch died before the line above */
        _exit(101);
}
