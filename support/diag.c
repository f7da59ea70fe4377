/* diag.c — source files, locations, and the one place messages are printed.
 *
 * Source files are kept whole in memory (malloc'd, not in the arena, so
 * that they outlive arena_free_all for a late message); each file's line
 * starts are computed the first time a location in it is printed, and a
 * byte offset becomes line:column by binary search.  Columns count UTF-8
 * code points: continuation bytes (10xxxxxx) do not start a column.
 *
 * A diagnostic is printed at once, in the format of LANGUAGE.md §7:
 *
 *   path:LINE:COL: error[CODE]: message
 *      12 |     source line
 *         |     ^~~~~~~~
 *   path:LINE:COL: note: message
 *
 * The excerpt shows the line where the span starts; the underline covers
 * the span up to the end of that line (a span over several lines is marked
 * on its first).  Tabs in the excerpt are shown as TAB_WIDTH spaces, and
 * the underline counts them the same way, so it stays under the code in
 * any terminal.  Characters are assumed one cell wide.
 *
 * With colour (--color: always, or auto on a terminal without NO_COLOR),
 * the same bytes are written with terminal escape sequences around the
 * pieces, as rustc colours them; without, not one byte differs, since
 * tests and tools read this text.  A report becomes a Diagnostic record
 * (diag_internal.h) that the renderer walks; a warning is the same record
 * with another severity.  For --error-format=json and
 * sarif the records are kept instead, an error until its notes are in
 * (json) or all of them until the run ends (sarif), and diag_json.c
 * writes them: diag_finish, which the driver calls last, writes what is
 * left.
 *
 * Warnings (diag_warning) have a level each, set from the driver's -w,
 * -Wno-NAME and -Werror options: off, on, or an error (reported with the
 * error severity and counted as an error).
 *
 * Not here: sorting, deduplication, finding warnings (typecheck/warn.c),
 * or choosing the exit status — the driver does, from the count; this module
 * exits by itself only past the error limit.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L    /* fileno, isatty under -std=c11 */
#endif
#include "diag.h"
#include "diag_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const Loc LOC_NONE = {0, 0, 0};

/* Tabs are shown as this many spaces in excerpts (as rustc does). */
#define TAB_WIDTH 4
/* The line-number gutter is at least this wide: "   12 | " as in §7. */
#define GUTTER_MIN 5

typedef struct SourceFile {
    char *path;
    char *text;             /* len bytes plus a NUL */
    size_t len;
    uint32_t *line_starts;  /* byte offset of each line; NULL until needed */
    size_t nlines;
} SourceFile;

static SourceFile *files;   /* files[0] is the reserved LOC_NONE file */
static size_t nfiles, files_cap;
static FILE *stream;        /* NULL means stderr (not a constant in C) */
static int error_count;
static int warning_count;   /* reported as warnings (not as errors) */
static bool told_werror;    /* the note about -Werror, once per run */
static bool code_reported[DIAG_COUNT];
static DiagFormat format = DIAG_FORMAT_HUMAN;
/* What a machine format keeps: json the diagnostic whose notes may still
 * come, sarif every one of the run.  Malloc'd, like the strings in them,
 * to outlive arena_free_all. */
static Diagnostic *kept;
static size_t nkept, kept_cap;
static bool finished;       /* diag_finish was called */
/* diag_mute: while above zero, nothing is reported; errors are counted
 * apart and the first is kept, for the caller to surface. */
static int muted;
static int muted_errors;
static Loc first_muted_loc;
static DiagCode first_muted_code;
static char first_muted_message[512];

static void forget_kept(void);

static FILE *out(void)
{
    return stream ? stream : stderr;
}

void diag_set_stream(FILE *s)
{
    stream = s;
}

void diag_set_format(DiagFormat f)
{
    format = f;
}

DiagFormat diag_get_format(void)
{
    return format;
}

int diag_error_count(void)
{
    return error_count;
}

bool diag_code_reported(DiagCode code)
{
    return (int)code >= 0 && code < DIAG_COUNT && code_reported[code];
}

static void count_error(DiagCode code)
{
    error_count++;
    if ((int)code >= 0 && code < DIAG_COUNT) code_reported[code] = true;
}

void diag_reset(void)
{
    for (size_t i = 1; i < nfiles; i++) {
        free(files[i].path);
        free(files[i].text);
        free(files[i].line_starts);
    }
    free(files);
    files = NULL;
    nfiles = files_cap = 0;
    error_count = 0;
    muted = muted_errors = 0;
    memset(code_reported, 0, sizeof code_reported);
    warning_count = 0;
    told_werror = false;
    forget_kept();
    finished = false;
}

