/* transport_mpi.c — the transport of a distributed program: node k is
 * MPI rank k (LANGUAGE.md §10, transport.h).
 *
 * Who calls MPI.  One thread at a time, the holder of the *progress
 * role* (MPI_THREAD_SERIALIZED: Open MPI's multi-threaded mode would
 * cost every call a lock, and no thread ever blocks in MPI while it
 * holds the role).  Making progress is sending what is queued, receiving
 * and handling what has arrived, passing the termination detector's
 * token.  Three kinds of thread take the role, each only with a try:
 *
 *   - a worker that has nothing to run polls, on every round of its
 *     search before it parks (sched.c's idle, rt_tp_poll): what arrives
 *     for one of its actors is handled on the very core that runs it
 *     next, from its slot, and nobody is woken;
 *   - a thread that sends sends at once (enqueue): its packet is on its
 *     way before its turn goes on, in a frame of its own when nothing is
 *     queued before it;
 *   - the *progress thread*, which initialises and finalises MPI, runs
 *     the termination detection and the ending, and polls when no worker
 *     does: it dozes while a worker searches for work, and is woken when
 *     the last one stops to park.
 *
 * Handing every packet to a thread of its own was simpler, and cost a
 * ping-pong between two ranks on a 2-core machine 66 µs a round trip
 * (two wake-ups per crossing, with the worker and the progress thread
 * sharing a core); polled by the workers it costs a few times what Open
 * MPI itself takes (bench/README.md).  END and DEADLOCK, which end the
 * process with MPI calls of the thread that initialised MPI, are left by
 * a worker's poll to the progress thread, and worker polls stop for good
 * once the program begins to end.
 *
 * Packets.  A packet's first word says what it is.  The packets queued
 * for one rank one after the other travel together, as one MPI message
 * of tag 0 (a *frame*: each packet after its length, up to FRAME_BYTES),
 * so that a stream of small sends costs one MPI message per frame rather
 * than per send; with a single tag, MPI's non-overtaking rule makes the
 * packets from one rank to another arrive in the order they were sent.
 * A frame is sent with MPI_Isend and kept until MPI_Test says it left
 * (at most MAX_INFLIGHT at a time), so two ranks sending each other large
 * frames never wait for each other.  What a packet carries:
 *
 *   MSG      a message for an actor: its address there, the index of its
 *            run function in mos_message_table (the same executable runs
 *            in every rank, so the table is the same), the future its
 *            reply fulfils (an address in the sender, or 0), the slots
 *   REPLY    the value of a future, for the rank that holds the future
 *   SUB      "send me the value of this future of yours", from a rank that
 *            does `get` on a future it was given as a value
 *   CREATE   "make an actor of N bytes", answered by DONE, its address
 *   LOAD, STORE  a field, an element or a length of a local object, read
 *            or written for another rank; ALLOC, a passive object made
 *            here for another rank; PLACE, an array or map another rank
 *            built, to be made here; CALL, a method of a local array or
 *            map run for another rank: each answered by DONE
 *   INC, RELEASE  the counts of the export table (below)
 *   POOLNEW  "make a pool of this shape here" (its shape named by its
 *            offset in the executable, the same in every rank), answered
 *            by DONE; POOLS, from node 0 once main has made the top-level
 *            pools: the references to them, for every rank's globals
 *   FLUSH    "tell me how many of my packets you have handled", answered
 *            by ACK (the causal barrier below)
 *   TOKEN    the termination detector's token
 *   END      "end with this status", and DEADLOCK, "report your waiters"
 *
 * Values travel as mos_message_table's letters say (codegen's actor.c):
 * a word as it is ('i'), a string by value ('s'), a reference as (node,
 * address) ('r'): a local object is *exported* — kept in this rank's
 * export table, a root of the collector, so that it stays alive while
 * another rank may refer to it — and arrives as the plain pointer on its
 * own rank, or as a tagged proxy anywhere else (the import table keeps
 * one proxy per remote object, so identity is preserved).
 *
 * Distributed collection: reference counting of imports, by shares.  The
 * export table counts, for each exported object, the shares other ranks
 * hold: one for every time the object travelled to another rank.  Each
 * proxy counts the shares it received.  Its owner adds a share as it
 * sends the object; a third rank that passes on a reference it holds
 * first sends the owner an INC, which the causal barrier makes arrive
 * before the packet that carries the reference can, so the owner's count
 * never falls to zero while a share is in flight.  When the collector
 * finds a proxy unreachable, the import table's weak link to it is
 * cleared and its finalizer (run by the progress thread:
 * GC_set_finalize_on_demand) sends RELEASE with its shares; an object
 * whose count reaches zero leaves the export table, and the owner's
 * collector takes it once nothing local holds it either.  Counts rather
 * than reference listing (the set of ranks holding a reference), because
 * a count needs no round trip when a rank passes on a reference, and a
 * share in flight is simply not released yet.  Cycles of references
 * across ranks are never collected (§10 allows it).  Exported futures
 * leave the table when their reply arrives.
 *
 * Causal delivery (LANGUAGE.md §4).  MPI orders packets between two ranks
 * only; a message m1 from rank A to rank K, then a message from A to B
 * that makes B send m2 to K, could see m2 overtake m1 on another path.
 * So the progress thread sends packets in the order they were queued,
 * and sends one to rank d only once every earlier packet to any other
 * rank has been handled there (delivered to its mailbox): when that is
 * not known, it asks with FLUSH and holds the queue until the ACK comes.
 * Traffic between two ranks never waits; a rank that switches between
 * destinations pays one round trip per switch.
 *
 * Termination (Safra's algorithm, the asynchronous refinement of
 * Dijkstra, Feijen and van Gasteren's token ring).  Each rank counts the
 * basic packets it has sent minus those it has received, and turns black
 * when it receives one.  A rank is *passive* when none of its threads is
 * awake (sched.c) and it has nothing queued: it can then send nothing
 * until it receives something.  Rank 0, once passive, sends a white token
 * with count 0 around the ring 0 → 1 → … → N-1 → 0; each rank forwards it
 * once passive, adding its count, blackening it if it is black itself,
 * and turns white.  When the token comes back white with a total of 0 and
 * rank 0 is white and passive, every rank was passive at once with no
 * packet in flight: the program is quiescent.  The token also sums the
 * waiters of every rank (threads and turns in a get): if there are any,
 * the program is deadlocked, and the first rank with waiters reports
 * them; otherwise rank 0's main ends, and its status ends every rank.
 *
 * Output.  Node 0 writes the program's standard output, all of it:
 * every other rank's output buffer (print.c) is written out as PRINT
 * packets for node 0, which appends them to its own.  Before a packet
 * leaves, what the rank has printed is made into a PRINT packet ahead of
 * it, so the causal barrier that orders messages orders output too: a
 * line printed before a send comes out before every line that the send
 * causes anywhere (a reply that main prints, say), as with shared memory.
 * Writing each rank's stdout and leaving the rest to mpirun, which
 * forwards each rank's output on a pipe of its own, cannot promise that:
 * once a reply crossed in a microsecond, main's line often came out
 * before the line printed ahead of the reply.  Lines that ranks print
 * at the same time still come out in either order, whole.  PRINT packets
 * are not the program's messages: --count-remote does not count them.
 *
 * Ending.  exit(n), a runtime error and the end of main all end here
 * (rt_tp_ending): the progress thread tells every other rank END(n), and
 * each of them sends node 0 its last output and a BYE, and exits with n
 * after MPI_Finalize, which all of them reach; node 0 writes what comes
 * until every BYE is in.  A rank that dies is seen by its watch
 * (rank_watch.c), which exits with 101, and mpirun then ends the others.
 *
 * Started without mpirun (no OMPI_COMM_WORLD_SIZE in the environment),
 * the program runs as one node, and MPI is never initialised.
 */
#include "rt_internal.h"
#include "rt_actors.h"
#include "transport.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <gc.h>
#include <mpi.h>

/* ---- packets ------------------------------------------------------------ */

/* Every packet: its name, whether it is *basic* — counted by the
 * termination detector and held by the causal barrier: whatever can make
 * work or that a later packet may depend on — and its handler.  RELEASE
 * goes through the queue (after the INCs it must follow) but is neither
 * counted nor held; the control packets skip the queue. */
#define PACKETS(X)                                                           \
    X(MSG, 1, on_message)       X(REPLY, 1, on_reply)                        \
    X(SUB, 1, on_subscribe)     X(CREATE, 1, on_create)                      \
    X(LOAD, 1, on_load)         X(STORE, 1, on_store)                        \
    X(ALLOC, 1, on_alloc)       X(PLACE, 1, on_place)                        \
    X(CALL, 1, on_call)         X(DONE, 1, on_done)                          \
    X(INC, 1, on_inc)           X(POOLNEW, 1, on_pool_new)                   \
    X(POOLS, 1, on_pools)                                                    \
    X(RELEASE, 0, on_release)                                                \
    X(FLUSH, 0, on_flush)       X(ACK, 0, on_ack)                            \
    X(TOKEN, 0, on_token)       X(END, 0, on_end)                            \
    X(DEADLOCK, 0, on_deadlock)                                              \
    X(PRINT, 1, on_print)       X(BYE, 0, on_bye)

enum {
    PK_NONE,
#define PACKET_KIND(name, basic, handler) PK_##name,
    PACKETS(PACKET_KIND)
#undef PACKET_KIND
    PK_COUNT
};

static const char basic_packet[PK_COUNT] = {
#define PACKET_BASIC(name, basic, handler) [PK_##name] = basic,
    PACKETS(PACKET_BASIC)
#undef PACKET_BASIC
};
#define PK_BASIC(t) ((t) > PK_NONE && (t) < PK_COUNT && basic_packet[t])

/* A packet, or a frame of them: one allocation while it stays within
 * PK_INLINE bytes, as nearly every packet does.  A packet keeps its first
 * word (PK_HEAD) free for its length in a frame, so that a frame of one
 * packet is the packet itself (frame_of_one), copied nowhere. */
#define PK_INLINE 192
#define PK_HEAD 8

typedef struct Packet {
    struct Packet *next;
    int dest;
    int type;
    size_t len, cap;
    char *buf;
    MPI_Request req;
    char inline_buf[PK_INLINE];
} Packet;

/* An empty buffer for rank dest: a frame's, or a packet's (pk_new). */
static Packet *pk_alloc(int dest, int type)
{
    Packet *p = malloc(sizeof *p);
    if (!p)
        rt_panicf(RT_NOWHERE, "out of memory: a packet for node %d", dest);
    p->next = NULL;
    p->dest = dest;
    p->type = type;
    p->len = 0;
    p->cap = PK_INLINE;
    p->buf = p->inline_buf;
    return p;
}

static void pk_word(Packet *p, uint64_t w);

/* A packet of `type` for rank dest, its first word written. */
static Packet *pk_new(int dest, int type)
{
    Packet *p = pk_alloc(dest, type);
    p->len = PK_HEAD;
    pk_word(p, (uint64_t)type);
    return p;
}

