/* test_diag.c — unit tests of support/diag.c and support/arena.c.
 *
 * The message format is a contract with users and with the test harness
 * (tests/run-test.sh reads `FILE:LINE:COL: error[CODE]`), so it is checked
 * here byte for byte: the header line, the excerpt with its gutter, the
 * underline under tabs and multi-byte characters, notes, errors without a
 * place, and the suggestion helper.  Diagnostics are captured with
 * diag_set_stream into a memory stream.
 */
#define _GNU_SOURCE 1   /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "tests/unit/tap.h"

static char *buf;
static size_t buflen;
static FILE *mem;

static void capture(void)
{
    free(buf);
    buf = NULL;
    mem = open_memstream(&buf, &buflen);
    diag_set_stream(mem);
}

static const char *captured(void)
{
    fclose(mem);
    mem = NULL;
    diag_set_stream(NULL);
    return buf;
}

/* The location of the first occurrence of `what` in `text` (file `f`). */
static Loc find(uint32_t f, const char *text, const char *what)
{
    const char *p = strstr(text, what);
    if (!p) {
        printf("# test bug: '%s' not in source\n", what);
        exit(99);
    }
    Loc loc = {f, (uint32_t)(p - text), (uint32_t)(p - text + strlen(what))};
    return loc;
}

static void test_basic(void)
{
    const char *src = "def main() {\n    let x = yy\n}\n";
    uint32_t f = src_add("t.mos", src, strlen(src));
    TAP_OK(f != 0, "file ids start at 1");
    TAP_STR_EQ(src_path(f), "t.mos", "src_path");
    TAP_OK(src_length(f) == strlen(src), "src_length");
    TAP_OK(strcmp(src_text(f), src) == 0, "src_text is a copy of the text");

    int before = diag_error_count();
    capture();
    diag_error(find(f, src, "yy"), DIAG_E0100, "undefined variable '%s'", "yy");
    TAP_STR_EQ(captured(),
               "t.mos:2:13: error[E0100]: undefined variable 'yy'\n"
               "    2 |     let x = yy\n"
               "      |             ^~\n",
               "error: header, excerpt, underline");
    TAP_OK(diag_error_count() == before + 1, "an error is counted");

    capture();
    diag_note(find(f, src, "main"), "'%s' declared here", "main");
    TAP_STR_EQ(captured(), "t.mos:1:5: note: 'main' declared here\n",
               "note: location, no excerpt");
    TAP_OK(diag_error_count() == before + 1, "a note is not counted");

    capture();
    diag_note(LOC_NONE, "see the manual");
    TAP_STR_EQ(captured(), "note: see the manual\n", "note without a place");

    capture();
    diag_error_noloc(DIAG_E0402, "unknown layout name '%s'", "P");
    TAP_STR_EQ(captured(), "mosaicc: error[E0402]: unknown layout name 'P'\n",
               "error without a place");
    TAP_OK(diag_error_count() == before + 2, "an error without a place is counted");
}

static void test_tabs_and_utf8(void)
{
    const char *src = "\tfoo\tbar\n";
    uint32_t f = src_add("tab.mos", src, strlen(src));
    capture();
    diag_error(find(f, src, "bar"), DIAG_E0200, "m");
    TAP_STR_EQ(captured(),
               "tab.mos:1:6: error[E0200]: m\n"
               "    1 |     foo    bar\n"
               "      |            ^~~\n",
               "tabs: one column each, shown as spaces, underline aligned");

    capture();
    diag_error(find(f, src, "foo\tb"), DIAG_E0200, "m");
    TAP_STR_EQ(captured(),
               "tab.mos:1:2: error[E0200]: m\n"
               "    1 |     foo    bar\n"
               "      |     ^~~~~~~~\n",
               "a tab inside the span is underlined over its whole width");

    const char *u = "let \xc3\xa9t\xc3\xa9 = \"\xe2\x82\xac\" + zz\n";
    uint32_t g = src_add("u.mos", u, strlen(u));
    capture();
    diag_error(find(g, u, "zz"), DIAG_E0202, "m");
    TAP_STR_EQ(captured(),
               "u.mos:1:17: error[E0202]: m\n"
               "    1 | let \xc3\xa9t\xc3\xa9 = \"\xe2\x82\xac\" + zz\n"
               "      |                 ^~\n",
               "columns count code points, not bytes");

    capture();
    diag_error(find(g, u, "\xc3\xa9t\xc3\xa9"), DIAG_E0202, "m");
    TAP_STR_EQ(captured(),
               "u.mos:1:5: error[E0202]: m\n"
               "    1 | let \xc3\xa9t\xc3\xa9 = \"\xe2\x82\xac\" + zz\n"
               "      |     ^~~\n",
               "a span of multi-byte characters is one mark per character");
}

