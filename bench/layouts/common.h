/* bench/layouts/common.h — what the hand-written C peers of the layout
 * benchmarks share: the arguments (n objects, steps), a monotonic clock, and
 * printing a double the way Mosaic prints a float (LANGUAGE.md §3: Python's
 * repr), so that the result line of a C program and of its Mosaic twin can
 * be compared as text.  bench/run-layouts.sh builds the peers with
 * `cc -O2 -ffp-contract=off` (the -f: Mosaic does no fused operations, and
 * neither may the peer, or the checksums would differ).
 *
 * Not a general float formatter: the shortest digits are found by trying
 * each precision of "%.*e" in turn (the correctly rounded L-digit decimal
 * reads back whenever an L-digit one does, but in rare corner cases at
 * powers of two); stdlib/float_format.c is the runtime's exact one.
 */
#ifndef BENCH_LAYOUTS_COMMON_H
#define BENCH_LAYOUTS_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* argv[1], argv[2] as n and steps, with the program's defaults. */
static void args(int argc, char **argv, long *n, long *steps)
{
    if (argc > 1) *n = atol(argv[1]);
    if (argc > 2) *steps = atol(argv[2]);
}

/* Writes v as Python's repr(v) writes it into out (at least 32 bytes). */
static void repr(double v, char *out)
{
    if (isnan(v)) { strcpy(out, "nan"); return; }
    if (isinf(v)) { strcpy(out, v < 0 ? "-inf" : "inf"); return; }
    if (v == 0) { strcpy(out, signbit(v) ? "-0.0" : "0.0"); return; }
    char buf[40], digits[20];
    int len;
    for (len = 1; len < 17; len++) {     /* 17 digits always read back */
        snprintf(buf, sizeof buf, "%.*e", len - 1, v);
        if (strtod(buf, NULL) == v) break;
    }
    snprintf(buf, sizeof buf, "%.*e", len - 1, v);
    /* buf is [-]d[.ddd]e[+-]XX */
    char *p = buf, *o = out;
    if (*p == '-') { *o++ = '-'; p++; }
    int nd = 0;
    for (; *p != 'e'; p++) if (*p != '.') digits[nd++] = *p;
    int e = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    if (e >= -4 && e < 16) {
        if (e < 0) {
            *o++ = '0'; *o++ = '.';
            for (int i = 0; i < -e - 1; i++) *o++ = '0';
            for (int i = 0; i < nd; i++) *o++ = digits[i];
        } else {
            for (int i = 0; i <= e; i++) *o++ = i < nd ? digits[i] : '0';
            *o++ = '.';
            if (nd > e + 1) for (int i = e + 1; i < nd; i++) *o++ = digits[i];
            else *o++ = '0';
        }
        *o = 0;
    } else {
        *o++ = digits[0];
        if (nd > 1) { *o++ = '.'; for (int i = 1; i < nd; i++) *o++ = digits[i]; }
        sprintf(o, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
}

/* The two lines every program of bench/layouts/ prints: the result line
 * (name, sizes, checksum), then the time of the timed loops in seconds. */
static void report(const char *name, long n, long steps, double sum, double t)
{
    char s[40], ts[40];
    repr(sum, s);
    repr(t, ts);
    printf("%s: n=%ld steps=%ld checksum=%s\n", name, n, steps, s);
    printf("time: %s\n", ts);
}

#endif
