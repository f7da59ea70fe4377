/* complete.c — textDocument/completion.
 *
 * After `expr.` (or `expr!`), the members of expr's type: the fields and
 * methods of its class (only its methods after `!`, and only for an
 * actor; `.` on an actor from outside it offers nothing, since only the
 * actor's own code may use it that way), or the built-in methods and the
 * `length` or `size` of a string, an array, a map or a pool.  The type of
 * expr is the checker's: the text is analysed again with a placeholder
 * name typed at the cursor (`expr.` alone does not parse; after `!` with
 * `()` too, since a send without arguments does not either), and the
 * checker records the receiver of that member access even though the
 * member is unknown (typecheck/record.h).  The placeholder changes
 * nothing before the cursor, so the receiver is typed as the user's code
 * types it.
 *
 * Elsewhere, the names that can be written there: the locals in scope
 * (the checker's scope points, innermost first), the fields and methods
 * of the enclosing class, the top-level functions, classes, pools and
 * layouts, the built-in functions, the built-in types and the keywords —
 * the lexer's own list (lsp/keywords.h is made from lexer/scan.l).  A
 * name hides the same name further out, as in the language; sortText
 * keeps that order in the editor's list.
 *
 * In a string or after `//` on the cursor's line nothing is offered.
 */
#include "lsp.h"

#include <stdlib.h>
#include <string.h>
#include <linkhash.h>

#include "rpc.h"
#include "support/arena.h"
#include "typecheck/types.h"
#include "typecheck/generics.h"

static const char *const keywords[] = {
#define LSP_KEYWORD(k) k,
#include "lsp/keywords.h"
#undef LSP_KEYWORD
};

/* Written as names but reserved (LANGUAGE.md §2, §9). */
static const char *const builtin_types[] = {"int", "float", "bool", "string", "Fut", "Map"};

bool lsp_reserved_word(const char *name)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (strcmp(keywords[i], name) == 0)
            return true;
    for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++)
        if (strcmp(builtin_types[i], name) == 0)
            return true;
    return false;
}

/* The name typed at the cursor for the probe: an identifier no program
 * has a reason to use. */
static const char PLACEHOLDER[] = "__mosaic_completion__";

/* CompletionItemKind */
enum {
    KIND_METHOD = 2, KIND_FUNCTION = 3, KIND_FIELD = 5, KIND_VARIABLE = 6, KIND_CLASS = 7,
    KIND_PROPERTY = 10, KIND_KEYWORD = 14, KIND_STRUCT = 22,
};

typedef struct Items {
    json_object *list;
    struct lh_table *seen;      /* labels already offered */
} Items;

static void add(Items *it, const char *label, int kind, const char *detail, char group)
{
    if (!label || !*label || lh_table_lookup_entry(it->seen, label))
        return;
    lh_table_insert(it->seen, label, NULL);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "label", json_object_new_string(label));
    json_object_object_add(o, "kind", json_object_new_int(kind));
    if (detail)
        json_object_object_add(o, "detail", rpc_new_string(detail));
    char sort[2] = {group, 0};
    json_object_object_add(o, "sortText",
                           json_object_new_string(arena_printf("%s%s", sort, label)));
    json_object_array_add(it->list, o);
}

/* ---- members ---------------------------------------------------------------- */

static void add_class_members(Items *it, const Analysis *a, const ClassDecl *k, bool fields,
                              char group)
{
    for (size_t i = 0; fields && i < k->fields.len; i++) {
        const FieldDecl *f = k->fields.items[i];
        if (f)
            add(it, f->name.text, KIND_FIELD, lsp_field_line(f, f->field_type), group);
    }
    for (size_t i = 0; i < k->methods.len; i++) {
        const FuncDecl *m = k->methods.items[i];
        /* init runs through `new` only */
        if (m && m->name.text && strcmp(m->name.text, "init") != 0)
            add(it, m->name.text, KIND_METHOD, lsp_func_line(a, m), group);
    }
}

static void add_builtins(Items *it, BuiltinKind kind, const Type *receiver, char group)
{
    for (int i = 0; i < BI_COUNT; i++)
        if (tc_builtins[i].kind == kind)
            add(it, tc_builtins[i].name, kind == BK_FUNCTION ? KIND_FUNCTION : KIND_METHOD,
                tc_builtin_signature(i, receiver), group);
}

/* The members of a value of type t after `.` (send: after `!`);
 * via_this: the receiver is written `this`. */
static void add_members(Items *it, const Analysis *a, const Type *t, bool send, bool via_this)
{
    switch (t->kind) {
    case TY_CLASS:
        if (!t->cls || (send ? !t->cls->is_active : t->cls->is_active && !via_this))
            return;
        add_class_members(it, a, t->cls, !send, '1');
        return;
    case TY_STRING:
    case TY_ARRAY:
    case TY_MAP:
        if (send)
            return;
        add(it, t->kind == TY_MAP ? "size" : "length", KIND_PROPERTY, "int", '1');
        add_builtins(it, t->kind == TY_STRING ? BK_STRING_METHOD
                         : t->kind == TY_ARRAY ? BK_ARRAY_METHOD : BK_MAP_METHOD, t, '2');
        return;
    case TY_POOL:
        if (!send)
            add(it, "size", KIND_PROPERTY, "int", '1');
        return;
    default:
        return;
    }
}

