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

int main(void)
{
    GC_INIT();
    TAP_PLAN(8);
    test_key_equal_to_the_empty_mark();
    return tap_done();
}
