/* rt_internal.h — what the runtime's modules share with each other.
 *
 * mosaic_rt.h is the ABI generated code sees; this header is the runtime's
 * private side: helpers one module provides to the others (`rt_` names),
 * never called by generated code.  Unit tests may use it too.
 *
 * One rule keeps the unit tests linkable: start.c (main() and the program
 * thread) is a leaf.  Nothing outside it may refer to a symbol it defines,
 * so a test program with its own main() links against libmosaicrt.a and
 * the linker never pulls start.o (which would bring a second main() and a
 * reference to mos_program_main).
 *
 * Every runtime source includes this header first: it sets the feature
 * macros (_GNU_SOURCE, for pthread_getattr_np and friends) before any
 * system header is read, and GC_THREADS before gc.h, so that every module
 * sees the thread-aware collector (pthread_create redirected to
 * GC_pthread_create, and so on).
 */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <stdatomic.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mosaic_rt.h"

/* Where runtime errors without a source location (out of memory inside the
 * runtime itself, a fault caught by the signal handler) are reported. */
#define RT_NOWHERE "<runtime>"

/* The largest block the runtime asks the collector for: 2^48 bytes, the
 * whole user address space of x86-64 and arm64 Linux.  Anything larger is
 * "out of memory" at once (and every size computation stays far from
 * overflowing int64_t). */
#define RT_MAX_ALLOC ((uint64_t)1 << 48)

/* Says on stderr that environment variable name's value is ignored, and
 * what was expected (panic.c). */
void rt_warn_env(const char *name, const char *value, const char *expected);
/* Environment variable `name` as a size in bytes, written as a number with
 * an optional K, M or G; 0 when it is unset, and also (after a warning
 * that names `expected`) when it is malformed or outside [min, max]. */
size_t rt_env_size(const char *name, size_t min, size_t max, const char *expected);

/* The collector's heap policy (alloc.c): right after GC_INIT. */
void rt_gc_start(void);

/* The collector's marker threads: not wanted yet, wanted (the heap has
 * grown enough), started (alloc.c). */
enum { RT_MARKERS_NOT_YET, RT_MARKERS_WANTED, RT_MARKERS_STARTED };
extern _Atomic int rt_gc_markers;
void rt_gc_start_markers(void);

/* Starts the marker threads once they are wanted: called on the runtime's
 * allocation paths, outside the collector. */
static inline void rt_gc_poll(void)
{
    if (__builtin_expect(atomic_load_explicit(&rt_gc_markers, memory_order_relaxed) ==
                             RT_MARKERS_WANTED, 0))
        rt_gc_start_markers();
}

/* The pause of a spin-wait: the core's hint that this is one (it saves
 * power, and a sibling hyperthread gets the pipeline).  Under TSan, a
 * system call instead: TSan delivers a signal to a thread only when the
 * thread next enters a function it intercepts, and the collector stops
 * the world with signals, so a thread that spins on pause instructions
 * alone would keep every collection waiting ("Signals delivery fails
 * constantly"). */
