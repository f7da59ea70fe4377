/* test_runtime.c — unit tests of the runtime library's sequential core.
 *
 * Strings (construction, concatenation, equality and ordering with
 * embedded NULs), numbers as text, parse_int and int(float) accepting and
 * refusing, arrays' default values, allocation, printing, the panic
 * protocol (stdout flushed first, one line on stderr, status 101) and
 * stack overflow, both through the check generated code makes and through
 * the fault handler.
 *
 * Whatever ends the process (every runtime error) runs in a forked child,
 * whose stdout, stderr and exit status the parent collects.  This program
 * has its own main(), so it links against libmosaicrt.a without start.o
 * (see stdlib/rt_internal.h); it initialises the collector itself, with
 * fork handling on since children allocate.
 *
 * Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gc.h>

#include "stdlib/mosaic_rt.h"
#include "stdlib/rt_internal.h"

static int test_count;
static int failures;

typedef struct {
    int status;         /* exit status, or 1000 + signal number */
    char out[4096];
    char err[4096];
} Child;

/* The last child run, described after a failing check. */
static Child last_child;
static int have_child;

/* Prints text as "# " lines (TAP diagnostics). */
static void diag(const char *label, const char *text)
{
    printf("#   %s: ", label);
    for (const char *p = text; *p; p++) {
        putchar(*p);
        if (*p == '\n' && p[1])
            fputs("#     ", stdout);
    }
    if (!*text || text[strlen(text) - 1] != '\n')
        putchar('\n');
}

static void ok(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One TAP line; after a failure, what the last child printed. */
static void ok(int cond, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    test_count++;
    if (!cond)
        failures++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", test_count, line);
    if (!cond && have_child) {
        printf("#   last child: status %d\n", last_child.status);
        diag("stdout", last_child.out);
        diag("stderr", last_child.err);
    }
    fflush(stdout);
}

static MosString *str(const char *s)
{
    return rt_string_new(s, (int64_t)strlen(s));
}

static MosString *bytes(const char *s, int64_t n)
{
    return rt_string_new(s, n);
}

static int is(const MosString *s, const char *bytes_, int64_t n)
{
    return s->length == n && memcmp(s->bytes, bytes_, (size_t)n) == 0 &&
           s->bytes[n] == '\0';
}

/* ---- running something that ends the process ---------------------------- */

typedef void ChildFn(void *arg);

static void read_all(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
        if (len == cap - 1)
            break;
    }
    buf[len] = '\0';
}

/* Runs fn(arg) in a child; the child exits 0 if fn returns.  Outputs are
 * small, so reading stdout to its end before stderr cannot deadlock. */
