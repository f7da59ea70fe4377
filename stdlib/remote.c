/* remote.c — counting remote accesses (LANGUAGE.md §5, "Measured effects").
 *
 * A program compiled with --count-remote carries mos_remote_table, the
 * list of its instrumented access sites (mosaic_rt.h); the runtime finds
 * it through a weak reference, so programs compiled without the flag pay
 * nothing and link as before.  Every instrumented read or write calls
 * mos_cr_access with the node of the object or array it touches; when
 * that is not the running code's node (mos_node_id: the running actor's
 * home, node 0 in main) the access is remote and two counters go up: the
 * site's, and the (from, to) pair's.  Counters are relaxed atomics: the
 * totals only need to be right once the program has stopped.
 *
 * The report is written when the program ends, whichever way: from an
 * atexit handler (a normal end, `exit`, a runtime error: panic.c exits
 * through exit()) or, for faults caught by the signal handler (stack
 * overflow), by rt_panic_from_signal directly.  It comes after everything
 * else the program wrote, in the format of §5: the totals, one line per
 * (from, to) pair with a count, one line per source line with a count —
 * marked "(not predicted)" when a site counted there was not predicted
 * remote by the static effects, which would be a compiler bug.
 *
 * A distributed program (LANGUAGE.md §10) counts in each process, and also
 * the messages and bytes each sends to each other node (the transport
 * calls rt_remote_count_message).  As it ends, the transport sums every
 * process's counters into node 0's (rt_remote_counters: all of them are
 * one array of words), and only node 0 writes the report, which then has
 * one `sent from node A to node B` line per pair that exchanged messages.
 */
#include "rt_internal.h"
#include "rt_actors.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gc.h>

extern const MosRemoteTable mos_remote_table __attribute__((weak));

int rt_remote_enabled;

static const MosRemoteTable *table;
static _Atomic uint64_t *counters;      /* the three below, in one block */
static size_t ncounters;
static _Atomic uint64_t *site_counts;   /* [site][0 read, 1 write] */
static _Atomic uint64_t *pair_counts;   /* [from][to][0 read, 1 write] */
static _Atomic uint64_t *message_counts;    /* [from][to][0 messages, 1 bytes] */
static int report_elsewhere;            /* another process writes the report */
static int64_t nnodes;
static atomic_flag reported = ATOMIC_FLAG_INIT;
/* The report's memory, taken at start-up: the report may be written from
 * the fault handler, where allocating is not safe. */
struct LineCount {
    int64_t line;
    uint64_t reads, writes;
    int unpredicted;
};
static struct LineCount *lines;
static char *report_buf;
static size_t report_cap;

_Static_assert(sizeof(MosRemoteSite) == 16, "codegen emits { i64, i64 } sites");
_Static_assert(sizeof(MosRemoteTable) == 32, "codegen emits { i64, ptr, ptr, ptr }");

static void report_at_exit(void)
{
    rt_remote_report();
}

void rt_remote_start(void)
{
    if (!&mos_remote_table)
        return;
    table = &mos_remote_table;
    nnodes = rt_topology()->nodes;
    size_t nsites = table->nsites > 0 ? (size_t)table->nsites : 1;
    size_t npairs = (size_t)(nnodes * nnodes);
    ncounters = nsites * 2 + npairs * 4;
    counters = calloc(ncounters, sizeof *counters);
    site_counts = counters;
    pair_counts = counters ? counters + nsites * 2 : NULL;
    message_counts = counters ? pair_counts + npairs * 2 : NULL;
    lines = calloc(nsites, sizeof(struct LineCount));
    /* two lines per pair and one per site, each well under 96 bytes besides
     * the path */
    report_cap = (nsites + 2 * npairs + 1) * (96 + strlen(table->file));
    report_buf = malloc(report_cap);
    if (!counters || !lines || !report_buf)
        rt_panicf(RT_NOWHERE, "out of memory: cannot count remote accesses");
    /* arrays start MOS_ARRAY_NODE_PREFIX bytes into their blocks */
    GC_register_displacement(MOS_ARRAY_NODE_PREFIX);
    rt_remote_enabled = 1;
    atexit(report_at_exit);
}

void mos_cr_access(int64_t node, int64_t site, int32_t write)
{
    int64_t here = mos_node_id();
    if (node == here || !site_counts || site < 0 || site >= table->nsites)
        return;
    if (node < 0 || node >= nnodes)
        node = 0;   /* not produced by codegen; keeps the index in range */
    int w = write ? 1 : 0;
    atomic_fetch_add_explicit(&site_counts[site * 2 + w], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&pair_counts[(here * nnodes + node) * 2 + w], 1,
                              memory_order_relaxed);
}