_Noreturn void diag_out_of_memory(void)
{
    fputs("mosaicc: error: out of memory\n", stderr);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) diag_out_of_memory();
    return p;
}

/* ---- source files -------------------------------------------------------- */

uint32_t src_add(const char *path, const char *text, size_t len)
{
    if (nfiles == files_cap) {
        files_cap = files_cap ? files_cap * 2 : 8;
        SourceFile *f = realloc(files, files_cap * sizeof *f);
        if (!f) diag_out_of_memory();
        files = f;
    }
    if (nfiles == 0) {      /* reserve id 0 for LOC_NONE */
        memset(&files[0], 0, sizeof files[0]);
        files[0].path = "";
        files[0].text = "";
        nfiles = 1;
    }
    SourceFile *f = &files[nfiles];
    memset(f, 0, sizeof *f);
    size_t plen = strlen(path);
    f->path = xmalloc(plen + 1);
    memcpy(f->path, path, plen + 1);
    f->text = xmalloc(len + 1);
    if (len) memcpy(f->text, text, len);
    f->text[len] = '\0';
    f->len = len;
    return (uint32_t)nfiles++;
}

static SourceFile *file(uint32_t id)
{
    if (id == 0 || id >= nfiles) return NULL;
    return &files[id];
}

const char *src_path(uint32_t id)
{
    SourceFile *f = file(id);
    return f ? f->path : "";
}

const char *src_text(uint32_t id)
{
    SourceFile *f = file(id);
    return f ? f->text : "";
}

size_t src_length(uint32_t id)
{
    SourceFile *f = file(id);
    return f ? f->len : 0;
}

static void compute_lines(SourceFile *f)
{
    size_t n = 1;
    for (size_t i = 0; i < f->len; i++)
        if (f->text[i] == '\n') n++;
    f->line_starts = xmalloc(n * sizeof *f->line_starts);
    f->nlines = 0;
    f->line_starts[f->nlines++] = 0;
    for (size_t i = 0; i < f->len; i++)
        if (f->text[i] == '\n') f->line_starts[f->nlines++] = (uint32_t)(i + 1);
}

/* Index (0-based) of the line holding byte `offset`. */
static size_t line_index(SourceFile *f, uint32_t offset)
{
    if (!f->line_starts) compute_lines(f);
    size_t lo = 0, hi = f->nlines;  /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->line_starts[mid] <= offset) lo = mid;
        else hi = mid;
    }
    return lo;
}

static bool is_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

DiagPos diag_pos(uint32_t id, uint32_t offset)
{
    SourceFile *f = file(id);
    DiagPos p = {0, 0, 0};
    if (!f) return p;
    p.offset = offset > f->len ? (uint32_t)f->len : offset;
    src_line_col(id, p.offset, &p.line, &p.col);
    return p;
}

void src_line_col(uint32_t id, uint32_t offset, int *line, int *col)
{
    SourceFile *f = file(id);
    if (!f) {
        *line = 0;
        *col = 0;
        return;
    }
    if (offset > f->len) offset = (uint32_t)f->len;
    size_t li = line_index(f, offset);
    int c = 1;
    for (size_t i = f->line_starts[li]; i < offset; i++)
        if (!is_continuation(f->text[i])) c++;
    *line = (int)li + 1;
    *col = c;
}

