/* bench/strings/append.c — what append.mos does, as a C programmer would
 * write it: one buffer grown by doubling (realloc), bytes appended at its
 * end, numbers formatted with snprintf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *p; size_t len, cap; } Buf;

static void append(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 16;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p)
            exit(1);
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    Buf s = {0}, t = {0};
    for (long i = 0; i < n; i++)
        append(&s, "x", 1);
    for (long i = 0; i < n; i++) {
        char num[32];
        int k = snprintf(num, sizeof num, "%ld,", i);
        append(&t, num, (size_t)k);
    }
    printf("append: n=%ld lengths=%zu,%zu\n", n, s.len, t.len);
    return 0;
}