/* The bytes of packet p, without its head. */
static size_t pk_size(const Packet *p)
{
    return p->len - PK_HEAD;
}

static void pk_free(Packet *p)
{
    if (p->buf != p->inline_buf)
        free(p->buf);
    free(p);
}

static void pk_bytes(Packet *p, const void *bytes, size_t n)
{
    if (p->len + n > p->cap) {
        while (p->len + n > p->cap)
            p->cap *= 2;
        char *grown = p->buf == p->inline_buf ? malloc(p->cap) : realloc(p->buf, p->cap);
        if (!grown)
            rt_panicf(RT_NOWHERE, "out of memory: a packet of %zu bytes", p->cap);
        if (p->buf == p->inline_buf)
            memcpy(grown, p->inline_buf, p->len);
        p->buf = grown;
    }
    memcpy(p->buf + p->len, bytes, n);
    p->len += n;
}

static void pk_word(Packet *p, uint64_t w)
{
    pk_bytes(p, &w, sizeof w);
}

/* What a handler reads a packet with. */
typedef struct Reader {
    const char *p, *end;
    int from;
} Reader;

static uint64_t rd_word(Reader *r)
{
    uint64_t w = 0;
    if (r->end - r->p < (ptrdiff_t)sizeof w)
        rt_panicf(RT_NOWHERE, "internal error: a short packet from node %d", r->from);
    memcpy(&w, r->p, sizeof w);
    r->p += sizeof w;
    return w;
}

/* ---- state -------------------------------------------------------------- */

/* Nodes a reference can name: the import table's keys hold a node in
 * the 15 bits above a 48-bit address (import_key). */
#define MAX_RANKS ((1 << 15) - 1)

static int under_mpi;           /* started by mpirun */
static int self_rank, nranks = 1;
static _Atomic uint32_t started;        /* futex word: MPI is up */
static _Atomic uint32_t ready;          /* futex word: so is the runtime */
static int saved_argc;
static char **saved_argv;

/* The queue of packets to send, filled by any thread. */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static Packet *out_head, *out_tail;
static _Atomic int64_t out_count;
static _Atomic uint32_t doorbell;       /* futex word: something to do */
static _Atomic int sleeping;            /* the progress thread waits on it */

/* Packets handed to MPI_Isend, not known to have left. */
static Packet *inflight;

/* The causal barrier: basic packets sent to each rank, and how many of
 * them it has said it handled; received from each rank. */
static uint64_t *sent_to, *acked_by, *received_from;
static char *flush_asked;

/* Safra's counts (basic packets sent minus received) and colour. */
static _Atomic int64_t basic_balance;
static _Atomic int black;
static int have_token, token_out;
static int64_t token_count, token_waiters, token_first_waiter;
static int token_black;

/* Ending: the status asked for, by rt_tp_ending or by an END. */
static _Atomic int end_requested;
static int end_status;
static _Atomic uint32_t end_done;       /* futex word */
static pthread_t progress_thread;

/* The progress role (see "Who calls MPI" in the essay): whoever holds it
 * may call MPI and touch the state above that only MPI's side uses (the
 * frames in flight, the barrier's counts, the token).  Worker polls stop
 * for good once the program begins to end, or when an END or a DEADLOCK
 * arrives in one: those are the progress thread's to handle. */
static _Atomic int progress_held;
static __thread int holds_progress;
static _Atomic int worker_polls_off;
static _Atomic int deferred_end = -1;       /* an END's status, for the progress thread */
static _Atomic int deferred_deadlock;
static int asker_holds_progress;            /* rt_tp_ending's caller held the role */

static int progress_try_take(void)
{
    if (atomic_load_explicit(&progress_held, memory_order_relaxed) ||
        atomic_exchange_explicit(&progress_held, 1, memory_order_acquire))
        return 0;
    holds_progress = 1;
    return 1;
}

static void progress_give(void)
{
    holds_progress = 0;
    atomic_store_explicit(&progress_held, 0, memory_order_release);
}

/* The progress thread's wait for the role: a worker holds it for one
 * short round at most. */
static void progress_take(void)
{
    while (!progress_try_take())
        sched_yield();
}

static void doorbell_ring(void)
{
    atomic_store_explicit(&doorbell, 1, memory_order_release);
    if (atomic_load_explicit(&sleeping, memory_order_acquire))
        rt_futex_wake(&doorbell, 1);
}

static int flush_outgoing(void);

static int may_send_to(int d);
static void count_sent(const Packet *p);
static void output_before_packets(void);
static Packet *frame_of_one(Packet *p);
static void frame_send(Packet *f);
static int ninflight;
#define MAX_INFLIGHT 64

/* Queues packet p, or sends it at once.  What a worker's turn sends
 * leaves when the turn ends (rt_tp_flush), so that a turn's sends to one
 * rank share frames, or when the worker next polls (a remote access
 * waiting for its answer), or with the progress thread's next round if
 * the turn is long.  Another thread that can take the progress role
 * sends what is queued itself, and p in a frame of its own when nothing
 * is queued before it; otherwise the doorbell tells the progress thread,
 * unless the caller is the role's holder (a handler's answer, sent by
 * the same round). */
