/* diag_json.c — diagnostics for tools: --error-format=json.
 *
 * Each diagnostic is one JSON object on one line (JSON Lines), written by
 * diag.c once its notes are in (docs/diagnostics.md has the fields):
 *
 *   {"code":"E0100","severity":"error","message":"...","spans":[...],
 *    "notes":[...],"suggestions":[...],"rendered":"..."}
 *
 * Lines and columns are those of the human format (1-based, columns in
 * code points), byte offsets count from 0, and an end is the position
 * just past the span, as rustc's JSON and SARIF have it.
 *
 * Output only, so a handful of writers suffice and no JSON library is
 * needed.  The one subtle part is strings: a message or a source line may
 * hold any bytes of the input, and JSON must be UTF-8 (RFC 8259), so
 * quotes, backslashes and control characters are escaped and every byte
 * that is not part of well-formed UTF-8 becomes U+FFFD.  Whatever the
 * source, the output parses.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L    /* open_memstream under -std=c11 */
#endif
#include "diag_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- writing JSON -------------------------------------------------------- */

/* A writer that puts the commas: each value, key or container start is
 * preceded by one unless it is the first in its container. */
typedef struct Json {
    FILE *o;
    bool comma;
} Json;

static void separate(Json *j)
{
    if (j->comma) fputc(',', j->o);
    j->comma = true;
}

static void put_string(FILE *o, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', o);
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', o);
            fputc(c, o);
        } else if (c == '\n') {
            fputs("\\n", o);
        } else if (c == '\t') {
            fputs("\\t", o);
        } else if (c == '\r') {
            fputs("\\r", o);
        } else if (c < 0x20) {
            fprintf(o, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
        } else if (c >= 0x80) {
            size_t n = src_utf8_length(p + i, len - i);
            if (n == 0) {
                fputs("\xEF\xBF\xBD", o);   /* U+FFFD REPLACEMENT CHARACTER */
                i++;
            } else {
                fwrite(p + i, 1, n, o);
                i += n;
            }
            continue;
        } else {
            fputc(c, o);
        }
        i++;
    }
    fputc('"', o);
}

static void json_begin(Json *j, char open)
{
    separate(j);
    fputc(open, j->o);
    j->comma = false;
}

static void json_end(Json *j, char close)
{
    fputc(close, j->o);
    j->comma = true;
}

static void json_key(Json *j, const char *key)
{
    separate(j);
    put_string(j->o, key, strlen(key));
    fputc(':', j->o);
    j->comma = false;
}

static void json_string(Json *j, const char *s)
{
    separate(j);
    put_string(j->o, s, strlen(s));
}

static void json_int(Json *j, long long v)
{
    separate(j);
    fprintf(j->o, "%lld", v);
}

static void json_literal(Json *j, const char *word)    /* true, false, null */
{
    separate(j);
    fputs(word, j->o);
}

/* "key": value, for the common cases. */
static void json_key_string(Json *j, const char *key, const char *s)
{
    json_key(j, key);
    if (s) json_string(j, s);
    else json_literal(j, "null");
}

static void json_key_int(Json *j, const char *key, long long v)
{
    json_key(j, key);
    json_int(j, v);
}

/* ---- diagnostics --------------------------------------------------------- */

/* The human text, without colour, as the "rendered" field. */
static char *rendered(const Diagnostic *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) diag_out_of_memory();
    diag_render(m, d, true, false);
    if (fclose(m) != 0 || !text) diag_out_of_memory();
    return text;
}

/* {"file", "line_start", ...}: a span of the source. */
static void write_span(Json *j, Loc loc)
{
    DiagPos start = diag_pos(loc.file, loc.start);
    DiagPos end = diag_pos(loc.file, loc.end > loc.start ? loc.end : loc.start);
    json_begin(j, '{');
    json_key_string(j, "file", src_path(loc.file));
    json_key_int(j, "line_start", start.line);
    json_key_int(j, "column_start", start.col);
    json_key_int(j, "line_end", end.line);
    json_key_int(j, "column_end", end.col);
    json_key_int(j, "byte_start", start.offset);
    json_key_int(j, "byte_end", end.offset);
    json_key(j, "is_primary");
    json_literal(j, "true");
    json_key_string(j, "label", NULL);     /* no diagnostic labels its spans yet */
    json_end(j, '}');
}

/* A span, or null for a note without a place. */
static void write_span_or_null(Json *j, Loc loc)
{
    if (loc.file) write_span(j, loc);
    else json_literal(j, "null");
}

static void write_notes(Json *j, const Diagnostic *d)
{
    json_key(j, "notes");
    json_begin(j, '[');
    for (size_t i = 0; i < d->nnotes; i++) {
        json_begin(j, '{');
        json_key_string(j, "message", d->notes[i].message);
        json_key(j, "span");
        write_span_or_null(j, d->notes[i].loc);
        json_end(j, '}');
    }
    json_end(j, ']');
}

/* The notes that propose a replacement, as a tool applies them. */
static void write_suggestions(Json *j, const Diagnostic *d)
{
    json_key(j, "suggestions");
    json_begin(j, '[');
    for (size_t i = 0; i < d->nnotes; i++) {
        const DiagNote *n = &d->notes[i];
        if (!n->replacement) continue;
        json_begin(j, '{');
        json_key_string(j, "message", n->message);
        json_key_string(j, "replacement", n->replacement);
        json_key(j, "span");
        write_span(j, n->replace);
        json_end(j, '}');
    }
    json_end(j, ']');
}

void diag_write_json(FILE *o, const Diagnostic *d)
{
    Json j = {o, false};
    json_begin(&j, '{');
    json_key_string(&j, "code",
                    d->code == DIAG_NO_CODE ? NULL : diag_code_name((DiagCode)d->code));
    json_key_string(&j, "severity", diag_severity_name(d->severity));
    json_key_string(&j, "message", d->message);
    json_key(&j, "spans");
    json_begin(&j, '[');
    if (d->loc.file) write_span(&j, d->loc);
    json_end(&j, ']');
    write_notes(&j, d);
    write_suggestions(&j, d);
    char *text = rendered(d);
    json_key_string(&j, "rendered", text);
    free(text);
    json_end(&j, '}');
    fputc('\n', o);
}
