/* symbols.c — the language server's outline and references.
 *
 * textDocument/documentSymbol answers the file's declarations in source
 * order, as LSP's DocumentSymbol tree: classes (active ones marked in the
 * detail) with their fields and methods as children, functions, pools and
 * layouts, each with its whole span (`range`) and its name's
 * (`selectionRange`), and the one line of Mosaic hovers show as `detail`.
 * Instances of generics are not in it: they are the generic code again.
 *
 * textDocument/references answers every name in the file that denotes the
 * same declaration as the one at the cursor: the checker's record of what
 * each name resolved to (typecheck/record.h), compared by where the
 * declaration is, so that a use of `Stack[int].push` and one of
 * `Stack[string].push` are both uses of the generic `push` they were
 * copied from.  The declaration itself is included when the client asks
 * (context.includeDeclaration).  Built-ins and properties (`length`) have
 * no declaration in the file, hence no references.
 *
 * textDocument/signatureHelp, textDocument/rename and textDocument/
 * formatting follow, each with its own note.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "lsp.h"
#include "rpc.h"
#include "support/arena.h"
#include "typecheck/generics.h"
#include "parser/parser.h"

#include <stdlib.h>

static bool same_loc(Loc a, Loc b)
{
    return a.file == b.file && a.start == b.start && a.end == b.end;
}

json_object *lsp_references(Server *s, Document *doc, uint32_t offset, bool with_decl)
{
    const Analysis *a = server_analysis(s, doc);
    json_object *out = json_object_new_array();
    const TcRef *r = analysis_ref_at(a, offset);
    Loc decl = r ? lsp_declaration_of(r) : LOC_NONE;
    if (decl.file != a->file || !decl.file)
        return out;
    Loc last = LOC_NONE;
    for (size_t i = 0; i < a->nrefs; i++) {
        const TcRef *u = &a->refs[i];
        if (u->span.file != a->file || !same_loc(lsp_declaration_of(u), decl))
            continue;
        if (!with_decl && same_loc(u->span, decl))
            continue;
        if (same_loc(u->span, last))
            continue;       /* one name recorded twice (a declaration, its ref) */
        last = u->span;
        json_object_array_add(out, lsp_location(doc, u->span));
    }
    return out;
}

/* LSP's SymbolKind numbers. */
enum { SK_CLASS = 5, SK_METHOD = 6, SK_FIELD = 8, SK_FUNCTION = 12, SK_VARIABLE = 13,
       SK_STRUCT = 23 };

static json_object *symbol(const Document *doc, const char *name, const char *detail, int kind,
                           Loc whole, Loc name_loc)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", rpc_new_string(name));
    if (detail)
        json_object_object_add(o, "detail", rpc_new_string(detail));
    json_object_object_add(o, "kind", json_object_new_int(kind));
    json_object_object_add(o, "range", lsp_range(doc, whole));
    json_object_object_add(o, "selectionRange", lsp_range(doc, name_loc));
    return o;
}

json_object *lsp_document_symbols(Server *s, Document *doc)
{
    const Analysis *a = server_analysis(s, doc);
    json_object *out = json_object_new_array();
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        if (!d)
            continue;
        switch (d->kind) {
        case DECL_FUNC:
            if (d->u.func && !tc_is_instance_func(d->u.func))
                json_object_array_add(out, symbol(doc, d->u.func->name.text,
                                                  lsp_func_line(a, d->u.func), SK_FUNCTION,
                                                  d->u.func->loc, d->u.func->name.loc));
            break;
        case DECL_CLASS: {
            const ClassDecl *k = d->u.cls;
            if (!k || tc_is_instance_class(k))
                break;
            json_object *c = symbol(doc, k->name.text, lsp_class_line(a, k), SK_CLASS, k->loc,
                                    k->name.loc);
            json_object *children = json_object_new_array();
            for (size_t j = 0; j < k->fields.len; j++) {
                const FieldDecl *f = k->fields.items[j];
                if (f)
                    json_object_array_add(children, symbol(doc, f->name.text,
                                                           lsp_field_line(f, f->field_type),
                                                           SK_FIELD, f->loc, f->name.loc));
            }
            for (size_t j = 0; j < k->methods.len; j++) {
                const FuncDecl *m = k->methods.items[j];
                if (m && !tc_is_instance_func(m))
                    json_object_array_add(children, symbol(doc, m->name.text,
                                                           lsp_func_line(a, m), SK_METHOD,
                                                           m->loc, m->name.loc));
            }
            json_object_object_add(c, "children", children);
            json_object_array_add(out, c);
            break;
        }
        case DECL_POOL:
            if (d->u.pool)
                json_object_array_add(out, symbol(doc, d->u.pool->name.text,
                                                  lsp_pool_line(a, d->u.pool), SK_VARIABLE,
                                                  d->u.pool->loc, d->u.pool->name.loc));
            break;
        case DECL_LAYOUT:
            if (d->u.layout)
                json_object_array_add(out, symbol(doc, d->u.layout->name.text,
                                                  arena_printf("layout %s: %s",
                                                               d->u.layout->name.text,
                                                               d->u.layout->class_name.text),
                                                  SK_STRUCT, d->u.layout->loc,
                                                  d->u.layout->name.loc));
            break;
        }
    }
    return out;
}

