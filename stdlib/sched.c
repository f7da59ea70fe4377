/* sched.c — the scheduler: workers, run queues, parking, quiescence.
 *
 * Workers.  One per core (nodes.c decides how many and on which node),
 * each a scheduling context in the sense of Go's "P": a `slot` for the
 * actor to run next, a FIFO ring that other workers may steal from
 * (runq.h), and an inbox, an MPSC queue (mailbox.h) for actors scheduled
 * from outside: by main, by a worker of another node, by a thread that
 * holds no worker.  Each worker is one thread, started through the
 * collector (threads.c), with a large stack and its own stack limit
 * (stack.c), so actors run the same compiled code with the same overflow
 * checks as main.
 *
 * Scheduling.  The send that finds an actor IDLE makes it ACTIVE and
 * calls rt_sched_schedule (actor.c).  A worker of the actor's node puts
 * it in its own slot (the previous occupant moves to the ring): the
 * receiver of the message just sent runs next on the same core, which is
 * what makes ping-pong and ring patterns cheap, and nobody is woken for
 * it.  Anyone else pushes it on the inbox of a worker of the actor's
 * node, the one that ran it last if possible (its caches), and wakes
 * that worker if it sleeps.
 *
 * A turn.  The worker pops up to RT_BATCH messages from the actor's
 * mailbox, running each and fulfilling its future.  Then either the
 * mailbox is empty and the actor becomes IDLE (one compare-and-swap that
 * fails if a message arrived meanwhile: mailbox.h), or it is requeued at
 * the back of the ring, behind every other waiting actor.
 *
 * Picking.  slot first, then the ring (oldest first), then the inbox
 * (moved into the ring, so it becomes stealable); every RT_FAIR_TICK
 * picks the order is inbox, ring, then the slot, so two actors passing a
 * message back and forth through the slot cannot starve the others, even
 * on one worker.  With nothing local, a worker steals: from the workers of
 * its node only (an actor runs on its own node), and from the others only
 * the actors of nodes that have no worker of their own (when there are
 * more nodes than workers), one actor at a time from the top
 * of a ring or from an inbox (whose consumer side is a try-lock, so
 * thieves and owner take turns without ever blocking).  The slot is never
 * stolen: an actor scheduled by a long message waits for that message's
 * end (or for its suspension, if that message waits in `get`).
 *
 * Parking.  A worker that finds nothing spins for a while (RT_SPIN_ROUNDS,
 * counted in `spinning`), then parks: it sets its `parked` word, counts
 * itself in `sleepers`, looks once more, and sleeps on a futex.  Whoever
 * makes work stealable (a ring push, an inbox push) wakes a sleeper only
 * if there are sleepers and nobody is spinning (Go's policy), so when
 * every worker is busy a send costs no system call and no shared write;
 * and the last spinner to find work wakes the next sleeper if it sees
 * more work where it found its own, so capacity ramps up when work fans
 * out (and only then: an actor requeued alone after its batch, or a
 * consumer that drains its producer's sends, wakes nobody).  An inbox
 * push to a parked worker always wakes it.  The parked word and the inbox
 * are a Dekker pair: the pusher exchanges the inbox's end and then reads
 * `parked`; the parker stores `parked` and then reads the inbox (all
 * sequentially consistent), so one of them sees the other.
 *
 * Waiting in `get` (rt_sched_wait).  A turn that must wait is suspended,
 * and its worker goes on with other actors, on the same thread.  Every
 * turn runs in a region of its worker thread's stack, below the region's
 * top (turn_top: one fixed address, unless deep turns wait, see below),
 * and so does the worker's loop, from the top.  To
 * suspend, the turn parks its registers on its stack (context.c) and,
 * still there, copies the bytes from its stack pointer up to turn_top
 * into a heap block, its continuation (RtCont), which also holds the
 * waiter record the future lists; then it starts a fresh loop at
 * turn_top, over the frames it has just copied.  When the future is
 * fulfilled, the fulfiller puts the actor on its worker's resume queue.
 * The worker picks it between two turns, copies the continuation back to
 * the addresses it came from (working from a small reserve above
 * turn_top, so as not to overwrite its own frames), and continues the
 * parked turn — whose frames include the loop that ran it, which goes on
 * after the turn as if nothing had happened, while the loop that did the
 * resuming is forgotten.  The bytes go back where they were, on the same
 * thread, so every pointer into the stack is still right and compiled
 * code needs to know nothing; that is also why a continuation resumes
 * only on the worker that suspended it (nobody steals from resume
 * queues).  The suspended actor stays ACTIVE and in no queue, so it
 * handles no other message until get returns.  Main, which holds no
 * worker, waits in get by sleeping on a futex.
 *
 * Why copies rather than a stack per waiting actor (fibers): Linux allows
 * 65,530 mappings per process, so a million stacks with guard pages
 * cannot exist; stacks without guards would have to be small, and Mosaic
 * recursion is deep; and the collector would need a hook to scan each
 * one.  A copy costs what the turn's stack holds — some hundreds of bytes
 * for a method that calls get — and a copy each way, and every turn keeps
 * its worker's large stack, its stack limit and its overflow check: a
 * stack overflow before or after a wait is the usual runtime error.
 *
 * Deep turns.  Copying a turn that waits from deep inside a recursion
 * would cost its whole depth at every wait.  So a turn with more than
 * RT_COPY_LIMIT bytes of stack is left in place: the worker's home moves
 * below it (home_top), fresh loops start there, and the turn is simply
 * continued when its future is fulfilled, with no copy at all.  Turns
 * left in place form a stack on the worker (in_place, lowest first), and
 * every turn that runs is below all of them, so the collector, which
 * scans a thread's stack from its stack pointer up, sees them.  Resuming
 * a turn whose frames (or, for a copy, whose reserve) would overlap turns
 * in place below it first copies those aside, and they become copies
 * like any other.  A turn in place leaves the stack under it to the
 * others, at least an eighth of the whole: a deep turn that would wait
 * with less left is a stack overflow, at its get.  A deep turn's record
 * and copy are kept by its actor for its next wait (RtActor.kept).
 * Several actors that wait by turns on one worker, each from deep inside
 * a recursion (and so from the same region: each started there), would
 * copy each other aside at every wait; instead a resumption that would
 * copy a deep turn aside is held back while the worker has other work,
 * for up to RT_DEFER_PICKS picks (take_resume), so the deep turn in
 * place goes on meanwhile and the copies are paid once per that many
 * picks — a bounded delay for the actor held back.
 *
 * Quiescence and deadlock.  `awake` counts the threads that can still
 * make anything happen: workers' threads that are not parked, and main
 * while it runs and does not wait.  It changes only when a thread parks
 * or wakes, when main waits or is woken, and when main ends — never per
 * message — and every increment is made by a thread that is itself
 * counted (a waker, a fulfiller), so once it reaches zero it stays
 * there.  Zero means: no thread runs, and every queue is empty (a worker
 * parks only after seeing its own queues empty, and whoever pushes to a
 * parked worker's inbox or resume queue wakes it first), so every actor
 * that is not suspended in a get is IDLE with an empty mailbox.  The
 * thread that brings it to zero looks at the list of waiters: none, and
 * the program is quiescent (the first thread, waiting in
 * rt_wait_quiescence, exits); some, and they wait for futures that
 * nothing can fulfil any more: a deadlock, reported at main's get if
 * main waits, else at an actor's, followed by the list of every waiter
 * and where it waits.
 *
 * Frames of -g code (mosaic_rt.h).  A turn's Mosaic frames live in its
 * stack, so a suspended turn takes them along and brings them back to the
 * same addresses; only the thread's pointer to the innermost one is the
 * scheduler's to keep: rt_sched_wait holds it while the turn waits (in
 * its own frame, which is saved with the turn, and in the waiter record,
 * for the deadlock report), a fresh loop starts with none, and the turn
 * has it back when it goes on.  The deadlock report reads the frames of a
 * turn copied aside in its copy (waiter_frame).
 *
 * What the collector sees: worker structs are GC_MALLOC_UNCOLLECTABLE
 * (roots: slot, ring array, inbox and resume queue ends), ring arrays are
 * GC blocks, actors hold their messages through their mailboxes,
 * messages their futures, and a suspended actor its continuation, a
 * scanned GC block, which holds what the turn's frames referred to.  The
 * copy is made while the turn's frames are still on the (scanned) stack
 * of the running thread, and put back while the block is still held, so
 * at no moment is a suspended turn's data only in memory the collector
 * does not scan.  Waiting main holds its future on its stack.
 * Thread-local variables are not scanned, so none holds the only
 * reference to anything.
 *
 * Not here: the mailbox protocol (mailbox.h, actor.c), futures
 * (future.c), topology (nodes.c), thread creation (threads.c).
 */
