/* server.c — a session: lifecycle, documents, diagnostics, dispatch.
 *
 * The lifecycle is the protocol's: before `initialize` every request is
 * answered ServerNotInitialized and every notification but `exit` is
 * dropped; after `shutdown` requests are refused (InvalidRequest); `exit`
 * ends the session, with status 0 if `shutdown` came first, else 1 (so
 * does the end of the input).  A request for a method the server does not
 * have is answered MethodNotFound; an unknown notification is ignored, as
 * the protocol asks ("$/" ones included).  A frame that cannot be read or
 * whose body is not JSON is answered ParseError, a message that is JSON
 * but not a request or notification InvalidRequest, a known method with
 * unusable parameters InvalidParams; the session goes on in every case.
 *
 * Documents are synchronised incrementally (TextDocumentSyncKind.
 * Incremental): a change with a range is applied as an edit of the text
 * kept, one without is the whole new text.
 * Every open and change re-analyses the document and publishes its
 * diagnostics, every error of `mosaicc --check` with its code, its notes
 * as related information (or, for a client without it, as lines of the
 * message), in positions of UTF-16 units (text.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L    /* open_memstream under -std=c11 */
#endif
#include "lsp.h"

#include <stdlib.h>
#include <string.h>

#include "rpc.h"
#include "typecheck/effects.h"

static char *xstrndup(const char *s, size_t n)
{
    char *p = lsp_xrealloc(NULL, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

json_object *server_fail(Server *s, int code, const char *message)
{
    s->error_code = code;
    s->error_message = message;
    return NULL;
}

/* ---- positions ------------------------------------------------------------ */

static json_object *position(const Document *doc, size_t offset)
{
    LspPos p = text_position(&doc->lines, offset);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "line", json_object_new_int64(p.line));
    json_object_object_add(o, "character", json_object_new_int64(p.character));
    return o;
}

json_object *lsp_range(const Document *doc, Loc loc)
{
    size_t start = loc.file ? loc.start : 0;
    size_t end = loc.file && loc.end > loc.start ? loc.end : start;
    json_object *r = json_object_new_object();
    json_object_object_add(r, "start", position(doc, start));
    json_object_object_add(r, "end", position(doc, end));
    return r;
}

json_object *lsp_location(const Document *doc, Loc loc)
{
    json_object *l = json_object_new_object();
    json_object_object_add(l, "uri", json_object_new_string(doc->uri));
    json_object_object_add(l, "range", lsp_range(doc, loc));
    return l;
}

/* ---- documents and analyses ----------------------------------------------- */

static Document *find_doc(Server *s, const char *uri)
{
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (strcmp(s->docs[i]->uri, uri) == 0)
            return s->docs[i];
    return NULL;
}

static void set_text(Document *d, const char *text, size_t len)
{
    text_free(&d->lines);
    free(d->text);
    d->text = xstrndup(text, len);
    d->len = len;
    text_init(&d->lines, d->text, d->len);
}

static void free_doc(Document *d)
{
    free(d->last_effects);
    text_free(&d->lines);
    free(d->text);
    free(d->uri);
    free(d);
}

static void keep_effects(Document *doc, const Program *program)
{
    char *report = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&report, &len);
    if (!m)
        return;
    eff_print_report(m, program);
    if (fclose(m) != 0) {
        free(report);
        return;
    }
    free(doc->last_effects);
    doc->last_effects = report;
}

const Analysis *server_analysis(Server *s, Document *doc)
{
    if (s->analysed != doc || s->analysed_version != doc->version || !s->analysis.live) {
        analysis_run(&s->analysis, doc->uri, doc->text, doc->len, true);
        s->analysed = doc;
        s->analysed_version = doc->version;
        if (s->analysis.effects)
            keep_effects(doc, s->analysis.program);
    }
    return &s->analysis;
}

const Analysis *server_probe(Server *s, Document *doc, const char *text, size_t len)
{
    analysis_run(&s->analysis, doc->uri, text, len, false);
    s->analysed = NULL;
    return &s->analysis;
}

static bool send(Server *s, json_object *msg)
{
    bool ok = rpc_write(s->out, msg);
    json_object_put(msg);
    return ok;
}

