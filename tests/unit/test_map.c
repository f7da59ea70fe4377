/* test_map.c — white-box tests of stdlib/map.c, the table behind
 * Map<K, V> (LANGUAGE.md §9), for what no Mosaic program can reach.
 *
 * A map with int keys marks its empty slots with a random key of its own
 * (map.c's essay); a program that inserts that very key makes the map
 * draw a new mark.  With a random 64-bit mark no test program hits that
 * path, so this one includes map.c itself, sets the mark to keys it is
 * about to insert, and checks that every entry, the insertion order,
 * removal and growth come out as with any other key.
 *
 * The map also stops trusting its fast hash when a probe runs long (the
 * essay's "strong" maps).  No program can aim at that without the secret,
 * so this one fixes the secret and makes keys that all hash to one slot:
 * int keys by running the mix backwards, strings by trying words until
 * enough share the top bits of their hash.  It checks that the map goes strong,
 * hides its slots from generated code, and keeps every entry and the
 * order.  And it checks the order array's dead entries, which only
 * settle_order removes.
 *
 * Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include "stdlib/map.c"
#include "tests/unit/tap.h"

static const char *const WHERE = "test_map.c:1:1";

/* The keys in the map's order, as "k=v k=v". */
static void order_of(MosMap *m, char *out, size_t n)
{
    MosArray *ks = mos_map_keys(m, WHERE), *vs = mos_map_values(m, WHERE);
    size_t used = 0;
    out[0] = '\0';
    for (int64_t i = 0; i < ks->length && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%lld=%lld", i ? " " : "",
                                 (long long)((int64_t *)(void *)ks->data)[i],
                                 (long long)((int64_t *)(void *)vs->data)[i]);
}

/* As if the map had drawn `mark` (a key it does not hold) for its empty
 * slots. */
static void remark(MosMap *m, int64_t mark)
{
    for (uint64_t i = 0; m->pairs && i <= m->mask; i++)
        if (m->pairs[i].key == m->empty)
            m->pairs[i].key = mark;
    m->empty = mark;
}

