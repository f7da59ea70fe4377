/* test_lexer.c — unit tests of the scanner (lexer/scan.l), TAP output.
 *
 * Each case scans a string with lex_dump_tokens and compares the tokens,
 * joined with " | ", with the expected sequence; error cases count the
 * E0001 diagnostics (the messages themselves go to a scratch stream).  The
 * cases cover what the grammar relies on: the newline rule of LANGUAGE.md
 * §1 (which tokens end a statement, `} else {`, continuation after an
 * operator, end of file), the angle brackets (place lists, Fut<Fut<int>>,
 * comparisons and shifts), numbers (`0..3`, `1.`, floats, hex, `_`,
 * too-big literals), string escapes, comments and lexical errors.  A
 * few parser cases close the loop: what the scanner decides (separators,
 * angle brackets, the `-` before a too-big literal) parses as intended, and
 * errors are reported once each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "lexer/lexer.h"
#include "parser/parser.h"

static int test_count;
static int failures;
static FILE *diag_sink;

static void report(int ok, const char *name)
{
    test_count++;
    if (!ok)
        failures++;
    printf("%sok %d - %s\n", ok ? "" : "not ", test_count, name);
}

/* Scans src (len bytes) and returns its tokens joined by " | " (static
 * buffer, valid until the next call). */
static const char *scan(const char *src, size_t len)
{
    static char buf[8192];
    uint32_t file = src_add("test.mos", src, len);
    FILE *tmp = tmpfile();
    if (!tmp) {
        perror("tmpfile");
        exit(99);
    }
    lex_dump_tokens(file, tmp);
    rewind(tmp);
    size_t n = 0;
    int c;
    while ((c = fgetc(tmp)) != EOF && n + 4 < sizeof buf) {
        if (c == '\n') {
            memcpy(buf + n, " | ", 3);
            n += 3;
        } else {
            buf[n++] = (char)c;
        }
    }
    fclose(tmp);
    if (n >= 3)
        n -= 3;     /* the separator after the last token */
    buf[n] = '\0';
    return buf;
}

static void check_tokens_n(const char *name, const char *src, size_t len, const char *expected)
{
    const char *got = scan(src, len);
    int ok = strcmp(got, expected) == 0;
    report(ok, name);
    if (!ok) {
        printf("#   source:   %s\n", src);
        printf("#   expected: %s\n", expected);
        printf("#   got:      %s\n", got);
    }
}

static void check_tokens(const char *name, const char *src, const char *expected)
{
    check_tokens_n(name, src, strlen(src), expected);
}

/* Scans src and checks the number of errors it reports. */
static void check_errors(const char *name, const char *src, size_t len, int expected)
{
    int before = diag_error_count();
    scan(src, len);
    int got = diag_error_count() - before;
    report(got == expected, name);
    if (got != expected)
        printf("#   expected %d error(s), got %d\n", expected, got);
}

static void check_tokens_and_errors(const char *name, const char *src, const char *expected,
                                    int errors)
{
    int before = diag_error_count();
    check_tokens(name, src, expected);
    int got = diag_error_count() - before;
    char label[256];
    snprintf(label, sizeof label, "%s: %d error(s)", name, errors);
    report(got == errors, label);
    if (got != errors)
        printf("#   expected %d error(s), got %d\n", errors, got);
}

