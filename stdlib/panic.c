/* panic.c — runtime errors: one message, then exit status 101.
 *
 * Every check generated code makes (null, bounds, division, conversion,
 * negative length, stack) and every check the runtime makes ends here, in
 * mos_panic(where, message), which prints
 *
 *     WHERE: runtime error: MESSAGE
 *
 * on stderr and exits with status 101 (LANGUAGE.md §6).  WHERE is the
 * "FILE:LINE:COL" string codegen baked into the program.  A program built
 * with -g then lists the Mosaic frames that were running (backtrace.c).
 *
 * Order of events, and why:
 *   1. Claim the panic.  Only the first thread to panic reports; any other
 *      thread that panics meanwhile parks forever (the first one is about
 *      to end the process), so an error is printed exactly once even when
 *      several workers fail together.
 *   2. Call mos_runtime_error(where, message), which does nothing: it is
 *      where a debugger stops on a runtime error (docs/debugging.md), with
 *      the failing code's stack intact and nothing printed yet.
 *   3. Flush stdout and close it (rt_print_shutdown), so everything the
 *      program printed before the error comes out before it, and nothing a
 *      still-running thread prints comes out after it.
 *   4. Write the whole line with a single write(2) so it cannot interleave
 *      with anything else on stderr; then the frames, if any (or the
 *      caller's details, rt_panic_with).
 *   5. exit(101): atexit handlers run (a later runtime reports remote-access
 *      counters that way); stdout is already flushed.
 *
 * rt_panic_from_signal is the same protocol for the fault handler, limited
 * to async-signal-safe calls (no stdio, no malloc, _exit instead of exit).
 * rt_exit, the program's exit(code), follows it too without the message:
 * the first thread to end the program, by an error or by exit, is the
 * only one that does.
 *
 * Not here: deciding what is an error (the callers do), unwinding, or any
 * way for a program to catch a runtime error — the language has none.
 */
#include "rt_internal.h"
#include "transport.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by the first thread that panics; never cleared. */
static atomic_flag rt_panic_claimed = ATOMIC_FLAG_INIT;
/* Set in the thread that holds the claim, so a fault inside the panic path
 * itself can still end the process instead of parking forever. */
static __thread volatile int rt_this_thread_panics;

/* Longest message line we build; longer messages are cut (the message is
 * for humans, and the caller's details come last). */
#define PANIC_LINE_MAX 1024

/* Returns 1 if this thread now owns the panic, 0 if it already did (a
 * nested panic).  Parks forever if another thread owns it. */
static int claim_panic(void)
{
    if (!atomic_flag_test_and_set(&rt_panic_claimed)) {
        rt_this_thread_panics = 1;
        return 1;
    }
    if (rt_this_thread_panics)
        return 0;
    /* Another thread is reporting its error and will exit the process;
     * pause() keeps this one quiet without spinning (it still answers the
     * collector's stop-the-world signals). */
    for (;;)
        pause();
}

int rt_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Appends src to buf (capacity cap, current length *len), cutting at the
 * capacity; async-signal-safe. */
static void append(char *buf, size_t cap, size_t *len, const char *src)
{
    while (*src && *len < cap)
        buf[(*len)++] = *src++;
}

/* Builds "WHERE: runtime error: MESSAGE\n" in buf and writes it at once. */
static void report(const char *where, const char *message)
{
    char line[PANIC_LINE_MAX];
    size_t len = 0;
    size_t cap = sizeof line - 1;   /* room for the final newline */
    if (where && *where) {
        append(line, cap, &len, where);
        append(line, cap, &len, ": ");
    }
    append(line, cap, &len, "runtime error: ");
    append(line, cap, &len, message ? message : "(no message)");
    line[len++] = '\n';
    /* a distributed program's error names its node (LANGUAGE.md §10), on
     * a line of its own, so that the error's line is the same as ever */
    if (rt_tp_nodes() > 1 && len + 32 < sizeof line) {
        char digits[12];
        int n = 0;
        for (unsigned k = (unsigned)rt_tp_self(); n == 0 || k > 0; k /= 10)
            digits[n++] = (char)('0' + k % 10);
        append(line, sizeof line, &len, "  on node ");
        while (n > 0)
            line[len++] = digits[--n];
        line[len++] = '\n';
    }
    rt_write_all(STDERR_FILENO, line, len);
}

/* Not static and never inlined, and it does something the compiler must
 * keep (an empty asm with a memory clobber), so the call is always there
 * for a breakpoint. */
__attribute__((noinline)) void mos_runtime_error(const char *where, const char *message)
{
    __asm__ __volatile__("" : : "r"(where), "r"(message) : "memory");
}

_Noreturn void rt_panic_with(const char *where, const char *message,
                             void (*details)(void *ctx), void *ctx)
{
    if (!claim_panic()) {
        /* A panic while panicking (say, out of memory while flushing):
         * report what we can and leave without running anything else. */
        report(where, message);
        _exit(101);
    }
    mos_runtime_error(where, message);
    rt_print_shutdown();
    report(where, message);
    if (details)
        details(ctx);
    else
        rt_backtrace_write(STDERR_FILENO, mos_frame_top, where, NULL, NULL, "  ");
    rt_tp_ending(101);
    exit(101);
}

_Noreturn void mos_panic(const char *where, const char *message)
{
    rt_panic_with(where, message, NULL, NULL);
}

_Noreturn void rt_exit(int status)
{
    if (!claim_panic())
        _exit(status);      /* exit() called while reporting an error */
    rt_print_flush();       /* an i/o error here is reported, status 101 */
    rt_print_shutdown();
    rt_tp_ending(status);
    exit(status);
}

_Noreturn void rt_panicf(const char *where, const char *fmt, ...)
{
    char message[PANIC_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    mos_panic(where, message);
}

_Noreturn void rt_out_of_bounds(const char *where, int64_t index, int64_t length)
{
    rt_panicf(where, "index out of bounds: index %lld, length %lld",
              (long long)index, (long long)length);
}

void rt_check_slice(const char *where, int64_t a, int64_t b, int64_t length)
{
    if (a < 0 || a > length)
        rt_out_of_bounds(where, a, length);
    if (b < a || b > length)
        rt_panicf(where, "index out of bounds: slice %lld..%lld, length %lld",
                  (long long)a, (long long)b, (long long)length);
}

_Noreturn void rt_panic_from_signal(const char *where, const char *message)
{
    if (claim_panic()) {
        mos_runtime_error(where, message);
        rt_print_flush_from_signal();
    }
    report(where, message);
    rt_backtrace_write(STDERR_FILENO, mos_frame_top, where, NULL, NULL, "  ");
    rt_remote_report();     /* atexit handlers do not run after _exit */
    _exit(101);
}

size_t rt_env_size(const char *name, size_t min, size_t max, const char *expected)
{
    const char *env = getenv(name);
    if (!env || !*env)
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(env, &end, 10);
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    }
    if (*end != '\0' || end == env || *env == '-' || errno || n > max >> shift ||
        (n << shift) < min) {
        rt_warn_env(name, env, expected);
        return 0;
    }
    return (size_t)(n << shift);
}

void rt_warn_env(const char *name, const char *value, const char *expected)
{
    char line[PANIC_LINE_MAX];
    int n = snprintf(line, sizeof line, "mosaic: warning: ignoring %s='%s': expected %s\n",
                     name, value, expected);
    if (n > 0)
        rt_write_all(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}
