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
 *     suspended   while it waits in `get`: its turn, saved aside (sched.c)
 *     kept        the record of its last deep wait, reused by the next
 *
 *   RtMessage (32 bytes, then the arguments)
 *     link        its link in the mailbox
 *     run         run(actor, message), what handling it means
 *     future      its future, or NULL when the sender wants none
 *     size        its size in bytes, header included
 *
 *   RtFuture  (16 bytes)
 *     state       RT_FUT_EMPTY, RT_FUT_DONE, or a pointer to the first
 *                 RtWaiter of those waiting for it (actors or main)
 *     value       the result (mosaic_rt.h's int64 encoding)
 *
 * An actor is ACTIVE (its mailbox's IDLE bit clear) exactly while it is
 * in one run queue, on one thread, or suspended in a `get`: the send that
 * finds it IDLE makes it ACTIVE and schedules it, and only the thread
 * running it makes it IDLE again, when its mailbox is empty (sched.c).
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
    struct RtCont *suspended;       /* 8: its turn, while it waits in get */
    struct RtCont *kept;            /* 8: a deep turn's copy, for reuse */
    void *reserved[1];              /* 8: room for later runtime needs */
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
#ifdef MOS_DISTRIBUTED
    int64_t kind;                   /* how the value travels to another node:
                                       mos_message_table's result letter */
#endif
};

/* One wait for a future: an actor's suspended turn (cont set; the record
 * is part of the turn's saved copy, in the heap) or the main thread (cont
 * NULL; the record lives on its stack, and it sleeps on `woken`).  Linked
 * from the future (next) and from the scheduler's list of waiters
 * (prev_blocked/next_blocked), which the deadlock report reads. */
typedef struct RtWaiter {
    struct RtWaiter *next;
    struct RtWaiter *prev_blocked, *next_blocked;
    struct RtCont *cont;
    _Atomic uint32_t woken;         /* futex word: 1 once fulfilled */
    int is_main;
    int is_remote;                  /* stands for another node's wait
                                       (transport_mpi.c's RemoteWaiter) */
    const char *where;
    const MosFrame *frames;         /* -g: the waiting code's (mosaic_rt.h),
                                       at the addresses they were linked at */
} RtWaiter;

_Static_assert(sizeof(RtActor) == MOS_ACTOR_HEADER_SIZE,
               "the actor header is the size mosaic_rt.h promises");
_Static_assert(sizeof(RtMessage) == MOS_MESSAGE_HEADER_SIZE,
               "the message header is the size mosaic_rt.h promises");

/* --- topology (nodes.c) --- */

typedef struct RtTopology {
    int nodes;          /* N = nodes() */
    int workers;        /* worker threads */
    int numa;           /* 1 when the nodes are the machine's real ones */
    int pin;            /* MOSAIC_PIN=1 */
    int *worker_node;   /* [workers] */
    int *worker_cpu;    /* [workers]: the core to pin to */
} RtTopology;

const RtTopology *rt_topology(void);
/* MOSAIC_THREADS as rt_topology reads it, 0 when unset or invalid (one
 * worker per core then), read without planning anything or warning: the
 * collector's marker count is chosen before it starts (start.c). */
int rt_workers_asked(void);

/* --- scheduling (sched.c) --- */

/* The actor whose message this thread is running, NULL in main. */
extern __thread RtActor *rt_current_actor;

/* Starts the workers, once; later calls return at once. */
void rt_sched_start(void);
/* Puts an actor its sender just made ACTIVE on a run queue. */
void rt_sched_schedule(RtActor *a);
/* Returns once f is fulfilled.  An actor's turn is suspended, and its
 * worker runs other actors meanwhile; the main thread sleeps.  Deadlock
 * (nothing left that could ever fulfil f) is reported from here or from
 * the last worker to go idle. */
void rt_sched_wait(RtFuture *f, const char *where);
/* Whether a short spin before rt_sched_wait may see the future fulfilled:
 * other workers exist, and this one has no actor lined up to run next
 * (most likely the very receiver of the message whose answer we wait
 * for, which only this worker may run). */
int rt_sched_spin_worthwhile(void);
/* Called by a future's fulfiller for each of its waiters: resumes the
 * actor's turn, or wakes the main thread.  w may vanish at once. */
void rt_sched_wake(RtWaiter *w);

/* For start.c: the program's main thread begins and ends as the "main
 * actor"; the first thread waits until the program is quiescent. */
void rt_main_begin(void);
void rt_main_end(void);
void rt_wait_quiescence(void);
/* Called by the transport once the whole program is quiescent: reports a
 * deadlock if anything here still waits, else lets the first thread end
 * the program. */
void rt_sched_quiescent(void);
/* Whether nothing in this process runs or can run until something comes
 * from outside it (no thread awake): read by the MPI transport, the only
 * thread that can then change it. */
int rt_sched_idle(void);

/* Whether the calling thread is a worker. */
int rt_sched_on_worker(void);

/* Whether a worker is searching for work (and so polls the transport:
 * transport.h's rt_tp_poll). */
int rt_sched_spinning(void);
/* How many threads or turns of this process wait in a get. */
int rt_sched_waiters(void);
/* Writes this process's waiters on stderr, one line each (the deadlock
 * report's list); nothing may run meanwhile. */
void rt_sched_write_waiters(void);

/* --- futures (future.c) --- */

RtFuture *rt_future_new(void);
void rt_future_fulfil(RtFuture *f, int64_t value);
/* Puts w on f's list of waiters; returns 0, doing nothing, when f is
 * fulfilled already. */
int rt_future_add_waiter(RtFuture *f, RtWaiter *w);

#endif