/* ---- signature help ---------------------------------------------------------- */

/* textDocument/signatureHelp: inside the parentheses of a call, the
 * callee's signature as written (places and declared effects included,
 * as hovers show it) with its parameters, and the one the cursor is in.
 * The call is found in the text, not the tree, so that it works on a call
 * being typed (`f(1, ` parses as nothing yet): back from the cursor to the
 * `(` no bracket closes, counting the commas outside inner brackets; the
 * name before it (type arguments `[...]` skipped, for `new Pair[A, B](`)
 * is then looked up as the checker resolved it, or, in a call the parser
 * could not read, as a top-level function of that name. */

/* Where the callee's name before the `(` at `open` starts, or UINT32_MAX. */
static uint32_t callee_start(const char *text, uint32_t open, uint32_t *name_end)
{
    int64_t i = (int64_t)open - 1;
    while (i >= 0 && (text[i] == ' ' || text[i] == '\t'))
        i--;
    if (i >= 0 && text[i] == ']') {         /* new C[T, ...]( */
        int depth = 0;
        for (; i >= 0; i--) {
            if (text[i] == ']')
                depth++;
            else if (text[i] == '[' && --depth == 0)
                break;
        }
        i--;
    }
    *name_end = (uint32_t)(i + 1);
    while (i >= 0 && (isalnum((unsigned char)text[i]) || text[i] == '_'))
        i--;
    return (uint32_t)(i + 1) < *name_end ? (uint32_t)(i + 1) : UINT32_MAX;
}

static const FuncDecl *function_named(const Analysis *a, const char *name, size_t len)
{
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        if (d && d->kind == DECL_FUNC && d->u.func && strlen(d->u.func->name.text) == len &&
            strncmp(d->u.func->name.text, name, len) == 0)
            return d->u.func;
    }
    return NULL;
}

/* The call whose parentheses hold offset: its callee (a function, a
 * method, the init of `new C(`), or the signature in words of a built-in
 * (*label); *active the argument the offset is in.  False outside a call. */
static bool call_at(const Analysis *a, const Document *doc, uint32_t offset,
                    const FuncDecl **callee, const char **label, int *active)
{
    const char *text = doc->text;
    *callee = NULL;
    *label = NULL;
    if (offset > doc->len)
        return false;
    /* back to the unclosed `(`, at most this far: a call's arguments fit */
    enum { LOOK_BACK = 8192 };
    int depth = 0, commas = 0;
    int64_t open = -1;
    for (int64_t i = (int64_t)offset - 1; i >= 0 && (int64_t)offset - i < LOOK_BACK; i--) {
        char c = text[i];
        if (c == ')' || c == ']' || c == '}') {
            depth++;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth > 0) {
                depth--;
            } else if (c == '(') {
                open = i;
                break;
            } else {
                commas = 0;     /* those were an inner literal's */
            }
        } else if (c == ',' && depth == 0) {
            commas++;
        } else if (c == ';' || (c == '\n' && i > 0 && text[i - 1] == '}')) {
            break;              /* the statement before: no call around */
        }
    }
    if (open < 0)
        return false;
    uint32_t name_end;
    uint32_t start = callee_start(text, (uint32_t)open, &name_end);
    if (start == UINT32_MAX)
        return false;
    const TcRef *r = analysis_ref_at(a, start);
    if (r && (r->kind == TC_REF_FUNC || r->kind == TC_REF_METHOD))
        *callee = r->func;
    else if (r && r->kind == TC_REF_CLASS && r->cls)
        *callee = r->cls->init;
    else if (r && r->kind == TC_REF_BUILTIN)
        *label = tc_builtin_signature(r->builtin, r->receiver);
    else if (!r)
        *callee = function_named(a, text + start, name_end - start);
    *active = commas;
    return *callee || *label;
}

