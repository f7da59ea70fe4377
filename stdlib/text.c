/* text.c — the string methods and text functions of LANGUAGE.md §8.
 *
 * s.slice(a, b), s.find(t), s.contains(t), s.starts_with(t),
 * s.ends_with(t), s.split(sep), s.trim(), s.to_upper(), s.to_lower(), and
 * join(xs, sep) and char(i) (s.byte(i) is a load that codegen/builtins.c
 * emits inline).  Strings are immutable byte sequences
 * (string.c), so every result is a new string, or an operand itself when
 * nothing changes (a slice of the whole, a trim that removes nothing).
 *
 * Linear time throughout: searching is memmem (glibc's two-way algorithm
 * for long needles, so no input makes it quadratic), split counts its
 * pieces first and allocates the array once, join measures the result
 * and copies each piece once.  Indices are byte offsets; case conversion
 * and trimming know ASCII only, as the language says.
 *
 * Runtime errors, at the call's `where`: "index out of bounds" (slice), "invalid argument" (split with an empty separator), "invalid
 * conversion" (char of a value that is not a Unicode scalar value), "null
 * dereference" (join of a null array).
 *
 * Not here: building strings (string.c), parsing numbers (builtins.c).
 */
#include "rt_internal.h"

#include <string.h>

MosString *mos_string_slice(MosString *s, int64_t a, int64_t b,
                            const char *where)
{
    rt_check_slice(where, a, b, s->length);
    if (a == 0 && b == s->length)
        return s;
    return rt_string_new(s->bytes + a, b - a);
}

/* The offset of the first t in s from `from` on, or -1. */
static int64_t find_from(const MosString *s, int64_t from, const MosString *t)
{
    const char *hit = t->length == 1
        ? memchr(s->bytes + from, t->bytes[0], (size_t)(s->length - from))
        : memmem(s->bytes + from, (size_t)(s->length - from), t->bytes, (size_t)t->length);
    return hit ? hit - s->bytes : -1;
}

int64_t mos_string_find(MosString *s, MosString *t)
{
    return find_from(s, 0, t);
}

int32_t mos_string_contains(MosString *s, MosString *t)
{
    return find_from(s, 0, t) >= 0;
}

int32_t mos_string_starts_with(MosString *s, MosString *t)
{
    return t->length <= s->length &&
           memcmp(s->bytes, t->bytes, (size_t)t->length) == 0;
}

int32_t mos_string_ends_with(MosString *s, MosString *t)
{
    return t->length <= s->length &&
           memcmp(s->bytes + s->length - t->length, t->bytes,
                  (size_t)t->length) == 0;
}

/* The pieces of a split are made in blocks (rt_string_in_block) of at
 * most 4 KiB rather than one allocation each: splitting a line into words
 * is the inner loop of most text programs.  The first pass measures the
 * room the pieces need, so a short line takes one block of just its size,
 * and a kept word keeps at most one block alive (a map copies its keys). */
#define PIECE_BLOCK 4096

MosArray *mos_string_split(MosString *s, MosString *sep, const char *where)
{
    if (sep->length == 0)
        rt_panicf(where, "invalid argument: split with an empty separator");
    int64_t pieces = 1, start = 0;
    size_t needed = 0;      /* the room of the pieces not made yet */
    for (int64_t at = find_from(s, 0, sep); at >= 0; at = find_from(s, start, sep)) {
        needed += rt_string_block_room(at - start);
        start = at + sep->length;
        pieces++;
    }
    needed += rt_string_block_room(s->length - start);
    MosArray *xs = mos_array_new(pieces, sizeof(MosString *), MOS_ELEM_STRING,
                                 where);
    MosString **out = (MosString **)(void *)xs->data;
    RtStringBlock block = {NULL, 0};
    start = 0;
    for (int64_t i = 0; i < pieces; i++) {
        int64_t at = i < pieces - 1 ? find_from(s, start, sep) : s->length;
        size_t next = needed < PIECE_BLOCK ? needed : PIECE_BLOCK;
        out[i] = rt_string_in_block(&block, s->bytes + start, at - start, next, where);
        needed -= rt_string_block_room(at - start);
        start = at + sep->length;
    }
    return xs;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r';
}

MosString *mos_string_trim(MosString *s)
{
    int64_t a = 0, b = s->length;
    while (a < b && is_space((unsigned char)s->bytes[a]))
        a++;
    while (b > a && is_space((unsigned char)s->bytes[b - 1]))
        b--;
    if (a == 0 && b == s->length)
        return s;
    return rt_string_new(s->bytes + a, b - a);
}

/* s with every ASCII letter between lo and lo + 25 moved by `shift`. */
static MosString *change_case(MosString *s, char lo, int shift)
{
    MosString *r = rt_string_new(s->bytes, s->length);
    for (int64_t i = 0; i < r->length; i++)
        if (r->bytes[i] >= lo && r->bytes[i] <= lo + 25)
            r->bytes[i] = (char)(r->bytes[i] + shift);
    return r;
}

MosString *mos_string_to_upper(MosString *s)
{
    return change_case(s, 'a', 'A' - 'a');
}

MosString *mos_string_to_lower(MosString *s)
{
    return change_case(s, 'A', 'a' - 'A');
}

MosString *mos_string_join(MosArray *xs, MosString *sep, const char *where)
{
    if (!xs)
        mos_panic(where, "null dereference");
    MosString **items = (MosString **)(void *)xs->data;
    if (xs->length == 0)
        return rt_empty_string();
    uint64_t total = (uint64_t)sep->length * (uint64_t)(xs->length - 1);
    for (int64_t i = 0; i < xs->length; i++) {
        if (!items[i])
            mos_panic(where, "null dereference");
        total += (uint64_t)items[i]->length;
        if (total > RT_MAX_ALLOC)
            mos_panic(where, "out of memory: joined string too long");
    }
    MosString *r = rt_string_alloc((int64_t)total);
    char *p = r->bytes;
    for (int64_t i = 0; i < xs->length; i++) {
        if (i > 0) {
            memcpy(p, sep->bytes, (size_t)sep->length);
            p += sep->length;
        }
        memcpy(p, items[i]->bytes, (size_t)items[i]->length);
        p += items[i]->length;
    }
    return r;
}

MosString *mos_char(int64_t i, const char *where)
{
    if (i < 0 || i > 0x10FFFF || (i >= 0xD800 && i < 0xE000))
        rt_panicf(where, "invalid conversion: %lld is not a Unicode scalar "
                         "value", (long long)i);
    char b[4];
    int n;
    if (i < 0x80) {
        b[0] = (char)i;
        n = 1;
    } else if (i < 0x800) {
        b[0] = (char)(0xC0 | (i >> 6));
        b[1] = (char)(0x80 | (i & 0x3F));
        n = 2;
    } else if (i < 0x10000) {
        b[0] = (char)(0xE0 | (i >> 12));
        b[1] = (char)(0x80 | ((i >> 6) & 0x3F));
        b[2] = (char)(0x80 | (i & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (i >> 18));
        b[1] = (char)(0x80 | ((i >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((i >> 6) & 0x3F));
        b[3] = (char)(0x80 | (i & 0x3F));
        n = 4;
    }
    return rt_string_new(b, n);
}
