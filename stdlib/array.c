/* array.c — `new [T](n)`: arrays of default values; array methods.
 *
 * A MosArray (mosaic_rt.h) is one GC block: the int64_t length, then the
 * elements, each elem_size bytes (8, or 1 for bool), starting 8 bytes in
 * so they are 8-aligned.  What the elements default to depends on what
 * they are (elem_kind, chosen by codegen from the element type):
 *
 *   MOS_ELEM_PLAIN   numbers and bools: zero bits; the block is atomic
 *                    (never scanned), so big numeric arrays cost the
 *                    collector nothing;
 *   MOS_ELEM_REF     objects, arrays, futures: NULL, in a scanned block;
 *   MOS_ELEM_STRING  strings: the shared static "" (a string is never
 *                    NULL), in a scanned block.
 *
 * A negative length is the program's error, reported at `where` with
 * "negative array length"; a size that does not fit the address space or
 * the heap is "out of memory".  Array literals also come through here
 * (codegen stores the elements after).
 *
 * Under --count-remote (remote.c) each array has a node word in front of
 * it, MOS_ARRAY_NODE_PREFIX bytes into its block, and the collector is
 * told that pointers that far into a block keep it alive.
 *
 * The array methods that keep the length are here too: slice (a new
 * array), reverse (in place), and index_of (contains is index_of >= 0).
 *
 * Not here: bounds checks (codegen emits them inline), element access.
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

MosArray *mos_array_new(int64_t length, int64_t elem_size, int32_t elem_kind,
                        const char *where)
{
    return mos_array_new_at(length, elem_size, elem_kind, where,
                            rt_remote_enabled ? mos_node_id() : 0);
}

MosArray *mos_array_new_at(int64_t length, int64_t elem_size, int32_t elem_kind,
                           const char *where, int64_t node)
{
    if (length < 0)
        rt_panicf(where, "negative array length: %lld", (long long)length);
    if (elem_size <= 0)
        elem_size = 1;  /* not produced by codegen; keeps the maths sane */
    /* header + length * elem_size must fit; checked by division so the
     * check itself cannot overflow */
    uint64_t limit = RT_MAX_ALLOC - sizeof(MosArray);
    if ((uint64_t)length > limit / (uint64_t)elem_size)
        rt_panicf(where, "out of memory: array of %lld elements",
                  (long long)length);
    size_t prefix = rt_remote_enabled ? MOS_ARRAY_NODE_PREFIX : 0;
    size_t size = prefix + sizeof(MosArray) + (size_t)length * (size_t)elem_size;

    char *block;
    if (elem_kind == MOS_ELEM_PLAIN) {
        block = GC_malloc_atomic(size);
        if (block)
            memset(block, 0, size);
    } else {
        block = GC_malloc(size);    /* zeroed: NULL references */
    }
    if (!block)
        rt_panicf(where, "out of memory: array of %lld elements",
                  (long long)length);
    MosArray *a = (MosArray *)(void *)(block + prefix);
    if (prefix)
        ((int64_t *)(void *)a)[-1] = node;
    a->length = length;
    if (elem_kind == MOS_ELEM_STRING) {
        MosString *empty = rt_empty_string();
        MosString **elems = (MosString **)(void *)a->data;
        for (int64_t i = 0; i < length; i++)
            elems[i] = empty;
    }
    return a;
}

/* ---- the array methods that keep the length (LANGUAGE.md §9) ------------ */

static MosArray *not_null(MosArray *xs, const char *where)
{
    if (!xs)
        mos_panic(where, "null dereference");
    return xs;
}

MosArray *mos_array_slice(MosArray *xs, int64_t a, int64_t b,
                          int64_t elem_size, int32_t elem_kind,
                          const char *where)
{
    rt_check_slice(where, a, b, not_null(xs, where)->length);
    MosArray *r = mos_array_new(b - a, elem_size, elem_kind, where);
    memcpy(r->data, xs->data + a * elem_size, (size_t)((b - a) * elem_size));
    return r;
}

void mos_array_reverse(MosArray *xs, int64_t elem_size, const char *where)
{
    not_null(xs, where);
    if (elem_size == 1) {
        for (int64_t i = 0, j = xs->length - 1; i < j; i++, j--) {
            char t = xs->data[i];
            xs->data[i] = xs->data[j];
            xs->data[j] = t;
        }
        return;
    }
    int64_t *w = (int64_t *)(void *)xs->data;
    for (int64_t i = 0, j = xs->length - 1; i < j; i++, j--) {
        int64_t t = w[i];
        w[i] = w[j];
        w[j] = t;
    }
}

/* index_of by the element's `==` (LANGUAGE.md §3): ints and references
 * by their 8 bytes, floats by IEEE equality (a NaN is never found, -0.0
 * finds 0.0), bools by their byte, strings by their contents. */
int64_t mos_array_index_of_word(MosArray *xs, int64_t v, const char *where)
{
    const int64_t *w = (const int64_t *)(const void *)not_null(xs, where)->data;
    for (int64_t i = 0; i < xs->length; i++)
        if (w[i] == v)
            return i;
    return -1;
}

int64_t mos_array_index_of_float(MosArray *xs, double v, const char *where)
{
    const double *d = (const double *)(const void *)not_null(xs, where)->data;
    for (int64_t i = 0; i < xs->length; i++)
        if (d[i] == v)
            return i;
    return -1;
}

int64_t mos_array_index_of_bool(MosArray *xs, int32_t v, const char *where)
{
    const char *b = not_null(xs, where)->data;
    for (int64_t i = 0; i < xs->length; i++)
        if ((b[i] != 0) == (v != 0))
            return i;
    return -1;
}

int64_t mos_array_index_of_string(MosArray *xs, MosString *v,
                                  const char *where)
{
    MosString *const *s = (MosString *const *)(const void *)not_null(xs, where)->data;
    for (int64_t i = 0; i < xs->length; i++)
        if (mos_string_eq(s[i], v))
            return i;
    return -1;
}