static void enqueue(Packet *p)
{
    if (p->type != PK_PRINT)
        output_before_packets();    /* what was printed before p goes first */
    if (PK_BASIC(p->type))
        atomic_fetch_add_explicit(&basic_balance, 1, memory_order_relaxed);
    int mine = !holds_progress && !rt_sched_on_worker() &&
               !pthread_equal(pthread_self(), progress_thread) &&
               !atomic_load_explicit(&worker_polls_off, memory_order_relaxed) &&
               progress_try_take();
    pthread_mutex_lock(&out_lock);
    int direct = mine && !out_head && ninflight < MAX_INFLIGHT &&
                 (!PK_BASIC(p->type) || may_send_to(p->dest));
    if (!direct) {
        if (out_tail)
            out_tail->next = p;
        else
            out_head = p;
        out_tail = p;
        atomic_fetch_add_explicit(&out_count, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&out_lock);
    if (direct) {
        count_sent(p);
        frame_send(frame_of_one(p));
        progress_give();
        return;
    }
    if (mine) {
        flush_outgoing();
        progress_give();
        if (atomic_load_explicit(&out_count, memory_order_relaxed) == 0)
            return;
    } else if (holds_progress || rt_sched_on_worker()) {
        return;
    }
    doorbell_ring();
}

void rt_tp_flush(void)
{
    if (atomic_load_explicit(&out_count, memory_order_relaxed) == 0 ||
        atomic_load_explicit(&worker_polls_off, memory_order_relaxed))
        return;
    if (!progress_try_take()) {
        doorbell_ring();    /* the holder may be past its sending */
        return;
    }
    flush_outgoing();
    progress_give();
}

/* ---- a table of words, for exports and imports ---------------------------- */

/* Open addressing with linear probing over 16-byte slots (key, value);
 * key 0 is empty, key 1 a removed entry.  The slots are uncollectable
 * and scanned: an exported object's address in it keeps the object
 * alive, an import's proxy in it keeps the proxy. */
typedef struct WordTable {
    pthread_mutex_t lock;
    uint64_t *slots;        /* [2 * cap] */
    size_t cap, used;       /* used counts removed entries too */
} WordTable;

#define WT_EMPTY 0
#define WT_GONE 1

static WordTable exports = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
static WordTable imports = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

static size_t wt_hash(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;     /* murmur3's finaliser */
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static uint64_t *wt_find(WordTable *t, uint64_t key, int insert);

static void wt_grow(WordTable *t)
{
    size_t old_cap = t->cap;
    uint64_t *old = t->slots;
    t->cap = old_cap ? old_cap * 2 : 64;
    t->slots = GC_MALLOC_UNCOLLECTABLE(2 * t->cap * sizeof(uint64_t));
    if (!t->slots)
        rt_panicf(RT_NOWHERE, "out of memory: the table of remote references");
    t->used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[2 * i] > WT_GONE) {
            uint64_t *s = wt_find(t, old[2 * i], 1);
            s[1] = old[2 * i + 1];
        }
    if (old)
        GC_FREE(old);
}

/* The slot of key (NULL if absent and !insert); the table's lock held. */
static uint64_t *wt_find(WordTable *t, uint64_t key, int insert)
{
    if (insert && (t->used + 1) * 4 >= t->cap * 3)
        wt_grow(t);
    if (!t->cap)
        return NULL;
    uint64_t *gone = NULL;
    for (size_t i = wt_hash(key, t->cap);; i = (i + 1) & (t->cap - 1)) {
        uint64_t *s = &t->slots[2 * i];
        if (s[0] == key)
            return s;
        if (s[0] == WT_GONE && !gone)
            gone = s;
        if (s[0] == WT_EMPTY) {
            if (!insert)
                return NULL;
            if (!gone) {
                gone = s;
                t->used++;
            }
            gone[0] = key;
            gone[1] = 0;
            return gone;
        }
    }
}

/* Keeps a local object alive for the other ranks (see the essay). */
static void export_object(void *obj)
{
    pthread_mutex_lock(&exports.lock);
    wt_find(&exports, (uint64_t)(uintptr_t)obj, 1)[1]++;
    pthread_mutex_unlock(&exports.lock);
}

/* Takes `shares` of obj's count back; at zero no other rank holds it. */
static void unexport_object(void *obj, uint64_t shares)
{
    pthread_mutex_lock(&exports.lock);
    uint64_t *s = wt_find(&exports, (uint64_t)(uintptr_t)obj, 0);
    if (s) {
        s[1] = s[1] > shares ? s[1] - shares : 0;
        if (s[1] == 0)
            s[0] = WT_GONE;
    }
    pthread_mutex_unlock(&exports.lock);
}

/* A reference to an object of another rank, as generated code holds it:
 * the proxy's address plus one (transport.h). */
typedef struct Proxy {
    int64_t node;
    uint64_t addr;
    int64_t shares;         /* of the export count at the owner */
} Proxy;

/* An import's weak link to its proxy (outside the collector's heap, so it
 * does not keep the proxy alive), shared by every proxy made for it. */
typedef struct ImportCell {
    Proxy *proxy;           /* cleared by the collector */
    int proxies;            /* made and not yet finalised */
} ImportCell;

static Proxy *proxy_of(void *ref)
{
    return (Proxy *)(void *)((uintptr_t)ref - 1);
}

/* Node and address fit one key: addresses below 2^48, nodes below 2^15. */
static uint64_t import_key(int64_t node, uint64_t addr)
{
    return ((uint64_t)node << 48) | addr;
}

/* A weak link is read with the collector's lock held, so that it is not
 * cleared under the reader's feet. */
static void *read_link(void *cell)
{
    return ((ImportCell *)cell)->proxy;
}

static void send_release(const Proxy *x);

/* The finalizer of a proxy nobody reaches: its shares go back to the
 * owner, and its import is forgotten unless a newer proxy stands for it. */
static void proxy_died(void *obj, void *cell_ptr)
{
    Proxy *x = obj;
    ImportCell *cell = cell_ptr;
    send_release(x);
    pthread_mutex_lock(&imports.lock);
    if (--cell->proxies == 0 && !GC_call_with_alloc_lock(read_link, cell)) {
        uint64_t *s = wt_find(&imports, import_key(x->node, x->addr), 0);
        if (s && s[1] == (uint64_t)(uintptr_t)cell)
            s[0] = WT_GONE;
        free(cell);
    }
    pthread_mutex_unlock(&imports.lock);
}

/* The local reference to (node, addr), with one more share. */
static void *import_reference(int node, uint64_t addr)
{
    pthread_mutex_lock(&imports.lock);
    uint64_t *s = wt_find(&imports, import_key(node, addr), 1);
    ImportCell *cell = (ImportCell *)(uintptr_t)s[1];
    if (!cell) {
        cell = calloc(1, sizeof *cell);
        if (!cell)
            rt_panicf(RT_NOWHERE, "out of memory: a reference to node %d", node);
        s[1] = (uint64_t)(uintptr_t)cell;
    }
    Proxy *x = GC_call_with_alloc_lock(read_link, cell);
    if (!x) {
        x = GC_MALLOC_ATOMIC(sizeof *x);
        if (!x)
            rt_panicf(RT_NOWHERE, "out of memory: a reference to node %d", node);
        x->node = node;
        x->addr = addr;
        x->shares = 0;
        cell->proxy = x;
        cell->proxies++;
        GC_general_register_disappearing_link((void **)&cell->proxy, x);
        GC_register_finalizer(x, proxy_died, cell, NULL, NULL);
    }
    x->shares++;
    void *ref = (void *)((uintptr_t)x + 1);
    pthread_mutex_unlock(&imports.lock);
    return ref;
}

/* ---- values ------------------------------------------------------------ */

/* Node words of a reference that is not an object's address: null, and
 * the number of an object in a pool (1, 2, …: codegen/pool.c), which
 * means the same in every process. */
#define REF_NULL ((uint64_t)-1)
#define REF_POOLED ((uint64_t)-2)

static void put_reference(Packet *p, void *v)
{
    if (!v) {
        pk_word(p, REF_NULL);
        pk_word(p, 0);
    } else if ((uintptr_t)v <= (uintptr_t)MOS_POOL_MAX_OBJECTS) {
        pk_word(p, REF_POOLED);
        pk_word(p, (uint64_t)(uintptr_t)v);
    } else if (RT_IS_REMOTE(v)) {
        Proxy *x = proxy_of(v);
        if (p->dest != x->node) {
            /* a share for the receiver, counted by the owner first */
            Packet *inc = pk_new((int)x->node, PK_INC);
            pk_word(inc, x->addr);
            enqueue(inc);
        }
        pk_word(p, (uint64_t)x->node);
        pk_word(p, x->addr);
    } else {
        export_object(v);
        pk_word(p, (uint64_t)self_rank);
        pk_word(p, (uint64_t)(uintptr_t)v);
    }
}

static void *get_reference(Reader *r)
{
    uint64_t node_word = rd_word(r);
    uint64_t addr = rd_word(r);
    if (node_word == REF_POOLED)
        return (void *)(uintptr_t)addr;
    int64_t node = (int64_t)node_word;
    if (node < 0)
        return NULL;
    if (node == self_rank)
        return (void *)(uintptr_t)addr;
    return import_reference((int)node, addr);
}

static void put_string(Packet *p, const MosString *s)
{
    pk_word(p, (uint64_t)s->length);
    pk_bytes(p, s->bytes, (size_t)s->length);
}

static MosString *get_string(Reader *r)
{
    int64_t n = (int64_t)rd_word(r);
    if (n < 0 || r->end - r->p < n)
        rt_panicf(RT_NOWHERE, "internal error: a bad string from node %d", r->from);
    MosString *s = rt_string_new(r->p, n);
    r->p += n;
    return s;
}

/* One value of kind `kind` (a letter of mos_message_table). */
static void put_value(Packet *p, int kind, int64_t v)
{
    switch (kind) {
    case 's': put_string(p, (const MosString *)(uintptr_t)v); break;
    case 'r':
    case 'p':       /* a pool's place value: its descriptor's address */
        put_reference(p, (void *)(uintptr_t)v);
        break;
    default: pk_word(p, (uint64_t)v); break;
    }
}

static MosArray *get_array(Reader *r);

static int64_t get_value(Reader *r, int kind)
{
    switch (kind) {
    case 'a': return (int64_t)(uintptr_t)get_array(r);
    case 's': return (int64_t)(uintptr_t)get_string(r);
    case 'r': case 'p': return (int64_t)(uintptr_t)get_reference(r);
    default: return (int64_t)rd_word(r);
    }
}

/* ---- the message table ----------------------------------------------------- */

typedef struct MosMessageKind {
    MosMessageRun run;
    const char *kinds;      /* "isr>s" */
} MosMessageKind;
extern const MosMessageKind mos_message_table[] __attribute__((weak));

static size_t nmessage_kinds;
static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;
static uint64_t *kind_index;    /* open addressing: run, index + 1 */
static size_t kind_cap;

static void kinds_setup(void)
{
    if (!mos_message_table)
        return;
    while (mos_message_table[nmessage_kinds].run)
        nmessage_kinds++;
    kind_cap = 16;
    while (kind_cap < 2 * nmessage_kinds)
        kind_cap *= 2;
    kind_index = calloc(2 * kind_cap, sizeof(uint64_t));
    if (!kind_index)
        rt_panicf(RT_NOWHERE, "out of memory: the table of messages");
    for (size_t i = 0; i < nmessage_kinds; i++) {
        uint64_t key = (uint64_t)(uintptr_t)mos_message_table[i].run;
        size_t j = wt_hash(key, kind_cap);
        while (kind_index[2 * j])
            j = (j + 1) & (kind_cap - 1);
        kind_index[2 * j] = key;
        kind_index[2 * j + 1] = i + 1;
    }
}

/* The index of run in mos_message_table. */
static size_t message_index(MosMessageRun run)
{
    pthread_once(&kinds_once, kinds_setup);
    uint64_t key = (uint64_t)(uintptr_t)run;
    if (kind_cap)
        for (size_t j = wt_hash(key, kind_cap); kind_index[2 * j];
             j = (j + 1) & (kind_cap - 1))
            if (kind_index[2 * j] == key)
                return (size_t)kind_index[2 * j + 1] - 1;
    rt_panicf(RT_NOWHERE, "internal error: a message that cannot travel between nodes "
                          "(was the program compiled with --distributed?)");
}

static const char *message_kinds(size_t index)
{
    pthread_once(&kinds_once, kinds_setup);
    if (index >= nmessage_kinds)
        rt_panicf(RT_NOWHERE, "internal error: message %zu is not in this program", index);
    return mos_message_table[index].kinds;
}

int64_t rt_tp_result_kind(MosMessageRun run)
{
    if (!under_mpi)
        return 'i';
    const char *k = strchr(message_kinds(message_index(run)), '>');
    return k ? k[1] : 'i';
}

/* ---- what other threads ask ------------------------------------------------ */

/* A request that waits for its DONE (CREATE, LOAD, CALL, …): the asking
 * thread polls for the answer a while (it is a round trip away, and the
 * thread has nothing else to do), then sleeps on `done` while the
 * progress thread works. */
typedef struct Request {
    _Atomic uint32_t done;
    uint64_t result;
    int64_t status;             /* DONE's: 0, or what failed there */
    int64_t detail[2];
} Request;

#define WAIT_POLLS 2000

static uint64_t wait_for(Request *rq)
{
    for (int round = 0; round < WAIT_POLLS &&
                        atomic_load_explicit(&rq->done, memory_order_acquire) == 0;
         round++)
        if (!rt_tp_poll())
            rt_cpu_relax();
    while (atomic_load_explicit(&rq->done, memory_order_acquire) == 0)
        rt_futex_wait(&rq->done, 0);
    return rq->result;
}

static void answer(Request *rq, uint64_t result)
{
    rq->result = result;
    atomic_store_explicit(&rq->done, 1, memory_order_release);
    rt_futex_wake(&rq->done, 1);
}

void *rt_tp_send(void *actor_ref, RtMessage *m, const char *where)
{
    (void)where;        /* the receiver checks nothing the sender must name */
    Proxy *x = proxy_of(actor_ref);
    size_t index = message_index(m->run);
    const char *kinds = message_kinds(index);
    Packet *p = pk_new((int)x->node, PK_MSG);
    pk_word(p, x->addr);
    pk_word(p, index);
    RtFuture *f = m->future;
    if (f)
        export_object(f);       /* until its reply comes */
    pk_word(p, (uint64_t)(uintptr_t)f);
    size_t nslots = (size_t)(m->size - MOS_MESSAGE_HEADER_SIZE) / MOS_MESSAGE_SLOT_SIZE;
    pk_word(p, nslots);
    const int64_t *slots = (const int64_t *)(const void *)((const char *)m +
                                                         MOS_MESSAGE_HEADER_SIZE);
    for (size_t i = 0; i < nslots; i++)
        put_value(p, kinds[i] && kinds[i] != '>' ? kinds[i] : 'i', slots[i]);
    enqueue(p);
    return f;
}

/* A wait of another rank on a local future. */
typedef struct RemoteWaiter {
    RtWaiter w;
    int node;
    int kind;
    uint64_t future;        /* its future, in that rank */
} RemoteWaiter;

static void send_reply(int node, uint64_t future, int kind, int64_t value)
{
    Packet *p = pk_new(node, PK_REPLY);
    pk_word(p, future);
    pk_word(p, (uint64_t)kind);
    put_value(p, kind, value);
    enqueue(p);
}

void rt_tp_fulfil_remote(RtWaiter *w, int64_t value)
{
    RemoteWaiter *rw = (RemoteWaiter *)(void *)w;
    send_reply(rw->node, rw->future, rw->kind, value);
}

/* Makes f's fulfilment travel to `node`'s future `future`. */
static void forward_future(RtFuture *f, int node, uint64_t future)
{
    RemoteWaiter *rw = GC_MALLOC(sizeof *rw);
    if (!rw)
        rt_panicf(RT_NOWHERE, "out of memory: a wait of node %d", node);
    rw->w.is_remote = 1;
    rw->node = node;
    rw->kind = (int)f->kind;
    rw->future = future;
    if (!rt_future_add_waiter(f, &rw->w))       /* fulfilled already */
        send_reply(node, future, (int)f->kind, f->value);
}

int64_t rt_tp_get(void *future_ref, const char *where)
{
    Proxy *x = proxy_of(future_ref);
    RtFuture *mine = rt_future_new();
    export_object(mine);
    Packet *p = pk_new((int)x->node, PK_SUB);
    pk_word(p, x->addr);
    pk_word(p, (uint64_t)(uintptr_t)mine);
    enqueue(p);
    return mos_future_get(mine, where);
}

/* ---- remote data --------------------------------------------------------------- */

/* What failed at the owner, in a DONE (the asker reports it, at its own
 * `where`, as the same runtime error a local access would be). */
enum { DONE_OK, DONE_INDEX };

static Packet *request(int node, int type, Request *rq)
{
    Packet *p = pk_new(node, type);
    pk_word(p, (uint64_t)(uintptr_t)rq);
    return p;
}

/* Sends p, waits for its DONE and reports a failure at `where`; returns
 * the answer's value.  (A runtime call that fails there reports its error
 * there, and ends the program.) */
static uint64_t ask(Packet *p, Request *rq, const char *where)
{
    enqueue(p);
    uint64_t v = wait_for(rq);
    if (rq->status == DONE_INDEX)
        rt_panicf(where, "index out of bounds: index %lld, length %lld",
                  (long long)rq->detail[0], (long long)rq->detail[1]);
    return v;
}

/* A LOAD or STORE of what/offset/kind in ref's object, to be sent. */
static Packet *data_request(int type, void *ref, int64_t what, int64_t offset, int64_t kind,
                            Request *rq)
{
    Proxy *x = proxy_of(ref);
    Packet *p = request((int)x->node, type, rq);
    pk_word(p, x->addr);
    pk_word(p, (uint64_t)what);
    pk_word(p, (uint64_t)offset);
    pk_word(p, (uint64_t)kind);
    return p;
}

int64_t mos_remote_load(void *ref, int64_t what, int64_t offset, int64_t kind,
                        const char *where)
{
    Request rq = {0};
    return (int64_t)ask(data_request(PK_LOAD, ref, what, offset, kind, &rq), &rq, where);
}

void mos_remote_store(void *ref, int64_t what, int64_t offset, int64_t kind, int64_t value,
                      const char *where)
{
    Request rq = {0};
    Packet *p = data_request(PK_STORE, ref, what, offset, kind, &rq);
    put_value(p, (int)kind, value);
    ask(p, &rq, where);
}

static void *object_here(int64_t bytes, int scanned, int64_t places_offset, int64_t nplaces,
                         const int64_t *places)
{
    char *obj = scanned ? mos_alloc(bytes) : mos_alloc_atomic(bytes);
    memcpy(obj + places_offset, places, (size_t)nplaces * sizeof(int64_t));
    return obj;
}

void *rt_tp_actor_new(int64_t bytes, int node)
{
    Request rq = {0};
    Packet *p = request(node, PK_CREATE, &rq);
    pk_word(p, (uint64_t)bytes);
    return import_reference(node, ask(p, &rq, RT_NOWHERE));
}

void *mos_object_new_at(int64_t bytes, int64_t node, int32_t scanned, int64_t places_offset,
                        int64_t nplaces, const int64_t *places)
{
    int k = (int)mos_node_of(node);
    if (!under_mpi || k == self_rank)
        return object_here(bytes, scanned, places_offset, nplaces, places);
    Request rq = {0};
    Packet *p = request(k, PK_ALLOC, &rq);
    pk_word(p, (uint64_t)bytes);
    pk_word(p, (uint64_t)scanned);
    pk_word(p, (uint64_t)places_offset);
    pk_word(p, (uint64_t)nplaces);
    for (int64_t i = 0; i < nplaces; i++)
        pk_word(p, (uint64_t)places[i]);
    return import_reference(k, ask(p, &rq, RT_NOWHERE));
}

/* The letter of an array element of kind MOS_ELEM_*. */
static int elem_letter(int32_t elem_kind)
{
    return elem_kind == MOS_ELEM_STRING ? 's' : elem_kind == MOS_ELEM_REF ? 'r' : 'i';
}

static int64_t elem_word(const MosArray *a, int64_t i)
{
    const char *at = a->data + i * a->elem_size;
    if (a->elem_size == 1)
        return *(const uint8_t *)at;
    int64_t v;
    memcpy(&v, at, sizeof v);
    return v;
}

static void set_elem_word(MosArray *a, int64_t i, int64_t v)
{
    char *at = a->data + i * a->elem_size;
    if (a->elem_size == 1)
        *(uint8_t *)at = (uint8_t)v;
    else
        memcpy(at, &v, sizeof v);
}

/* An array's contents, for another rank to make its own. */
static void put_array(Packet *p, const MosArray *a)
{
    pk_word(p, (uint64_t)a->length);
    pk_word(p, (uint64_t)a->elem_size);
    pk_word(p, (uint64_t)a->elem_kind);
    int letter = elem_letter(a->elem_kind);
    for (int64_t i = 0; i < a->length; i++)
        put_value(p, letter, elem_word(a, i));
}

static MosArray *get_array(Reader *r)
{
    int64_t n = (int64_t)rd_word(r);
    int64_t size = (int64_t)rd_word(r);
    int32_t kind = (int32_t)rd_word(r);
    MosArray *a = mos_array_new(n, size, kind, RT_NOWHERE);
    int letter = elem_letter(kind);
    for (int64_t i = 0; i < n; i++)
        set_elem_word(a, i, get_value(r, letter));
    return a;
}

void *mos_place_at(void *obj, int64_t node, int32_t is_map, const char *where)
{
    int k = (int)mos_node_of(node);
    if (!under_mpi || k == self_rank)
        return obj;
    Request rq = {0};
    Packet *p = request(k, PK_PLACE, &rq);
    pk_word(p, (uint64_t)is_map);
    if (is_map) {
        MosMap *m = obj;
        int32_t key_kind, value_kind, value_size;
        rt_map_kinds(m, &key_kind, &value_kind, &value_size);
        pk_word(p, (uint64_t)key_kind);
        pk_word(p, (uint64_t)value_kind);
        pk_word(p, (uint64_t)value_size);
        put_array(p, mos_map_keys(m, where));
        put_array(p, mos_map_values(m, where));
    } else {
        put_array(p, obj);
    }
    return import_reference(k, ask(p, &rq, where));
}

static void done(int node, uint64_t request_id, int64_t status, int kind, int64_t value,
                 int64_t d0, int64_t d1);

/* ---- runtime functions on another node's array or map ---------------------- */

/* abi.def's numbering, the same as codegen's CgRt. */
enum {
#define RT_FN(name, result, params) RT_ABI_##name,
#include "abi.def"
#undef RT_FN
    RT_ABI_COUNT
};

/* Up to this many arguments (mos_pool_store's seven). */
#define CALL_MAX_ARGS 8

int64_t mos_remote_call(int64_t fn, const char *kinds, const int64_t *words, const char *where)
{
    Proxy *x = proxy_of((void *)(uintptr_t)words[0]);
    const char *result = strchr(kinds, '>');
    size_t nargs = result ? (size_t)(result - kinds) : strlen(kinds);
    if (nargs > CALL_MAX_ARGS)
        rt_panicf(where, "internal error: a remote call of %zu arguments", nargs);
    Request rq = {0};
    Packet *p = request((int)x->node, PK_CALL, &rq);
    pk_word(p, (uint64_t)fn);
    pk_word(p, nargs);
    pk_bytes(p, kinds, nargs);
    pk_word(p, result ? (uint64_t)(unsigned char)result[1] : 'u');
    pk_word(p, x->addr);
    for (size_t i = 1; i < nargs; i++) {
        switch (kinds[i]) {
        case 'w': {     /* where: its text, for an error raised there */
            const char *w = (const char *)(uintptr_t)words[i];
            size_t n = w ? strlen(w) : 0;
            pk_word(p, n);
            pk_bytes(p, w, n);
            break;
        }
        default:
            put_value(p, kinds[i], words[i]);
            break;
        }
    }
    return (int64_t)ask(p, &rq, where);
}

/* ---- pools of another node ------------------------------------------------ */

/* Where field `offset` of object `number` of cluster k of a pool is. */
static char *pool_field(MosPool *p, int64_t number, int64_t k, int64_t offset)
{
    return p->clusters[k].bias + number * p->clusters[k].stride + offset;
}

int64_t mos_pool_load(int64_t pool, void *ref, int64_t cluster, int64_t offset, int64_t kind,
                      const char *where)
{
    if (!RT_IS_REMOTE(pool)) {      /* the owner's side of a remote load */
        char *at = pool_field((MosPool *)(uintptr_t)pool, (int64_t)(uintptr_t)ref, cluster,
                              offset);
        int64_t v = 0;
        memcpy(&v, at, kind == 'b' ? 1 : 8);
        return v;
    }
    char kinds[] = {'r', 'i', 'i', 'i', 'i', 'w', '>', (char)(kind == 'b' ? 'i' : kind), 0};
    int64_t words[6] = {pool, (int64_t)(uintptr_t)ref, cluster, offset, kind,
                        (int64_t)(uintptr_t)where};
    return mos_remote_call(RT_ABI_mos_pool_load, kinds, words, where);
}

void mos_pool_store(int64_t pool, void *ref, int64_t cluster, int64_t offset, int64_t kind,
                    int64_t value, const char *where)
{
    char kinds[] = {'r', 'i', 'i', 'i', 'i', (char)(kind == 'b' ? 'i' : kind), 'w', '>', 'u', 0};
    int64_t words[7] = {pool, (int64_t)(uintptr_t)ref, cluster, offset, kind, value,
                        (int64_t)(uintptr_t)where};
    mos_remote_call(RT_ABI_mos_pool_store, kinds, words, where);
}

int64_t mos_pool_word(int64_t pool, int64_t which)
{
    if (RT_IS_REMOTE(pool)) {
        int64_t words[2] = {pool, which};
        return mos_remote_call(RT_ABI_mos_pool_word, "ri>i", words, RT_NOWHERE);
    }
    MosPool *p = (MosPool *)(uintptr_t)pool;
    return which == 0 ? p->size : which == 1 ? p->node : p->places[which - 2];
}

void mos_pool_set_place(int64_t pool, int64_t k, int64_t value)
{
    if (RT_IS_REMOTE(pool)) {
        int64_t words[3] = {pool, k, value};
        mos_remote_call(RT_ABI_mos_pool_set_place, "rii>u", words, RT_NOWHERE);
        return;
    }
    ((MosPool *)(uintptr_t)pool)->places[k] = value;
}

int64_t rt_tp_pool_alloc(MosPool *pool_ref, const char *where)
{
    int64_t words[2] = {(int64_t)(uintptr_t)pool_ref, (int64_t)(uintptr_t)where};
    return mos_remote_call(RT_ABI_mos_pool_alloc, "rw>i", words, where);
}

/* An address in the executable as an offset from a symbol of the
 * program's own module, which is the same in every rank (the same
 * executable), and back. */
static int64_t image_offset(const void *p)
{
    return (int64_t)((uintptr_t)p - (uintptr_t)mos_global_pools);
}

MosPool *rt_tp_pool_new(const MosPoolShape *shape, int64_t node)
{
    Request rq = {0};
    Packet *p = request((int)mos_node_of(node), PK_POOLNEW, &rq);
    pk_word(p, (uint64_t)image_offset(shape));
    pk_word(p, (uint64_t)node);
    return import_reference((int)mos_node_of(node), ask(p, &rq, RT_NOWHERE));
}

static void on_pool_new(Reader *r)
{
    uint64_t rq = rd_word(r);
    const MosPoolShape *shape = (const MosPoolShape *)(const void *)
        ((uintptr_t)mos_global_pools + (uintptr_t)(int64_t)rd_word(r));
    MosPool *pool = mos_pool_new(shape, (int64_t)rd_word(r));
    export_object(pool);
    done(r->from, rq, DONE_OK, 'i', (int64_t)(uintptr_t)pool, 0, 0);
}

void mos_pools_made(void)
{
    if (!under_mpi || self_rank != 0)
        return;
    size_t n = 0;
    while (mos_global_pools[n])
        n++;
    for (int d = 1; d < nranks; d++) {
        Packet *p = pk_new(d, PK_POOLS);
        pk_word(p, n);
        for (size_t i = 0; i < n; i++)
            put_reference(p, (void *)(uintptr_t)*mos_global_pools[i]);
        enqueue(p);
    }
}

static void on_pools(Reader *r)
{
    size_t n = (size_t)rd_word(r);
    for (size_t i = 0; i < n && mos_global_pools[i]; i++)
        *mos_global_pools[i] = (int64_t)(uintptr_t)get_reference(r);
}

/* Runs runtime function fn here with the words of a CALL. */
static int64_t call_here(int64_t fn, const int64_t *a)
{
    void *xs = (void *)(uintptr_t)a[0];
#define WHERE(i) ((const char *)(uintptr_t)a[i])
    switch (fn) {
    case RT_ABI_mos_array_slice: return (int64_t)(uintptr_t)mos_array_slice(xs, a[1], a[2], WHERE(3));
    case RT_ABI_mos_array_reverse: mos_array_reverse(xs, WHERE(1)); return 0;
    case RT_ABI_mos_array_push: mos_array_push(xs, a[1], WHERE(2)); return 0;
    case RT_ABI_mos_array_pop: return mos_array_pop(xs, WHERE(1));
    case RT_ABI_mos_array_insert: mos_array_insert(xs, a[1], a[2], WHERE(3)); return 0;
    case RT_ABI_mos_array_remove: return mos_array_remove(xs, a[1], WHERE(2));
    case RT_ABI_mos_array_clear: mos_array_clear(xs, WHERE(1)); return 0;
    case RT_ABI_mos_array_index_of_word: return mos_array_index_of_word(xs, a[1], WHERE(2));
    case RT_ABI_mos_array_index_of_float: {
        double d;
        memcpy(&d, &a[1], sizeof d);
        return mos_array_index_of_float(xs, d, WHERE(2));
    }
    case RT_ABI_mos_array_index_of_bool: return mos_array_index_of_bool(xs, (int32_t)a[1], WHERE(2));
    case RT_ABI_mos_array_index_of_string:
        return mos_array_index_of_string(xs, (MosString *)(uintptr_t)a[1], WHERE(2));
    case RT_ABI_mos_sort_int: mos_sort_int(xs, WHERE(1)); return 0;
    case RT_ABI_mos_sort_float: mos_sort_float(xs, WHERE(1)); return 0;
    case RT_ABI_mos_sort_string: mos_sort_string(xs, WHERE(1)); return 0;
    case RT_ABI_mos_string_join:
        return (int64_t)(uintptr_t)mos_string_join(xs, (MosString *)(uintptr_t)a[1], WHERE(2));
    case RT_ABI_mos_map_get: return mos_map_get(xs, a[1], WHERE(2));
    case RT_ABI_mos_map_get_or: return mos_map_get_or(xs, a[1], a[2], WHERE(3));
    case RT_ABI_mos_map_has: return mos_map_has(xs, a[1], WHERE(2));
    case RT_ABI_mos_map_set: mos_map_set(xs, a[1], a[2], WHERE(3)); return 0;
    case RT_ABI_mos_map_remove: return mos_map_remove(xs, a[1], WHERE(2));
    case RT_ABI_mos_map_clear: mos_map_clear(xs, WHERE(1)); return 0;
    case RT_ABI_mos_map_keys: return (int64_t)(uintptr_t)mos_map_keys(xs, WHERE(1));
    case RT_ABI_mos_map_values: return (int64_t)(uintptr_t)mos_map_values(xs, WHERE(1));
    case RT_ABI_mos_pool_alloc: return mos_pool_alloc(xs, WHERE(1));
    case RT_ABI_mos_pool_word: return mos_pool_word(a[0], a[1]);
    case RT_ABI_mos_pool_set_place: mos_pool_set_place(a[0], a[1], a[2]); return 0;
    case RT_ABI_mos_pool_load:
        return mos_pool_load(a[0], (void *)(uintptr_t)a[1], a[2], a[3], a[4], WHERE(5));
    case RT_ABI_mos_pool_store: {
        char *at = pool_field(xs, a[1], a[2], a[3]);
        memcpy(at, &a[5], a[4] == 'b' ? 1 : 8);
        return 0;
    }
    default:
        rt_panicf(RT_NOWHERE, "internal error: runtime function %lld on another node",
                  (long long)fn);
    }
#undef WHERE
}

/* A CALL: the arguments made local, the function run; an error it finds
 * is reported here, with the caller's `where`, and ends the program. */
static void on_call(Reader *r)
{
    uint64_t rq = rd_word(r);
    int64_t fn = (int64_t)rd_word(r);
    size_t nargs = (size_t)rd_word(r);
    if (nargs > CALL_MAX_ARGS || r->end - r->p < (ptrdiff_t)nargs)
        rt_panicf(RT_NOWHERE, "internal error: a bad call from node %d", r->from);
    char kinds[CALL_MAX_ARGS];
    memcpy(kinds, r->p, nargs);
    r->p += nargs;
    int result = (int)rd_word(r);
    int64_t a[CALL_MAX_ARGS];
    a[0] = (int64_t)rd_word(r);
    for (size_t i = 1; i < nargs; i++) {
        if (kinds[i] == 'w') {
            size_t n = (size_t)rd_word(r);
            if ((size_t)(r->end - r->p) < n)
                rt_panicf(RT_NOWHERE, "internal error: a bad call from node %d", r->from);
            char *w = GC_MALLOC_ATOMIC(n + 1);
            memcpy(w, r->p, n);
            w[n] = '\0';
            r->p += n;
            a[i] = (int64_t)(uintptr_t)w;
        } else {
            a[i] = get_value(r, kinds[i]);
        }
    }
    int64_t v = call_here(fn, a);
    if (result == 'a') {        /* a new array, made for the caller: copied there */
        Packet *p = pk_new(r->from, PK_DONE);
        pk_word(p, rq);
        pk_word(p, DONE_OK);
        pk_word(p, 0);
        pk_word(p, 0);
        pk_word(p, 'a');
        put_array(p, (MosArray *)(uintptr_t)v);
        enqueue(p);
        return;
    }
    if (result == 'b')
        v = (int32_t)v != 0;
    done(r->from, rq, DONE_OK, result == 'b' || result == 'u' ? 'i' : result, v, 0, 0);
}

/* The answer to a request: DONE with its status and value. */
static void done(int node, uint64_t request_id, int64_t status, int kind, int64_t value,
                 int64_t d0, int64_t d1)
{
    Packet *p = pk_new(node, PK_DONE);
    pk_word(p, request_id);
    pk_word(p, (uint64_t)status);
    pk_word(p, (uint64_t)d0);
    pk_word(p, (uint64_t)d1);
    pk_word(p, (uint64_t)kind);
    if (status == DONE_OK)
        put_value(p, kind, value);
    enqueue(p);
}

static void on_done(Reader *r)
{
    Request *rq = (Request *)(uintptr_t)rd_word(r);
    rq->status = (int64_t)rd_word(r);
    rq->detail[0] = (int64_t)rd_word(r);
    rq->detail[1] = (int64_t)rd_word(r);
    int kind = (int)rd_word(r);
    answer(rq, rq->status == DONE_OK ? (uint64_t)get_value(r, kind) : 0);
}

/* Where a field or element is, or NULL after answering that the index
 * is out of bounds; *width is 1 for a byte. */
static char *data_at(Reader *r, uint64_t rq, char *obj, int64_t what, int64_t offset,
                     int64_t kind, int *width)
{
    if (what == 0) {
        *width = kind == 'b' ? 1 : 8;
        return obj + offset;
    }
    MosArray *a = (MosArray *)(void *)obj;
    if ((uint64_t)offset >= (uint64_t)a->length) {
        done(r->from, rq, DONE_INDEX, 'i', 0, offset, a->length);
        return NULL;
    }
    *width = a->elem_size == 1 ? 1 : 8;
    return a->data + offset * a->elem_size;
}

static void on_load(Reader *r)
{
    uint64_t rq = rd_word(r);
    char *obj = (char *)(uintptr_t)rd_word(r);
    int64_t what = (int64_t)rd_word(r), offset = (int64_t)rd_word(r);
    int kind = (int)rd_word(r);
    if (what == 2) {
        done(r->from, rq, DONE_OK, 'i', ((MosArray *)(void *)obj)->length, 0, 0);
        return;
    }
    int width;
    char *at = data_at(r, rq, obj, what, offset, kind, &width);
    if (!at)
        return;
    int64_t v = 0;
    if (width == 1)
        v = *(uint8_t *)at;
    else
        memcpy(&v, at, sizeof v);
    done(r->from, rq, DONE_OK, kind == 'b' ? 'i' : kind, v, 0, 0);
}

static void on_store(Reader *r)
{
    uint64_t rq = rd_word(r);
    char *obj = (char *)(uintptr_t)rd_word(r);
    int64_t what = (int64_t)rd_word(r), offset = (int64_t)rd_word(r);
    int kind = (int)rd_word(r);
    int64_t v = get_value(r, kind);
    int width;
    char *at = data_at(r, rq, obj, what, offset, kind, &width);
    if (!at)
        return;
    if (width == 1)
        *(uint8_t *)at = (uint8_t)v;
    else
        memcpy(at, &v, sizeof v);
    done(r->from, rq, DONE_OK, 'u', 0, 0, 0);
}

static void on_alloc(Reader *r)
{
    uint64_t rq = rd_word(r);
    int64_t bytes = (int64_t)rd_word(r);
    int scanned = (int)rd_word(r);
    int64_t places_offset = (int64_t)rd_word(r);
    int64_t nplaces = (int64_t)rd_word(r);
    int64_t places[nplaces > 0 ? nplaces : 1];
    for (int64_t i = 0; i < nplaces; i++)
        places[i] = (int64_t)rd_word(r);
    void *obj = object_here(bytes, scanned, places_offset, nplaces, places);
    export_object(obj);
    done(r->from, rq, DONE_OK, 'i', (int64_t)(uintptr_t)obj, 0, 0);
}

static void on_place(Reader *r)
{
    uint64_t rq = rd_word(r);
    int is_map = (int)rd_word(r);
    void *obj;
    if (is_map) {
        int32_t key_kind = (int32_t)rd_word(r);
        int32_t value_kind = (int32_t)rd_word(r);
        int32_t value_size = (int32_t)rd_word(r);
        MosArray *keys = get_array(r);
        MosArray *values = get_array(r);
        MosMap *m = mos_map_new(key_kind, value_kind, value_size, self_rank, RT_NOWHERE);
        for (int64_t i = 0; i < keys->length; i++)
            mos_map_set(m, elem_word(keys, i), elem_word(values, i), RT_NOWHERE);
        obj = m;
    } else {
        obj = get_array(r);
    }
    export_object(obj);
    done(r->from, rq, DONE_OK, 'i', (int64_t)(uintptr_t)obj, 0, 0);
}

/* ---- handling what arrives ------------------------------------------------- */

/* ---- frames ------------------------------------------------------------------ */

/* A frame is at most this long, unless one packet is longer: large enough
 * that a stream of sends costs few MPI messages, small enough to stay
 * within the sizes Open MPI sends eagerly between processes of a machine. */
#define FRAME_BYTES ((size_t)32 << 10)
/* Frames handed to MPI_Isend and not yet known to have left, at most: the
 * progress thread tests every one of them each round. */

/* Appends packet p to frame f (its length, then its bytes) and frees it. */
static void frame_add(Packet *f, Packet *p)
{
    pk_word(f, pk_size(p));
    pk_bytes(f, p->buf + PK_HEAD, pk_size(p));
    pk_free(p);
}

/* Packet p as a frame of its own. */
static Packet *frame_of_one(Packet *p)
{
    uint64_t len = pk_size(p);
    memcpy(p->buf, &len, sizeof len);
    return p;
}

/* The receives of tag 0 always posted (poll_incoming), each into a
 * buffer that holds any frame of FRAME_BYTES.  A frame that is longer
 * (one packet longer than that: a long string or array) goes as tag
 * BIG_TAG, announced on tag 0 by a frame of two words, BIG_MARK and its
 * length, which no frame can begin with (its first word is a length). */
#define RECV_SLOTS 4
#define RECV_BYTES (FRAME_BYTES + 64)
#define BIG_TAG 2
#define BIG_MARK UINT64_MAX

static void isend(Packet *f, int tag)
{
    MPI_Isend(f->buf, (int)f->len, MPI_BYTE, f->dest, tag, MPI_COMM_WORLD, &f->req);
    f->next = inflight;
    inflight = f;
    ninflight++;
}

static void frame_send(Packet *f)
{
    if (f->len > RECV_BYTES) {
        Packet *h = pk_alloc(f->dest, f->type);
        pk_word(h, BIG_MARK);
        pk_word(h, f->len);
        isend(h, 0);
        isend(f, BIG_TAG);
        return;
    }
    isend(f, 0);
}

static void send_control(int dest, int type, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    Packet *p = pk_new(dest, type);
    pk_word(p, a);
    pk_word(p, b);
    pk_word(p, c);
    pk_word(p, d);
    /* control packets skip the queue: they are the progress thread's own,
     * and must not wait behind a packet the barrier holds */
    frame_send(frame_of_one(p));
}

static void on_message(Reader *r)
{
    RtActor *a = (RtActor *)(uintptr_t)rd_word(r);
    size_t index = (size_t)rd_word(r);
    uint64_t future = rd_word(r);
    size_t nslots = (size_t)rd_word(r);
    const char *kinds = message_kinds(index);
    MosMessageRun run = mos_message_table[index].run;
    RtMessage *m = mos_message_new(MOS_MESSAGE_HEADER_SIZE +
                                       (int64_t)(nslots * MOS_MESSAGE_SLOT_SIZE),
                                   run, future != 0);
    int64_t *slots = (int64_t *)(void *)((char *)m + MOS_MESSAGE_HEADER_SIZE);
    for (size_t i = 0; i < nslots; i++)
        slots[i] = get_value(r, kinds[i] && kinds[i] != '>' ? kinds[i] : 'i');
    if (future)
        forward_future(m->future, r->from, future);
    mos_send(a, m, RT_NOWHERE);
}

static void on_reply(Reader *r)
{
    RtFuture *f = (RtFuture *)(uintptr_t)rd_word(r);
    int kind = (int)rd_word(r);
    int64_t v = get_value(r, kind);
    f->kind = kind;
    unexport_object(f, 1);
    rt_future_fulfil(f, v);
}

static void on_subscribe(Reader *r)
{
    RtFuture *f = (RtFuture *)(uintptr_t)rd_word(r);
    uint64_t theirs = rd_word(r);
    forward_future(f, r->from, theirs);
}

static void on_create(Reader *r)
{
    uint64_t request = rd_word(r);
    int64_t bytes = (int64_t)rd_word(r);
    void *a = mos_actor_new(bytes, self_rank);
    export_object(a);
    done(r->from, request, DONE_OK, 'i', (int64_t)(uintptr_t)a, 0, 0);
}

static void begin_end(int status);

/* ---- output (see the essay) ------------------------------------------------ */

static int output_direct;       /* this rank writes its own stdout again */

/* print.c's sink on every rank but node 0. */
static int forward_output(const char *bytes, size_t n)
{
    if (output_direct)
        return rt_write_all(STDOUT_FILENO, bytes, n);
    Packet *p = pk_new(0, PK_PRINT);
    pk_word(p, n);
    pk_bytes(p, bytes, n);
    enqueue(p);
    return 0;
}

/* What this rank has printed is queued, ahead of the packet about to be
 * (on node 0 it is in the same buffer as what arrives later). */
static void output_before_packets(void)
{
    if (self_rank != 0)
        rt_print_flush();
}

static void on_print(Reader *r)
{
    uint64_t n = rd_word(r);
    if (n > (uint64_t)(r->end - r->p))
        rt_panicf(RT_NOWHERE, "internal error: a short packet from node %d", r->from);
    rt_print_bytes(r->p, (size_t)n);
    r->p += n;
}

static int byes;        /* node 0, ending: the other ranks that are done */

static void on_bye(Reader *r)
{
    (void)r;
    byes++;
}

static void send_release(const Proxy *x)
{
    Packet *p = pk_new((int)x->node, PK_RELEASE);
    pk_word(p, x->addr);
    pk_word(p, (uint64_t)x->shares);
    enqueue(p);
}

static void on_token(Reader *r)
{
    token_count = (int64_t)rd_word(r);
    token_black = (int)rd_word(r);
    token_waiters = (int64_t)rd_word(r);
    token_first_waiter = (int64_t)rd_word(r);
    have_token = 1;
}

static void on_inc(Reader *r)
{
    export_object((void *)(uintptr_t)rd_word(r));
}

static void on_release(Reader *r)
{
    void *obj = (void *)(uintptr_t)rd_word(r);
    unexport_object(obj, rd_word(r));
}

static void on_flush(Reader *r)
{
    send_control(r->from, PK_ACK, received_from[r->from], 0, 0, 0);
}

static void on_ack(Reader *r)
{
    acked_by[r->from] = rd_word(r);
    flush_asked[r->from] = 0;
}

/* END and DEADLOCK end this process, with MPI calls the progress thread
 * must make (it called MPI_Init): a worker's poll leaves them to it. */
static void on_end(Reader *r)
{
    int status = (int)rd_word(r);
    if (pthread_equal(pthread_self(), progress_thread)) {
        begin_end(status);
        return;
    }
    atomic_store(&worker_polls_off, 1);
    atomic_store(&deferred_end, status);
    doorbell_ring();
}

static void on_deadlock(Reader *r)
{
    (void)r;
    if (pthread_equal(pthread_self(), progress_thread)) {
        rt_sched_quiescent();       /* reports the waiters, status 101 */
        return;
    }
    atomic_store(&worker_polls_off, 1);
    atomic_store(&deferred_deadlock, 1);
    doorbell_ring();
}

static void (*const handlers[PK_COUNT])(Reader *) = {
#define PACKET_HANDLER(name, basic, handler) [PK_##name] = handler,
    PACKETS(PACKET_HANDLER)
#undef PACKET_HANDLER
};

static void handle(int type, Reader *r)
{
    if (type <= PK_NONE || type >= PK_COUNT)
        rt_panicf(RT_NOWHERE, "internal error: packet %d from node %d", type, r->from);
    if (PK_BASIC(type)) {
        received_from[r->from]++;
        atomic_fetch_sub_explicit(&basic_balance, 1, memory_order_relaxed);
        atomic_store_explicit(&black, 1, memory_order_relaxed);
    }
    handlers[type](r);
}

/* Receiving.  RECV_SLOTS receives of tag 0 from any rank are posted at
 * all times, so that a frame lands in its buffer as it arrives and a
 * poll is one MPI_Test (an MPI_Iprobe would match the queue again each
 * time, and the MPI_Recv after it once more).  MPI matches the receives
 * in the order they were posted, so taking the oldest each time and
 * posting its buffer again behind the others keeps each rank's frames in
 * order. */
static char *recv_buf[RECV_SLOTS];
static MPI_Request recv_req[RECV_SLOTS];
static int recv_oldest;
static int recv_later = -1;     /* a slot read, its receive not yet posted again */

static void post_receive(int slot)
{
    MPI_Irecv(recv_buf[slot], (int)RECV_BYTES, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
              &recv_req[slot]);
}

static void post_receives(void)
{
    for (int i = 0; i < RECV_SLOTS; i++) {
        recv_buf[i] = malloc(RECV_BYTES);
        if (!recv_buf[i])
            rt_panicf(RT_NOWHERE, "out of memory: the buffers of the MPI transport");
        post_receive(i);
    }
}

/* At the end: a slot whose frame is being handled (the END that ends the
 * program, say) has no receive posted. */
static void cancel_receives(void)
{
    for (int i = 0; i < RECV_SLOTS; i++)
        if (recv_req[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&recv_req[i]);
            MPI_Wait(&recv_req[i], MPI_STATUS_IGNORE);
        }
}

/* The next frame that has arrived, if any: its bytes (malloc'd when it
 * came as a big frame, *big then set), its length, sender and slot.  The
 * caller hands the slot back with frame_done once it has read the frame. */
static const char *frame_arrived(int *len, int *from, char **big, int *slot)
{
    int flag = 0;
    MPI_Status st;
    if (recv_later >= 0) {
        post_receive(recv_later);
        recv_later = -1;
    }
    if (recv_req[recv_oldest] == MPI_REQUEST_NULL)
        return NULL;    /* in hand, further up: only while the program ends */
    MPI_Test(&recv_req[recv_oldest], &flag, &st);
    if (!flag)
        return NULL;
    *slot = recv_oldest;
    recv_oldest = (recv_oldest + 1) % RECV_SLOTS;
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    const char *buf = recv_buf[*slot];
    *from = st.MPI_SOURCE;
    *len = n;
    *big = NULL;
    uint64_t head[2];
    if (n == (int)sizeof head && (memcpy(head, buf, sizeof head), head[0] == BIG_MARK)) {
        if (head[1] > INT_MAX || !(*big = malloc((size_t)head[1])))
            rt_panicf(RT_NOWHERE, "out of memory: a packet of %llu bytes from node %d",
                      (unsigned long long)head[1], *from);
        MPI_Recv(*big, (int)head[1], MPI_BYTE, *from, BIG_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        *len = (int)head[1];
        return *big;
    }
    return buf;
}

static void frame_done(int slot, char *big)
{
    free(big);
    post_receive(slot);
}

/* As frame_done, but the receive is posted again by the next
 * frame_arrived: a poll that handled a message has its actor's turn to
 * run, and the reply the turn sends, before it; posting a receive costs
 * about as much as handling a small packet, and the other slots' receives
 * are posted meanwhile. */
static void frame_done_later(int slot, char *big)
{
    free(big);
    recv_later = slot;
}

/* Runs handler on each packet of a frame, in order. */
static void handle_frame(const char *buf, int n, int from, void (*handler)(int, Reader *))
{
    Reader frame = { buf, buf + n, from };
    while (frame.p < frame.end) {
        uint64_t len = rd_word(&frame);
        if (len > (uint64_t)(frame.end - frame.p))
            rt_panicf(RT_NOWHERE, "internal error: a bad frame from node %d", frame.from);
        Reader r = { frame.p, frame.p + len, frame.from };
        frame.p += len;
        int type = (int)rd_word(&r);
        handler(type, &r);
    }
}

/* Receives and handles up to max_frames frames of what has arrived;
 * returns whether anything had.  A worker's poll takes one: what it
 * brought is work for the worker, which runs it before it looks again. */
static int poll_incoming(int max_frames)
{
    int any = 0;
    for (int round = 0; round < max_frames; round++) {
        int n = 0, from = 0, slot;
        char *big;
        const char *buf = frame_arrived(&n, &from, &big, &slot);
        if (!buf)
            break;
        handle_frame(buf, n, from, handle);
        frame_done_later(slot, big);
        any = 1;
    }
    return any;
}

/* ---- sending, under the causal barrier ------------------------------------ */

/* Whether every basic packet sent to a rank other than d is known to
 * have been handled there; if not, asks those ranks. */
static int may_send_to(int d)
{
    int ok = 1;
    for (int e = 0; e < nranks; e++)
        if (e != d && acked_by[e] < sent_to[e]) {
            ok = 0;
            if (!flush_asked[e]) {
                flush_asked[e] = 1;
                send_control(e, PK_FLUSH, 0, 0, 0, 0);
            }
        }
    return ok;
}

static void reap_sent(void);

/* The packets at the head of the queue that go in one frame: the first
 * if it may go now, and those after it for the same rank while they fit
 * FRAME_BYTES and may go too; NULL if none may go.  One lock for the lot.
 * The causal barrier is asked once, at the first basic packet: its answer
 * depends only on the packets sent to other ranks, which this frame does
 * not change. */
static Packet *next_frame_packets(void)
{
    pthread_mutex_lock(&out_lock);
    Packet *first = out_head;
    if (!first || (PK_BASIC(first->type) && !may_send_to(first->dest))) {
        pthread_mutex_unlock(&out_lock);
        return NULL;
    }
    int barrier_passed = PK_BASIC(first->type);
    Packet *last = first;
    size_t bytes = first->len;
    int64_t taken = 1;
    for (Packet *q = first->next; q && q->dest == first->dest && bytes + q->len <= FRAME_BYTES;
         q = q->next) {
        if (PK_BASIC(q->type) && !barrier_passed) {
            if (!may_send_to(q->dest))
                break;
            barrier_passed = 1;
        }
        last = q;
        bytes += q->len;
        taken++;
    }
    out_head = last->next;
    if (!out_head)
        out_tail = NULL;
    last->next = NULL;
    pthread_mutex_unlock(&out_lock);
    atomic_fetch_sub_explicit(&out_count, taken, memory_order_relaxed);
    for (Packet *p = first; p; p = p->next)
        count_sent(p);
    return first;
}

/* The barrier's and --count-remote's account of a packet that leaves. */
static void count_sent(const Packet *p)
{
    if (PK_BASIC(p->type)) {
        sent_to[p->dest]++;
        if (p->type != PK_PRINT)
            rt_remote_count_message(self_rank, p->dest, pk_size(p));
    }
}

/* Sends the queue in frames, each the packets that follow each other for
 * one rank; returns whether anything went. */
static int flush_outgoing(void)
{
    int any = 0;
    if (atomic_load_explicit(&out_count, memory_order_relaxed) == 0)
        return 0;   /* an enqueue racing with this is flushed by its own thread or the next poll */
    for (;;) {
        if (ninflight >= MAX_INFLIGHT) {
            reap_sent();
            if (ninflight >= MAX_INFLIGHT)
                return any;
        }
        Packet *p = next_frame_packets();
        if (!p)
            return any;
        any = 1;
        if (!p->next) {
            frame_send(frame_of_one(p));
            continue;
        }
        Packet *f = pk_alloc(p->dest, p->type);
        while (p) {
            Packet *next = p->next;
            frame_add(f, p);
            p = next;
        }
        frame_send(f);
    }
}

static void reap_sent(void)
{
    for (Packet **pp = &inflight; *pp;) {
        Packet *p = *pp;
        int done = 0;
        MPI_Test(&p->req, &done, MPI_STATUS_IGNORE);
        if (done) {
            *pp = p->next;
            pk_free(p);
            ninflight--;
        } else {
            pp = &p->next;
        }
    }
}

/* ---- termination ------------------------------------------------------------- */

static int passive(void)
{
    return rt_sched_idle() && atomic_load_explicit(&out_count, memory_order_acquire) == 0;
}

static void pass_token(int64_t count, int is_black, int64_t waiters, int64_t first)
{
    send_control((self_rank + 1) % nranks, PK_TOKEN, (uint64_t)count, (uint64_t)is_black,
                 (uint64_t)waiters, (uint64_t)first);
}

static void terminated(int64_t waiters, int64_t first_waiter)
{
    if (waiters == 0) {
        rt_sched_quiescent();       /* main's status then ends every rank */
        return;
    }
    if (first_waiter == self_rank)
        rt_sched_quiescent();       /* the deadlock report */
    else
        send_control((int)first_waiter, PK_DEADLOCK, 0, 0, 0, 0);
}

static int ended_detection;

static void detect_termination(void)
{
    if (ended_detection || !passive())
        return;
    int64_t balance = atomic_load_explicit(&basic_balance, memory_order_relaxed);
    if (nranks == 1) {
        ended_detection = 1;
        terminated(rt_sched_waiters(), 0);
        return;
    }
    if (self_rank == 0) {
        if (!token_out) {           /* a new probe */
            int64_t mine = rt_sched_waiters();
            atomic_store_explicit(&black, 0, memory_order_relaxed);
            token_out = 1;
            pass_token(0, 0, mine, mine ? 0 : -1);
            return;
        }
        if (!have_token)
            return;
        have_token = 0;
        token_out = 0;
        int64_t waiters = token_waiters;
        int64_t first = token_first_waiter;
        if (!token_black && !atomic_load_explicit(&black, memory_order_relaxed) &&
            token_count + balance == 0) {
            ended_detection = 1;
            terminated(waiters, first);
        }
        return;
    }
    if (!have_token)
        return;
    have_token = 0;
    int64_t mine = rt_sched_waiters();
    int is_black = token_black || atomic_load_explicit(&black, memory_order_relaxed);
    atomic_store_explicit(&black, 0, memory_order_relaxed);
    int64_t first = token_first_waiter >= 0 ? token_first_waiter : mine ? self_rank : -1;
    pass_token(token_count + balance, is_black, token_waiters + mine, first);
}

/* ---- the deadlock report ---------------------------------------------------- */

/* Tag of the exchange that lists every node's waiters: apart from the
 * packets, which nobody handles any more once the program is deadlocked. */
#define WAITERS_TAG 1

void rt_tp_write_other_waiters(void)
{
    if (!under_mpi || !pthread_equal(pthread_self(), progress_thread))
        return;     /* the report is made by the progress thread (terminated) */
    for (int r = 0; r < nranks; r++) {
        if (r == self_rank)
            continue;
        int ask = 1, done = 0;
        MPI_Send(&ask, 1, MPI_INT, r, WAITERS_TAG, MPI_COMM_WORLD);
        MPI_Recv(&done, 1, MPI_INT, r, WAITERS_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* Another node reports a deadlock: this one's waiters, then the answer. */
static void poll_waiters_request(void)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, WAITERS_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return;
    int ask = 0, done = 1;
    MPI_Recv(&ask, 1, MPI_INT, st.MPI_SOURCE, WAITERS_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    rt_sched_write_waiters();
    MPI_Send(&done, 1, MPI_INT, st.MPI_SOURCE, WAITERS_TAG, MPI_COMM_WORLD);
}

/* ---- ending --------------------------------------------------------------- */

#define BYE_SECONDS 5.0

/* On a rank other than node 0: its output, still queued as PRINT packets
 * in the order it was printed, goes to node 0 whatever the barrier says
 * (nothing is delivered after it any more); every other packet queued is
 * dropped. */
static void send_last_output(void)
{
    rt_print_flush();
    pthread_mutex_lock(&out_lock);
    Packet *p = out_head;
    out_head = out_tail = NULL;
    atomic_store(&out_count, 0);
    pthread_mutex_unlock(&out_lock);
    while (p) {
        Packet *next = p->next;
        if (p->type == PK_PRINT)
            frame_send(frame_of_one(p));
        else
            pk_free(p);
        p = next;
    }
}

/* On node 0, ending: of the packets that arrive, the output and the BYEs. */
static void handle_last(int type, Reader *r)
{
    if (type == PK_PRINT)
        on_print(r);
    else if (type == PK_BYE)
        on_bye(r);
}

/* In the progress thread: tells every other rank (unless they told us),
 * finalises MPI.  Returns once that is done. */
static void finish(int status, int tell_others)
{
    if (self_rank != 0)
        send_last_output();
    if (tell_others)
        for (int r = 0; r < nranks; r++)
            if (r != self_rank)
                send_control(r, PK_END, (uint64_t)status, 0, 0, 0);
    if (self_rank != 0) {
        output_direct = 1;
        send_control(0, PK_BYE, 0, 0, 0, 0);
    }
    /* Let the END packets leave; node 0 writes the output that arrives
     * until every other rank said BYE (for a few seconds at most: a rank
     * stuck in a system call must not keep the others); the rest is
     * dropped. */
    double give_up = MPI_Wtime() + BYE_SECONDS;
    while (inflight || (self_rank == 0 && byes < nranks - 1 && MPI_Wtime() < give_up)) {
        reap_sent();
        int n, from, slot;
        char *big;
        const char *buf = frame_arrived(&n, &from, &big, &slot);
        if (buf) {
            if (self_rank == 0)
                handle_frame(buf, n, from, handle_last);
            frame_done(slot, big);
        }
    }
    /* --count-remote: every node's counts, summed into node 0's report */
    size_t n = 0;
    uint64_t *counts = rt_remote_counters(&n);
    if (counts && n) {
        MPI_Reduce(self_rank == 0 ? MPI_IN_PLACE : counts, counts, (int)n, MPI_UINT64_T,
                   MPI_SUM, 0, MPI_COMM_WORLD);
        if (self_rank != 0)
            rt_remote_report_elsewhere();
    }
    /* Node 0 writes its last lines (the --count-remote report comes after
     * everything else) before any rank may exit: a rank that exits with a
     * non-zero status makes mpirun end the others at once, and node 0's
     * report would be lost. */
    if (self_rank == 0) {
        rt_print_flush();
        rt_remote_report();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    cancel_receives();
    MPI_Finalize();
}

/* An END from another rank: this rank ends with its status. */
static void begin_end(int status)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&end_requested, &expected, 1))
        return;
    end_status = status;
    rt_print_flush();
    rt_print_shutdown();
    finish(status, 0);
    exit(status);
}

void rt_tp_ending(int status)
{
    if (!under_mpi)
        return;
    if (pthread_equal(pthread_self(), progress_thread)) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&end_requested, &expected, 1))
            finish(status, 1);
        return;
    }
    end_status = status;
    asker_holds_progress = holds_progress;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&end_requested, &expected, 2)) {
        /* the program is ending already (an END arrived): wait for it */
        for (;;)
            pause();
    }
    rt_tp_ready();      /* a panic at start-up: the progress thread must go on, to end */
    doorbell_ring();
    while (atomic_load_explicit(&end_done, memory_order_acquire) == 0)
        rt_futex_wait(&end_done, 0);
}