size_t src_utf8_length(const unsigned char *p, size_t n)
{
    unsigned char b = p[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;     /* range of the second byte */
    if (b < 0x80) return 1;
    else if (b >= 0xC2 && b <= 0xDF) len = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        if (b == 0xE0) lo = 0xA0;           /* overlong */
        if (b == 0xED) hi = 0x9F;           /* surrogates */
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        if (b == 0xF0) lo = 0x90;           /* overlong */
        if (b == 0xF4) hi = 0x8F;           /* above U+10FFFF */
    } else return 0;
    if (n < len || p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return len;
}

Loc loc_join(Loc a, Loc b)
{
    if (a.file == 0) return b;
    if (b.file == 0) return a;
    Loc r = a;
    if (b.start < r.start) r.start = b.start;
    if (b.end > r.end) r.end = b.end;
    return r;
}

/* ---- rendering ----------------------------------------------------------- */

static const char *const code_names[DIAG_COUNT] = {
#define DIAG_CODE(name, text) #name,
#include "errors.def"
#undef DIAG_CODE
};

const char *diag_code_name(DiagCode code)
{
    if ((int)code < 0 || code >= DIAG_COUNT) return "E????";
    return code_names[code];
}

const char *diag_severity_name(DiagSeverity s)
{
    switch (s) {
    case DIAG_SEV_ERROR: return "error";
    case DIAG_SEV_WARNING: return "warning";
    case DIAG_SEV_NOTE: return "note";
    }
    return "error";
}

/* Terminal colours (ECMA-48 SGR sequences), as rustc uses them: the
 * severity in bold red, yellow or green, an error's message in bold, the
 * gutter in bold blue, the underline in its diagnostic's colour. */
#define SGR_RESET "\033[0m"
#define SGR_BOLD "\033[1m"
#define SGR_GUTTER "\033[1;34m"

static const char *severity_sgr(DiagSeverity s)
{
    switch (s) {
    case DIAG_SEV_ERROR: return "\033[1;31m";
    case DIAG_SEV_WARNING: return "\033[1;33m";
    case DIAG_SEV_NOTE: return "\033[1;32m";
    }
    return SGR_BOLD;
}

/* Writes the escape sequence only when colour is on, so that each piece
 * below is written once for both cases. */
static void paint(FILE *o, bool colour, const char *sgr)
{
    if (colour) fputs(sgr, o);
}

static DiagColor colour_mode = DIAG_COLOR_AUTO;

void diag_set_color(DiagColor c)
{
    colour_mode = c;
}

/* auto: colour for a terminal, unless NO_COLOR is set and not empty
 * (no-color.org) or the terminal says it has none (TERM=dumb). */
static bool use_colour(void)
{
    switch (colour_mode) {
    case DIAG_COLOR_ALWAYS: return true;
    case DIAG_COLOR_NEVER: return false;
    case DIAG_COLOR_AUTO: break;
    }
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    if ((no_color && *no_color) || (term && strcmp(term, "dumb") == 0))
        return false;
    return isatty(fileno(out()));
}

/* Writes one source character of the excerpt, tabs as spaces; returns the
 * number of cells it took. */
static int put_cell(FILE *o, char c, char fill)
{
    if (c == '\t') {
        for (int i = 0; i < TAB_WIDTH; i++) fputc(fill ? fill : ' ', o);
        return TAB_WIDTH;
    }
    fputc(fill ? fill : c, o);
    return 1;
}

/* The excerpt: the line of loc.start, then the underline of the span. */
static void print_excerpt(FILE *o, SourceFile *f, Loc loc, DiagSeverity sev, bool colour)
{
    uint32_t start = loc.start > f->len ? (uint32_t)f->len : loc.start;
    uint32_t end = loc.end > f->len ? (uint32_t)f->len : loc.end;
    if (end < start) end = start;
    size_t li = line_index(f, start);
    size_t lb = f->line_starts[li];
    size_t le = lb;
    while (le < f->len && f->text[le] != '\n') le++;
    size_t shown_end = le;              /* drop a CR of a CRLF line */
    if (shown_end > lb && f->text[shown_end - 1] == '\r') shown_end--;

    char num[32];
    int numlen = snprintf(num, sizeof num, "%zu", li + 1);
    int width = numlen > GUTTER_MIN ? numlen : GUTTER_MIN;

    paint(o, colour, SGR_GUTTER);
    fprintf(o, "%*s |", width, num);
    paint(o, colour, SGR_RESET);
    if (shown_end > lb) fputc(' ', o);
    for (size_t i = lb; i < shown_end; i++) {
        char c = f->text[i];
        /* Other control characters would move the cursor: show them as
         * one blank cell so the underline still lines up. */
        if (c != '\t' && (unsigned char)c < 0x20) c = ' ';
        put_cell(o, c, 0);
    }
    fputc('\n', o);

    paint(o, colour, SGR_GUTTER);
    fprintf(o, "%*s |", width, "");
    paint(o, colour, SGR_RESET);
    fputc(' ', o);
    /* Pad to the start: one cell per code point, TAB_WIDTH per tab. */
    for (size_t i = lb; i < start; i++) {
        if (is_continuation(f->text[i])) continue;
        put_cell(o, f->text[i], ' ');
    }
    /* The caret, then a tilde for every further cell of the span on this
     * line; at least the caret even for an empty span or one at the end. */
    size_t stop = end < le ? end : le;
    paint(o, colour, severity_sgr(sev));
    fputc('^', o);
    bool first = true;
    for (size_t i = start; i < stop; i++) {
        if (is_continuation(f->text[i])) continue;
        int cells = f->text[i] == '\t' ? TAB_WIDTH : 1;
        for (int k = first ? 1 : 0; k < cells; k++) fputc('~', o);
        first = false;
    }
    paint(o, colour, SGR_RESET);
    fputc('\n', o);
}

/* The first line: "path:LINE:COL: error[CODE]: message"; without a place,
 * "mosaicc: error[CODE]: message", or "note: message" for a note. */
static void render_line(FILE *o, DiagSeverity sev, int code, Loc loc, const char *message,
                        bool colour)
{
    SourceFile *f = file(loc.file);
    if (f || code != DIAG_NO_CODE) {
        paint(o, colour, SGR_BOLD);
        if (f) {
            int line, col;
            src_line_col(loc.file, loc.start, &line, &col);
            fprintf(o, "%s:%d:%d:", f->path, line, col);
        } else {
            fputs("mosaicc:", o);
        }
        paint(o, colour, SGR_RESET);
        fputc(' ', o);
    }
    paint(o, colour, severity_sgr(sev));
    fputs(diag_severity_name(sev), o);
    if (code != DIAG_NO_CODE) fprintf(o, "[%s]", diag_code_name((DiagCode)code));
    paint(o, colour, SGR_RESET);
    /* an error's message stands out; a note's is the plain text under it */
    bool bold = colour && sev != DIAG_SEV_NOTE;
    paint(o, bold, SGR_BOLD);
    fputs(": ", o);
    fputs(message, o);
    paint(o, bold, SGR_RESET);
    fputc('\n', o);
}

static void render_note(FILE *o, const DiagNote *n, bool colour)
{
    render_line(o, DIAG_SEV_NOTE, DIAG_NO_CODE, n->loc, n->message, colour);
}

/* A note's place is shown without an excerpt: it points at something the
 * reader looks up, the error's excerpt is the one to read. */
void diag_render(FILE *o, const Diagnostic *d, bool notes, bool colour)
{
    render_line(o, d->severity, d->code, d->loc, d->message, colour);
    SourceFile *f = file(d->loc.file);
    if (f && d->severity != DIAG_SEV_NOTE) print_excerpt(o, f, d->loc, d->severity, colour);
    for (size_t i = 0; notes && i < d->nnotes; i++) render_note(o, &d->notes[i], colour);
}

/* ---- reporting ----------------------------------------------------------- */

/* The message, formatted into a string of its own (the machine formats
 * keep it past the call). */
static char *vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char *s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    if (n > 0) vsnprintf(s, (size_t)n + 1, fmt, ap);
    else s[0] = '\0';
    return s;
}

