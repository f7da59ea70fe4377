/* map.c — Map<K, V> (LANGUAGE.md §9): a hash table that keeps insertion
 * order.
 *
 * The slots, a power of two of them, at most half full, are an
 * open-addressing table with linear probing, in one of two forms:
 *
 *   - wide, for string keys: a slot holds the key, the value, and a word
 *     with 32 bits of the key's hash and the entry's number in insertion
 *     order (0: an empty slot);
 *   - narrow, for int and bool keys: 16 bytes, the key and the value, as
 *     a hand-written C table has them; the entry numbers are in a side
 *     array (entry_of) that only insertion, removal and growth touch, and
 *     an empty slot holds the map's own mark, a random key drawn when the
 *     map is made (a program that inserts the mark makes the map draw
 *     another: change_empty_key).
 *
 * The order array lists, for each entry in the order it was added, the
 * slot it is in (0 once removed).
 *
 *   - A lookup touches the slots alone: an int key is compared in the
 *     slot, a string key only when the 32 bits of hash match too, and the
 *     value is next to it — one cache line for an int key, one more for a
 *     string's bytes, as in a hand-written C table.
 *   - Insertion order, as §9 defines it: replacing a value keeps the
 *     entry; removing marks its order entry dead, so a later insertion of
 *     the same key goes last; keys(), values() and iteration walk the
 *     order array.
 *   - Removal deletes by backward shifting (no tombstones among the slots,
 *     so probes stay short however many keys come and go); a slot that
 *     moves tells the order array.  When the order array is full, the
 *     dead entries are squeezed out (and it grows only if few were dead).
 *   - Growing the slots re-inserts them in slot order, which reads the old
 *     table straight through; entries keep their numbers.
 *
 * Keys and values cross the ABI as 64-bit words (mosaic_rt.h): an int, a
 * bool's 0/1, a string's MosString *, a float's bits, a reference.
 *
 * Hashing is keyed by a secret chosen once per process (getrandom), so
 * that no fixed set of keys collides in every run: strings by SipHash-1-3
 * (Aumasson and Bernstein's keyed hash, the one Rust's HashMap and
 * Python's str use), ints and bools by a multiply-xorshift mix of the key
 * and the secret.  The order a program sees never depends on the hash.
 * `m[w] = m.get(w, 0) + 1` and `m[w] += 1` probe once: generated code
 * asks for the value's cell (mos_map_cell_or, mos_map_cell) and updates
 * it in place.  A string's hash is not remembered by its address: the
 * loop variable of a split loop is one header whose bytes change
 * (mos_split_next).
 *
 * String keys are copied when their entry is made, into blocks of keys
 * the map fills one after the other (own_key, rt_string_in_block): the
 * keys a lookup compares then sit together, where the first occurrence of
 * a word would otherwise be one string among the garbage of the line it
 * was split from, and the map keeps no line alive.  Squeezing the order
 * array copies the live keys afresh, so the room held by removed keys stays bounded.
 *
 * Memory: the header is a scanned block (it points to the arrays); the
 * slots are scanned only when values are strings or references, never
 * for their keys: a string key lives in a key block, and the header
 * keeps a list of the blocks (key_blocks), so a collection marks a few
 * hundred pointers rather than every slot of a big table.  The order
 * array and the key blocks are never scanned.  A removed or cleared slot
 * is zeroed so that it keeps nothing alive.
 *
 * Under --count-remote the header records the node the map lives on;
 * generated code reads it (codegen/remote.c).  Concurrent use of one map
 * by two actors is a data race, as for a field: the program's to avoid.
 */
#include "rt_internal.h"

#include <stdbool.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gc.h>

/* A slot of a map with string keys ("wide"). */
typedef struct Slot {
    uint64_t meta;          /* hash << 32 | entry number + 1; 0: empty */
    int64_t key;
    int64_t value;
} Slot;

/* A slot of a map with int or bool keys ("narrow"): the key is compared
 * in the slot, so it needs no hash beside it, and the entry number lives
 * in a side array that only insertion and removal touch. */
typedef struct Pair {
    int64_t key;            /* m->empty: an empty slot */
    int64_t value;
} Pair;

