/* start.c — main(): from the C runtime to the Mosaic program.
 *
 * A Mosaic executable's main() lives here, in the runtime, and calls the
 * compiled program's mos_program_main(args).  In order:
 *
 *   0. Under mpirun, the fork of the rank's watch (rank_watch.c): the
 *      process mpirun started waits there, its child goes on as the rank.
 *   1. GC_INIT(), on the process's first thread, before any other thread
 *      exists or anything is allocated (the collector registers this
 *      thread and finds the static data to scan).
 *   2. Buffered stdout (print.c) and the fault handlers (stack.c, after
 *      GC_INIT since the collector plays with fault handlers while it
 *      starts).
 *   3. The arguments, without the program's name, as a [string].
 *   4. The program runs on a stack of its own, 1 GiB reserved so that
 *      recursion a million frames deep works (smaller sizes when the
 *      system refuses; MOSAIC_STACK_SIZE chooses another): the first
 *      thread switches to it (context.c) rather than starting a thread,
 *      because a thread costs a clone, an exit and the collector's marker
 *      threads, which the collector starts with the first thread created
 *      (alloc.c starts them later, when the heap is worth marking in
 *      parallel).  The collector is told the new stack's bottom, and the
 *      old one again afterwards (run_program_here says how the switch
 *      back stays safe).  A sanitizer build, and a system that refuses
 *      every size, run the program on a thread of its own instead
 *      (threads.c).  The program is the "main actor" (LANGUAGE.md §4):
 *      its sends and gets use the scheduler's paths, and the scheduler
 *      counts it as running until mos_program_main returns
 *      (rt_main_begin/end).  The workers start with the first actor
 *      (sched.c), so a program without actors runs no other thread.
 *   5. The first thread then waits (as a blocked thread, which the
 *      collector does not stop: GC_do_blocking) for quiescence — no
 *      actor running or scheduled, no message in flight (sched.c
 *      decides; a deadlock is reported there, status 101) — flushes
 *      stdout and exits with the status mos_program_main returned (the OS
 *      keeps its low 8 bits).
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
#include "transport.h"

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

/* The program on a thread of its own: the way when no stack could be
 * mapped, and in a sanitizer build, whose stack bookkeeping a switch of
 * stacks under its feet would confuse. */
static void *program_thread(void *unused)
{
    (void)unused;
    rt_thread_stack_init();
    rt_main_begin();
    program_status = mos_program_main(program_args);
    rt_main_end();
    return NULL;
}

static void *wait_for_program(void *thread);

static void run_on_a_thread(void)
{
    pthread_t thread;
    if (rt_thread_start(&thread, program_thread, NULL, PROGRAM_STACK, 0) != 0)
        mos_panic(RT_NOWHERE, "out of memory: cannot start the program's thread");
    /* Parked for the rest of the run, touching no heap: the collector
     * need not stop this thread (a signal round trip per collection). */
    GC_do_blocking(wait_for_program, &thread);
}

/* The program on the first thread, on a mapped stack.  The collector
 * scans a thread's stack from the stack pointer up to the bottom it was
 * told, so the bottom changes with the stack: to the mapped stack's top
 * as the program starts, and back after it.  Each change is made, as the
 * collector asks (GC_set_stackbottom), with its lock held, and the lock
 * is held across the switch itself: no collection can start — an actor's
 * worker may be allocating when the program ends — while the stack
 * pointer and the bottom disagree.  (A collection already under way has
 * the lock: the switch waits for it, stopped like any thread.) */
static MappedStack program_stack;
static void *first_thread_gc;           /* the collector's handle of this thread */
static struct GC_stack_base first_bottom;
static void *first_context;             /* parked while the program runs */

static void run_program_here(void *unused)
{
    (void)unused;
    struct GC_stack_base top = { .mem_base = program_stack.lo + program_stack.size };
    GC_set_stackbottom(first_thread_gc, &top);     /* the lock: run_on_a_mapped_stack's */
    GC_alloc_unlock();
    rt_stack_set_bounds(program_stack.lo, program_stack.size, RT_STACK_GUARD);

    rt_main_begin();
    program_status = mos_program_main(program_args);
    rt_main_end();

    GC_alloc_lock();                /* released on the first stack */
    GC_set_stackbottom(first_thread_gc, &first_bottom);
    rt_stack_set_bounds(NULL, 0, 0);
    rt_ctx_resume(first_context);
}

static void switch_to_program_stack(void *parked, void *unused)
{
    (void)unused;
    first_context = parked;
    rt_ctx_enter(program_stack.lo + program_stack.size, run_program_here, NULL);
}

static int run_on_a_mapped_stack(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return -1;
#else
    if (rt_stack_map(&program_stack, PROGRAM_STACK) != 0)
        return -1;
    first_thread_gc = GC_get_my_stackbottom(&first_bottom);
    GC_alloc_lock();                /* released on the program's stack */
    rt_ctx_park(switch_to_program_stack, NULL);
    GC_alloc_unlock();
    /* Waiting touches no heap: the collector need not stop this thread. */
    GC_do_blocking(wait_for_program, NULL);
    return 0;
#endif
}

/* A process that is another node than node 0 (a rank of an MPI run)
 * runs no main: it serves the actors and objects the other nodes put on
 * it until the program is quiescent, or another node ends it. */
static void serve_another_node(void)
{
    rt_main_begin();
    rt_main_end();
    GC_do_blocking(wait_for_program, NULL);
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
    if (thread)
        pthread_join(*(pthread_t *)thread, NULL);
    rt_wait_quiescence();
    return NULL;
}

#ifdef __GLIBC__
extern void *__libc_stack_end;      /* glibc's: the top of the first stack */
#endif

/* The top of this thread's stack, which the collector would otherwise
 * find itself (pthread_getattr_np, which reads all of /proc/self/maps for
 * the first thread). */
static void tell_the_collector_this_stack(void)
{
#ifdef __GLIBC__
    struct GC_stack_base bottom = { .mem_base = __libc_stack_end };
    GC_set_stackbottom(NULL, &bottom);
#endif
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
    rt_tp_watch();          /* under mpirun: this process becomes the rank */
    /* Nothing points into the heap before it exists: the collection the
     * collector would otherwise run as it starts (a mark of every root,
     * about 0.15 ms, a tenth of a small program's run) finds nothing. */
    GC_set_dont_precollect(1);
    mark_with_the_workers();
    tell_the_collector_this_stack();
    GC_INIT();
    /* The collector's warnings ("repeated allocation of very large
     * block", ...) are about its tuning, not the program; a Mosaic
     * program's stderr is for the program and its runtime errors. */
    GC_set_warn_proc(GC_ignore_warn_proc);
    rt_gc_start();
    rt_print_init();
    rt_tp_start(&argc, &argv);  /* before nodes() can be asked */
    rt_remote_start();      /* before the first array: it may need a node word */
    rt_fault_init();
    rt_thread_altstack_init();  /* this thread only waits: no stack limit */
    rt_tp_ready();          /* another rank's requests are served from now */

    program_args = make_args(argc, argv);

    if (!rt_tp_runs_main())
        serve_another_node();
    else if (run_on_a_mapped_stack() != 0)
        run_on_a_thread();

    rt_print_flush();
    rt_tp_ending((int)(program_status & 0xff));
    exit((int)(program_status & 0xff));
}