#include "rt_internal.h"
#include "rt_actors.h"
#include "runq.h"
#include "transport.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <gc.h>

/* Messages per turn: enough to amortise the turn's fixed cost (a pick,
 * the idle protocol), few enough that one busy actor cannot hold a worker
 * for long. */
#define RT_BATCH 64

/* Every RT_FAIR_TICK picks (a prime, so it does not beat with the
 * batch), the worker serves its inbox and ring before its slot. */
#define RT_FAIR_TICK 61

/* Inbox entries moved into the ring at a time. */
#define RT_DRAIN_MAX 256

/* Idle search before parking: RT_SPIN_ROUNDS rounds over every queue,
 * with exponentially growing pauses (up to 2^RT_SPIN_MAX_SHIFT pause
 * instructions), the last RT_SPIN_YIELDS of them yielding the core
 * instead: some tens of microseconds, the time it takes for the next
 * message of a busy program to show up, well below the cost of a futex
 * sleep and wake-up. */
#define RT_SPIN_ROUNDS 32
#define RT_SPIN_YIELDS 8
#define RT_SPIN_MAX_SHIFT 6

/* Turns in a row that find a mailbox whose next message is still being
 * linked by its producer before the worker yields its core: that
 * producer has been preempted between its two steps, and may need this
 * very core to finish. */
#define RT_BUSY_YIELD 16

/* Tries at a victim's ring before moving on when other thieves keep
 * winning. */
#define RT_STEAL_TRIES 4

/* Workers' stacks: 256 MiB reserved (not committed) is a recursion
 * millions of frames deep.  MOSAIC_STACK_SIZE overrides. */
#define RT_WORKER_STACK ((size_t)256 << 20)

/* The reserve above each turn region, where a suspended turn is copied
 * back from: one short call and a copy loop, plus room for a signal
 * frame (the collector's stop signal may come in the middle). */
#define RT_RESUME_RESERVE ((size_t)32 << 10)

/* A suspended turn whose stack holds more than this stays in place
 * rather than being copied at each wait (see "Waiting in get"). */
#define RT_COPY_LIMIT ((size_t)64 << 10)

/* Picks a resumption that would copy a deep turn aside may be held back
 * for, while the worker has other work (see take_resume). */
#define RT_DEFER_PICKS 1024

/* Under a sanitizer, the stack below a parked or restored context whose
 * poison is cleared too: the frames that did the switching used it. */
#define RT_UNPOISON_BELOW ((size_t)64 << 10)

typedef struct RtWorker {
    /* the holder's own, not shared */
    RtActor *slot;
    uint32_t tick;
    uint32_t rng;
    uint32_t busy_streak;   /* turns in a row that met a half-done push */
    int index, node, cpu;
    char pad0[64 - sizeof(void *) - 3 * sizeof(uint32_t) - 3 * sizeof(int)];
    RtRing ring;
    /* written by anyone who schedules onto this worker */
    RtMpsc inbox;
    _Atomic uint32_t inbox_lock;    /* consumer's role: a try-lock */
    _Atomic uint32_t parked;        /* futex word: 1 while asleep */
    char pad1[64 - sizeof(RtMpsc) - 2 * sizeof(uint32_t)];
    /* written by the fulfillers of the futures its actors wait for */
    RtMpsc resumes;
    char pad2[64 - sizeof(RtMpsc)];
    /* the holder's own: its stack (see "Waiting in get") */
    char *turn_top;             /* top of the running turn's region */
    char *home_top;             /* where a fresh loop starts */
    char *base_top;             /* the highest region top */
    struct RtCont *in_place;    /* parked in place, lowest first */
    RtLink *deferred, *deferred_last;   /* resumes held back: see pick */
    uint32_t deferred_picks;
    char pad3[64 - 6 * sizeof(void *) - sizeof(uint32_t)];
} RtWorker;

