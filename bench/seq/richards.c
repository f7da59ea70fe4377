/* bench/seq/richards.c — Martin Richards's benchmark, the simulation of an
 * operating system's task scheduler, with the structure of richards.mos
 * (the Smalltalk, Java and Octane versions'): a scheduler, a control block
 * per task (priority, state bits, a queue of packets) and a task record
 * whose kind — idle, worker, handler, device — a switch dispatches on.
 * One round is the classic run (the idle task counting down from 10,000:
 * 23,246 packets queued, 9,297 holds); the argument is the number of
 * rounds (default 2_000), and the totals are printed.  Each round mallocs
 * its records and frees them at its end.  bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

enum { STATE_RUNNING = 0, STATE_RUNNABLE = 1, STATE_SUSPENDED = 2,
       STATE_HELD = 4, STATE_SUSPENDED_RUNNABLE = 3 };
enum { ID_IDLE, ID_WORKER, ID_HANDLER_A, ID_HANDLER_B, ID_DEVICE_A, ID_DEVICE_B, NTASKS };
enum { KIND_DEVICE = 0, KIND_WORK = 1 };
enum { TASK_IDLE, TASK_WORKER, TASK_HANDLER, TASK_DEVICE };
#define DATA_SIZE 4

typedef struct packet {
    struct packet *link;
    long id, kind, a1;
    long a2[DATA_SIZE];
} packet;

struct scheduler;

typedef struct task {
    struct scheduler *scheduler;
    int kind;
    long v1, v2;             /* idle: seed, count; worker: destination, letter */
    packet *work, *devices;  /* handler: both queues; device: work = pending */
} task;

typedef struct tcb {
    struct tcb *link;
    long id, priority;
    packet *queue;
    task *task;
    int state;
} tcb;

typedef struct scheduler {
    long queue_count, hold_count;
    tcb *blocks[NTASKS];
    tcb *list, *current_tcb;
    long current_id;
} scheduler;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        exit(1);
    return p;
}

static packet *new_packet(packet *link, long id, long kind)
{
    packet *p = xmalloc(sizeof *p);
    p->link = link;
    p->id = id;
    p->kind = kind;
    p->a1 = 0;
    for (int i = 0; i < DATA_SIZE; i++)
        p->a2[i] = 0;
    return p;
}

/* Appends p to the end of queue; returns the queue's head. */
static packet *add_to(packet *p, packet *queue)
{
    p->link = NULL;
    if (queue == NULL)
        return p;
    packet *peek = queue, *next;
    while ((next = peek->link) != NULL)
        peek = next;
    peek->link = p;
    return queue;
}

static int is_held_or_suspended(const tcb *t)
{
    return (t->state & STATE_HELD) != 0 || t->state == STATE_SUSPENDED;
}

static tcb *check_priority_add(tcb *t, tcb *current, packet *p)
{
    if (t->queue == NULL) {
        t->queue = p;
        t->state |= STATE_RUNNABLE;
        if (t->priority > current->priority)
            return t;
    } else {
        t->queue = add_to(p, t->queue);
    }
    return current;
}

static tcb *release(scheduler *s, long id)
{
    tcb *t = s->blocks[id];
    if (t == NULL)
        return t;
    t->state &= ~STATE_HELD;
    if (t->priority > s->current_tcb->priority)
        return t;
    return s->current_tcb;
}

static tcb *hold_current(scheduler *s)
{
    s->hold_count++;
    s->current_tcb->state |= STATE_HELD;
    return s->current_tcb->link;
}

static tcb *suspend_current(scheduler *s)
{
    s->current_tcb->state |= STATE_SUSPENDED;
    return s->current_tcb;
}

static tcb *queue_packet(scheduler *s, packet *p)
{
    tcb *t = s->blocks[p->id];
    if (t == NULL)
        return t;
    s->queue_count++;
    p->link = NULL;
    p->id = s->current_id;
    return check_priority_add(t, s->current_tcb, p);
}

static tcb *run_idle(task *k)
{
    k->v2--;
    if (k->v2 == 0)
        return hold_current(k->scheduler);
    if ((k->v1 & 1) == 0) {
        k->v1 = k->v1 >> 1;
        return release(k->scheduler, ID_DEVICE_A);
    }
    k->v1 = (k->v1 >> 1) ^ 0xD008;
    return release(k->scheduler, ID_DEVICE_B);
}

static tcb *run_worker(task *k, packet *p)
{
    if (p == NULL)
        return suspend_current(k->scheduler);
    k->v1 = k->v1 == ID_HANDLER_A ? ID_HANDLER_B : ID_HANDLER_A;
    p->id = k->v1;
    p->a1 = 0;
    for (int i = 0; i < DATA_SIZE; i++) {
        k->v2++;
        if (k->v2 > 26)
            k->v2 = 1;
        p->a2[i] = k->v2;
    }
    return queue_packet(k->scheduler, p);
}

