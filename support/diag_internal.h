/* diag_internal.h — a diagnostic as diag.c records it, for the writers of
 * support/ alone (no phase includes this).
 *
 * diag.c turns each report into a Diagnostic: the error (or, one day, the
 * warning) with its code, place and message, and the notes reported after
 * it.  The human format renders each piece the moment it is reported, with
 * diag_render, and keeps nothing.
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

#endif
