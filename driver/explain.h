/* explain.h — `mosaicc --explain CODE`: a page about each error code.
 *
 * The pages are docs/errors/CODE.md, compiled into the binary as the table
 * below by driver/explain_pages.awk (the build writes explain_pages.c), so
 * an installed mosaicc explains its errors without the source tree.
 * explain.c looks pages up and prints them, and writes the note that ends
 * a run with errors and points at them.
 */
#ifndef MOSAIC_EXPLAIN_H
#define MOSAIC_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ExplainPage {
    const char *code;   /* "E0300" */
    const char *text;   /* the page, ending with a newline */
} ExplainPage;

/* One row per page, in the order of ERROR_PAGES (driver/local.mk). */
extern const ExplainPage explain_pages[];
extern const size_t explain_npages;

/* Prints the page of `code` to stdout and returns true.  `code` may be
 * written e0300 or 0300 too.  An unknown code is reported on stderr, with
 * the list of codes, and returns false (a usage error). */
bool driver_explain(const char *code);

/* After a run that reported errors: one note naming `mosaicc --explain`
 * for the codes reported.  Prints nothing when no error had a code. */
void driver_explain_hint(void);

#endif
