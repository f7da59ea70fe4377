/* alloc.c — the GC heap as generated code sees it.
 *
 * Objects, futures and everything else codegen allocates come from here:
 * mos_alloc for blocks that may hold pointers (the collector scans them),
 * mos_alloc_atomic for blocks that never do (numbers, bytes: never
 * scanned, which keeps collections fast and avoids false retention).  Both
 * return zeroed memory — the language's default values for numbers, bools
 * and references are all-zero bits — and neither ever returns NULL: when
 * the heap cannot grow, the program ends with "out of memory" (LANGUAGE.md
 * §6).  GC_malloc zeroes by itself; GC_malloc_atomic does not, hence the
 * memset — which a constructor does in its own code instead
 * (mos_alloc_atomic_raw, codegen/class.c), where LLVM sees it and keeps
 * only the bytes the fields' initial values do not overwrite.
 *
 * The collector's policy is set here too, once, at start-up (rt_gc_start).
 * Left alone, Boehm GC starts with a heap of a few hundred KiB and collects
 * whenever that is used up and the bytes allocated since the last
 * collection pass a fraction of the live data: a program that makes many
 * short-lived strings or nodes and keeps few then collects thousands of
 * times, each a stop of every thread (an actor program's messages are the
 * same: small, short-lived, and hundreds of stop-the-world rounds a second
 * would signal every worker).  So the heap starts at RT_GC_INITIAL_HEAP
 * (MOSAIC_GC_HEAP chooses another size; the pages are only reserved until
 * used), and a collection waits for at least RT_GC_MIN_BYTES of
 * allocation — a floor that keeps the heap small enough to stay in cache
 * (larger floors cost more in page faults on fresh memory than they
 * save).
 *
 * Parallel marking pays only on a heap big enough to split: the collector
 * starts its marker threads with the first thread a program creates, so
 * a program without actors (whose code runs on the first thread,
 * start.c) would never have them, and one that had them from the start
 * would pay for threads a small run never uses.  So a heap that grows past
 * RT_GC_PARALLEL_HEAP asks for them (on_heap_resize, inside the collector,
 * which cannot start threads there), and the next allocation through
 * here, through an array or a string starts them (rt_gc_poll).
 *
 * Not here: arrays (array.c, which adds the length header and typed
 * defaults), strings (string.c), and any explicit free — the collector
 * owns every block.
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

#define RT_GC_INITIAL_HEAP ((size_t)4 << 20)
#define RT_GC_MIN_BYTES ((size_t)1 << 20)
#define RT_GC_PARALLEL_HEAP ((size_t)32 << 20)

_Atomic int rt_gc_markers = RT_MARKERS_NOT_YET;

static void GC_CALLBACK on_heap_resize(GC_word heap_size)
{
    int not_yet = RT_MARKERS_NOT_YET;
    if (heap_size >= RT_GC_PARALLEL_HEAP)
        atomic_compare_exchange_strong(&rt_gc_markers, &not_yet, RT_MARKERS_WANTED);
}

void rt_gc_start_markers(void)
{
    int wanted = RT_MARKERS_WANTED;
    if (atomic_compare_exchange_strong(&rt_gc_markers, &wanted, RT_MARKERS_STARTED))
        GC_start_mark_threads();    /* nothing if they already run */
}

void rt_gc_start(void)
{
    size_t heap = rt_env_size("MOSAIC_GC_HEAP", (size_t)1 << 20, (size_t)1 << 40,
                              "a size from 1M to 1T (bytes, or with K, M or G)");
    GC_expand_hp(heap ? heap : RT_GC_INITIAL_HEAP);     /* best effort */
    if (GC_get_min_bytes_allocd() < RT_GC_MIN_BYTES)
        GC_set_min_bytes_allocd(RT_GC_MIN_BYTES);
    GC_set_on_heap_resize(on_heap_resize);
}

/* GC_malloc(0) is legal but a zero-sized object can share its address
 * with the next one; one byte keeps identities distinct. */
static size_t block_size(int64_t bytes)
{
    if (bytes < 0 || (uint64_t)bytes > RT_MAX_ALLOC)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of %lld bytes",
                  (long long)bytes);
    return bytes == 0 ? 1 : (size_t)bytes;
}

void *mos_alloc(int64_t bytes)
{
    rt_gc_poll();
    void *p = GC_malloc(block_size(bytes));
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of %lld bytes",
                  (long long)bytes);
    return p;
}

void *mos_alloc_atomic_raw(int64_t bytes)
{
    rt_gc_poll();
    void *p = GC_malloc_atomic(block_size(bytes));
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of %lld bytes",
                  (long long)bytes);
    return p;
}

void *mos_alloc_atomic(int64_t bytes)
{
    void *p = mos_alloc_atomic_raw(bytes);
    memset(p, 0, block_size(bytes));
    return p;
}
