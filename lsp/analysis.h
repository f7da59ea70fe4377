/* analysis.h — the compiler's front end run on a document in memory.
 *
 * An analysis is what `mosaicc --check` does to a file, on text the
 * editor sent: scan, parse, check types, places and layouts, and, when
 * all of that found no error, compute effects.  Its diagnostics are kept
 * (not printed) for textDocument/publishDiagnostics, and the checker's
 * record (typecheck/record.h) plus the declarations of the tree are kept
 * for hovers, definitions and completions.
 *
 * Like mosaicc, an analysis reports the syntax errors of a file that has
 * some and nothing else: the checker, fed a tree with holes, would only
 * add confusion.  Unlike mosaicc it still checks that tree, silently, so
 * that hovers keep working on the parts that parse while a line is half
 * typed.
 *
 * The front end keeps its tables in globals and its memory in one arena,
 * so there is one analysis at a time: running one forgets the previous
 * one (diag_reset, tc_reset, eff_reset, arena_free_all, as the fuzzer
 * does between inputs).  Diagnostics are copied out with malloc and
 * survive; everything else points into the arena.
 */
#ifndef MOSAIC_LSP_ANALYSIS_H
#define MOSAIC_LSP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/diag.h"
#include "parser/ast.h"
#include "typecheck/record.h"

/* At most this many errors are kept, as mosaicc stops after as many by
 * default (DIAG_DEFAULT_ERROR_LIMIT): a file of garbage would give one
 * per line, which helps nobody. */
#define ANALYSIS_MAX_ERRORS DIAG_DEFAULT_ERROR_LIMIT

typedef struct AnalysisNote {
    Loc loc;                /* LOC_NONE: a note without a place */
    char *message;
} AnalysisNote;

typedef struct AnalysisDiag {
    Loc loc;                /* LOC_NONE: an error without a place */
    DiagCode code;
    char *message;
    AnalysisNote *notes;
    size_t nnotes;
} AnalysisDiag;

typedef struct Analysis {
    bool live;              /* the fields below describe the current arena */
    uint32_t file;
    Program *program;
    bool syntax_errors;     /* only those were reported */
    bool effects;           /* no error before them: effects were computed */
    TcRecord record;
    TcRef *refs;            /* the record's refs and the declarations of
                               the tree, sorted by span */
    size_t nrefs;
    AnalysisDiag *diags;    /* malloc'd */
    size_t ndiags;
    bool truncated;         /* more than ANALYSIS_MAX_ERRORS errors */
} Analysis;

/* Analyses text[0..len) as the file `path` (used in nothing the editor
 * sees).  With keep_diags false, no diagnostic is kept (a completion's
 * probe, whose text is not the document's). */
void analysis_run(Analysis *a, const char *path, const char *text, size_t len,
                  bool keep_diags);
/* Frees the diagnostics and forgets the arena's part. */
void analysis_clear(Analysis *a);

/* The ref whose name holds byte `offset` or ends there (a cursor just
 * after a word is on it); NULL if none. */
const TcRef *analysis_ref_at(const Analysis *a, uint32_t offset);
/* The ref of a member access whose name starts at `offset` (for
 * completion after `.` and `!`); NULL if none. */
const TcRef *analysis_member_at(const Analysis *a, uint32_t offset);
/* The locals visible at byte `offset` (innermost first). */
const TcScopeLink *analysis_scope_at(const Analysis *a, uint32_t offset);
/* The class whose declaration holds `offset`, or NULL. */
ClassDecl *analysis_class_at(const Analysis *a, uint32_t offset);

#endif