/* A suspended turn: its waiter record (first, so that lists of waiters
 * point at the block's start), its actor and worker, and where its bytes
 * are — the worker's stack from the parked context sp up to its region's
 * top: still in place (then `outer` is the next turn in place, above
 * it), or copied to `bytes`, which holds `capacity` bytes: the block's
 * own tail for a shallow turn, a block of its own for a deep one.  A deep
 * turn's record is kept by its actor after the wait (RtActor.kept), so
 * that an actor waiting again and again deep in a recursion does not
 * allocate a large copy each time. */
typedef struct RtCont {
    RtWaiter waiter;
    RtActor *actor;
    struct RtCont *outer;
    char *sp, *top;
    char *bytes;
    size_t capacity;
    int32_t worker;
    int32_t in_place;
    _Alignas(16) char stack[];
} RtCont;

static pthread_once_t sched_once = PTHREAD_ONCE_INIT;

/* Fixed once the workers start. */
static RtWorker **workers;
static int nworkers;
static int nnodes;
static int **node_workers;      /* [node] -> indices of the workers serving it */
static int *node_nworkers;
static int *node_own;           /* [node] -> 1 if it has workers of its own */
static int orphan_nodes;        /* some node has no worker of its own */

/* Shared counters, away from the rest: `awake` changes when threads
 * sleep and wake; sleepers and spinning are read by every push that may
 * need a wake-up, and written only when workers go idle or park. */
static _Atomic int64_t awake __attribute__((aligned(64))) = 1;     /* main */
static _Atomic int32_t sleepers __attribute__((aligned(64)));  /* parked or about to */
static _Atomic int32_t spinning;    /* workers searching for work */

static _Atomic uint32_t quiescent;      /* futex word for the first thread */

static pthread_mutex_t blocked_lock = PTHREAD_MUTEX_INITIALIZER;
static RtWaiter *blocked;

__thread RtActor *rt_current_actor;
__thread int64_t mos_here_node;
static __thread RtWorker *self_worker;
static __thread uint32_t remote_rr;
static __thread int is_main_thread;

static inline RtActor *actor_of(RtLink *l)
{
    return (RtActor *)(void *)((char *)l - offsetof(RtActor, rq_link));
}

static inline int serves(const RtWorker *w, int node)
{
    return w->node == node || !node_own[node];
}

/* ---- quiescence ------------------------------------------------------ */

static void blocked_add(RtWaiter *w)
{
    pthread_mutex_lock(&blocked_lock);
    w->prev_blocked = NULL;
    w->next_blocked = blocked;
    if (blocked)
        blocked->prev_blocked = w;
    blocked = w;
    pthread_mutex_unlock(&blocked_lock);
}

static void blocked_remove(RtWaiter *w)
{
    pthread_mutex_lock(&blocked_lock);
    if (w->prev_blocked)
        w->prev_blocked->next_blocked = w->next_blocked;
    else
        blocked = w->next_blocked;
    if (w->next_blocked)
        w->next_blocked->prev_blocked = w->prev_blocked;
    pthread_mutex_unlock(&blocked_lock);
}

/* Where the bytes of a waiter's frame are now: in place for main and for
 * a turn left in place, in the copy for a turn copied aside. */
static const MosFrame *waiter_frame(const MosFrame *fr, void *ctx)
{
    const RtWaiter *w = ctx;
    const RtCont *c = w->cont;
    if (!c || c->in_place)
        return fr;
    const char *p = (const char *)fr;
    if (p < c->sp || p + sizeof *fr > c->top)
        return NULL;
    return (const MosFrame *)(const void *)(c->bytes + (p - c->sp));
}

/* Waiters listed by a deadlock report at most. */
#define RT_DEADLOCK_LIST_MAX 32

extern const MosWaitSite mos_wait_sites[] __attribute__((weak));

/* The function a get is in, from the program's table of gets (weak: a
 * unit test that stands in for a program has none); NULL if unknown. */
static const char *wait_function(const char *where)
{
    if (!mos_wait_sites || !where)
        return NULL;
    for (const MosWaitSite *s = mos_wait_sites; s->where; s++)
        if (s->where == where || strcmp(s->where, where) == 0)
            return s->function;
    return NULL;
}

