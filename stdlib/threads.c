/* threads.c — starting the runtime's threads, and sleeping on a word.
 *
 * Every thread that runs Mosaic code — the scheduler's workers (sched.c),
 * and the program's own thread where it has one (start.c) — is started
 * here, and the stack the program's code runs on otherwise is mapped
 * here, for two reasons:
 *
 *   - The collector must know a thread: GC_THREADS (rt_internal.h) turns
 *     pthread_create into GC_pthread_create, which registers the thread
 *     so that its stack and registers are scanned and it is stopped
 *     during collections.  Calling it from one place keeps that true.
 *   - Mosaic code recurses deeply, so it runs on large stacks.  Only a
 *     new thread's stack size can be chosen (or a stack mapped and
 *     switched to: rt_stack_map), and Linux commits stack pages as they
 *     are touched, so a large reservation costs address space, not
 *     memory.  If the system refuses a size (ulimit -v, strict
 *     overcommit), smaller ones are tried, down to the default for a
 *     thread and to 16 MiB for a mapped stack; the stack limit check
 *     (stack.c) still turns an overflow into an error.
 *     MOSAIC_STACK_SIZE (bytes, or with a K, M or G suffix; at least 1M)
 *     sets the size of every stack: a test of stack overflow need not
 *     touch a gigabyte before it fails.
 *
 * The futex wrappers are the only way runtime threads sleep: a worker with
 * nothing to do, main waiting in `get`, the first thread waiting for
 * quiescence.  A futex costs nothing until someone sleeps, and a wake-up is one system call.
 *
 * Not here: what the threads do (start.c, sched.c), stack limits
 * (stack.c).  Linux only, like stack.c.
 */
#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gc.h>

/* What rt_thread_start asks pthread_create for, whatever the size. */
typedef struct {
    pthread_t *thread;
    void *(*fn)(void *);
    void *arg;
    int detached;
} ThreadRequest;

/* Sizes tried below `largest`, largest first; 0 means the system's
 * default. */
static const size_t fallback_sizes[] = {
    (size_t)1 << 30, (size_t)256 << 20, (size_t)64 << 20, (size_t)16 << 20, 0,
};

/* MOSAIC_STACK_SIZE as a byte count, or 0 when unset or invalid (then
 * the built-in sizes apply; a bad value is not worth failing for). */
static size_t stack_size_env;

/* 1 MiB .. 64 GiB: below, the margin kept for reporting an overflow would
 * be most of the stack; above, no machine would commit it. */
static void read_stack_size(void)
{
    stack_size_env = rt_env_size("MOSAIC_STACK_SIZE", (size_t)1 << 20, (size_t)1 << 36,
                                 "a size from 1M to 64G (bytes, or with K, M or G)");
}

static size_t requested_stack_size(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;    /* read, and warned about, once */
    pthread_once(&once, read_stack_size);
    return stack_size_env;
}

static int try_start(size_t stack_size, void *ctx)
{
    const ThreadRequest *rq = ctx;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return EAGAIN;
    if (stack_size != 0) {
        pthread_attr_setstacksize(&attr, stack_size);
        pthread_attr_setguardsize(&attr, RT_STACK_GUARD);
    }
    if (rq->detached)
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t ignored;
    int err = pthread_create(rq->thread ? rq->thread : &ignored, &attr, rq->fn,
                             rq->arg);
    pthread_attr_destroy(&attr);
    return err;
}

/* Calls attempt(size, ctx) with MOSAIC_STACK_SIZE if set, then with the
 * built-in sizes not above `largest` (nor above MOSAIC_STACK_SIZE), until
 * one returns 0; returns that 0 or the last error.  The system's default
 * (size 0) comes last, and only when default_ok. */
static int with_stack_sizes(size_t largest, int default_ok,
                            int (*attempt)(size_t size, void *ctx), void *ctx)
{
    size_t requested = requested_stack_size();
    if (requested != 0) {
        if (attempt(requested, ctx) == 0)
            return 0;
        largest = requested;    /* asked for less: never give more */
    }
    int err = EAGAIN;
    for (size_t i = 0; i < sizeof fallback_sizes / sizeof fallback_sizes[0];
         i++) {
        if (fallback_sizes[i] > largest || (fallback_sizes[i] == 0 && !default_ok))
            continue;
        err = attempt(fallback_sizes[i], ctx);
        if (err == 0)
            return 0;
    }
    return err;
}

int rt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
                    size_t largest, int detached)
{
    ThreadRequest rq = { thread, fn, arg, detached };
    return with_stack_sizes(largest, 1, try_start, &rq);
}

/* A stack of `size` bytes above a guard region that is reserved, never
 * committed; NORESERVE, so that only the pages touched count against
 * the system's memory (strict overcommit ignores it, and then a smaller
 * size is tried). */
static int try_map(size_t size, void *ctx)
{
    MappedStack *st = ctx;
    char *base = mmap(NULL, size + RT_STACK_GUARD, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED)
        return ENOMEM;
    if (mprotect(base + RT_STACK_GUARD, size, PROT_READ | PROT_WRITE) != 0) {
        munmap(base, size + RT_STACK_GUARD);
        return ENOMEM;
    }
    st->lo = base + RT_STACK_GUARD;
    st->size = size;
    return 0;
}

int rt_stack_map(MappedStack *stack, size_t largest)
{
    return with_stack_sizes(largest, 0, try_map, stack);
}

void rt_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    /* EINTR (the collector's stop-the-world signal), EAGAIN (the word
     * already changed) and spurious returns all mean "look again", which
     * every caller does. */
#if defined(__SANITIZE_THREAD__)
    /* TSan holds back a signal that arrives in a system call it does not
     * know, such as a futex wait, until the call returns: the collector's
     * stop-the-world would wait for a parked thread for ever.  Under TSan
     * a wait is a short sleep, which TSan knows, and the caller looks
     * again. */
    if (atomic_load_explicit(word, memory_order_acquire) == expected) {
        struct timespec ts = { 0, 50000 };
        nanosleep(&ts, NULL);
    }
#else
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL,
            NULL, 0);
#endif
}

void rt_futex_wake(_Atomic uint32_t *word, int n)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}
