/* actor.c — actors, messages and sends: the ABI of LANGUAGE.md §4.
 *
 * `new A(args)` is mos_actor_new (a zeroed GC block with the header set:
 * an empty, idle mailbox and its node) followed by the send of the
 * message that runs init.  `a!m(x)` is mos_message_new, codegen's stores
 * of the arguments, then mos_send, which pushes the message on the
 * actor's mailbox at the moment of the send — which is what makes
 * delivery causal: a send that happens before another reaches the same
 * mailbox first — with one atomic exchange that also tells whether the
 * actor was IDLE (mailbox.h).  Only then does the sender schedule it
 * (sched.c).  An actor that is already scheduled or running costs the
 * sender nothing more: no global counter, no lock, no wake-up.
 *
 * Messages and futures come from the collector's thread-local free lists
 * (GC_malloc on a registered thread takes no lock), so a send allocates
 * without a system call or a shared lock.  The future is a separate
 * 16-byte block, made only when the sender wants one, so a future kept
 * for long does not keep the message's arguments alive.
 *
 * mos_message_new records the message's size in its header, so that the
 * scheduler can clear the arguments of the last message an actor handled
 * before it goes idle (its mailbox keeps that message as a dummy node).
 *
 * Not here: running messages (sched.c), waiting for futures (future.c).
 */
#include "rt_internal.h"
#include "rt_actors.h"
#include "transport.h"

#include <gc.h>

void *mos_actor_new(int64_t bytes, int64_t node)
{
    if (bytes < MOS_ACTOR_HEADER_SIZE)
        bytes = MOS_ACTOR_HEADER_SIZE;
#ifdef MOS_DISTRIBUTED
    /* node(k) of another process: made there (transport.h) */
    if (node != -1 && mos_node_of(node) != rt_tp_self())
        return rt_tp_actor_new(bytes, (int)mos_node_of(node));
#endif
    rt_sched_start();
    RtActor *a = mos_alloc(bytes);
    rt_mailbox_init(&a->mailbox);
    atomic_init(&a->rq_link.next, NULL);
    atomic_init(&a->last_worker, -1);
    int64_t n = rt_topology()->nodes;
    if (node == -1) {
        /* the creator's node: `here` */
        RtActor *self = rt_current_actor;
        a->node = self ? self->node : 0;
    } else {
        /* node(k) is node k mod N, for any k */
        int64_t k = node % n;
        a->node = (int32_t)(k < 0 ? k + n : k);
    }
    return a;
}

void *mos_message_new(int64_t bytes, MosMessageRun run, int32_t want_future)
{
    if (bytes < MOS_MESSAGE_HEADER_SIZE)
        bytes = MOS_MESSAGE_HEADER_SIZE;
    RtMessage *m = mos_alloc(bytes);
    m->run = run;
    m->size = bytes;
    if (want_future) {
        m->future = rt_future_new();
#ifdef MOS_DISTRIBUTED
        m->future->kind = rt_tp_result_kind(run);
#endif
    }
    return m;
}

void *mos_send(void *actor, void *message, const char *where)
{
    if (!actor)
        mos_panic(where, "null dereference");
#ifdef MOS_DISTRIBUTED
    if (RT_IS_REMOTE(actor))
        return rt_tp_send(actor, message, where);
#endif
    RtActor *a = actor;
    RtMessage *m = message;
    /* read before the push: once queued, the message belongs to the
     * receiver */
    RtFuture *f = m->future;
    if (rt_mailbox_push(&a->mailbox, &m->link))
        rt_sched_schedule(a);
    return f;
}
