/* diag.h — source files, locations and diagnostics.
 *
 * Every phase reports problems through this module and nowhere else, so
 * that all messages share one format (LANGUAGE.md §7):
 *
 *   file.mos:12:5: error[E0300]: message
 *      12 |     acc = other
 *         |     ^~~~~~~~~~~
 *   file.mos:3:3: note: 'acc' declared here
 *
 * A location is a file id plus byte offsets into that file's text; it is
 * turned into line:column only when printed (columns count UTF-8 code
 * points from 1).  Diagnostics are printed to stderr as soon as they are
 * reported (a machine format may wait for a diagnostic's notes, see
 * diag_set_format); a note belongs to the error reported just before it.  The
 * module counts errors so the driver can pick the exit status; it exits by
 * itself only past the error limit (diag_set_error_limit).  It does not
 * deduplicate or sort: phases avoid cascades themselves (an expression of
 * the error type reports nothing more).
 */
#ifndef MOSAIC_DIAG_H
#define MOSAIC_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#if defined(__GNUC__)
#define DIAG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define DIAG_PRINTF(fmt, args)
#endif

/* A span of source text: [start, end) bytes in file `file`. */
typedef struct Loc {
    uint32_t file;
    uint32_t start;
    uint32_t end;
} Loc;

/* The span covering both a and b (same file). */
Loc loc_join(Loc a, Loc b);
/* The empty location, for errors without a place in the source. */
extern const Loc LOC_NONE;

typedef enum DiagCode {
#define DIAG_CODE(name, text) DIAG_##name,
#include "errors.def"
#undef DIAG_CODE
    DIAG_COUNT
} DiagCode;

/* Registers a source file; `text` (len bytes, need not be NUL-terminated)
 * is copied.  Returns its id.  File id 0 is reserved for LOC_NONE. */
uint32_t src_add(const char *path, const char *text, size_t len);
const char *src_path(uint32_t file);
const char *src_text(uint32_t file);
size_t src_length(uint32_t file);
/* 1-based line and column (in code points) of byte offset `offset`. */
void src_line_col(uint32_t file, uint32_t offset, int *line, int *col);
/* Length of the well-formed UTF-8 sequence at p (at most n bytes, n > 0),
 * or 0 if it is not one: no overlong forms, no surrogates, nothing above
 * U+10FFFF (RFC 3629).  Source files are UTF-8; JSON output must be. */
size_t src_utf8_length(const unsigned char *p, size_t n);

/* "E0200" for DIAG_E0200. */
const char *diag_code_name(DiagCode code);

/* Reports an error at `loc` with the source excerpt and underline. */
void diag_error(Loc loc, DiagCode code, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* Reports an error with no place in the source: "mosaicc: error[CODE]: ...". */
void diag_error_noloc(DiagCode code, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* A note attached to the previous error; printed with location only
 * (no excerpt) like "file:3:3: note: ...". LOC_NONE prints "note: ...". */
void diag_note(Loc loc, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* A note, as diag_note, that also proposes to replace the text at
 * `replace` by `replacement` (a did-you-mean): the human format prints the
 * note alone; the machine formats also give the replacement, for a tool
 * to apply.  With `replace` LOC_NONE it is a plain note. */
void diag_suggest(Loc at, Loc replace, const char *replacement, const char *fmt, ...)
    DIAG_PRINTF(4, 5);

/* Warnings (docs/warnings.md).  Each W code of errors.def has a name
 * (diag_warning_name: "unused-variable" for W0001) and a level: on (the
 * default), off, or an error.  diag_warning reports one at its level —
 * nothing when off; "error[W0001]", counted as an error, when an error —
 * and says whether it did, so that the caller adds its notes only then. */
typedef enum DiagWarnLevel { DIAG_WARN_ON, DIAG_WARN_OFF, DIAG_WARN_ERROR } DiagWarnLevel;
bool diag_warning(Loc loc, DiagCode code, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* The level of one warning, by name or code ("unused-variable", "W0001");
 * false if there is none of that name.  NULL: every warning. */
bool diag_set_warning_level(const char *name, DiagWarnLevel level);
const char *diag_warning_name(DiagCode code);    /* NULL: not a warning */
/* The warnings' names, comma-separated, for a usage message. */
const char *diag_warning_names(void);
/* Number of warnings reported as warnings so far. */
int diag_warning_count(void);

/* Number of errors reported so far. */
int diag_error_count(void);
/* Muting (nested: each true needs its false): while muted, nothing is
 * reported or counted as an error; the muted errors are counted apart and
 * the first is kept.  The checker mutes the second check of a generic
 * declaration's instances, whose mistakes were the generic's to report. */
void diag_mute(bool on);
bool diag_is_muted(void);
int diag_muted_errors(void);
/* The first muted error: its message, location and code. */
const char *diag_first_muted(Loc *loc, DiagCode *code);
/* Whether an error with this code has been reported (for the driver's
 * closing note about `mosaicc --explain`). */
bool diag_code_reported(DiagCode code);
/* Forgets every source file and error (a fuzzer compiling many inputs in
 * one process). */
void diag_reset(void);
/* After this many errors, reporting one more prints "note: too many
 * errors; stopping" and exits with status 1 (the one exit this module
 * makes); 0: no limit. */
#define DIAG_DEFAULT_ERROR_LIMIT 100
void diag_set_error_limit(int n);

/* Where diagnostics go (default stderr); unit tests redirect it. */
#include <stdio.h>
void diag_set_stream(FILE *out);

/* Colours in the human format (--color): auto means when the stream is a
 * terminal, NO_COLOR is unset or empty (no-color.org) and TERM is not
 * "dumb".  Without colour the text is exactly the format above. */
typedef enum DiagColor { DIAG_COLOR_AUTO, DIAG_COLOR_ALWAYS, DIAG_COLOR_NEVER } DiagColor;
void diag_set_color(DiagColor when);

/* The format of diagnostics (--error-format, docs/diagnostics.md): human
 * text as above, printed as reported; JSON Lines, one object per
 * diagnostic with its notes, each written when the next diagnostic begins
 * or at diag_finish; or one SARIF 2.1.0 log of the run, at diag_finish. */
typedef enum DiagFormat { DIAG_FORMAT_HUMAN, DIAG_FORMAT_JSON, DIAG_FORMAT_SARIF } DiagFormat;
void diag_set_format(DiagFormat format);
DiagFormat diag_get_format(void);
/* Writes what the format has kept for the end of the run (json: the last
 * diagnostic; sarif: the log, if a source file was registered or anything
 * reported, so that bad usage writes none); `exit_status` is the one
 * mosaicc ends with.  Once per run: later calls do nothing, until
 * diag_reset.  The error limit's exit calls it too. */
void diag_finish(int exit_status);

/* A listener is told of every error, warning (a W code) and note as it
 * is reported, the message formatted, besides its printing (the language
 * server keeps them for the editor); NULL: none.  `code` is meaningless
 * for a note. */
typedef void DiagListener(void *ctx, bool is_note, DiagCode code, Loc loc, const char *message);
void diag_set_listener(DiagListener *fn, void *ctx);

/* Returns the known name closest to `name` by edit distance, or NULL if
 * none is close enough to be a plausible misspelling.  Used for
 * "did you mean 'x'?" notes. */
const char *diag_closest(const char *name, const char *const *candidates, size_t n);

#endif
