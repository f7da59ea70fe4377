/* explain.c — `mosaicc --explain CODE`, and the note that points at it.
 *
 * An error message has room for one line about one program; the page of
 * its code has room for the rule behind it, the usual ways to break it,
 * and a wrong program beside the fixed one.  The pages are written in
 * docs/errors/CODE.md and reach this file as the table explain_pages
 * (explain.h); here they are only looked up and printed, as they are
 * written: Markdown-ish plain text, readable in a terminal or through a
 * pager.
 *
 * A code may be typed E0300, e0300 or 0300.  Anything else, or a code
 * without a page, is a usage error: the message lists the codes (there
 * are few) and suggests a close one, as for a misspelt name.
 *
 * A run that reported errors ends with one note naming --explain for the
 * codes it reported, so that the pages are found by those who need them.
 * The note is not an error and has no location, so nothing that counts
 * errors or reads `FILE:LINE:COL: error[CODE]` lines (tests/run-test.sh)
 * sees it.  A run stopped by the error limit has no such note: diag.c
 * exits by itself then, with its own note about the limit.
 */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"

/* A code is an E (an error) or a W (a warning) and four digits
 * (support/errors.def); digits alone are an error's. */
#define CODE_DIGITS 4
/* The list of codes in a message wraps before this column. */
#define NOTE_WIDTH 76

static const ExplainPage *find_page(const char *code)
{
    for (size_t i = 0; i < explain_npages; i++)
        if (strcmp(explain_pages[i].code, code) == 0)
            return &explain_pages[i];
    return NULL;
}

/* The code `arg` names, written as in the table ("E0300"), into `out`;
 * false if `arg` does not have the form of a code. */
static bool normalise(const char *arg, char out[CODE_DIGITS + 2])
{
    char kind = 'E';
    if (arg[0] == 'W' || arg[0] == 'w') kind = 'W';
    if (arg[0] == 'E' || arg[0] == 'e' || kind == 'W') arg++;
    if (strlen(arg) != CODE_DIGITS) return false;
    out[0] = kind;
    for (int i = 0; i < CODE_DIGITS; i++) {
        if (arg[i] < '0' || arg[i] > '9') return false;
        out[i + 1] = arg[i];
    }
    out[CODE_DIGITS + 1] = '\0';
    return true;
}

/* The first UPPER_MAX bytes of `arg` in capitals, to compare with the
 * codes (a longer argument is no misspelt code anyway). */
#define UPPER_MAX 16
static void upper(const char *arg, char out[UPPER_MAX + 1])
{
    size_t i;
    for (i = 0; i < UPPER_MAX && arg[i]; i++)
        out[i] = arg[i] >= 'a' && arg[i] <= 'z' ? (char)(arg[i] - 'a' + 'A') : arg[i];
    out[i] = '\0';
}

/* "mosaicc: error: no such error code 'X'", a suggestion if a code is
 * close, and every code, wrapped like the rest of the notes. */
static void report_unknown(const char *arg)
{
    fprintf(stderr, "mosaicc: error: no such error code '%s'\n", arg);
    const char **codes = arena_alloc(explain_npages * sizeof *codes);
    for (size_t i = 0; i < explain_npages; i++) codes[i] = explain_pages[i].code;
    char typed[UPPER_MAX + 1];
    upper(arg, typed);
    const char *suggestion = diag_closest(typed, codes, explain_npages);
    if (suggestion) fprintf(stderr, "note: did you mean '%s'?\n", suggestion);

    static const char intro[] = "note: the codes are ";
    static const char indent[] = "      ";
    fputs(intro, stderr);
    size_t column = sizeof intro - 1;
    for (size_t i = 0; i < explain_npages; i++) {
        const char *sep = i + 1 < explain_npages ? "," : "";
        size_t width = strlen(codes[i]) + strlen(sep);
        if (i > 0 && column + 1 + width > NOTE_WIDTH) {
            fprintf(stderr, "\n%s", indent);
            column = sizeof indent - 1;
        } else if (i > 0) {
            fputc(' ', stderr);
            column++;
        }
        fprintf(stderr, "%s%s", codes[i], sep);
        column += width;
    }
    fputs("\nnote: 'mosaicc --explain CODE' prints the page of one of them\n", stderr);
}

bool driver_explain(const char *arg)
{
    char code[CODE_DIGITS + 2];
    const ExplainPage *page = normalise(arg, code) ? find_page(code) : NULL;
    if (!page) {
        report_unknown(arg);
        return false;
    }
    fputs(page->text, stdout);
    return true;
}

void driver_explain_hint(void)
{
    const char *codes[DIAG_COUNT];
    size_t n = 0;
    for (int c = 0; c < DIAG_COUNT; c++)
        if (diag_code_reported((DiagCode)c) && find_page(diag_code_name((DiagCode)c)))
            codes[n++] = diag_code_name((DiagCode)c);
    if (n == 0) return;
    if (n == 1) {
        fprintf(stderr, "note: run 'mosaicc --explain %s' for more about this error\n",
                codes[0]);
        return;
    }
    fputs("note: run 'mosaicc --explain CODE' for more about the errors ", stderr);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", codes[i]);
    fputc('\n', stderr);
}
