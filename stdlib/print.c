/* print.c — print and println: buffered standard output.
 *
 * Programs that print a lot must not pay a system call per line, so
 * stdout goes through one large buffer, written out when it fills, at
 * exit, and before a runtime error is reported (panic.c), so that the
 * error comes after everything printed before it.  When stdout is a
 * terminal, the buffer is also written after every call that printed a
 * newline (line buffering, as C's stdio and Python do), so an interactive
 * program shows its lines as it goes.
 *
 * The buffer is ours rather than stdio's for two reasons: a println must
 * be one atomic unit even when several threads print (one mutex held for
 * the whole call, value and newline together), and the fault handler must
 * be able to write out what is buffered with nothing but write(2) — which
 * is only possible when we know the buffer's layout and whether a thread
 * is in the middle of changing it (`busy`).
 *
 * Nothing else in the runtime writes to stdout; a module that ever needs
 * to must go through rt_print_bytes, or call rt_print_flush first.
 *
 * Not here: formatting (string.c for ints, float_format.c for floats),
 * stderr (panic.c writes it directly, unbuffered), input.
 */
#include "rt_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 64 KiB: large enough that block-buffered output costs one system call
 * per thousands of lines, small enough to be noise in memory use. */
#define OUT_CAPACITY ((size_t)64 * 1024)

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t out_once = PTHREAD_ONCE_INIT;
/* malloc'd, not GC'd and not static: the collector has no reason to scan
 * printed text for pointers. */
static char *out_buf;
static size_t out_cap;
static size_t out_len;
static int out_line_buffered;
/* Set by rt_print_shutdown or after a failed write: later output is
 * dropped. */
static int out_closed;
/* The error of the write that closed it, and whether it was reported. */
static int out_errno;
static int out_reported;
/* Non-zero while a thread changes out_buf/out_len (under out_lock); the
 * fault handler leaves the buffer alone then. */
static volatile sig_atomic_t out_busy;

static void flush_locked(void);

/* At exit (after `exit`, say): a failure cannot go through exit() again. */
static void flush_at_exit(void)
{
    rt_print_init();
    pthread_mutex_lock(&out_lock);
    flush_locked();
    pthread_mutex_unlock(&out_lock);
    if (out_errno && !out_reported) {
        out_reported = 1;
        char msg[160];
        int n = snprintf(msg, sizeof msg, "%s: runtime error: i/o error: cannot write to "
                         "standard output: %s\n", RT_NOWHERE, strerror(out_errno));
        if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
            _exit(101);
        rt_remote_report();
        _exit(101);
    }
}

static void out_setup(void)
{
    out_buf = malloc(OUT_CAPACITY);
    if (out_buf) {
        out_cap = OUT_CAPACITY;
    } else {
        /* No buffer: every call writes through.  Output still works. */
        out_cap = 0;
    }
    out_line_buffered = isatty(STDOUT_FILENO);
    /* a closed pipe is a failed write (EPIPE), reported, not a silent death */
    signal(SIGPIPE, SIG_IGN);
    atexit(flush_at_exit);
}

void rt_print_init(void)
{
    pthread_once(&out_once, out_setup);
}

static int (*out_sink)(const char *bytes, size_t length);

void rt_print_set_sink(int (*sink)(const char *bytes, size_t length))
{
    rt_print_init();
    pthread_mutex_lock(&out_lock);
    out_sink = sink;
    pthread_mutex_unlock(&out_lock);
}

/* write(2) all of it (or hand it to the sink); on a hard error (say
 * EPIPE with SIGPIPE ignored) stop printing for good rather than fail
 * every later call. */
static void write_through(const char *p, size_t n)
{
    int err = out_sink ? out_sink(p, n) : rt_write_all(STDOUT_FILENO, p, n);
    if (err) {
        if (!out_closed)
            __atomic_store_n(&out_errno, err, __ATOMIC_RELAXED);    /* reported once the lock is released */
        out_closed = 1;
    }
}

/* Output that cannot be written is lost output: a runtime error, once
 * (after the lock is released; the panic flushes nothing more). */
