/* test_sched_queue.c — a worker's run queue (stdlib/runq.h).
 *
 * The ring alone, without the scheduler: FIFO order for the owner,
 * growth (with entries wrapped around the array's end when it grows),
 * then one owner pushing and taking while thieves take from the same
 * ring — every entry must be taken exactly once, and each taker must see
 * entries in the order they were pushed — and last, collections forced
 * while the only references to queued objects are in ring arrays, old
 * (replaced by growth) and new.
 *
 * No check depends on timing.  Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gc.h>

#include "stdlib/runq.h"
#include "tests/unit/tap.h"

/* Entries are numbers dressed as pointers: never NULL, never
 * RT_RING_LOST. */
static void *item(int64_t i)
{
    return (void *)(uintptr_t)((i + 1) << 4);
}

static int64_t number(void *p)
{
    return (int64_t)((uintptr_t)p >> 4) - 1;
}

static void *take(RtRing *r)
{
    for (;;) {
        void *x = rt_ring_take(r);
        if (x != RT_RING_LOST)
            return x;
    }
}

static void owner_alone(void)
{
    RtRing *r = GC_MALLOC_UNCOLLECTABLE(sizeof(RtRing));
    TAP_OK(rt_ring_init(r) == 0 && take(r) == NULL && rt_ring_size(r) == 0,
           "a new ring is empty");

    int64_t in = 0, out = 0;
    int ok = 1;
    /* 100 in, 60 out: the live entries straddle the array's end when it
     * grows */
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 100; i++)
            rt_ring_push(r, item(in++));
        for (int i = 0; i < 60; i++)
            if (number(take(r)) != out++)
                ok = 0;
    }
    if (rt_ring_size(r) != in - out)
        ok = 0;
    void *x;
    while ((x = take(r)) != NULL)
        if (number(x) != out++)
            ok = 0;
    TAP_OK(ok && out == in && rt_ring_size(r) == 0,
           "one thread: FIFO across growth and wrap-around");
    GC_FREE(r);
}

/* ---- an owner and thieves -------------------------------------------------- */

#define THIEVES 3
#define ITEMS 2000000

static RtRing *shared_ring;
static _Atomic int64_t taken_total;
static _Atomic int owner_done;
static unsigned char *seen;     /* [ITEMS]: times each entry was taken */
static _Atomic int order_bad;

static void record(void *x, int64_t *last)
{
    int64_t n = number(x);
    if (n < 0 || n >= ITEMS || n <= *last) {
        atomic_store(&order_bad, 1);
        return;
    }
    *last = n;
    seen[n]++;      /* each n is taken by one taker only, if correct */
    atomic_fetch_add(&taken_total, 1);
}

static void *thief(void *unused)
{
    (void)unused;
    int64_t last = -1;
    for (;;) {
        void *x = rt_ring_take(shared_ring);
        if (x == NULL) {
            if (atomic_load(&owner_done) && rt_ring_size(shared_ring) == 0)
                break;
            continue;
        }
        if (x != RT_RING_LOST)
            record(x, &last);
    }
    return NULL;
}

static void owner_and_thieves(void)
{
    shared_ring = GC_MALLOC_UNCOLLECTABLE(sizeof(RtRing));
    rt_ring_init(shared_ring);
    seen = calloc(ITEMS, 1);
    pthread_t t[THIEVES];
    for (int i = 0; i < THIEVES; i++)
        pthread_create(&t[i], NULL, thief, NULL);
    int64_t last = -1;
    for (int64_t i = 0; i < ITEMS; i++) {
        rt_ring_push(shared_ring, item(i));
        /* the owner takes too, every third push */
        if (i % 3 == 0) {
            void *x = rt_ring_take(shared_ring);
            if (x != NULL && x != RT_RING_LOST)
                record(x, &last);
        }
    }
    atomic_store(&owner_done, 1);
    for (int i = 0; i < THIEVES; i++)
        pthread_join(t[i], NULL);
    int once = 1;
    for (int64_t i = 0; i < ITEMS; i++)
        once &= seen[i] == 1;
    TAP_OK(once && atomic_load(&taken_total) == ITEMS,
           "owner and 3 thieves: every entry taken exactly once");
    TAP_OK(!atomic_load(&order_bad),
           "owner and 3 thieves: each taker sees entries in push order");
    free(seen);
    GC_FREE(shared_ring);
}

/* ---- the collector sees queued objects ------------------------------------- */

#define CELLS 4

static void collector_sees_ring(void)
{
    RtRing *r = GC_MALLOC_UNCOLLECTABLE(sizeof(RtRing));
    rt_ring_init(r);
    const int64_t count = 20000;    /* grows the array 7 times */
    for (int64_t i = 0; i < count; i++) {
        int64_t *c = GC_MALLOC_ATOMIC(CELLS * sizeof(int64_t));
        for (int j = 0; j < CELLS; j++)
            c[j] = i * 7 + j;
        rt_ring_push(r, c);
        if (i % 4000 == 0)
            GC_gcollect();
    }
    for (int i = 0; i < 200000; i++) {
        int64_t *g = GC_MALLOC_ATOMIC(CELLS * sizeof(int64_t));
        for (int j = 0; j < CELLS; j++)
            g[j] = -1;
    }
    GC_gcollect();
    int ok = 1;
    for (int64_t i = 0; i < count; i++) {
        int64_t *c = take(r);
        if (!c) {
            ok = 0;
            break;
        }
        for (int j = 0; j < CELLS; j++)
            if (c[j] != i * 7 + j)
                ok = 0;
    }
    TAP_OK(ok && take(r) == NULL,
           "collections keep objects that only the ring refers to");
    GC_FREE(r);
}

int main(void)
{
    GC_INIT();
    TAP_PLAN(5);
    owner_alone();
    owner_and_thieves();
    collector_sees_ring();
    return tap_done();
}
