/* bench/maps/wordfreq.c — what wordfreq.mos does, as a C programmer would
 * write it: lines read with getline, split at single spaces in place, and
 * the words counted in a hash table of their own: open addressing with
 * linear probing, a power-of-two capacity doubled when half full, FNV-1a
 * (64-bit) as the hash, kept in the slot so that a probe compares the bytes
 * only when the hashes are equal.  Each new word is copied once; the lines
 * are not kept. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *key;  /* NULL: an empty slot */
    size_t len;
    uint64_t hash;
    long count;
} Slot;

static Slot *slots;
static size_t cap, used;

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

/* The slot holding the word, or the empty slot where it belongs. */
static Slot *find(const char *s, size_t n, uint64_t h)
{
    size_t mask = cap - 1, i = (size_t)(h ^ (h >> 32)) & mask;
    while (slots[i].key && !(slots[i].hash == h && slots[i].len == n && memcmp(slots[i].key, s, n) == 0))
        i = (i + 1) & mask;
    return &slots[i];
}

static void grow(void)
{
    Slot *old = slots;
    size_t oldcap = cap;
    cap = cap ? cap * 2 : 1024;
    slots = calloc(cap, sizeof *slots);
    if (!slots)
        exit(1);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
            *find(old[i].key, old[i].len, old[i].hash) = old[i];
    free(old);
}

static void count(const char *s, size_t n)
{
    uint64_t h = fnv1a(s, n);
    Slot *slot = find(s, n, h);
    if (!slot->key) {
        if (2 * (used + 1) > cap) {
            grow();
            slot = find(s, n, h);
        }
        slot->key = malloc(n + 1);
        if (!slot->key)
            exit(1);
        memcpy(slot->key, s, n);
        slot->key[n] = '\0';
        slot->len = n;
        slot->hash = h;
        used++;
    }
    slot->count++;
}

/* Bytewise order, as Mosaic's `<` on strings. */
static int less(const Slot *a, const Slot *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->key, b->key, n);
    return c < 0 || (c == 0 && a->len < b->len);
}

int main(void)
{
    char *line = NULL;
    size_t linecap = 0;
    ssize_t got;
    long words = 0;

    grow();
    while ((got = getline(&line, &linecap, stdin)) > 0) {
        size_t len = (size_t)got;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        size_t start = 0;
        for (size_t i = 0; i <= len; i++) {
            if (i == len || line[i] == ' ') {
                if (i > start) {
                    count(line + start, i - start);
                    words++;
                }
                start = i + 1;
            }
        }
    }
    free(line);

    long checksum = 0;
    const Slot *first = NULL, *last = NULL;
    for (size_t i = 0; i < cap; i++) {
        const Slot *s = &slots[i];
        if (!s->key)
            continue;
        checksum += s->count * (long)s->len;
        if (!first || less(s, first))
            first = s;
        if (!last || less(last, s))
            last = s;
    }
    printf("wordfreq: distinct=%zu words=%ld checksum=%ld first=%s:%ld last=%s:%ld\n", used, words,
           checksum, first ? first->key : "", first ? first->count : 0L, last ? last->key : "",
           last ? last->count : 0L);
    return 0;
}
