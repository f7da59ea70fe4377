/* array.c — `new [T](n)`: arrays of default values.
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
 * Not here: bounds checks (codegen emits them inline), element access.
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

MosArray *mos_array_new(int64_t length, int64_t elem_size, int32_t elem_kind,
                        const char *where)
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
    size_t size = sizeof(MosArray) + (size_t)length * (size_t)elem_size;

    MosArray *a;
    if (elem_kind == MOS_ELEM_PLAIN) {
        a = GC_malloc_atomic(size);
        if (a)
            memset(a, 0, size);
    } else {
        a = GC_malloc(size);    /* zeroed: NULL references */
    }
    if (!a)
        rt_panicf(where, "out of memory: array of %lld elements",
                  (long long)length);
    a->length = length;
    if (elem_kind == MOS_ELEM_STRING) {
        MosString *empty = rt_empty_string();
        MosString **elems = (MosString **)(void *)a->data;
        for (int64_t i = 0; i < length; i++)
            elems[i] = empty;
    }
    return a;
}
