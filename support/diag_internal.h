/* diag_internal.h — a diagnostic as diag.c records it, for the writers of
 * support/ alone (no phase includes this).
 *
 * diag.c turns each report into a Diagnostic: the error (or, one day, the
 * warning) with its code, place and message, and the notes reported after
 * it.  The human format renders each piece the moment it is reported and
 * keeps nothing; the machine formats (diag_json.c) need a diagnostic whole,
 * notes included, so diag.c keeps it until the next one begins (json) or
 * until the end of the run (sarif), then hands it over.  Both share diag_render, so the "rendered" text of a JSON
 * object is byte for byte what the human format prints.
 */
#ifndef MOSAIC_DIAG_INTERNAL_H
#define MOSAIC_DIAG_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"

/* A parameter of every writer, though every phase reports errors only so
 * far: warnings get their colour, JSON severity and SARIF level here. */
typedef enum DiagSeverity {
    DIAG_SEV_ERROR,
    DIAG_SEV_WARNING,
    DIAG_SEV_NOTE,      /* a note with no error before it (the error limit's) */
} DiagSeverity;

/* No code: a note on its own. */
#define DIAG_NO_CODE (-1)

typedef struct DiagNote {
    Loc loc;                /* LOC_NONE: the note has no place */
    char *message;          /* malloc'd, like every string here */
    /* A suggestion (diag_suggest): replace the text at `replace` by
     * `replacement`.  NULL: the note suggests nothing a tool could apply. */
    char *replacement;
    Loc replace;
} DiagNote;

typedef struct Diagnostic {
    DiagSeverity severity;
    int code;               /* a DiagCode, or DIAG_NO_CODE */
    Loc loc;                /* LOC_NONE: no place in the source */
    char *message;
    DiagNote *notes;
    size_t nnotes, notes_cap;
} Diagnostic;

/* ---- diag.c -------------------------------------------------------------- */

/* Writes the human text of d (its first line and excerpt) and, with
 * `notes`, of each of its notes: what the human format prints, with the
 * terminal colours of --color when `colour` is set. */
void diag_render(FILE *o, const Diagnostic *d, bool notes, bool colour);
/* The line and column of an offset as src_line_col gives them, and the
 * offset clamped to the file, as every format shows them. */
typedef struct DiagPos {
    int line, col;
    uint32_t offset;
} DiagPos;
DiagPos diag_pos(uint32_t file, uint32_t offset);
/* "error", "warning", "note". */
const char *diag_severity_name(DiagSeverity s);
_Noreturn void diag_out_of_memory(void);

/* ---- diag_json.c --------------------------------------------------------- */

/* One JSON object on one line (JSON Lines), docs/diagnostics.md. */
void diag_write_json(FILE *o, const Diagnostic *d);
/* The SARIF 2.1.0 log of the whole run: the diagnostics with a code are
 * its results, those without are notifications of its invocation, which
 * ended with `exit_status` (LANGUAGE.md §7; 2: the compiler could not do
 * its work). */
void diag_write_sarif(FILE *o, const Diagnostic *ds, size_t n, int exit_status);

#endif