static Child run_child(ChildFn *fn, void *arg)
{
    Child c;
    memset(&c, 0, sizeof c);
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) {
        c.status = -1;
        return c;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(err[0]);
        close(out[1]);
        close(err[1]);
        fn(arg);
        rt_print_flush();
        exit(0);
    }
    close(out[1]);
    close(err[1]);
    read_all(out[0], c.out, sizeof c.out);
    read_all(err[0], c.err, sizeof c.err);
    close(out[0]);
    close(err[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    c.status = WIFEXITED(st) ? WEXITSTATUS(st)
             : WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : -1;
    last_child = c;
    have_child = 1;
    return c;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- strings ------------------------------------------------------------- */

static void test_strings(void)
{
    MosString *ab = str("ab"), *cd = str("cd");
    MosString *abcd = mos_string_concat(ab, cd);
    ok(is(abcd, "abcd", 4), "concat \"ab\" + \"cd\" is \"abcd\", NUL-terminated");
    ok(is(ab, "ab", 2) && is(cd, "cd", 2), "concat leaves its operands alone");
    MosString *empty = rt_empty_string();
    ok(is(empty, "", 0), "the empty string has length 0");
    ok(mos_string_concat(empty, ab) == ab && mos_string_concat(ab, empty) == ab,
       "concat with \"\" returns the other operand");
    ok(is(mos_string_concat(empty, empty), "", 0), "\"\" + \"\" is \"\"");

    MosString *nul1 = bytes("a\0b", 3), *nul2 = bytes("a\0b", 3);
    MosString *nul3 = bytes("a\0c", 3), *a = bytes("a", 1);
    ok(nul1->length == 3, "a string may hold NUL bytes");
    ok(is(mos_string_concat(nul1, nul3), "a\0ba\0c", 6), "concat keeps NULs");
    ok(mos_string_eq(nul1, nul2) == 1, "eq compares contents, past NULs");
    ok(mos_string_eq(nul1, nul3) == 0, "eq sees the byte after a NUL");
    ok(mos_string_eq(nul1, a) == 0, "eq: \"a\\0b\" != \"a\"");
    ok(mos_string_eq(str("x"), str("x")) == 1, "eq on equal strings from different blocks");
    ok(mos_string_eq(empty, str("")) == 1, "eq on empty strings");
    ok(mos_string_eq(NULL, empty) == 1, "eq reads a NULL string as \"\"");

    ok(mos_string_cmp(str("abc"), str("abd")) < 0, "cmp: abc < abd");
    ok(mos_string_cmp(str("abd"), str("abc")) > 0, "cmp: abd > abc");
    ok(mos_string_cmp(str("ab"), str("abc")) < 0, "cmp: a prefix is smaller");
    ok(mos_string_cmp(str("abc"), str("ab")) > 0, "cmp: longer is larger after a common prefix");
    ok(mos_string_cmp(str("abc"), str("abc")) == 0, "cmp: equal contents");
    ok(mos_string_cmp(empty, str("a")) < 0, "cmp: \"\" < \"a\"");
    ok(mos_string_cmp(bytes("a\0", 2), a) > 0, "cmp: \"a\\0\" > \"a\" (length counts)");
    ok(mos_string_cmp(nul1, nul3) < 0, "cmp: looks past NULs");
    ok(mos_string_cmp(str("\xc3\xa9"), str("z")) > 0, "cmp: bytes are unsigned (UTF-8 after ASCII)");

    ok(is(mos_string_from_int(0), "0", 1), "from_int 0");
    ok(is(mos_string_from_int(-42), "-42", 3), "from_int -42");
    ok(is(mos_string_from_int(INT64_MAX), "9223372036854775807", 19), "from_int INT64_MAX");
    ok(is(mos_string_from_int(INT64_MIN), "-9223372036854775808", 20), "from_int INT64_MIN");
    ok(is(mos_string_from_bool(1), "true", 4), "from_bool true");
    ok(is(mos_string_from_bool(0), "false", 5), "from_bool false");
    ok(is(mos_string_from_float(0.5), "0.5", 3), "from_float 0.5");
    ok(is(mos_string_from_float(1e16), "1e+16", 5), "from_float 1e16");
    ok(is(mos_string_from_float(-0.0), "-0.0", 4), "from_float -0.0");
    MosString *mixed = mos_string_concat(str("x="), mos_string_from_float(2.0));
    ok(is(mixed, "x=2.0", 5), "\"x=\" + 2.0 is \"x=2.0\"");
}

/* rt_copy_bytes copies exactly n bytes, for every n around its cases,
 * touching nothing before or after them. */
static void test_copy_bytes(void)
{
    char src[64], dst[80];
    int bad = 0;
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (char)('A' + i);
    for (size_t n = 0; n <= 40; n++) {
        memset(dst, '#', sizeof dst);
        rt_copy_bytes(dst + 8, src, n);
        if (memcmp(dst + 8, src, n) != 0)
            bad++;
        for (size_t i = 0; i < sizeof dst; i++)
            if ((i < 8 || i >= 8 + n) && dst[i] != '#')
                bad++;
    }
    ok(bad == 0, "rt_copy_bytes copies 0 to 40 bytes exactly");
}

/* Every int around a power of ten, each sign: rt_int_length and
 * rt_format_int agree with snprintf. */
static void test_format_int(void)
{
    int bad = 0;
    char want[32], got[RT_INT_BUF];
    for (int k = 0; k <= 19; k++) {
        uint64_t p = 1;
        for (int j = 0; j < k; j++)
            p *= 10;
        for (int d = -2; d <= 2; d++) {
            uint64_t u = p + (uint64_t)(int64_t)d;
            for (int neg = 0; neg < 2; neg++) {
                int64_t v = neg ? (int64_t)(0 - u) : (int64_t)u;
                snprintf(want, sizeof want, "%lld", (long long)v);
                int n = rt_format_int(v, got);
                if (n != (int)strlen(want) || strcmp(got, want) != 0 ||
                    rt_int_length(v) != n)
                    bad++;
            }
        }
    }
    for (int b = 1; b < 63; b++) {     /* every bit length, either side (63: edges) */
        for (int d = -1; d <= 1; d++) {
            int64_t v = (int64_t)(((uint64_t)1 << b) + (uint64_t)(int64_t)d);
            snprintf(want, sizeof want, "%lld", (long long)v);
            int n = rt_format_int(v, got);
            if (strcmp(got, want) != 0 || rt_int_length(v) != n || rt_int_length(-v) != n + 1)
                bad++;
        }
    }
    static const int64_t edges[] = {0, 1, -1, 9, -9, 10, -10, 99, 100, INT64_MAX, INT64_MIN,
                                    INT64_MIN + 1, (int64_t)1 << 62, -((int64_t)1 << 62)};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        snprintf(want, sizeof want, "%lld", (long long)edges[i]);
        int n = rt_format_int(edges[i], got);
        if (strcmp(got, want) != 0 || rt_int_length(edges[i]) != n)
            bad++;
    }
    ok(bad == 0, "rt_format_int and rt_int_length agree with printf at every power of ten and of two");
}

/* s's bytes are these (a string in a buffer is NUL-terminated only
 * until something is appended after it). */
static int has(const MosString *s, const char *bytes_, int64_t n)
{
    return s->length == n && memcmp(s->bytes, bytes_, (size_t)n) == 0;
}

static MosString *chain(const MosPart *parts, int64_t n)
{
    return mos_string_concat_n(parts, n);
}

#define S(text) {0, (int64_t)(uintptr_t)str(text)}
#define I(v) {1, (int64_t)(v)}

static void test_concat_chain(void)
{
    MosPart rec[] = {S("id"), I(42), S(","), I(INT64_MIN), S(",k"), I(0)};
    MosString *r = chain(rec, 6);
    ok(is(r, "id42,-9223372036854775808,k0", 28), "a chain formats its ints in place");
    ok(r->buffer != NULL, "a chain's result can be appended to");
    MosString *r2 = mos_string_concat(r, str("!"));
    ok(is(r2, "id42,-9223372036854775808,k0!", 29) && has(r, "id42,-9223372036854775808,k0", 28),
       "appending to a chain's result leaves the result alone");
    MosString *r3 = mos_string_concat(r2, str("?"));
    ok(is(r3, "id42,-9223372036854775808,k0!?", 30), "and appends again, in place or not");
    MosString *r4 = mos_string_concat(r2, str("#"));
    ok(is(r4, "id42,-9223372036854775808,k0!#", 30) && has(r3, "id42,-9223372036854775808,k0!?", 30),
       "a second append to the same string copies, leaving the first one's bytes");
    MosPart ints[] = {I(INT64_MAX), I(-1), I(7)};
    ok(is(chain(ints, 3), "9223372036854775807-17", 22), "a chain of ints alone");
    MosPart empties[] = {S(""), S(""), S("")};
    ok(is(chain(empties, 3), "", 0), "a chain of empty strings is empty");
    MosString *x = str("x");
    MosPart same[] = {{0, (int64_t)(uintptr_t)x}, S(""), S("")};
    ok(chain(same, 3) == x, "a chain adding only empty strings returns its first part");

    /* s += "ab" a thousand times: each result right, the old ones kept */
    MosString *s = rt_empty_string(), *kept[1000];
    for (int i = 0; i < 1000; i++) {
        MosPart step[] = {{0, (int64_t)(uintptr_t)s}, I(i % 10), S("b")};
        s = chain(step, 3);
        kept[i] = s;
    }
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        if (kept[i]->length != 2 * (i + 1) || kept[i]->bytes[2 * i] != '0' + i % 10 ||
            kept[i]->bytes[2 * i + 1] != 'b')
            bad++;
    }
    ok(bad == 0, "a string grown by a thousand chains keeps every earlier string");
}