static json_object *diagnostic(Server *s, const Document *doc, const AnalysisDiag *d)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "range", lsp_range(doc, d->loc));
    /* 1 Error, 2 Warning: a W code is a warning (docs/warnings.md) */
    json_object_object_add(o, "severity",
                           json_object_new_int(diag_code_name(d->code)[0] == 'W' ? 2 : 1));
    json_object_object_add(o, "code", json_object_new_string(diag_code_name(d->code)));
    json_object_object_add(o, "source", json_object_new_string("mosaic"));
    /* notes without a place (or all of them, for a client that cannot
     * show related information) as lines of the message, as mosaicc
     * prints them */
    size_t len = strlen(d->message) + 1;
    for (size_t i = 0; i < d->nnotes; i++)
        len += strlen(d->notes[i].message) + 64;
    char *msg = lsp_xrealloc(NULL, len);
    size_t n = (size_t)snprintf(msg, len, "%s", d->message);
    json_object *related = json_object_new_array();
    for (size_t i = 0; i < d->nnotes; i++) {
        const AnalysisNote *note = &d->notes[i];
        if (note->loc.file && s->related_info) {
            json_object *r = json_object_new_object();
            json_object_object_add(r, "location", lsp_location(doc, note->loc));
            json_object_object_add(r, "message", rpc_new_string(note->message));
            json_object_array_add(related, r);
        } else if (note->loc.file) {
            LspPos p = text_position(&doc->lines, note->loc.start);
            n += (size_t)snprintf(msg + n, len - n, "\n%lld:%lld: note: %s",
                                  (long long)p.line + 1, (long long)p.character + 1,
                                  note->message);
        } else {
            n += (size_t)snprintf(msg + n, len - n, "\nnote: %s", note->message);
        }
    }
    json_object_object_add(o, "message", rpc_new_string(msg));
    free(msg);
    if (json_object_array_length(related) > 0)
        json_object_object_add(o, "relatedInformation", related);
    else
        json_object_put(related);
    return o;
}

static bool publish(Server *s, const Document *doc, const Analysis *a)
{
    json_object *list = json_object_new_array();
    for (size_t i = 0; a && i < a->ndiags; i++)
        json_object_array_add(list, diagnostic(s, doc, &a->diags[i]));
    if (a && a->truncated) {
        json_object *o = json_object_new_object();
        Loc at = a->ndiags ? a->diags[a->ndiags - 1].loc : LOC_NONE;
        json_object_object_add(o, "range", lsp_range(doc, at));
        json_object_object_add(o, "severity", json_object_new_int(3));     /* Information */
        json_object_object_add(o, "source", json_object_new_string("mosaic"));
        json_object_object_add(o, "message", json_object_new_string(
            "too many errors: only the first ones are shown"));
        json_object_array_add(list, o);
    }
    json_object *params = json_object_new_object();
    json_object_object_add(params, "uri", json_object_new_string(doc->uri));
    if (a)
        json_object_object_add(params, "version", json_object_new_int64(doc->version));
    json_object_object_add(params, "diagnostics", list);
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(msg, "method",
                           json_object_new_string("textDocument/publishDiagnostics"));
    json_object_object_add(msg, "params", params);
    return send(s, msg);
}

/* ---- lifecycle ------------------------------------------------------------ */