/* ---- the progress thread ------------------------------------------------------ */

static void sleep_briefly(long ns)
{
    struct timespec ts = { 0, ns };
    atomic_store_explicit(&sleeping, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&out_count, memory_order_seq_cst) == 0 &&
        atomic_load_explicit(&end_requested, memory_order_seq_cst) == 0)
        syscall(SYS_futex, (uint32_t *)&doorbell, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
    atomic_store_explicit(&sleeping, 0, memory_order_relaxed);
    atomic_store_explicit(&doorbell, 0, memory_order_relaxed);
}

/* Sleeps until the doorbell rings, ns at most, whatever is queued: while
 * a worker searches for work, it sends what is queued itself. */
static void doze(long ns)
{
    struct timespec ts = { 0, ns };
    atomic_store_explicit(&sleeping, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&end_requested, memory_order_seq_cst) == 0)
        syscall(SYS_futex, (uint32_t *)&doorbell, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
    atomic_store_explicit(&sleeping, 0, memory_order_relaxed);
    atomic_store_explicit(&doorbell, 0, memory_order_relaxed);
}

void rt_tp_polls_stopped(void)
{
    if (under_mpi)
        doorbell_ring();
}

/* After the last thing that happened, the progress thread polls a few
 * rounds without pause, then yields its core between polls (sched_yield)
 * for about a millisecond, then sleeps in growing steps of 20 µs up to
 * 1 ms, so that an idle rank costs almost nothing.  Yielding matters when
 * ranks share cores (mpirun --oversubscribe, or several ranks on a small
 * machine): a poll that keeps its core takes it from the very thread that
 * must answer.  Measured on 2 cores with 2 ranks (bench/README.md): a
 * cross-rank ping-pong took 7.7 ms a round trip with polling that never
 * yields, 330 µs with a spin of 2000 rounds before sleeping, 53 µs so. */
