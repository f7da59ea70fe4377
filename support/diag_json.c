/* diag_json.c — diagnostics for tools: --error-format=json and sarif.
 *
 * json: each diagnostic is one JSON object on one line (JSON Lines),
 * written by diag.c once its notes are in (docs/diagnostics.md has the
 * fields):
 *
 *   {"code":"E0100","severity":"error","message":"...","spans":[...],
 *    "notes":[...],"suggestions":[...],"rendered":"..."}
 *
 * sarif: one SARIF 2.1.0 log (the OASIS standard that code-scanning tools
 * read) for the whole run, written at its end: a result per error, whose
 * rule is its code (errors.def gives the rules' descriptions), the notes
 * as related locations and the suggestions as fixes.
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

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif
/* Where the OASIS standard publishes the schema of the logs written here
 * (named in the log, never fetched). */
#define SARIF_SCHEMA \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

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

/* ---- SARIF --------------------------------------------------------------- */

/* The URI of the path as given: a relative or absolute reference (RFC
 * 3986), every byte but the unreserved characters, '/' and the
 * sub-delimiters percent-encoded, so that "my prog.mos" is a valid
 * reference and a ':' is never read as a scheme. */
static void write_uri(Json *j, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    static const char plain[] = "-._~/!$&'()*+,;=@";
    size_t len = strlen(path);
    char *uri = malloc(3 * len + 1);
    if (!uri) diag_out_of_memory();
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            (c && strchr(plain, c))) {
            uri[n++] = (char)c;
        } else {
            uri[n++] = '%';
            uri[n++] = hex[c >> 4];
            uri[n++] = hex[c & 15];
        }
    }
    uri[n] = '\0';
    json_key(j, "uri");
    json_string(j, uri);
    free(uri);
}

/* "key": {"text": ...}, SARIF's message object. */
static void write_message(Json *j, const char *key, const char *text)
{
    json_key(j, key);
    json_begin(j, '{');
    json_key_string(j, "text", text);
    json_end(j, '}');
}

/* "region": lines and columns as in the human format (the run says
 * columnKind "unicodeCodePoints"), the end exclusive, and the bytes. */
static void write_region(Json *j, const char *key, Loc loc)
{
    DiagPos start = diag_pos(loc.file, loc.start);
    DiagPos end = diag_pos(loc.file, loc.end > loc.start ? loc.end : loc.start);
    json_key(j, key);
    json_begin(j, '{');
    json_key_int(j, "startLine", start.line);
    json_key_int(j, "startColumn", start.col);
    json_key_int(j, "endLine", end.line);
    json_key_int(j, "endColumn", end.col);
    json_key_int(j, "byteOffset", start.offset);
    json_key_int(j, "byteLength", end.offset - start.offset);
    json_end(j, '}');
}

static void write_artifact_location(Json *j, Loc loc)
{
    json_key(j, "artifactLocation");
    json_begin(j, '{');
    write_uri(j, src_path(loc.file));
    json_end(j, '}');
}

/* A location object; its message, if any, is a note's, and its id (-1:
 * none) tells it from the result's other locations. */
static void write_location(Json *j, Loc loc, const char *message, int id)
{
    json_begin(j, '{');
    if (id >= 0) json_key_int(j, "id", id);
    if (loc.file) {
        json_key(j, "physicalLocation");
        json_begin(j, '{');
        write_artifact_location(j, loc);
        write_region(j, "region", loc);
        json_end(j, '}');
    }
    if (message) write_message(j, "message", message);
    json_end(j, '}');
}

static const char *sarif_level(DiagSeverity s)
{
    return diag_severity_name(s);   /* SARIF's levels have the same names */
}

static bool has_suggestion(const Diagnostic *d)
{
    for (size_t i = 0; i < d->nnotes; i++)
        if (d->notes[i].replacement) return true;
    return false;
}

/* "fixes": the suggestions, each one replacement in one file. */
static void write_fixes(Json *j, const Diagnostic *d)
{
    json_key(j, "fixes");
    json_begin(j, '[');
    for (size_t i = 0; i < d->nnotes; i++) {
        const DiagNote *n = &d->notes[i];
        if (!n->replacement) continue;
        json_begin(j, '{');
        write_message(j, "description", n->message);
        json_key(j, "artifactChanges");
        json_begin(j, '[');
        json_begin(j, '{');
        write_artifact_location(j, n->replace);
        json_key(j, "replacements");
        json_begin(j, '[');
        json_begin(j, '{');
        write_region(j, "deletedRegion", n->replace);
        json_key(j, "insertedContent");
        json_begin(j, '{');
        json_key_string(j, "text", n->replacement);
        json_end(j, '}');
        json_end(j, '}');
        json_end(j, ']');
        json_end(j, '}');
        json_end(j, ']');
        json_end(j, '}');
    }
    json_end(j, ']');
}

