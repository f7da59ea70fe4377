/* transport_shm.c — the transport of one process: every node is a group
 * of this process's worker threads (transport.h).
 *
 * Nothing crosses a process boundary, so there is nothing to do: a
 * message for an actor of another node is pushed on its mailbox by the
 * sender (actor.c), an object of another node is read where it is, and
 * once this process has nothing left to run, the whole program has
 * nothing left to run — the scheduler's idea of quiescence is the
 * program's.  This file exists so that the scheduler, futures and the
 * panic path have one seam, whichever transport is linked.
 */
#include "rt_internal.h"
#include "transport.h"

void rt_tp_watch(void)
{
}

void rt_tp_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
}

void rt_tp_ready(void)
{
}

int rt_tp_nodes(void)
{
    return 0;       /* the topology decides (nodes.c) */
}

int rt_tp_self(void)
{
    return -1;      /* every node is this process */
}

int rt_tp_runs_main(void)
{
    return 1;
}

void rt_tp_idle(void)
{
    rt_sched_quiescent();
}

void rt_tp_write_other_waiters(void)
{
}

void rt_tp_ending(int status)
{
    (void)status;
}
