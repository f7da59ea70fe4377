/* test_sched.c — the actor runtime end to end, through the ABI.
 *
 * The compiler cannot compile actors yet, so this file plays the compiled
 * program: it defines mos_program_main, links with the whole
 * libmosaicrt.a (so the runtime's main() starts it, as it starts a Mosaic
 * program), and uses the actor ABI of mosaic_rt.h directly, with
 * hand-written message functions standing in for what codegen will emit:
 * fields at MOS_ACTOR_HEADER_SIZE in the actor, arguments in 8-byte slots
 * at MOS_MESSAGE_HEADER_SIZE in the message.
 *
 * Run without arguments it is a TAP test: it runs itself again
 * (/proc/self/exe) once per scenario, with the scenario's name as the
 * argument and its environment (MOSAIC_THREADS=1, MOSAIC_NODES=2, ...),
 * and checks each child's stdout, stderr and exit status.  A child that
 * hangs is killed by an alarm set before exec (a safety net, not a
 * timing assumption: every scenario ends by itself when the runtime is
 * right).  No check depends on timing; the times printed as "#" lines
 * are for people.
 *
 * Run with a scenario's name (and its arguments) it runs that scenario:
 * `tests/unit/test_sched pingpong 40000` is a quick benchmark.
 *
 * Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gc.h>

#include "stdlib/mosaic_rt.h"
#include "stdlib/rt_internal.h"
#include "stdlib/rt_actors.h"

/* ---- what codegen would emit, by hand ------------------------------------ */

#define WHERE "t.mos:1:1"

/* An actor's fields and a message's arguments, as int64 slots (pointers
 * are stored in them as integers, as codegen's i64 slots hold them). */
#define FIELDS(a) ((int64_t *)(void *)((char *)(a) + MOS_ACTOR_HEADER_SIZE))
#define ARGS(m) ((int64_t *)(void *)((char *)(m) + MOS_MESSAGE_HEADER_SIZE))
#define PTR(x) ((void *)(intptr_t)(x))
#define INT(p) ((int64_t)(intptr_t)(p))

static void *new_actor(int nfields, int64_t node)
{
    return mos_actor_new(MOS_ACTOR_HEADER_SIZE + 8 * nfields, node);
}

/* a!run(args...) with n int64 arguments; the future, or NULL */
static void *sendv(void *to, MosMessageRun run, int want, int n,
                   const int64_t *args)
{
    void *m = mos_message_new(MOS_MESSAGE_HEADER_SIZE + 8 * n, run, want);
    for (int i = 0; i < n; i++)
        ARGS(m)[i] = args[i];
    return mos_send(to, m, WHERE);
}

#define SEND(to, run, want, ...)                                            \
    sendv((to), (run), (want),                                              \
          (int)(sizeof((int64_t[]){ 0, __VA_ARGS__ }) / sizeof(int64_t)) - 1,\
          (int64_t[]){ 0, __VA_ARGS__ } + 1)
#define SEND0(to, run, want) sendv((to), (run), (want), 0, NULL)

static int64_t get(void *f)
{
    return mos_future_get(f, WHERE);
}

/* println(text) through the runtime's stdout, like compiled code */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mos_print_string(rt_string_new(buf, n), 1);
}

static int64_t arg_int(MosArray *args, int64_t i, int64_t dflt)
{
    if (i >= args->length)
        return dflt;
    return mos_parse_int(((MosString **)(void *)args->data)[i], WHERE);
}

/* ---- ping-pong ----------------------------------------------------------- */

/* Ping: [0] pong, [1] pings left, [2] pongs received */
static int64_t ping_pong(void *self, void *m);

static int64_t pong_ping(void *self, void *m)
{
    (void)self;
    SEND0(PTR(ARGS(m)[0]), ping_pong, 0);
    return 0;
}

static void ping_send(void *self)
{
    FIELDS(self)[1]--;
    SEND(PTR(FIELDS(self)[0]), pong_ping, 0, INT(self));
}

static int64_t ping_pong(void *self, void *m)
{
    (void)m;
    FIELDS(self)[2]++;
    if (FIELDS(self)[1] > 0)
        ping_send(self);
    else
        say("pingpong: pings=%lld", (long long)FIELDS(self)[2]);
    return 0;
}

static int64_t ping_start(void *self, void *m)
{
    (void)m;
    if (FIELDS(self)[1] > 0)
        ping_send(self);
    return 0;
}

static int64_t pingpong(MosArray *args)
{
    int64_t n = arg_int(args, 1, 40000);
    void *pong = new_actor(0, -1);
    void *ping = new_actor(3, -1);
    FIELDS(ping)[0] = INT(pong);
    FIELDS(ping)[1] = n;
    SEND0(ping, ping_start, 0);
    return 0;
}

/* ---- counting: one-way messages into one mailbox ------------------------- */

static int64_t counter_incr(void *self, void *m)
{
    (void)m;
    FIELDS(self)[0]++;
    return 0;
}

static int64_t counter_total(void *self, void *m)
{
    (void)m;
    return FIELDS(self)[0];
}

static int64_t counting(MosArray *args)
{
    int64_t n = arg_int(args, 1, 1000000);
    void *c = new_actor(1, -1);
    for (int64_t i = 0; i < n; i++)
        SEND0(c, counter_incr, 0);
    say("counting: count=%lld", (long long)get(SEND0(c, counter_total, 1)));
    return 0;
}

/* ---- thread ring -------------------------------------------------------------- */

/* RingMember: [0] id, [1] next */
static int64_t ring_token(void *self, void *m)
{
    int64_t left = ARGS(m)[0], hops = ARGS(m)[1];
    if (left > 0)
        SEND(PTR(FIELDS(self)[1]), ring_token, 0, left - 1, hops + 1);
    else
        say("threadring: hops=%lld last=%lld", (long long)hops,
            (long long)FIELDS(self)[0]);
    return 0;
}

