/* map.c — Map<K, V> (LANGUAGE.md §9): a hash table that keeps insertion
 * order.
 *
 * The slots, a power of two of them, at most half full, are an
 * open-addressing table with linear probing, in one of two forms:
 *
 *   - wide, for string keys: 32 bytes, the key (the map's own copy), the
 *     value, the key's hash, and a word that holds a short key's bytes
 *     outright (key_word: up to 7 bytes and the length), or a long key's
 *     first 7 bytes and a mark;
 *   - narrow, for int and bool keys: 16 bytes, the key and the value, as
 *     a hand-written C table has them; an empty slot holds the map's own
 *     mark, a random key drawn when the map is made (a program that
 *     inserts the mark makes the map draw another: change_empty_key).
 *
 * The order array lists the keys in the order their entries were made.
 *
 *   - A lookup touches the slots alone: an int key is compared in the
 *     slot, a string key of up to 7 bytes too (its word says all of it),
 *     a longer one by its word, its hash and then its bytes; the value is
 *     next to it — one cache line, where a C table of strings has two
 *     (the slot, then the bytes it points to).
 *   - Insertion order, as §9 defines it: replacing a value keeps the
 *     entry; a new key is appended to the order array.  Removal does not
 *     touch the order array: the entry stays there, dead.  Which entries
 *     are alive needs no record of its own: each key present has exactly
 *     one, its last, so an order array with `used` entries holds
 *     `used - size` dead ones, none when nothing was removed; when there
 *     are some, a walk from the end (settle_order) keeps the first
 *     occurrence of each key still present, and that is the map's order.
 *     The walk runs when keys(), values() or a loop need the order and
 *     when the order array is full (then it grows only if few were dead),
 *     so its cost is spread over the insertions that filled the array.
 *     So insertion writes the slot and appends, removal and growth move
 *     slots and nothing else: no side array of entry numbers to keep in
 *     step, the second cache miss of every insertion and removal.
 *   - Removal deletes by backward shifting (no tombstones among the slots,
 *     so probes stay short however many keys come and go).
 *   - Growing the slots re-inserts them in slot order, which reads the old
 *     table straight through.
 *
 * Keys and values cross the ABI as 64-bit words (mosaic_rt.h): an int, a
 * bool's 0/1, a string's MosString *, a float's bits, a reference.
 *
 * Hashing is keyed by a secret chosen once per process (getrandom), so
 * that no fixed set of keys collides in every run.  Ints and bools, and
 * strings of up to 7 bytes (through their word), are mixed with the
 * secret by one multiplication (Fibonacci hashing): a few cycles, where
 * SipHash-1-3 of a five-letter word costs more than the rest of its
 * lookup.  Longer strings get SipHash-1-3 (Aumasson and Bernstein's keyed
 * hash, the one Rust's HashMap and Python's str use).  The mix is keyed
 * but not a cryptographic function, so a map does not rely on it alone:
 * every probe the runtime makes counts its steps (generated code's
 * in-line probes give up after a few slots and leave the rest to the
 * runtime), and one longer than chain_limit (which a random hash reaches
 * about never: see there) makes the map hash every key with SipHash from
 * then on, rehashing it once (go_strong).  An adversary who finds keys
 * that collide under the mix thus buys at most O(log n) work per
 * operation before the map stops using it, never the quadratic blow-up
 * of a table with one long run.  Why not SipHash throughout, or reseed
 * the mix: SipHash costs more than the rest of a short key's lookup, and
 * a new secret for the same mix would not help if some keys collided
 * under every secret.  A map hashed strongly shows generated code no
 * slots (MOS_MAP_PROBE), so its in-line probes, insertions and removals
 * give way to the runtime.  The order a program sees never depends on
 * the hash.
 *
 * Generated code (codegen/maps.c) probes an int or bool key in line, and
 * makes an entry or empties a slot itself in the easy cases, by the rules
 * here: an entry is the pair and a key appended to the order array, a
 * removal leaves its entry dead.
 *
 * `m[w] = m.get(w, 0) + 1` and `m[w] += 1` probe once: generated code
 * asks for the value's cell (mos_map_cell_or, mos_map_cell) and updates
 * it in place.  A string's hash is not remembered by its address: the
 * loop variable of a split loop is one header whose bytes change
 * (mos_split_next).
 *
 * String keys are copied when their entry is made, into blocks of keys
 * the map fills one after the other (own_key, rt_string_in_block), and the
 * map keeps no line alive.  Settling the order copies the live keys
 * afresh, so the room held by removed keys stays bounded.
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
    int64_t key;            /* the map's copy of the key (MosString *); 0: empty */
    int64_t value;
    uint64_t word;          /* key_word(key) */
    uint64_t hash;
} Slot;

