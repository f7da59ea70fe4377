/* rt_actors.h — what the actor runtime's modules share.
 *
 * The actor runtime is four files: nodes.c (topology), actor.c (the ABI
 * for actors, messages and sends), future.c (futures and `get`) and
 * sched.c (workers, run queues, parking, quiescence).  This header holds
 * the layouts of the blocks generated code receives from them — actor and
 * message headers, futures — and the few calls between the modules.
 *
 * Layouts (sizes fixed by mosaic_rt.h's MOS_*_HEADER_SIZE):
 *
 *   RtActor   (64 bytes, then the class's fields)
 *     mailbox     the actor's MPSC queue of messages, whose producers' word
 *                 also holds the IDLE bit (mailbox.h)
 *     rq_link     its link in a worker's inbox (run queue for actors
 *                 scheduled from elsewhere)
 *     node        its home node, 0 … nodes()-1
 *     last_worker the worker that ran it last: where remote senders
 *                 schedule it, for cache affinity (-1: never ran)
 *
 *   RtMessage (32 bytes, then the arguments)
 *     link        its link in the mailbox
 *     run         run(actor, message), what handling it means
 *     future      its future, or NULL when the sender wants none
 *     size        its size in bytes, header included
 *
 *   RtFuture  (16 bytes)
 *     state       RT_FUT_EMPTY, RT_FUT_DONE, or a pointer to the first
 *                 RtWaiter of the threads waiting for it
 *     value       the result (mosaic_rt.h's int64 encoding)
 *
 * An actor is ACTIVE (its mailbox's IDLE bit clear) exactly while it is
 * in one run queue or on one thread: the send that finds it IDLE makes it
 * ACTIVE and schedules it, and only the thread running it makes it IDLE
 * again, when its mailbox is empty (sched.c).
 */
#ifndef RT_ACTORS_H
#define RT_ACTORS_H

#include <stdatomic.h>
#include <stdint.h>

#include "mailbox.h"
#include "mosaic_rt.h"

typedef struct RtActor {
    RtMailbox mailbox;              /* 24 bytes */
    RtLink rq_link;                 /* 8 */
    int32_t node;                   /* 4 */
    _Atomic int32_t last_worker;    /* 4 */
    void *reserved[3];              /* 24: room for later runtime needs */
} RtActor;

typedef struct RtFuture RtFuture;

typedef struct RtMessage {
    RtLink link;
    MosMessageRun run;
    RtFuture *future;
    int64_t size;
} RtMessage;

/* Future states besides a waiter pointer (waiter records are at least
 * 8-aligned, so neither value can be one). */
#define RT_FUT_EMPTY ((uintptr_t)0)
#define RT_FUT_DONE ((uintptr_t)1)

struct RtFuture {
    _Atomic uintptr_t state;
    int64_t value;
};

/* A thread waiting for a future: lives on that thread's stack while it
 * waits.  Linked from the future (next) and from the scheduler's list of
 * blocked threads (prev_blocked/next_blocked), which the deadlock report
 * reads. */
typedef struct RtWaiter {
    struct RtWaiter *next;
    struct RtWaiter *prev_blocked, *next_blocked;
    _Atomic uint32_t woken;         /* futex word: 1 once fulfilled */
    int is_main;
    const char *where;
} RtWaiter;

_Static_assert(sizeof(RtActor) == MOS_ACTOR_HEADER_SIZE,
               "the actor header is the size mosaic_rt.h promises");
_Static_assert(sizeof(RtMessage) == MOS_MESSAGE_HEADER_SIZE,
               "the message header is the size mosaic_rt.h promises");

/* --- topology (nodes.c) --- */

typedef struct RtTopology {
    int nodes;          /* N = nodes() */
    int workers;        /* worker threads */
    int numa;           /* 1 when the nodes are libnuma's */
    int pin;            /* MOSAIC_PIN=1 */
    int *worker_node;   /* [workers] */
    int *worker_cpu;    /* [workers]: the core to pin to */
} RtTopology;

const RtTopology *rt_topology(void);

/* --- scheduling (sched.c) --- */

/* The actor whose message this thread is running, NULL in main. */
extern __thread RtActor *rt_current_actor;

/* Starts the workers, once; later calls return at once. */
void rt_sched_start(void);
/* Puts an actor its sender just made ACTIVE on a run queue. */
void rt_sched_schedule(RtActor *a);
/* Blocks the calling thread until w->woken is set (future.c has put w on
 * the future's waiter list).  A worker thread first hands its worker to
 * another thread, so the other actors keep running; deadlock (nothing
 * left that could ever set w->woken) is reported from here or from the
 * last thread to go idle. */
void rt_sched_block(RtWaiter *w);
/* Called by a future's fulfiller for each waiter, before setting
 * w->woken: counts the waiter's thread as running again. */
void rt_sched_unblock(RtWaiter *w);

/* For start.c: the program's main thread begins and ends as the "main
 * actor"; the first thread waits until the program is quiescent. */
void rt_main_begin(void);
void rt_main_end(void);
void rt_wait_quiescence(void);

/* --- futures (future.c) --- */

RtFuture *rt_future_new(void);
void rt_future_fulfil(RtFuture *f, int64_t value);

#endif