/* ---- names in scope --------------------------------------------------------- */

static void add_scope(Items *it, const Analysis *a, uint32_t offset)
{
    for (const TcScopeLink *l = analysis_scope_at(a, offset); l; l = l->next)
        add(it, l->name, KIND_VARIABLE,
            l->sym ? lsp_local_line(l->sym, l->sym->type) : l->pool ? lsp_pool_line(a, l->pool)
                                                                    : NULL,
            '1');
    const ClassDecl *k = analysis_class_at(a, offset);
    if (k)
        add_class_members(it, a, k, true, '2');
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        if (!d)
            continue;
        switch (d->kind) {
        case DECL_FUNC:
            if (d->u.func && !tc_is_instance_func(d->u.func))
                add(it, d->u.func->name.text, KIND_FUNCTION, lsp_func_line(a, d->u.func), '3');
            break;
        case DECL_CLASS:
            if (d->u.cls && !tc_is_instance_class(d->u.cls))
                add(it, d->u.cls->name.text, KIND_CLASS, lsp_class_line(a, d->u.cls), '3');
            break;
        case DECL_POOL:
            if (d->u.pool)
                add(it, d->u.pool->name.text, KIND_VARIABLE, lsp_pool_line(a, d->u.pool), '3');
            break;
        case DECL_LAYOUT:
            if (d->u.layout)
                add(it, d->u.layout->name.text, KIND_STRUCT, "layout", '3');
            break;
        }
    }
    add_builtins(it, BK_FUNCTION, NULL, '4');
    for (size_t i = 0; i < sizeof builtin_types / sizeof builtin_types[0]; i++)
        add(it, builtin_types[i], KIND_CLASS, "built-in type", '5');
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        add(it, keywords[i], KIND_KEYWORD, NULL, '5');
}

/* ---- the request ------------------------------------------------------------ */

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Is the cursor in a string or a line comment of its line? */
static bool in_literal_or_comment(const Document *d, uint32_t offset)
{
    LspPos p = text_position(&d->lines, offset);
    bool in_string = false;
    for (size_t i = d->lines.lines[p.line]; i < offset; i++) {
        char c = d->text[i];
        if (in_string && c == '\\')
            i++;
        else if (c == '"')
            in_string = !in_string;
        else if (!in_string && c == '/' && i + 1 < offset && d->text[i + 1] == '/')
            return true;
    }
    return in_string;
}

/* Is the word ending at `end` exactly `this`? */
static bool is_this(const Document *d, uint32_t end)
{
    return end >= 4 && memcmp(d->text + end - 4, "this", 4) == 0 &&
           (end == 4 || !is_ident_char(d->text[end - 5]));
}

json_object *lsp_completion(Server *s, Document *doc, uint32_t offset)
{
    Items it = {json_object_new_array(), lh_kchar_table_new(64, NULL)};
    if (offset > doc->len)
        offset = (uint32_t)doc->len;
    uint32_t start = offset;        /* of the word being typed */
    while (start > 0 && is_ident_char(doc->text[start - 1]))
        start--;
    char before = start > 0 ? doc->text[start - 1] : 0;
    if (!in_literal_or_comment(doc, offset)) {
        if (before == '.' || before == '!') {
            /* a send needs its parentheses to parse */
            size_t after = offset;
            while (after < doc->len && (doc->text[after] == ' ' || doc->text[after] == '\t'))
                after++;
            bool parens = before == '!' && (after == doc->len || doc->text[after] != '(');
            size_t n = sizeof PLACEHOLDER - 1 + (parens ? 2 : 0);
            char *probe = malloc(doc->len + n + 1);
            if (probe) {
                memcpy(probe, doc->text, offset);
                memcpy(probe + offset, PLACEHOLDER, sizeof PLACEHOLDER - 1);
                if (parens)
                    memcpy(probe + offset + n - 2, "()", 2);
                memcpy(probe + offset + n, doc->text + offset, doc->len - offset + 1);
                const Analysis *a = server_probe(s, doc, probe, doc->len + n);
                free(probe);
                const TcRef *r = analysis_member_at(a, start);
                if (r && r->receiver)
                    add_members(&it, a, r->receiver, before == '!', is_this(doc, start - 1));
            }
        } else {
            add_scope(&it, server_analysis(s, doc), offset);
        }
    }
    lh_table_free(it.seen);
    json_object *result = json_object_new_object();
    json_object_object_add(result, "isIncomplete", json_object_new_boolean(0));
    json_object_object_add(result, "items", it.list);
    return result;
}
