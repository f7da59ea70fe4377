/* map.c — Map<K, V> (LANGUAGE.md §9): a hash table that keeps insertion
 * order.
 *
 * The layout is the "compact dict" of CPython and of Rust's indexmap: the
 * entries live in an array in the order they were added, and a separate
 * open-addressing index, a power of two of 64-bit slots, maps a hash to
 * an entry's position: a slot holds the entry's number + 1 (0: empty) and
 * the low 32 bits of its hash, so a probe reads the entry only when those
 * match, and finds a slot's home without reading the entry at all.  So
 *
 *   - iterating, keys() and values() walk the entries in order, which is
 *     the order §9 defines: replacing a value keeps the entry where it is;
 *     removing marks it dead (and a later insertion of the same key goes
 *     last, as a new entry);
 *   - a lookup hashes once, probes the index linearly, and reads an entry
 *     (and compares its key) only when 32 bits of hash match, then the
 *     whole hash: a lookup of a key that is absent touches the index
 *     alone, one that is present the index and its entry;
 *   - removal deletes from the index by backward shifting (no tombstones
 *     in the index, so probes stay short however many keys come and go);
 *     the dead entries are squeezed out when the entry array is full.
 *
 * The index has at least twice as many slots as the entry array has room
 * for, so it is never more than half full.
 *
 * Keys and values cross the ABI as 64-bit words (mosaic_rt.h): an int, a
 * bool's 0/1, a string's MosString *, a float's bits, a reference.
 *
 * Hashing is keyed by a secret chosen once per process (getrandom), so
 * that no fixed set of keys collides in every run: strings by SipHash-1-3
 * (Aumasson and Bernstein's keyed hash, the one Rust's HashMap and
 * Python's str use), ints and bools by a multiply-xorshift mix of the key
 * and the secret.  The order a program sees never depends on the hash.
 * `m[w] = m.get(w, 0) + 1` hashes w once: the map remembers the last
 * string key it hashed.
 *
 * Memory: the header is a scanned block (it points to the two arrays);
 * the entries are scanned only when keys or values are strings or
 * references; the index never is.  A removed or cleared entry is zeroed so
 * that it keeps nothing alive.
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

typedef struct MapEntry {
    uint64_t hash;      /* DEAD once removed */
    int64_t key;
    int64_t value;
} MapEntry;

struct MosMap {
    int64_t size;           /* live entries: generated code reads it (`m.size`) */
    int64_t node;           /* where the map lives (--count-remote) */
    MapEntry *entries;      /* `used` of `capacity` written, in insertion order */
    uint64_t *index;        /* index_mask + 1 slots: hash << 32 | entry + 1 */
    int64_t used;
    int64_t capacity;
    uint64_t index_mask;
    int32_t key_kind;       /* MOS_KEY_* */
    int32_t value_kind;     /* MOS_ELEM_* */
    int32_t value_size;     /* 8, or 1 for bool: the element size of values() */
    int64_t hashed_key;     /* the last string key hashed, and its hash */
    uint64_t hashed;
};

_Static_assert(offsetof(MosMap, size) == 0 && offsetof(MosMap, node) == 8,
               "generated code reads a map's size and node at these offsets");

#define DEAD UINT64_MAX     /* live hashes have the top bit clear */
#define FIRST_CAPACITY 8
#define MAX_ENTRIES ((int64_t)1 << 31)  /* and so at most 2^32 index slots */

static inline uint64_t index_slot(uint64_t hash, int64_t entry)
{
    return hash << 32 | (uint64_t)(entry + 1);
}

static inline int64_t slot_entry(uint64_t slot)
{
    return (int64_t)(uint32_t)slot - 1;
}

static inline uint64_t slot_home(uint64_t slot, uint64_t mask)
{
    return (slot >> 32) & mask;
}

/* ---- hashing ------------------------------------------------------------- */

static uint64_t secret[2];
static pthread_once_t secret_once = PTHREAD_ONCE_INIT;

