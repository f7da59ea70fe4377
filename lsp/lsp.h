/* lsp.h — the language server's internal interface, shared by the files
 * of lsp/.
 *
 * mosaic-lsp is split by concern: main.c (the program: options, a stack
 * deep enough for the front end), rpc.c (framing and JSON), text.c
 * (positions in UTF-16 units), analysis.c (the front end on a document),
 * server.c (the session: lifecycle, documents, diagnostics, dispatch),
 * hover.c (hovers and definitions), complete.c (completions).
 *
 * The server speaks the Language Server Protocol 3.17 over standard
 * input and output, one request at a time, in the order received: every
 * answer is computed from the document's latest text, re-analysed when
 * it changed, so there is nothing to cancel or to keep consistent.
 */
#ifndef MOSAIC_LSP_H
#define MOSAIC_LSP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json.h>

#include "analysis.h"
#include "text.h"

#define LSP_SERVER_NAME "mosaic-lsp"

/* An open document: the text the editor last sent. */
typedef struct Document {
    char *uri;
    char *text;             /* len bytes, NUL-terminated, malloc'd */
    size_t len;
    int64_t version;
    LspText lines;
    /* the effect report (mosaicc --effects) of the last version without
     * errors, for hovers while the current one has some; malloc'd */
    char *last_effects;
} Document;

typedef struct Server {
    FILE *out;
    bool initialized;       /* initialize was answered */
    bool shut_down;         /* shutdown was answered */
    bool exited;            /* exit was received */
    /* what the client said it supports (initialize's capabilities) */
    bool markdown;          /* hovers in Markdown */
    bool related_info;      /* diagnostics' relatedInformation */
    Document **docs;
    size_t ndocs, docs_cap;
    /* The one live analysis, and what it is of: a document at a version,
     * or a completion's probe (analysed == NULL). */
    Analysis analysis;
    const Document *analysed;
    int64_t analysed_version;
    /* set by a request's handler that fails (server_fail) */
    int error_code;
    const char *error_message;
} Server;

/* Runs a session on in/out; returns the exit status (0 after shutdown
 * and exit, 1 if the session ended otherwise). */
int lsp_serve(FILE *in, FILE *out);

/* ---- server.c --------------------------------------------------------------- */
/* The analysis of doc's current text (made if the live one is not it). */
const Analysis *server_analysis(Server *s, Document *doc);
/* Makes the live analysis one of other text (a completion's probe). */
const Analysis *server_probe(Server *s, Document *doc, const char *text, size_t len);
/* A handler's failure: the error the request is answered with. */
json_object *server_fail(Server *s, int code, const char *message);
/* {"start": ..., "end": ...} of a span of doc. */
json_object *lsp_range(const Document *doc, Loc loc);
/* {"uri": ..., "range": ...} */
json_object *lsp_location(const Document *doc, Loc loc);

/* ---- hover.c ---------------------------------------------------------------- */
json_object *lsp_hover(Server *s, Document *doc, uint32_t offset);
json_object *lsp_definition(Server *s, Document *doc, uint32_t offset);
/* Where the declaration a ref names is (LOC_NONE for a built-in, a
 * property, an unknown member): an instance's members are their
 * generic's, whose locations they keep. */
Loc lsp_declaration_of(const TcRef *r);
/* The source text of bytes [start, end) of the analysed file on one line,
 * its runs of blanks and newlines one space (an arena string). */
const char *lsp_source(const Analysis *a, uint32_t start, uint32_t end);
/* One line of Mosaic saying what a declaration is, as hovers and
 * completion details show it (arena strings). */
const char *lsp_func_line(const Analysis *a, const FuncDecl *f);   /* "def f(x: int): int" */
const char *lsp_class_line(const Analysis *a, const ClassDecl *k); /* "active class A<n>" */
const char *lsp_field_line(const FieldDecl *f, const Type *t);     /* "var x: int" */
const char *lsp_local_line(const Sym *sym, const Type *t);         /* "let x: int" */
const char *lsp_pool_line(const Analysis *a, const PoolDecl *p);   /* "pool ps: P layout L" */

/* ---- symbols.c -------------------------------------------------------------- */
/* textDocument/references: every use of the declaration at offset. */
json_object *lsp_references(Server *s, Document *doc, uint32_t offset, bool with_decl);
/* textDocument/documentSymbol: the outline, declarations in source order. */
json_object *lsp_document_symbols(Server *s, Document *doc);

/* The type the code expects at offset, for ranking completions: an
 * argument's parameter type, an assignment's target, a `return`'s result;
 * NULL when none is known. */
const Type *lsp_expected_type(const Analysis *a, const Document *doc, uint32_t offset);
/* textDocument/formatting: the edit to mosaicc --format's layout. */
json_object *lsp_formatting(Server *s, Document *doc);
/* textDocument/rename: a WorkspaceEdit, or a failure that says why. */
json_object *lsp_rename(Server *s, Document *doc, uint32_t offset, const char *name);
/* textDocument/signatureHelp: the callee of the call around offset, its
 * parameters, and the one the cursor is in (null outside a call). */
json_object *lsp_signature_help(Server *s, Document *doc, uint32_t offset);

/* ---- complete.c ------------------------------------------------------------- */
json_object *lsp_completion(Server *s, Document *doc, uint32_t offset);
/* Is name a keyword or a built-in type's (a declaration cannot have it)? */
bool lsp_reserved_word(const char *name);

#endif