/* A slot of a map with int or bool keys ("narrow"): the key is compared
 * in the slot, so it needs no hash beside it. */
typedef struct Pair {
    int64_t key;            /* m->empty: an empty slot */
    int64_t value;
} Pair;

/* The words generated code reads come first (mosaic_rt.h, MOS_MAP_*). */
struct MosMap {
    int64_t size;           /* entries: generated code reads it (`m.size`) */
    int64_t node;           /* where the map lives (--count-remote) */
    Pair *probe;            /* narrow: `pairs`, or NULL while strong: what generated code probes */
    int64_t empty;          /* narrow: the key that marks an empty slot */
    uint64_t shift;         /* 64 - log2(slots): a key's home slot is hash >> shift */
    uint64_t mask;          /* slots - 1 */
    int64_t *order;         /* `used` of `order_cap` written: keys, some dead (see the essay) */
    int64_t used;
    int64_t order_cap;
    Pair *pairs;            /* narrow: mask + 1 of them, or NULL before the first entry */
    Slot *slots;            /* wide: mask + 1 of them, or NULL */
    int32_t key_kind;       /* MOS_KEY_* */
    int32_t value_kind;     /* MOS_ELEM_* */
    int32_t value_size;     /* 8, or 1 for bool: the element size of values() */
    bool strong;            /* every key hashed by SipHash (see the essay) */
    uint64_t limit;         /* chain_limit of the table */
    RtStringBlock keys;     /* where string keys are copied to */
    void **key_blocks;      /* every block of keys: a scanned array */
    int64_t n_key_blocks, key_blocks_cap;
};

_Static_assert(offsetof(MosMap, size) == 0 && offsetof(MosMap, node) == 8,
               "generated code reads a map's size and node at these offsets");
_Static_assert(offsetof(MosMap, probe) == MOS_MAP_PROBE &&
                   offsetof(MosMap, empty) == MOS_MAP_EMPTY &&
                   offsetof(MosMap, shift) == MOS_MAP_SHIFT &&
                   offsetof(MosMap, mask) == MOS_MAP_MASK && sizeof(Pair) == 16,
               "generated code probes an int-keyed map's first slot at these offsets");
_Static_assert(offsetof(MosMap, order) == MOS_MAP_ORDER && offsetof(MosMap, used) == MOS_MAP_USED &&
                   offsetof(MosMap, order_cap) == MOS_MAP_ORDER_CAP,
               "generated code appends an int key to the order array at these offsets");

#define FIRST_SLOTS 16
#define MAX_ENTRIES ((int64_t)1 << 31)  /* slots up to 2^32: 64 GiB of them */

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

/* A word's hash: the word and the secret mixed by one multiplication, by
 * 2^64 / φ, whose top bits (a key's home slot: home) depend on every bit
 * of both — Fibonacci hashing (Knuth, TAOCP 6.4), as a C programmer's
 * table of ints has it, keyed.  Keyed, but easily inverted by anyone who
 * knows the secret: a map does not rely on it alone (see the essay).
 * Inline: a lookup is little besides it and the one cache miss, and how
 * many lookups the processor has in flight depends on how few
 * instructions each takes.  Generated code computes the same for int
 * keys (codegen/maps.c, int_key_hash): the two must agree. */
#define FIBONACCI 0x9e3779b97f4a7c15ull

static inline uint64_t mix(uint64_t word)
{
    return (word ^ mos_map_secret[0]) * FIBONACCI;
}

/* A string key's word: for up to SHORT_KEY bytes, the bytes in its low
 * bytes and the length in its top one, which says the whole key (two
 * short keys are equal exactly when their words are); for a longer key,
 * its first 7 bytes and LONG_KEY on top, which only tells keys apart
 * quickly.  Read without touching a byte past the key's end: two
 * overlapping 4-byte loads for 4 to 7 bytes, the first, middle and last
 * byte for 1 to 3 (as wyhash reads short input). */