static void choose_secret(void)
{
    if (getrandom(secret, sizeof secret, GRND_NONBLOCK) != (ssize_t)sizeof secret) {
        /* no entropy yet (early boot): still differs from run to run */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        secret[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
        secret[1] = (uint64_t)ts.tv_sec * 0xc2b2ae3d27d4eb4full ^ (uintptr_t)&ts;
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

static uint64_t hash_key(MosMap *m, int64_t key)
{
    uint64_t h;
    if (m->key_kind == MOS_KEY_STRING) {
        /* strings are immutable, and the header keeps the last one alive:
         * the same pointer has the same hash */
        if (key == m->hashed_key && m->hashed_key)
            return m->hashed;
        const MosString *s = (const MosString *)(uintptr_t)key;
        h = siphash13((const unsigned char *)s->bytes, (size_t)s->length) >> 1;
        m->hashed_key = key;
        m->hashed = h;
        return h;
    } else {
        /* a bijective mix of key and secret: every bit of both reaches
         * the low bits the index uses */
        h = ((uint64_t)key ^ secret[0]) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        h = (h ^ secret[1]) * 0x94d049bb133111ebull;
        h ^= h >> 29;
    }
    return h >> 1;              /* never DEAD */
}

static inline bool same_key(const MosMap *m, int64_t a, int64_t b)
{
    if (a == b)
        return true;
    if (m->key_kind != MOS_KEY_STRING)
        return false;
    const MosString *x = (const MosString *)(uintptr_t)a, *y = (const MosString *)(uintptr_t)b;
    return x->length == y->length && memcmp(x->bytes, y->bytes, (size_t)x->length) == 0;
}

/* ---- the table ------------------------------------------------------------ */

static MosMap *not_null(MosMap *m, const char *where)
{
    if (!m)
        mos_panic(where, "null dereference: a null map");
    return m;
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
    return m;
}

/* The index slot holding key's entry, or the empty slot where it would
 * go; *found says which. */
static uint64_t probe(const MosMap *m, int64_t key, uint64_t hash, bool *found)
{
    uint64_t i = hash & m->index_mask;
    uint32_t tag = (uint32_t)hash;
    for (;;) {
        uint64_t slot = m->index[i];
        if (slot == 0) {
            *found = false;
            return i;
        }
        if ((uint32_t)(slot >> 32) == tag) {
            const MapEntry *e = &m->entries[slot_entry(slot)];
            if (e->hash == hash && same_key(m, e->key, key)) {
                *found = true;
                return i;
            }
        }
        i = (i + 1) & m->index_mask;
    }
}

static MapEntry *find(MosMap *m, int64_t key)
{
    if (m->size == 0)
        return NULL;
    bool found;
    uint64_t i = probe(m, key, hash_key(m, key), &found);
    return found ? &m->entries[slot_entry(m->index[i])] : NULL;
}

static void *alloc_entries(const MosMap *m, int64_t capacity, const char *where)
{
    size_t bytes = (size_t)capacity * sizeof(MapEntry);
    bool scanned = m->key_kind == MOS_KEY_STRING || m->value_kind != MOS_ELEM_PLAIN;
    void *p = scanned ? GC_malloc(bytes) : GC_malloc_atomic(bytes);
    if (!p)
        rt_panicf(where, "out of memory: a map of %lld entries", (long long)capacity);
    return p;
}

/* Rebuilds the table with room for `capacity` entries: the live entries
 * copied in order (the dead ones dropped), a fresh index. */
static void rebuild(MosMap *m, int64_t capacity, const char *where)
{
    if (capacity > MAX_ENTRIES)
        rt_panicf(where, "out of memory: a map of more than %lld entries",
                  (long long)MAX_ENTRIES);
    MapEntry *entries = alloc_entries(m, capacity, where);
    uint64_t slots = 2 * (uint64_t)capacity;
    uint64_t *index = GC_malloc_atomic(slots * sizeof *index);
    if (!index)
        rt_panicf(where, "out of memory: a map of %lld entries", (long long)capacity);
    memset(index, 0, slots * sizeof *index);
    int64_t n = 0;
    for (int64_t i = 0; i < m->used; i++)
        if (m->entries[i].hash != DEAD)
            entries[n++] = m->entries[i];
    m->entries = entries;
    m->index = index;
    m->index_mask = slots - 1;
    m->used = n;
    m->capacity = capacity;
    for (int64_t i = 0; i < n; i++) {
        uint64_t j = entries[i].hash & m->index_mask;
        while (index[j] != 0)
            j = (j + 1) & m->index_mask;
        index[j] = index_slot(entries[i].hash, i);
    }
}

void mos_map_set(MosMap *m, int64_t key, int64_t value, const char *where)
{
    not_null(m, where);
    if (m->capacity == 0)
        rebuild(m, FIRST_CAPACITY, where);
    uint64_t hash = hash_key(m, key);
    bool found;
    uint64_t i = probe(m, key, hash, &found);
    if (found) {
        m->entries[slot_entry(m->index[i])].value = value;
        return;
    }
    if (m->used == m->capacity) {
        /* full: squeeze out the dead entries, or grow when few are dead */
        rebuild(m, m->size < m->capacity / 2 ? m->capacity : 2 * m->capacity, where);
        i = probe(m, key, hash, &found);
    }
    m->entries[m->used] = (MapEntry){hash, key, value};
    m->index[i] = index_slot(hash, m->used);
    m->used++;
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
    MapEntry *e = find(not_null(m, where), key);
    if (!e)
        missing(m, key, where);
    return e->value;
}

int64_t mos_map_get_or(MosMap *m, int64_t key, int64_t otherwise, const char *where)
{
    MapEntry *e = find(not_null(m, where), key);
    return e ? e->value : otherwise;
}

int32_t mos_map_has(MosMap *m, int64_t key, const char *where)
{
    return find(not_null(m, where), key) != NULL;
}

int32_t mos_map_remove(MosMap *m, int64_t key, const char *where)
{
    if (not_null(m, where)->size == 0)
        return 0;
    bool found;
    uint64_t i = probe(m, key, hash_key(m, key), &found);
    if (!found)
        return 0;
    MapEntry *e = &m->entries[slot_entry(m->index[i])];
    *e = (MapEntry){DEAD, 0, 0};
    m->size--;
    /* backward shift: pull later slots of the same run into the hole
     * unless that would move them before their home slot */
    uint64_t mask = m->index_mask;
    for (uint64_t j = (i + 1) & mask; m->index[j] != 0; j = (j + 1) & mask) {
        uint64_t home = slot_home(m->index[j], mask);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            m->index[i] = m->index[j];
            i = j;
        }
    }
    m->index[i] = 0;
    if (m->size == 0) {
        m->used = 0;    /* nothing live: start again at the front */
        memset(m->index, 0, (mask + 1) * sizeof *m->index);
    }
    return 1;
}

void mos_map_clear(MosMap *m, const char *where)
{
    not_null(m, where);
    if (m->capacity == 0)
        return;
    memset(m->entries, 0, (size_t)m->used * sizeof *m->entries);
    memset(m->index, 0, (m->index_mask + 1) * sizeof *m->index);
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
    for (int64_t i = 0; i < m->used; i++) {
        const MapEntry *e = &m->entries[i];
        if (e->hash == DEAD)
            continue;
        int64_t word = keys ? e->key : e->value;
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
