/* test_mailbox.c — the MPSC queues under actors' mailboxes and inboxes.
 *
 * stdlib/mailbox.h alone, without the scheduler.
 *
 * RtMailbox (an actor's mailbox, with the IDLE bit): the protocol on one
 * thread (the first push after idle reports it, later ones do not;
 * going idle fails while something is queued), then producers on several
 * threads against a consumer that behaves like the scheduler — it runs
 * only when a push reported the mailbox idle, drains it, goes idle — so
 * a lost or duplicated wake-up, a lost message or a message out of its
 * producer's order shows.
 *
 * RtMpsc (a worker's inbox): FIFO order and the empty tests on one
 * thread (including the stub's recycling when the queue empties again
 * and again); several producers against one consumer; the consumer's
 * role passing between threads through a try-lock, as the scheduler's
 * thieves do.
 *
 * Last, collections forced while nodes that only a queue refers to wait
 * in it.
 *
 * No check depends on timing: threads run to completion and are joined,
 * and every check is about what came out, not when.  Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>

#include <gc.h>

#include "stdlib/mailbox.h"
#include "tests/unit/tap.h"

typedef struct Node {
    RtLink link;        /* first: a node is its link */
    int producer;
    int64_t seq;
} Node;

#define PRODUCERS 4
#define PRODUCERS_MAX 4
#define PER_PRODUCER 200000

static Node *node_new(int producer, int64_t seq)
{
    Node *n = GC_MALLOC(sizeof(Node));
    n->producer = producer;
    n->seq = seq;
    return n;
}

/* ---- RtMailbox: the idle bit ----------------------------------------- */

static void mailbox_protocol(void)
{
    RtMailbox *q = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMailbox));
    rt_mailbox_init(q);
    int ok = rt_mailbox_pop(q) == NULL;
    int64_t in = 0, out = 0;
    for (int round = 0; round < 1000 && ok; round++) {
        /* idle: the first push says so, the others do not */
        int k = round % 3 + 1;
        for (int i = 0; i < k; i++)
            if (rt_mailbox_push(q, &node_new(0, in++)->link) != (i == 0))
                ok = 0;
        /* take all but one; going idle must fail with one queued */
        for (int i = 0; i < k - 1; i++) {
            Node *n = (Node *)rt_mailbox_pop(q);
            if (!n || n->seq != out++)
                ok = 0;
        }
        if (rt_mailbox_try_idle(q))
            ok = 0;
        Node *n = (Node *)rt_mailbox_pop(q);
        if (!n || n->seq != out++ || rt_mailbox_pop(q) != NULL)
            ok = 0;
        /* pushed while the consumer still runs: not reported */
        if (round % 2 == 0) {
            if (rt_mailbox_push(q, &node_new(0, in++)->link) != 0)
                ok = 0;
            if (rt_mailbox_try_idle(q))
                ok = 0;
            n = (Node *)rt_mailbox_pop(q);
            if (!n || n->seq != out++)
                ok = 0;
        }
        if (!rt_mailbox_try_idle(q))
            ok = 0;
    }
    TAP_OK(ok && in == out, "mailbox: the first push after idle reports "
                            "it, going idle fails while a message waits");
    GC_FREE(q);
}

/* The scheduler, in miniature: `wakeups` counts pushes that found the
 * mailbox idle (each one "schedules" the consumer), `idles` successful
 * returns to idle. */
static RtMailbox *mq;
static _Atomic int64_t wakeups, pending, consumed;
static _Atomic int consumer_waiting, consumer_quit;
static int64_t idles, mq_expect[PRODUCERS_MAX];
static _Atomic int mq_bad;

static void *mailbox_producer(void *p)
{
    int id = (int)(intptr_t)p;
    for (int64_t i = 0; i < PER_PRODUCER; i++)
        if (rt_mailbox_push(mq, &node_new(id, i)->link)) {
            atomic_fetch_add(&wakeups, 1);
            atomic_fetch_add(&pending, 1);
        }
    return NULL;
}

static void *mailbox_consumer(void *unused)
{
    (void)unused;
    for (;;) {
        atomic_store(&consumer_waiting, 1);
        while (atomic_load(&pending) == 0)
            if (atomic_load(&consumer_quit))
                return NULL;
        atomic_store(&consumer_waiting, 0);
        if (atomic_fetch_sub(&pending, 1) != 1)
            atomic_store(&mq_bad, 1);   /* scheduled twice at once */
        for (;;) {
            Node *n = (Node *)rt_mailbox_pop(mq);
            if (!n) {
                if (rt_mailbox_try_idle(mq)) {
                    idles++;
                    break;
                }
                continue;   /* on its way */
            }
            if (n->seq != mq_expect[n->producer])
                atomic_store(&mq_bad, 1);
            mq_expect[n->producer] = n->seq + 1;
            atomic_fetch_add(&consumed, 1);
        }
    }
}