struct MosMap {
    int64_t size;           /* entries: generated code reads it (`m.size`) */
    int64_t node;           /* where the map lives (--count-remote) */
    Slot *slots;            /* wide: mask + 1 of them, or NULL before the first entry */
    Pair *pairs;            /* narrow: mask + 1 of them, or NULL */
    uint32_t *entry_of;     /* narrow: each slot's entry number + 1 (when used) */
    int64_t empty;          /* narrow: the key that marks an empty slot */
    uint64_t mask;
    uint32_t *order;        /* `used` of `order_cap` written: slot + 1, or 0 */
    int64_t used;
    int64_t order_cap;
    int32_t key_kind;       /* MOS_KEY_* */
    int32_t value_kind;     /* MOS_ELEM_* */
    int32_t value_size;     /* 8, or 1 for bool: the element size of values() */
    RtStringBlock keys;     /* where string keys are copied to */
    void **key_blocks;      /* every block of keys: a scanned array */
    int64_t n_key_blocks, key_blocks_cap;
};

_Static_assert(offsetof(MosMap, size) == 0 && offsetof(MosMap, node) == 8,
               "generated code reads a map's size and node at these offsets");
_Static_assert(offsetof(MosMap, pairs) == MOS_MAP_PAIRS &&
                   offsetof(MosMap, empty) == MOS_MAP_EMPTY &&
                   offsetof(MosMap, mask) == MOS_MAP_MASK && sizeof(Pair) == 16,
               "generated code probes an int-keyed map's first slot at these offsets");

#define FIRST_SLOTS 16
#define MAX_ENTRIES ((int64_t)1 << 31)  /* entry numbers fit 32 bits, slots 2^32 */

static inline uint64_t meta_of(uint64_t hash, int64_t entry)
{
    return hash << 32 | (uint64_t)(entry + 1);
}

static inline int64_t meta_entry(uint64_t meta)
{
    return (int64_t)(uint32_t)meta - 1;
}

static inline uint32_t meta_tag(uint64_t meta)
{
    return (uint32_t)(meta >> 32);
}

/* ---- hashing ------------------------------------------------------------- */

uint64_t mos_map_secret[2];     /* generated code hashes int keys too */
static pthread_once_t secret_once = PTHREAD_ONCE_INIT;

static void choose_secret(void)
{
    uint64_t *secret = mos_map_secret;
    if (getrandom(secret, 2 * sizeof *secret, GRND_NONBLOCK) != (ssize_t)(2 * sizeof *secret)) {
        /* no entropy yet (early boot): still differs from run to run */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        mos_map_secret[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
        mos_map_secret[1] = (uint64_t)ts.tv_sec * 0xc2b2ae3d27d4eb4full ^ (uintptr_t)&ts;
    }
}

static inline uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

#define SIP_ROUND(v0, v1, v2, v3)                                   \
    do {                                                            \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);   \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                      \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                      \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);   \
    } while (0)