static void test_spans(void)
{
    const char *src = "a = (1 +\n     2)\r\nlast";
    uint32_t f = src_add("s.mos", src, strlen(src));

    Loc multi = find(f, src, "(1 +\n     2)");
    capture();
    diag_error(multi, DIAG_E0200, "m");
    TAP_STR_EQ(captured(),
               "s.mos:1:5: error[E0200]: m\n"
               "    1 | a = (1 +\n"
               "      |     ^~~~\n",
               "a span over lines is underlined to the end of its first line");

    Loc empty = find(f, src, "2)");
    empty.end = empty.start;
    capture();
    diag_error(empty, DIAG_E0002, "m");
    TAP_STR_EQ(captured(),
               "s.mos:2:6: error[E0002]: m\n"
               "    2 |      2)\n"
               "      |      ^\n",
               "an empty span gets one caret; CR of CRLF is not shown");

    Loc eof = {f, (uint32_t)strlen(src), (uint32_t)strlen(src)};
    capture();
    diag_error(eof, DIAG_E0002, "unexpected end of file");
    TAP_STR_EQ(captured(),
               "s.mos:3:5: error[E0002]: unexpected end of file\n"
               "    3 | last\n"
               "      |     ^\n",
               "a location at the end of the file");

    Loc beyond = {f, 10000, 20000};
    capture();
    diag_error(beyond, DIAG_E0002, "m");
    TAP_STR_EQ(captured(),
               "s.mos:3:5: error[E0002]: m\n"
               "    3 | last\n"
               "      |     ^\n",
               "offsets past the end are clamped, not a crash");

    const char *nl = "x\n";
    uint32_t g = src_add("nl.mos", nl, strlen(nl));
    Loc after = {g, 2, 2};
    capture();
    diag_error(after, DIAG_E0002, "m");
    TAP_STR_EQ(captured(),
               "nl.mos:2:1: error[E0002]: m\n"
               "    2 |\n"
               "      | ^\n",
               "an empty last line");

    const char *ten = "1\n2\n3\n4\n5\n6\n7\n8\n9\nten\n";
    uint32_t h = src_add("ten.mos", ten, strlen(ten));
    capture();
    diag_error(find(h, ten, "ten"), DIAG_E0100, "m");
    TAP_STR_EQ(captured(),
               "ten.mos:10:1: error[E0100]: m\n"
               "   10 | ten\n"
               "      | ^~~\n",
               "the gutter is right-aligned");
}

static void test_line_col(void)
{
    const char *src = "ab\ncd\n\xc3\xa9x";
    uint32_t f = src_add("lc.mos", src, strlen(src));
    int line, col;
    src_line_col(f, 0, &line, &col);
    TAP_OK(line == 1 && col == 1, "offset 0 is 1:1");
    src_line_col(f, 2, &line, &col);
    TAP_OK(line == 1 && col == 3, "the newline is at the end of its line");
    src_line_col(f, 3, &line, &col);
    TAP_OK(line == 2 && col == 1, "after a newline: next line, column 1");
    src_line_col(f, 8, &line, &col);
    TAP_OK(line == 3 && col == 2, "after a 2-byte character: column 2");

    Loc a = {f, 3, 5}, b = {f, 0, 1};
    Loc j = loc_join(a, b);
    TAP_OK(j.file == f && j.start == 0 && j.end == 5, "loc_join covers both");
    j = loc_join(LOC_NONE, a);
    TAP_OK(j.start == 3 && j.end == 5, "loc_join with LOC_NONE is the other");

    TAP_STR_EQ(diag_code_name(DIAG_E0900), "E0900", "diag_code_name");
    TAP_STR_EQ(diag_code_name(DIAG_E0001), "E0001", "diag_code_name of the first");
}

