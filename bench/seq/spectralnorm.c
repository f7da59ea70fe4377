/* bench/seq/spectralnorm.c — the Computer Language Benchmarks Game's
 * spectral-norm, as spectralnorm.mos computes it: ten rounds of
 * u = AᵀA v, v = AᵀA u over the infinite matrix A(i, j) =
 * 1 / ((i + j)(i + j + 1) / 2 + i + 1) cut to n × n, then
 * sqrt(uᵀv / vᵀv) with nine decimals, rounded the way spectralnorm.mos
 * rounds.  Argument: n (default 4_000).  bench/run-seq.sh runs it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double a(long i, long j)
{
    return 1.0 / (double)((i + j) * (i + j + 1) / 2 + i + 1);
}

static void mul_av(long n, const double *v, double *av)
{
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (long j = 0; j < n; j++)
            sum += a(i, j) * v[j];
        av[i] = sum;
    }
}

static void mul_atv(long n, const double *v, double *atv)
{
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (long j = 0; j < n; j++)
            sum += a(j, i) * v[j];
        atv[i] = sum;
    }
}

static void mul_atav(long n, const double *v, double *atav, double *tmp)
{
    mul_av(n, v, tmp);
    mul_atv(n, tmp, atav);
}

static void print_fixed9(double x)
{
    long k = (long)floor(fabs(x) * 1e9 + 0.5);
    printf("%s%ld.%09ld\n", x < 0 ? "-" : "", k / 1000000000, k % 1000000000);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 4000;
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    double *tmp = malloc(n * sizeof *tmp);
    if (!u || !v || !tmp)
        return 1;
    for (long i = 0; i < n; i++)
        u[i] = 1.0;
    for (int i = 0; i < 10; i++) {
        mul_atav(n, u, v, tmp);
        mul_atav(n, v, u, tmp);
    }
    double vbv = 0.0, vv = 0.0;
    for (long i = 0; i < n; i++) {
        vbv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    print_fixed9(sqrt(vbv / vv));
    free(u); free(v); free(tmp);
    return 0;
}
