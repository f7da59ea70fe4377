/* bench/calls/fib_costs.c — fib.mos's function in C, with the costs
 * Mosaic's code generator adds to a call, one at a time, so that each can
 * be measured apart (bench/run-calls.sh):
 *
 *   -DPLAIN    the C of bench/seq/fib.c
 *   -DCHECK    a stack check on entry: the frame address against a
 *              thread-local limit, as codegen/checks.c's cg_stack_check
 *   -DVFRAME   that check made on the lower of the frame address and a
 *              virtual frame passed as one more argument and lowered by
 *              32 bytes per call (checks.c's tail-call virtual frame)
 *
 * Built with gcc and clang, -O2, and with gcc's recursive inlining off
 * (-fno-inline-small-functions) to see what unrolling the recursion buys.
 * Argument: n (default 40); prints fib(n). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__thread char *stack_limit;

__attribute__((noinline, cold)) static void overflow(void)
{
    fputs("stack overflow\n", stderr);
    exit(101);
}

#if defined(CHECK)
static long fib(long n)
{
    if ((char *)__builtin_frame_address(0) < stack_limit)
        overflow();
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}
#define FIB(n) fib(n)
#elif defined(VFRAME)
static long fib(long n, uintptr_t vframe)
{
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    uintptr_t low = frame < vframe ? frame : vframe;
    if (low < (uintptr_t)stack_limit)
        overflow();
    if (n < 2)
        return n;
    return fib(n - 1, low - 32) + fib(n - 2, low - 32);
}
#define FIB(n) fib(n, UINTPTR_MAX)
#else
static long fib(long n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}
#define FIB(n) fib(n)
#endif

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40;
    char here;
    stack_limit = &here - ((size_t)7 << 20);    /* 7 of the usual 8 MiB */
    printf("fib: n=%ld fib=%ld\n", n, FIB(n));
    return 0;
}