static void write_waiter(const RtWaiter *w)
{
    char line[256];
    const char *function = wait_function(w->where);
    /* a distributed program's waiters are this process's: its node */
    char node[32] = "";
    if (rt_tp_nodes() > 1)
        snprintf(node, sizeof node, " on node %d", rt_tp_self());
    int n = snprintf(line, sizeof line, "  %s%s waits at %s%s%s%s\n",
                     w->is_main ? "main" : "an actor", node, w->where ? w->where : RT_NOWHERE,
                     function ? ", in '" : "", function ? function : "", function ? "'" : "");
    if (n > 0)
        rt_write_all(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    rt_backtrace_write(STDERR_FILENO, w->frames, w->where, waiter_frame, (void *)w, "    ");
}

/* Main first, then by the place of the get (the order they blocked in
 * is a race). */
static int waiter_before(const RtWaiter *a, const RtWaiter *b)
{
    if (a->is_main != b->is_main)
        return a->is_main;
    return strcmp(a->where ? a->where : "", b->where ? b->where : "") < 0;
}

/* After the deadlock's message: every waiter, with the function or
 * method (class and method) its get is in, and its frames under -g.
 * Nothing runs any more, so the list holds still. */
void rt_sched_write_waiters(void)
{
    RtWaiter *list[RT_DEADLOCK_LIST_MAX];
    int n = 0, kept = 0;
    pthread_mutex_lock(&blocked_lock);
    for (RtWaiter *w = blocked; w; w = w->next_blocked) {
        /* insertion into the sorted list of the first MAX */
        int i;
        n++;
        if (kept < RT_DEADLOCK_LIST_MAX)
            i = kept++;
        else if (waiter_before(w, list[kept - 1]))
            i = kept - 1;       /* the last one drops out */
        else
            continue;
        for (; i > 0 && waiter_before(w, list[i - 1]); i--)
            list[i] = list[i - 1];
        list[i] = w;
    }
    for (int i = 0; i < kept; i++)
        write_waiter(list[i]);
    pthread_mutex_unlock(&blocked_lock);
    if (n > RT_DEADLOCK_LIST_MAX) {
        char line[64];
        int k = snprintf(line, sizeof line, "  and %d more waiting\n",
                         n - RT_DEADLOCK_LIST_MAX);
        if (k > 0)
            rt_write_all(STDERR_FILENO, line, (size_t)k);
    }
}

/* A deadlock's details: this process's waiters, then (under MPI) every
 * other node's, in node order. */
static void write_all_waiters(void *unused)
{
    (void)unused;
    rt_sched_write_waiters();
    rt_tp_write_other_waiters();
}

static _Noreturn void deadlock(const char *where, const char *who)
{
    char message[128];
    snprintf(message, sizeof message,
             "deadlock: %s is waiting on a future that can never be fulfilled", who);
    rt_panic_with(where && *where ? where : RT_NOWHERE, message, write_all_waiters, NULL);
}

/* Called by the thread whose decrement brought `awake` to zero: nothing
 * in this process runs any more.  Under shared memory nothing ever will
 * (see the essay); under MPI another node may still send something, and
 * the transport decides when the whole program is quiescent. */
static void all_asleep(void)
{
    rt_tp_idle();
}

void rt_sched_quiescent(void)
{
    pthread_mutex_lock(&blocked_lock);
    RtWaiter *any = blocked, *main_waiter = NULL;
    for (RtWaiter *w = blocked; w; w = w->next_blocked)
        if (w->is_main)
            main_waiter = w;
    pthread_mutex_unlock(&blocked_lock);
    if (main_waiter)
        deadlock(main_waiter->where, "main");
    if (any)
        deadlock(any->where, "an actor");
    atomic_store_explicit(&quiescent, 1, memory_order_release);
    rt_futex_wake(&quiescent, INT_MAX);
}

int rt_sched_idle(void)
{
    return atomic_load_explicit(&awake, memory_order_acquire) == 0;
}

int rt_sched_on_worker(void)
{
    return self_worker != NULL;
}

int rt_sched_spinning(void)
{
    return atomic_load_explicit(&spinning, memory_order_relaxed) > 0;
}

int rt_sched_waiters(void)
{
    int n = 0;
    pthread_mutex_lock(&blocked_lock);
    for (RtWaiter *w = blocked; w; w = w->next_blocked)
        n++;
    pthread_mutex_unlock(&blocked_lock);
    return n;
}

static inline void awake_inc(void)
{
    atomic_fetch_add_explicit(&awake, 1, memory_order_relaxed);
}

static inline void awake_dec(void)
{
    if (atomic_fetch_sub_explicit(&awake, 1, memory_order_acq_rel) == 1)
        all_asleep();
}

/* ---- waking ------------------------------------------------------------ */

/* Wakes t if it is parked; the waker counts it awake. */
static int try_unpark(RtWorker *t)
{
    uint32_t one = 1;
    if (!atomic_compare_exchange_strong_explicit(&t->parked, &one, 0,
                                                 memory_order_seq_cst,
                                                 memory_order_relaxed))
        return 0;
    atomic_fetch_sub_explicit(&sleepers, 1, memory_order_relaxed);
    awake_inc();
    rt_futex_wake(&t->parked, 1);
    return 1;
}

/* Wakes one parked worker, of `node` if there is one. */
static void wake_one(int node)
{
    int n = node_nworkers[node];
    int *list = node_workers[node];
    uint32_t start = remote_rr++;
    for (int i = 0; i < n; i++) {
        RtWorker *t = workers[list[(start + (uint32_t)i) % (uint32_t)n]];
        if (atomic_load_explicit(&t->parked, memory_order_relaxed) &&
            try_unpark(t))
            return;
    }
    for (int i = 0; i < nworkers; i++) {
        RtWorker *t = workers[(start + (uint32_t)i) % (uint32_t)nworkers];
        if (atomic_load_explicit(&t->parked, memory_order_relaxed) &&
            try_unpark(t))
            return;
    }
}

/* After making work stealable: wake a sleeper if nobody is looking for
 * work already.  The fence orders the push before the reads (a parker
 * counts itself in sleepers before its last look). */
static void maybe_wake(int node)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&sleepers, memory_order_relaxed) == 0 ||
        atomic_load_explicit(&spinning, memory_order_relaxed) != 0)
        return;
    wake_one(node);
}

/* ---- run queues -------------------------------------------------------- */

static void ring_push(RtWorker *w, RtActor *a)
{
    if (rt_ring_push(&w->ring, a) != 0)
        rt_panicf(RT_NOWHERE, "out of memory: cannot grow a run queue");
}

static RtActor *ring_take_own(RtWorker *w)
{
    for (;;) {
        void *x = rt_ring_take(&w->ring);
        if (x != RT_RING_LOST)
            return x;
    }
}

static inline int inbox_trylock(RtWorker *w)
{
    return atomic_load_explicit(&w->inbox_lock, memory_order_relaxed) == 0 &&
           atomic_exchange_explicit(&w->inbox_lock, 1,
                                    memory_order_acquire) == 0;
}

static inline void inbox_unlock(RtWorker *w)
{
    atomic_store_explicit(&w->inbox_lock, 0, memory_order_release);
}

/* Moves inbox entries into the ring; returns how many. */
static int drain_inbox(RtWorker *w)
{
    if (rt_mpsc_looks_empty(&w->inbox) || !inbox_trylock(w))
        return 0;
    int n = 0;
    RtLink *l;
    while (n < RT_DRAIN_MAX && (l = rt_mpsc_pop(&w->inbox)) != NULL) {
        ring_push(w, actor_of(l));
        n++;
    }
    inbox_unlock(w);
    if (n > 1)
        maybe_wake(w->node);
    return n;
}

static void push_local(RtWorker *w, RtActor *a)
{
    RtActor *old = w->slot;
    w->slot = a;
    if (old) {
        ring_push(w, old);
        maybe_wake(w->node);
    }
}

static RtWorker *remote_target(RtActor *a)
{
    int last = atomic_load_explicit(&a->last_worker, memory_order_relaxed);
    if (last >= 0 && serves(workers[last], a->node))
        return workers[last];
    int n = a->node;
    return workers[node_workers[n][remote_rr++ % (uint32_t)node_nworkers[n]]];
}

static void push_remote(RtActor *a)
{
    RtWorker *t = remote_target(a);
    rt_mpsc_push(&t->inbox, &a->rq_link);
    if (atomic_load_explicit(&t->parked, memory_order_seq_cst) &&
        try_unpark(t))
        return;
    maybe_wake(a->node);
}

/* Puts a suspended actor on the resume queue of the worker whose stack
 * its turn belongs to. */