static void newline_rule(void)
{
    check_tokens("newline after an identifier", "x\ny",
                 "identifier x | newline | identifier y | newline");
    check_tokens("end of file acts as a newline", "x", "identifier x | newline");
    check_tokens("no newline at end of file after an operator", "x +",
                 "identifier x | '+'");
    check_tokens("continuation after a binary operator", "a +\n  b\n",
                 "identifier a | '+' | identifier b | newline");
    check_tokens("continuation after and/or", "a and\nb or\nc",
                 "identifier a | 'and' | identifier b | 'or' | identifier c | newline");
    check_tokens("literals end a statement", "1\n2.5\n\"s\"\n",
                 "integer literal 1 | newline | float literal 2.5 | newline | "
                 "string literal \"s\" | newline");
    check_tokens("keywords that end a statement",
                 "this\nnull\ntrue\nfalse\nhere\nbreak\ncontinue\nreturn\n",
                 "'this' | newline | 'null' | newline | 'true' | newline | 'false' | newline | "
                 "'here' | newline | 'break' | newline | 'continue' | newline | "
                 "'return' | newline");
    check_tokens("closing brackets end a statement", ")\n]\n}\n",
                 "')' | newline | ']' | newline | '}' | newline");
    check_tokens("opening brackets and commas do not", "(\n[\n,\n{\n",
                 "'(' | '[' | ',' | '{' (map literal)");
    check_tokens("a { that begins a statement opens a block", "x\n{\n}\n",
                 "identifier x | newline | '{' | '}' | newline");
    check_tokens("a { after an operator opens a map literal; its lines are one",
                 "m = {\n1: 2,\n3: 4\n}\n",
                 "identifier m | '=' | '{' (map literal) | integer literal 1 | ':' | "
                 "integer literal 2 | ',' | integer literal 3 | ':' | integer literal 4 | "
                 "'}' | newline");
    check_tokens("Map< and >> closing two type lists", "Map<int, Map<int, int>>",
                 "'Map<' | identifier int | ',' | 'Map<' | identifier int | ',' | "
                 "identifier int | closing '>' | closing '>' | newline");
    check_tokens("keywords that do not end a statement", "if\nelse\nlet\nnot\nget\nnew\n",
                 "'if' | 'else' | 'let' | 'not' | 'get' | 'new'");
    check_tokens("blank lines give one newline", "x\n\n\n  \ny",
                 "identifier x | newline | identifier y | newline");
    check_tokens("} else { on one line", "} else {",
                 "'}' | 'else' | '{'");
    check_tokens("} newline else: a separator before else", "}\nelse {",
                 "'}' | newline | 'else' | '{'");
    check_tokens("semicolon is a separator", "a; b",
                 "identifier a | ';' | identifier b | newline");
    check_tokens("a call continued after a comma", "f(a,\n  b)\n",
                 "identifier f | '(' | identifier a | ',' | identifier b | ')' | newline");
    check_tokens("a place list's > ends a line", "let a = new Account<node(1)>\nx",
                 "'let' | identifier a | '=' | 'new' | identifier Account | "
                 "'<' (place list) | 'node' | '(' | integer literal 1 | ')' | "
                 "closing '>' | newline | identifier x | newline");
    check_tokens("Fut<int> ends a line", "var f: Fut<int>\n",
                 "'var' | identifier f | ':' | 'Fut<' | identifier int | closing '>' | newline");
    check_tokens("a comparison's > does not end a line", "a >\nb",
                 "identifier a | '>' | identifier b | newline");
}

static void angle_brackets(void)
{
    check_tokens("Fut<Fut<int>> closes twice", "Fut<Fut<int>>",
                 "'Fut<' | 'Fut<' | identifier int | closing '>' | closing '>' | newline");
    check_tokens("Fut < with spaces", "Fut < int >",
                 "'Fut<' | identifier int | closing '>' | newline");
    check_tokens("Fut alone is an identifier", "Fut(x)",
                 "identifier Fut | '(' | identifier x | ')' | newline");
    check_tokens("Fut<C<p>> closes the place list then Fut", "Fut<C<p>>",
                 "'Fut<' | identifier C | '<' (place list) | identifier p | closing '>' | "
                 "closing '>' | newline");
    check_tokens("place list with several terms", "C<p, ?, here, node(2)>",
                 "identifier C | '<' (place list) | identifier p | ',' | '?' | ',' | 'here' | "
                 "',' | 'node' | '(' | integer literal 2 | ')' | closing '>' | newline");
    check_tokens("node(e) in a place list", "new W<node(i % n), node(f(i))>",
                 "'new' | identifier W | '<' (place list) | 'node' | '(' | identifier i | '%' | "
                 "identifier n | ')' | ',' | 'node' | '(' | identifier f | '(' | identifier i | "
                 "')' | ')' | closing '>' | newline");
    check_tokens("array place", "[int]<p>",
                 "'[' | identifier int | ']' | '<' (place list) | identifier p | closing '>' | "
                 "newline");
    check_tokens("place list followed by = without space", "var x: C<p>= y",
                 "'var' | identifier x | ':' | identifier C | '<' (place list) | identifier p | "
                 "closing '>' | '=' | identifier y | newline");
    check_tokens("a < b is a comparison", "a < b",
                 "identifier a | '<' | identifier b | newline");
    check_tokens("comparison chain a < b > c reads as a place list", "a < b > c",
                 "identifier a | '<' (place list) | identifier b | closing '>' | "
                 "identifier c | newline");
    check_tokens("x < y >> 2 is a comparison and a shift", "x < y >> 2",
                 "identifier x | '<' | identifier y | '>>' | integer literal 2 | newline");
    check_tokens("shifts and comparisons", "a << b >> c <= d >= e",
                 "identifier a | '<<' | identifier b | '>>' | identifier c | '<=' | "
                 "identifier d | '>=' | identifier e | newline");
    check_tokens("a < b on one line, > on the next: comparisons", "if a < b {\n}\nc > d",
                 "'if' | identifier a | '<' | identifier b | '{' | '}' | newline | "
                 "identifier c | '>' | identifier d | newline");
    check_tokens("class place parameters", "class List<n, d> {",
                 "'class' | identifier List | '<' (place list) | identifier n | ',' | "
                 "identifier d | closing '>' | '{'");
}

