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
 */
#include <string.h>

#include "lsp.h"
#include "rpc.h"
#include "support/arena.h"
#include "typecheck/generics.h"

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