#undef S
#undef I

/* ---- parse_int and int(float) -------------------------------------------- */

static void test_parse_int_accepts(void)
{
    static const struct { const char *text; int64_t value; } cases[] = {
        { "0", 0 }, { "42", 42 }, { "-42", -42 }, { "+7", 7 }, { "007", 7 },
        { "-0", 0 }, { "9223372036854775807", INT64_MAX },
        { "-9223372036854775808", INT64_MIN },
        { "00000000000000000000000000001", 1 },
        /* either side of the 18 digits that are parsed without overflow tests */
        { "999999999999999999", 999999999999999999 },
        { "-999999999999999999", -999999999999999999 },
        { "1000000000000000000", 1000000000000000000 },
        { "+000000000000000042", 42 },
        { "-9", -9 }, { "+0", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = mos_parse_int(str(cases[i].text), "t.mos:1:1");
        ok(v == cases[i].value, "parse_int accepts '%s'", cases[i].text);
    }
}

typedef struct { const char *text; int64_t length; } Text;

static void call_parse_int(void *arg)
{
    const Text *t = arg;
    mos_parse_int(bytes(t->text, t->length), "t.mos:4:9");
}

static void test_parse_int_refuses(void)
{
    static const Text cases[] = {
        { "", 0 }, { "-", 1 }, { "+", 1 }, { " 1", 2 }, { "1 ", 2 },
        { "1_000", 5 }, { "0x10", 4 }, { "1.5", 3 }, { "--1", 3 },
        { "+-1", 3 }, { "12a", 3 }, { "1\0", 2 },
        { "9223372036854775808", 19 }, { "-9223372036854775809", 20 },
        { "99999999999999999999", 20 }, { "\xd9\xa3", 2 },
        { "12345678901234567/", 18 }, { "12345678901234567:", 18 }, { "/", 1 },
        { ":", 1 }, { "-\x80", 2 }, { "1\xff", 2 }, { "+1+", 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Child c = run_child(call_parse_int, (void *)&cases[i]);
        ok(c.status == 101 &&
           starts_with(c.err, "t.mos:4:9: runtime error: invalid integer: '"),
           "parse_int refuses '%s'", cases[i].text);
    }
    Text nl = { "1\n2", 3 };
    Child c = run_child(call_parse_int, &nl);
    ok(c.status == 101 && strcmp(c.err, "t.mos:4:9: runtime error: "
                                 "invalid integer: '1\\x0a2'\n") == 0,
       "the message quotes control bytes and is one line");
}

static void test_float_to_int(void)
{
    ok(mos_float_to_int(3.9, "t") == 3, "int(3.9) == 3");
    ok(mos_float_to_int(-3.9, "t") == -3, "int(-3.9) == -3 (toward zero)");
    ok(mos_float_to_int(-0.5, "t") == 0, "int(-0.5) == 0");
    ok(mos_float_to_int(-0x1p63, "t") == INT64_MIN, "int(-2^63) == INT64_MIN");
    ok(mos_float_to_int(0x1p62, "t") == ((int64_t)1 << 62), "int(2^62)");
    ok(mos_float_to_int(nextafter(0x1p63, 0), "t") == INT64_MAX - 1023,
       "int of the largest double below 2^63");
}

static void call_float_to_int(void *arg)
{
    mos_float_to_int(*(double *)arg, "f.mos:2:3");
}

static void test_float_to_int_refuses(void)
{
    double cases[] = { NAN, INFINITY, -INFINITY, 0x1p63, -0x1p64, 1e300 };
    const char *names[] = { "nan", "inf", "-inf", "2^63", "-2^64", "1e300" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Child c = run_child(call_float_to_int, &cases[i]);
        ok(c.status == 101 &&
           starts_with(c.err, "f.mos:2:3: runtime error: invalid conversion"),
           "int(%s) is an invalid conversion", names[i]);
    }
}

/* ---- arrays and allocation ----------------------------------------------- */

static void test_arrays(void)
{
    MosArray *xs = mos_array_new(5, 8, MOS_ELEM_PLAIN, "a");
    int zero = xs->length == 5;
    for (int i = 0; i < 5; i++)
        zero = zero && ((int64_t *)(void *)xs->data)[i] == 0;
    ok(zero, "new [int](5) is five zeros");
    ok(((uintptr_t)xs->data & 7) == 0, "elements are 8-aligned");

    MosArray *bs = mos_array_new(3, 1, MOS_ELEM_PLAIN, "a");
    ok(bs->length == 3 && bs->data[0] == 0 && bs->data[1] == 0 && bs->data[2] == 0,
       "new [bool](3) is three falses");

    MosArray *rs = mos_array_new(4, 8, MOS_ELEM_REF, "a");
    void **refs = (void **)(void *)rs->data;
    ok(rs->length == 4 && !refs[0] && !refs[1] && !refs[2] && !refs[3],
       "new [C](4) is four nulls");

    MosArray *ss = mos_array_new(3, 8, MOS_ELEM_STRING, "a");
    MosString **strs = (MosString **)(void *)ss->data;
    int empty = ss->length == 3;
    for (int i = 0; i < 3; i++)
        empty = empty && strs[i] && strs[i]->length == 0 &&
                mos_string_eq(strs[i], str(""));
    ok(empty, "new [string](3) is three empty strings");

    MosArray *none = mos_array_new(0, 8, MOS_ELEM_STRING, "a");
    ok(none && none->length == 0, "new [string](0) is an empty array");

    /* atomic blocks are not zeroed by the collector: fill some, drop them,
     * collect, and check that fresh blocks are zeroed anyway */
    for (int i = 0; i < 1000; i++)
        memset(mos_alloc_atomic(64), 0xab, 64);
    GC_gcollect();
    int zeroed = 1;
    for (int i = 0; i < 1000 && zeroed; i++) {
        unsigned char *p = mos_alloc_atomic(64);
        for (int j = 0; j < 64; j++)
            zeroed = zeroed && p[j] == 0;
    }
    ok(zeroed, "mos_alloc_atomic returns zeroed memory");
    unsigned char *q = mos_alloc(100);
    int qz = 1;
    for (int j = 0; j < 100; j++)
        qz = qz && q[j] == 0;
    ok(qz, "mos_alloc returns zeroed memory");
    ok(mos_alloc(0) != mos_alloc(0), "zero-sized allocations are distinct");
}

static void call_array_new(void *arg)
{
    mos_array_new(*(int64_t *)arg, 8, MOS_ELEM_PLAIN, "arr.mos:7:11");
}

static void test_array_refuses(void)
{
    int64_t neg = -3;
    Child c = run_child(call_array_new, &neg);
    ok(c.status == 101 && strcmp(c.err, "arr.mos:7:11: runtime error: "
                                 "negative array length: -3\n") == 0,
       "new [int](-3): negative array length");
    int64_t huge = INT64_MAX / 4;
    c = run_child(call_array_new, &huge);
    ok(c.status == 101 &&
       starts_with(c.err, "arr.mos:7:11: runtime error: out of memory"),
       "new [int](2^61 - 1): out of memory");
    int64_t big = (int64_t)1 << 42;   /* 32 TiB: plausible, but no heap */
    c = run_child(call_array_new, &big);
    ok(c.status == 101 &&
       starts_with(c.err, "arr.mos:7:11: runtime error: out of memory"),
       "new [int](2^42): out of memory");
}

/* ---- printing and panics ------------------------------------------------- */

static void print_things(void *arg)
{
    (void)arg;
    mos_print_int(-7, 0);
    mos_print_string(str(" "), 0);
    mos_print_float(0.1, 1);
    mos_print_bool(1, 0);
    mos_print_bool(0, 1);
    mos_print_string(bytes("a\0b", 3), 1);
    mos_print_newline();
    mos_print_float(1e-5, 0);
    mos_print_int(INT64_MIN, 1);
}

static void test_print(void)
{
    Child c = run_child(print_things, NULL);
    static const char want[] = "-7 0.1\ntruefalse\na\0b\n\n1e-05-9223372036854775808\n";
    ok(c.status == 0 && memcmp(c.out, want, sizeof want) == 0,
       "print and println write ints, floats, bools, strings (with NULs)");
    ok(c.err[0] == '\0', "printing writes nothing on stderr");
}

static void print_a_lot(void *arg)
{
    (void)arg;
    /* more than the buffer holds, so it is written out in pieces */
    for (int i = 0; i < 20000; i++)
        mos_print_int(i % 10, 0);
    mos_print_newline();
}

static void test_print_large(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        print_a_lot(NULL);
        exit(0);        /* the buffer is flushed at exit */
    }
    close(fds[1]);
    long total = 0, digits_ok = 1;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++, total++)
            if (total < 20000 && buf[i] != '0' + total % 10)
                digits_ok = 0;
    }
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
    ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && total == 20001 && digits_ok,
       "20001 bytes printed through the buffer arrive in order, flushed at exit");
}

