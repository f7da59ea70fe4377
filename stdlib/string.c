/* string.c — Mosaic strings: immutable byte sequences with a length.
 *
 * A MosString (mosaic_rt.h) is a length and a pointer to the bytes.  A
 * string made whole (rt_string_new: conversions, slices, input) is one GC
 * block, the header and then the bytes and a NUL; it is "atomic" (the
 * collector never scans it: its one pointer points into itself).  The
 * bytes may contain NULs (`"\0"` is a string of length 1), so nothing
 * here uses strlen or strcmp on a Mosaic string: comparisons go by length
 * and memcmp; rt_string_cstr makes a C string when a system call needs
 * one.
 *
 * Concatenation and growable buffers.  `s += x` in a loop would copy s
 * every time, quadratic in the final length, if every concatenation made a
 * string of its own.  Instead a concatenation's bytes go into a
 * MosStringBuffer, and its result is a small header pointing at the
 * buffer's start.  Every string in a buffer is a prefix of the buffer's
 * bytes, and the buffer knows how many of its bytes are in use: when the
 * left operand of a concatenation is exactly that long (nobody has
 * appended to its buffer since it was made), the right operand is copied
 * after it, in place, and the new, longer prefix is the result — a
 * compare-and-swap on `used` decides who appends when two threads try
 * with the same string.  Every existing string is unchanged: strings are
 * immutable, and bytes past a string's length are nobody's business.
 * When there is no room, the next buffer is twice the new length, so a
 * string built by repeated `+=` costs time and memory linear in its
 * length; a first concatenation (of a string without a buffer) makes a
 * buffer of the exact size, so a one-off `a + b` wastes nothing.  A new
 * buffer comes with the header of its first string in the same block
 * (fresh_buffer), so a one-off concatenation is one allocation; only the
 * strings appended in place after it need headers of their own.
 *
 * A chain `a + b + c + ...` is one call (mos_string_concat_n, from
 * codegen/expr.c): the parts are measured, ints by their number of digits
 * alone, then written once into the result.
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

#include <stdatomic.h>
#include <string.h>

#include <gc.h>

/* Strings the runtime hands out without allocating: "", "true", "false".
 * Never written (strings are immutable), and outside the GC heap, so the
 * collector ignores pointers to them. */
#define STATIC_STRING(name, text) \
    static const MosString name = { sizeof(text) - 1, (char *)text, NULL }

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
    rt_gc_poll();
    size_t size = sizeof(MosString) + (size_t)length + 1;
    MosString *s = GC_malloc_atomic(size);
    if (!s)
        rt_panicf(RT_NOWHERE, "out of memory: string of %lld bytes",
                  (long long)length);
    s->length = length;
    s->bytes = (char *)(s + 1);
    s->buffer = NULL;
    s->bytes[length] = '\0';
    return s;
}

const char *rt_string_cstr(const MosString *s)
{
    if (!s->buffer)
        return s->bytes;    /* NUL-terminated */
    MosString *copy = rt_string_new(s->bytes, s->length);
    return copy->bytes;
}

MosString *rt_string_new(const char *bytes, int64_t length)
{
    MosString *s = rt_string_alloc(length);
    if (length > 0)
        memcpy(s->bytes, bytes, (size_t)length);
    return s;
}

MosString *rt_string_in_new_block(RtStringBlock *b, const char *bytes, int64_t length,
                                  size_t block_bytes, const char *where)
{
    size_t room = rt_string_block_room(length);
    if (room == 0)
        return length == 0 ? rt_empty_string() : rt_string_new(bytes, length);
    if (block_bytes < room)
        block_bytes = room;
    b->free = GC_malloc_atomic(block_bytes);
    if (!b->free)
        rt_panicf(where, "out of memory: string of %lld bytes", (long long)length);
    b->left = block_bytes;
    return rt_string_in_block(b, bytes, length, block_bytes, where);
}

struct MosStringBuffer {
    _Atomic int64_t used;   /* bytes in use: the longest string's length */
    int64_t capacity;       /* bytes of room, not counting a final NUL */
    char data[];
};

/* A header for the first `length` bytes of buf: scanned (it points into
 * the buffer), unlike the buffer itself. */
static MosString *prefix_of(MosStringBuffer *buf, int64_t length)
{
    MosString *s = GC_malloc(sizeof(MosString));
    if (!s)
        rt_panicf(RT_NOWHERE, "out of memory: string of %lld bytes",
                  (long long)length);
    s->length = length;
    s->bytes = buf->data;
    s->buffer = buf;
    return s;
}

/* A new buffer of `capacity` bytes, its first `length` in use, and the
 * header of the string they are, in one block: the header, the buffer,
 * the bytes.  Both of the header's pointers point into its own block, so
 * the block is atomic (never scanned) like rt_string_alloc's; the headers
 * of longer strings appended to the buffer later (prefix_of) point at the
 * buffer, past the first header, and keep the block alive as any pointer
 * into a block does (the collector's default, GC_all_interior_pointers,
 * on which rt_string_in_block relies too).  One allocation, not two: the
 * record a chain `"id" + i + ","...` builds is a header and its bytes. */
static MosString *fresh_buffer(int64_t length, int64_t capacity)
{
    char *block = GC_malloc_atomic(sizeof(MosString) + sizeof(MosStringBuffer) +
                                   (size_t)capacity + 1);
    if (!block)
        rt_panicf(RT_NOWHERE, "out of memory: string of %lld bytes",
                  (long long)length);
    MosString *s = (MosString *)(void *)block;
    MosStringBuffer *buf = (MosStringBuffer *)(void *)(block + sizeof(MosString));
    atomic_init(&buf->used, length);
    buf->capacity = capacity;
    s->length = length;
    s->bytes = buf->data;
    s->buffer = buf;
    return s;
}

