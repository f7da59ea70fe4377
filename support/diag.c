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
 * Not here: sorting, deduplication, colours, warnings (no phase emits one
 * yet), or exiting — the driver decides the exit status from the count.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
static bool code_reported[DIAG_COUNT];

static FILE *out(void)
{
    return stream ? stream : stderr;
}

void diag_set_stream(FILE *s)
{
    stream = s;
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
    memset(code_reported, 0, sizeof code_reported);
}

static _Noreturn void out_of_memory(void)
{
    fputs("mosaicc: error: out of memory\n", stderr);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

/* ---- source files -------------------------------------------------------- */

uint32_t src_add(const char *path, const char *text, size_t len)
{
    if (nfiles == files_cap) {
        files_cap = files_cap ? files_cap * 2 : 8;
        SourceFile *f = realloc(files, files_cap * sizeof *f);
        if (!f) out_of_memory();
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

Loc loc_join(Loc a, Loc b)
{
    if (a.file == 0) return b;
    if (b.file == 0) return a;
    Loc r = a;
    if (b.start < r.start) r.start = b.start;
    if (b.end > r.end) r.end = b.end;
    return r;
}

/* ---- printing ------------------------------------------------------------ */

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
static void print_excerpt(SourceFile *f, Loc loc)
{
    FILE *o = out();
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

    fprintf(o, "%*s |", width, num);
    if (shown_end > lb) fputc(' ', o);
    for (size_t i = lb; i < shown_end; i++) {
        char c = f->text[i];
        /* Other control characters would move the cursor: show them as
         * one blank cell so the underline still lines up. */
        if (c != '\t' && (unsigned char)c < 0x20) c = ' ';
        put_cell(o, c, 0);
    }
    fputc('\n', o);

    fprintf(o, "%*s | ", width, "");
    /* Pad to the start: one cell per code point, TAB_WIDTH per tab. */
    for (size_t i = lb; i < start; i++) {
        if (is_continuation(f->text[i])) continue;
        put_cell(o, f->text[i], ' ');
    }
    /* The caret, then a tilde for every further cell of the span on this
     * line; at least the caret even for an empty span or one at the end. */
    size_t stop = end < le ? end : le;
    fputc('^', o);
    bool first = true;
    for (size_t i = start; i < stop; i++) {
        if (is_continuation(f->text[i])) continue;
        int cells = f->text[i] == '\t' ? TAB_WIDTH : 1;
        for (int k = first ? 1 : 0; k < cells; k++) fputc('~', o);
        first = false;
    }
    fputc('\n', o);
}

static void vreport(Loc loc, const char *kind, DiagCode code, bool with_code,
                    bool excerpt, const char *fmt, va_list ap)
{
    FILE *o = out();
    SourceFile *f = file(loc.file);
    if (f) {
        int line, col;
        src_line_col(loc.file, loc.start, &line, &col);
        fprintf(o, "%s:%d:%d: ", f->path, line, col);
    } else if (with_code) {
        fputs("mosaicc: ", o);
    }
    if (with_code) fprintf(o, "%s[%s]: ", kind, diag_code_name(code));
    else fprintf(o, "%s: ", kind);
    vfprintf(o, fmt, ap);
    fputc('\n', o);
    if (f && excerpt) print_excerpt(f, loc);
    fflush(o);
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

/* Past the limit, the rest would only be noise (a file of garbage gives
 * an error per token): say so and stop, with the status of a program
 * with errors. */
static void check_limit(void)
{
    if (error_limit <= 0 || error_count < error_limit)
        return;
    fputs("note: too many errors; stopping (--error-limit=N changes the limit)\n", out());
    fflush(out());
    exit(1);
}

void diag_error(Loc loc, DiagCode code, const char *fmt, ...)
{
    check_limit();
    va_list ap;
    va_start(ap, fmt);
    vreport(loc, "error", code, true, true, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(false, code, loc, fmt, ap);
    va_end(ap);
    count_error(code);
}

void diag_error_noloc(DiagCode code, const char *fmt, ...)
{
    check_limit();
    va_list ap;
    va_start(ap, fmt);
    vreport(LOC_NONE, "error", code, true, false, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(false, code, LOC_NONE, fmt, ap);
    va_end(ap);
    count_error(code);
}

void diag_note(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(loc, "note", 0, false, false, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    tell_listener(true, 0, loc, fmt, ap);
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
    if (!mem) out_of_memory();
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