static void print_then_panic(void *arg)
{
    (void)arg;
    mos_print_string(str("before"), 1);
    mos_print_string(str("partial"), 0);
    mos_panic("p.mos:9:2", "division by zero");
}

static void test_panic(void)
{
    Child c = run_child(print_then_panic, NULL);
    ok(c.status == 101, "a panic exits with status 101");
    ok(strcmp(c.out, "before\npartial") == 0,
       "a panic flushes stdout first");
    ok(strcmp(c.err, "p.mos:9:2: runtime error: division by zero\n") == 0,
       "a panic prints WHERE: runtime error: MESSAGE");
}

typedef struct { pthread_barrier_t *start; int id; } Racer;

static void *panic_racer(void *arg)
{
    Racer *r = arg;
    pthread_barrier_wait(r->start);
    mos_panic(r->id ? "r.mos:1:1" : "r.mos:2:2", "null dereference");
}

static void two_panics(void *arg)
{
    (void)arg;
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    Racer r0 = { &start, 0 }, r1 = { &start, 1 };
    pthread_t t0, t1;
    pthread_create(&t0, NULL, panic_racer, &r0);
    pthread_create(&t1, NULL, panic_racer, &r1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
}

static void test_two_panics(void)
{
    int single = 1;
    for (int round = 0; round < 20 && single; round++) {
        Child c = run_child(two_panics, NULL);
        const char *nl = strchr(c.err, '\n');
        single = c.status == 101 && nl && nl[1] == '\0' &&
                 strstr(c.err, "runtime error: null dereference");
    }
    ok(single, "two threads panicking at once: one message, status 101");
}

/* ---- stacks -------------------------------------------------------------- */

static volatile int never;  /* keeps the recursions below from ending */

/* What generated code does on entry to every function. */
static int checked_recursion(int depth)
{
    volatile char pad[256];
    if ((char *)__builtin_frame_address(0) < mos_stack_limit)
        mos_panic("deep.mos:3:5", "stack overflow");
    pad[0] = (char)depth;
    if (never)
        return 0;
    return checked_recursion(depth + 1) + pad[0];
}

/* Code without the check, as in a runtime function called deep down. */
static int unchecked_recursion(int depth)
{
    volatile char pad[256];
    pad[0] = (char)depth;
    if (never)
        return 0;
    return unchecked_recursion(depth + 1) + pad[0];
}

static void *recursing_thread(void *arg)
{
    rt_thread_stack_init();
    mos_print_string(str("deep"), 1);
    if (arg)
        checked_recursion(0);
    else
        unchecked_recursion(0);
    return NULL;
}

static void recurse_in_thread(void *checked)
{
    rt_fault_init();
    pthread_t t;
    pthread_create(&t, NULL, recursing_thread, checked);
    pthread_join(t, NULL);
}

static void *report_limit(void *arg)
{
    char **limit = arg;
    int r = rt_thread_stack_init();
    limit[0] = r == 0 ? mos_stack_limit : NULL;
    limit[1] = (char *)__builtin_frame_address(0);
    return NULL;
}

/* volatile: the compiler must not see that this points nowhere */
static int *volatile bad_pointer = (int *)16;

static void segfault(void *arg)
{
    (void)arg;
    rt_fault_init();
    rt_thread_stack_init();
    *bad_pointer = 1;
}

/* AddressSanitizer (configure --enable-sanitizers) handles faults itself
 * and reports them in its own words, with status 1. */
#if defined(__SANITIZE_ADDRESS__)
#define FAULT_OK(c) ((c).status == 101 || \
                     ((c).status == 1 && strstr((c).err, "AddressSanitizer")))
