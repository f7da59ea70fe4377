/* future.c — futures: `get f` and the worker's fulfilment of f.
 *
 * A future is a 16-byte GC block: a state word and the value.  The state
 * is RT_FUT_EMPTY, RT_FUT_DONE, or, while threads wait, a pointer to the
 * first of their RtWaiter records (a Treiber stack: each waiter pushes
 * itself with a compare-and-swap).  The worker that ran the message stores
 * the value, then exchanges the state for RT_FUT_DONE (release), so a
 * reader that sees DONE (acquire) sees the value; the exchange hands it
 * the whole list of waiters at once, and no waiter can join after it.
 *
 * mos_future_get(f, where):
 *   - NULL f is the program's error: "null dereference" at `where`;
 *   - DONE: the value, one load — the common case for a future fulfilled
 *     before anyone asks;
 *   - otherwise, when other workers could be fulfilling it right now, a
 *     short spin (a round trip to a busy worker takes microseconds, less
 *     than suspending and resuming), unless the actor that must answer
 *     is the one this worker runs next: then only suspending lets it run;
 *   - then the scheduler waits (rt_sched_wait): an actor's turn is
 *     suspended and its worker goes on with other actors — including the
 *     ones that will fulfil the future — while the waiting actor itself
 *     handles no other message until get returns, as LANGUAGE.md §4
 *     requires, since it stays ACTIVE; the main thread sleeps.  Either
 *     way the scheduler puts a waiter record on the list here
 *     (rt_future_add_waiter), which fails if the future was fulfilled in
 *     the meantime.
 *
 * Fulfilling hands each waiter to the scheduler (rt_sched_wake), which
 * resumes the actor on its worker or wakes main, counting it as running
 * again before the record can be forgotten: that count is how
 * quiescence and deadlock are detected (sched.c).  The fulfiller reads
 * `next` first, since a waiter may vanish as soon as it is woken.
 *
 * Futures are collected like any object: the value may be a pointer, so
 * the block is scanned; a waiter holds the future while it waits (in its
 * saved stack, or on main's).
 *
 * Not here: deciding when to fulfil (sched.c runs the message),
 * suspending, sleeping and deadlock detection (sched.c).
 */
#include "rt_internal.h"
#include "rt_actors.h"
#include "transport.h"

#include <gc.h>

/* Spin iterations before blocking, when other workers exist: ~1-10 µs
 * depending on the CPU's pause instruction, the order of a message round
 * trip between two running workers. */
#define GET_SPIN 256

RtFuture *rt_future_new(void)
{
    RtFuture *f = GC_MALLOC(sizeof(RtFuture));
    if (!f)
        rt_panicf(RT_NOWHERE, "out of memory: allocation of a future");
    return f;
}

void rt_future_fulfil(RtFuture *f, int64_t value)
{
    f->value = value;
    uintptr_t s = atomic_exchange_explicit(&f->state, RT_FUT_DONE,
                                           memory_order_acq_rel);
    if (s == RT_FUT_EMPTY)
        return;
    if (s == RT_FUT_DONE)
        rt_panicf(RT_NOWHERE, "internal error: a future fulfilled twice");
    for (RtWaiter *w = (RtWaiter *)s; w != NULL;) {
        RtWaiter *next = w->next;   /* before w may vanish */
#ifdef MOS_DISTRIBUTED
        if (w->is_remote)           /* another node waits: send it the value */
            rt_tp_fulfil_remote(w, value);
        else
#endif
            rt_sched_wake(w);
        w = next;
    }
}

int rt_future_add_waiter(RtFuture *f, RtWaiter *w)
{
    uintptr_t s = atomic_load_explicit(&f->state, memory_order_acquire);
    do {
        if (s == RT_FUT_DONE)
            return 0;
        w->next = (RtWaiter *)s;
    } while (!atomic_compare_exchange_weak_explicit(
        &f->state, &s, (uintptr_t)w, memory_order_acq_rel,
        memory_order_acquire));
    return 1;
}

static int64_t wait_slow(RtFuture *f, const char *where)
{
    if (rt_sched_spin_worthwhile()) {
        for (int i = 0; i < GET_SPIN; i++) {
            rt_cpu_relax();
            if (atomic_load_explicit(&f->state, memory_order_acquire) ==
                RT_FUT_DONE)
                return f->value;
        }
    }
    rt_sched_wait(f, where);
    /* the waiter was handed back with release after the value was
     * stored: see rt_sched_wake */
    return f->value;
}

int64_t mos_future_get(void *future, const char *where)
{
    if (!future)
        mos_panic(where, "null dereference");
#ifdef MOS_DISTRIBUTED
    if (RT_IS_REMOTE(future))
        return rt_tp_get(future, where);
#endif
    RtFuture *f = future;
    if (atomic_load_explicit(&f->state, memory_order_acquire) == RT_FUT_DONE)
        return f->value;
    return wait_slow(f, where);
}