static void free_diagnostic(Diagnostic *d)
{
    free(d->message);
    for (size_t i = 0; i < d->nnotes; i++) {
        free(d->notes[i].message);
        free(d->notes[i].replacement);
    }
    free(d->notes);
}

static void forget_kept(void)
{
    for (size_t i = 0; i < nkept; i++) free_diagnostic(&kept[i]);
    nkept = 0;
}

/* Grows an array of `size`-byte items to hold one more. */
static void *grow(void *items, size_t len, size_t *cap, size_t size)
{
    if (len < *cap) return items;
    *cap = *cap ? *cap * 2 : 4;
    void *p = realloc(items, *cap * size);
    if (!p) diag_out_of_memory();
    return p;
}

/* json: the diagnostics kept are complete once another one begins or the
 * run ends. */
static void write_kept(void)
{
    for (size_t i = 0; i < nkept; i++) diag_write_json(out(), &kept[i]);
    forget_kept();
    fflush(out());
}

/* A new diagnostic; it owns its message. */
static void begin(Diagnostic d)
{
    if (format == DIAG_FORMAT_HUMAN) {
        diag_render(out(), &d, false, use_colour());
        fflush(out());
        free_diagnostic(&d);
        return;
    }
    if (format == DIAG_FORMAT_JSON) write_kept();
    kept = grow(kept, nkept, &kept_cap, sizeof *kept);
    kept[nkept++] = d;
}

/* A note for the diagnostic before it; it owns its strings.  A note with
 * none before it stands alone, as in the human format. */