static json_object *on_initialize(Server *s, json_object *params)
{
    if (s->initialized)
        return server_fail(s, RPC_INVALID_REQUEST, "initialize was already received");
    json_object *caps = rpc_get(params, "capabilities");
    json_object *formats = rpc_path(caps, "textDocument.hover.contentFormat");
    for (size_t i = 0; formats && json_object_is_type(formats, json_type_array) &&
                       i < json_object_array_length(formats);
         i++) {
        json_object *f = json_object_array_get_idx(formats, i);
        if (json_object_is_type(f, json_type_string) &&
            strcmp(json_object_get_string(f), "markdown") == 0)
            s->markdown = true;
    }
    s->related_info = rpc_true(caps, "textDocument.publishDiagnostics.relatedInformation");
    s->initialized = true;

    json_object *sync = json_object_new_object();
    json_object_object_add(sync, "openClose", json_object_new_boolean(1));
    json_object_object_add(sync, "change", json_object_new_int(2));    /* Incremental */
    json_object *triggers = json_object_new_array();
    json_object_array_add(triggers, json_object_new_string("."));
    json_object_array_add(triggers, json_object_new_string("!"));
    json_object *completion = json_object_new_object();
    json_object_object_add(completion, "triggerCharacters", triggers);
    json_object *c = json_object_new_object();
    json_object_object_add(c, "positionEncoding", json_object_new_string("utf-16"));
    json_object_object_add(c, "textDocumentSync", sync);
    json_object_object_add(c, "hoverProvider", json_object_new_boolean(1));
    json_object_object_add(c, "definitionProvider", json_object_new_boolean(1));
    json_object_object_add(c, "referencesProvider", json_object_new_boolean(1));
    json_object_object_add(c, "documentSymbolProvider", json_object_new_boolean(1));
    json_object_object_add(c, "renameProvider", json_object_new_boolean(1));
    json_object_object_add(c, "documentFormattingProvider", json_object_new_boolean(1));
    json_object *sh = json_object_new_object();
    json_object *sh_triggers = json_object_new_array();
    json_object_array_add(sh_triggers, json_object_new_string("("));
    json_object_array_add(sh_triggers, json_object_new_string(","));
    json_object_object_add(sh, "triggerCharacters", sh_triggers);
    json_object_object_add(c, "signatureHelpProvider", sh);
    json_object_object_add(c, "completionProvider", completion);
    json_object *info = json_object_new_object();
    json_object_object_add(info, "name", json_object_new_string(LSP_SERVER_NAME));
    json_object_object_add(info, "version", json_object_new_string(PACKAGE_VERSION));
    json_object *result = json_object_new_object();
    json_object_object_add(result, "capabilities", c);
    json_object_object_add(result, "serverInfo", info);
    return result;
}

static json_object *on_shutdown(Server *s, json_object *params)
{
    (void)params;
    s->shut_down = true;
    return NULL;
}

static void on_exit_message(Server *s, json_object *params)
{
    (void)params;
    s->exited = true;
}

/* ---- document synchronisation -------------------------------------------- */

static void on_did_open(Server *s, json_object *params)
{
    json_object *td = rpc_get(params, "textDocument");
    const char *uri = rpc_string(td, "uri");
    json_object *text = rpc_get(td, "text");
    if (!uri || !text || !json_object_is_type(text, json_type_string))
        return;
    Document *d = find_doc(s, uri);
    if (!d) {
        d = lsp_xrealloc(NULL, sizeof *d);
        memset(d, 0, sizeof *d);
        d->uri = xstrndup(uri, strlen(uri));
        if (s->ndocs == s->docs_cap) {
            s->docs_cap = s->docs_cap ? 2 * s->docs_cap : 8;
            s->docs = lsp_xrealloc(s->docs, s->docs_cap * sizeof *s->docs);
        }
        s->docs[s->ndocs++] = d;
    }
    int64_t version = 0;
    rpc_int(td, "version", &version);
    d->version = version;
    set_text(d, json_object_get_string(text), (size_t)json_object_get_string_len(text));
    if (s->analysed == d)
        s->analysed = NULL;
    publish(s, d, server_analysis(s, d));
}

/* One entry of contentChanges: the whole text, or a range replaced. */
static void apply_change(Document *d, json_object *change)
{
    json_object *text = rpc_get(change, "text");
    if (!text || !json_object_is_type(text, json_type_string))
        return;
    const char *t = json_object_get_string(text);
    size_t tlen = (size_t)json_object_get_string_len(text);
    json_object *range = rpc_get(change, "range");
    int64_t l0, c0, l1, c1;
    if (!range || !rpc_int(rpc_get(range, "start"), "line", &l0) ||
        !rpc_int(rpc_get(range, "start"), "character", &c0) ||
        !rpc_int(rpc_get(range, "end"), "line", &l1) ||
        !rpc_int(rpc_get(range, "end"), "character", &c1)) {
        set_text(d, t, tlen);
        return;
    }
    size_t a = text_offset(&d->lines, (LspPos){l0, c0});
    size_t b = text_offset(&d->lines, (LspPos){l1, c1});
    if (b < a)
        b = a;
    size_t len = d->len - (b - a) + tlen;
    char *next = lsp_xrealloc(NULL, len + 1);
    memcpy(next, d->text, a);
    memcpy(next + a, t, tlen);
    memcpy(next + a + tlen, d->text + b, d->len - b);
    set_text(d, next, len);
    free(next);
}