static void test_colour(void)
{
    const char *src = "let x = yy\n";
    uint32_t f = src_add("c.mos", src, strlen(src));
    diag_set_color(DIAG_COLOR_ALWAYS);
    capture();
    diag_error(find(f, src, "yy"), DIAG_E0100, "undefined variable '%s'", "yy");
    diag_note(find(f, src, "x"), "a note");
    diag_note(LOC_NONE, "another");
    TAP_STR_EQ(captured(),
               "\033[1mc.mos:1:9:\033[0m \033[1;31merror[E0100]\033[0m"
               "\033[1m: undefined variable 'yy'\033[0m\n"
               "\033[1;34m    1 |\033[0m let x = yy\n"
               "\033[1;34m      |\033[0m         \033[1;31m^~\033[0m\n"
               "\033[1mc.mos:1:5:\033[0m \033[1;32mnote\033[0m: a note\n"
               "\033[1;32mnote\033[0m: another\n",
               "colour: bold place, red error and underline, blue gutter, green note");
    capture();
    diag_error_noloc(DIAG_E0402, "m");
    TAP_STR_EQ(captured(), "\033[1mmosaicc:\033[0m \033[1;31merror[E0402]\033[0m\033[1m: m\033[0m\n",
               "colour: an error without a place");
    diag_set_color(DIAG_COLOR_AUTO);
    capture();
    diag_error_noloc(DIAG_E0402, "m");
    TAP_STR_EQ(captured(), "mosaicc: error[E0402]: m\n", "colour: auto, not a terminal: none");
    diag_set_color(DIAG_COLOR_NEVER);
}

/* --error-format=json: one object per line, written when the next
 * diagnostic begins or at diag_finish; strings escaped so that any bytes
 * give valid JSON. */
static void test_json(void)
{
    diag_reset();
    const char *src = "x = \"\xff\" + y\n";
    uint32_t f = src_add("j.mos", src, strlen(src));
    diag_set_format(DIAG_FORMAT_JSON);
    capture();
    diag_error(find(f, src, "y"), DIAG_E0100, "q\"b\\c\001d\te\xff\xc3\xa9");
    diag_suggest(find(f, src, "x"), find(f, src, "y"), "x", "did you mean '%s'?", "x");
    diag_error_noloc(DIAG_E0402, "m");
    diag_finish(1);
    diag_error_noloc(DIAG_E0402, "after the end");
    diag_finish(1);
    const char *got = captured();
    const char *span_y = "{\"file\":\"j.mos\",\"line_start\":1,\"column_start\":11,"
                         "\"line_end\":1,\"column_end\":12,\"byte_start\":10,\"byte_end\":11,"
                         "\"is_primary\":true,\"label\":null}";
    char want[2048];
    snprintf(want, sizeof want,
             "{\"code\":\"E0100\",\"severity\":\"error\","
             "\"message\":\"q\\\"b\\\\c\\u0001d\\te\xef\xbf\xbd\xc3\xa9\","
             "\"spans\":[%s],"
             "\"notes\":[{\"message\":\"did you mean 'x'?\",\"span\":{\"file\":\"j.mos\","
             "\"line_start\":1,\"column_start\":1,\"line_end\":1,\"column_end\":2,"
             "\"byte_start\":0,\"byte_end\":1,\"is_primary\":true,\"label\":null}}],"
             "\"suggestions\":[{\"message\":\"did you mean 'x'?\",\"replacement\":\"x\","
             "\"span\":%s}],"
             "\"rendered\":\"j.mos:1:11: error[E0100]: q\\\"b\\\\c\\u0001d\\te\xef\xbf\xbd\xc3\xa9\\n"
             "    1 | x = \\\"\xef\xbf\xbd\\\" + y\\n"
             "      |           ^\\n"
             "j.mos:1:1: note: did you mean 'x'?\\n\"}\n"
             "{\"code\":\"E0402\",\"severity\":\"error\",\"message\":\"m\",\"spans\":[],"
             "\"notes\":[],\"suggestions\":[],\"rendered\":\"mosaicc: error[E0402]: m\\n\"}\n",
             span_y, span_y);
    TAP_STR_EQ(got, want, "json: fields, escapes, U+FFFD for a bad byte, a suggestion");
    TAP_OK(!strstr(got, "after the end"), "json: nothing written after diag_finish");
    diag_set_format(DIAG_FORMAT_HUMAN);
    diag_reset();
}

