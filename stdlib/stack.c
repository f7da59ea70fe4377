/* stack.c — stack limits, and faults turned into runtime errors.
 *
 * Deep recursion is legal Mosaic, and running out of stack must be a
 * runtime error ("stack overflow", status 101), never a crash (DESIGN.md
 * §6).  Two lines of defence:
 *
 *  1. The check generated code makes.  Every compiled function compares
 *     its frame address with the thread-local mos_stack_limit on entry and
 *     calls mos_panic(where, "stack overflow") below it.  The limit sits
 *     RT_STACK_MARGIN bytes above the lowest usable address of the
 *     thread's stack, so the panic itself (flush stdout, format, write,
 *     exit) still has room to run.  rt_thread_stack_init sets it from the
 *     thread's real bounds (pthread_getattr_np); a thread that never calls
 *     it keeps NULL, which no frame is below: unchecked, not broken.
 *
 *  2. The fault handler, for whatever the check misses (a frame larger
 *     than the margin, a runtime C function deep in the recursion).  A
 *     SIGSEGV or SIGBUS that touches the margin or the guard pages below
 *     the faulting thread's stack, or that happens with the stack pointer
 *     already below the limit, is reported as "stack overflow"; any other
 *     fault is the runtime's or codegen's bug, reported as "segmentation
 *     fault (internal error)" — both without a source location ("<unknown>"
 *     stands in for it), and with status 101.  The handler
 *     runs on an alternate signal stack (sigaltstack, one per thread),
 *     since the thread's own stack is exactly what has run out, and it
 *     only calls async-signal-safe functions (rt_panic_from_signal).
 *
 * The collector: Boehm GC stops threads with SIGPWR/SIGXCPU, which we
 * leave alone, and uses SIGSEGV only for incremental collection (which
 * the runtime does not enable, but GC_ENABLE_INCREMENTAL=1 in the
 * environment does: the collector then write-protects heap pages and
 * catches the faults) and transiently while it starts, which is why
 * rt_fault_init runs after GC_INIT().  A fault we do not claim goes to
 * the handler that was installed before ours, if any.  That is also why
 * "near the stack" is not enough to claim a fault: the heap's pages can
 * be mapped right below a thread's guard.
 *
 * Not here: creating threads (start.c for the program's main thread),
 * growing stacks, or recovering from anything.
 */
#include "rt_internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

__thread char *mos_stack_limit;

/* The lowest usable address of this thread's stack and the size of the
 * guard region below it; zero when unknown.  Read by the fault handler
 * (static TLS in the executable: safe in a signal handler). */
static __thread char *stack_lo;
static __thread size_t stack_guard;

/* The alternate signal stack for the handler: it formats one line and
 * writes it, a few KiB at most; 64 KiB leaves room for libc's own needs
 * (some CPUs' signal frames alone take several KiB). */
#define ALT_STACK_SIZE ((size_t)64 * 1024)

static struct sigaction previous_segv, previous_bus;

#if defined(__SANITIZE_ADDRESS__)
/* In a sanitizer build (configure --enable-sanitizers), AddressSanitizer
 * reports faults itself, with more detail than we could.  Its leak check
 * is turned off: the collector's heap is invisible to it, and a leak
 * report at every exit of a garbage-collected program is noise.  The
 * sanitizer runtime calls this hook if it is defined. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "detect_leaks=0";
}
#endif

void rt_thread_altstack_init(void)
{
    /* malloc'd, never freed: the thread keeps it until it dies, and
     * runtime threads live as long as the program.  A thread that
     * already has one keeps it: AddressSanitizer gives every thread its
     * own and unmaps it when the thread ends, so it must stay theirs. */
    stack_t alt;
    if (sigaltstack(NULL, &alt) != 0 || (alt.ss_flags & SS_DISABLE)) {
        alt.ss_sp = malloc(ALT_STACK_SIZE);
        alt.ss_size = ALT_STACK_SIZE;
        alt.ss_flags = 0;
        if (alt.ss_sp && sigaltstack(&alt, NULL) != 0)
            free(alt.ss_sp);
    }
}

int rt_thread_stack_init(void)
{
    /* The alternate stack first: it is useful even if the bounds are not
     * known. */
    rt_thread_altstack_init();

    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return -1;
    void *addr = NULL;
    size_t size = 0, guard = 0;
    int ok = pthread_attr_getstack(&attr, &addr, &size) == 0 &&
             pthread_attr_getguardsize(&attr, &guard) == 0;
    pthread_attr_destroy(&attr);
    if (!ok || addr == NULL || size == 0)
        return -1;

    rt_stack_set_bounds(addr, size, guard);
    return 0;
}

void rt_stack_set_bounds(char *lo, size_t size, size_t guard)
{
    stack_lo = lo;
    stack_guard = guard;
    if (lo == NULL) {
        mos_stack_limit = NULL;
        return;
    }
    /* A stack smaller than twice the margin (never the case for the
     * runtime's own threads) keeps a quarter of itself in reserve. */
    size_t margin = size > 2 * RT_STACK_MARGIN ? RT_STACK_MARGIN : size / 4;
    mos_stack_limit = stack_lo + margin;
}

/* The faulting thread's stack pointer, from the signal context, or 0
 * where we do not know how to read it. */
static uintptr_t fault_sp(const void *context)
{
    const ucontext_t *uc = context;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    return 0;
#endif
}

/* A fault is a stack overflow when it touches the guard region or the
 * margin of this thread's stack, or when the stack pointer itself is
 * already below the limit (a frame so large that the access skipped the
 * guard altogether).  Only those: other mappings (the collector's heap,
 * say) may sit right below a thread's guard, so an address merely near
 * the stack proves nothing. */
static int is_stack_overflow(const void *addr, const void *context)
{
    if (stack_lo == NULL)
        return 0;
    uintptr_t a = (uintptr_t)addr;
    uintptr_t lo = (uintptr_t)stack_lo;
    uintptr_t guard_lo = lo > stack_guard ? lo - stack_guard : 0;
    /* up to the limit, plus a page: the panic path itself runs there */
    uintptr_t limit = (uintptr_t)mos_stack_limit;
    if (a >= guard_lo && a < limit + 4096)
        return 1;
    uintptr_t sp = fault_sp(context);
    return sp != 0 && sp < limit;
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
    if (is_stack_overflow(info->si_addr, context))
        rt_panic_from_signal("<unknown>", "stack overflow");

    /* Not ours: hand it to whoever was there before us, if anyone. */
    const struct sigaction *prev =
        sig == SIGBUS ? &previous_bus : &previous_segv;
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_sigaction) {
            prev->sa_sigaction(sig, info, context);
            return;
        }
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
        return;
    }
    rt_panic_from_signal("<unknown>", sig == SIGBUS
                             ? "bus error (internal error)"
                             : "segmentation fault (internal error)");
}

void rt_fault_init(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    /* SA_ONSTACK: run on the alternate stack; the thread's own may be
     * exhausted.  Faults are not deferred: a fault inside the handler
     * kills the process with the default action, which is the best left
     * to do then. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
    sigaction(SIGBUS, &sa, &previous_bus);
}
