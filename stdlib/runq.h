/* runq.h — a worker's run queue: one producer, many consumers, FIFO.
 *
 * Each worker keeps the actors it has scheduled in a growable circular
 * array.  Only the owner pushes (at `bottom`); anyone takes, the owner
 * included, from `top`, by compare-and-swap.  It is the stealing half of
 * the Chase–Lev work-stealing deque (as corrected for C11 by Lê, Pop,
 * Cohen and Zappa Nardelli, PPoPP 2013) without the owner's LIFO pop:
 * the owner takes its oldest entry too, which keeps the queue fair (an
 * actor requeued after its batch goes behind everything already waiting)
 * and makes taking one code path.  The owner's cache-hot fast path is the
 * worker's `slot` (sched.c), not this queue.
 *
 * Why a taker's compare-and-swap is enough: it reads top t, bottom b, and
 * the element at t; the CAS of top from t to t+1 succeeds only if nobody
 * took t meanwhile, and the owner overwrites the array cell of t only
 * after it has seen top move past t (it grows the array rather than wrap
 * onto a cell not yet taken), so a successful CAS returns the element that
 * was pushed at t.  A taker that loses the race gets RT_RING_LOST and
 * decides whether to retry.
 *
 * Growth copies the live entries into an array twice as large; a taker
 * still holding the old array reads the same entries there.  The arrays
 * come from the collector (GC_MALLOC: scanned, so queued actors stay
 * alive), and an old array is reclaimed once no taker's stack refers to
 * it — the collector solves the memory-reclamation problem that makes
 * lock-free growth hard in C.  The RtRing itself must live in scanned
 * memory (sched.c keeps it in an uncollectable worker struct).  Cells
 * below top keep their old pointers until overwritten, which may keep a
 * few dead actors alive a little longer; never more than one array's
 * worth.
 *
 * Not here: which queue to push to or steal from (sched.c).
 */
#ifndef RT_RUNQ_H
#define RT_RUNQ_H

#include <stdatomic.h>
#include <stdint.h>

#include <gc.h>

/* Initial capacity (a power of two): 256 actors per worker before the
 * first growth, 2 KiB. */
#define RT_RING_INITIAL 256

/* What rt_ring_take returns when another taker won the race. */
#define RT_RING_LOST ((void *)1)

typedef struct RtRingArray {
    int64_t mask;                   /* capacity - 1 */
    _Atomic(void *) cells[];
} RtRingArray;

/* top and bottom on separate cache lines: takers write top, the owner
 * writes bottom. */
typedef struct RtRing {
    _Atomic int64_t top;
    char pad_top[64 - sizeof(int64_t)];
    _Atomic int64_t bottom;
    _Atomic(RtRingArray *) array;
    char pad_bottom[64 - sizeof(int64_t) - sizeof(void *)];
} RtRing;

static inline RtRingArray *rt_ring_array_new(int64_t capacity)
{
    RtRingArray *a = GC_MALLOC(sizeof(RtRingArray) +
                               (size_t)capacity * sizeof(void *));
    if (a)
        a->mask = capacity - 1;
    return a;
}

/* Returns 0, or -1 when out of memory. */
static inline int rt_ring_init(RtRing *r)
{
    RtRingArray *a = rt_ring_array_new(RT_RING_INITIAL);
    if (!a)
        return -1;
    atomic_init(&r->top, 0);
    atomic_init(&r->bottom, 0);
    atomic_init(&r->array, a);
    return 0;
}

/* Owner only: a twice larger array holding entries t..b-1 at the same
 * indices; NULL when out of memory. */
static inline RtRingArray *rt_ring_grow(RtRing *r, RtRingArray *old,
                                        int64_t t, int64_t b)
{
    RtRingArray *a = rt_ring_array_new(2 * (old->mask + 1));
    if (!a)
        return NULL;
    for (int64_t i = t; i < b; i++)
        atomic_store_explicit(&a->cells[i & a->mask],
                              atomic_load_explicit(&old->cells[i & old->mask],
                                                   memory_order_relaxed),
                              memory_order_relaxed);
    atomic_store_explicit(&r->array, a, memory_order_release);
    return a;
}

/* Owner only.  Returns 0, or -1 when out of memory (x not queued). */
static inline int rt_ring_push(RtRing *r, void *x)
{
    int64_t b = atomic_load_explicit(&r->bottom, memory_order_relaxed);
    /* acquire: the taker that moved top read its cell before, so the
     * store below cannot be what it read */
    int64_t t = atomic_load_explicit(&r->top, memory_order_acquire);
    RtRingArray *a = atomic_load_explicit(&r->array, memory_order_relaxed);
    if (b - t > a->mask) {
        a = rt_ring_grow(r, a, t, b);
        if (!a)
            return -1;
    }
    atomic_store_explicit(&a->cells[b & a->mask], x, memory_order_relaxed);
    atomic_store_explicit(&r->bottom, b + 1, memory_order_release);
    return 0;
}

/* Anyone: the oldest entry, NULL when empty, RT_RING_LOST when another
 * taker got it first. */
static inline void *rt_ring_take(RtRing *r)
{
    int64_t t = atomic_load_explicit(&r->top, memory_order_acquire);
    int64_t b = atomic_load_explicit(&r->bottom, memory_order_acquire);
    if (t >= b)
        return NULL;
    RtRingArray *a = atomic_load_explicit(&r->array, memory_order_acquire);
    void *x = atomic_load_explicit(&a->cells[t & a->mask],
                                   memory_order_relaxed);
    if (!atomic_compare_exchange_strong_explicit(&r->top, &t, t + 1,
                                                 memory_order_seq_cst,
                                                 memory_order_relaxed))
        return RT_RING_LOST;
    return x;
}

/* Anyone, as a hint: the number of entries (may be stale). */
static inline int64_t rt_ring_size(RtRing *r)
{
    int64_t b = atomic_load_explicit(&r->bottom, memory_order_acquire);
    int64_t t = atomic_load_explicit(&r->top, memory_order_acquire);
    return b > t ? b - t : 0;
}

#endif