static void report_failure(void)
{
    int err = out_errno;
    if (!err || out_reported)
        return;
    out_reported = 1;
    rt_panicf(RT_NOWHERE, "i/o error: cannot write to standard output: %s", strerror(err));
}

/* Caller holds out_lock and has set out_busy. */
static void flush_locked(void)
{
    if (out_len > 0 && !out_closed)
        write_through(out_buf, out_len);
    __atomic_store_n(&out_len, 0, __ATOMIC_RELAXED);
}

/* Caller holds out_lock and has set out_busy. */
static void append_locked(const char *p, size_t n)
{
    if (out_closed || n == 0)
        return;
    if (n > out_cap - out_len)
        flush_locked();
    if (n >= out_cap) {          /* too large to be worth copying */
        write_through(p, n);
        return;
    }
    memcpy(out_buf + out_len, p, n);
    __atomic_store_n(&out_len, out_len + n, __ATOMIC_RELAXED);
}

/* Prints a then b (either may be empty) as one unit. */
static void emit2(const char *a, size_t na, const char *b, size_t nb)
{
    rt_print_init();
    pthread_mutex_lock(&out_lock);
    out_busy = 1;
    append_locked(a, na);
    append_locked(b, nb);
    if (out_line_buffered &&
        (memchr(a, '\n', na) != NULL || memchr(b, '\n', nb) != NULL))
        flush_locked();
    out_busy = 0;
    pthread_mutex_unlock(&out_lock);
    report_failure();
}

void rt_print_bytes(const char *bytes, size_t length)
{
    emit2(bytes, length, "", 0);
}

void rt_print_flush(void)
{
    /* Nothing buffered by this thread, nor by another as far as it can
     * tell: a flush before every packet a rank sends (transport_mpi.c)
     * then costs a load, not a lock.  (out_len's stores are atomic for
     * this one read outside the lock.) */
    if (__atomic_load_n(&out_len, __ATOMIC_RELAXED) == 0 &&
        !__atomic_load_n(&out_errno, __ATOMIC_RELAXED))
        return;
    rt_print_init();
    pthread_mutex_lock(&out_lock);
    out_busy = 1;
    flush_locked();
    out_busy = 0;
    pthread_mutex_unlock(&out_lock);
    report_failure();
}

void rt_print_shutdown(void)
{
    rt_print_init();
    pthread_mutex_lock(&out_lock);
    out_busy = 1;
    flush_locked();
    out_closed = 1;
    out_busy = 0;
    pthread_mutex_unlock(&out_lock);
}

void rt_print_flush_from_signal(void)
{
    /* Racy by nature (another thread may start printing right now); the
     * process is about to die, and losing some output beats hanging. */
    if (out_busy || out_closed || out_buf == NULL)
        return;
    size_t n = out_len;
    const char *p = out_buf;
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w <= 0)
            break;
        p += w;
        n -= (size_t)w;
    }
    out_len = 0;
}

/* --- the ABI --- */

void mos_print_int(int64_t v, int32_t newline)
{
    char buf[RT_INT_BUF + 1];
    int n = rt_format_int(v, buf);
    if (newline)
        buf[n++] = '\n';
    emit2(buf, (size_t)n, "", 0);
}

void mos_print_float(double v, int32_t newline)
{
    char buf[RT_FLOAT_BUF + 1];
    int n = rt_format_float(v, buf);
    if (newline)
        buf[n++] = '\n';
    emit2(buf, (size_t)n, "", 0);
}

void mos_print_bool(int32_t v, int32_t newline)
{
    const char *text = v ? "true\n" : "false\n";
    size_t n = v ? 4 : 5;
    emit2(text, n + (newline ? 1 : 0), "", 0);
}

void mos_print_string(MosString *s, int32_t newline)
{
    const char *bytes = s ? s->bytes : "";
    size_t n = s ? (size_t)s->length : 0;
    emit2(bytes, n, "\n", newline ? 1 : 0);
}

void mos_print_newline(void)
{
    emit2("\n", 1, "", 0);
}
