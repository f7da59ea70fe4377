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
 * of the enclosing class, the type parameters of the enclosing
 * declarations, the top-level functions, classes, pools and
 * layouts, the built-in functions, the built-in types and the keywords —
 * the lexer's own list (lsp/keywords.h is made from lexer/scan.l).  A
 * name hides the same name further out, as in the language.
 *
 * Ranking (rank_and_emit), the order sortText keeps in the editor's list:
 * the names that begin with what is typed first; then those whose type is
 * the one the context expects (an argument's parameter, an assignment's
 * target, a `return`'s result: lsp_expected_type); then the names the file
 * itself writes most (a member by its uses after `.` and `!`), since what
 * a program has written it writes again; then by kind (locals, members,
 * top-level declarations, built-ins, keywords), the most recently used,
 * and the order found (innermost scope first, declaration order).
 * bench/run-completion.sh measures how often the name actually written is
 * first and among the first five.
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
    KIND_PROPERTY = 10, KIND_KEYWORD = 14, KIND_STRUCT = 22, KIND_TYPE_PARAM = 25,
};

/* A candidate, ranked once all are known (rank_and_emit). */
typedef struct Candidate {
    const char *label;
    int kind;
    const char *detail;
    char group;         /* '1' locals or members, '2' ..., '5' keywords */
    int order;          /* the order it was found in (scope order, declaration order) */
    int uses;           /* how often the file writes it (after `.`/`!` for a member) */
    uint32_t last_use;  /* the offset of its last use before the cursor, or 0 */
    bool prefix;        /* it begins with what is typed */
    const Type *type;   /* a local's, a field's, a function's result; or NULL */
    bool fits;          /* its type is the one the context expects */
} Candidate;

typedef struct Items {
    struct lh_table *seen;      /* labels already offered */
    VEC(Candidate) cands;
    bool member;                /* after `.` or `!`: count member uses */
} Items;

static void add_typed(Items *it, const char *label, int kind, const char *detail, char group,
                      const Type *type)
{
    if (!label || !*label || lh_table_lookup_entry(it->seen, label))
        return;
    lh_table_insert(it->seen, label, NULL);
    Candidate c = {label, kind, detail, group, (int)it->cands.len, 0, 0, false, type, false};
    VEC_PUSH(it->cands, c);
}

static void add(Items *it, const char *label, int kind, const char *detail, char group)
{
    add_typed(it, label, kind, detail, group, NULL);
}

/* ---- members ---------------------------------------------------------------- */

