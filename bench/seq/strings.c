/* bench/seq/strings.c — what strings.mos does, as a C programmer would
 * write it: each record formatted with snprintf into a row buffer, a batch
 * of 1000 rows joined with ';' into one buffer grown by doubling, its
 * bytes checksummed, then split in place (memchr, no copies), two fields
 * parsed with strtol, and each record rebuilt with its fields reversed
 * into a scratch buffer.  Argument: n (default 3_500_000).
 * bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1000

typedef struct { char *p; size_t len, cap; } Buf;

static void append(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
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
    long n = argc > 1 ? atol(argv[1]) : 3500000;
    static char rows[BATCH][80];
    static int row_len[BATCH];
    int nrows = 0;
    Buf text = {0}, back = {0};
    long bytes = 0, hash = 0, sum = 0, rebuilt = 0;
    for (long i = 0; i < n; i++) {
        row_len[nrows] = snprintf(rows[nrows], sizeof rows[nrows], "id%ld,%ld,%ld,k%ld",
                                  i, i * 7919 % 100003, i % 97 - 48, i & 255);
        nrows++;
        if (nrows == BATCH || i == n - 1) {
            text.len = 0;
            for (int r = 0; r < nrows; r++) {
                if (r > 0)
                    append(&text, ";", 1);
                append(&text, rows[r], (size_t)row_len[r]);
            }
            bytes += (long)text.len;
            for (size_t j = 0; j < text.len; j++)
                hash = (hash * 31 + (unsigned char)text.p[j]) & 0xffffffff;
            const char *rec = text.p, *end = text.p + text.len;
            for (;;) {
                const char *semi = memchr(rec, ';', (size_t)(end - rec));
                const char *rec_end = semi ? semi : end;
                const char *f[4];
                size_t flen[4];
                int k = 0;
                for (const char *q = rec; k < 4; k++) {
                    const char *comma = memchr(q, ',', (size_t)(rec_end - q));
                    const char *fe = comma ? comma : rec_end;
                    f[k] = q;
                    flen[k] = (size_t)(fe - q);
                    if (!comma) { k++; break; }
                    q = comma + 1;
                }
                if (k < 4)
                    exit(1);
                sum += strtol(f[1], NULL, 10) + strtol(f[2], NULL, 10);
                back.len = 0;
                for (int m = 3; m >= 0; m--) {
                    append(&back, f[m], flen[m]);
                    if (m > 0)
                        append(&back, "|", 1);
                }
                rebuilt += (long)back.len;
                if (!semi)
                    break;
                rec = semi + 1;
            }
            nrows = 0;
        }
    }
    printf("strings: n=%ld bytes=%ld hash=%ld sum=%ld rebuilt=%ld\n", n, bytes, hash, sum, rebuilt);
    free(text.p);
    free(back.p);
    return 0;
}