static void numbers(void)
{
    check_tokens("0..3 is a range", "0..3",
                 "integer literal 0 | '..' | integer literal 3 | newline");
    check_tokens("1. is not a float", "1.x",
                 "integer literal 1 | '.' | identifier x | newline");
    check_tokens("floats", "1.5 2e10 6.02E-23 1e+5",
                 "float literal 1.5 | float literal 20000000000 | "
                 "float literal 6.0200000000000001e-23 | float literal 100000 | newline");
    check_tokens("integers: decimal, hex, separators", "42 0xff 0XfF 1_000_000 ",
                 "integer literal 42 | integer literal 255 | integer literal 255 | "
                 "integer literal 1000000 | newline");
    check_tokens("INT64_MAX fits", "9223372036854775807",
                 "integer literal 9223372036854775807 | newline");
    check_tokens("INT64_MAX + 1 is too big", "9223372036854775808",
                 "integer literal 9223372036854775808 (too big) | newline");
    check_tokens("2^64 saturates", "18446744073709551616",
                 "integer literal 18446744073709551615 (too big) | newline");
    check_tokens("minus is a separate token", "-1",
                 "'-' | integer literal 1 | newline");
    check_errors("malformed numbers are E0001", "1_ 0x 1e 12abc 1__0 1.5e+", 24, 6);
    check_errors("a float too large is E0001", "1e400", 5, 1);
    check_errors("a too-big integer is not the lexer's error", "99999999999999999999", 20, 0);
}

static void strings_and_comments(void)
{
    check_tokens("string escapes", "\"a\\n\\t\\r\\\\\\\"\\0z\"",
                 "string literal \"a\\n\\t\\r\\\\\\\"\\x00z\" | newline");
    check_tokens("unicode escape encodes UTF-8", "\"\\u{1F600}\\u{e9}\\u{41}\"",
                 "string literal \"\xF0\x9F\x98\x80\xC3\xA9" "A\" | newline");
    check_tokens("line comment", "x // comment\ny",
                 "identifier x | newline | identifier y | newline");
    check_tokens("block comment on one line", "x /* c */ + y",
                 "identifier x | '+' | identifier y | newline");
    check_tokens("block comment with a newline acts as a newline", "x /* a\nb */ y",
                 "identifier x | newline | identifier y | newline");
    check_tokens("comment after an operator does not end the line", "x + /* a\nb */ y",
                 "identifier x | '+' | identifier y | newline");
    check_tokens("keywords are not identifiers", "layout rec reads writes sends local unit",
                 "'layout' | 'rec' | 'reads' | 'writes' | 'sends' | 'local' | 'unit' | newline");
    check_tokens("identifiers may contain keywords", "node_id nodes here2 _x",
                 "identifier node_id | identifier nodes | identifier here2 | identifier _x | newline");
    check_tokens("operators", "+= -= *= /= %= == != ! ? : . & | ^ % /",
                 "'+=' | '-=' | '*=' | '/=' | '%=' | '==' | '!=' | '!' | '?' | ':' | '.' | '&' | "
                 "'|' | '^' | '%' | '/'");
}