static int64_t ring_link(void *self, void *m)
{
    FIELDS(self)[1] = ARGS(m)[0];
    return 0;
}

static int64_t threadring(MosArray *args)
{
    int64_t n = arg_int(args, 1, 100), r = arg_int(args, 2, 100000);
    void **ring = mos_alloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        ring[i] = new_actor(2, -1);
        FIELDS(ring[i])[0] = i;
    }
    for (int64_t i = 0; i < n; i++)
        SEND(ring[i], ring_link, 0, INT(ring[(i + 1) % n]));
    SEND(ring[0], ring_token, 0, r, 0);
    return 0;
}

/* ---- fib: ~150k short-lived actors, answers as messages ------------------------ */

/* Fib: [0] parent, [1] n, [2] result so far, [3] answers received */
static int64_t fib_response(void *self, void *m);

static void fib_answer(void *self, int64_t value)
{
    void *parent = PTR(FIELDS(self)[0]);
    if (parent)
        SEND(parent, fib_response, 0, value);
    else
        say("fib: n=%lld result=%lld", (long long)FIELDS(self)[1],
            (long long)value);
}

static int64_t fib_request(void *self, void *m)
{
    int64_t n = ARGS(m)[0];
    FIELDS(self)[1] = n;
    if (n <= 2) {
        fib_answer(self, 1);
        return 0;
    }
    for (int k = 1; k <= 2; k++) {
        void *child = new_actor(4, -1);
        FIELDS(child)[0] = INT(self);
        SEND(child, fib_request, 0, n - k);
    }
    return 0;
}

static int64_t fib_response(void *self, void *m)
{
    FIELDS(self)[2] += ARGS(m)[0];
    if (++FIELDS(self)[3] == 2)
        fib_answer(self, FIELDS(self)[2]);
    return 0;
}

static int64_t fib(MosArray *args)
{
    SEND(new_actor(4, -1), fib_request, 0, arg_int(args, 1, 25));
    return 0;
}

/* ---- big: many-to-many pings ------------------------------------------------------ */

/* Sink: [0] workers, [1] finished, [2] pings, [3] checksum.
 * Peer: [0] peers (GC array), [1] count, [2] sink, [3] pings left,
 * [4] random state, [5] checksum, [6] pings sent */
static int64_t big_sink_done(void *self, void *m)
{
    FIELDS(self)[2] += ARGS(m)[0];
    FIELDS(self)[3] += ARGS(m)[1];
    if (++FIELDS(self)[1] == FIELDS(self)[0])
        say("big: workers=%lld pings=%lld checksum=%lld",
            (long long)FIELDS(self)[0], (long long)FIELDS(self)[2],
            (long long)FIELDS(self)[3]);
    return 0;
}

static int64_t big_pong(void *self, void *m);

static int64_t big_ping(void *self, void *m)
{
    (void)self;
    SEND0(PTR(ARGS(m)[0]), big_pong, 0);
    return 0;
}

static void big_send_ping(void *self)
{
    int64_t *f = FIELDS(self);
    f[4] = (f[4] * 1309 + 13849) & 65535;
    int64_t target = f[4] % f[1];
    f[5] += target;
    f[6]++;
    f[3]--;
    SEND(((void **)PTR(f[0]))[target], big_ping, 0, INT(self));
}

static int64_t big_pong(void *self, void *m)
{
    (void)m;
    int64_t *f = FIELDS(self);
    if (f[3] > 0)
        big_send_ping(self);
    else
        SEND(PTR(f[2]), big_sink_done, 0, f[6], f[5]);
    return 0;
}

static int64_t big_start(void *self, void *m)
{
    (void)m;
    big_send_ping(self);
    return 0;
}

static int64_t big(MosArray *args)
{
    int64_t w = arg_int(args, 1, 120), n = arg_int(args, 2, 20000);
    void *sink = new_actor(4, -1);
    FIELDS(sink)[0] = w;
    void **peers = mos_alloc(8 * w);
    for (int64_t i = 0; i < w; i++) {
        peers[i] = new_actor(7, -1);
        int64_t *f = FIELDS(peers[i]);
        f[0] = INT(peers);
        f[1] = w;
        f[2] = INT(sink);
        f[3] = n;
        f[4] = i;
    }
    for (int64_t i = 0; i < w; i++)
        SEND0(peers[i], big_start, 0);
    return 0;
}

/* ---- fork-join throughput (Savina's fjthrput; not in the driver) ------------------ */

/* Worker: [0] theta bits, [1] good */
static int64_t fj_work(void *self, void *m)
{
    (void)m;
    double theta;
    memcpy(&theta, &FIELDS(self)[0], sizeof theta);
    double s = sin(theta), r = s * s;
    if (r > 0.0)
        FIELDS(self)[1]++;
    return 0;
}

static int64_t fj_count(void *self, void *m)
{
    (void)m;
    return FIELDS(self)[1];
}

static int64_t fjthrput(MosArray *args)
{
    int64_t a = arg_int(args, 1, 60), n = arg_int(args, 2, 10000);
    void **w = mos_alloc(8 * a);
    double theta = 37.2;
    for (int64_t i = 0; i < a; i++) {
        w[i] = new_actor(2, -1);
        memcpy(&FIELDS(w[i])[0], &theta, sizeof theta);
    }
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < a; i++)
            SEND0(w[i], fj_work, 0);
    int64_t total = 0;
    for (int64_t i = 0; i < a; i++)
        total += get(SEND0(w[i], fj_count, 1));
    say("fjthrput: actors=%lld messages=%lld", (long long)a,
        (long long)total);
    return 0;
}

/* ---- FIFO from one sender, and from several at once --------------------------- */

/* Receiver: [0] next expected from main, [1..4] next expected from
 * sender k, [5] received, [6] errors, [7] total expected */
#define FIFO_SENDERS 4

