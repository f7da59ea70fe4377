/* sort.c — sort(xs) on [int], [float] and [string] (LANGUAGE.md §8).
 *
 * In place, ascending, O(n log n) in every case: a bottom-up merge sort
 * (runs of RUN elements sorted by insertion first, then merged in pairs,
 * back and forth between the array and one scratch buffer of the same
 * size).  Merge sort rather than quicksort so that no input is slow, and
 * stable, though the language does not ask for it.
 *
 * Orders: ints numerically; strings bytewise (mos_string_cmp, shorter
 * first on a common prefix); floats by IEEE order with -0.0 before 0.0
 * and every NaN after inf.  Floats are sorted as integer keys: NaNs are
 * moved to the end first (keeping their bits), then each other double's
 * bits are mapped to an unsigned integer that orders the same way (the
 * sign bit flipped for positives, every bit for negatives), sorted, and
 * mapped back, so no comparison of doubles is needed at all.
 *
 * The scratch buffer of a [string] sort is scanned by the collector: while
 * a merge writes the array, some strings are only in the scratch buffer.
 *
 * Not here: the effect (sort reads and writes the array's place: the
 * checker's effects pass), bounds (the array's own length is used).
 */
#include "rt_internal.h"

#include <string.h>

#include <gc.h>

/* Runs sorted by insertion before merging: short enough that insertion's
 * quadratic cost is noise, long enough to save the first merge passes. */
#define RUN 16

/* One element type: how to compare two elements. */
typedef int (*Less)(const void *a, const void *b);

static int less_key(const void *a, const void *b)
{
    return *(const uint64_t *)a < *(const uint64_t *)b;
}

static int less_int(const void *a, const void *b)
{
    return *(const int64_t *)a < *(const int64_t *)b;
}

static int less_string(const void *a, const void *b)
{
    return mos_string_cmp(*(MosString *const *)a, *(MosString *const *)b) < 0;
}

/* Every element is 8 bytes (an int64, a key, a string pointer). */
typedef uint64_t Elem;

static void insertion(Elem *x, int64_t n, Less less)
{
    for (int64_t i = 1; i < n; i++) {
        Elem v = x[i];
        int64_t j = i;
        while (j > 0 && less(&v, &x[j - 1])) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

/* Merges the sorted runs a[lo..mid) and a[mid..hi) into b[lo..hi);
 * stable: on a tie the left run's element goes first. */
static void merge(const Elem *a, Elem *b, int64_t lo, int64_t mid, int64_t hi,
                  Less less)
{
    int64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        b[k++] = less(&a[j], &a[i]) ? a[j++] : a[i++];
    while (i < mid)
        b[k++] = a[i++];
    while (j < hi)
        b[k++] = a[j++];
}

static void merge_sort(Elem *x, int64_t n, Less less, int scanned)
{
    for (int64_t lo = 0; lo < n; lo += RUN)
        insertion(x + lo, n - lo < RUN ? n - lo : RUN, less);
    if (n <= RUN)
        return;
    size_t bytes = (size_t)n * sizeof(Elem);
    Elem *scratch = scanned ? GC_MALLOC(bytes) : GC_MALLOC_ATOMIC(bytes);
    if (!scratch)
        rt_panicf(RT_NOWHERE, "out of memory: sorting %lld elements",
                  (long long)n);
    Elem *from = x, *to = scratch;
    for (int64_t width = RUN; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(from, to, lo, mid, hi, less);
        }
        Elem *t = from;
        from = to;
        to = t;
    }
    if (from != x)
        memcpy(x, from, bytes);
}

static Elem *elems(MosArray *xs, const char *where)
{
    if (!xs)
        mos_panic(where, "null dereference");
    return (Elem *)(void *)xs->data;
}

void mos_sort_int(MosArray *xs, const char *where)
{
    Elem *x = elems(xs, where);
    merge_sort(x, xs->length, less_int, 0);
}

void mos_sort_string(MosArray *xs, const char *where)
{
    Elem *x = elems(xs, where);
    merge_sort(x, xs->length, less_string, 1);
}

/* The order-preserving map of a non-NaN double's bits, and back. */
static uint64_t to_key(uint64_t bits)
{
    return bits >> 63 ? ~bits : bits | (uint64_t)1 << 63;
}

static uint64_t from_key(uint64_t key)
{
    return key >> 63 ? key & ~((uint64_t)1 << 63) : ~key;
}

static int is_nan_bits(uint64_t bits)
{
    return (bits & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
           (bits & 0x000fffffffffffffu) != 0;
}

void mos_sort_float(MosArray *xs, const char *where)
{
    Elem *x = elems(xs, where);
    int64_t n = xs->length, nan_count = 0;
    for (int64_t i = 0; i < n; i++)
        nan_count += is_nan_bits(x[i]);
    Elem *nans = NULL;
    if (nan_count > 0) {
        nans = GC_MALLOC_ATOMIC((size_t)nan_count * sizeof(Elem));
        if (!nans)
            rt_panicf(RT_NOWHERE, "out of memory: sorting %lld elements",
                      (long long)n);
    }
    /* the numbers compacted in front, the NaNs aside in their order */
    int64_t numbers = 0, k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (is_nan_bits(x[i]))
            nans[k++] = x[i];
        else
            x[numbers++] = to_key(x[i]);
    }
    merge_sort(x, numbers, less_key, 0);
    for (int64_t i = 0; i < numbers; i++)
        x[i] = from_key(x[i]);
    for (int64_t i = 0; i < nan_count; i++)
        x[numbers + i] = nans[i];
}