#else
#define FAULT_OK(c) ((c).status == 101)
#endif

static void test_stack(void)
{
    char *limit[2];
    pthread_t t;
    pthread_create(&t, NULL, report_limit, limit);
    pthread_join(t, NULL);
    ok(limit[0] != NULL && limit[0] < limit[1] &&
       (size_t)(limit[1] - limit[0]) > 4096,
       "rt_thread_stack_init sets mos_stack_limit below the thread's frames");

    Child c = run_child(recurse_in_thread, (void *)1);
    ok(c.status == 101 &&
       strcmp(c.err, "deep.mos:3:5: runtime error: stack overflow\n") == 0 &&
       strcmp(c.out, "deep\n") == 0,
       "the entry check turns deep recursion into a stack overflow error");

    c = run_child(recurse_in_thread, NULL);
    ok(FAULT_OK(c) && (c.status != 101 ||
                       strstr(c.err, "runtime error: stack overflow\n")) &&
       strcmp(c.out, "deep\n") == 0,
       "the fault handler reports an unchecked overflow as a stack overflow");

    c = run_child(segfault, NULL);
    ok(FAULT_OK(c) &&
       (c.status != 101 ||
        strstr(c.err, "runtime error: segmentation fault (internal error)\n")),
       "another fault is an internal error");
}

