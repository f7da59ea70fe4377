/* start.c — main(): from the C runtime to the Mosaic program.
 *
 * A Mosaic executable's main() lives here, in the runtime, and calls the
 * compiled program's mos_program_main(args).  In order:
 *
 *   1. GC_INIT(), on the process's first thread, before any other thread
 *      exists or anything is allocated (the collector registers this
 *      thread and finds the static data to scan).
 *   2. Buffered stdout (print.c) and the fault handlers (stack.c, after
 *      GC_INIT since the collector plays with fault handlers while it
 *      starts).
 *   3. The arguments, without the program's name, as a [string].
 *   4. The program runs on a thread of its own, created through the
 *      collector (threads.c: the collector knows the thread and scans its
 *      stack), because only a new thread's stack size can be chosen: 1 GiB
 *      reserved, so that recursion a million frames deep works (smaller
 *      sizes when the system refuses; MOSAIC_STACK_SIZE chooses another).
 *      That thread is the "main actor" (LANGUAGE.md §4): its sends and
 *      gets use the scheduler's paths, and the scheduler counts it as
 *      running until mos_program_main returns (rt_main_begin/end).  The
 *      workers start with the first actor (sched.c), so a program without
 *      actors runs no other thread.
 *   5. The first thread waits (as a blocked thread, which the collector
 *      does not stop: GC_do_blocking) for the program thread, then for
 *      quiescence — no actor running or scheduled, no message in flight
 *      (sched.c decides; a deadlock is reported there, status 101) —
 *      flushes stdout and exits with the status mos_program_main returned
 *      (the OS keeps its low 8 bits).
 *
 * This file is a leaf: nothing else in the runtime refers to what it
 * defines (see rt_internal.h), so unit tests with their own main() link
 * against libmosaicrt.a without pulling this object in.
 *
 * Not here: actors and worker threads (sched.c), thread creation
 * (threads.c), per-thread stack limits (stack.c).
 */
#include "rt_internal.h"
#include "rt_actors.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gc.h>

/* The program thread's stack: 1 GiB reserved, so that recursion a
 * million frames deep works (threads.c explains the fallbacks and
 * MOSAIC_STACK_SIZE). */
#define PROGRAM_STACK ((size_t)1 << 30)

/* Static, so the collector sees the arguments as a root while the program
 * thread is starting. */
static MosArray *program_args;
static int64_t program_status;

static void *program_thread(void *unused)
{
    (void)unused;
    rt_thread_stack_init();
    rt_main_begin();
    program_status = mos_program_main(program_args);
    rt_main_end();
    return NULL;
}

/* The collector marks with as many threads as the program has workers
 * (cores at most): a program run with MOSAIC_THREADS=1 starts no marker
 * thread.  GC_MARKERS in the environment still decides, as the collector
 * documents it. */
static void mark_with_the_workers(void)
{
    if (getenv("GC_MARKERS"))
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = rt_workers_asked();
    if (workers > 0 && (cores < 1 || workers < cores))
        GC_set_markers_count((unsigned)workers);    /* else the collector's own: the cores */
}

/* The first thread's wait: for the program's thread, then for
 * quiescence.  Run through GC_do_blocking, so nothing here may touch the
 * collector's heap. */
static void *wait_for_program(void *thread)
{
    pthread_join(*(pthread_t *)thread, NULL);
    rt_wait_quiescence();
    return NULL;
}

static MosArray *make_args(int argc, char **argv)
{
    int64_t n = argc > 1 ? argc - 1 : 0;
    MosArray *args = mos_array_new(n, sizeof(MosString *), MOS_ELEM_STRING,
                                   RT_NOWHERE);
    MosString **elems = (MosString **)(void *)args->data;
    for (int64_t i = 0; i < n; i++) {
        const char *a = argv[i + 1];
        elems[i] = rt_string_new(a, (int64_t)strlen(a));
    }
    return args;
}

int main(int argc, char **argv)
{
    /* Nothing points into the heap before it exists: the collection the
     * collector would otherwise run as it starts (a mark of every root,
     * about 0.15 ms, a tenth of a small program's run) finds nothing. */
    GC_set_dont_precollect(1);
    mark_with_the_workers();
    GC_INIT();
    /* The collector's warnings ("repeated allocation of very large
     * block", ...) are about its tuning, not the program; a Mosaic
     * program's stderr is for the program and its runtime errors. */
    GC_set_warn_proc(GC_ignore_warn_proc);
    rt_gc_start();
    rt_print_init();
    rt_remote_start();      /* before the first array: it may need a node word */
    rt_fault_init();
    rt_thread_altstack_init();  /* this thread only waits: no stack limit */

    program_args = make_args(argc, argv);

    pthread_t thread;
    if (rt_thread_start(&thread, program_thread, NULL, PROGRAM_STACK, 0) != 0)
        mos_panic(RT_NOWHERE, "out of memory: cannot start the program's thread");
    /* Parked for the rest of the run, touching no heap: the collector
     * need not stop this thread (a signal round trip per collection). */
    GC_do_blocking(wait_for_program, &thread);

    rt_print_flush();
    exit((int)(program_status & 0xff));
}