#define SPIN_ROUNDS 50
#define YIELD_ROUNDS 1000
#define SLEEP_MIN_NS 20000L
#define SLEEP_MAX_NS 1000000L

/* A worker with nothing to run does the progress thread's work itself,
 * when nobody else is doing it: what arrives for one of its actors is
 * handled on the core that will run it, and nobody is woken for it.
 * Returns whether anything went or came. */
int rt_tp_poll(void)
{
    if (!under_mpi || atomic_load_explicit(&worker_polls_off, memory_order_relaxed) ||
        !progress_try_take())
        return 0;
    /* a handler's runtime error is not the error of a turn this thread
     * may be in the middle of: no backtrace of its frames */
    MosFrame *frames = mos_frame_top;
    mos_frame_top = NULL;
    reap_sent();
    int worked = poll_incoming(1);
    worked |= flush_outgoing();
    mos_frame_top = frames;
    progress_give();
    return worked;
}

static void *progress(void *unused)
{
    (void)unused;
    prctl(PR_SET_TIMERSLACK, 1000UL);   /* its short sleeps are short: 1 µs slack */
    int provided = 0;
    MPI_Init_thread(&saved_argc, &saved_argv, MPI_THREAD_SERIALIZED, &provided);
    if (provided < MPI_THREAD_SERIALIZED)
        atomic_store(&worker_polls_off, 1);     /* only this thread may call MPI */
    MPI_Comm_rank(MPI_COMM_WORLD, &self_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > MAX_RANKS) {
        if (self_rank == 0)     /* every rank is here: one says why */
            fprintf(stderr, "runtime error: invalid argument: %d ranks, and a Mosaic "
                            "program runs on %d nodes at most\n", nranks, MAX_RANKS);
        MPI_Finalize();
        _exit(101);
    }
    mos_here_node = self_rank;      /* what this thread makes is this node's */
    sent_to = calloc((size_t)nranks, sizeof *sent_to);
    acked_by = calloc((size_t)nranks, sizeof *acked_by);
    received_from = calloc((size_t)nranks, sizeof *received_from);
    flush_asked = calloc((size_t)nranks, 1);
    if (!sent_to || !acked_by || !received_from || !flush_asked)
        rt_panicf(RT_NOWHERE, "out of memory: the tables of %d nodes", nranks);
    post_receives();
    if (self_rank != 0)
        rt_print_set_sink(forward_output);     /* node 0 writes the output */
    atomic_store_explicit(&started, 1, memory_order_release);
    rt_futex_wake(&started, INT_MAX);
    /* Frames may arrive already (the receives are posted, and another
     * rank's node 0 may be creating an actor here): they wait until the
     * counters of --count-remote exist, or the first answers and accesses
     * would go uncounted. */
    while (atomic_load_explicit(&ready, memory_order_acquire) == 0)
        rt_futex_wait(&ready, 0);

    long idle = 0, sleep_ns = SLEEP_MIN_NS, doze_ns = SLEEP_MIN_NS;
    for (;;) {
        if (atomic_load_explicit(&end_requested, memory_order_acquire) == 2) {
            /* No worker starts a poll any more; one in the middle of one
             * ends it, unless it is the thread that asked (a handler's
             * runtime error), which waits for us and calls MPI no more. */
            atomic_store(&worker_polls_off, 1);
            if (!asker_holds_progress)
                progress_take();
            atomic_store(&end_requested, 3);
            finish(end_status, 1);
            atomic_store_explicit(&end_done, 1, memory_order_release);
            rt_futex_wake(&end_done, INT_MAX);
            for (;;)
                pause();    /* the thread that asked exits the process */
        }
        if (GC_should_invoke_finalizers())     /* dead proxies: see the essay */
            GC_invoke_finalizers();
        /* a worker that searches for work polls MPI itself, on the core
         * that would run what arrives: this thread keeps out of its way */
        if (rt_sched_spinning() && !atomic_load_explicit(&worker_polls_off, memory_order_relaxed) &&
            atomic_load(&deferred_end) < 0 && !atomic_load(&deferred_deadlock)) {
            doze(doze_ns);      /* until the last of them stops searching */
            if (doze_ns < SLEEP_MAX_NS)
                doze_ns *= 2;
            continue;
        }
        doze_ns = SLEEP_MIN_NS;
        progress_take();
        int end = atomic_load(&deferred_end);
        if (end >= 0)
            begin_end(end);
        if (atomic_load(&deferred_deadlock))
            rt_sched_quiescent();
        int worked = flush_outgoing();
        worked |= poll_incoming(64);
        if (passive())      /* a deadlock report: every rank is idle then */
            poll_waiters_request();
        reap_sent();
        detect_termination();
        progress_give();
        if (worked) {
            idle = 0;
            sleep_ns = SLEEP_MIN_NS;
        } else if (++idle < SPIN_ROUNDS) {
            /* poll again at once */
        } else if (idle < SPIN_ROUNDS + YIELD_ROUNDS) {
            sched_yield();
        } else {
            sleep_briefly(sleep_ns);
            if (sleep_ns < SLEEP_MAX_NS)
                sleep_ns *= 2;
        }
    }
    return NULL;
}