static void push_resume(RtWorker *t, RtActor *a)
{
    rt_mpsc_push(&t->resumes, &a->rq_link);
    if (atomic_load_explicit(&t->parked, memory_order_seq_cst))
        try_unpark(t);
}

/* Whether resuming a now would first copy aside a deep turn left in
 * place on w's stack (see "Deep turns"). */
static int resume_displaces(RtWorker *w, RtActor *a)
{
    RtCont *c = a->suspended, *lowest = w->in_place;
    if (!lowest)
        return 0;
    if (c->in_place)
        return lowest != c;
    return lowest->sp < c->top + RT_RESUME_RESERVE;
}

static RtActor *take_deferred(RtWorker *w)
{
    RtLink *l = w->deferred;
    w->deferred = atomic_load_explicit(&l->next, memory_order_relaxed);
    w->deferred_picks = 0;
    return actor_of(l);
}

/* The next suspended actor whose future is fulfilled, or NULL.  One whose
 * resumption would copy a deep turn aside is held back (deferred) while
 * other work exists, so that the deep turn can go on in place meanwhile:
 * two actors waiting by turns from deep recursions then pay a copy once
 * per RT_DEFER_PICKS picks rather than at every wait. */
static RtActor *take_resume(RtWorker *w)
{
    while (!rt_mpsc_looks_empty(&w->resumes)) {
        RtLink *l = rt_mpsc_pop(&w->resumes);
        if (!l)
            return NULL;
        RtActor *a = actor_of(l);
        if (!resume_displaces(w, a))
            return a;
        atomic_store_explicit(&l->next, NULL, memory_order_relaxed);
        if (w->deferred)
            atomic_store_explicit(&w->deferred_last->next, l,
                                  memory_order_relaxed);
        else
            w->deferred = l;
        w->deferred_last = l;
    }
    return NULL;
}

void rt_sched_schedule(RtActor *a)
{
    RtWorker *w = self_worker;
    if (w && serves(w, a->node))
        push_local(w, a);
    else
        push_remote(a);
}

/* The next actor of w's own queues, or NULL. */
static RtActor *pick(RtWorker *w)
{
    RtActor *a;
    if (w->deferred && (++w->deferred_picks >= RT_DEFER_PICKS ||
                        !resume_displaces(w, actor_of(w->deferred))))
        return take_deferred(w);
    if (++w->tick % RT_FAIR_TICK == 0) {
        drain_inbox(w);
        if (w->slot) {
            ring_push(w, w->slot);
            w->slot = NULL;
        }
        if ((a = ring_take_own(w)) != NULL)
            return a;
    }
    if ((a = take_resume(w)) != NULL)
        return a;
    if ((a = w->slot) != NULL) {
        w->slot = NULL;
        return a;
    }
    if ((a = ring_take_own(w)) != NULL)
        return a;
    if (drain_inbox(w))
        return ring_take_own(w);
    return w->deferred ? take_deferred(w) : NULL;
}

static RtActor *steal_from(RtWorker *v)
{
    for (int i = 0; i < RT_STEAL_TRIES; i++) {
        void *x = rt_ring_take(&v->ring);
        if (x == NULL)
            break;
        if (x != RT_RING_LOST)
            return x;
    }
    if (!rt_mpsc_looks_empty(&v->inbox) && inbox_trylock(v)) {
        RtLink *l = rt_mpsc_pop(&v->inbox);
        inbox_unlock(v);
        if (l)
            return actor_of(l);
    }
    return NULL;
}

static inline uint32_t next_random(RtWorker *w)
{
    uint32_t x = w->rng;    /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return w->rng = x;
}

/* One pass over the other workers: those of w's node first.  *more is
 * set when the victim still has work after the theft. */
static RtActor *steal(RtWorker *w, int *more)
{
    if (nworkers == 1)
        return NULL;
    uint32_t r = next_random(w);
    int n = node_nworkers[w->node];
    int *list = node_workers[w->node];
    RtWorker *v = NULL;
    RtActor *a = NULL;
    for (int i = 0; i < n && !a; i++) {
        v = workers[list[(r + (uint32_t)i) % (uint32_t)n]];
        if (v != w)
            a = steal_from(v);
    }
    /* Other nodes' workers hold only their own node's actors, which must
     * stay there (LANGUAGE.md §5: an actor runs on its node), and those of
     * nodes without a worker of their own, which anyone may run.  So look
     * there only when such nodes exist, and give back what w may not run. */
    for (int i = 0; i < nworkers && !a && orphan_nodes; i++) {
        v = workers[(r + (uint32_t)i) % (uint32_t)nworkers];
        if (v->node == w->node)
            continue;
        a = steal_from(v);
        if (a && !serves(w, a->node)) {
            push_remote(a);
            a = NULL;
        }
    }
    if (a && more)
        *more = rt_ring_size(&v->ring) > 0 || !rt_mpsc_looks_empty(&v->inbox);
    return a;
}

/* Whether w has runnable actors besides the one it is about to run. */
static int has_more(RtWorker *w)
{
    return w->slot || rt_ring_size(&w->ring) > 0 ||
           !rt_mpsc_looks_empty(&w->inbox) ||
           !rt_mpsc_looks_empty(&w->resumes) || w->deferred;
}

/* ---- parking ------------------------------------------------------------ */

#define RETRY ((RtActor *)1)

/* The look before sleeping: authoritative about w's own queues (the
 * inbox under its lock, the resume queue, which only w takes from), and
 * one more pass at the others'.  RETRY when one of them holds an actor
 * its producer has not finished linking: that producer may have read
 * `parked` before we set it, so we may not sleep. */
static RtActor *last_look(RtWorker *w)
{
    RtActor *a = pick(w);
    if (a)
        return a;
    if (!rt_mpsc_empty(&w->resumes)) {
        RtLink *l = rt_mpsc_pop(&w->resumes);
        return l ? actor_of(l) : RETRY;
    }
    /* a thief holds it for a few instructions, unless it was preempted */
    for (int spins = 1;
         atomic_exchange_explicit(&w->inbox_lock, 1, memory_order_acquire);
         spins++) {
        if (spins % RT_BUSY_YIELD == 0)
            sched_yield();
        else
            rt_cpu_relax();
    }
    int empty = rt_mpsc_empty(&w->inbox);
    RtLink *l = empty ? NULL : rt_mpsc_pop(&w->inbox);
    inbox_unlock(w);
    if (l)
        return actor_of(l);
    if (!empty)
        return RETRY;
    return steal(w, NULL);
}

