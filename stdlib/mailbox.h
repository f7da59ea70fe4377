/* mailbox.h — the lock-free multi-producer single-consumer queue.
 *
 * Every actor's mailbox is one of these, and so is every worker's inbox
 * (actors scheduled from outside the worker's node or from threads that
 * hold no worker).  It is Dmitry Vyukov's intrusive MPSC queue: nodes
 * carry their own link (an RtLink at the start of a message, a link in the
 * actor header), so pushing allocates nothing, and the queue owns a stub
 * node so it is never structurally empty.
 *
 *   push:  n->next = NULL; prev = exchange(in, n); prev->next = n
 *   pop:   follows `out` along the next links; the stub is skipped, and
 *          re-pushed when the last real node is about to be taken, so
 *          `out` always points at a node not yet returned.
 *
 * Producers are wait-free (one exchange, one store).  Order: nodes come
 * out in the order of their exchanges on `in`, so pushes by one thread
 * come out in program order, and a push that happens before another
 * (through any chain of messages, futures or locks) comes out first: the
 * exchanges are read-modify-writes of one location, totally ordered
 * consistently with happens-before.  That is all causal delivery needs
 * (LANGUAGE.md §4).
 *
 * The one subtlety: between a producer's exchange and its link store the
 * queue is not empty but the consumer cannot reach the new node.  pop
 * returns NULL then; rt_mpsc_empty tells that case (not empty) from a
 * really empty queue, and the scheduler retries later rather than
 * spinning on another thread's progress.
 *
 * The exchange is seq_cst on purpose: the scheduler's idle protocol is a
 * Dekker pattern (the sender exchanges `in`, then reads the actor's
 * state; the consumer stores the state, then reads `in`), and both sides
 * must be in the single total order for one of them to see the other.
 *
 * Single consumer means one thread at a time: the scheduler passes the
 * consumer's role from thread to thread with release/acquire (an actor's
 * state, a worker's inbox lock).  The collector sees every queued node:
 * the queue's pointers sit in GC-scanned memory (actor headers, worker
 * structs), each node points to the next, and a node between a producer's
 * two steps is held in that producer's registers or stack.
 *
 * Not here: what the nodes are (sched.c, actor.c), waking anyone.
 */
#ifndef RT_MAILBOX_H
#define RT_MAILBOX_H

#include <stdatomic.h>
#include <stddef.h>

typedef struct RtLink {
    _Atomic(struct RtLink *) next;
} RtLink;

/* `out` is written by the consumer only; it is atomic (relaxed: plain
 * loads and stores) so that others may read it for a hint. */
typedef struct RtMpsc {
    _Atomic(RtLink *) in;   /* producers' end: the newest node */
    _Atomic(RtLink *) out;  /* consumer's end: the oldest node not taken */
    RtLink stub;
} RtMpsc;

static inline void rt_mpsc_init(RtMpsc *q)
{
    atomic_init(&q->stub.next, NULL);
    atomic_init(&q->out, &q->stub);
    atomic_init(&q->in, &q->stub);
}

static inline void rt_mpsc_push(RtMpsc *q, RtLink *n)
{
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    RtLink *prev = atomic_exchange_explicit(&q->in, n, memory_order_seq_cst);
    atomic_store_explicit(&prev->next, n, memory_order_release);
}

/* The oldest node, removed; NULL when the queue is empty or when the next
 * node is still being linked by its producer (see rt_mpsc_empty).
 * Consumer only. */
static inline RtLink *rt_mpsc_pop(RtMpsc *q)
{
    RtLink *out = atomic_load_explicit(&q->out, memory_order_relaxed);
    RtLink *next = atomic_load_explicit(&out->next, memory_order_acquire);
    if (out == &q->stub) {
        if (next == NULL)
            return NULL;
        out = next;
        atomic_store_explicit(&q->out, out, memory_order_relaxed);
        next = atomic_load_explicit(&out->next, memory_order_acquire);
    }
    if (next != NULL) {
        atomic_store_explicit(&q->out, next, memory_order_relaxed);
        return out;
    }
    if (out != atomic_load_explicit(&q->in, memory_order_acquire))
        return NULL;    /* a producer is between its two steps */
    rt_mpsc_push(q, &q->stub);
    next = atomic_load_explicit(&out->next, memory_order_acquire);
    if (next != NULL) {
        atomic_store_explicit(&q->out, next, memory_order_relaxed);
        return out;
    }
    return NULL;        /* another producer slipped in before the stub */
}

/* 1 when nothing is queued, 0 when something is (even if pop cannot take
 * it yet).  Consumer only: this is the authoritative test.  (`in` alone
 * is not enough: when a producer slips in just before pop re-pushes the
 * stub, `in` is the stub while older nodes are still queued.) */
static inline int rt_mpsc_empty(RtMpsc *q)
{
    return atomic_load_explicit(&q->out, memory_order_relaxed) == &q->stub &&
           atomic_load_explicit(&q->in, memory_order_seq_cst) == &q->stub;
}

/* The same test for anyone, consumer or not, as a hint: without the
 * consumer's role its answer may be stale, so nothing may be concluded
 * from "empty" but "not worth trying now". */
static inline int rt_mpsc_looks_empty(RtMpsc *q)
{
    return atomic_load_explicit(&q->in, memory_order_acquire) == &q->stub &&
           atomic_load_explicit(&q->out, memory_order_relaxed) == &q->stub;
}

#endif
