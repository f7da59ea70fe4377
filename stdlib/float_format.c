/* float_format.c — floats as text, exactly as Python 3's repr(float).
 *
 * LANGUAGE.md §3 fixes the text of a float: the shortest decimal digit
 * string that reads back to the same double (when two such strings are
 * equally short, the one nearest the double; on an exact tie, the one with
 * an even last digit), written in fixed notation when the decimal exponent
 * e of the leading digit has -4 <= e < 16 (".0" after an integral value),
 * else in scientific notation "d.ddde+XX" with a sign and at least two
 * exponent digits; "inf", "-inf", "nan" (every NaN), "-0.0".
 *
 * How the digits are found.  C's printf("%.16e") is exact (glibc rounds
 * the true binary value correctly, ties to even): it gives full, v
 * rounded to 17 significant digits, which always reads back to v.  strtod
 * (also exact) tells whether a string reads back to v, and the decimals
 * that do form an interval around v.  For a length L < 17, v's two
 * neighbours among L-digit decimals are full cut to L digits and the next
 * one up (try_length explains why, and the corner cases), and full's
 * remaining digits say which is nearer; so "is there an L-digit decimal
 * that reads back, and which is the nearest" costs one or two strtod
 * calls.  That property is monotone in L (every L-digit decimal is also an
 * (L+1)-digit one), so a binary search over L in [1, 17] finds the
 * shortest in four or five rounds.
 *
 * This is slower than Ryu or Schubfach (about a microsecond a float) but
 * short and plainly correct given a correct libc, which is what matters
 * for output; integral values below 2^53 — the most common floats in
 * programs' output — take a direct path with no libc call at all.
 * tests/unit/test_float_format.c holds the cases; it was also checked
 * against Python's repr on millions of random doubles.
 *
 * The runtime never calls setlocale(), so printf and strtod use '.'.
 *
 * Not here: parsing floats (the compiler's lexer does that), or any other
 * float format (there is none in the language).
 */
#include "rt_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 17 significant digits always identify a double (DBL_DECIMAL_DIG). */
#define MAX_DIGITS 17

/* A positive decimal d0.d1d2... x 10^exp with n significant digits
 * (ASCII '0'..'9', not NUL-terminated). */
typedef struct {
    char d[MAX_DIGITS];
    int n;
    int exp;
} Decimal;

/* Writes "d.ddde<exp>" (a form strtod reads) into buf; returns buf. */
static char *decimal_to_c(const Decimal *x, char *buf)
{
    char *p = buf;
    *p++ = x->d[0];
    if (x->n > 1) {
        *p++ = '.';
        memcpy(p, x->d + 1, (size_t)x->n - 1);
        p += x->n - 1;
    }
    *p++ = 'e';
    int e = x->exp;
    if (e < 0) {
        *p++ = '-';
        e = -e;
    }
    /* |exp| <= 324; hand-made because sprintf is most of the cost here */
    if (e >= 100)
        *p++ = (char)('0' + e / 100);
    if (e >= 10)
        *p++ = (char)('0' + e / 10 % 10);
    *p++ = (char)('0' + e % 10);
    *p = '\0';
    return buf;
}

static double decimal_value(const Decimal *x)
{
    char buf[48];
    return strtod(decimal_to_c(x, buf), NULL);
}

/* The (p+1)-digit decimal nearest to v > 0, from printf. */
static Decimal nearest(double v, int p)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", p, v);
    Decimal x;
    const char *s = buf;
    x.n = 0;
    x.d[x.n++] = *s++;
    if (*s == '.') {
        s++;
        while (*s >= '0' && *s <= '9')
            x.d[x.n++] = *s++;
    }
    /* s is at 'e' */
    x.exp = atoi(s + 1);
    return x;
}

/* The next (p+1)-digit decimal above x (one unit in the last place). */
static Decimal next_up(Decimal x)
{
    int i = x.n - 1;
    while (i >= 0 && x.d[i] == '9')
        x.d[i--] = '0';
    if (i >= 0) {
        x.d[i]++;
    } else {            /* 9.99 -> 10.0, i.e. 1.00 one decade up */
        x.d[0] = '1';
        x.exp++;
    }
    return x;
}