/* SipHash-1-3 of n bytes under the process's secret. */
static uint64_t siphash13(const unsigned char *p, size_t n)
{
    const uint64_t *secret = mos_map_secret;
    uint64_t v0 = secret[0] ^ 0x736f6d6570736575ull, v1 = secret[1] ^ 0x646f72616e646f6dull;
    uint64_t v2 = secret[0] ^ 0x6c7967656e657261ull, v3 = secret[1] ^ 0x7465646279746573ull;
    const unsigned char *end = p + (n & ~(size_t)7);
    for (; p < end; p += 8) {
        uint64_t m;
        memcpy(&m, p, 8);       /* little-endian hosts (x86-64, arm64) */
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    uint64_t last = (uint64_t)n << 56;
    for (size_t i = 0; i < (n & 7); i++)
        last |= (uint64_t)p[i] << (8 * i);
    v3 ^= last;
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= last;
    v2 ^= 0xff;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

/* An int or bool key's hash: a bijective mix of key and secret, so that
 * every bit of both reaches the low bits the index uses.  Inline: it is
 * most of a lookup's work besides the one cache miss.  Generated code
 * computes the same (codegen/maps.c, int_key_hash): the two must agree. */
static inline uint64_t hash_int(int64_t key)
{
    uint64_t h = ((uint64_t)key ^ mos_map_secret[0]) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    h = (h ^ mos_map_secret[1]) * 0x94d049bb133111ebull;
    return h ^ (h >> 29);
}

static inline uint64_t hash_key(const MosMap *m, int64_t key)
{
    if (m->key_kind == MOS_KEY_STRING) {
        const MosString *s = (const MosString *)(uintptr_t)key;
        return siphash13((const unsigned char *)s->bytes, (size_t)s->length);
    }
    return hash_int(key);
}

/* Equal bytes, word by word: keys are mostly short, and a call of memcmp
 * would cost more than the comparison. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    for (; n >= 8; n -= 8, a += 8, b += 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return false;
    }
    for (; n > 0; n--)
        if (*a++ != *b++)
            return false;
    return true;
}

static inline bool same_key(const MosMap *m, int64_t a, int64_t b)
{
    if (a == b)
        return true;
    if (m->key_kind != MOS_KEY_STRING)
        return false;
    const MosString *x = (const MosString *)(uintptr_t)a, *y = (const MosString *)(uintptr_t)b;
    return x->length == y->length && same_bytes(x->bytes, y->bytes, (size_t)x->length);
}

/* ---- the table ------------------------------------------------------------ */

static MosMap *not_null(MosMap *m, const char *where)
{
    if (!m)
        mos_panic(where, "null dereference: a null map");
    return m;
}

static _Noreturn void too_big(const MosMap *m, const char *where)
{
    rt_panicf(where, "out of memory: a map of %lld entries", (long long)m->size + 1);
}

static inline bool is_narrow(const MosMap *m)
{
    return m->key_kind != MOS_KEY_STRING;
}

/* A key for marking the empty slots of a narrow map: drawn from the
 * process's secret and a counter, so that no program can aim at it. */
static int64_t draw_empty_key(void)
{
    static _Atomic uint64_t drawn;
    uint64_t x = mos_map_secret[0] + 0x9e3779b97f4a7c15ull * ++drawn;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (int64_t)(x ^ (x >> 31) ^ mos_map_secret[1]);
}

MosMap *mos_map_new(int32_t key_kind, int32_t value_kind, int32_t value_size, int64_t node,
                    const char *where)
{
    pthread_once(&secret_once, choose_secret);
    MosMap *m = GC_malloc(sizeof *m);
    if (!m)
        rt_panicf(where, "out of memory: a new map");
    m->node = node;
    m->key_kind = key_kind;
    m->value_kind = value_kind;
    m->value_size = value_size;
    m->empty = draw_empty_key();
    return m;
}

/* The slot holding key, or the empty slot where it would go; *found says
 * which.  There is an empty slot: the table is never more than half full.
 * A narrow map's key is never m->empty here (callers see to it). */
static inline uint64_t probe(const MosMap *m, int64_t key, uint64_t hash, bool *found)
{
    if (is_narrow(m)) {
        for (uint64_t i = hash & m->mask;; i = (i + 1) & m->mask) {
            int64_t k = m->pairs[i].key;
            if (k == key || k == m->empty) {
                *found = k == key;
                return i;
            }
        }
    }
    uint32_t tag = (uint32_t)hash;
    for (uint64_t i = hash & m->mask;; i = (i + 1) & m->mask) {
        const Slot *s = &m->slots[i];
        if (s->meta == 0) {
            *found = false;
            return i;
        }
        if (meta_tag(s->meta) == tag && same_key(m, s->key, key)) {
            *found = true;
            return i;
        }
    }
}

static inline bool has_table(const MosMap *m)
{
    return m->slots || m->pairs;
}

static inline int64_t *value_at(MosMap *m, uint64_t i)
{
    return is_narrow(m) ? &m->pairs[i].value : &m->slots[i].value;
}

static inline int64_t key_at(const MosMap *m, uint64_t i)
{
    return is_narrow(m) ? m->pairs[i].key : m->slots[i].key;
}

static inline int64_t entry_at(const MosMap *m, uint64_t i)
{
    return is_narrow(m) ? (int64_t)m->entry_of[i] - 1 : meta_entry(m->slots[i].meta);
}

/* Gives slot i the entry number e (its hash and key stay). */
static inline void renumber(MosMap *m, uint64_t i, int64_t e)
{
    if (is_narrow(m))
        m->entry_of[i] = (uint32_t)(e + 1);
    else
        m->slots[i].meta = meta_of(meta_tag(m->slots[i].meta), e);
}

/* The slot holding key, or -1. */
static inline int64_t find(const MosMap *m, int64_t key)
{
    if (m->size == 0 || (is_narrow(m) && key == m->empty))
        return -1;
    bool found;
    uint64_t i = probe(m, key, hash_key(m, key), &found);
    return found ? (int64_t)i : -1;
}

/* A copy of a new string key in the map's key blocks (see the essay). */
#define KEY_BLOCK 8192

/* The key blocks (and keys too long for one) the map has made: what keeps
 * its keys alive, so that the slots need not be scanned (see the essay). */
static void remember_key_block(MosMap *m, void *block, const char *where)
{
    if (m->n_key_blocks == m->key_blocks_cap) {
        int64_t cap = m->key_blocks_cap ? 2 * m->key_blocks_cap : 16;
        void **grown = GC_malloc((size_t)cap * sizeof *grown);
        if (!grown)
            too_big(m, where);
        if (m->n_key_blocks)
            memcpy(grown, m->key_blocks, (size_t)m->n_key_blocks * sizeof *grown);
        m->key_blocks = grown;
        m->key_blocks_cap = cap;
    }
    m->key_blocks[m->n_key_blocks++] = block;
}

/* Forgets every key block, for a map whose keys are all made afresh. */
static void forget_key_blocks(MosMap *m)
{
    m->keys.left = 0;
    m->key_blocks = NULL;
    m->n_key_blocks = m->key_blocks_cap = 0;
}

static int64_t own_key(MosMap *m, int64_t key, const char *where)
{
    if (m->key_kind != MOS_KEY_STRING)
        return key;
    const MosString *s = (const MosString *)(uintptr_t)key;
    if (s->length == 0)
        return (int64_t)(uintptr_t)rt_empty_string();
    size_t room = rt_string_block_room(s->length);
    bool fresh = room == 0 || room > m->keys.left;  /* a string of its own, or a new block */
    MosString *copy = rt_string_in_block(&m->keys, s->bytes, s->length, KEY_BLOCK, where);
    if (fresh)
        remember_key_block(m, copy, where);     /* a new block starts with its first key */
    return (int64_t)(uintptr_t)copy;
}

static void *alloc_zeroed(size_t bytes, bool scanned, const MosMap *m, const char *where)
{
    void *p = scanned ? GC_malloc(bytes) : GC_malloc_atomic(bytes);
    if (!p)
        too_big(m, where);
    if (!scanned)
        memset(p, 0, bytes);
    return p;
}

/* An array the map has replaced goes back to the collector at once: only
 * the map points to its slots and its order array (iteration and keys()
 * copy), so a big table's old copies need not wait for a collection, and
 * growing to n slots takes about n slots' room, not 2n. */
static void release(void *old)
{
    if (old)
        GC_free(old);
}

static void mark_empty(Pair *pairs, uint64_t n, int64_t empty)
{
    for (uint64_t i = 0; i < n; i++)
        pairs[i].key = empty;
}

/* Moves the slots to a table of n, reading the old one straight through;
 * each entry keeps its number, and the order array learns its new slot. */
static void resize_slots(MosMap *m, uint64_t n, const char *where)
{
    bool scanned = m->value_kind != MOS_ELEM_PLAIN;     /* keys live by key_blocks */
    uint64_t old_n = has_table(m) ? m->mask + 1 : 0;
    m->mask = n - 1;
    if (is_narrow(m)) {
        Pair *old = m->pairs;
        uint32_t *old_entry_of = m->entry_of;
        m->pairs = alloc_zeroed(n * sizeof(Pair), scanned, m, where);
        m->entry_of = alloc_zeroed(n * sizeof(uint32_t), false, m, where);
        mark_empty(m->pairs, n, m->empty);
        for (uint64_t j = 0; j < old_n; j++) {
            if (old[j].key == m->empty)
                continue;
            uint64_t i = hash_key(m, old[j].key) & m->mask;
            while (m->pairs[i].key != m->empty)
                i = (i + 1) & m->mask;
            m->pairs[i] = old[j];
            m->entry_of[i] = old_entry_of[j];
            m->order[old_entry_of[j] - 1] = (uint32_t)(i + 1);
        }
        release(old);
        release(old_entry_of);
        return;
    }
    Slot *old = m->slots;
    m->slots = alloc_zeroed(n * sizeof(Slot), scanned, m, where);
    for (uint64_t j = 0; j < old_n; j++) {
        if (old[j].meta == 0)
            continue;
        uint64_t i = meta_tag(old[j].meta) & m->mask;
        while (m->slots[i].meta != 0)
            i = (i + 1) & m->mask;
        m->slots[i] = old[j];
        m->order[meta_entry(old[j].meta)] = (uint32_t)(i + 1);
    }
    release(old);
}

/* A narrow map is about to hold the key that marks its empty slots: a
 * new mark is drawn, one no key has, and the empty slots take it.  With
 * a random 64-bit mark this happens about never. */
static void change_empty_key(MosMap *m)
{
    int64_t old = m->empty, fresh;
    bool taken;
    do {
        fresh = draw_empty_key();
        taken = fresh == old;
        for (uint64_t i = 0; has_table(m) && i <= m->mask && !taken; i++)
            taken = m->pairs[i].key == fresh;
    } while (taken);
    for (uint64_t i = 0; has_table(m) && i <= m->mask; i++)
        if (m->pairs[i].key == old)
            m->pairs[i].key = fresh;
    m->empty = fresh;
}

/* The order array is full: make room for at least one more, twice the
 * room when few entries are dead.  Dead entries are squeezed out, the
 * live ones renumbered and their string keys copied afresh. */
static void resize_order(MosMap *m, const char *where)
{
    int64_t cap = m->order_cap == 0 ? FIRST_SLOTS / 2
                : m->size >= m->order_cap / 2 ? 2 * m->order_cap : m->order_cap;
    if (cap > MAX_ENTRIES)
        too_big(m, where);
    uint32_t *order = alloc_zeroed((size_t)cap * sizeof *order, false, m, where);
    if (m->size == m->used) {
        /* nothing dead: the numbers stay, no slot needs telling */
        if (m->used)
            memcpy(order, m->order, (size_t)m->used * sizeof *order);
        release(m->order);
        m->order = order;
        m->order_cap = cap;
        return;
    }
    void **old_blocks = m->key_blocks;  /* alive until the keys are copied out */
    forget_key_blocks(m);   /* the live keys are copied afresh */
    int64_t n = 0;
    for (int64_t e = 0; e < m->used; e++) {
        uint32_t at = m->order[e];
        if (at == 0)
            continue;
        renumber(m, at - 1, n);
        if (!is_narrow(m))
            m->slots[at - 1].key = own_key(m, m->slots[at - 1].key, where);
        order[n++] = at;
    }
    GC_reachable_here(old_blocks);
    release(m->order);
    m->order = order;
    m->order_cap = cap;
    m->used = n;
}

void mos_map_set(MosMap *m, int64_t key, int64_t value, const char *where)
{
    not_null(m, where);
    if (!has_table(m)) {
        resize_order(m, where);
        resize_slots(m, FIRST_SLOTS, where);
    }
    if (is_narrow(m) && key == m->empty)
        change_empty_key(m);
    uint64_t hash = hash_key(m, key);
    bool found;
    uint64_t i = probe(m, key, hash, &found);
    if (found) {
        *value_at(m, i) = value;
        return;
    }
    bool moved = false;
    if ((uint64_t)(m->size + 1) * 2 > m->mask + 1) {       /* keep it at most half full */
        if (m->mask + 1 >= 2 * (uint64_t)MAX_ENTRIES)
            too_big(m, where);
        resize_slots(m, 2 * (m->mask + 1), where);
        moved = true;
    }
    if (m->used == m->order_cap)
        resize_order(m, where);
    if (moved)
        i = probe(m, key, hash, &found);
    if (is_narrow(m)) {
        m->pairs[i] = (Pair){key, value};
        m->entry_of[i] = (uint32_t)(m->used + 1);
    } else {
        m->slots[i] = (Slot){meta_of(hash, m->used), own_key(m, key, where), value};
    }
    m->order[m->used++] = (uint32_t)(i + 1);
    m->size++;
}

/* "missing key: 42", "missing key: \"word\"" (a long key cut short). */
static _Noreturn void missing(const MosMap *m, int64_t key, const char *where)
{
    if (m->key_kind == MOS_KEY_INT)
        rt_panicf(where, "missing key: %lld", (long long)key);
    if (m->key_kind == MOS_KEY_BOOL)
        rt_panicf(where, "missing key: %s", key ? "true" : "false");
    const MosString *s = (const MosString *)(uintptr_t)key;
    int shown = s->length > 200 ? 200 : (int)s->length;
    rt_panicf(where, "missing key: \"%.*s\"%s", shown, s->bytes, shown < s->length ? "..." : "");
}

int64_t mos_map_get(MosMap *m, int64_t key, const char *where)
{
    int64_t i = find(not_null(m, where), key);
    if (i < 0)
        missing(m, key, where);
    return *value_at(m, (uint64_t)i);
}

int64_t mos_map_get_or(MosMap *m, int64_t key, int64_t otherwise, const char *where)
{
    int64_t i = find(not_null(m, where), key);
    return i < 0 ? otherwise : *value_at(m, (uint64_t)i);
}

int64_t *mos_map_cell(MosMap *m, int64_t key, const char *where)
{
    int64_t i = find(not_null(m, where), key);
    if (i < 0)
        missing(m, key, where);
    return value_at(m, (uint64_t)i);
}

int64_t *mos_map_cell_or(MosMap *m, int64_t key, int64_t otherwise, const char *where)
{
    int64_t i = find(not_null(m, where), key);
    if (i < 0) {
        mos_map_set(m, key, otherwise, where);
        i = find(m, key);
    }
    return value_at(m, (uint64_t)i);
}

int32_t mos_map_has(MosMap *m, int64_t key, const char *where)
{
    return find(not_null(m, where), key) >= 0;
}

/* The slot where the entry in slot j belongs, were nothing in the way. */
static inline uint64_t home_of(MosMap *m, uint64_t j)
{
    return (is_narrow(m) ? hash_key(m, m->pairs[j].key) : meta_tag(m->slots[j].meta)) & m->mask;
}

static inline bool slot_used(const MosMap *m, uint64_t j)
{
    return is_narrow(m) ? m->pairs[j].key != m->empty : m->slots[j].meta != 0;
}

/* Slot `to` takes the entry of slot `from`; the order array follows it. */
static inline void move_slot(MosMap *m, uint64_t to, uint64_t from)
{
    if (is_narrow(m)) {
        m->pairs[to] = m->pairs[from];
        m->entry_of[to] = m->entry_of[from];
    } else {
        m->slots[to] = m->slots[from];
    }
    m->order[entry_at(m, to)] = (uint32_t)(to + 1);
}

static inline void empty_slot(MosMap *m, uint64_t i)
{
    if (is_narrow(m))
        m->pairs[i] = (Pair){m->empty, 0};
    else
        m->slots[i] = (Slot){0};
}

int32_t mos_map_remove(MosMap *m, int64_t key, const char *where)
{
    int64_t at = find(not_null(m, where), key);
    if (at < 0)
        return 0;
    uint64_t i = (uint64_t)at;
    m->order[entry_at(m, i)] = 0;
    m->size--;
    /* backward shift: pull later slots of the same run into the hole
     * unless that would move them before their home slot */
    for (uint64_t j = (i + 1) & m->mask; slot_used(m, j); j = (j + 1) & m->mask) {
        uint64_t home = home_of(m, j);
        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            move_slot(m, i, j);
            i = j;
        }
    }
    empty_slot(m, i);
    if (m->size == 0)
        m->used = 0;    /* nothing live: the order array starts again */
    return 1;
}

void mos_map_clear(MosMap *m, const char *where)
{
    not_null(m, where);
    if (m->slots)
        memset(m->slots, 0, (size_t)(m->mask + 1) * sizeof(Slot));
    if (m->pairs) {
        memset(m->pairs, 0, (size_t)(m->mask + 1) * sizeof(Pair));
        mark_empty(m->pairs, m->mask + 1, m->empty);
    }
    forget_key_blocks(m);
    m->used = 0;
    m->size = 0;
}

/* keys() or values(): a new array of them, in the map's order. */
static MosArray *column(MosMap *m, bool keys, const char *where)
{
    not_null(m, where);
    int32_t kind, size;
    if (keys) {
        kind = m->key_kind == MOS_KEY_STRING ? MOS_ELEM_STRING : MOS_ELEM_PLAIN;
        size = m->key_kind == MOS_KEY_BOOL ? 1 : 8;
    } else {
        kind = m->value_kind;
        size = m->value_size;
    }
    MosArray *xs = mos_array_new(m->size, size, kind, where);
    int64_t n = 0;
    for (int64_t e = 0; e < m->used; e++) {
        if (m->order[e] == 0)
            continue;
        uint64_t at = m->order[e] - 1;
        int64_t word = keys ? key_at(m, at) : *value_at(m, at);
        if (size == 1)
            xs->data[n++] = (char)(word != 0);
        else
            ((int64_t *)(void *)xs->data)[n++] = word;
    }
    return xs;
}

MosArray *mos_map_keys(MosMap *m, const char *where)
{
    return column(m, true, where);
}

MosArray *mos_map_values(MosMap *m, const char *where)
{
    return column(m, false, where);
}