static void on_did_change(Server *s, json_object *params)
{
    json_object *td = rpc_get(params, "textDocument");
    Document *d = find_doc(s, rpc_string(td, "uri"));
    json_object *changes = rpc_get(params, "contentChanges");
    if (!d || !changes || !json_object_is_type(changes, json_type_array))
        return;
    for (size_t i = 0; i < json_object_array_length(changes); i++)
        apply_change(d, json_object_array_get_idx(changes, i));
    int64_t version = d->version + 1;
    rpc_int(td, "version", &version);
    d->version = version;
    if (s->analysed == d)
        s->analysed = NULL;
    publish(s, d, server_analysis(s, d));
}

static void on_did_close(Server *s, json_object *params)
{
    Document *d = find_doc(s, rpc_string(rpc_get(params, "textDocument"), "uri"));
    if (!d)
        return;
    publish(s, d, NULL);        /* its diagnostics go with it */
    if (s->analysed == d)
        s->analysed = NULL;
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i] == d) {
            s->docs[i] = s->docs[--s->ndocs];
            break;
        }
    free_doc(d);
}

/* ---- requests on a position ----------------------------------------------- */

/* The document and byte offset of a TextDocumentPositionParams; NULL
 * (the request failed with InvalidParams) if they are not usable, NULL
 * with no failure if the document is not open. */
static Document *doc_position(Server *s, json_object *params, uint32_t *offset)
{
    const char *uri = rpc_string(rpc_get(params, "textDocument"), "uri");
    json_object *pos = rpc_get(params, "position");
    int64_t line, character;
    if (!uri || !rpc_int(pos, "line", &line) || !rpc_int(pos, "character", &character)) {
        server_fail(s, RPC_INVALID_PARAMS, "expected textDocument.uri and position");
        return NULL;
    }
    Document *d = find_doc(s, uri);
    if (d)
        *offset = (uint32_t)text_offset(&d->lines, (LspPos){line, character});
    return d;
}

static json_object *on_hover(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    return d ? lsp_hover(s, d, offset) : NULL;
}

static json_object *on_definition(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    return d ? lsp_definition(s, d, offset) : NULL;
}

static json_object *on_references(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    json_object *ctx = rpc_get(params, "context");
    json_object *with = ctx ? rpc_get(ctx, "includeDeclaration") : NULL;
    return d ? lsp_references(s, d, offset, with && json_object_get_boolean(with)) : NULL;
}

static json_object *on_signature_help(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    return d ? lsp_signature_help(s, d, offset) : NULL;
}

static json_object *on_rename(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    const char *name = rpc_string(params, "newName");
    if (d && !name)
        return server_fail(s, RPC_INVALID_PARAMS, "expected newName");
    return d ? lsp_rename(s, d, offset, name) : NULL;
}

static json_object *on_formatting(Server *s, json_object *params)
{
    const char *uri = rpc_string(rpc_get(params, "textDocument"), "uri");
    if (!uri)
        return server_fail(s, RPC_INVALID_PARAMS, "expected textDocument.uri");
    Document *d = find_doc(s, uri);
    return d ? lsp_formatting(s, d) : NULL;
}

static json_object *on_document_symbol(Server *s, json_object *params)
{
    const char *uri = rpc_string(rpc_get(params, "textDocument"), "uri");
    if (!uri)
        return server_fail(s, RPC_INVALID_PARAMS, "expected textDocument.uri");
    Document *d = find_doc(s, uri);
    return d ? lsp_document_symbols(s, d) : NULL;   /* not open: no outline */
}

static json_object *on_completion(Server *s, json_object *params)
{
    uint32_t offset = 0;
    Document *d = doc_position(s, params, &offset);
    return d ? lsp_completion(s, d, offset) : NULL;
}

/* ---- dispatch ------------------------------------------------------------- */

typedef json_object *Request(Server *s, json_object *params);
typedef void Notification(Server *s, json_object *params);

