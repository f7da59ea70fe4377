/* bench/seq/mandelbrot.c — the Computer Language Benchmarks Game's
 * mandelbrot, as mandelbrot.mos computes it: the n × n points c of
 * [-1.5, 0.5] × [-1, 1], each iterated z = z² + c up to 50 times while
 * |z|² <= 4; instead of writing a PBM bitmap it counts the points that
 * stay, so that the output is one line.  Argument: n (default 3_500).
 * bench/run-seq.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 3500;
    long inside = 0;
    for (long y = 0; y < n; y++) {
        double ci = 2.0 * (double)y / (double)n - 1.0;
        for (long x = 0; x < n; x++) {
            double cr = 2.0 * (double)x / (double)n - 1.5;
            double zr = 0.0, zi = 0.0, tr = 0.0, ti = 0.0;
            for (int i = 0; i < 50 && tr + ti <= 4.0; i++) {
                zi = 2.0 * zr * zi + ci;
                zr = tr - ti + cr;
                tr = zr * zr;
                ti = zi * zi;
            }
            if (tr + ti <= 4.0)
                inside++;
        }
    }
    printf("mandelbrot: n=%ld inside=%ld\n", n, inside);
    return 0;
}
