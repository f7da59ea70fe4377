/* rpc.c — Content-Length framing and json-c helpers (rpc.h).
 *
 * A header is a run of "Name: value" lines ended by an empty line; only
 * Content-Length matters (Content-Type is accepted and ignored).  Lines
 * may end with "\r\n", as the protocol says, or a bare "\n", as people
 * typing at a server do.
 *
 * Resynchronising after a broken frame: without a length there is no
 * telling where the body ends, so lines that are not headers are skipped
 * up to the next Content-Length header or empty line, and one broken
 * frame is reported for the whole run.  A body sent without a header
 * usually runs straight into the next frame's header on the same line
 * (bodies do not end with a newline): that header is found inside the
 * line and read as the start of the next frame, so the message after a
 * broken one is not lost.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L    /* getline, strdup under -std=c11 */
#endif
#include "rpc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

static const char LENGTH_HEADER[] = "Content-Length:";

/* The next header line, without its line break; NULL at the end. */
static char *next_line(RpcReader *r)
{
    if (r->pending) {
        char *line = r->pending;
        r->pending = NULL;
        return line;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, r->in);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    return line;
}

/* "Name: value" with a name of token characters. */
static bool is_header(const char *line)
{
    const char *p = line;
    while (isalnum((unsigned char)*p) || *p == '-')
        p++;
    return p > line && *p == ':';
}

/* The value of a Content-Length line: digits, optionally surrounded by
 * blanks; -1 if it is anything else. */
static int64_t length_of(const char *line)
{
    const char *p = line + sizeof LENGTH_HEADER - 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    int64_t n = 0;
    for (; isdigit((unsigned char)*p); p++) {
        if (n > (int64_t)RPC_MAX_BODY)
            return (int64_t)RPC_MAX_BODY + 1;   /* too large, whatever it is */
        n = n * 10 + (*p - '0');
    }
    while (*p == ' ' || *p == '\t')
        p++;
    return *p ? -1 : n;
}

/* Throws away n bytes of the stream. */
static void skip_bytes(FILE *in, size_t n)
{
    char buf[1 << 16];
    while (n > 0) {
        size_t got = fread(buf, 1, n < sizeof buf ? n : sizeof buf, in);
        if (got == 0)
            return;
        n -= got;
    }
}

static RpcStatus parse_body(const char *body, size_t n, json_object **msg)
{
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return RPC_BAD_JSON;
    json_object *obj = json_tokener_parse_ex(tok, body, (int)n);
    bool ok = obj && json_tokener_get_error(tok) == json_tokener_success;
    /* nothing but blanks after the value */
    for (size_t i = ok ? json_tokener_get_parse_end(tok) : n; i < n; i++)
        if (!isspace((unsigned char)body[i]))
            ok = false;
    json_tokener_free(tok);
    if (!ok) {
        json_object_put(obj);
        return RPC_BAD_JSON;
    }
    *msg = obj;
    return RPC_OK;
}

RpcStatus rpc_read(RpcReader *r, json_object **msg)
{
    *msg = NULL;
    int64_t length = -1;
    bool seen = false, bad = false;
    for (;;) {
        char *line = next_line(r);
        if (!line)
            return bad ? RPC_BAD_FRAME : RPC_EOF;
        bool is_length = strncasecmp(line, LENGTH_HEADER, sizeof LENGTH_HEADER - 1) == 0;
        if (!*line) {
            free(line);
            if (!seen)
                continue;       /* blank lines between frames */
            break;
        }
        if (is_length && bad) {
            r->pending = line;  /* a new frame starts after the broken one */
            return RPC_BAD_FRAME;
        }
        seen = true;
        if (is_length) {
            length = length_of(line);
            bad |= length < 0;
        } else if (!is_header(line)) {
            bad = true;
            char *next = strstr(line, LENGTH_HEADER);
            if (next) {
                r->pending = strdup(next);
                free(line);
                return RPC_BAD_FRAME;
            }
        }
        free(line);
    }
    if (bad || length < 0)
        return RPC_BAD_FRAME;
    if ((size_t)length > RPC_MAX_BODY) {
        skip_bytes(r->in, (size_t)length);
        return RPC_BAD_FRAME;
    }
    char *body = malloc((size_t)length + 1);
    if (!body) {
        skip_bytes(r->in, (size_t)length);
        return RPC_BAD_FRAME;
    }
    size_t got = fread(body, 1, (size_t)length, r->in);
    if (got < (size_t)length) {
        free(body);
        return RPC_EOF;         /* the stream ended inside a body */
    }
    body[length] = '\0';
    RpcStatus st = parse_body(body, (size_t)length, msg);
    free(body);
    return st;
}

void rpc_reader_free(RpcReader *r)
{
    free(r->pending);
    r->pending = NULL;
}

bool rpc_write(FILE *out, json_object *msg)
{
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        msg, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    if (!text)
        return false;
    fprintf(out, "Content-Length: %zu\r\n\r\n", len);
    fwrite(text, 1, len, out);
    return fflush(out) == 0 && !ferror(out);
}

/* ---- accessors ------------------------------------------------------------ */

json_object *rpc_get(json_object *obj, const char *key)
{
    json_object *v = NULL;
    if (!obj || !json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

json_object *rpc_path(json_object *obj, const char *dotted)
{
    char key[64];
    for (const char *p = dotted; obj && *p;) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        obj = rpc_get(obj, key);
        p += n + (p[n] == '.');
    }
    return obj;
}

const char *rpc_string(json_object *obj, const char *key)
{
    json_object *v = rpc_get(obj, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool rpc_int(json_object *obj, const char *key, int64_t *out)
{
    json_object *v = rpc_get(obj, key);
    if (!v || !json_object_is_type(v, json_type_int))
        return false;
    *out = json_object_get_int64(v);
    return true;
}

bool rpc_true(json_object *obj, const char *dotted)
{
    json_object *v = rpc_path(obj, dotted);
    return v && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

json_object *rpc_new_string(const char *text)
{
    char *clean = text_utf8(text, strlen(text));
    json_object *s = json_object_new_string(clean);
    free(clean);
    return s;
}