static void add_note(DiagNote n)
{
    if (format == DIAG_FORMAT_HUMAN) {
        render_note(out(), &n, use_colour());
        fflush(out());
        free(n.message);
        free(n.replacement);
        return;
    }
    if (nkept == 0) {
        free(n.replacement);
        begin((Diagnostic){.severity = DIAG_SEV_NOTE, .code = DIAG_NO_CODE, .loc = n.loc,
                           .message = n.message});
        return;
    }
    Diagnostic *d = &kept[nkept - 1];
    d->notes = grow(d->notes, d->nnotes, &d->notes_cap, sizeof *d->notes);
    d->notes[d->nnotes++] = n;
}

void diag_finish(int exit_status)
{
    if (finished) return;
    finished = true;
    if (format == DIAG_FORMAT_JSON) {
        write_kept();
    } else if (format == DIAG_FORMAT_SARIF && (nfiles > 0 || nkept > 0)) {
        diag_write_sarif(out(), kept, nkept, exit_status);
        forget_kept();
        fflush(out());
    }
}

static void report(DiagSeverity sev, int code, Loc loc, const char *fmt, va_list ap)
{
    begin((Diagnostic){.severity = sev, .code = code, .loc = loc, .message = vformat(fmt, ap)});
}

static DiagListener *listener;
static void *listener_ctx;

void diag_set_listener(DiagListener *fn, void *ctx)
{
    listener = fn;
    listener_ctx = ctx;
}

/* The listener gets the message as one string, formatted on the stack when
 * it is short (every message is, but a quoted name may be long). */
static void tell_listener(bool is_note, DiagCode code, Loc loc, const char *fmt, va_list ap)
{
    if (!listener)
        return;
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, again);
    va_end(again);
    char *msg = small;
    if (n >= (int)sizeof small) {
        msg = xmalloc((size_t)n + 1);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
    }
    listener(listener_ctx, is_note, code, loc, n < 0 ? "" : msg);
    if (msg != small)
        free(msg);
}

static int error_limit = DIAG_DEFAULT_ERROR_LIMIT;