void rt_remote_count_message(int64_t from, int64_t to, uint64_t bytes)
{
    if (!message_counts || from < 0 || from >= nnodes || to < 0 || to >= nnodes)
        return;
    atomic_fetch_add_explicit(&message_counts[(from * nnodes + to) * 2], 1,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&message_counts[(from * nnodes + to) * 2 + 1], bytes,
                              memory_order_relaxed);
}

uint64_t *rt_remote_counters(size_t *n)
{
    *n = ncounters;
    return (uint64_t *)counters;
}

void rt_remote_report_elsewhere(void)
{
    report_elsewhere = 1;
}

/* ---- the report ------------------------------------------------------------- */


static int by_line(const void *a, const void *b)
{
    const struct LineCount *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The report's text, in report_buf, written out in one go at the end. */
typedef struct Out {
    char *buf;
    size_t len, cap;
} Out;

static void out_printf(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(Out *o, const char *fmt, ...)
{
    if (o->len >= o->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n < o->cap - o->len ? (size_t)n : o->cap - o->len - 1;
}

static uint64_t count(_Atomic uint64_t *c)
{
    return atomic_load_explicit(c, memory_order_relaxed);
}

/* All of buf to fd, unless it fails (no allocation: the report is written
 * at exit, perhaps after a runtime error). */
static bool write_all(int fd, const char *buf, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = write(fd, buf + done, len - done);
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}

void rt_remote_report(void)
{
    if (!site_counts || report_elsewhere || atomic_flag_test_and_set(&reported))
        return;
    Out o = {report_buf, 0, report_cap};
    uint64_t reads = 0, writes = 0;
    for (int64_t i = 0; i < nnodes * nnodes; i++) {
        reads += count(&pair_counts[i * 2]);
        writes += count(&pair_counts[i * 2 + 1]);
    }
    out_printf(&o, "remote accesses: %llu reads, %llu writes\n",
               (unsigned long long)reads, (unsigned long long)writes);
    for (int64_t from = 0; from < nnodes; from++)
        for (int64_t to = 0; to < nnodes; to++) {
            uint64_t r = count(&pair_counts[(from * nnodes + to) * 2]);
            uint64_t w = count(&pair_counts[(from * nnodes + to) * 2 + 1]);
            if (r || w)
                out_printf(&o, "  from node %lld to node %lld: %llu reads, %llu writes\n",
                           (long long)from, (long long)to, (unsigned long long)r,
                           (unsigned long long)w);
        }
    for (int64_t from = 0; from < nnodes; from++)
        for (int64_t to = 0; to < nnodes; to++) {
            uint64_t m = count(&message_counts[(from * nnodes + to) * 2]);
            uint64_t b = count(&message_counts[(from * nnodes + to) * 2 + 1]);
            if (m)
                out_printf(&o, "  sent from node %lld to node %lld: %llu messages, %llu bytes\n",
                           (long long)from, (long long)to, (unsigned long long)m,
                           (unsigned long long)b);
        }
    size_t nlines = 0;
    for (int64_t s = 0; s < table->nsites; s++) {
        uint64_t r = count(&site_counts[s * 2]), w = count(&site_counts[s * 2 + 1]);
        if (!r && !w)
            continue;
        lines[nlines++] = (struct LineCount){table->sites[s].line, r, w,
                                             !table->sites[s].predicted};
    }
    qsort(lines, nlines, sizeof *lines, by_line);
    for (size_t i = 0; i < nlines;) {
        struct LineCount sum = lines[i];
        size_t j = i + 1;
        for (; j < nlines && lines[j].line == sum.line; j++) {
            sum.reads += lines[j].reads;
            sum.writes += lines[j].writes;
            sum.unpredicted |= lines[j].unpredicted;
        }
        out_printf(&o, "  at %s:%lld: %llu reads, %llu writes%s\n", table->file,
                   (long long)sum.line, (unsigned long long)sum.reads,
                   (unsigned long long)sum.writes, sum.unpredicted ? " (not predicted)" : "");
        i = j;
    }
    write_all(STDERR_FILENO, o.buf, o.len);
    if (table->report_file) {
        /* a copy for tools (mosaicc --draw=topology --counts FILE); a file
         * that cannot be written is said on stderr, the report stays */
        int fd = open(table->report_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || !write_all(fd, o.buf, o.len)) {
            static const char msg[] = "mosaic: cannot write the remote-access report to ";
            write_all(STDERR_FILENO, msg, sizeof msg - 1);
            write_all(STDERR_FILENO, table->report_file, strlen(table->report_file));
            write_all(STDERR_FILENO, "\n", 1);
        }
        if (fd >= 0)
            close(fd);
    }
}
