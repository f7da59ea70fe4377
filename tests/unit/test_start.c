/* test_start.c — the runtime's main() and the program thread, end to end.
 *
 * This file plays the compiled program: it defines mos_program_main and
 * links with the whole libmosaicrt.a, so the runtime's own main() (start.c)
 * starts it exactly as it starts a Mosaic program.  Run without arguments,
 * it is a TAP test: it checks from inside the program thread what main()
 * promised (a stack limit, a stack deep enough for recursion far beyond
 * the usual 8 MiB, the collector scanning that stack), then runs itself
 * again (/proc/self/exe) with arguments that select one behaviour — echo
 * the arguments, return a status, overflow the stack, panic — and checks
 * each child's stdout, stderr and exit status.
 *
 * Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gc.h>

#include "stdlib/mosaic_rt.h"

#define CHECK_STACK(where)                                                  \
    do {                                                                    \
        if ((char *)__builtin_frame_address(0) < mos_stack_limit)          \
            mos_panic((where), "stack overflow");                           \
    } while (0)

static int test_count, failures;

static void ok(int cond, const char *what)
{
    test_count++;
    if (!cond)
        failures++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", test_count, what);
    fflush(stdout);
}

static const char *arg(MosArray *args, int64_t i)
{
    return ((MosString **)(void *)args->data)[i]->bytes;
}

/* ---- what the child runs ------------------------------------------------- */

typedef struct Cell {
    struct Cell *next;
    int64_t value;
} Cell;

static volatile int never;

/* One heap cell per frame, in an atomic block (never scanned), so each
 * cell is kept alive only by the frames that hold its address; the oldest
 * ones are near the base of a stack tens of MiB deep.  The garbage made
 * at the bottom, of the cells' own size and kind, forces collections
 * while the stack is deep: a collector that did not scan all of it would
 * free live cells and hand them out again, overwritten. */
static int64_t deep(int64_t n, Cell *list)
{
    volatile char pad[200];     /* ~256-byte frames */
    CHECK_STACK("start.mos:1:1");
    pad[0] = 1;
    Cell *c = mos_alloc_atomic(sizeof *c);
    c->next = list;
    c->value = n;
    if (n == 0) {
        for (int i = 0; i < 1000000; i++) {
            Cell *g = mos_alloc_atomic(sizeof *g);
            g->value = 1000000007;
        }
        GC_gcollect();
        int64_t sum = 0;
        for (Cell *p = c; p; p = p->next)
            sum += p->value;
        return sum;
    }
    /* c is used after the call, so it stays in this frame */
    return deep(n - 1, c) + pad[0] - 1 + (c->value - n);
}

static int64_t forever(int64_t n)
{
    volatile char pad[64];
    CHECK_STACK("start.mos:3:7");
    pad[0] = (char)n;
    if (never)
        return 0;
    return forever(n + 1) + pad[0];
}

static int64_t child_main(MosArray *args)
{
    const char *mode = arg(args, 0);
    if (strcmp(mode, "echo") == 0) {
        mos_print_int(args->length, 1);
        for (int64_t i = 1; i < args->length; i++)
            mos_print_string(((MosString **)(void *)args->data)[i], 1);
    } else if (strcmp(mode, "status") == 0) {
        return mos_parse_int(((MosString **)(void *)args->data)[1], "s:1:1");
    } else if (strcmp(mode, "overflow") == 0) {
        mos_print_string(mos_string_from_bool(1), 1);
        forever(0);
    } else if (strcmp(mode, "panic") == 0) {
        mos_print_string(mos_string_from_float(0.5), 0);
        mos_panic("start.mos:4:4", "index out of bounds: 5 >= 3");
    }
    return 0;
}

/* ---- the test driver ----------------------------------------------------- */

typedef struct {
    int status;
    char out[4096];
    char err[4096];
} Run;

static void read_all(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || (len += (size_t)n) == cap - 1)
            break;
    }
    buf[len] = '\0';
}

/* Runs this executable with argv (NULL-terminated, argv[0] included) and
 * one extra environment variable (or NULL). */
static Run run_self(char **argv, const char *env)
{
    Run r;
    memset(&r, 0, sizeof r);
    r.status = -1;
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0)
        return r;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(err[0]);
        if (env)
            putenv((char *)env);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    read_all(out[0], r.out, sizeof r.out);
    read_all(err[0], r.err, sizeof r.err);
    close(out[0]);
    close(err[0]);
    int st;
    if (pid > 0 && waitpid(pid, &st, 0) == pid)
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
    return r;
}

static int64_t driver(void)
{
    char here;
    ok(mos_stack_limit != NULL && mos_stack_limit < &here,
       "the program thread has a stack limit below its frames");
    ok(&here - mos_stack_limit > (ptrdiff_t)64 << 20,
       "the program thread's stack is far larger than 8 MiB");

    /* the collector knows this thread, and scans its stack from here up
     * to the base of this thread's (large) stack */
    struct GC_stack_base sb;
    memset(&sb, 0, sizeof sb);
    GC_get_my_stackbottom(&sb);
    ok(sb.mem_base != NULL && (char *)sb.mem_base > &here &&
       (char *)sb.mem_base - &here < (ptrdiff_t)1 << 20 &&
       (char *)sb.mem_base - mos_stack_limit > (ptrdiff_t)64 << 20,
       "the collector scans the program thread's whole stack");

    /* 100000 frames of ~256 bytes: 25 MiB, three times the usual stack */
    ok(deep(100000, NULL) == (int64_t)100000 * 100001 / 2,
       "deep recursion works, and collections keep what deep frames hold");

    char *echo[] = { "self", "echo", "a b", "", "\xc3\xbc", NULL };
    Run r = run_self(echo, NULL);
    ok(r.status == 0 && strcmp(r.out, "4\na b\n\n\xc3\xbc\n") == 0 &&
       r.err[0] == '\0',
       "args are the arguments without the program's name");

    char *status300[] = { "self", "status", "300", NULL };
    r = run_self(status300, NULL);
    ok(r.status == 300 % 256, "main's result is the exit status (low 8 bits)");
    char *status_neg[] = { "self", "status", "-1", NULL };
    r = run_self(status_neg, NULL);
    ok(r.status == 255, "a result of -1 exits with 255");

    char *overflow[] = { "self", "overflow", NULL };
    r = run_self(overflow, "MOSAIC_STACK_SIZE=16M");
    ok(r.status == 101 && strcmp(r.out, "true\n") == 0 &&
       strcmp(r.err, "start.mos:3:7: runtime error: stack overflow\n") == 0,
       "unbounded recursion is a stack overflow error (MOSAIC_STACK_SIZE=16M)");

    char *panic[] = { "self", "panic", NULL };
    r = run_self(panic, NULL);
    ok(r.status == 101 && strcmp(r.out, "0.5") == 0 &&
       strcmp(r.err, "start.mos:4:4: runtime error: "
                     "index out of bounds: 5 >= 3\n") == 0,
       "a panic in the program flushes stdout, reports, exits 101");

    printf("1..%d\n", test_count);
    fflush(stdout);
    return failures ? 1 : 0;
}

int64_t mos_program_main(MosArray *args)
{
    return args->length == 0 ? driver() : child_main(args);
}