/* ---- the interface ---------------------------------------------------------- */

/* mpirun ends the other ranks with SIGTERM when one dies: what they
 * printed is written out before they go, as the signal asks. */
static void on_sigterm(int sig)
{
    rt_print_flush_from_signal();
    signal(sig, SIG_DFL);
    raise(sig);
}

void rt_tp_start(int *argc, char ***argv)
{
    if (!rt_tp_started_by_mpirun())
        return;         /* one node, no MPI */
    under_mpi = 1;
    saved_argc = *argc;
    saved_argv = *argv;
    GC_register_displacement(1);        /* tagged references (transport.h) */
    GC_set_finalize_on_demand(1);       /* finalizers run by the progress thread */
    GC_set_finalizer_notifier(doorbell_ring);
    signal(SIGTERM, on_sigterm);
    if (rt_thread_start(&progress_thread, progress, NULL, (size_t)8 << 20, 1) != 0)
        rt_panicf(RT_NOWHERE, "out of memory: cannot start the MPI progress thread");
    while (atomic_load_explicit(&started, memory_order_acquire) == 0)
        rt_futex_wait(&started, 0);
}

void rt_tp_ready(void)
{
    if (!under_mpi)
        return;
    atomic_store_explicit(&ready, 1, memory_order_release);
    rt_futex_wake(&ready, INT_MAX);
}

int rt_tp_nodes(void)
{
    return nranks;      /* 1 without mpirun */
}

int rt_tp_self(void)
{
    return self_rank;
}

int rt_tp_runs_main(void)
{
    return self_rank == 0;
}

void rt_tp_idle(void)
{
    if (!under_mpi)
        rt_sched_quiescent();
    else
        doorbell_ring();    /* the progress thread may pass the token */
}