static void fifo_received(void *self)
{
    if (++FIELDS(self)[5] == FIELDS(self)[7])
        say("fifo: received=%lld errors=%lld", (long long)FIELDS(self)[5],
            (long long)FIELDS(self)[6]);
}

static int64_t fifo_from_main(void *self, void *m)
{
    if (ARGS(m)[0] != FIELDS(self)[0]++)
        FIELDS(self)[6]++;
    fifo_received(self);
    return 0;
}

static int64_t fifo_from_sender(void *self, void *m)
{
    int64_t k = ARGS(m)[0], seq = ARGS(m)[1];
    if (seq != FIELDS(self)[1 + k]++)
        FIELDS(self)[6]++;
    fifo_received(self);
    return 0;
}

/* Sender: [0] receiver, [1] k; args: count */
static int64_t fifo_sender_go(void *self, void *m)
{
    for (int64_t i = 0; i < ARGS(m)[0]; i++)
        SEND(PTR(FIELDS(self)[0]), fifo_from_sender, 0, FIELDS(self)[1], i);
    return 0;
}

static int64_t fifo(MosArray *args)
{
    int64_t n = arg_int(args, 1, 100000);
    void *r = new_actor(8, -1);
    FIELDS(r)[7] = n + FIFO_SENDERS * n;
    void *senders[FIFO_SENDERS];
    for (int k = 0; k < FIFO_SENDERS; k++) {
        senders[k] = new_actor(2, -1);
        FIELDS(senders[k])[0] = INT(r);
        FIELDS(senders[k])[1] = k;
        SEND(senders[k], fifo_sender_go, 0, n);
    }
    for (int64_t i = 0; i < n; i++)
        SEND(r, fifo_from_main, 0, i);
    return 0;
}

/* ---- causal order across three actors ----------------------------------------- */

/* A sends m1 to C, then m2 to B; B, on m2, sends m3 to C.  m1's send
 * happens before m3's, so C must handle m1 first.  C: [0] last round
 * seen from A, [1] rounds seen from B, [2] violations, [3] rounds;
 * A: [0] B, [1] C; B: [0] C. */
static int64_t c_from_a(void *self, void *m)
{
    FIELDS(self)[0] = ARGS(m)[0];
    return 0;
}

static int64_t c_from_b(void *self, void *m)
{
    if (FIELDS(self)[0] < ARGS(m)[0])
        FIELDS(self)[2]++;
    if (++FIELDS(self)[1] == FIELDS(self)[3])
        say("causal: rounds=%lld violations=%lld", (long long)FIELDS(self)[1],
            (long long)FIELDS(self)[2]);
    return 0;
}

static int64_t b_relay(void *self, void *m)
{
    SEND(PTR(FIELDS(self)[0]), c_from_b, 0, ARGS(m)[0]);
    return 0;
}

static int64_t a_go(void *self, void *m)
{
    SEND(PTR(FIELDS(self)[1]), c_from_a, 0, ARGS(m)[0]);
    SEND(PTR(FIELDS(self)[0]), b_relay, 0, ARGS(m)[0]);
    return 0;
}

static int64_t causal(MosArray *args)
{
    int64_t rounds = arg_int(args, 1, 20000);
    /* several triples, so that the workers have more than one to run */
    for (int t = 0; t < 4; t++) {
        void *a = new_actor(2, -1), *b = new_actor(1, -1), *c = new_actor(4, -1);
        FIELDS(c)[3] = rounds;
        FIELDS(a)[0] = INT(b);
        FIELDS(a)[1] = INT(c);
        FIELDS(b)[0] = INT(c);
        for (int64_t r = 1; r <= rounds; r++)
            SEND(a, a_go, 0, r);
    }
    return 0;
}

/* ---- fork-join with futures ------------------------------------------------------ */

static int64_t square(void *self, void *m)
{
    (void)self;
    return ARGS(m)[0] * ARGS(m)[0];
}

/* An actor that forks and joins itself: sends to its children, gets. */
static int64_t fork_join_inner(void *self, void *m)
{
    void **kids = PTR(FIELDS(self)[0]);
    int64_t n = ARGS(m)[0];
    void **futs = mos_alloc(8 * n);
    for (int64_t i = 0; i < n; i++)
        futs[i] = SEND(kids[i % 8], square, 1, i);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += get(futs[i]);
    return sum;
}

static int64_t forkjoin(MosArray *args)
{
    int64_t workers = 50, per = arg_int(args, 1, 200);
    void **w = mos_alloc(8 * workers);
    for (int64_t i = 0; i < workers; i++)
        w[i] = new_actor(0, -1);
    int64_t n = workers * per;
    void **futs = mos_alloc(8 * n);
    for (int64_t i = 0; i < n; i++)
        futs[i] = SEND(w[i % workers], square, 1, i);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += get(futs[i]);
    /* n(n-1)(2n-1)/6 */
    say("forkjoin: sum=%lld expected=%lld", (long long)sum,
        (long long)((n - 1) * n * (2 * n - 1) / 6));

    void *boss = new_actor(1, -1);
    void **kids = mos_alloc(8 * 8);
    for (int i = 0; i < 8; i++)
        kids[i] = new_actor(0, -1);
    FIELDS(boss)[0] = INT(kids);
    int64_t inner = get(SEND(boss, fork_join_inner, 1, 1000));
    say("forkjoin inside an actor: sum=%lld expected=%lld", (long long)inner,
        (long long)(999LL * 1000 * 1999 / 6));
    return 0;
}

/* ---- 100,000 actors, each getting a message ---------------------------------------- */

static int64_t tally_done(void *self, void *m)
{
    (void)m;
    if (++FIELDS(self)[0] == FIELDS(self)[1])
        say("many: actors=%lld", (long long)FIELDS(self)[0]);
    return 0;
}

static int64_t hello(void *self, void *m)
{
    FIELDS(self)[0] = 1;
    SEND0(PTR(ARGS(m)[0]), tally_done, 0);
    return 0;
}