/* The function or method whose body holds offset. */
static const FuncDecl *function_at(const Analysis *a, uint32_t offset)
{
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        if (!d)
            continue;
        if (d->kind == DECL_FUNC && d->u.func && !tc_is_instance_func(d->u.func) &&
            d->u.func->loc.start <= offset && offset < d->u.func->loc.end)
            return d->u.func;
        if (d->kind == DECL_CLASS && d->u.cls && !tc_is_instance_class(d->u.cls))
            for (size_t j = 0; j < d->u.cls->methods.len; j++) {
                const FuncDecl *m = d->u.cls->methods.items[j];
                if (m && m->loc.start <= offset && offset < m->loc.end)
                    return m;
            }
    }
    return NULL;
}

const Type *lsp_expected_type(const Analysis *a, const Document *doc, uint32_t offset)
{
    /* `return |`: the function's result */
    uint32_t i = offset;
    while (i > 0 && (isalnum((unsigned char)doc->text[i - 1]) || doc->text[i - 1] == '_'))
        i--;
    uint32_t word = i;
    while (i > 0 && (doc->text[i - 1] == ' ' || doc->text[i - 1] == '\t'))
        i--;
    if (i >= 6 && memcmp(doc->text + i - 6, "return", 6) == 0 &&
        (i == 6 || !isalnum((unsigned char)doc->text[i - 7]))) {
        const FuncDecl *f = function_at(a, word);
        return f && f->result_type && f->result_type->kind != TY_UNIT ? f->result_type : NULL;
    }
    /* `x = |`: the binding's type */
    if (i >= 1 && doc->text[i - 1] == '=' && (i < 2 || !strchr("=!<>+-*/%", doc->text[i - 2]))) {
        uint32_t e = i - 1;
        while (e > 0 && (doc->text[e - 1] == ' ' || doc->text[e - 1] == '\t'))
            e--;
        uint32_t b = e;
        while (b > 0 && (isalnum((unsigned char)doc->text[b - 1]) || doc->text[b - 1] == '_'))
            b--;
        for (const TcScopeLink *l = analysis_scope_at(a, b); b < e && l; l = l->next)
            if (l->sym && strlen(l->name) == e - b && memcmp(l->name, doc->text + b, e - b) == 0)
                return l->sym->type;
        return NULL;
    }
    /* an argument: its parameter's type */
    const FuncDecl *f;
    const char *label;
    int active;
    if (call_at(a, doc, word, &f, &label, &active) && f && active < (int)f->params.len &&
        f->params.items[active] && f->params.items[active]->type)
        return f->params.items[active]->type->resolved;
    return NULL;
}

json_object *lsp_signature_help(Server *s, Document *doc, uint32_t offset)
{
    const Analysis *a = server_analysis(s, doc);
    const FuncDecl *f;
    const char *label;
    int commas;
    if (!call_at(a, doc, offset, &f, &label, &commas))
        return NULL;
    json_object *sig = json_object_new_object();
    json_object *params = json_object_new_array();
    if (f) {
        label = lsp_func_line(a, f);
        for (size_t i = 0; i < f->params.len; i++) {
            const Param *p = f->params.items[i];
            if (!p || !p->type)
                continue;
            json_object *pi = json_object_new_object();
            json_object_object_add(pi, "label", rpc_new_string(
                lsp_source(a, p->name.loc.start, p->type->loc.end)));
            json_object_array_add(params, pi);
        }
    }
    json_object_object_add(sig, "label", rpc_new_string(label));
    json_object_object_add(sig, "parameters", params);
    json_object *sigs = json_object_new_array();
    json_object_array_add(sigs, sig);
    json_object *out = json_object_new_object();
    json_object_object_add(out, "signatures", sigs);
    json_object_object_add(out, "activeSignature", json_object_new_int(0));
    json_object_object_add(out, "activeParameter", json_object_new_int(commas));
    return out;
}

/* ---- rename ---------------------------------------------------------------- */

/* textDocument/rename: every name that textDocument/references finds, the
 * declaration included, replaced by the new one — unless the new name is
 * not an identifier, is a keyword or a built-in type, or would clash:
 * another declaration of that name where the renamed one is declared or
 * used (a local in scope at a use, a member of the class, a top-level
 * declaration) would hide it or be hidden by it, and the program would
 * mean something else.  A refused rename is an error (RequestFailed)
 * that says why; nothing is edited. */