static void test_key_equal_to_the_empty_mark(void)
{
    MosMap *m = mos_map_new(MOS_KEY_INT, MOS_ELEM_PLAIN, 8, 0, WHERE);
    for (int64_t k = 0; k < 40; k++)
        mos_map_set(m, k * 7, k, WHERE);
    remark(m, 1000);                    /* the next key to come */
    mos_map_set(m, 1000, -1, WHERE);
    TAP_OK(m->empty != 1000, "inserting the mark draws a new one");
    TAP_OK(mos_map_get(m, 1000, WHERE) == -1 && m->size == 41, "and the key is there");
    int64_t sum = 0;
    for (int64_t k = 0; k < 40; k++)
        sum += mos_map_get_or(m, k * 7, -100, WHERE);
    TAP_OK(sum == 40 * 39 / 2, "every other key kept its value");
    remark(m, 1001);
    TAP_OK(!mos_map_has(m, 1001, WHERE) && mos_map_get_or(m, 1001, 5, WHERE) == 5 &&
               !mos_map_remove(m, 1001, WHERE),
           "looking the mark up finds nothing");
    for (int64_t k = 0; k < 40; k++)
        mos_map_remove(m, k * 7, WHERE);
    char text[256];
    order_of(m, text, sizeof text);
    TAP_STR_EQ(text, "1000=-1", "removal around the marked slots");
    remark(m, 0);
    mos_map_set(m, 0, 9, WHERE);
    mos_map_set(m, 1000, 8, WHERE);
    order_of(m, text, sizeof text);
    TAP_STR_EQ(text, "1000=8 0=9", "order after the mark changes");
    for (int64_t k = 1; k < 5000; k++)          /* growth rehashes past the new mark */
        mos_map_set(m, k, k, WHERE);
    TAP_OK(m->size == 5000 && mos_map_get(m, 0, WHERE) == 9 && mos_map_get(m, 4999, WHERE) == 4999,
           "growth after the mark changes");
    mos_map_clear(m, WHERE);
    TAP_OK(m->size == 0 && !mos_map_has(m, 0, WHERE) && !mos_map_has(m, 4999, WHERE),
           "clear empties every slot");
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* The int key whose mix (map.c) is h. */
static int64_t key_with_hash(uint64_t h)
{
    return (int64_t)(h * inverse(FIBONACCI) ^ mos_map_secret[0]);
}

#define COLLIDING 400   /* more than chain_limit of the tables they fill */

static void test_colliding_int_keys(void)
{
    MosMap *m = mos_map_new(MOS_KEY_INT, MOS_ELEM_PLAIN, 8, 0, WHERE);
    int64_t keys[COLLIDING];
    bool all_collide = true;
    for (int i = 0; i < COLLIDING; i++) {
        keys[i] = key_with_hash(0x5a5a5ull << 44 | (uint64_t)(i + 1) << 8);  /* top 20 bits */
        all_collide = all_collide && mix((uint64_t)keys[i]) >> 44 == 0x5a5a5;
    }
    TAP_OK(all_collide, "the keys share the top 20 bits of their hash: one home slot");
    for (int i = 0; i < COLLIDING; i++) {
        if (i == 100)
            TAP_OK(!m->strong && m->probe == m->pairs, "a hundred collisions: still the mix");
        mos_map_set(m, keys[i], i, WHERE);
    }
    TAP_OK(m->strong && m->probe == NULL, "a long probe makes the map strong, its slots hidden");
    uint64_t longest = 0;
    for (int i = 0; i < COLLIDING; i++) {
        Key k = key_of(m, keys[i]);
        bool found;
        uint64_t steps;
        probe(m, &k, &found, &steps);
        longest = steps > longest ? steps : longest;
    }
    TAP_OK(longest < 16, "SipHash spreads the keys");
    bool ok = m->size == COLLIDING;
    for (int i = 0; i < COLLIDING; i++)
        ok = ok && mos_map_get(m, keys[i], WHERE) == i;
    TAP_OK(ok, "every entry kept");
    for (int i = 0; i < COLLIDING; i += 2)
        mos_map_remove(m, keys[i], WHERE);
    mos_map_set(m, keys[0], -1, WHERE);
    MosArray *ks = mos_map_keys(m, WHERE);
    ok = ks->length == COLLIDING / 2 + 1;
    for (int i = 1; ok && i < COLLIDING; i += 2)
        ok = ((int64_t *)(void *)ks->data)[i / 2] == keys[i];
    ok = ok && ((int64_t *)(void *)ks->data)[COLLIDING / 2] == keys[0];
    TAP_OK(ok, "removal and re-insertion keep the order");
}

static void test_colliding_string_keys(void)
{
    MosMap *m = mos_map_new(MOS_KEY_STRING, MOS_ELEM_PLAIN, 8, 0, WHERE);
    MosString *keys[COLLIDING];
    int n = 0;
    char word[8] = "aaaaaa";
    for (uint32_t x = 0; n < COLLIDING; x++) {
        for (int j = 0; j < 6; j++)
            word[j] = (char)('a' + (x >> (4 * j)) % 16);
        MosString *s = rt_string_new(word, 6);
        if (key_of(m, (int64_t)(uintptr_t)s).hash >> 52 == 0x123)
            keys[n++] = s;
    }
    for (int i = 0; i < n; i++)
        mos_map_set(m, (int64_t)(uintptr_t)keys[i], i, WHERE);
    TAP_OK(m->strong, "strings with one short hash make the map strong");
    bool ok = m->size == n;
    for (int i = 0; i < n; i++)
        ok = ok && mos_map_get(m, (int64_t)(uintptr_t)rt_string_new(keys[i]->bytes, 6), WHERE) == i;
    MosArray *ks = mos_map_keys(m, WHERE);
    for (int i = 0; ok && i < n; i++)
        ok = same_bytes(((MosString **)(void *)ks->data)[i]->bytes, keys[i]->bytes, 6);
    TAP_OK(ok, "every entry kept, in order");
}

/* Dead entries: removal leaves them, settle_order drops them, keeping the
 * last entry of a key removed and added again. */
static void test_dead_entries(void)
{
    MosMap *m = mos_map_new(MOS_KEY_INT, MOS_ELEM_PLAIN, 8, 0, WHERE);
    for (int64_t k = 0; k < 6; k++)
        mos_map_set(m, k, k * 10, WHERE);
    mos_map_remove(m, 1, WHERE);
    mos_map_remove(m, 3, WHERE);
    mos_map_set(m, 1, 11, WHERE);
    mos_map_set(m, 4, 44, WHERE);      /* replaced: keeps its place */
    mos_map_remove(m, 5, WHERE);
    mos_map_set(m, 5, 55, WHERE);
    mos_map_remove(m, 5, WHERE);
    TAP_OK(m->used == 8 && m->size == 4, "removal leaves dead entries");
    char text[256];
    order_of(m, text, sizeof text);
    TAP_STR_EQ(text, "0=0 2=20 4=44 1=11", "the order without them");
    TAP_OK(m->used == 4, "keys() settles the order array");
    for (int64_t round = 0; round < 1000; round++) {     /* refill the array with dead ones */
        mos_map_set(m, 100 + round % 3, round, WHERE);
        mos_map_remove(m, 100 + round % 3, WHERE);
    }
    TAP_OK(m->order_cap <= 16, "an array of dead entries is settled, not grown");
    mos_map_set(m, 3, 33, WHERE);
    order_of(m, text, sizeof text);
    TAP_STR_EQ(text, "0=0 2=20 4=44 1=11 3=33", "and the order survives it");
}

int main(void)
{
    GC_INIT();
    TAP_PLAN(21);
    test_key_equal_to_the_empty_mark();
    pthread_once(&secret_once, choose_secret);
    mos_map_secret[0] = 0x0123456789abcdefull;   /* a known secret, to aim at */
    mos_map_secret[1] = 0xfedcba9876543210ull;
    test_colliding_int_keys();
    test_colliding_string_keys();
    test_dead_entries();
    return tap_done();
}
