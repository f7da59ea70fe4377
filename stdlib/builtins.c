/* builtins.c — the built-in functions that need the runtime.
 *
 * parse_int(s), parse_float(s), int(x) on floats and clock() (LANGUAGE.md
 * §3, §8); nodes()
 * and node_id() are in nodes.c, with the topology they describe.  The
 * maths built-ins (sqrt, sin, ..., abs, min, max) and float(i) are not
 * here: codegen emits them inline or as libm calls.
 *
 * parse_int accepts exactly an optional '+' or '-' followed by one or
 * more decimal digits, with a value that fits in 64 bits (so
 * "-9223372036854775808" is fine) — no spaces, no '_', no "0x": the text a
 * program reads from its arguments or input, not source syntax.  Anything
 * else is the runtime error "invalid integer: 'TEXT'".  int(x) truncates
 * toward zero; NaN, the infinities and values outside int's range are
 * "invalid conversion".  parse_float(s) (LANGUAGE.md §8) accepts exactly
 * the decimal forms and the names inf, infinity and nan, and is "invalid
 * float: 'TEXT'" otherwise.
 */
#include "rt_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How much of a bad string an error message quotes. */
#define QUOTE_MAX 64

/* Copies s into out as a printable quotation: control bytes (NUL and
 * newline included) as \xHH, cut at QUOTE_MAX bytes with "...".  out must
 * hold 4 * QUOTE_MAX + 4 bytes. */
static void quote(const MosString *s, char *out)
{
    static const char hex[] = "0123456789abcdef";
    char *p = out;
    int64_t n = s->length < QUOTE_MAX ? s->length : QUOTE_MAX;
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s->bytes[i];
        if (c < 0x20 || c == 0x7f || c == '\\') {
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
    }
    if (s->length > QUOTE_MAX) {
        memcpy(p, "...", 3);
        p += 3;
    }
    *p = '\0';
}

static _Noreturn void bad_integer(const MosString *s, const char *where)
{
    char text[4 * QUOTE_MAX + 4];
    quote(s, text);
    rt_panicf(where, "invalid integer: '%s'", text);
}

/* Up to this many digits cannot overflow (10^18 - 1 < 2^63 - 1), so a
 * number that short, the usual field of a record, is parsed with no
 * overflow test per digit. */
#define SAFE_DIGITS 18

int64_t mos_parse_int(MosString *s, const char *where)
{
    if (!s)
        s = rt_empty_string();
    const unsigned char *p = (const unsigned char *)s->bytes;
    const unsigned char *end = p + s->length;
    int negative = 0;
    if (p < end && (*p == '+' || *p == '-')) {
        negative = *p == '-';
        p++;
    }
    if (p == end)
        bad_integer(s, where);          /* "", "+", "-" */
    uint64_t value = 0;
    if (end - p <= SAFE_DIGITS) {
        /* a byte that is not a digit makes `digit` at least 10 (bytes
         * below '0' wrap around): one test per byte */
        for (; p < end; p++) {
            unsigned digit = (unsigned)*p - '0';
            if (digit > 9)
                bad_integer(s, where);
            value = value * 10 + digit;
        }
        return negative ? (int64_t)(0 - value) : (int64_t)value;
    }
    /* Accumulate the magnitude as unsigned; the bound is 2^63 for a
     * negative number (INT64_MIN) and 2^63 - 1 otherwise. */
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            bad_integer(s, where);
        unsigned digit = *p - '0';
        if (value > (limit - digit) / 10)
            bad_integer(s, where);      /* does not fit in int */
        value = value * 10 + digit;
    }
    return negative ? (int64_t)(0 - value) : (int64_t)value;
}

int64_t mos_float_to_int(double v, const char *where)
{
    /* int's range is [-2^63, 2^63); both bounds are exact doubles, and
     * every double in (-2^63 - 1, -2^63) would truncate into range but
     * none exists (the spacing there is 2048). */
    if (isnan(v) || v < -0x1p63 || v >= 0x1p63) {
        char text[RT_FLOAT_BUF];
        rt_format_float(v, text);
        rt_panicf(where, "invalid conversion: float %s does not fit in int",
                  text);
    }
    return (int64_t)v;  /* C's conversion truncates toward zero */
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Whether bytes[0..n) spell `word`, in any case (word is lower case). */
static int spells(const unsigned char *p, size_t n, const char *word)
{
    if (strlen(word) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((p[i] | 0x20) != (unsigned char)word[i])
            return 0;
    return 1;
}

/* LANGUAGE.md §8's float syntax, exactly: sign? (digits ("." digits?)? |
 * "." digits) (("e"|"E") sign? digits)?, or inf, infinity, nan in any
 * case after the sign. */
static int float_syntax(const unsigned char *p, const unsigned char *end)
{
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    size_t rest = (size_t)(end - p);
    if (spells(p, rest, "inf") || spells(p, rest, "infinity") ||
        spells(p, rest, "nan"))
        return 1;
    int digits = 0;
    while (p < end && is_digit(*p))
        p++, digits++;
    if (p < end && *p == '.') {
        p++;
        while (p < end && is_digit(*p))
            p++, digits++;
    }
    if (digits == 0)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end || !is_digit(*p))
            return 0;
        while (p < end && is_digit(*p))
            p++;
    }
    return p == end;
}

/* parse_float: the syntax is checked here, the value is glibc's strtod,
 * which rounds correctly (to nearest, ties to even) for any number of
 * digits, gives subnormals below DBL_MIN and infinities above DBL_MAX.
 * The runtime never sets a locale, so strtod's decimal point is '.'; a
 * NUL inside the string fails the syntax. */
double mos_parse_float(MosString *s, const char *where)
{
    const unsigned char *p = (const unsigned char *)s->bytes;
    if (!float_syntax(p, p + s->length)) {
        char text[4 * QUOTE_MAX + 4];
        quote(s, text);
        rt_panicf(where, "invalid float: '%s'", text);
    }
    return strtod(rt_string_cstr(s), NULL);
}

double mos_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
