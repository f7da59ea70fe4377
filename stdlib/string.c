/* string.c — Mosaic strings: immutable byte sequences with a length.
 *
 * A MosString (mosaic_rt.h) is one GC block: the length, the bytes, and a
 * NUL after them for C's convenience.  The bytes may contain NULs (`"\0"`
 * is a string of length 1), so nothing here uses strlen or strcmp on a
 * Mosaic string: comparisons go by length and memcmp.  Blocks are
 * allocated "atomic" (the collector never scans them for pointers).
 *
 * Strings are immutable, so sharing is free: concatenation with "" returns
 * the other operand, and every default "" is the same static string.  The
 * ABI says a string is never NULL; the functions here still read NULL as ""
 * — a cheap guard against a codegen slip (an object field left zeroed)
 * turning into a crash.
 *
 * What lives here: construction (rt_string_new, the ABI's conversions
 * from int/float/bool), concatenation, equality, ordering, and the decimal
 * formatting of ints that printing shares.  Not here: UTF-8 awareness (the
 * language counts bytes), and the string methods (text.c).
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

/* Strings the runtime hands out without allocating: "", "true", "false".
 * Same layout as MosString (an int64_t length, then the bytes and a NUL),
 * declared with a fixed array because C does not allow initialising a
 * flexible array member.  Never written (strings are immutable), and
 * outside the GC heap, so the collector ignores pointers to them. */
#define STATIC_STRING(name, text) \
    static const struct { int64_t length; char bytes[sizeof(text)]; } \
        name = { sizeof(text) - 1, text }

STATIC_STRING(empty_string, "");
STATIC_STRING(true_string, "true");
STATIC_STRING(false_string, "false");

MosString *rt_empty_string(void)
{
    return (MosString *)&empty_string;
}

static MosString *or_empty(MosString *s)
{
    return s ? s : rt_empty_string();
}

MosString *rt_string_alloc(int64_t length)
{
    if (length <= 0)
        return rt_empty_string();
    if ((uint64_t)length > RT_MAX_ALLOC)
        mos_panic(RT_NOWHERE, "out of memory: string too long");
    size_t size = sizeof(MosString) + (size_t)length + 1;
    MosString *s = GC_malloc_atomic(size);
    if (!s)
        rt_panicf(RT_NOWHERE, "out of memory: string of %lld bytes",
                  (long long)length);
    s->length = length;
    s->bytes[length] = '\0';
    return s;
}

MosString *rt_string_new(const char *bytes, int64_t length)
{
    MosString *s = rt_string_alloc(length);
    if (length > 0)
        memcpy(s->bytes, bytes, (size_t)length);
    return s;
}

MosString *mos_string_concat(MosString *a, MosString *b)
{
    a = or_empty(a);
    b = or_empty(b);
    if (a->length == 0)
        return b;
    if (b->length == 0)
        return a;
    /* both lengths are below RT_MAX_ALLOC: the sum cannot overflow */
    int64_t length = a->length + b->length;
    if ((uint64_t)length > RT_MAX_ALLOC)
        mos_panic(RT_NOWHERE, "out of memory: string too long");
    MosString *s = GC_malloc_atomic(sizeof(MosString) + (size_t)length + 1);
    if (!s)
        rt_panicf(RT_NOWHERE, "out of memory: string of %lld bytes",
                  (long long)length);
    s->length = length;
    memcpy(s->bytes, a->bytes, (size_t)a->length);
    memcpy(s->bytes + a->length, b->bytes, (size_t)b->length);
    s->bytes[length] = '\0';
    return s;
}

int rt_format_int(int64_t v, char *buf)
{
    char tmp[RT_INT_BUF];
    int n = 0;
    /* work on the magnitude as unsigned so INT64_MIN needs no special case */
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    int len = 0;
    if (v < 0)
        buf[len++] = '-';
    while (n > 0)
        buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

MosString *mos_string_from_int(int64_t v)
{
    char buf[RT_INT_BUF];
    int n = rt_format_int(v, buf);
    return rt_string_new(buf, n);
}

MosString *mos_string_from_float(double v)
{
    char buf[RT_FLOAT_BUF];
    int n = rt_format_float(v, buf);
    return rt_string_new(buf, n);
}

MosString *mos_string_from_bool(int32_t v)
{
    return (MosString *)(v ? (const void *)&true_string
                           : (const void *)&false_string);
}

int32_t mos_string_eq(MosString *a, MosString *b)
{
    a = or_empty(a);
    b = or_empty(b);
    if (a == b)
        return 1;
    if (a->length != b->length)
        return 0;
    return memcmp(a->bytes, b->bytes, (size_t)a->length) == 0;
}

int64_t mos_string_cmp(MosString *a, MosString *b)
{
    a = or_empty(a);
    b = or_empty(b);
    if (a == b)
        return 0;
    int64_t common = a->length < b->length ? a->length : b->length;
    int c = memcmp(a->bytes, b->bytes, (size_t)common);
    if (c != 0)
        return c < 0 ? -1 : 1;
    if (a->length != b->length)
        return a->length < b->length ? -1 : 1;
    return 0;
}
