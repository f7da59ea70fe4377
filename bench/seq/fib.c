/* bench/seq/fib.c — the doubly recursive Fibonacci function, as fib.mos
 * computes it, in 64-bit integers.  Argument: n (default 40).
 * bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

static long fib(long n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40;
    printf("fib: n=%ld fib=%ld\n", n, fib(n));
    return 0;
}