/* Is there a decimal of L significant digits (1 <= L < 17) that reads
 * back to v?  If so, *out gets the nearest such decimal to v.
 *
 * full is v correctly rounded to 17 digits.  No 17-digit decimal lies
 * strictly between v and full (full is the nearest one), and every
 * L-digit decimal is a 17-digit one, so:
 *   - when full's digits after the L-th are not all zero, v lies strictly
 *     inside the same L-digit cell as full: its neighbours in the L-digit
 *     grid are t (full truncated to L digits) and t + one unit, and full's
 *     remaining digits against 5000... say which one is nearer (when
 *     they are exactly 5000..., v may be on either side of the midpoint
 *     or on it: then printf's own rounding to L digits decides, since it
 *     rounds the exact value, ties to even, as repr does);
 *   - when they are all zero, t = full is within half a 17-digit unit of
 *     v and every other L-digit decimal is at least nine such halves away
 *     on either side; the interval that reads back to v is at most twice
 *     as wide on one side as on the other, so if t is outside it, so is
 *     everything else.
 * The interval is convex, so when the nearer neighbour is outside it,
 * only the other neighbour can be inside. */
static int try_length(double v, const Decimal *full, int L, Decimal *out)
{
    Decimal t = *full;
    t.n = L;
    int cmp = 0, rest_zero = 1;
    for (int i = L; i < full->n; i++) {
        int want = i == L ? '5' : '0';
        if (full->d[i] != '0')
            rest_zero = 0;
        if (cmp == 0 && full->d[i] != want)
            cmp = full->d[i] < want ? -1 : 1;
    }
    if (rest_zero) {
        if (decimal_value(&t) != v)
            return 0;
        *out = t;
        return 1;
    }
    Decimal u = next_up(t);
    Decimal first, second;
    if (cmp < 0) {
        first = t;
        second = u;
    } else if (cmp > 0) {
        first = u;
        second = t;
    } else {
        first = nearest(v, L - 1);
        int first_is_t = memcmp(first.d, t.d, (size_t)L) == 0 &&
                         first.exp == t.exp;
        second = first_is_t ? u : t;
    }
    if (decimal_value(&first) == v) {
        *out = first;
        return 1;
    }
    if (decimal_value(&second) == v) {
        *out = second;
        return 1;
    }
    return 0;
}

/* Shortest digits of a finite v > 0: a binary search for the least length
 * that reads back (the property is monotone in the length), starting from
 * 17 digits, which always do. */
static Decimal shortest(double v)
{
    Decimal full = nearest(v, MAX_DIGITS - 1);
    Decimal best = full;
    int lo = 1, hi = MAX_DIGITS;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        Decimal x;
        if (try_length(v, &full, mid, &x)) {
            hi = mid;
            best = x;
        } else {
            lo = mid + 1;
        }
    }
    while (best.n > 1 && best.d[best.n - 1] == '0')
        best.n--;               /* only on the 17-digit answer */
    return best;
}

/* Lays out the digits as repr() does; returns the length written. */
static int layout(const Decimal *x, char *out)
{
    char *p = out;
    int e = x->exp;
    if (e >= -4 && e < 16) {
        if (e >= 0) {
            for (int i = 0; i <= e; i++)
                *p++ = i < x->n ? x->d[i] : '0';
            *p++ = '.';
            if (x->n > e + 1) {
                memcpy(p, x->d + e + 1, (size_t)(x->n - e - 1));
                p += x->n - e - 1;
            } else {
                *p++ = '0';
            }
        } else {
            *p++ = '0';
            *p++ = '.';
            for (int i = 0; i < -e - 1; i++)
                *p++ = '0';
            memcpy(p, x->d, (size_t)x->n);
            p += x->n;
        }
    } else {
        *p++ = x->d[0];
        if (x->n > 1) {
            *p++ = '.';
            memcpy(p, x->d + 1, (size_t)x->n - 1);
            p += x->n - 1;
        }
        *p++ = 'e';
        *p++ = e < 0 ? '-' : '+';
        int a = e < 0 ? -e : e;         /* at most 324 */
        if (a >= 100)
            *p++ = (char)('0' + a / 100);
        *p++ = (char)('0' + a / 10 % 10);
        *p++ = (char)('0' + a % 10);
    }
    *p = '\0';
    return (int)(p - out);
}

int rt_format_float(double v, char *buf)
{
    char *p = buf;
    if (isnan(v)) {
        strcpy(buf, "nan");
        return 3;
    }
    if (signbit(v)) {
        *p++ = '-';
        v = -v;
    }
    if (isinf(v)) {
        strcpy(p, "inf");
        return (int)(p - buf) + 3;
    }
    if (v == 0.0) {
        strcpy(p, "0.0");
        return (int)(p - buf) + 3;
    }
    /* Integral and below 2^53: every integer digit is significant (a
     * shorter string would be at least 1 away, more than half an ulp),
     * and the value is below 10^16, so repr is the integer plus ".0". */
    if (v < 9007199254740992.0 && v == floor(v)) {
        int n = rt_format_int((int64_t)v, p);
        p += n;
        strcpy(p, ".0");
        return (int)(p - buf) + 2;
    }
    Decimal x = shortest(v);
    return (int)(p - buf) + layout(&x, p);
}