#define SHORT_KEY 7
#define LONG_KEY ((uint64_t)0xff << 56)

static inline bool is_short(uint64_t word)
{
    return word < LONG_KEY;
}

static inline uint64_t key_word(const MosString *s)
{
    const unsigned char *p = (const unsigned char *)s->bytes;
    size_t n = (size_t)s->length;
    uint64_t w;
    if (n > SHORT_KEY) {
        memcpy(&w, p, 8);
        return (w & ~LONG_KEY) | LONG_KEY;
    }
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        w = lo | (uint64_t)hi << (8 * (n - 4));
    } else if (n > 0) {
        w = p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) | (uint64_t)p[n - 1] << (8 * (n - 1));
    } else {
        w = 0;
    }
    return w | (uint64_t)n << 56;
}

/* A key as a probe needs it: the word that crosses the ABI, its hash and,
 * for a string, its key_word. */
typedef struct Key {
    int64_t key;
    uint64_t word;
    uint64_t hash;
} Key;

static inline Key key_of(const MosMap *m, int64_t key)
{
    if (m->key_kind != MOS_KEY_STRING) {
        uint64_t hash = m->strong ? siphash13((const unsigned char *)&key, sizeof key)
                                  : mix((uint64_t)key);
        return (Key){key, (uint64_t)key, hash};
    }
    const MosString *s = (const MosString *)(uintptr_t)key;
    uint64_t word = key_word(s);
    uint64_t hash = is_short(word) && !m->strong
                        ? mix(word)
                        : siphash13((const unsigned char *)s->bytes, (size_t)s->length);
    return (Key){key, word, hash};
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

/* Whether wide slot s holds key k. */
static inline bool holds(const Slot *s, const Key *k)
{
    if (s->word != k->word)
        return false;
    if (is_short(k->word) || s->key == k->key)
        return true;
    const MosString *x = (const MosString *)(uintptr_t)s->key;
    const MosString *y = (const MosString *)(uintptr_t)k->key;
    return s->hash == k->hash && x->length == y->length &&
           same_bytes(x->bytes, y->bytes, (size_t)x->length);
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

static inline bool has_table(const MosMap *m)
{
    return m->slots || m->pairs;
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

static inline uint64_t home(const MosMap *m, uint64_t hash)
{
    return hash >> m->shift;
}

/* The most slots a probe may visit before the map stops trusting the mix
 * (see the essay), for a table of mask + 1 = 2^b slots: 64 + 8b.  With a
 * random hash and the table at most half full, a probe passes L occupied
 * slots with probability about e^(-0.19 L) (linear probing's runs at load
 * 1/2: Knuth, TAOCP 6.4), so 64 + 8b happens about once in 2^(18 + 2b)
 * probes — never, in practice, and a false alarm only costs speed. */
static inline uint64_t chain_limit(uint64_t slots)
{
    return 64 + 8 * (uint64_t)(63 - __builtin_clzll(slots));
}

/* The slot holding k, or the empty slot where it would go; *found says
 * which, *steps how many slots it passed.  There is an empty slot: the
 * table is never more than half full.  A narrow map's key is never
 * m->empty here (callers see to it). */
static inline uint64_t probe(const MosMap *m, const Key *k, bool *found, uint64_t *steps)
{
    uint64_t n = 0;
    if (is_narrow(m)) {
        for (uint64_t i = home(m, k->hash);; i = (i + 1) & m->mask, n++) {
            int64_t held = m->pairs[i].key;
            if (held == k->key || held == m->empty) {
                *found = held == k->key;
                *steps = n;
                return i;
            }
        }
    }
    for (uint64_t i = home(m, k->hash);; i = (i + 1) & m->mask, n++) {
        const Slot *s = &m->slots[i];
        if (s->key == 0 || holds(s, k)) {
            *found = s->key != 0;
            *steps = n;
            return i;
        }
    }
}

static uint64_t relocate(MosMap *m, Key *k, bool *found, const char *where);

/* probe, and the check on its length: a probe past chain_limit makes the
 * map strong (relocate).  In line: every operation but a clear starts
 * here. */
static inline __attribute__((always_inline)) uint64_t locate(MosMap *m, Key *k, bool *found,
                                                             const char *where)
{
    uint64_t steps;
    uint64_t i = probe(m, k, found, &steps);
    if (__builtin_expect(steps > m->limit, 0) && !m->strong)
        return relocate(m, k, found, where);
    return i;
}

static inline int64_t *value_at(MosMap *m, uint64_t i)
{
    return is_narrow(m) ? &m->pairs[i].value : &m->slots[i].value;
}

/* The slot holding key, or -1. */
static inline int64_t find(MosMap *m, int64_t key, const char *where)
{
    if (m->size == 0 || (is_narrow(m) && key == m->empty))
        return -1;
    Key k = key_of(m, key);
    bool found;
    uint64_t i = locate(m, &k, &found, where);
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

/* A new array for the map: scanned (zeroed by the collector) or not, and
 * then zeroed only when asked: a table of pairs is written through at
 * once with the empty mark, and zeroing it first would be a second pass
 * over the biggest block the map has. */
static void *alloc_array(size_t bytes, bool scanned, bool zeroed, const MosMap *m,
                         const char *where)
{
    void *p = scanned ? GC_malloc(bytes) : GC_malloc_atomic(bytes);
    if (!p)
        too_big(m, where);
    if (!scanned && zeroed)
        memset(p, 0, bytes);
    return p;
}

static void *alloc_zeroed(size_t bytes, bool scanned, const MosMap *m, const char *where)
{
    return alloc_array(bytes, scanned, true, m, where);
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

/* Every pair empty: the mark, and a zero value that keeps nothing alive. */
static void mark_empty(Pair *pairs, uint64_t n, int64_t empty)
{
    for (uint64_t i = 0; i < n; i++)
        pairs[i] = (Pair){empty, 0};
}

/* Moves the slots to a table of n, reading the old one straight through.
 * A wide slot's hash is rehashed only when `rehash` (the map has just
 * gone strong); a narrow one's is always computed afresh. */
static void resize_slots(MosMap *m, uint64_t n, bool rehash, const char *where)
{
    bool scanned = m->value_kind != MOS_ELEM_PLAIN;     /* keys live by key_blocks */
    uint64_t old_n = has_table(m) ? m->mask + 1 : 0;
    m->mask = n - 1;
    m->shift = (uint64_t)__builtin_clzll(n) + 1;        /* n = 2^b: 64 - b */
    m->limit = chain_limit(n);
    if (is_narrow(m)) {
        Pair *old = m->pairs;
        m->pairs = alloc_array(n * sizeof(Pair), scanned, false, m, where);
        mark_empty(m->pairs, n, m->empty);
        for (uint64_t j = 0; j < old_n; j++) {
            if (old[j].key == m->empty)
                continue;
            uint64_t i = home(m, key_of(m, old[j].key).hash);
            while (m->pairs[i].key != m->empty)
                i = (i + 1) & m->mask;
            m->pairs[i] = old[j];
        }
        m->probe = m->strong ? NULL : m->pairs;
        release(old);
        return;
    }
    Slot *old = m->slots;
    m->slots = alloc_zeroed(n * sizeof(Slot), scanned, m, where);
    for (uint64_t j = 0; j < old_n; j++) {
        if (old[j].key == 0)
            continue;
        if (rehash)
            old[j].hash = key_of(m, old[j].key).hash;
        uint64_t i = home(m, old[j].hash);
        while (m->slots[i].key != 0)
            i = (i + 1) & m->mask;
        m->slots[i] = old[j];
    }
    release(old);
}

/* A probe went past chain_limit: from now on the map hashes every key
 * with SipHash, and generated code's in-line probe gives way to the
 * runtime (probe is NULL).  The slots are rehashed in a table of the same
 * size; the order array holds keys, not slots, so it stays as it is. */
static void go_strong(MosMap *m, const char *where)
{
    m->strong = true;
    resize_slots(m, m->mask + 1, true, where);
}

/* locate's rare part: the map goes strong, and k's hash and slot are
 * found again. */
static __attribute__((noinline)) uint64_t relocate(MosMap *m, Key *k, bool *found,
                                                   const char *where)
{
    go_strong(m, where);
    *k = key_of(m, k->key);
    uint64_t steps;
    return probe(m, k, found, &steps);
}

/* A narrow map is about to hold the key that marks its empty slots: a
 * new mark is drawn, one no key has, and the empty slots take it.  With
 * a random 64-bit mark this happens about never.  The order array may
 * hold the old mark as a dead entry's key: that is still a key the map
 * does not hold, which is all settle_order asks of a dead entry. */
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

/* The order array without its dead entries, in a new array of cap (at
 * least size) entries.  Walking from the end, an entry is alive if its key
 * is present and no later entry had it (a bit per slot says which slots
 * have been met); the live ones are written from the end of their room
 * down.  String keys are copied afresh, so that removed keys' room in the
 * key blocks goes back to the collector. */
static void settle_order(MosMap *m, int64_t cap, const char *where)
{
    if (cap > MAX_ENTRIES)
        too_big(m, where);
    int64_t *order = alloc_array((size_t)cap * sizeof *order, false, false, m, where);
    if (m->size == m->used) {
        /* nothing dead: nothing to settle */
        if (m->used)
            memcpy(order, m->order, (size_t)m->used * sizeof *order);
        release(m->order);
        m->order = order;
        m->order_cap = cap;
        return;
    }
    uint64_t slots = m->mask + 1;
    uint64_t *met = alloc_zeroed((slots + 63) / 64 * sizeof *met, false, m, where);
    void **old_blocks = m->key_blocks;  /* alive until the keys are copied out */
    if (!is_narrow(m))
        forget_key_blocks(m);           /* the live keys are copied afresh */
    int64_t n = m->size;
    for (int64_t e = m->used - 1; e >= 0 && n > 0; e--) {
        int64_t key = m->order[e];
        if (is_narrow(m) && key == m->empty)
            continue;                   /* a dead entry of the mark's key */
        Key k = key_of(m, key);
        bool found;
        uint64_t steps, i = probe(m, &k, &found, &steps);
        if (!found || (met[i / 64] >> (i % 64) & 1))
            continue;
        met[i / 64] |= (uint64_t)1 << (i % 64);
        if (!is_narrow(m))
            key = m->slots[i].key = own_key(m, m->slots[i].key, where);
        order[--n] = key;
    }
    /* n is 0: every key present has an entry */
    GC_reachable_here(old_blocks);
    release(met);
    release(m->order);
    m->order = order;
    m->order_cap = cap;
    m->used = m->size;
}

/* The order array is full: make room for at least one more, twice the
 * room when few entries are dead. */
static void grow_order(MosMap *m, const char *where)
{
    int64_t cap = m->order_cap == 0 ? FIRST_SLOTS / 2
                : m->size >= m->order_cap / 2 ? 2 * m->order_cap : m->order_cap;
    settle_order(m, cap, where);
}

void mos_map_set(MosMap *m, int64_t key, int64_t value, const char *where)
{
    not_null(m, where);
    if (!has_table(m)) {
        grow_order(m, where);
        resize_slots(m, FIRST_SLOTS, false, where);
    }
    if (is_narrow(m) && key == m->empty)
        change_empty_key(m);
    Key k = key_of(m, key);
    bool found;
    uint64_t i = locate(m, &k, &found, where);
    if (found) {
        *value_at(m, i) = value;
        return;
    }
    bool moved = false;
    if ((uint64_t)(m->size + 1) * 2 > m->mask + 1) {       /* keep it at most half full */
        if (m->mask + 1 >= 2 * (uint64_t)MAX_ENTRIES)
            too_big(m, where);
        resize_slots(m, 2 * (m->mask + 1), false, where);
        moved = true;
    }
    if (m->used == m->order_cap)
        grow_order(m, where);
    if (moved)
        i = locate(m, &k, &found, where);
    if (is_narrow(m)) {
        m->pairs[i] = (Pair){key, value};
    } else {
        key = own_key(m, key, where);
        m->slots[i] = (Slot){key, value, k.word, k.hash};
    }
    m->order[m->used++] = key;
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
    int64_t i = find(not_null(m, where), key, where);
    if (i < 0)
        missing(m, key, where);
    return *value_at(m, (uint64_t)i);
}

int64_t mos_map_get_or(MosMap *m, int64_t key, int64_t otherwise, const char *where)
{
    int64_t i = find(not_null(m, where), key, where);
    return i < 0 ? otherwise : *value_at(m, (uint64_t)i);
}

int64_t *mos_map_cell(MosMap *m, int64_t key, const char *where)
{
    int64_t i = find(not_null(m, where), key, where);
    if (i < 0)
        missing(m, key, where);
    return value_at(m, (uint64_t)i);
}

int64_t *mos_map_cell_or(MosMap *m, int64_t key, int64_t otherwise, const char *where)
{
    int64_t i = find(not_null(m, where), key, where);
    if (i < 0) {
        mos_map_set(m, key, otherwise, where);
        i = find(m, key, where);
    }
    return value_at(m, (uint64_t)i);
}

int32_t mos_map_has(MosMap *m, int64_t key, const char *where)
{
    return find(not_null(m, where), key, where) >= 0;
}

/* Backward shift from the hole at slot i: later slots of the same run
 * are pulled into it unless that would move them before their home slot;
 * then the last hole is emptied.  One loop per form of slot, the narrow
 * one with the map's words in locals, so that a removal is as short as a
 * C table's. */
static void shift_pairs(MosMap *m, uint64_t i)
{
    Pair *pairs = m->pairs;
    uint64_t mask = m->mask, shift = m->shift;
    int64_t empty = m->empty;
    for (uint64_t j = (i + 1) & mask; pairs[j].key != empty; j = (j + 1) & mask) {
        int64_t key = pairs[j].key;
        uint64_t at = (m->strong ? key_of(m, key).hash : mix((uint64_t)key)) >> shift;
        if (((j - at) & mask) >= ((j - i) & mask)) {
            pairs[i] = pairs[j];
            i = j;
        }
    }
    pairs[i] = (Pair){empty, 0};
}

static void shift_slots(MosMap *m, uint64_t i)
{
    for (uint64_t j = (i + 1) & m->mask; m->slots[j].key != 0; j = (j + 1) & m->mask) {
        uint64_t at = home(m, m->slots[j].hash);
        if (((j - at) & m->mask) >= ((j - i) & m->mask)) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i] = (Slot){0};
}

int32_t mos_map_remove(MosMap *m, int64_t key, const char *where)
{
    int64_t at = find(not_null(m, where), key, where);
    if (at < 0)
        return 0;
    m->size--;      /* its entry in the order array is dead now (see the essay) */
    if (is_narrow(m))
        shift_pairs(m, (uint64_t)at);
    else
        shift_slots(m, (uint64_t)at);
    if (m->size == 0)
        m->used = 0;    /* nothing live: the order array starts again */
    return 1;
}

void mos_map_clear(MosMap *m, const char *where)
{
    not_null(m, where);
    if (m->slots)
        memset(m->slots, 0, (size_t)(m->mask + 1) * sizeof(Slot));
    if (m->pairs)
        mark_empty(m->pairs, m->mask + 1, m->empty);
    forget_key_blocks(m);
    m->used = 0;
    m->size = 0;
}

/* keys() or values(): a new array of them, in the map's order. */
static MosArray *column(MosMap *m, bool keys, const char *where)
{
    not_null(m, where);
    if (m->used > m->size)
        settle_order(m, m->order_cap, where);
    int32_t kind, size;
    if (keys) {
        kind = m->key_kind == MOS_KEY_STRING ? MOS_ELEM_STRING : MOS_ELEM_PLAIN;
        size = m->key_kind == MOS_KEY_BOOL ? 1 : 8;
    } else {
        kind = m->value_kind;
        size = m->value_size;
    }
    MosArray *xs = mos_array_new(m->size, size, kind, where);
    for (int64_t e = 0; e < m->size; e++) {
        int64_t word = m->order[e];
        if (!keys) {
            Key k = key_of(m, word);
            bool found;
            uint64_t steps, i = probe(m, &k, &found, &steps);
            word = *value_at(m, i);
        }
        if (size == 1)
            xs->data[e] = (char)(word != 0);
        else
            ((int64_t *)(void *)xs->data)[e] = word;
    }
    return xs;
}

void rt_map_kinds(const MosMap *m, int32_t *key_kind, int32_t *value_kind, int32_t *value_size)
{
    *key_kind = m->key_kind;
    *value_kind = m->value_kind;
    *value_size = m->value_size;
}

MosArray *mos_map_keys(MosMap *m, const char *where)
{
    return column(m, true, where);
}

MosArray *mos_map_values(MosMap *m, const char *where)
{
    return column(m, false, where);
}