/* Parks w's thread until someone wakes it; returns an actor instead when
 * the last look finds one (or RETRY). */
static RtActor *park(RtWorker *w)
{
    atomic_store_explicit(&w->parked, 1, memory_order_seq_cst);
    atomic_fetch_add_explicit(&sleepers, 1, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
    RtActor *a = last_look(w);
    if (a) {
        uint32_t one = 1;
        if (atomic_compare_exchange_strong_explicit(&w->parked, &one, 0,
                                                    memory_order_seq_cst,
                                                    memory_order_relaxed))
            atomic_fetch_sub_explicit(&sleepers, 1, memory_order_relaxed);
        else    /* a waker got here first and counted us awake again */
            atomic_fetch_sub_explicit(&awake, 1, memory_order_relaxed);
        return a;
    }
    awake_dec();        /* may end the program, or report a deadlock */
    while (atomic_load_explicit(&w->parked, memory_order_acquire))
        rt_futex_wait(&w->parked, 1);
    return NULL;        /* the waker counted us awake */
}

/* The pause after an idle round; returns 1 when the transport's poll,
 * made every few pause instructions (a packet from another rank should
 * not wait for the end of a long pause), did something. */
static int backoff(int round)
{
    if (round >= RT_SPIN_ROUNDS - RT_SPIN_YIELDS) {
        sched_yield();
        return 0;
    }
    int shift = round < RT_SPIN_MAX_SHIFT ? round : RT_SPIN_MAX_SHIFT;
    for (int i = 0; i < 1 << shift; i++) {
        rt_cpu_relax();
        if (rt_tp_poll())
            return 1;
    }
    return 0;
}

/* Finds work for w, spinning then parking as long as there is none. */
static RtActor *idle(RtWorker *w)
{
    for (;;) {
        atomic_fetch_add_explicit(&spinning, 1, memory_order_seq_cst);
        for (int round = 0; round < RT_SPIN_ROUNDS; round++) {
            int more = 0;
            RtActor *a = pick(w);
            if (a)
                more = has_more(w);
            else
                a = steal(w, &more);
            if (a) {
                /* Pushes skip waking anyone while a worker spins, so the
                 * last spinner out wakes a sleeper if there is more
                 * where this came from. */
                if (atomic_fetch_sub_explicit(&spinning, 1,
                                              memory_order_seq_cst) == 1 &&
                    more)
                    maybe_wake(w->node);
                return a;
            }
            if (rt_tp_poll() || backoff(round))
                round = -1;     /* something came, for us perhaps: look again */
        }
        if (atomic_fetch_sub_explicit(&spinning, 1, memory_order_seq_cst) == 1)
            rt_tp_polls_stopped();
        RtActor *a = park(w);
        if (a && a != RETRY)
            return a;
    }
}

/* ---- turns --------------------------------------------------------------- */

/* The end of a turn whose mailbox looks empty.  Returns 1 when the actor
 * is IDLE and no longer ours (after which it must not be touched: its
 * next sender may have scheduled it already), 0 when a message is on its
 * way.  First clears the last message taken, which the mailbox keeps as
 * its dummy node: its arguments and future are dead, and an idle actor
 * must not keep what they refer to alive. */
static int go_idle(RtActor *a)
{
    RtLink *last = a->mailbox.out;
    if (last != &a->mailbox.stub) {
        RtMessage *m = (RtMessage *)(void *)last;
        int64_t *args = (int64_t *)(void *)(m + 1);
        for (int64_t i = 0; i < (m->size - MOS_MESSAGE_HEADER_SIZE) / 8; i++)
            args[i] = 0;
        m->future = NULL;
    }
    return rt_mailbox_try_idle(&a->mailbox);
}

/* Puts a back on w's ring (it stays ACTIVE).  Alone there, it is what w
 * runs next, and nobody else could help: no wake-up. */
static void requeue(RtWorker *w, RtActor *a)
{
    ring_push(w, a);
    if (w->slot || rt_ring_size(&w->ring) > 1)
        maybe_wake(w->node);
}

/* Runs one turn of a on w.  The mailbox's consumer end lives in `out`
 * for the turn and is stored back before the actor can change hands.
 * (While the turn is suspended in a get, `out` is saved with it, and
 * nobody else takes from the mailbox of an ACTIVE actor.) */
static void run_turn(RtWorker *w, RtActor *a)
{
    rt_current_actor = a;
    mos_here_node = a->node;
    if (atomic_load_explicit(&a->last_worker, memory_order_relaxed) !=
        w->index)
        atomic_store_explicit(&a->last_worker, w->index,
                              memory_order_relaxed);
    RtLink *out = a->mailbox.out;
    for (int n = 0;;) {
        RtLink *l = rt_mailbox_take(&out);
        if (!l) {
            a->mailbox.out = out;
            if (go_idle(a))
                break;
            l = rt_mailbox_take(&out);
            if (!l) {
                /* a sender is between its two steps: come back later
                 * rather than wait for it */
                if (++w->busy_streak % RT_BUSY_YIELD == 0)
                    sched_yield();
                requeue(w, a);
                break;
            }
        }
        RtMessage *m = (RtMessage *)(void *)l;
        w->busy_streak = 0;
        int64_t v = m->run(a, m);
        if (m->future)
            rt_future_fulfil(m->future, v);
        if (++n == RT_BATCH) {
            a->mailbox.out = out;
            requeue(w, a);
            break;
        }
    }
    rt_current_actor = NULL;
    mos_here_node = 0;
}

_Static_assert(sizeof(RtWorker) % 64 == 0,
               "worker structs are whole cache lines");

/* ---- suspended turns ------------------------------------------------------ */

#if defined(__SANITIZE_ADDRESS__)
#define RT_NO_ASAN __attribute__((no_sanitize_address))
#else
#define RT_NO_ASAN
#endif

/* Under a sanitizer: forgets the poison of the stack from lo to hi, and
 * of the frames below lo that the switching itself used.  Those frames
 * were left by copies and switches, not by returns. */
static void unpoison(char *lo, char *hi)
{
    char *floor = mos_stack_limit;
    lo = floor && lo - floor < (ptrdiff_t)RT_UNPOISON_BELOW
             ? floor
             : lo - RT_UNPOISON_BELOW;
    rt_stack_unpoison(lo, (size_t)(hi - lo));
}

/* Whether a turn parked at sp, in a region whose top is top, stays in
 * place: when its bytes are too many to copy at every wait.  The turns
 * that run meanwhile get the stack below it, which must be at least an
 * eighth of the whole: a turn that waits with less left is a stack
 * overflow, reported at its get (its recursion was about to reach the
 * limit anyway).  Where the stack's bounds are unknown, turns are always
 * copied. */
static int stays_in_place(RtWorker *w, char *sp, char *top,
                          const char *where)
{
    char *floor = mos_stack_limit;
    if ((size_t)(top - sp) <= RT_COPY_LIMIT || !floor)
        return 0;
    if (sp - floor < (w->base_top - floor) / 8)
        mos_panic(where, "stack overflow");
    return 1;
}

/* Where a fresh loop starts: below the lowest turn parked in place, with
 * room for a reserve, or at the top. */
static char *home_of(RtWorker *w)
{
    return w->in_place ? w->in_place->sp - RT_RESUME_RESERVE : w->base_top;
}

/* Makes room for n bytes in c's copy: a deep turn's copy gets half as
 * much again, for the deeper waits that usually follow. */
static void cont_reserve(RtCont *c, size_t n)
{
    if (c->capacity >= n)
        return;
    size_t capacity = n + n / 2;
    c->bytes = GC_MALLOC(capacity);
    if (!c->bytes)
        mos_panic(c->waiter.where, "out of memory: cannot suspend an actor "
                                   "waiting in get");
    c->capacity = capacity;
}

/* The record for a's wait, with room for n bytes unless they stay in
 * place: the kept record of its last deep wait, or a new one. */
static RtCont *cont_for(RtActor *a, const char *where, size_t n,
                        int in_place)
{
    RtCont *c = a->kept;
    a->kept = NULL;
    if (!c) {
        int inline_copy = !in_place && n <= RT_COPY_LIMIT;
        c = GC_MALLOC(sizeof(RtCont) + (inline_copy ? n : 0));
        if (!c)
            mos_panic(where, "out of memory: cannot suspend an actor "
                             "waiting in get");
        if (inline_copy) {
            c->bytes = c->stack;
            c->capacity = n;
        }
    }
    c->waiter.cont = c;
    c->waiter.where = where;
    if (!in_place)
        cont_reserve(c, n);
    return c;
}

/* Copies every turn parked in place below `addr` aside (lowest first),
 * so that the stack there can be used.  Runs below them all: they are
 * scanned by the collector until their copies are complete. */
static void move_aside_below(RtWorker *w, char *addr)
{
    RtCont *c;
    while ((c = w->in_place) != NULL && c->sp < addr) {
        size_t size = (size_t)(c->top - c->sp);
        cont_reserve(c, size);
        rt_stack_copy(c->bytes, c->sp, size);
        c->in_place = 0;
        w->in_place = c->outer;
        c->outer = NULL;
    }
    w->home_top = home_of(w);
}

static _Noreturn void worker_loop(void *arg);

typedef struct Wait {
    RtFuture *future;
    const char *where;
    MosFrame *frames;
} Wait;

/* The decision of a turn that parked itself at sp to wait (see the
 * essay): runs below sp, so the frames being saved are still scanned
 * while the copy is made.  Nothing in them may change after the copy. */
static void suspend_turn(void *sp_, void *arg)
{
    const Wait *wait = arg;
    char *sp = sp_;
    RtWorker *w = self_worker;
    RtActor *a = rt_current_actor;
    char *top = w->turn_top;
    size_t size = (size_t)(top - sp);
    int in_place = stays_in_place(w, sp, top, wait->where);
    RtCont *c = cont_for(a, wait->where, size, in_place);
    c->actor = a;
    c->waiter.frames = wait->frames;
    c->sp = sp;
    c->top = top;
    c->worker = w->index;
    c->in_place = in_place;
    if (!in_place)
        rt_stack_copy(c->bytes, sp, size);
    a->suspended = c;
    blocked_add(&c->waiter);
    if (!rt_future_add_waiter(wait->future, &c->waiter)) {
        /* fulfilled meanwhile: the turn goes on */
        blocked_remove(&c->waiter);
        a->suspended = NULL;
        if (c->capacity > RT_COPY_LIMIT || in_place)
            a->kept = c;
        return;
    }
    /* From here the fulfiller may queue a on w's resume queue, which only
     * this thread reads, in the loop started below. */
    rt_current_actor = NULL;
    mos_here_node = 0;
    if (in_place) {
        c->outer = w->in_place;
        w->in_place = c;
        w->home_top = sp - RT_RESUME_RESERVE;
        unpoison(sp, sp);
    } else {
        unpoison(sp, top);
    }
    w->turn_top = w->home_top;
    mos_frame_top = NULL;   /* the fresh loop runs no Mosaic code yet */
    rt_ctx_enter(w->home_top, worker_loop, w);
}

/* The bookkeeping of a turn about to continue: a deep turn's record is
 * kept for its next wait, a shallow one's dropped. */
static void resumed(RtWorker *w, RtActor *a, RtCont *c)
{
    a->suspended = NULL;
    if (c->capacity > RT_COPY_LIMIT || c->in_place)
        a->kept = c;
    blocked_remove(&c->waiter);
    w->turn_top = c->top;
    rt_current_actor = a;
    mos_here_node = a->node;
}

/* Puts a copied turn back in place and continues it.  Runs on the
 * reserve above the turn's region; c stays referenced from here until
 * the copy is back on the stack, where the collector sees it again. */
static _Noreturn void restore_turn(void *arg)
{
    RtActor *a = arg;
    RtCont *c = a->suspended;
    RtWorker *w = self_worker;
    resumed(w, a, c);
    rt_stack_copy(c->sp, c->bytes, (size_t)(c->top - c->sp));
    unpoison(c->sp, c->top);
    rt_ctx_resume(c->sp);
}

/* Continues a's suspended turn: first moving aside whatever lies parked
 * in place where that turn's frames (and, for a copy, the reserve above
 * them) go; the loop calling this is abandoned. */
static _Noreturn void resume(RtWorker *w, RtActor *a)
{
    RtCont *c = a->suspended;
    if (!c->in_place) {
        move_aside_below(w, c->top + RT_RESUME_RESERVE);
        rt_ctx_enter(c->top + RT_RESUME_RESERVE, restore_turn, a);
    }
    move_aside_below(w, c->sp);
    w->in_place = c->outer;     /* c itself was the lowest now */
    c->outer = NULL;
    w->home_top = home_of(w);
    resumed(w, a, c);
    unpoison(c->sp, c->sp);
    rt_ctx_resume(c->sp);
}

void rt_sched_wait(RtFuture *f, const char *where)
{
    /* -g: the waiting code's frames, which a suspended turn takes along
     * (they are in its stack); the thread's pointer to them is this
     * turn's again once it goes on (mosaic_rt.h) */
    MosFrame *frames = mos_frame_top;
    if (self_worker) {      /* a worker runs Mosaic code only in turns */
        Wait wait = { f, where, frames };
        rt_ctx_park(suspend_turn, &wait);
        mos_frame_top = frames;
        return;             /* resumed, or fulfilled before suspending */
    }
    RtWaiter me = { .where = where, .is_main = is_main_thread, .frames = frames };
    blocked_add(&me);
    if (!rt_future_add_waiter(f, &me)) {
        blocked_remove(&me);
        return;
    }
    awake_dec();            /* may report the deadlock, with me on the list */
    while (atomic_load_explicit(&me.woken, memory_order_acquire) == 0)
        rt_futex_wait(&me.woken, 0);
    blocked_remove(&me);
}

int rt_sched_spin_worthwhile(void)
{
    RtWorker *w = self_worker;
    return nworkers > 1 && !(w && w->slot);
}

void rt_sched_wake(RtWaiter *w)
{
    RtCont *c = w->cont;
    if (c) {
        push_resume(workers[c->worker], c->actor);
        return;
    }
    awake_inc();            /* before main can run: see the essay */
    atomic_store_explicit(&w->woken, 1, memory_order_release);
    rt_futex_wake(&w->woken, 1);
}

/* ---- threads ---------------------------------------------------------- */

static void pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* A worker's loop: runs in a turn region, from its top, and is started
 * afresh at home_top each time a turn is suspended.  A loop that was
 * itself part of a resumed turn may find, when that turn is over, that
 * home has moved up (the turns parked in place above it are gone): it
 * starts again there, rather than leave the stack in between unused. */
static _Noreturn void worker_loop(void *arg)
{
    RtWorker *w = arg;
    char *region_top = w->turn_top;
    for (;;) {
        rt_tp_flush();      /* what the last turn sent leaves now */
        RtActor *a = pick(w);
        if (!a)
            a = idle(w);
        if (a->suspended)
            resume(w, a);
        run_turn(w, a);
        if (region_top != w->home_top) {
            w->turn_top = w->home_top;
            rt_ctx_enter(w->home_top, worker_loop, w);
        }
    }
}

/* The reserve is a local array of this frame, which never returns: its
 * top is where resume_turn runs, and the turn region starts below it. */
RT_NO_ASAN static void *worker_thread(void *arg)
{
    rt_thread_stack_init();
    RtWorker *w = arg;
    self_worker = w;
    if (rt_topology()->pin)
        pin_to(w->cpu);
    char reserve[RT_RESUME_RESERVE] __attribute__((aligned(16)));
    w->base_top = w->home_top = w->turn_top = reserve;
    rt_ctx_enter(w->turn_top, worker_loop, w);
}

/* ---- start and end ------------------------------------------------------ */

static void *checked_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: cannot start the scheduler");
    return p;
}

