/* bench/maps/intkeys.c — what intkeys.mos does, as a C programmer would
 * write it: a hash table of int64 keys and values of its own.  Open
 * addressing with linear probing in one array of 16-byte slots, a
 * power-of-two capacity doubled when half full, Fibonacci hashing (the key
 * times 2^64/φ, the top bits) as the hash, and deletion by backward shift,
 * so that no tombstone lengthens later probes.  The keys are known to be
 * non-negative, so INT64_MIN marks an empty slot. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EMPTY INT64_MIN

typedef struct {
    int64_t key, value;
} Slot;

typedef struct {
    Slot *slots;
    size_t cap, size;
    int shift;  /* 64 - log2(cap) */
} Table;

static inline size_t home(const Table *t, int64_t k)
{
    return (size_t)(((uint64_t)k * 0x9e3779b97f4a7c15ULL) >> t->shift);
}

/* The index of the slot holding k, or of the empty slot where it belongs. */
static inline size_t find(const Table *t, int64_t k)
{
    size_t mask = t->cap - 1, i = home(t, k);
    while (t->slots[i].key != EMPTY && t->slots[i].key != k)
        i = (i + 1) & mask;
    return i;
}

static void resize(Table *t, size_t cap)
{
    Slot *old = t->slots;
    size_t oldcap = t->cap;
    t->slots = malloc(cap * sizeof *t->slots);
    if (!t->slots)
        exit(1);
    for (size_t i = 0; i < cap; i++)
        t->slots[i].key = EMPTY;
    t->cap = cap;
    t->shift = 64;
    for (size_t c = cap; c > 1; c >>= 1)
        t->shift--;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key != EMPTY)
            t->slots[find(t, old[i].key)] = old[i];
    free(old);
}

static void put(Table *t, int64_t k, int64_t v)
{
    size_t i = find(t, k);
    if (t->slots[i].key == EMPTY) {
        if (2 * (t->size + 1) > t->cap) {
            resize(t, t->cap * 2);
            i = find(t, k);
        }
        t->slots[i].key = k;
        t->size++;
    }
    t->slots[i].value = v;
}

static inline bool get(const Table *t, int64_t k, int64_t *v)
{
    size_t i = find(t, k);
    if (t->slots[i].key == EMPTY)
        return false;
    *v = t->slots[i].value;
    return true;
}

static bool del(Table *t, int64_t k)
{
    size_t mask = t->cap - 1, i = find(t, k);
    if (t->slots[i].key == EMPTY)
        return false;
    /* Backward shift: move up every later slot of the run whose home is
     * not between the hole and it (cyclically), then empty the last hole. */
    for (size_t j = (i + 1) & mask; t->slots[j].key != EMPTY; j = (j + 1) & mask) {
        size_t h = home(t, t->slots[j].key);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            t->slots[i] = t->slots[j];
            i = j;
        }
    }
    t->slots[i].key = EMPTY;
    t->size--;
    return true;
}

/* intkeys.mos's key: i scrambled by a bijection of 32-bit numbers. */
static inline int64_t key(int64_t i)
{
    int64_t x = (i * 2654435761LL) & 0xffffffffLL;
    x ^= x >> 16;
    x = (x * 0x45d9f3bLL) & 0xffffffffLL;
    return x ^ (x >> 16);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    Table t = {0};
    resize(&t, 16);

    for (long i = 0; i < n; i++)
        put(&t, key(i), i);
    long size = (long)t.size;
    int64_t sum = 0, v;
    for (long i = 0; i < n; i++)
        if (get(&t, key(i), &v))
            sum += v;
    long removed = 0;
    for (long i = 0; i < n; i += 2)
        if (del(&t, key(i)))
            removed++;
    long hits = 0;
    int64_t rest = 0;
    for (long i = 0; i < n; i++) {
        if (get(&t, key(i), &v)) {
            hits++;
            rest += v;
        }
    }
    printf("intkeys: n=%ld size=%ld sum=%lld removed=%ld hits=%ld rest=%lld left=%zu\n", n, size,
           (long long)sum, removed, hits, (long long)rest, t.size);
    return 0;
}