static void mailbox_stress(void)
{
    mq = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMailbox));
    rt_mailbox_init(mq);
    pthread_t c, p[PRODUCERS];
    pthread_create(&c, NULL, mailbox_consumer, NULL);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], NULL, mailbox_producer, (void *)(intptr_t)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], NULL);
    /* Every message must be consumed.  Stuck means: the consumer waits,
     * nothing is pending, and no producer is left to wake it — a lost
     * wake-up, with no timing involved. */
    const int64_t total = (int64_t)PRODUCERS * PER_PRODUCER;
    int stuck = 0;
    while (atomic_load(&consumed) < total) {
        if (atomic_load(&consumer_waiting) && atomic_load(&pending) == 0 &&
            atomic_load(&consumed) < total) {
            stuck = 1;
            break;
        }
        sched_yield();
    }
    /* let it go idle after the last message */
    while (!(atomic_load(&consumer_waiting) && atomic_load(&pending) == 0))
        sched_yield();
    atomic_store(&consumer_quit, 1);
    pthread_join(c, NULL);
    TAP_OK(!stuck && atomic_load(&consumed) == total,
           "mailbox, 4 producers: no message lost, no wake-up lost");
    TAP_OK(!atomic_load(&mq_bad) && atomic_load(&wakeups) == idles,
           "mailbox, 4 producers: producer order kept, one wake-up per "
           "idle period");
    printf("# idle periods: %lld\n", (long long)idles);
    GC_FREE(mq);
}

/* ---- one thread ------------------------------------------------------- */

static void single_thread(void)
{
    RtMpsc *q = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMpsc));
    rt_mpsc_init(q);
    TAP_OK(rt_mpsc_empty(q) && rt_mpsc_looks_empty(q) && !rt_mpsc_pop(q),
           "a new queue is empty");

    int ok = 1;
    for (int round = 0; round < 1000; round++) {
        /* 0, 1, 2 and 3 nodes at a time: the stub is taken out and put
         * back in every way the consumer can meet it */
        int k = round % 4;
        for (int i = 0; i < k; i++)
            rt_mpsc_push(q, &node_new(0, round * 4 + i)->link);
        if (k > 0 && (rt_mpsc_empty(q) || rt_mpsc_looks_empty(q)))
            ok = 0;
        for (int i = 0; i < k; i++) {
            Node *n = (Node *)rt_mpsc_pop(q);
            if (!n || n->seq != round * 4 + i)
                ok = 0;
        }
        if (rt_mpsc_pop(q) || !rt_mpsc_empty(q) || !rt_mpsc_looks_empty(q))
            ok = 0;
    }
    TAP_OK(ok, "one thread: FIFO, and empty again after every round");

    /* interleaved pushes and pops keep order */
    int64_t next_in = 0, next_out = 0;
    ok = 1;
    for (int i = 0; i < 10000; i++) {
        for (int j = 0; j < i % 3 + 1; j++)
            rt_mpsc_push(q, &node_new(0, next_in++)->link);
        Node *n = (Node *)rt_mpsc_pop(q);
        if (!n || n->seq != next_out++)
            ok = 0;
    }
    Node *n;
    while ((n = (Node *)rt_mpsc_pop(q)) != NULL)
        if (n->seq != next_out++)
            ok = 0;
    TAP_OK(ok && next_out == next_in && rt_mpsc_empty(q),
           "one thread: interleaved pushes and pops stay in order");
    GC_FREE(q);
}

/* ---- several producers, one consumer --------------------------------- */


typedef struct {
    RtMpsc *q;
    int id;
} ProducerArg;

static void *producer(void *p)
{
    ProducerArg *a = p;
    for (int64_t i = 0; i < PER_PRODUCER; i++)
        rt_mpsc_push(a->q, &node_new(a->id, i)->link);
    return NULL;
}

static void multi_producer(void)
{
    RtMpsc *q = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMpsc));
    rt_mpsc_init(q);
    pthread_t t[PRODUCERS];
    ProducerArg args[PRODUCERS];
    for (int i = 0; i < PRODUCERS; i++) {
        args[i].q = q;
        args[i].id = i;
        pthread_create(&t[i], NULL, producer, &args[i]);
    }
    int64_t expect[PRODUCERS] = { 0 };
    int64_t total = 0, busy = 0;
    int order_ok = 1;
    while (total < (int64_t)PRODUCERS * PER_PRODUCER) {
        Node *n = (Node *)rt_mpsc_pop(q);
        if (!n) {
            if (!rt_mpsc_empty(q))
                busy++;     /* a producer between its two steps */
            continue;
        }
        if (n->producer < 0 || n->producer >= PRODUCERS ||
            n->seq != expect[n->producer])
            order_ok = 0;
        else
            expect[n->producer]++;
        total++;
    }
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(t[i], NULL);
    TAP_OK(order_ok, "4 producers: each producer's nodes come out in order");
    TAP_OK(rt_mpsc_pop(q) == NULL && rt_mpsc_empty(q),
           "4 producers: every node came out exactly once");
    printf("# pops that met a producer between its two steps: %lld\n",
           (long long)busy);
    GC_FREE(q);
}

