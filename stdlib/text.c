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
 * pieces first and allocates the array once (few short pieces in the
 * same block as the array), join measures the result and copies each
 * piece once.  Indices are byte offsets; case conversion
 * and trimming know ASCII only, as the language says.
 *
 * Runtime errors, at the call's `where`: "index out of bounds" (slice), "invalid argument" (split with an empty separator), "invalid
 * conversion" (char of a value that is not a Unicode scalar value), "null
 * dereference" (join of a null array).
 *
 * Not here: building strings (string.c), parsing numbers (builtins.c).
 */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include <gc.h>
#include <gc/gc_typed.h>

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
 * is the inner loop of most text programs.  One pass finds the cuts (the
 * offsets of the separators) and the room the pieces need, so a short line
 * takes one block of just its size, and a kept word keeps at most one
 * block alive (a map copies its keys).  A one-byte separator, the usual
 * case, is found by a plain loop: words are short, and a call of memchr
 * per word costs more than the bytes it reads. */
#define PIECE_BLOCK 4096
#define CUTS_ON_STACK 256

typedef struct Cuts {
    int64_t *at;            /* the separators' offsets, in order */
    int64_t n, cap;
    size_t room;            /* rt_string_block_room of the pieces so far */
    int64_t start;          /* where the next piece starts */
} Cuts;

/* Twice the room for cuts, off the stack from the first growth on. */
static void more_cuts(Cuts *c, int64_t *on_stack, const char *where)
{
    int64_t cap = 2 * c->cap;
    int64_t *grown = malloc((size_t)cap * sizeof *grown);
    if (!grown)
        rt_panicf(where, "out of memory: split into %lld pieces", (long long)c->n + 1);
    memcpy(grown, c->at, (size_t)c->n * sizeof *grown);
    if (c->at != on_stack)
        free(c->at);
    c->at = grown;
    c->cap = cap;
}

static inline void add_cut(Cuts *c, int64_t at, int64_t sep_length, int64_t *on_stack,
                           const char *where)
{
    if (c->n == c->cap)
        more_cuts(c, on_stack, where);
    c->at[c->n++] = at;
    c->room += rt_string_block_room(at - c->start);
    c->start = at + sep_length;
}

/* The offset of the first byte c of s from `from` on, or -1; eight bytes
 * at a time: a word's bytes equal to c become its zero bytes, and adding
 * 0x7f to the low seven bits of each byte sets the top bit of every byte
 * that is not zero, with no carry from one byte into the next, so the
 * lowest flagged byte is exactly the first match. */
static inline int64_t next_byte(const MosString *s, int64_t from, unsigned char c)
{
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
    int64_t i = from;
    for (; i + 8 <= s->length; i += 8) {
        uint64_t word;
        memcpy(&word, s->bytes + i, 8);     /* little-endian hosts (x86-64, arm64) */
        uint64_t x = word ^ (ones * c);
        uint64_t matches = ~(((x & low7) + low7) | x | low7);
        if (matches)
            return i + __builtin_ctzll(matches) / 8;
    }
    for (; i < s->length; i++)
        if ((unsigned char)s->bytes[i] == c)
            return i;
    return -1;
}

/* The offset of the first sep in s from `from` on, or -1. */
static inline int64_t next_separator(const MosString *s, int64_t from, const MosString *sep)
{
    return sep->length == 1 ? next_byte(s, from, (unsigned char)sep->bytes[0])
                            : find_from(s, from, sep);
}

/* A split into few, short pieces — a record into its fields, a line into
 * its words — is one allocation rather than two: a typed block (gc_typed.h)
 * holding the array's header, its elements, then the pieces as
 * rt_string_in_block lays them out.  Its descriptor says that only the
 * header's data word and the elements may hold pointers (the program may
 * store any string there, or grow the array elsewhere); the pieces' own
 * pointers point into the block itself, and their bytes are never
 * scanned, as in an atomic block.  The bounds keep the descriptor a plain
 * bitmap (at most 62 words, with the header's 4) and what a kept piece
 * keeps alive small: the block, and what the array's elements point to. */
#define SPLIT_BLOCK_PIECES 32
#define SPLIT_BLOCK_ROOM 1024

static GC_descr split_descr[SPLIT_BLOCK_PIECES + 1];   /* by number of pieces */
static pthread_once_t split_descr_once = PTHREAD_ONCE_INIT;

static void make_split_descr(void)
{
    _Static_assert(sizeof(MosArray) % sizeof(GC_word) == 0, "the elements follow the header");
    size_t header = sizeof(MosArray) / sizeof(GC_word);
    for (size_t n = 1; n <= SPLIT_BLOCK_PIECES; n++) {
        GC_word bitmap[1] = {0};
        GC_set_bit(bitmap, offsetof(MosArray, data) / sizeof(GC_word));
        for (size_t i = 0; i < n; i++)
            GC_set_bit(bitmap, header + i);
        split_descr[n] = GC_make_descriptor(bitmap, header + n);
    }
}