static void add_class_members(Items *it, const Analysis *a, const ClassDecl *k, bool fields,
                              char group)
{
    for (size_t i = 0; fields && i < k->fields.len; i++) {
        const FieldDecl *f = k->fields.items[i];
        if (f)
            add_typed(it, f->name.text, KIND_FIELD, lsp_field_line(f, f->field_type), group,
                      f->field_type);
    }
    for (size_t i = 0; i < k->methods.len; i++) {
        const FuncDecl *m = k->methods.items[i];
        /* init runs through `new` only */
        if (m && m->name.text && strcmp(m->name.text, "init") != 0)
            add_typed(it, m->name.text, KIND_METHOD, lsp_func_line(a, m), group,
                      m->result_type);
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
        add_typed(it, l->name, KIND_VARIABLE,
                  l->sym ? lsp_local_line(l->sym, l->sym->type)
                         : l->pool ? lsp_pool_line(a, l->pool) : NULL,
                  '1', l->sym ? l->sym->type : NULL);
    const ClassDecl *k = analysis_class_at(a, offset);
    if (k)
        add_class_members(it, a, k, true, '2');
    /* the type parameters of the enclosing method or function and class */
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        const FuncDecl *f = d && d->kind == DECL_FUNC ? d->u.func : NULL;
        if (f && f->loc.start <= offset && offset <= f->loc.end)
            for (size_t j = 0; j < f->type_params.len; j++)
                add(it, f->type_params.items[j].text, KIND_TYPE_PARAM, "type parameter", '2');
    }
    for (size_t j = 0; k && j < k->methods.len; j++) {
        const FuncDecl *m = k->methods.items[j];
        if (m && m->loc.start <= offset && offset <= m->loc.end)
            for (size_t t = 0; t < m->type_params.len; t++)
                add(it, m->type_params.items[t].text, KIND_TYPE_PARAM, "type parameter", '2');
    }
    for (size_t j = 0; k && j < k->type_params.len; j++)
        add(it, k->type_params.items[j].text, KIND_TYPE_PARAM, "type parameter", '2');
    for (size_t i = 0; a->program && i < a->program->decls.len; i++) {
        const Decl *d = a->program->decls.items[i];
        if (!d)
            continue;
        switch (d->kind) {
        case DECL_FUNC:
            if (d->u.func && !tc_is_instance_func(d->u.func))
                add_typed(it, d->u.func->name.text, KIND_FUNCTION, lsp_func_line(a, d->u.func),
                          '3', d->u.func->result_type);
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

/* ---- ranking ------------------------------------------------------------------- */

/* How often the file writes each candidate, and where it last did before
 * the cursor: one pass over the text's words (comments and strings count
 * too: they are rare, and skipping them is not worth a lexer here).  A
 * member's uses are the words written right after `.` or `!`. */
static void count_uses(Items *it, const Document *d, uint32_t word_start, uint32_t cursor)
{
    struct lh_table *index = lh_kchar_table_new(it->cands.len * 2 + 16, NULL);
    for (size_t i = 0; i < it->cands.len; i++)
        lh_table_insert(index, it->cands.items[i].label, &it->cands.items[i]);
    char name[128];
    for (size_t i = 0; i < d->len;) {
        if (!is_ident_char(d->text[i]) || (d->text[i] >= '0' && d->text[i] <= '9')) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < d->len && is_ident_char(d->text[j]))
            j++;
        bool after_member = i > 0 && (d->text[i - 1] == '.' || d->text[i - 1] == '!');
        /* the word being typed is not a use of anything */
        if (i != word_start && j - i < sizeof name && after_member == it->member) {
            memcpy(name, d->text + i, j - i);
            name[j - i] = '\0';
            struct lh_entry *e = lh_table_lookup_entry(index, name);
            if (e) {
                Candidate *c = (Candidate *)lh_entry_v(e);
                c->uses++;
                if (j <= cursor)
                    c->last_use = (uint32_t)i;
            }
        }
        i = j;
    }
    lh_table_free(index);
}

/* The order the list shows: the names this file writes most first (what a
 * program has written, it writes again), those of the same count by
 * kind — locals and members, then the class's members, top-level
 * declarations, built-in functions, types and keywords — then the most
 * recently used, then as found (innermost scope first, declaration
 * order).  Measured by bench/run-completion.sh. */
static int by_rank(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    if (a->prefix != b->prefix)
        return a->prefix ? -1 : 1;
    if (a->fits != b->fits)
        return a->fits ? -1 : 1;
    if (a->uses != b->uses)
        return a->uses > b->uses ? -1 : 1;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->last_use != b->last_use)
        return a->last_use > b->last_use ? -1 : 1;
    return a->order - b->order;
}

/* The candidates ranked, those that begin with what is typed first (all
 * are sent: an editor filters as the user types, and shows the others
 * again after a backspace without asking), as items whose sortText keeps
 * that rank in the editor's list. */
static json_object *rank_and_emit(Items *it, const Document *d, uint32_t start, uint32_t offset,
                                  const Type *expected)
{
    size_t n = it->cands.len;
    size_t typed = offset - start;
    count_uses(it, d, start, offset);
    for (size_t i = 0; i < n; i++) {
        Candidate *c = &it->cands.items[i];
        c->prefix = strncmp(c->label, d->text + start, typed) == 0;
        /* places aside: a `C<p>` parameter takes the caller's C<here> */
        c->fits = expected && c->type && expected->kind != TY_ERROR &&
                  ty_same_shape(c->type, expected);
    }
    qsort(it->cands.items, n, sizeof *it->cands.items, by_rank);
    json_object *list = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        const Candidate *c = &it->cands.items[i];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "label", json_object_new_string(c->label));
        json_object_object_add(o, "kind", json_object_new_int(c->kind));
        if (c->detail)
            json_object_object_add(o, "detail", rpc_new_string(c->detail));
        json_object_object_add(o, "sortText", json_object_new_string(arena_printf("%05zu", i)));
        json_object_array_add(list, o);
    }
    return list;
}

json_object *lsp_completion(Server *s, Document *doc, uint32_t offset)
{
    Items it = {lh_kchar_table_new(64, NULL), {0}, false};
    const Type *expected = NULL;
    if (offset > doc->len)
        offset = (uint32_t)doc->len;
    uint32_t start = offset;        /* of the word being typed */
    while (start > 0 && is_ident_char(doc->text[start - 1]))
        start--;
    char before = start > 0 ? doc->text[start - 1] : 0;
    if (before == '.' && start > 1 && doc->text[start - 2] == '.')
        before = 0;         /* `0..n`: a range's bound, not a member */
    if (!in_literal_or_comment(doc, offset)) {
        if (before == '.' || before == '!') {
            it.member = true;
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
                /* the candidates' types are this analysis's: so must it be */
                expected = lsp_expected_type(a, doc, start);
            }
        } else {
            const Analysis *a = server_analysis(s, doc);
            add_scope(&it, a, offset);
            expected = lsp_expected_type(a, doc, start);
        }
    }
    lh_table_free(it.seen);
    json_object *result = json_object_new_object();
    json_object_object_add(result, "isIncomplete", json_object_new_boolean(0));
    json_object_object_add(result, "items", rank_and_emit(&it, doc, start, offset, expected));
    return result;
}