static int64_t many(MosArray *args)
{
    int64_t n = arg_int(args, 1, 100000);
    void *tally = new_actor(2, -1);
    FIELDS(tally)[1] = n;
    for (int64_t i = 0; i < n; i++)
        SEND(new_actor(1, -1), hello, 0, INT(tally));
    return 0;
}

/* ---- nested gets -------------------------------------------------------------------- */

/* Chain member: [0] next (0 for the last) — its handler gets from the
 * next and adds one: from the first of n, n - 1. */
static int64_t chain_depth(void *self, void *m)
{
    (void)m;
    void *next = PTR(FIELDS(self)[0]);
    if (!next)
        return 0;
    return get(SEND0(next, chain_depth, 1)) + 1;
}

static int64_t chain(MosArray *args)
{
    int64_t n = arg_int(args, 1, 3);
    void *first = NULL;
    for (int64_t i = 0; i < n; i++) {
        void *a = new_actor(1, -1);
        FIELDS(a)[0] = INT(first);
        first = a;
    }
    say("chain: actors=%lld depth=%lld", (long long)n,
        (long long)get(SEND0(first, chain_depth, 1)));
    /* twice: the spare threads of the first chain are reused */
    say("chain again: depth=%lld", (long long)get(SEND0(first, chain_depth, 1)));
    return 0;
}

/* Many actors blocked at once on one slow server. */
static int64_t serve(void *self, void *m)
{
    (void)self;
    return ARGS(m)[0] + 1;
}

static int64_t ask_server(void *self, void *m)
{
    (void)self;
    return get(SEND(PTR(ARGS(m)[0]), serve, 1, ARGS(m)[1]));
}

static int64_t fan(MosArray *args)
{
    int64_t n = arg_int(args, 1, 200);
    void *server = new_actor(0, -1);
    void **futs = mos_alloc(8 * n);
    for (int64_t i = 0; i < n; i++)
        futs[i] = SEND(new_actor(0, -1), ask_server, 1, INT(server), i);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += get(futs[i]);
    say("fan: sum=%lld expected=%lld", (long long)sum,
        (long long)(n * (n + 1) / 2));
    return 0;
}

/* ---- round trips from main, one at a time ---------------------------------------- */

static int64_t echo(void *self, void *m)
{
    (void)self;
    return ARGS(m)[0];
}

static int64_t roundtrips(MosArray *args)
{
    int64_t n = arg_int(args, 1, 20000);
    void *e[3] = { new_actor(0, -1), new_actor(0, -1), new_actor(0, -1) };
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += get(SEND(e[i % 3], echo, 1, i));
    say("roundtrips: n=%lld sum=%lld expected=%lld", (long long)n,
        (long long)sum, (long long)(n * (n - 1) / 2));
    return 0;
}

/* ---- fib through nested gets: a tree of blocked actors ---------------------------- */

static int64_t fibget(void *self, void *m)
{
    (void)self;
    int64_t n = ARGS(m)[0];
    if (n <= 2)
        return 1;
    void *a = SEND(new_actor(0, -1), fibget, 1, n - 1);
    void *b = SEND(new_actor(0, -1), fibget, 1, n - 2);
    return get(a) + get(b);
}

static int64_t fibget_main(MosArray *args)
{
    int64_t n = arg_int(args, 1, 12);
    say("fibget: n=%lld result=%lld", (long long)n,
        (long long)get(SEND(new_actor(0, -1), fibget, 1, n)));
    return 0;
}

/* ---- 100,000 outstanding futures --------------------------------------------------- */

static int64_t futures(MosArray *args)
{
    int64_t n = arg_int(args, 1, 100000);
    void *servers[10];
    for (int i = 0; i < 10; i++)
        servers[i] = new_actor(0, -1);
    void **futs = mos_alloc(8 * n);
    for (int64_t i = 0; i < n; i++)
        futs[i] = SEND(servers[i % 10], serve, 1, i);
    int64_t sum = 0;
    for (int64_t i = n - 1; i >= 0; i--)    /* newest first */
        sum += get(futs[i]);
    say("futures: count=%lld sum=%lld expected=%lld", (long long)n,
        (long long)sum, (long long)(n * (n + 1) / 2));
    return 0;
}

/* ---- the collector while messages are in flight ------------------------------------- */

/* Payload: a list of GC cells whose values derive from a seed; the
 * sender drops every reference, so only the message keeps it alive. */
typedef struct Cell {
    struct Cell *next;
    int64_t value;
} Cell;

#define GC_LIST 16

static Cell *make_list(int64_t seed)
{
    Cell *list = NULL;
    for (int i = 0; i < GC_LIST; i++) {
        Cell *c = mos_alloc(sizeof(Cell));
        c->value = seed * 131 + i;
        c->next = list;
        list = c;
    }
    return list;
}

static int check_list(const Cell *c, int64_t seed)
{
    for (int i = GC_LIST - 1; i >= 0; i--, c = c->next)
        if (!c || c->value != seed * 131 + i)
            return 0;
    return c == NULL;
}

static _Atomic int gc_stop;
static _Atomic int64_t gc_bad;
static _Atomic int64_t gc_checked;
static _Atomic int gc_finished_actors;
static int64_t gc_expected;

/* Counts one checked list; the check that completes the count prints
 * the result (every earlier check has counted its failures by then). */
static void gc_note_checked(void)
{
    if (atomic_fetch_add(&gc_checked, 1) + 1 == gc_expected)
        say("gc: checked=%lld bad=%lld", (long long)gc_expected,
            (long long)atomic_load(&gc_bad));
}

static void *collector_loop(void *unused)
{
    (void)unused;
    while (!atomic_load(&gc_stop))
        GC_gcollect();
    return NULL;
}