/* A result: an error (or warning) with its code.  Its notes are related
 * locations, with their message (a note without a place is a location
 * with only a message), and its suggestions are fixes.  Empty arrays are
 * left out, as SARIF's defaults say the same. */
static void write_result(Json *j, const Diagnostic *d, int rule_index)
{
    json_begin(j, '{');
    json_key_string(j, "ruleId", diag_code_name((DiagCode)d->code));
    json_key_int(j, "ruleIndex", rule_index);
    json_key_string(j, "level", sarif_level(d->severity));
    write_message(j, "message", d->message);
    if (d->loc.file) {
        json_key(j, "locations");
        json_begin(j, '[');
        write_location(j, d->loc, NULL, -1);
        json_end(j, ']');
    }
    if (d->nnotes) {
        json_key(j, "relatedLocations");
        json_begin(j, '[');
        for (size_t i = 0; i < d->nnotes; i++)
            write_location(j, d->notes[i].loc, d->notes[i].message, (int)i);
        json_end(j, ']');
    }
    if (has_suggestion(d)) write_fixes(j, d);
    json_end(j, '}');
}

static const char *const code_texts[DIAG_COUNT] = {
#define DIAG_CODE(name, text) text,
#include "errors.def"
#undef DIAG_CODE
};

/* "tool": mosaicc, with a rule for each code the results use, in the
 * order of first use; rule_of[code] becomes its index. */
static void write_tool(Json *j, const Diagnostic *ds, size_t n, int *rule_of)
{
    json_key(j, "tool");
    json_begin(j, '{');
    json_key(j, "driver");
    json_begin(j, '{');
    json_key_string(j, "name", "mosaicc");
    json_key_string(j, "version", PACKAGE_VERSION);
    json_key(j, "rules");
    json_begin(j, '[');
    int nrules = 0;
    for (size_t i = 0; i < n; i++) {
        int code = ds[i].code;
        if (code == DIAG_NO_CODE || rule_of[code] >= 0) continue;
        rule_of[code] = nrules++;
        json_begin(j, '{');
        json_key_string(j, "id", diag_code_name((DiagCode)code));
        write_message(j, "shortDescription", code_texts[code]);
        json_key(j, "defaultConfiguration");
        json_begin(j, '{');
        json_key_string(j, "level", sarif_level(ds[i].severity));
        json_end(j, '}');
        json_end(j, '}');
    }
    json_end(j, ']');
    json_end(j, '}');
    json_end(j, '}');
}

/* "invocations": how the run ended, and the notes that are the
 * compiler's rather than the program's (the error limit's). */
static void write_invocation(Json *j, const Diagnostic *ds, size_t n, int exit_status)
{
    json_key(j, "invocations");
    json_begin(j, '[');
    json_begin(j, '{');
    json_key(j, "executionSuccessful");
    json_literal(j, exit_status == 2 ? "false" : "true");
    json_key_int(j, "exitCode", exit_status);
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (ds[i].code != DIAG_NO_CODE) continue;
        if (!any) {
            json_key(j, "toolExecutionNotifications");
            json_begin(j, '[');
            any = true;
        }
        json_begin(j, '{');
        write_message(j, "message", ds[i].message);
        json_key_string(j, "level", sarif_level(ds[i].severity));
        if (ds[i].loc.file) {
            json_key(j, "locations");
            json_begin(j, '[');
            write_location(j, ds[i].loc, NULL, -1);
            json_end(j, ']');
        }
        json_end(j, '}');
    }
    if (any) json_end(j, ']');
    json_end(j, '}');
    json_end(j, ']');
}

void diag_write_sarif(FILE *o, const Diagnostic *ds, size_t n, int exit_status)
{
    int rule_of[DIAG_COUNT];
    for (int i = 0; i < DIAG_COUNT; i++) rule_of[i] = -1;
    Json j = {o, false};
    json_begin(&j, '{');
    json_key_string(&j, "$schema", SARIF_SCHEMA);
    json_key_string(&j, "version", "2.1.0");
    json_key(&j, "runs");
    json_begin(&j, '[');
    json_begin(&j, '{');
    write_tool(&j, ds, n, rule_of);
    write_invocation(&j, ds, n, exit_status);
    json_key_string(&j, "columnKind", "unicodeCodePoints");
    json_key(&j, "results");
    json_begin(&j, '[');
    for (size_t i = 0; i < n; i++)
        if (ds[i].code != DIAG_NO_CODE) write_result(&j, &ds[i], rule_of[ds[i].code]);
    json_end(&j, ']');
    json_end(&j, '}');
    json_end(&j, ']');
    json_end(&j, '}');
    fputc('\n', o);
}