#if defined(__SANITIZE_THREAD__)
#include <sched.h>
#endif
static inline void rt_cpu_relax(void)
{
#if defined(__SANITIZE_THREAD__)
    sched_yield();
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* --- arrays (array.c) --- */

/* Fills in the header of an array whose `length` elements of elem_size
 * bytes follow it in the same block (mos_array_new's layout); the
 * elements are the caller's to set. */
static inline void rt_array_header_init(MosArray *a, int64_t length, size_t elem_size,
                                        int32_t elem_kind)
{
    a->length = length;
    a->data = (char *)(a + 1);
    a->capacity = length;
    a->elem_size = (int32_t)elem_size;
    a->elem_kind = elem_kind;
}

/* --- remote-access counting (remote.c) --- */

/* Set once at start-up when the program was compiled with --count-remote. */
extern int rt_remote_enabled;
/* Start-up (start.c, before any allocation): turns counting on when the
 * program carries a mos_remote_table. */
void rt_remote_start(void);
/* Writes the report to stderr; safe to call from the fault handler. */
void rt_remote_report(void);
/* A distributed program's (remote.c): a packet of `bytes` sent from node
 * `from` to `to`; every counter as one array of words, which the
 * transport sums into node 0's as the program ends (NULL without
 * --count-remote); and, in every other process, that its report is node
 * 0's to write. */
void rt_remote_count_message(int64_t from, int64_t to, uint64_t bytes);
uint64_t *rt_remote_counters(size_t *n);
void rt_remote_report_elsewhere(void);

/* --- strings (string.c) --- */

/* memcpy(dst, src, n) for the short strings text is mostly made of (a
 * word, a field, a number): up to 16 bytes by two loads and two stores,
 * which overlap when n is not a power of two and never touch a byte
 * outside the n; longer ones by memcpy.  Below 16 bytes a call of memcpy
 * costs more than the copy. */
static inline void rt_copy_bytes(char *dst, const char *src, size_t n)
{
    if (n >= 8) {
        if (n > 16) {
            memcpy(dst, src, n);
            return;
        }
        uint64_t head, tail;
        memcpy(&head, src, 8);
        memcpy(&tail, src + n - 8, 8);
        memcpy(dst, &head, 8);
        memcpy(dst + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else if (n > 0) {
        /* 1 to 3 bytes: the first, the middle and the last */
        char first = src[0], middle = src[n / 2], last = src[n - 1];
        dst[0] = first;
        dst[n / 2] = middle;
        dst[n - 1] = last;
    }
}

/* A new GC string holding a copy of bytes[0..length), NUL-terminated. */
MosString *rt_string_new(const char *bytes, int64_t length);
/* The kinds of a map's keys and values (map.c), to copy it elsewhere. */
void rt_map_kinds(const MosMap *m, int32_t *key_kind, int32_t *value_kind, int32_t *value_size);
/* A new GC string of `length` bytes for the caller to fill before anyone
 * else sees it (the shared "" when length is 0). */
MosString *rt_string_alloc(int64_t length);
/* Strings made many at a time (a split's pieces, a map's keys): each a
 * whole string — header, bytes, NUL, as rt_string_new makes one — cut
 * from atomic blocks filled one after the other, rather than a GC
 * allocation each.  A block lives while any of its strings does. */
typedef struct RtStringBlock {
    char *free;
    size_t left;
} RtStringBlock;
/* The room a string of `length` bytes takes in a block; 0 when it takes
 * none: "" (the shared one), or longer than RT_STRING_BLOCK_MAX (a block
 * of its own). */
#define RT_STRING_BLOCK_MAX 512
static inline size_t rt_string_block_room(int64_t length)
{
    size_t room = (sizeof(MosString) + (size_t)length + 1 + 7) & ~(size_t)7;
    return length == 0 || room > RT_STRING_BLOCK_MAX ? 0 : room;
}
/* The slow path of rt_string_in_block: "", a string of its own, or the
 * first string of a new block. */
MosString *rt_string_in_new_block(RtStringBlock *b, const char *bytes, int64_t length,
                                  size_t block_bytes, const char *where);
/* A copy of bytes[0..length) in b; when the current block has no room, a
 * new one of `block_bytes` (at least the string's room) is started.
 * Out of memory is reported at `where`.  Inline: it runs once per word
 * of a split and per new key of a map. */
static inline MosString *rt_string_in_block(RtStringBlock *b, const char *bytes,
                                            int64_t length, size_t block_bytes,
                                            const char *where)
{
    size_t room = rt_string_block_room(length);
    if (room == 0 || room > b->left)
        return rt_string_in_new_block(b, bytes, length, block_bytes, where);
    MosString *s = (MosString *)(void *)b->free;
    b->free += room;
    b->left -= room;
    s->length = length;
    s->bytes = (char *)(s + 1);
    s->buffer = NULL;
    rt_copy_bytes(s->bytes, bytes, (size_t)length);
    s->bytes[length] = '\0';
    return s;
}
/* s's bytes followed by a NUL, for a system call: s's own when they are,
 * else a copy. */
const char *rt_string_cstr(const MosString *s);
/* The shared, statically allocated "" (never written, never collected). */
MosString *rt_empty_string(void);

/* --- numbers as text (string.c, float_format.c) --- */

/* Writes v in decimal into buf (at least RT_INT_BUF bytes, NUL-terminated);
 * returns the length. */
#define RT_INT_BUF 24
int rt_format_int(int64_t v, char *buf);
/* The length rt_format_int(v, ...) returns, without writing anything. */
int rt_int_length(int64_t v);
/* rt_format_float is declared in mosaic_rt.h (the unit tests use it). */
#define RT_FLOAT_BUF 32

/* --- output (print.c) --- */

/* Chooses line or block buffering for stdout and registers the flush at
 * exit; called once by main() before the program runs. */
void rt_print_init(void);
/* Appends bytes to the stdout buffer as one atomic unit (no other thread's
 * output can land in the middle). */
void rt_print_bytes(const char *bytes, size_t length);
/* Writes out whatever is buffered. */
void rt_print_flush(void);
/* Flushes and closes stdout for good: later prints are dropped.  A panic
 * calls this so that nothing another thread prints lands after the error. */
void rt_print_shutdown(void);
/* Where the buffer goes when it is written out, instead of stdout: a
 * distributed program's node other than 0 hands its output to node 0
 * (transport_mpi.c).  The sink is called with the output lock held, and
 * returns 0 or an errno. */
void rt_print_set_sink(int (*sink)(const char *bytes, size_t length));
/* Async-signal-safe best effort for the fault handler: writes the buffer
 * with write(2) unless some thread is in the middle of changing it. */
void rt_print_flush_from_signal(void);

/* --- stacks and faults (stack.c) --- */

/* Bytes kept free below mos_stack_limit: enough for mos_panic (flush,
 * format, write, exit) to run after generated code sees the limit. */
#define RT_STACK_MARGIN ((size_t)256 * 1024)

/* The guard region below each runtime stack (reserved, never committed),
 * larger than the default page so that a big frame lands in it rather
 * than in some other mapping. */
#define RT_STACK_GUARD ((size_t)1 << 20)

/* Installs the SIGSEGV/SIGBUS handlers that turn a fault near a thread's
 * stack limit into "stack overflow" (runtime error, status 101).  Call
 * after GC_INIT() (the collector may set and reset fault handlers while it
 * starts) and before the program runs. */
void rt_fault_init(void);
/* Called first by every thread that runs Mosaic code: records the
 * thread's stack bounds, sets mos_stack_limit, and gives the thread an
 * alternate signal stack so the fault handler can run after an overflow.
 * Returns 0, or -1 if the bounds are unknown (then mos_stack_limit stays
 * NULL and only the fault handler guards the stack). */
/* Only the alternate signal stack of rt_thread_stack_init, for a thread
 * that runs no Mosaic code (the first thread, which waits): its bounds
 * would cost a read of /proc/self/maps for nothing. */
void rt_thread_altstack_init(void);
int rt_thread_stack_init(void);
/* Records [lo, lo + size) as the calling thread's stack, with a guard of
 * `guard` bytes below lo, and sets mos_stack_limit (what
 * rt_thread_stack_init does once it knows the bounds), for code about to
 * run on a stack the thread did not start with (start.c).  lo == NULL
 * forgets the bounds: no limit. */
void rt_stack_set_bounds(char *lo, size_t size, size_t guard);

/* --- switching stacks (context.c) --- */

/* Pushes the callee-saved registers and calls decide(sp, arg) below them,
 * on the same stack; sp is the parked context, which rt_ctx_resume(sp)
 * continues by returning from this call.  If decide returns, so does
 * rt_ctx_park. */
void rt_ctx_park(void (*decide)(void *sp, void *arg), void *arg);
/* Continues the context parked at sp (its stack bytes must be back in
 * place). */
_Noreturn void rt_ctx_resume(void *sp);
/* Calls fn(arg) with the stack pointer at top (16-aligned), abandoning
 * the current frames; fn must not return. */
_Noreturn void rt_ctx_enter(void *top, void (*fn)(void *), void *arg);
/* Copies n bytes (a multiple of 8) of a stack, sanitizer redzones and
 * all. */
void rt_stack_copy(void *dst, const void *src, size_t n);
/* Clears a sanitizer's poison on stack bytes whose frames were replaced
 * by a copy rather than returned from; nothing in a normal build. */
void rt_stack_unpoison(void *lo, size_t n);

/* --- threads (threads.c) --- */

/* Starts fn(arg) on a new thread the collector knows (GC_THREADS turns
 * pthread_create into GC_pthread_create), with a large reserved stack:
 * MOSAIC_STACK_SIZE if set (bytes, or with a K, M or G suffix; at least
 * 1M), else `largest` bytes, falling back to smaller sizes down to the
 * system's default when the system refuses.  A detached thread cannot be
 * joined; *thread may then be NULL.  Returns 0 or an errno value. */
int rt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
                    size_t largest, int detached);

/* A stack mapped for code to switch to (start.c): [lo, lo + size), with
 * RT_STACK_GUARD reserved bytes below lo. */
typedef struct {
    char *lo;
    size_t size;
} MappedStack;

/* Maps a stack of MOSAIC_STACK_SIZE bytes if set, else `largest` bytes,
 * falling back to smaller sizes as rt_thread_start does, down to its
 * smallest fixed one (16 MiB) rather than the system's default.  Returns
 * 0, or an errno value when nothing could be mapped. */
int rt_stack_map(MappedStack *stack, size_t largest);

/* Futex wrappers: rt_futex_wait sleeps while *word == expected (it may
 * return early: callers loop on their own condition); rt_futex_wake wakes
 * up to n sleepers on word. */
void rt_futex_wait(_Atomic uint32_t *word, uint32_t expected);
void rt_futex_wake(_Atomic uint32_t *word, int n);

/* --- panics (panic.c) --- */

/* Ends the program with `status` (exit(code), LANGUAGE.md §8): standard
 * output flushed, atexit handlers run; the first thread to end the
 * program wins, as in mos_panic. */
_Noreturn void rt_exit(int status);

/* write(2)s all n bytes, again after EINTR and short writes; returns 0,
 * or the errno of the write that failed.  Async-signal-safe. */
int rt_write_all(int fd, const char *p, size_t n);

/* "index out of bounds: index I, length N", the message codegen's checks
 * build too. */
_Noreturn void rt_out_of_bounds(const char *where, int64_t index, int64_t length);
/* Panics unless 0 <= a <= b <= length, the bounds of slice(a, b) on a
 * string or an array. */
void rt_check_slice(const char *where, int64_t a, int64_t b, int64_t length);

/* Formats a message with printf and panics with it. */
_Noreturn void rt_panicf(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes "WHERE: runtime error: MESSAGE\n" to stderr and exits 101 without
 * touching anything that is not async-signal-safe; for the fault handler. */
_Noreturn void rt_panic_from_signal(const char *where, const char *message);

/* mos_panic's protocol with `details(ctx)` written after the message line,
 * instead of the failing thread's frames (the deadlock report: the thread
 * that finds a deadlock is not one of those stuck in it). */
_Noreturn void rt_panic_with(const char *where, const char *message,
                             void (*details)(void *ctx), void *ctx);

/* --- frames of -g programs (backtrace.c) --- */

/* Where the bytes of a frame linked at `frame` can be read now (frames of
 * a suspended turn are elsewhere), or NULL if nowhere. */
typedef const MosFrame *(*RtFrameReader)(const MosFrame *frame, void *ctx);
/* Writes the chain from `top` to fd, a line "INDENTat NAME (FILE:LINE)" a
 * frame, the innermost at the line of `where` ("FILE:LINE:COL", may be
 * NULL).  `read` (NULL: frames are where they were linked) finds them.
 * Nothing at all for an empty chain.  Async-signal-safe. */
void rt_backtrace_write(int fd, const MosFrame *top, const char *where, RtFrameReader read,
                        void *ctx, const char *indent);

#endif
