/* bench/layouts/column.c — the column sum of column.mos written by hand in
 * C, in the layout chosen at compile time:
 *   -DLAYOUT_AOS  one array of structs of 8 doubles (64 bytes a row)
 *   -DLAYOUT_SOA  one array per field
 *   -DLAYOUT_HOT  an array of the summed column c and one of the 7 others
 * Each step adds up field c of every row (1 of 8 fields, read only) into
 * one running sum, in order (no reassociation, as in Mosaic).  Same initial
 * values and result line as the Mosaic program.  Arguments: n (default
 * 4000000), steps (default 50).  bench/run-layouts.sh builds and runs it;
 * bench/README.md describes it. */
#include "common.h"

#if defined(LAYOUT_AOS)
struct row { double a, b, c, d, e, f, g, h; };

static double sum_c(const struct row *restrict r, long n, double sum)
{
    for (long i = 0; i < n; i++) sum += r[i].c;
    return sum;
}
#elif defined(LAYOUT_SOA)
static double sum_c(const double *restrict c, long n, double sum)
{
    for (long i = 0; i < n; i++) sum += c[i];
    return sum;
}
#elif defined(LAYOUT_HOT)
struct cold { double a, b, d, e, f, g, h; };

static double sum_c(const double *restrict c, long n, double sum)
{
    for (long i = 0; i < n; i++) sum += c[i];
    return sum;
}
#else
#error "define LAYOUT_AOS, LAYOUT_SOA or LAYOUT_HOT"
#endif

/* The initial values of Row.init in column.mos: field k of row i. */
#define INIT(i, k) ((double)(((i) + (k)) % 1000) * 0.001)

int main(int argc, char **argv)
{
    long n = 4000000, steps = 50;
    args(argc, argv, &n, &steps);
    double t0, t1, sum = 0.0;
#if defined(LAYOUT_AOS)
    struct row *r = malloc(n * sizeof *r);
    if (!r) return 1;
    for (long i = 0; i < n; i++)
        r[i] = (struct row){INIT(i, 0), INIT(i, 1), INIT(i, 2), INIT(i, 3),
                            INIT(i, 4), INIT(i, 5), INIT(i, 6), INIT(i, 7)};
    t0 = now();
    for (long s = 0; s < steps; s++) sum = sum_c(r, n, sum);
    t1 = now();
#elif defined(LAYOUT_SOA)
    double *col[8];
    for (int k = 0; k < 8; k++)
        if (!(col[k] = malloc(n * sizeof *col[k]))) return 1;
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 8; k++) col[k][i] = INIT(i, k);
    t0 = now();
    for (long s = 0; s < steps; s++) sum = sum_c(col[2], n, sum);
    t1 = now();
#else
    double *c = malloc(n * sizeof *c);
    struct cold *rest = malloc(n * sizeof *rest);
    if (!c || !rest) return 1;
    for (long i = 0; i < n; i++) {
        c[i] = INIT(i, 2);
        rest[i] = (struct cold){INIT(i, 0), INIT(i, 1), INIT(i, 3), INIT(i, 4),
                                INIT(i, 5), INIT(i, 6), INIT(i, 7)};
    }
    t0 = now();
    for (long s = 0; s < steps; s++) sum = sum_c(c, n, sum);
    t1 = now();
#endif
    report("column", n, steps, sum, t1 - t0);
    return 0;
}