static bool valid_name(const char *n)
{
    if (!n || !(isalpha((unsigned char)n[0]) || n[0] == '_'))
        return false;
    for (const char *p = n; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return !lsp_reserved_word(n);
}

/* What else is called `name` at `offset`, in words, or NULL. */
static const char *clash_at(const Analysis *a, uint32_t offset, const char *name,
                            const TcRef *self)
{
    for (const TcScopeLink *l = analysis_scope_at(a, offset); l; l = l->next)
        if (strcmp(l->name, name) == 0 && !(self->kind == TC_REF_LOCAL && l->sym == self->sym))
            return arena_printf("a local '%s' is in scope there", name);
    const ClassDecl *k = analysis_class_at(a, offset);
    if (k) {
        for (size_t i = 0; i < k->fields.len; i++)
            if (k->fields.items[i] && strcmp(k->fields.items[i]->name.text, name) == 0)
                return arena_printf("class '%s' has a field '%s'", k->name.text, name);
        for (size_t i = 0; i < k->methods.len; i++)
            if (k->methods.items[i] && strcmp(k->methods.items[i]->name.text, name) == 0)
                return arena_printf("class '%s' has a method '%s'", k->name.text, name);
    }
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        const char *n = !d ? NULL : d->kind == DECL_FUNC ? d->u.func->name.text
                      : d->kind == DECL_CLASS ? d->u.cls->name.text
                      : d->kind == DECL_POOL ? d->u.pool->name.text
                      : d->u.layout->name.text;
        if (n && strcmp(n, name) == 0)
            return arena_printf("there is a top-level '%s'", name);
    }
    return NULL;
}

json_object *lsp_rename(Server *s, Document *doc, uint32_t offset, const char *name)
{
    const Analysis *a = server_analysis(s, doc);
    const TcRef *r = analysis_ref_at(a, offset);
    Loc decl = r ? lsp_declaration_of(r) : LOC_NONE;
    if (!decl.file || decl.file != a->file)
        return server_fail(s, RPC_REQUEST_FAILED, "there is nothing to rename here (only "
                           "the program's own declarations can be renamed)");
    if (!valid_name(name))
        return server_fail(s, RPC_REQUEST_FAILED,
                           arena_printf("'%s' is not a name a declaration can have", name ? name : ""));
    if (a->syntax_errors)
        return server_fail(s, RPC_REQUEST_FAILED, "the file has syntax errors: fix them "
                           "first, so that every use is known");
    json_object *edits = json_object_new_array();
    Loc last = LOC_NONE;
    for (size_t i = 0; i < a->nrefs; i++) {
        const TcRef *u = &a->refs[i];
        if (u->span.file != a->file || !same_loc(lsp_declaration_of(u), decl) ||
            same_loc(u->span, last))
            continue;
        last = u->span;
        const char *why = clash_at(a, u->span.start, name, r);
        if (why) {
            json_object_put(edits);
            return server_fail(s, RPC_REQUEST_FAILED,
                               arena_printf("cannot rename to '%s': %s (line %d)", name, why,
                                            (int)text_position(&doc->lines, u->span.start).line + 1));
        }
        json_object *e = json_object_new_object();
        json_object_object_add(e, "range", lsp_range(doc, u->span));
        json_object_object_add(e, "newText", rpc_new_string(name));
        json_object_array_add(edits, e);
    }
    json_object *changes = json_object_new_object();
    json_object_object_add(changes, doc->uri, edits);
    json_object *out = json_object_new_object();
    json_object_object_add(out, "changes", changes);
    return out;
}

/* ---- formatting ---------------------------------------------------------------- */

/* textDocument/formatting: mosaicc --format's layout (parser/format.c), as
 * one edit replacing the whole text, or none when it is already in it; a
 * file with syntax errors is not formatted (RequestFailed, saying so). */
json_object *lsp_formatting(Server *s, Document *doc)
{
    const Analysis *a = server_analysis(s, doc);
    if (a->syntax_errors)
        return server_fail(s, RPC_REQUEST_FAILED, "the file has syntax errors: it is "
                           "formatted once it parses");
    size_t n;
    char *text = fmt_source(doc->text, doc->len, &n);
    json_object *edits = json_object_new_array();
    if (n != doc->len || memcmp(text, doc->text, n) != 0) {
        json_object *e = json_object_new_object();
        json_object_object_add(e, "range", lsp_range(doc, (Loc){a->file, 0,
                                                               (uint32_t)doc->len}));
        json_object_object_add(e, "newText", json_object_new_string_len(text, (int)n));
        json_object_array_add(edits, e);
    }
    free(text);
    return edits;
}