static tcb *run_handler(task *k, packet *p)
{
    if (p != NULL) {
        if (p->kind == KIND_WORK)
            k->work = add_to(p, k->work);
        else
            k->devices = add_to(p, k->devices);
    }
    if (k->work != NULL) {
        long count = k->work->a1;
        if (count < DATA_SIZE) {
            if (k->devices != NULL) {
                packet *v = k->devices;
                k->devices = k->devices->link;
                v->a1 = k->work->a2[count];
                k->work->a1 = count + 1;
                return queue_packet(k->scheduler, v);
            }
        } else {
            packet *v = k->work;
            k->work = k->work->link;
            return queue_packet(k->scheduler, v);
        }
    }
    return suspend_current(k->scheduler);
}

static tcb *run_device(task *k, packet *p)
{
    if (p == NULL) {
        if (k->work == NULL)
            return suspend_current(k->scheduler);
        packet *v = k->work;
        k->work = NULL;
        return queue_packet(k->scheduler, v);
    }
    k->work = p;
    return hold_current(k->scheduler);
}

static tcb *run_task(task *k, packet *p)
{
    switch (k->kind) {
    case TASK_IDLE: return run_idle(k);
    case TASK_WORKER: return run_worker(k, p);
    case TASK_HANDLER: return run_handler(k, p);
    default: return run_device(k, p);
    }
}

/* Runs the task with the first packet of its queue, if it has one. */
static tcb *run_tcb(tcb *t)
{
    packet *p = NULL;
    if (t->state == STATE_SUSPENDED_RUNNABLE) {
        p = t->queue;
        t->queue = p->link;
        t->state = t->queue == NULL ? STATE_RUNNING : STATE_RUNNABLE;
    }
    return run_task(t->task, p);
}

static void add_task(scheduler *s, long id, long priority, packet *queue, int kind, long v1, long v2)
{
    task *k = xmalloc(sizeof *k);
    k->scheduler = s;
    k->kind = kind;
    k->v1 = v1;
    k->v2 = v2;
    k->work = k->devices = NULL;
    tcb *t = xmalloc(sizeof *t);
    t->link = s->list;
    t->id = id;
    t->priority = priority;
    t->queue = queue;
    t->task = k;
    t->state = queue == NULL ? STATE_SUSPENDED : STATE_SUSPENDED_RUNNABLE;
    s->current_tcb = t;
    s->list = t;
    s->blocks[id] = t;
}

static void schedule(scheduler *s)
{
    s->current_tcb = s->list;
    while (s->current_tcb != NULL) {
        if (is_held_or_suspended(s->current_tcb)) {
            s->current_tcb = s->current_tcb->link;
        } else {
            s->current_id = s->current_tcb->id;
            s->current_tcb = run_tcb(s->current_tcb);
        }
    }
}

/* One classic run; adds its counts to *queued and *held. */
static void richards(long count, long *queued, long *held)
{
    scheduler s = {0};
    packet *all[8], *q;
    int np = 0;
    add_task(&s, ID_IDLE, 0, NULL, TASK_IDLE, 1, count);
    s.current_tcb->state = STATE_RUNNING;
    q = all[np++] = new_packet(NULL, ID_WORKER, KIND_WORK);
    q = all[np++] = new_packet(q, ID_WORKER, KIND_WORK);
    add_task(&s, ID_WORKER, 1000, q, TASK_WORKER, ID_HANDLER_A, 0);
    q = all[np++] = new_packet(NULL, ID_DEVICE_A, KIND_DEVICE);
    q = all[np++] = new_packet(q, ID_DEVICE_A, KIND_DEVICE);
    q = all[np++] = new_packet(q, ID_DEVICE_A, KIND_DEVICE);
    add_task(&s, ID_HANDLER_A, 2000, q, TASK_HANDLER, 0, 0);
    q = all[np++] = new_packet(NULL, ID_DEVICE_B, KIND_DEVICE);
    q = all[np++] = new_packet(q, ID_DEVICE_B, KIND_DEVICE);
    q = all[np++] = new_packet(q, ID_DEVICE_B, KIND_DEVICE);
    add_task(&s, ID_HANDLER_B, 3000, q, TASK_HANDLER, 0, 0);
    add_task(&s, ID_DEVICE_A, 4000, NULL, TASK_DEVICE, 0, 0);
    add_task(&s, ID_DEVICE_B, 5000, NULL, TASK_DEVICE, 0, 0);
    schedule(&s);
    *queued += s.queue_count;
    *held += s.hold_count;
    for (int i = 0; i < np; i++)
        free(all[i]);
    for (int i = 0; i < NTASKS; i++) {
        free(s.blocks[i]->task);
        free(s.blocks[i]);
    }
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 2000;
    long queued = 0, held = 0;
    for (long r = 0; r < rounds; r++)
        richards(10000, &queued, &held);
    printf("richards: rounds=%ld queued=%ld held=%ld\n", rounds, queued, held);
    return 0;
}
