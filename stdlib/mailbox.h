/* mailbox.h — the lock-free multi-producer single-consumer queues.
 *
 * Two variants of Dmitry Vyukov's intrusive MPSC queue: nodes carry their
 * own link (an RtLink at the start of a message, a link in the actor
 * header), so pushing allocates nothing.
 *
 *   push:  n->next = NULL; prev = exchange(in, n); prev->next = n
 *   pop:   follows `out` along the next links.
 *
 * Producers are wait-free (one exchange, one store).  Order: nodes come
 * out in the order of their exchanges on `in`, so pushes by one thread
 * come out in program order, and a push that happens before another
 * (through any chain of messages, futures or locks) comes out first: the
 * exchanges are read-modify-writes of one location, totally ordered
 * consistently with happens-before.  That is all causal delivery needs
 * (LANGUAGE.md §4).  Between a producer's exchange and its link store the
 * queue is not empty but the consumer cannot reach the new node; the
 * consumer then sees "nothing yet" and must come back later.
 *
 * RtMailbox, an actor's mailbox.  A message is pushed once and never
 * again, so the node the consumer took last stays in the queue as its
 * dummy (no stub to re-push: one atomic instruction fewer each time the
 * mailbox empties), and the actor's scheduling state lives in bit 0 of
 * `in`: set means IDLE (nothing queued, no thread runs the actor).
 *   - The sender's exchange both queues the message and reads the bit, so
 *     exactly one sender — the first after the actor went idle — learns
 *     it must schedule the actor, with no second atomic operation.
 *   - The consumer goes idle with one compare-and-swap of `in` from the
 *     last node it took to that node with the bit set, which fails if
 *     anything was pushed since: then a message is on its way.
 *   All of it on one location, whose read-modify-writes are totally
 *   ordered, so no message can be left in the mailbox of an idle actor.
 *   The dummy keeps the last message alive until the next one arrives;
 *   the scheduler clears its arguments and future when the actor goes
 *   idle, so nothing the program can see is retained, and pop unlinks
 *   each old dummy, so taken messages do not stay reachable from the
 *   stub through each other.
 *
 * RtMpsc, a worker's inbox of actors.  An actor goes through many inboxes
 * in its life, so its link must be free once taken: the queue owns a
 * stub node, re-pushed when the last real node is about to be taken, so
 * `out` always points at a node not yet returned.
 *
 * Single consumer means one thread at a time: the scheduler passes the
 * consumer's role from thread to thread with release/acquire (the
 * mailbox's idle bit and the run queues, a worker's inbox lock).  The
 * collector sees every queued node: the queues' pointers sit in
 * GC-scanned memory (actor headers, worker structs), each node points to
 * the next, and a node between a producer's two steps is held in that
 * producer's registers or stack.  A tagged `in` points one byte into a
 * node that `out` also points to.
 *
 * Not here: what the nodes are (sched.c, actor.c), waking anyone.
 */
#ifndef RT_MAILBOX_H
#define RT_MAILBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RtLink {
    _Atomic(struct RtLink *) next;
} RtLink;

/* ---- RtMailbox: single-use nodes, idle bit in `in` ------------------- */

#define RT_MAILBOX_IDLE ((uintptr_t)1)

typedef struct RtMailbox {
    _Atomic uintptr_t in;   /* producers' end: the newest node | idle bit */
    RtLink *out;            /* consumer's end: the node taken last (dummy) */
    RtLink stub;            /* the first dummy */
} RtMailbox;

/* Empty and idle. */
static inline void rt_mailbox_init(RtMailbox *q)
{
    atomic_init(&q->stub.next, NULL);
    q->out = &q->stub;
    atomic_init(&q->in, (uintptr_t)&q->stub | RT_MAILBOX_IDLE);
}

/* Queues n; returns 1 when the mailbox was idle: the caller, and only
 * it, must then schedule the actor. */
static inline int rt_mailbox_push(RtMailbox *q, RtLink *n)
{
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    uintptr_t prev = atomic_exchange_explicit(&q->in, (uintptr_t)n,
                                              memory_order_acq_rel);
    RtLink *p = (RtLink *)(prev & ~RT_MAILBOX_IDLE);
    atomic_store_explicit(&p->next, n, memory_order_release);
    return (int)(prev & RT_MAILBOX_IDLE);
}

/* The oldest message after *out, removed (it becomes the dummy, *out);
 * NULL when none is reachable yet.  Consumer only.  The consumer may keep
 * the mailbox's `out` in a local for a while and pass its address here
 * (the scheduler does, for a whole turn, so that it does not write the
 * cache line producers exchange `in` on at every message), provided it
 * stores it back before rt_mailbox_try_idle or giving the actor up. */
static inline RtLink *rt_mailbox_take(RtLink **out)
{
    RtLink *old = *out;
    RtLink *next = atomic_load_explicit(&old->next, memory_order_acquire);
    if (next != NULL) {
        /* Unlink the old dummy: a node is linked once, and that link has
         * been read.  Otherwise every message ever sent would stay
         * reachable from the stub, each through the one before. */
        atomic_store_explicit(&old->next, NULL, memory_order_relaxed);
        *out = next;
    }
    return next;
}

static inline RtLink *rt_mailbox_pop(RtMailbox *q)
{
    return rt_mailbox_take(&q->out);
}

/* After pop returned NULL: marks the mailbox idle and returns 1 if it is
 * empty; returns 0 if a message is on its way (pop again; if it still
 * returns NULL, its producer is between its two steps).  After 1 the
 * actor belongs to its next sender: the caller must not touch it.
 * Consumer only. */
static inline int rt_mailbox_try_idle(RtMailbox *q)
{
    uintptr_t last = (uintptr_t)q->out;
    return atomic_compare_exchange_strong_explicit(
        &q->in, &last, last | RT_MAILBOX_IDLE, memory_order_release,
        memory_order_relaxed);
}

/* ---- RtMpsc: reusable nodes, with a stub ------------------------------- */

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

/* The exchange is sequentially consistent on purpose: a worker's inbox
 * and its `parked` word form a Dekker pair (sched.c: the pusher exchanges
 * `in` then reads `parked`; the parker stores `parked` then reads `in`),
 * and both sides must be in the single total order. */
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