/* Passer: [0] next passer, [1] hops left, [2] id; token args: list, seed */
static int64_t pass_token(void *self, void *m)
{
    if (!check_list(PTR(ARGS(m)[0]), ARGS(m)[1]))
        atomic_fetch_add(&gc_bad, 1);
    gc_note_checked();
    /* garbage, so collections have work and freed cells get reused */
    for (int i = 0; i < 64; i++)
        ((Cell *)mos_alloc(sizeof(Cell)))->value = -1;
    if (FIELDS(self)[1]-- > 0) {
        int64_t seed = ARGS(m)[1] + 1;
        SEND(PTR(FIELDS(self)[0]), pass_token, 0, INT(make_list(seed)), seed);
    } else if (atomic_fetch_add(&gc_finished_actors, 1) + 1 == 8) {
        atomic_store(&gc_stop, 1);
    }
    return 0;
}

/* Sink: checks lists that waited in its mailbox. */
static int64_t sink_check(void *self, void *m)
{
    (void)self;
    if (!check_list(PTR(ARGS(m)[0]), ARGS(m)[1]))
        atomic_fetch_add(&gc_bad, 1);
    gc_note_checked();
    return 0;
}

static int64_t gcstress(MosArray *args)
{
    int64_t hops = arg_int(args, 1, 2000), queued = arg_int(args, 2, 100000);
    /* each of the 8 passers gets hops + 1 tokens */
    gc_expected = 8 * (hops + 1) + queued;
    pthread_t t;
    pthread_create(&t, NULL, collector_loop, NULL);
    /* 8 passers in a ring, 8 tokens in flight */
    void *p[8];
    for (int i = 0; i < 8; i++)
        p[i] = new_actor(3, -1);
    for (int i = 0; i < 8; i++) {
        FIELDS(p[i])[0] = INT(p[(i + 1) % 8]);
        FIELDS(p[i])[1] = hops;
        FIELDS(p[i])[2] = i;
    }
    for (int i = 0; i < 8; i++)
        SEND(p[i], pass_token, 0, INT(make_list(i * 1000000)), i * 1000000);
    /* a sink whose mailbox fills up: lists that only a queued message
     * holds, through the actor's header */
    void *sink = new_actor(0, -1);
    for (int64_t i = 0; i < queued; i++)
        SEND(sink, sink_check, 0, INT(make_list(-i)), -i);
    sink = NULL;
    /* actors reachable only from run queues: created, sent to, dropped */
    for (int i = 0; i < 1000; i++)
        SEND(new_actor(1, -1), hello, 0, INT(new_actor(2, -1)));
    pthread_detach(t);
    return 0;
}

/* ---- nothing retained: handled messages are garbage --------------------------------- */

/* Payloads of 64 KiB go through one mailbox, 16 at a time (main waits
 * for the 16th to be handled before sending more, so never more than 16
 * are queued): 256 MiB in all.  If handled messages stayed reachable
 * (through the mailbox's links, or the last one through the idle actor's
 * mailbox), the heap would grow to hold them all. */
#define PAYLOAD_BYTES 65536

static int64_t swallow(void *self, void *m)
{
    (void)self;
    char *p = PTR(ARGS(m)[0]);
    return p[0] + p[PAYLOAD_BYTES - 1];
}

static int64_t retention(MosArray *args)
{
    int64_t n = arg_int(args, 1, 4096);
    void *a = new_actor(0, -1);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
        char *p = mos_alloc_atomic(PAYLOAD_BYTES);
        p[0] = 1;
        p[PAYLOAD_BYTES - 1] = 1;
        if (i % 16 == 15)
            sum += get(SEND(a, swallow, 1, INT(p)));
        else
            SEND(a, swallow, 0, INT(p));
    }
    size_t heap = GC_get_heap_size();
    say("retention: sum=%lld heap %s", (long long)sum,
        heap < ((size_t)64 << 20) ? "bounded" : "grew");
    if (heap >= ((size_t)64 << 20))
        fprintf(stderr, "heap: %zu bytes\n", heap);
    return 0;
}

/* ---- deadlocks ------------------------------------------------------------------- */

/* A future nobody will ever fulfil: its message is never sent. */
static void *orphan_future(void)
{
    RtMessage *m = mos_message_new(MOS_MESSAGE_HEADER_SIZE, square, 1);
    /* mos_send is what hands out the future; without it, take it from
     * the runtime's header */
    return m->future;
}

static int64_t wait_orphan(void *self, void *m)
{
    (void)self, (void)m;
    return mos_future_get(orphan_future(), "t.mos:2:2");
}

/* A: gets from B; B: gets from A (A is busy waiting, so never). */
static int64_t cycle_b(void *self, void *m)
{
    (void)self;
    return mos_future_get(SEND0(PTR(ARGS(m)[0]), square, 1), "t.mos:4:4");
}

static int64_t cycle_a(void *self, void *m)
{
    return mos_future_get(SEND(PTR(ARGS(m)[0]), cycle_b, 1, INT(self)),
                          "t.mos:5:5");
}

static int64_t deadlock(MosArray *args)
{
    const char *how = ((MosString **)(void *)args->data)[1]->bytes;
    say("before");
    if (strcmp(how, "main") == 0)
        return mos_future_get(orphan_future(), "t.mos:3:3");
    if (strcmp(how, "actor") == 0)
        return mos_future_get(SEND0(new_actor(0, -1), wait_orphan, 1),
                              "t.mos:3:3");
    if (strcmp(how, "cycle") == 0)
        return mos_future_get(SEND(new_actor(0, -1), cycle_a, 1,
                                   INT(new_actor(0, -1))),
                              "t.mos:3:3");
    if (strcmp(how, "after-main") == 0) {
        SEND0(new_actor(0, -1), wait_orphan, 0);
        return 0;
    }
    return 0;
}

/* ---- runtime errors in actors ------------------------------------------------------ */

