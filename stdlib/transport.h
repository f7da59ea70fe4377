/* transport.h — the seam between the actor runtime and the way its nodes
 * reach each other (LANGUAGE.md §5 and §10).
 *
 * The scheduler, futures, the panic path and the remote-access counter
 * never ask whether another node shares their memory: they call the
 * functions below, and one of two transports answers, chosen when the
 * program is linked (as Chapel's chpl_comm_* has one implementation per
 * engine, and CAF's middleman hides the network from the actors):
 *
 *   transport_shm.c   in libmosaicrt.a.  Every node is a group of worker
 *                     threads of this one process (real NUMA nodes, or
 *                     MOSAIC_NODES virtual ones).  Nothing is ever remote
 *                     in the sense of this file: an object on another
 *                     node is read with a load, a message to an actor of
 *                     another node is pushed on its mailbox.
 *   transport_mpi.c   in libmosaicrt-mpi.a (mosaicc --distributed).  Node
 *                     k is MPI rank k, a process of its own with its own
 *                     heap; the same executable runs in every rank.
 *
 * What crosses the seam.  Only four kinds of thing: a message for an
 * actor (a send, an actor's creation, a reply that fulfils a future); an
 * access to data that lives on another node (a read or a write of some
 * bytes of an object, array, map or pooled object, an allocation there,
 * a method of an array, map or pool run there: mosaic_rt.h's
 * "Distributed" entry points, which generated code calls only where §5's
 * effects say an access may be remote); the news that a node has nothing
 * left to run (quiescence is decided above the nodes); and the end of the
 * program (exit status, runtime error, a deadlock's report).  Values
 * cross by value when they are int, float, bool or string, and as
 * references otherwise (§10).
 *
 * Who owns which memory.  Each node owns the objects allocated on it;
 * only its own threads ever load or store them.  Another node holds a
 * *reference* to such an object, never its address as a pointer it may
 * follow.  Under shared memory the two are the same thing, which is why
 * that transport costs nothing.
 *
 * How a reference to a remote object is represented (MPI transport): as a
 * word with its low bit set, pointing one byte into a small local block,
 * the object's *proxy* (its node, its address there, its kind).  Objects
 * are 16-byte aligned, so no local pointer has that bit: a possibly
 * remote access tests one bit of a register (RT_IS_REMOTE), and a
 * provably local one tests nothing at all, so it compiles to the same
 * code as without --distributed.  The proxy is kept alive by the
 * collector like anything else (the tagged word is registered as a valid
 * displacement, GC_register_displacement), so a reference held in a
 * field, an array or a frame keeps it; each node keeps one proxy per
 * remote object (an import table), so that `==` of references stays
 * identity.  A reference that travels back to the object's own node
 * becomes the plain pointer again.  The owner keeps every object another
 * node may refer to in its export table, which the collector scans
 * (transport_mpi.c says how the table is counted).
 *
 * Not here: the mailbox protocol (mailbox.h), running messages and
 * parking (sched.c), the layout of a message's arguments (codegen's
 * actor.c, described to the MPI transport by mos_message_table).
 */
#ifndef RT_TRANSPORT_H
#define RT_TRANSPORT_H

#include <stdint.h>

#include "rt_actors.h"

/* ---- every transport ------------------------------------------------------ */

/* The very first thing main() does, before any thread or the collector:
 * under mpirun, forks the watch that makes a rank's death end the
 * program with status 101 (rank_watch.c); returns in the rank. */
void rt_tp_watch(void);

/* Starts the transport, once, from main() after the collector: under MPI
 * the MPI library and its progress thread. */
void rt_tp_start(int *argc, char ***argv);
/* The rest of the runtime is up (the --count-remote counters, the fault
 * handlers): under MPI the progress thread handles no packet before
 * this, so that what another rank asks of this one is counted and
 * checked as the rest of the run is. */
void rt_tp_ready(void);

/* nodes() when the transport fixes it (the number of ranks), or 0 when
 * the machine's topology decides (nodes.c). */
int rt_tp_nodes(void);

/* The node this process is, or -1 when every node is this process. */
int rt_tp_self(void);

/* Whether this process runs `main` (node 0's process, or the only one). */
int rt_tp_runs_main(void);

/* Called by the scheduler when this process has nothing left to run: no
 * thread is awake, every queue is empty.  The transport decides when the
 * whole program is quiescent, and then calls rt_sched_quiescent. */
void rt_tp_idle(void);

/* Called by a worker with nothing to run, on each round of its search
 * before it parks: the transport may use the thread to make progress
 * (under MPI, to send what is queued and handle what has arrived, which
 * may schedule actors on this very worker).  Returns whether it did
 * anything, so that the worker looks again at once. */
#ifdef MOS_DISTRIBUTED
int rt_tp_poll(void);
#else
static inline int rt_tp_poll(void)
{
    return 0;
}
#endif

/* Called by a worker between turns: the transport may send what the
 * last turn queued (under MPI, the messages a turn sends to other ranks
 * leave together when it ends, in as few frames as they fill). */
#ifdef MOS_DISTRIBUTED
void rt_tp_flush(void);
#else
static inline void rt_tp_flush(void)
{
}
#endif

/* Called when the last worker searching for work stops searching (to
 * park): nobody polls the transport on the transport's behalf any more. */
#ifdef MOS_DISTRIBUTED
void rt_tp_polls_stopped(void);
#else
static inline void rt_tp_polls_stopped(void)
{
}
#endif

/* During a deadlock report: has every other node's process write its
 * waiters after this one's, in node order, and returns once they have. */
void rt_tp_write_other_waiters(void);

/* Called once, just before this process ends with `status` for any
 * reason (main's end at quiescence, exit(n), a runtime error): the other
 * nodes are told to end with the same status. */
void rt_tp_ending(int status);

/* ---- the MPI transport's remote operations ---------------------------- */

#ifdef MOS_DISTRIBUTED

/* Whether mpirun started this process (OMPI_COMM_WORLD_SIZE is set): a
 * distributed program started otherwise runs as one node, without MPI. */
int rt_tp_started_by_mpirun(void);

/* A reference to an object of another node (see the essay). */
#define RT_IS_REMOTE(p) (((uintptr_t)(p) & 1u) != 0)

/* A message for an actor of another node; returns the local future that
 * its reply fulfils, if the message wants one. */
void *rt_tp_send(void *actor_ref, RtMessage *m, const char *where);

/* The value of a future of another node, once it has one. */
int64_t rt_tp_get(void *future_ref, const char *where);

/* A waiter record that stands for another node's wait on a local future:
 * its fulfilment is sent back (future.c calls this instead of waking). */
void rt_tp_fulfil_remote(RtWaiter *w, int64_t value);

/* Allocates an actor of `bytes` on node `node` (not this one) and returns
 * the reference to it; its header is set up there. */
void *rt_tp_actor_new(int64_t bytes, int node);

/* A pool made on node `node`, another process's, and the reference to it;
 * an object allocated in a remote pool, its number. */
MosPool *rt_tp_pool_new(const MosPoolShape *shape, int64_t node);
int64_t rt_tp_pool_alloc(MosPool *pool_ref, const char *where);

/* The letter of mos_message_table that says how the result of `run`
 * travels ('i', 's', 'r', 'u'). */
int64_t rt_tp_result_kind(MosMessageRun run);

#else

#define RT_IS_REMOTE(p) ((void)(p), 0)

#endif

#endif
