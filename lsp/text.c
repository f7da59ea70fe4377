/* text.c — line starts, positions in UTF-16 units, UTF-8 repair (text.h).
 *
 * Positions are computed, not stored: a line's start is found by binary
 * search, then the line is walked character by character up to the
 * offset or the column.  Lines are short, so a request costs little even
 * in a file of a million lines, and nothing has to be kept in step with
 * the compiler's own line table.
 */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *lsp_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("mosaic-lsp: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void text_init(LspText *t, const char *s, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == len || s[i + 1] != '\n')))
            n++;
    t->s = s;
    t->len = len;
    t->lines = lsp_xrealloc(NULL, n * sizeof *t->lines);
    t->nlines = 0;
    t->lines[t->nlines++] = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == len || s[i + 1] != '\n')))
            t->lines[t->nlines++] = i + 1;
}

void text_free(LspText *t)
{
    free(t->lines);
    t->lines = NULL;
    t->nlines = 0;
}

/* The length of the well-formed UTF-8 sequence at s[0..n), or 0 if the
 * bytes there are not one; *code gets its code point. */
static size_t utf8_char(const unsigned char *s, size_t n, uint32_t *code)
{
    if (n == 0)
        return 0;
    unsigned char b = s[0];
    size_t len;
    uint32_t c, min;
    if (b < 0x80) {
        *code = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2, c = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3, c = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4, c = b & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c < 0xE000))
        return 0;
    *code = c;
    return len;
}

/* The character at s[i] (not past `end`): its bytes and UTF-16 units. */
static size_t step(const char *s, size_t i, size_t end, int *units)
{
    uint32_t c;
    size_t n = utf8_char((const unsigned char *)s + i, end - i, &c);
    if (n == 0) {
        *units = 1;
        return 1;
    }
    *units = c >= 0x10000 ? 2 : 1;
    return n;
}

/* The index of the line holding byte `offset`. */
static size_t line_of(const LspText *t, size_t offset)
{
    size_t lo = 0, hi = t->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->lines[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Where line li's text ends, before its line break. */
static size_t line_end(const LspText *t, size_t li)
{
    size_t end = li + 1 < t->nlines ? t->lines[li + 1] : t->len;
    if (end > t->lines[li] && li + 1 < t->nlines) {
        end--;                                          /* \n or a lone \r */
        if (end > t->lines[li] && t->s[end] == '\n' && t->s[end - 1] == '\r')
            end--;                                      /* \r\n */
    }
    return end;
}

LspPos text_position(const LspText *t, size_t offset)
{
    if (offset > t->len)
        offset = t->len;
    size_t li = line_of(t, offset);
    size_t end = line_end(t, li);
    int64_t col = 0;
    for (size_t i = t->lines[li]; i < offset && i < end;) {
        int units;
        size_t n = step(t->s, i, end, &units);
        if (i + n > offset)     /* inside a character: its start */
            break;
        i += n;
        col += units;
    }
    return (LspPos){(int64_t)li, col};
}

size_t text_offset(const LspText *t, LspPos p)
{
    if (p.line < 0)
        return 0;
    if ((uint64_t)p.line >= t->nlines)
        return t->len;
    size_t li = (size_t)p.line;
    size_t end = line_end(t, li);
    size_t i = t->lines[li];
    int64_t col = 0;
    while (i < end && col < p.character) {
        int units;
        size_t n = step(t->s, i, end, &units);
        if (col + units > p.character)  /* the middle of a surrogate pair */
            break;
        i += n;
        col += units;
    }
    return i;
}

char *text_utf8(const char *s, size_t n)
{
    /* each bad byte becomes three: U+FFFD is EF BF BD */
    char *out = lsp_xrealloc(NULL, 3 * n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        size_t k = utf8_char((const unsigned char *)s + i, n - i, &c);
        if (k == 0) {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        } else {
            if (c != 0) {
                memcpy(o, s + i, k);
                o += k;
            }
            i += k;
        }
    }
    *o = '\0';
    return out;
}