/* ---- clock and nodes ----------------------------------------------------- */

static void print_nodes(void *arg)
{
    setenv("MOSAIC_NODES", arg, 1);
    mos_print_int(mos_nodes(), 1);
}

static void test_clock_and_nodes(void)
{
    double t0 = mos_clock(), t1 = mos_clock();
    ok(t0 > 0 && t1 >= t0, "clock() is positive and does not go back");
    Child c = run_child(print_nodes, "4");
    ok(strcmp(c.out, "4\n") == 0, "MOSAIC_NODES=4: nodes() is 4");
    c = run_child(print_nodes, "0");
    ok(strcmp(c.out, "1\n") == 0, "MOSAIC_NODES=0 is ignored: nodes() is 1");
    c = run_child(print_nodes, "2x");
    ok(strcmp(c.out, "1\n") == 0, "MOSAIC_NODES=2x is ignored: nodes() is 1");
    ok(mos_node_id() == 0, "node_id() is 0");
}

int main(void)
{
    GC_set_handle_fork(1);  /* children allocate */
    GC_INIT();
    GC_set_warn_proc(GC_ignore_warn_proc);  /* as the runtime's main() does */

    test_strings();
    test_copy_bytes();
    test_format_int();
    test_concat_chain();
    test_parse_int_accepts();
    test_parse_int_refuses();
    test_float_to_int();
    test_float_to_int_refuses();
    test_arrays();
    test_array_refuses();
    test_print();
    test_print_large();
    test_panic();
    test_two_panics();
    test_stack();
    test_clock_and_nodes();

    printf("1..%d\n", test_count);
    return failures ? 1 : 0;
}
