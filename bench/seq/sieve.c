/* bench/seq/sieve.c — the sieve of Eratosthenes, as sieve.mos runs it: a
 * fresh array of n + 1 flags per round (calloc), every multiple of each
 * prime p from p² crossed out, the primes up to n counted; 10 rounds, the
 * count printed once.  Argument: n (default 25_000_000).  bench/run-seq.sh
 * runs it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static long count_primes(long n)
{
    bool *composite = calloc((size_t)n + 1, sizeof *composite);
    if (!composite)
        exit(1);
    long count = 0;
    for (long p = 2; p <= n; p++) {
        if (composite[p])
            continue;
        count++;
        for (long m = p * p; m <= n; m += p)
            composite[m] = true;
    }
    free(composite);
    return count;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 25000000;
    int rounds = 10;
    long count = 0;
    for (int r = 0; r < rounds; r++)
        count = count_primes(n);
    printf("sieve: n=%ld rounds=%d primes=%ld\n", n, rounds, count);
    return 0;
}