static void errors(void)
{
    check_tokens_and_errors("a run of bad characters is one error", "a @@@ b",
                            "identifier a | identifier b | newline", 1);
    check_errors("two runs are two errors", "@ x #", 5, 2);
    check_tokens_and_errors("unterminated string still gives a string", "\"abc\nx",
                            "string literal \"abc\" | newline | identifier x | newline", 1);
    check_errors("unterminated string at end of file", "\"abc", 4, 1);
    check_errors("unknown escape", "\"\\q\"", 4, 1);
    check_errors("surrogate code point", "\"\\u{D800}\"", 10, 1);
    check_errors("code point too large", "\"\\u{110000}\"", 12, 1);
    check_errors("malformed unicode escape", "\"\\u{} \\u12\"", 11, 2);
    check_tokens_and_errors("unterminated block comment", "x /* never closed\n y",
                            "identifier x | newline", 1);
    check_errors("NUL byte outside a string", "x \0 y", 5, 1);
    check_tokens_n("NUL byte inside a string", "\"a\0b\"", 5,
                   "string literal \"a\\x00b\" | newline");
}

/* Parses src and checks the number of errors and, if `dump` is given, that
 * the printed AST contains it. */
static void check_parse(const char *name, const char *src, int errors, const char *dump)
{
    int before = diag_error_count();
    Program *p = parse_program(src_add("test.mos", src, strlen(src)));
    int got = diag_error_count() - before;
    char text[4096] = "";
    FILE *tmp = tmpfile();
    if (tmp) {
        ast_print(tmp, p);
        rewind(tmp);
        size_t n = fread(text, 1, sizeof text - 1, tmp);
        text[n] = '\0';
        fclose(tmp);
    }
    int ok = got == errors && (!dump || strstr(text, dump));
    report(ok, name);
    if (!ok) {
        printf("#   expected %d error(s), got %d\n", errors, got);
        if (dump)
            printf("#   expected in the AST: %s\n#   AST: %s\n", dump, text);
    }
}

/* The parser's side of the lexical contract: literals, separators, and the
 * errors it reports for the scanner's context decisions. */
static void parser(void)
{
    check_parse("-9223372036854775808 folds into INT64_MIN",
                "def main() { let x = -9223372036854775808 }", 0, "(let x _ -9223372036854775808)");
    check_parse("binary minus does not fold", "def main() { let x = 0 - 9223372036854775808 }",
                1, NULL);
    check_parse("a too-big literal is an error", "def main() { f(18446744073709551616) }", 1, NULL);
    check_parse("} else { on one line", "def f() {\n  if a {\n  } else {\n  }\n}\n", 0,
                "(if a");
    check_parse("} newline else is an error", "def f() {\n  if a {\n  }\n  else {\n  }\n}\n",
                1, NULL);
    check_parse("members on one line with ;", "class P { var x: float; var y: float }", 0,
                "(var y float)");
    check_parse("Fut<Fut<int>> in a type", "def f(x: Fut<Fut<int>>) {}", 0,
                "(x Fut<Fut<int>>)");
    check_parse("new with places at the end of a line",
                "def main() {\n  let a = new Account<node(1)>\n  a.f()\n}", 0,
                "(new Account<node(1)>)");
    check_parse("new A<node(e)> keeps the expression",
                "def main() { let w = new W<node(i + 1)> }", 0, "(new W<node((+ i 1))>)");
    check_parse("node(e) in a type is an error", "def f(x: C<node(i)>) {}", 1, NULL);
    check_parse("a missing } is one error",
                "def f() {\n  if a {\n}\ndef g() {\n}\ndef h() {\n}\n", 1, NULL);
    check_parse("several errors are all reported",
                "def f() {\n  let = 1\n  x = = 2\n  var y\n}\n", 3, NULL);
    check_parse("an error after a bad character is not repeated", "def f() {\n  x @ y\n}\n",
                1, NULL);
}

int main(void)
{
    /* Messages are counted, not shown: the TAP stream stays clean. */
    diag_sink = tmpfile();
    diag_set_stream(diag_sink ? diag_sink : stderr);
    newline_rule();
    angle_brackets();
    numbers();
    strings_and_comments();
    errors();
    parser();
    printf("1..%d\n", test_count);
    if (diag_sink)
        fclose(diag_sink);
    arena_free_all();
    return failures ? 1 : 0;
}
