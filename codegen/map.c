/* map.c — the code generator's hash map: open addressing, linear probing.
 *
 * Keys are either pointers (AST declarations -> their LLVM counterparts)
 * or byte strings (constants, interned so that each string literal and
 * each "FILE:LINE:COL" exists once in the module).  Values are opaque
 * pointers.  Memory comes from the compiler's arena, like everything else
 * built during one compilation; nothing is ever removed.  The load factor
 * stays under 3/4, so a probe sequence is short.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"

static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull;        /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;                 /* murmur3 finaliser */
    x ^= x >> 33;
    return x;
}

static CgMapEntry *map_find(CgMap *m, const void *key, size_t len, uint64_t h,
                            bool is_str)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        CgMapEntry *e = &m->slots[i];
        if (!e->key)
            return e;
        if (e->hash == h && e->len == len &&
            (is_str ? memcmp(e->key, key, len) == 0 : e->key == key))
            return e;
    }
}

static void map_grow(CgMap *m)
{
    size_t old_cap = m->cap;
    CgMapEntry *old = m->slots;
    m->cap = old_cap ? old_cap * 2 : 64;
    m->slots = arena_alloc(m->cap * sizeof *m->slots);
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].key)
            continue;
        size_t mask = m->cap - 1, j = old[i].hash & mask;
        while (m->slots[j].key)
            j = (j + 1) & mask;
        m->slots[j] = old[i];
    }
}

static void map_put(CgMap *m, const void *key, size_t len, uint64_t h,
                    bool is_str, void *value)
{
    if ((m->len + 1) * 4 > m->cap * 3)         /* keep the load under 3/4 */
        map_grow(m);
    CgMapEntry *e = map_find(m, key, len, h, is_str);
    if (!e->key) {
        m->len++;
        e->key = is_str ? arena_strndup(key, len) : key;
        e->len = len;
        e->hash = h;
    }
    e->value = value;
}

void *cg_map_get_ptr(CgMap *m, const void *key)
{
    CgMapEntry *e = map_find(m, key, 0, hash_ptr(key), false);
    return e && e->key ? e->value : NULL;
}

void cg_map_put_ptr(CgMap *m, const void *key, void *value)
{
    map_put(m, key, 0, hash_ptr(key), false, value);
}

void *cg_map_get_str(CgMap *m, const char *bytes, size_t len)
{
    /* an empty string key must still be non-NULL: use a static "" */
    CgMapEntry *e = map_find(m, len ? bytes : "", len, hash_bytes(bytes, len), true);
    return e && e->key ? e->value : NULL;
}

void cg_map_put_str(CgMap *m, const char *bytes, size_t len, void *value)
{
    map_put(m, len ? bytes : "", len, hash_bytes(bytes, len), true, value);
}