void diag_set_error_limit(int n)
{
    error_limit = n;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* Past the limit, the rest would only be noise (a file of garbage gives
 * an error per token): say so and stop, with the status of a program
 * with errors. */
static void check_limit(void)
{
    if (error_limit <= 0 || error_count < error_limit)
        return;
    begin((Diagnostic){
        .severity = DIAG_SEV_NOTE,
        .code = DIAG_NO_CODE,
        .loc = LOC_NONE,
        .message = copy_string("too many errors; stopping (--error-limit=N changes the limit)"),
    });
    diag_finish(1);
    exit(1);
}

void diag_mute(bool on)
{
    muted += on ? 1 : -1;
}

bool diag_is_muted(void)
{
    return muted > 0;
}

int diag_muted_errors(void)
{
    return muted_errors;
}

const char *diag_first_muted(Loc *loc, DiagCode *code)
{
    *loc = first_muted_loc;
    *code = first_muted_code;
    return first_muted_message;
}

static bool swallow_error(Loc loc, DiagCode code, const char *fmt, va_list ap)
{
    if (!muted)
        return false;
    if (muted_errors++ == 0) {
        first_muted_loc = loc;
        first_muted_code = code;
        vsnprintf(first_muted_message, sizeof first_muted_message, fmt, ap);
    }
    return true;
}

void diag_error(Loc loc, DiagCode code, const char *fmt, ...)
{
    va_list ap0;
    va_start(ap0, fmt);
    bool swallowed = swallow_error(loc, code, fmt, ap0);
    va_end(ap0);
    if (swallowed)
        return;
    check_limit();
    va_list ap;
    va_start(ap, fmt);
    report(DIAG_SEV_ERROR, code, loc, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(false, code, loc, fmt, ap);
    va_end(ap);
    count_error(code);
}

void diag_error_noloc(DiagCode code, const char *fmt, ...)
{
    va_list ap0;
    va_start(ap0, fmt);
    bool swallowed = swallow_error(LOC_NONE, code, fmt, ap0);
    va_end(ap0);
    if (swallowed)
        return;
    check_limit();
    va_list ap;
    va_start(ap, fmt);
    report(DIAG_SEV_ERROR, code, LOC_NONE, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(false, code, LOC_NONE, fmt, ap);
    va_end(ap);
    count_error(code);
}

/* ---- warnings --------------------------------------------------------- */

static const struct {
    DiagCode code;
    const char *name;   /* -Wno-NAME, -Werror=NAME */
} warning_names[] = {
    {DIAG_W0001, "unused-variable"},
    {DIAG_W0002, "unused-parameter"},
    {DIAG_W0003, "unused-function"},
    {DIAG_W0004, "unreachable-code"},
    {DIAG_W0005, "unused-get"},
    {DIAG_W0006, "constant-comparison"},
};
#define NWARNINGS (sizeof warning_names / sizeof warning_names[0])

static DiagWarnLevel warning_level[NWARNINGS];

static int warning_index(DiagCode code)
{
    for (size_t i = 0; i < NWARNINGS; i++)
        if (warning_names[i].code == code)
            return (int)i;
    return -1;
}

const char *diag_warning_name(DiagCode code)
{
    int i = warning_index(code);
    return i < 0 ? NULL : warning_names[i].name;
}

const char *diag_warning_names(void)
{
    static char names[256];
    if (!names[0])
        for (size_t i = 0; i < NWARNINGS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     i ? ", " : "", warning_names[i].name);
    return names;
}

bool diag_set_warning_level(const char *name, DiagWarnLevel level)
{
    bool found = false;
    for (size_t i = 0; i < NWARNINGS; i++)
        if (!name || strcmp(name, warning_names[i].name) == 0 ||
            strcmp(name, diag_code_name(warning_names[i].code)) == 0) {
            warning_level[i] = level;
            found = true;
        }
    return found;
}

int diag_warning_count(void)
{
    return warning_count;
}

bool diag_warning(Loc loc, DiagCode code, const char *fmt, ...)
{
    int i = warning_index(code);
    DiagWarnLevel level = i < 0 ? DIAG_WARN_ON : warning_level[i];
    if (level == DIAG_WARN_OFF || muted)
        return false;
    if (level == DIAG_WARN_ERROR)
        check_limit();
    va_list ap;
    va_start(ap, fmt);
    report(level == DIAG_WARN_ERROR ? DIAG_SEV_ERROR : DIAG_SEV_WARNING, code, loc, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(false, code, loc, fmt, ap);
    va_end(ap);
    if (level == DIAG_WARN_ERROR) {
        count_error(code);
        if (!told_werror) {
            told_werror = true;
            diag_note(LOC_NONE, "warning '%s' is an error here (-Werror)",
                      diag_warning_name(code));
        }
    } else {
        warning_count++;
    }
    return true;
}

void diag_note(Loc loc, const char *fmt, ...)
{
    if (muted)
        return;
    va_list ap;
    va_start(ap, fmt);
    add_note((DiagNote){.loc = loc, .message = vformat(fmt, ap)});
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(true, 0, loc, fmt, ap);
    va_end(ap);
}

void diag_suggest(Loc at, Loc replace, const char *replacement, const char *fmt, ...)
{
    if (muted)
        return;
    va_list ap;
    va_start(ap, fmt);
    bool applies = replace.file != 0 && replacement;
    add_note((DiagNote){
        .loc = at,
        .message = vformat(fmt, ap),
        .replacement = applies ? copy_string(replacement) : NULL,
        .replace = applies ? replace : LOC_NONE,
    });
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(true, 0, at, fmt, ap);
    va_end(ap);
}

/* ---- suggestions --------------------------------------------------------- */

/* Edit distance with adjacent transpositions (optimal string alignment):
 * `prinltn` is one edit from `println`, two from `print`.  Three rows at a
 * time; NULL-free inputs. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t small[3 * 64];
    size_t *mem = 3 * (lb + 1) <= 3 * 64 ? small : malloc(3 * (lb + 1) * sizeof *mem);
    if (!mem) diag_out_of_memory();
    size_t *before = mem, *prev = mem + lb + 1, *row = mem + 2 * (lb + 1);
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            row[j] = best;
        }
        size_t *t = before;
        before = prev;
        prev = row;
        row = t;
    }
    size_t d = prev[lb];
    if (mem != small) free(mem);
    return d;
}

const char *diag_closest(const char *name, const char *const *candidates, size_t n)
{
    if (!name) return NULL;
    size_t len = strlen(name);
    /* One edit per three characters is a plausible typo; at least one. */
    size_t limit = len / 3 > 1 ? len / 3 : 1;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        if (!c) continue;
        size_t lc = strlen(c);
        size_t diff = lc > len ? lc - len : len - lc;
        if (diff >= best_d) continue;   /* cannot beat the best so far */
        size_t d = edit_distance(name, len, c, lc);
        /* Distance 0 is the same name: no use suggesting it. */
        if (d > 0 && d < best_d) {
            best = c;
            best_d = d;
        }
    }
    return best;
}