static int64_t chatter(void *self, void *m)
{
    for (int i = 0; i < 200; i++)
        say("chatter %lld line %d", (long long)ARGS(m)[0], i);
    if (ARGS(m)[1])
        mos_panic("t.mos:6:6", "division by zero");
    (void)self;
    return 0;
}

static int64_t actor_panic(MosArray *args)
{
    (void)args;
    /* 8 actors print; 3 of them then fail, possibly at the same time */
    for (int i = 0; i < 8; i++)
        SEND(new_actor(0, -1), chatter, 0, i, i % 3 == 0);
    return 0;
}

#define CHECK_STACK(where)                                                  \
    do {                                                                    \
        if ((char *)__builtin_frame_address(0) < mos_stack_limit)          \
            mos_panic((where), "stack overflow");                           \
    } while (0)

static volatile int never;

static int64_t recurse(int64_t n)
{
    volatile char pad[64];
    CHECK_STACK("t.mos:7:7");
    pad[0] = (char)n;
    if (never)
        return 0;
    return recurse(n + 1) + pad[0];
}

static int64_t overflow_run(void *self, void *m)
{
    (void)self, (void)m;
    return recurse(0);
}

static int64_t overflow(MosArray *args)
{
    (void)args;
    say("deep");
    SEND0(new_actor(0, -1), overflow_run, 0);
    return 0;
}

static int64_t null_get(MosArray *args)
{
    (void)args;
    return mos_future_get(NULL, "t.mos:8:8");
}

static int64_t null_send(MosArray *args)
{
    (void)args;
    new_actor(0, -1);
    mos_send(NULL, mos_message_new(MOS_MESSAGE_HEADER_SIZE, square, 0),
             "t.mos:9:9");
    return 0;
}

/* ---- nodes ---------------------------------------------------------------------------- */

static int64_t report_node(void *self, void *m)
{
    (void)self, (void)m;
    return mos_node_id();
}

/* creates an actor on the caller's node (-1) and asks it its node */
static int64_t spawn_here(void *self, void *m)
{
    (void)self, (void)m;
    return get(SEND0(new_actor(0, -1), report_node, 1));
}

static int64_t nodes(MosArray *args)
{
    (void)args;
    int64_t n = mos_nodes();
    say("nodes=%lld main=%lld", (long long)n, (long long)mos_node_id());
    for (int64_t k = 0; k < n; k++)
        say("node(%lld): %lld, here there: %lld", (long long)k,
            (long long)get(SEND0(new_actor(0, k), report_node, 1)),
            (long long)get(SEND0(new_actor(0, k), spawn_here, 1)));
    say("node(%lld) is node %lld", (long long)(n + 1),
        (long long)get(SEND0(new_actor(0, n + 1), report_node, 1)));
    return 0;
}

/* ---- fairness ------------------------------------------------------------------------- */

/* A and B pass a ball through the worker's slot until C, scheduled after
 * them, sets the flag; an unfair scheduler would never run C on one
 * worker. */
static _Atomic int fair_stop;

static int64_t ball(void *self, void *m)
{
    if (!atomic_load(&fair_stop))
        SEND(PTR(ARGS(m)[0]), ball, 0, INT(self));
    return 0;
}

static int64_t stopper(void *self, void *m)
{
    (void)self, (void)m;
    atomic_store(&fair_stop, 1);
    say("fair: stopped");
    return 0;
}

static int64_t fair(MosArray *args)
{
    (void)args;
    void *a = new_actor(0, -1), *b = new_actor(0, -1);
    SEND(a, ball, 0, INT(b));
    SEND0(new_actor(0, -1), stopper, 0);
    return 0;
}

/* ---- exit status after quiescence ------------------------------------------------------ */

static int64_t late_print(void *self, void *m)
{
    (void)self;
    if (ARGS(m)[0] > 0)
        SEND(self, late_print, 0, ARGS(m)[0] - 1);
    else
        say("late");
    return 0;
}

static int64_t status(MosArray *args)
{
    (void)args;
    SEND(new_actor(0, -1), late_print, 0, 1000);
    return 5;
}

/* ---- the child side ---------------------------------------------------------------------- */

typedef struct {
    const char *name;
    int64_t (*run)(MosArray *);
} Scenario;

static const Scenario scenarios[] = {
    { "pingpong", pingpong },   { "counting", counting },
    { "threadring", threadring }, { "fifo", fifo },
    { "causal", causal },       { "forkjoin", forkjoin },
    { "many", many },           { "chain", chain },
    { "fan", fan },             { "futures", futures },
    { "gc", gcstress },         { "deadlock", deadlock },
    { "panic", actor_panic },   { "overflow", overflow },
    { "null-get", null_get },   { "null-send", null_send },
    { "nodes", nodes },         { "fair", fair },
    { "status", status },       { "fib", fib },
    { "big", big },             { "roundtrips", roundtrips },
    { "fibget", fibget_main },  { "fjthrput", fjthrput },
    { "retention", retention },
};

/* ---- the driver --------------------------------------------------------------------------- */

static int test_count, failures;

typedef struct {
    int status;         /* exit status, or 1000 + signal */
    double seconds;
    char *out, *err;
} Run;

static void ok(int cond, const char *what)
{
    test_count++;
    if (!cond)
        failures++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", test_count, what);
    fflush(stdout);
}

static char *slurp(int fd)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    close(fd);
    return buf;
}

static int temp_file(void)
{
    char name[] = "/tmp/test_sched.XXXXXX";
    int fd = mkstemp(name);
    if (fd >= 0)
        unlink(name);
    return fd;
}

/* Seconds a child may run before the alarm kills it. */
#define CHILD_LIMIT 120

/* Runs this program with the arguments (NULL-terminated, after argv[0])
 * and environment settings (NULL-terminated "K=V" strings). */