/* The digits of 0..99 in pairs: formatting takes two digits per division,
 * written from the end, once the number's length is known. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t powers_of_10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
    1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
    1000000000000000000ull, 10000000000000000000ull,
};

/* The number of decimal digits of u, without a loop: a number of b bits
 * has t = floor(b * log10(2)) digits or one more, and one compare with
 * 10^t tells which.  (b * 1233) >> 12 is that t for every b up to 64:
 * 1233 / 4096 is below log10(2) by 4.6e-6, so by less than 3e-4 over 64
 * bits, and b * log10(2) is never that close above an integer for b from
 * 1 to 64.  u | 1 has the digits of u and is never 0. */
static inline int decimal_length(uint64_t u)
{
    u |= 1;
    int guess = ((64 - __builtin_clzll(u)) * 1233) >> 12;
    return guess + (u >= powers_of_10[guess]);
}

int rt_int_length(int64_t v)
{
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    return (v < 0) + decimal_length(u);
}

/* v in decimal at buf, without a NUL; its length.  Inline, for the
 * chains that format several ints each.  Two digits per step, from the
 * end; in 32 bits once the rest fits (the usual int: a cheaper division). */
static inline int format_int(int64_t v, char *buf)
{
    /* the magnitude as unsigned, so INT64_MIN needs no special case */
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    int sign = v < 0, len = sign + decimal_length(u);
    char *p = buf + len;
    while (u > UINT32_MAX) {
        p -= 2;
        memcpy(p, &digit_pairs[(u % 100) * 2], 2);
        u /= 100;
    }
    uint32_t w = (uint32_t)u;
    while (w >= 100) {
        p -= 2;
        memcpy(p, &digit_pairs[(w % 100) * 2], 2);
        w /= 100;
    }
    if (w >= 10)
        memcpy(p - 2, &digit_pairs[w * 2], 2);
    else
        p[-1] = (char)('0' + w);
    if (sign)
        buf[0] = '-';
    return len;
}

int rt_format_int(int64_t v, char *buf)
{
    int len = format_int(v, buf);
    buf[len] = '\0';
    return len;
}

/* What a concatenation appends after its left operand: one string, or
 * the parts of a chain `a + b + c + ...` (ints formatted on the way). */
typedef struct Tail {
    const MosString *string;        /* one string, or NULL: */
    const MosPart *parts;           /* these */
    int64_t nparts;
} Tail;

static void write_tail(char *dst, const Tail *t)
{
    if (t->string) {
        memcpy(dst, t->string->bytes, (size_t)t->string->length);
        return;
    }
    for (int64_t i = 0; i < t->nparts; i++) {
        const MosPart *p = &t->parts[i];
        if (p->is_int) {
            dst += format_int(p->word, dst);
        } else {
            const MosString *s = or_empty((MosString *)(uintptr_t)p->word);
            rt_copy_bytes(dst, s->bytes, (size_t)s->length);
            dst += s->length;
        }
    }
}

/* a followed by `extra` bytes that write_tail(tail) provides. */
static MosString *append(MosString *a, int64_t extra, const Tail *tail)
{
    /* both lengths are below RT_MAX_ALLOC: the sum cannot overflow */
    int64_t length = a->length + extra;
    if ((uint64_t)length > RT_MAX_ALLOC)
        mos_panic(RT_NOWHERE, "out of memory: string too long");
    MosStringBuffer *buf = a->buffer;
    int64_t end = a->length;
    if (buf && length <= buf->capacity &&
        atomic_compare_exchange_strong_explicit(&buf->used, &end, length,
                                                memory_order_relaxed,
                                                memory_order_relaxed)) {
        /* a was the whole buffer, and the room after it is ours now */
        write_tail(buf->data + a->length, tail);
        buf->data[length] = '\0';
        return prefix_of(buf, length);
    }
    /* a new buffer: with room to grow when a is being built by
     * concatenation already, of the exact size for a first one */
    int64_t capacity = buf ? 2 * length : length;
    if ((uint64_t)capacity > RT_MAX_ALLOC)
        capacity = length;
    MosString *s = fresh_buffer(length, capacity);
    rt_copy_bytes(s->bytes, a->bytes, (size_t)a->length);
    write_tail(s->bytes + a->length, tail);
    s->bytes[length] = '\0';
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
    Tail tail = {b, NULL, 0};
    return append(a, b->length, &tail);
}

/* The chain parts[0] + parts[1] + ... at once: one buffer (or the room
 * left in the first part's), instead of one string per `+` and per
 * number.  Codegen passes the parts of chains of three or more. */
MosString *mos_string_concat_n(const MosPart *parts, int64_t n)
{
    /* a first string is appended to; a first int is a part like the rest */
    int64_t from = parts[0].is_int ? 0 : 1;
    MosString *first = from ? or_empty((MosString *)(uintptr_t)parts[0].word)
                            : rt_empty_string();
    /* measured first (an int by its digits alone), then written once */
    int64_t extra = 0;
    for (int64_t i = from; i < n; i++)
        extra += parts[i].is_int ? rt_int_length(parts[i].word)
                                 : or_empty((MosString *)(uintptr_t)parts[i].word)->length;
    if (extra == 0)
        return first;
    Tail tail = {NULL, parts + from, n - from};
    return append(first, extra, &tail);
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