/* ---- the inbox: consumers take turns through a try-lock --------------- */

#define CONSUMERS 3

typedef struct {
    RtMpsc *q;
    _Atomic uint32_t *lock;
    _Atomic int64_t *taken;
    int64_t *expect;        /* per producer, under the lock */
    _Atomic int *bad;
} ConsumerArg;

static void *consumer(void *p)
{
    ConsumerArg *c = p;
    const int64_t total = (int64_t)PRODUCERS * PER_PRODUCER;
    while (atomic_load(c->taken) < total) {
        if (atomic_exchange_explicit(c->lock, 1, memory_order_acquire))
            continue;
        Node *n = (Node *)rt_mpsc_pop(c->q);
        if (n) {
            if (n->seq != c->expect[n->producer])
                atomic_store(c->bad, 1);
            c->expect[n->producer] = n->seq + 1;
            atomic_fetch_add(c->taken, 1);
        }
        atomic_store_explicit(c->lock, 0, memory_order_release);
    }
    return NULL;
}

static void rotating_consumers(void)
{
    RtMpsc *q = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMpsc));
    rt_mpsc_init(q);
    _Atomic uint32_t lock = 0;
    _Atomic int64_t taken = 0;
    _Atomic int bad = 0;
    int64_t expect[PRODUCERS] = { 0 };
    pthread_t pt[PRODUCERS], ct[CONSUMERS];
    ProducerArg pa[PRODUCERS];
    ConsumerArg ca = { q, &lock, &taken, expect, &bad };
    for (int i = 0; i < CONSUMERS; i++)
        pthread_create(&ct[i], NULL, consumer, &ca);
    for (int i = 0; i < PRODUCERS; i++) {
        pa[i].q = q;
        pa[i].id = i;
        pthread_create(&pt[i], NULL, producer, &pa[i]);
    }
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(pt[i], NULL);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_join(ct[i], NULL);
    int all = 1;
    for (int i = 0; i < PRODUCERS; i++)
        all &= expect[i] == PER_PRODUCER;
    TAP_OK(!atomic_load(&bad) && all && rt_mpsc_empty(q),
           "3 consumers taking turns under a try-lock: order kept, "
           "nothing lost");
    GC_FREE(q);
}

/* ---- the collector sees queued nodes ----------------------------------- */

typedef struct Payload {
    RtLink link;
    int64_t *cells;     /* GC block: cells[i] == seq * 31 + i */
    int64_t seq;
} Payload;

#define PAYLOAD_CELLS 8

static void collector_sees_queue(void)
{
    RtMpsc *q = GC_MALLOC_UNCOLLECTABLE(sizeof(RtMpsc));
    rt_mpsc_init(q);
    const int64_t count = 50000;
    for (int64_t s = 0; s < count; s++) {
        Payload *p = GC_MALLOC(sizeof(Payload));
        p->seq = s;
        p->cells = GC_MALLOC_ATOMIC(PAYLOAD_CELLS * sizeof(int64_t));
        for (int i = 0; i < PAYLOAD_CELLS; i++)
            p->cells[i] = s * 31 + i;
        rt_mpsc_push(q, &p->link);
        p = NULL;
        if (s % 10000 == 0)
            GC_gcollect();
    }
    /* garbage of the same sizes, so freed blocks would be reused and
     * overwritten */
    for (int i = 0; i < 200000; i++) {
        int64_t *g = GC_MALLOC_ATOMIC(PAYLOAD_CELLS * sizeof(int64_t));
        for (int j = 0; j < PAYLOAD_CELLS; j++)
            g[j] = -1;
        Payload *h = GC_MALLOC(sizeof(Payload));
        h->seq = -1;
    }
    GC_gcollect();
    int ok = 1;
    for (int64_t s = 0; s < count; s++) {
        Payload *p = (Payload *)rt_mpsc_pop(q);
        if (!p || p->seq != s) {
            ok = 0;
            break;
        }
        for (int i = 0; i < PAYLOAD_CELLS; i++)
            if (p->cells[i] != s * 31 + i)
                ok = 0;
    }
    TAP_OK(ok && rt_mpsc_empty(q),
           "collections keep nodes that only the queue refers to");
    GC_FREE(q);
}

int main(void)
{
    GC_INIT();
    GC_allow_register_threads();
    TAP_PLAN(10);
    mailbox_protocol();
    mailbox_stress();
    single_thread();
    multi_producer();
    rotating_consumers();
    collector_sees_queue();
    return tap_done();
}
