/* array.c — arrays: `new [T](n)`, growth, and the array methods
 * (LANGUAGE.md §2, §9).
 *
 * A MosArray (mosaic_rt.h) is a header — length, data pointer, capacity,
 * element size and kind — whose elements start, when it is made, right
 * after it in the same GC block, so `new [T](n)` and a literal cost one
 * allocation.  What the elements default to, and how the collector sees
 * them, depends on what they are (elem_kind, chosen by codegen from the
 * element type):
 *
 *   MOS_ELEM_PLAIN   numbers and bools: zero bits.  The block is typed
 *                    (gc_typed.h): only the data pointer is scanned, so
 *                    big numeric arrays cost the collector nothing, and
 *                    grown storage is an atomic block of its own;
 *   MOS_ELEM_REF     objects, arrays, futures: NULL, in a scanned block;
 *   MOS_ELEM_STRING  strings: the shared static "" (a string is never
 *                    NULL), in a scanned block.
 *
 * Growing (push, insert past the capacity) allocates storage of twice the
 * capacity and copies the elements; the old storage is left to the
 * collector, which keeps it while any address into it is live, so no
 * element ever moves under code that holds its address — generated code
 * reloads `data` after every call (codegen/access.c).  Shrinking keeps the
 * capacity, and clears the vacated slots of reference arrays so that they
 * keep nothing alive.
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
 * Not here: bounds checks of `xs[i]` (codegen emits them inline), element
 * access, sort (sort.c).
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>
#include <gc/gc_typed.h>

/* The descriptors of a plain array's block: only the header's data word
 * may hold a pointer, without and with the node prefix in front. */
static GC_descr plain_descr[2];
static pthread_once_t plain_descr_once = PTHREAD_ONCE_INIT;

static void make_plain_descr(void)
{
    for (int prefixed = 0; prefixed < 2; prefixed++) {
        size_t word = (prefixed ? MOS_ARRAY_NODE_PREFIX : 0) / sizeof(GC_word) +
                      offsetof(MosArray, data) / sizeof(GC_word);
        GC_word bitmap[1] = {0};
        GC_set_bit(bitmap, word);
        plain_descr[prefixed] = GC_make_descriptor(bitmap, word + 1);
    }
}

static _Noreturn void too_big(int64_t length, const char *where)
{
    rt_panicf(where, "out of memory: array of %lld elements", (long long)length);
}

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
    uint64_t limit = RT_MAX_ALLOC - sizeof(MosArray) - MOS_ARRAY_NODE_PREFIX;
    if ((uint64_t)length > limit / (uint64_t)elem_size)
        too_big(length, where);
    size_t prefix = rt_remote_enabled ? MOS_ARRAY_NODE_PREFIX : 0;
    size_t size = prefix + sizeof(MosArray) + (size_t)length * (size_t)elem_size;

    rt_gc_poll();
    char *block;
    if (elem_kind == MOS_ELEM_PLAIN) {
        pthread_once(&plain_descr_once, make_plain_descr);
        block = GC_malloc_explicitly_typed(size, plain_descr[prefix != 0]);  /* zeroed */
    } else {
        block = GC_malloc(size);    /* zeroed: NULL references */
    }
    if (!block)
        too_big(length, where);
    MosArray *a = (MosArray *)(void *)(block + prefix);
    if (prefix)
        ((int64_t *)(void *)a)[-1] = node;
    rt_array_header_init(a, length, (size_t)elem_size, elem_kind);
    if (elem_kind == MOS_ELEM_STRING) {
        MosString *empty = rt_empty_string();
        MosString **elems = (MosString **)(void *)a->data;
        for (int64_t i = 0; i < length; i++)
            elems[i] = empty;
    }
    return a;
}

/* ---- the methods that change the length (LANGUAGE.md §9) ----------------- */

static MosArray *not_null(MosArray *xs, const char *where)
{
    if (!xs)
        mos_panic(where, "null dereference");
    return xs;
}

/* Makes room for at least `need` elements: twice the capacity (8 at
 * least), in fresh storage, the elements copied.  The header is written
 * data first, so a reader that sees the new capacity sees the new data. */
