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
 * memset.
 *
 * Not here: arrays (array.c, which adds the length header and typed
 * defaults), strings (string.c), and any explicit free — the collector
 * owns every block.
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

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
    void *p = GC_malloc(block_size(bytes));
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of %lld bytes",
                  (long long)bytes);
    return p;
}

void *mos_alloc_atomic(int64_t bytes)
{
    size_t size = block_size(bytes);
    void *p = GC_malloc_atomic(size);
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of %lld bytes",
                  (long long)bytes);
    memset(p, 0, size);
    return p;
}
