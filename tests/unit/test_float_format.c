/* test_float_format.c — rt_format_float against Python 3's repr(float).
 *
 * LANGUAGE.md §3 says printing a float writes exactly what Python's
 * repr() writes; every expected string below was produced by python3
 * (`python3 -c 'print(repr(x))'`).  The cases cover the examples in the
 * reference, the fixed/scientific boundary on both sides (1e-05 vs
 * 0.0001, 1e+16 vs 9999999999999998.0), the extremes of the format
 * (subnormals, the largest double), values whose shortest form needs 17
 * digits, ties, the integral fast path, signs, and the special values.
 * A wider check — millions of random doubles, powers of two and ten and
 * their neighbours, compared with python3 — was run by hand when the
 * algorithm was written; it is too slow and needs python, so it is not
 * part of `make check`.
 *
 * Output is TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stdlib/mosaic_rt.h"

static int test_count;
static int failures;

static void check(double v, const char *expected, const char *what)
{
    char buf[64];
    memset(buf, 'X', sizeof buf);
    int n = rt_format_float(v, buf);
    int ok = strcmp(buf, expected) == 0 && n == (int)strlen(expected) &&
             n < 32;
    test_count++;
    if (ok) {
        printf("ok %d - %s -> %s\n", test_count, what, expected);
    } else {
        failures++;
        printf("not ok %d - %s: expected '%s', got '%s' (length %d)\n",
               test_count, what, expected, buf, n);
    }
}

#define CHECK(expr, expected) check((expr), (expected), #expr)

static double from_bits(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

int main(void)
{
    /* volatile: keep the compiler from folding differently from run time */
    volatile double one = 1.0, three = 3.0, tenth = 0.1, fifth = 0.2;

    /* LANGUAGE.md §3 */
    CHECK(1.0, "1.0");
    CHECK(100.0, "100.0");
    CHECK(0.1, "0.1");
    CHECK(0.0001, "0.0001");
    CHECK(1e-05, "1e-05");
    CHECK(123456789.0, "123456789.0");
    CHECK(1e16, "1e+16");
    CHECK(2.5e-300, "2.5e-300");
    CHECK(-0.0, "-0.0");
    CHECK(INFINITY, "inf");
    CHECK(-INFINITY, "-inf");
    CHECK(NAN, "nan");

    /* every NaN prints "nan": negative, signalling, with a payload */
    CHECK(-NAN, "nan");
    CHECK(from_bits(0x7ff0000000000001ull), "nan");
    CHECK(from_bits(0xfff8000000000123ull), "nan");

    /* arithmetic results needing 16 or 17 digits */
    CHECK(tenth + fifth, "0.30000000000000004");
    CHECK(one / three, "0.3333333333333333");
    CHECK(2.0 / three, "0.6666666666666666");
    CHECK(1e-5 * (one + 0.5), "1.5000000000000002e-05");
    CHECK(1234567890123456.7, "1234567890123456.8");

    /* the fixed/scientific boundary: -4 <= e < 16 is fixed */
    CHECK(1e15, "1000000000000000.0");
    CHECK(9999999999999998.0, "9999999999999998.0");
    CHECK(1.5e16, "1.5e+16");
    CHECK(1e22, "1e+22");
    CHECK(1e21, "1e+21");
    CHECK(1e23, "1e+23");
    CHECK(6.02e23, "6.02e+23");
    CHECK(123456789012345678.0, "1.2345678901234568e+17");
    CHECK(0.001, "0.001");
    CHECK(0.00012, "0.00012");
    CHECK(1e-7, "1e-07");
    CHECK(7e-10, "7e-10");
    CHECK(-2.5e-5, "-2.5e-05");
    CHECK(123e-20, "1.23e-18");
    CHECK(1e100, "1e+100");
    CHECK(-1e-100, "-1e-100");

    /* the extremes */
    CHECK(5e-324, "5e-324");
    CHECK(1e-323, "1e-323");
    CHECK(from_bits(3), "1.5e-323");
    CHECK(2.2250738585072014e-308, "2.2250738585072014e-308");
    CHECK(1.7976931348623157e308, "1.7976931348623157e+308");
    CHECK(9223372036854775808.0, "9.223372036854776e+18");

    /* integral values (the direct path below 2^53, and just above) */
    CHECK(0.0, "0.0");
    CHECK(9007199254740992.0, "9007199254740992.0");
    CHECK(9007199254740994.0, "9007199254740994.0");
    CHECK(4503599627370496.5, "4503599627370496.0");
    CHECK(-42.0, "-42.0");

    /* short fractions, and values whose decimal is not the double */
    CHECK(0.5, "0.5");
    CHECK(-1.5, "-1.5");
    CHECK(2.5, "2.5");
    CHECK(100.5, "100.5");
    CHECK(12345.678, "12345.678");
    CHECK(3.14159, "3.14159");
    CHECK(0.3, "0.3");
    CHECK(4.35, "4.35");
    CHECK(2.675, "2.675");

    /* an exact tie between two shortest candidates goes to the even one */
    CHECK(1125899906842624.25, "1125899906842624.2");
    CHECK(1125899906842624.75, "1125899906842624.8");
    CHECK(1125899906842625.25, "1125899906842625.2");

    printf("1..%d\n", test_count);
    return failures ? 1 : 0;
}