static void reserve(MosArray *xs, int64_t need, const char *where)
{
    if (need <= xs->capacity)
        return;
    int64_t cap = xs->capacity < 4 ? 8 : xs->capacity * 2;
    if (cap < need)
        cap = need;
    uint64_t limit = RT_MAX_ALLOC / (uint64_t)xs->elem_size;
    if ((uint64_t)need > limit)
        too_big(need, where);
    if ((uint64_t)cap > limit)
        cap = (int64_t)limit;
    size_t bytes = (size_t)cap * (size_t)xs->elem_size;
    char *data = xs->elem_kind == MOS_ELEM_PLAIN ? GC_malloc_atomic(bytes) : GC_malloc(bytes);
    if (!data)
        too_big(need, where);
    memcpy(data, xs->data, (size_t)xs->length * (size_t)xs->elem_size);
    xs->data = data;
    xs->capacity = cap;
}

/* An element as a word (mosaic_rt.h), stored at or loaded from slot i. */
static void put(MosArray *xs, int64_t i, int64_t value)
{
    if (xs->elem_size == 1)
        xs->data[i] = (char)(value != 0);
    else
        ((int64_t *)(void *)xs->data)[i] = value;
}

static int64_t get(const MosArray *xs, int64_t i)
{
    if (xs->elem_size == 1)
        return xs->data[i] != 0;
    return ((const int64_t *)(const void *)xs->data)[i];
}

/* The slot at i no longer holds an element: it must not keep an object
 * alive. */
static void vacate(MosArray *xs, int64_t i)
{
    if (xs->elem_kind != MOS_ELEM_PLAIN)
        ((int64_t *)(void *)xs->data)[i] = 0;
}

void mos_array_push(MosArray *xs, int64_t value, const char *where)
{
    not_null(xs, where);
    reserve(xs, xs->length + 1, where);
    put(xs, xs->length, value);
    xs->length++;
}

int64_t mos_array_pop(MosArray *xs, const char *where)
{
    not_null(xs, where);
    if (xs->length == 0)
        rt_panicf(where, "index out of bounds: pop from an empty array");
    int64_t last = xs->length - 1;
    int64_t v = get(xs, last);
    vacate(xs, last);
    xs->length = last;
    return v;
}

void mos_array_insert(MosArray *xs, int64_t index, int64_t value, const char *where)
{
    not_null(xs, where);
    if (index < 0 || index > xs->length)
        rt_out_of_bounds(where, index, xs->length);
    reserve(xs, xs->length + 1, where);
    size_t size = (size_t)xs->elem_size;
    memmove(xs->data + (size_t)(index + 1) * size, xs->data + (size_t)index * size,
            (size_t)(xs->length - index) * size);
    put(xs, index, value);
    xs->length++;
}

int64_t mos_array_remove(MosArray *xs, int64_t index, const char *where)
{
    not_null(xs, where);
    if (index < 0 || index >= xs->length)
        rt_out_of_bounds(where, index, xs->length);
    int64_t v = get(xs, index);
    size_t size = (size_t)xs->elem_size;
    memmove(xs->data + (size_t)index * size, xs->data + (size_t)(index + 1) * size,
            (size_t)(xs->length - index - 1) * size);
    xs->length--;
    vacate(xs, xs->length);
    return v;
}

void mos_array_clear(MosArray *xs, const char *where)
{
    not_null(xs, where);
    if (xs->elem_kind != MOS_ELEM_PLAIN)
        memset(xs->data, 0, (size_t)xs->length * (size_t)xs->elem_size);
    xs->length = 0;
}

/* ---- the array methods that keep the length (LANGUAGE.md §9) ------------ */

MosArray *mos_array_slice(MosArray *xs, int64_t a, int64_t b, const char *where)
{
    rt_check_slice(where, a, b, not_null(xs, where)->length);
    MosArray *r = mos_array_new(b - a, xs->elem_size, xs->elem_kind, where);
    memcpy(r->data, xs->data + a * xs->elem_size, (size_t)((b - a) * xs->elem_size));
    return r;
}

void mos_array_reverse(MosArray *xs, const char *where)
{
    not_null(xs, where);
    for (int64_t i = 0, j = xs->length - 1; i < j; i++, j--) {
        int64_t t = get(xs, i);
        put(xs, i, get(xs, j));
        put(xs, j, t);
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