static void sched_setup(void)
{
    /* Inbox links point 24 bytes into actors, and an idle mailbox's `in`
     * one byte into its last message.  The collector recognises interior
     * pointers by default; registering the offsets keeps queued actors
     * alive even where that default is off (GC_all_interior_pointers =
     * 0).  (`in` never holds the only reference: `out` points to the
     * same node.) */
    GC_register_displacement(offsetof(RtActor, rq_link));
    GC_register_displacement(RT_MAILBOX_IDLE);
    const RtTopology *topo = rt_topology();
    nworkers = topo->workers;
    nnodes = topo->nodes;
    workers = checked_malloc(sizeof(RtWorker *) * (size_t)nworkers);
    node_workers = checked_malloc(sizeof(int *) * (size_t)nnodes);
    node_nworkers = checked_malloc(sizeof(int) * (size_t)nnodes);
    node_own = checked_malloc(sizeof(int) * (size_t)nnodes);
    for (int i = 0; i < nworkers; i++) {
        RtWorker *w = GC_MALLOC_UNCOLLECTABLE(sizeof(RtWorker));
        if (!w || rt_ring_init(&w->ring) != 0)
            rt_panicf(RT_NOWHERE, "out of memory: cannot start the scheduler");
        w->index = i;
        w->node = topo->worker_node[i];
        w->cpu = topo->worker_cpu[i];
        w->rng = 2654435761u * (uint32_t)(i + 1);   /* never 0 */
        rt_mpsc_init(&w->inbox);
        rt_mpsc_init(&w->resumes);
        workers[i] = w;
    }
    for (int n = 0; n < nnodes; n++) {
        int count = 0;
        for (int i = 0; i < nworkers; i++)
            count += workers[i]->node == n;
        node_own[n] = count > 0;
        orphan_nodes |= count == 0;
        node_nworkers[n] = count > 0 ? count : nworkers;
        node_workers[n] = checked_malloc(sizeof(int) * (size_t)node_nworkers[n]);
        int k = 0;
        for (int i = 0; i < nworkers; i++)
            if (count == 0 || workers[i]->node == n)
                node_workers[n][k++] = i;
    }
    /* the workers start awake; this thread (main, running) counts */
    atomic_fetch_add_explicit(&awake, nworkers, memory_order_relaxed);
    for (int i = 0; i < nworkers; i++)
        if (rt_thread_start(NULL, worker_thread, workers[i], RT_WORKER_STACK,
                            1) != 0)
            rt_panicf(RT_NOWHERE, "out of memory: cannot start worker %d", i);
}

void rt_sched_start(void)
{
    pthread_once(&sched_once, sched_setup);
}

void rt_main_begin(void)
{
    is_main_thread = 1;
}

void rt_main_end(void)
{
    awake_dec();
}

void rt_wait_quiescence(void)
{
    while (atomic_load_explicit(&quiescent, memory_order_acquire) == 0)
        rt_futex_wait(&quiescent, 0);
}