static void test_closest(void)
{
    const char *names[] = {"length", "width", "count", "x"};
    size_t n = sizeof names / sizeof names[0];
    TAP_STR_EQ(diag_closest("lenght", names, n), "length", "closest: a transposition");
    TAP_STR_EQ(diag_closest("cont", names, n), "count", "closest: a missing letter");
    TAP_STR_EQ(diag_closest("y", names, n), "x", "closest: one edit always allowed");
    TAP_OK(diag_closest("banana", names, n) == NULL, "closest: nothing plausible");
    TAP_OK(diag_closest("width", names, n) == NULL, "closest: the name itself is no suggestion");
    TAP_OK(diag_closest("abc", NULL, 0) == NULL, "closest: no candidates");
}

static void test_arena(void)
{
    const char *a = intern("counter", 7);
    const char *b = intern_cstr("counter");
    char tmp[] = "counterX";
    const char *c = intern(tmp, 7);
    TAP_OK(a == b && b == c, "interned equal strings are one pointer");
    TAP_OK(intern_cstr("count") != a, "different strings differ");
    TAP_STR_EQ(a, "counter", "interned string is NUL-terminated");
    TAP_OK(intern("a\0b", 3) != intern("a\0c", 3), "interning compares all bytes");

    /* Many names: the table grows without losing any. */
    const char *first = NULL;
    int ok = 1;
    for (int i = 0; i < 5000; i++) {
        const char *s = intern_cstr(arena_printf("name%d", i));
        if (i == 0) first = s;
        if (strcmp(s, arena_printf("name%d", i)) != 0) ok = 0;
    }
    TAP_OK(ok && intern_cstr("name0") == first, "interning survives growth");

    unsigned char *p = arena_alloc(100);
    int zero = 1;
    for (int i = 0; i < 100; i++) zero &= p[i] == 0;
    TAP_OK(zero, "arena memory is zeroed");
    TAP_OK(((uintptr_t)arena_alloc(3) & 15) == 0 && ((uintptr_t)arena_alloc(1) & 15) == 0,
           "arena memory is 16-byte aligned");
    unsigned char *big = arena_alloc(3u << 20);
    big[(3u << 20) - 1] = 1;
    TAP_OK(big[0] == 0, "a block larger than the default block");
    TAP_STR_EQ(arena_printf("%s=%d", "x", 42), "x=42", "arena_printf");
    TAP_STR_EQ(arena_strndup("abcdef", 3), "abc", "arena_strndup");
    arena_free_all();
    TAP_STR_EQ(intern_cstr("after"), "after", "the arena works again after arena_free_all");
}

int main(void)
{
    TAP_PLAN(51);
    test_basic();
    test_tabs_and_utf8();
    test_spans();
    test_line_col();
    test_colour();
    test_json();
    test_closest();
    test_arena();
    arena_free_all();
    free(buf);
    return tap_done();
}