/* The array of a split into `pieces` pieces that need `room` bytes of
 * string blocks, and in *block where to cut them: the room after the
 * elements when they fit in the array's block, else a block of their own. */
static MosArray *split_array(int64_t pieces, size_t room, RtStringBlock *block,
                             const char *where)
{
    if (pieces > SPLIT_BLOCK_PIECES || room > SPLIT_BLOCK_ROOM || rt_remote_enabled) {
        *block = (RtStringBlock){NULL, 0};
        return mos_array_new(pieces, sizeof(MosString *), MOS_ELEM_STRING, where);
    }
    pthread_once(&split_descr_once, make_split_descr);
    size_t elems = sizeof(MosArray) + (size_t)pieces * sizeof(MosString *);
    rt_gc_poll();
    MosArray *a = GC_malloc_explicitly_typed(elems + room, split_descr[pieces]);
    if (!a)
        rt_panicf(where, "out of memory: split into %lld pieces", (long long)pieces);
    rt_array_header_init(a, pieces, sizeof(MosString *), MOS_ELEM_STRING);
    *block = (RtStringBlock){(char *)a + elems, room};
    return a;
}

MosArray *mos_string_split(MosString *s, MosString *sep, const char *where)
{
    if (sep->length == 0)
        rt_panicf(where, "invalid argument: split with an empty separator");
    int64_t on_stack[CUTS_ON_STACK];
    Cuts cuts = {on_stack, 0, CUTS_ON_STACK, 0, 0};
    for (int64_t at = next_separator(s, 0, sep); at >= 0; at = next_separator(s, cuts.start, sep))
        add_cut(&cuts, at, sep->length, on_stack, where);
    int64_t pieces = cuts.n + 1;
    size_t needed = cuts.room + rt_string_block_room(s->length - cuts.start);
    RtStringBlock block;
    MosArray *xs = split_array(pieces, needed, &block, where);
    MosString **out = (MosString **)(void *)xs->data;
    int64_t start = 0;
    for (int64_t i = 0; i < pieces; i++) {
        int64_t at = i < cuts.n ? cuts.at[i] : s->length;
        size_t next = needed < PIECE_BLOCK ? needed : PIECE_BLOCK;
        out[i] = rt_string_in_block(&block, s->bytes + start, at - start, next, where);
        needed -= rt_string_block_room(at - start);
        start = at + sep->length;
    }
    if (cuts.at != on_stack)
        free(cuts.at);
    return xs;
}

_Static_assert(sizeof(MosSplitIter) == MOS_SPLIT_ITER_SIZE,
               "codegen allocates MOS_SPLIT_ITER_SIZE bytes for a split loop");

void mos_split_begin(MosSplitIter *it, MosString *s, MosString *sep, const char *where)
{
    if (sep->length == 0)
        rt_panicf(where, "invalid argument: split with an empty separator");
    it->s = s;
    it->sep = sep;
    it->start = 0;
    it->scratch = it->small;
    it->scratch_cap = (int64_t)sizeof it->small;
}

MosString *mos_split_next(MosSplitIter *it, const char *where)
{
    if (it->start < 0)
        return NULL;
    int64_t at = next_separator(it->s, it->start, it->sep);
    int64_t end = at >= 0 ? at : it->s->length, length = end - it->start;
    if (length >= it->scratch_cap) {
        /* a GC block, not malloc: a loop left by break or return needs no
         * clean-up, and the iterator on the stack keeps the block alive */
        int64_t cap = 2 * it->scratch_cap > length + 1 ? 2 * it->scratch_cap : length + 1;
        char *grown = GC_malloc_atomic((size_t)cap);
        if (!grown)
            rt_panicf(where, "out of memory: a piece of %lld bytes", (long long)length);
        it->scratch = grown;
        it->scratch_cap = cap;
    }
    const char *from = it->s->bytes + it->start;
    /* a word: one fixed copy, no call (the scratch holds at least the 64
     * bytes of `small`, and the 16 read are within the string) */
    if (length <= 16 && it->start + 16 <= it->s->length)
        memcpy(it->scratch, from, 16);
    else
        memcpy(it->scratch, from, (size_t)length);
    it->scratch[length] = '\0';
    it->piece = (MosString){length, it->scratch, NULL};
    it->start = at >= 0 ? at + it->sep->length : -1;
    return &it->piece;
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
    /* the usual separator is one byte: a store, not a copy */
    int one = sep->length == 1;
    char sep0 = one ? sep->bytes[0] : 0;
    for (int64_t i = 0; i < xs->length; i++) {
        if (i > 0) {
            if (one)
                *p = sep0;
            else
                rt_copy_bytes(p, sep->bytes, (size_t)sep->length);
            p += sep->length;
        }
        rt_copy_bytes(p, items[i]->bytes, (size_t)items[i]->length);
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