static Run run(const char *const *argv, const char *const *env)
{
    Run r = { .status = -1 };
    int out = temp_file(), err = temp_file();
    const char *full[16] = { "test_sched" };
    for (int i = 0; argv[i] && i < 14; i++)
        full[i + 1] = argv[i];
    fflush(stdout);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        alarm(CHILD_LIMIT);
        execv("/proc/self/exe", (char **)full);
        _exit(127);
    }
    int st;
    if (pid > 0 && waitpid(pid, &st, 0) == pid)
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) +
                (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

static void show(const char *label, const Run *r)
{
    printf("#   %s: status %d, %.3f s\n", label, r->status, r->seconds);
    const char *parts[2] = { r->out, r->err };
    for (int k = 0; k < 2; k++) {
        int lines = 0;
        for (const char *p = parts[k]; *p && lines < 10; lines++) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            printf("#   %s| %.*s\n", k ? "err" : "out", n, p);
            p += n + (nl ? 1 : 0);
        }
    }
}

/* Runs a scenario and checks status, stdout and stderr exactly. */
static void expect(const char *what, const char *const *argv,
                   const char *const *env, int status, const char *out,
                   const char *err)
{
    Run r = run(argv, env);
    int good = r.status == status && strcmp(r.out, out) == 0 &&
               strcmp(r.err, err) == 0;
    ok(good, what);
    if (!good)
        show("child", &r);
    else
        printf("#   %.3f s\n", r.seconds);
    free(r.out);
    free(r.err);
}

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define ENV(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOENV ((const char *const *)NULL)

static void panic_output_ok(const char *const *env)
{
    Run r = run(ARGV("panic"), env);
    /* stdout: only whole lines "chatter K line I"; stderr: the error,
     * once */
    int lines_ok = 1;
    for (const char *p = r.out; *p;) {
        long long k;
        int i, used = 0;
        if (sscanf(p, "chatter %lld line %d%n", &k, &i, &used) != 2 ||
            p[used] != '\n') {
            lines_ok = 0;
            break;
        }
        p += used + 1;
    }
    int good = r.status == 101 && lines_ok &&
               strcmp(r.err, "t.mos:6:6: runtime error: division by zero\n") == 0;
    ok(good, env ? "a panic in an actor: one message, status 101, whole "
                   "lines before it (MOSAIC_THREADS=1)"
                 : "a panic in an actor: one message, status 101, whole "
                   "lines before it");
    if (!good)
        show("child", &r);
    free(r.out);
    free(r.err);
}

static int64_t driver(void)
{
    expect("ping-pong, 40000 round trips", ARGV("pingpong", "40000"), NOENV,
           0, "pingpong: pings=40000\n", "");
    expect("ping-pong with pinned workers", ARGV("pingpong", "1000"),
           ENV("MOSAIC_PIN=1"), 0, "pingpong: pings=1000\n", "");
    expect("counting: 1000000 messages to one actor, then get",
           ARGV("counting", "1000000"), NOENV, 0,
           "counting: count=1000000\n", "");
    expect("thread ring: 100 actors, 100000 hops",
           ARGV("threadring", "100", "100000"), NOENV, 0,
           "threadring: hops=100000 last=0\n", "");
    expect("fib(25): 150049 actors, answers as messages", ARGV("fib", "25"),
           NOENV, 0, "fib: n=25 result=75025\n", "");
    expect("big: 120 actors ping each other 20000 times each",
           ARGV("big", "120", "20000"), NOENV, 0,
           "big: workers=120 pings=2400000 checksum=142817704\n", "");
    expect("FIFO from main and from 4 senders at once",
           ARGV("fifo", "100000"), NOENV, 0,
           "fifo: received=500000 errors=0\n", "");
    expect("FIFO with 4 workers on 2 cores", ARGV("fifo", "50000"),
           ENV("MOSAIC_THREADS=4"), 0, "fifo: received=250000 errors=0\n",
           "");
    const char *causal_out = "causal: rounds=20000 violations=0\n"
                             "causal: rounds=20000 violations=0\n"
                             "causal: rounds=20000 violations=0\n"
                             "causal: rounds=20000 violations=0\n";
    expect("causal order across three actors", ARGV("causal", "20000"),
           NOENV, 0, causal_out, "");
    expect("causal order with 4 workers", ARGV("causal", "20000"),
           ENV("MOSAIC_THREADS=4"), 0, causal_out, "");
    const char *fj = "forkjoin: sum=333283335000 expected=333283335000\n"
                     "forkjoin inside an actor: sum=332833500 "
                     "expected=332833500\n";
    expect("fork-join with futures", ARGV("forkjoin", "200"), NOENV, 0, fj,
           "");
    expect("fork-join with futures, one worker", ARGV("forkjoin", "200"),
           ENV("MOSAIC_THREADS=1"), 0, fj, "");
    expect("100000 actors each get a message", ARGV("many", "100000"), NOENV,
           0, "many: actors=100000\n", "");
    expect("nested get A->B->C with one worker", ARGV("chain", "3"),
           ENV("MOSAIC_THREADS=1"), 0,
           "chain: actors=3 depth=2\nchain again: depth=2\n", "");
    expect("a chain of 50 nested gets with one worker", ARGV("chain", "50"),
           ENV("MOSAIC_THREADS=1"), 0,
           "chain: actors=50 depth=49\nchain again: depth=49\n", "");
    expect("a chain of 50 nested gets with two workers", ARGV("chain", "50"),
           ENV("MOSAIC_THREADS=2"), 0,
           "chain: actors=50 depth=49\nchain again: depth=49\n", "");
    expect("200 actors blocked in get at once, one worker",
           ARGV("fan", "200"), ENV("MOSAIC_THREADS=1"), 0,
           "fan: sum=20100 expected=20100\n", "");
    expect("20000 round trips from main, one at a time",
           ARGV("roundtrips", "20000"), NOENV, 0,
           "roundtrips: n=20000 sum=199990000 expected=199990000\n", "");
    expect("the same with 4 workers", ARGV("roundtrips", "20000"),
           ENV("MOSAIC_THREADS=4"), 0,
           "roundtrips: n=20000 sum=199990000 expected=199990000\n", "");
    expect("fib(12) through nested gets, one worker", ARGV("fibget", "12"),
           ENV("MOSAIC_THREADS=1"), 0, "fibget: n=12 result=144\n", "");
    expect("fib(12) through nested gets", ARGV("fibget", "12"), NOENV, 0,
           "fibget: n=12 result=144\n", "");
    expect("100000 outstanding futures", ARGV("futures", "100000"), NOENV, 0,
           "futures: count=100000 sum=5000050000 expected=5000050000\n", "");
    expect("100000 outstanding futures, one worker",
           ARGV("futures", "100000"), ENV("MOSAIC_THREADS=1"), 0,
           "futures: count=100000 sum=5000050000 expected=5000050000\n", "");
    expect("collections while messages are in flight",
           ARGV("gc", "2000", "100000"), NOENV, 0,
           "gc: checked=116008 bad=0\n", "");
    expect("collections while messages are in flight, 4 workers",
           ARGV("gc", "1000", "50000"), ENV("MOSAIC_THREADS=4"), 0,
           "gc: checked=58008 bad=0\n", "");

    /* GC_DONT_GC=1 (the TSan run of .ci/run) leaves the collector off:
     * nothing can be shown to be collected then */
    if (getenv("GC_DONT_GC")) {
        printf("ok %d - handled messages are garbage # SKIP GC_DONT_GC: the collector is off\n",
               ++test_count);
    } else {
        expect("handled messages are garbage: 256 MiB through one mailbox",
               ARGV("retention", "4096"), NOENV, 0,
               "retention: sum=512 heap bounded\n", "");
    }

    /* the message, then every waiter, main first, then by place */
#define DL_MAIN "t.mos:3:3: runtime error: deadlock: main is waiting on a " \
                "future that can never be fulfilled\n  main waits at t.mos:3:3\n"
    expect("deadlock: main waits on a future never sent",
           ARGV("deadlock", "main"), NOENV, 101, "before\n", DL_MAIN);
    expect("deadlock: main waits on an actor that waits forever",
           ARGV("deadlock", "actor"), NOENV, 101, "before\n",
           DL_MAIN "  an actor waits at t.mos:2:2\n");
    expect("deadlock: the same with one worker", ARGV("deadlock", "actor"),
           ENV("MOSAIC_THREADS=1"), 101, "before\n",
           DL_MAIN "  an actor waits at t.mos:2:2\n");
    expect("deadlock: two actors wait on each other",
           ARGV("deadlock", "cycle"), NOENV, 101, "before\n",
           DL_MAIN "  an actor waits at t.mos:4:4\n  an actor waits at t.mos:5:5\n");
    expect("deadlock: an actor waits forever after main returned",
           ARGV("deadlock", "after-main"), NOENV, 101, "before\n",
           "t.mos:2:2: runtime error: deadlock: an actor is waiting on a "
           "future that can never be fulfilled\n  an actor waits at t.mos:2:2\n");
#undef DL_MAIN

    panic_output_ok(NOENV);
    panic_output_ok(ENV("MOSAIC_THREADS=1"));
    expect("stack overflow in an actor is a runtime error",
           ARGV("overflow"), ENV("MOSAIC_STACK_SIZE=16M"), 101, "deep\n",
           "t.mos:7:7: runtime error: stack overflow\n");
    expect("get of null", ARGV("null-get"), NOENV, 101, "",
           "t.mos:8:8: runtime error: null dereference\n");
    expect("send to null", ARGV("null-send"), NOENV, 101, "",
           "t.mos:9:9: runtime error: null dereference\n");

    expect("one node; actors report their node",
           ARGV("nodes"), ENV("MOSAIC_NODES=1", "MOSAIC_THREADS=2"), 0,
           "nodes=1 main=0\nnode(0): 0, here there: 0\n"
           "node(2) is node 0\n", "");
    expect("MOSAIC_NODES=2: actors run with their node's id",
           ARGV("nodes"), ENV("MOSAIC_NODES=2", "MOSAIC_THREADS=2"), 0,
           "nodes=2 main=0\nnode(0): 0, here there: 0\n"
           "node(1): 1, here there: 1\nnode(3) is node 1\n", "");
    expect("MOSAIC_NODES=3 with one worker", ARGV("nodes"),
           ENV("MOSAIC_NODES=3", "MOSAIC_THREADS=1"), 0,
           "nodes=3 main=0\nnode(0): 0, here there: 0\n"
           "node(1): 1, here there: 1\nnode(2): 2, here there: 2\n"
           "node(4) is node 1\n", "");
    expect("fairness: a slot ping-pong does not starve others (1 worker)",
           ARGV("fair"), ENV("MOSAIC_THREADS=1"), 0, "fair: stopped\n", "");
    expect("the program ends at quiescence with main's status",
           ARGV("status"), NOENV, 5, "late\n", "");

    printf("1..%d\n", test_count);
    fflush(stdout);
    return failures ? 1 : 0;
}

/* TEST_SCHED_TIME=1: the child prints, at exit, the seconds from the
 * start of mos_program_main to the end (quiescence included). */
static double time_start;

static void print_time(void)
{
    fprintf(stderr, "time: %.4f s\n", mos_clock() - time_start);
}

int64_t mos_program_main(MosArray *args)
{
    if (args->length == 0)
        return driver();
    if (getenv("TEST_SCHED_TIME")) {
        time_start = mos_clock();
        atexit(print_time);
    }
    const char *name = ((MosString **)(void *)args->data)[0]->bytes;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (strcmp(name, scenarios[i].name) == 0)
            return scenarios[i].run(args);
    fprintf(stderr, "test_sched: unknown scenario '%s'\n", name);
    return 2;
}