static const struct {
    const char *method;
    Request *request;           /* one of the two */
    Notification *notification;
} methods[] = {
    {"initialize", on_initialize, NULL},
    {"initialized", NULL, NULL},
    {"shutdown", on_shutdown, NULL},
    {"exit", NULL, on_exit_message},
    {"textDocument/didOpen", NULL, on_did_open},
    {"textDocument/didChange", NULL, on_did_change},
    {"textDocument/didClose", NULL, on_did_close},
    {"textDocument/hover", on_hover, NULL},
    {"textDocument/definition", on_definition, NULL},
    {"textDocument/completion", on_completion, NULL},
    {"textDocument/references", on_references, NULL},
    {"textDocument/documentSymbol", on_document_symbol, NULL},
    {"textDocument/signatureHelp", on_signature_help, NULL},
    {"textDocument/rename", on_rename, NULL},
    {"textDocument/formatting", on_formatting, NULL},
};

static bool reply_error(Server *s, json_object *id, int code, const char *message)
{
    json_object *err = json_object_new_object();
    json_object_object_add(err, "code", json_object_new_int(code));
    json_object_object_add(err, "message", rpc_new_string(message));
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(msg, "id", json_object_get(id));
    json_object_object_add(msg, "error", err);
    return send(s, msg);
}

static bool reply(Server *s, json_object *id, json_object *result)
{
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(msg, "id", json_object_get(id));
    json_object_object_add(msg, "result", result);
    return send(s, msg);
}

/* Handles one message; false if the answer could not be written. */
static bool handle(Server *s, json_object *msg)
{
    bool is_object = json_object_is_type(msg, json_type_object);
    bool has_id = is_object && json_object_object_get_ex(msg, "id", NULL);
    json_object *id = rpc_get(msg, "id");
    json_object *m = rpc_get(msg, "method");
    bool id_ok = !id || json_object_is_type(id, json_type_int) ||
                 json_object_is_type(id, json_type_string);
    if (!m && has_id && (json_object_object_get_ex(msg, "result", NULL) ||
                         json_object_object_get_ex(msg, "error", NULL)))
        return true;            /* a response: the server asks nothing */
    if (!m || !json_object_is_type(m, json_type_string) || !id_ok)
        return reply_error(s, id_ok ? id : NULL, RPC_INVALID_REQUEST,
                           "expected a request or a notification");
    const char *method = json_object_get_string(m);
    json_object *params = rpc_get(msg, "params");
    size_t n = sizeof methods / sizeof methods[0], i = 0;
    while (i < n && strcmp(methods[i].method, method) != 0)
        i++;

    if (!has_id) {
        /* a notification: nothing is ever answered */
        bool allowed = s->initialized || strcmp(method, "exit") == 0;
        if (i < n && methods[i].notification && allowed)
            methods[i].notification(s, params);
        return true;
    }
    if (!s->initialized && strcmp(method, "initialize") != 0)
        return reply_error(s, id, RPC_SERVER_NOT_INITIALIZED,
                           "the server is not initialized yet");
    if (s->shut_down)
        return reply_error(s, id, RPC_INVALID_REQUEST, "the server is shut down");
    if (i == n || !methods[i].request)
        return reply_error(s, id, RPC_METHOD_NOT_FOUND,
                           i == n ? "no such method" : "this method is a notification");
    s->error_code = 0;
    json_object *result = methods[i].request(s, params);
    if (s->error_code) {
        json_object_put(result);
        return reply_error(s, id, s->error_code, s->error_message);
    }
    return reply(s, id, result);
}

int lsp_serve(FILE *in, FILE *out)
{
    Server s;
    memset(&s, 0, sizeof s);
    s.out = out;
    RpcReader reader = {in, NULL};
    while (!s.exited) {
        json_object *msg = NULL;
        RpcStatus st = rpc_read(&reader, &msg);
        if (st == RPC_EOF)
            break;
        bool ok;
        if (st == RPC_BAD_FRAME)
            ok = reply_error(&s, NULL, RPC_PARSE_ERROR, "a frame needs a Content-Length header");
        else if (st == RPC_BAD_JSON)
            ok = reply_error(&s, NULL, RPC_PARSE_ERROR, "the message is not JSON");
        else
            ok = handle(&s, msg);
        json_object_put(msg);
        if (!ok)
            break;              /* the client is gone */
    }
    rpc_reader_free(&reader);
    for (size_t i = 0; i < s.ndocs; i++)
        free_doc(s.docs[i]);
    free(s.docs);
    analysis_clear(&s.analysis);
    return s.exited && s.shut_down ? 0 : 1;
}
