/* scope.c — names: the top-level table, local scopes, symbols, members.
 *
 * Top-level functions, classes and pools live in one hash map keyed by
 * the interned name pointer (names are interned by the parser, so pointer
 * equality is string equality and hashing the pointer is enough).
 *
 * Local scopes are one stack of bindings plus a stack of marks: opening a
 * scope records the stack height, closing it drops everything above.  A
 * map from each name to its innermost binding makes lookup and the
 * redeclaration check one probe each (a function with 100,000 locals is
 * checked in linear time); closing a scope makes the shadowed bindings
 * visible again.
 *
 * Class members (fields, methods) are found through a map per class, made
 * from the ClassDecl's own vectors on first use (the AST stays the single
 * source of truth).  This module also builds the candidate lists for "did you mean"
 * notes.
 */
#include <stdint.h>
#include "check.h"
#include "../support/diag.h"

/* ---- the pointer-keyed map --------------------------------------------- */

static size_t hash_ptr(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= (uintptr_t)0x9E3779B97F4A7C15ull;  /* Fibonacci hashing */
    x ^= x >> 29;
    return (size_t)x & (cap - 1);           /* cap is a power of two */
}

static void map_grow(NameMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    const char **keys = arena_alloc(cap * sizeof *keys);
    void **values = arena_alloc(cap * sizeof *values);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = hash_ptr(m->keys[i], cap);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    m->keys = keys;
    m->values = values;
    m->cap = cap;
}

void tc_map_put(NameMap *m, const char *key, void *value)
{
    if (!key)
        return;
    if ((m->len + 1) * 2 > m->cap)  /* keep the load at most 1/2 */
        map_grow(m);
    size_t j = hash_ptr(key, m->cap);
    while (m->keys[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->keys[j])
        m->len++;
    m->keys[j] = key;
    m->values[j] = value;
}

void *tc_map_get(const NameMap *m, const char *key)
{
    if (!m->cap || !key)
        return NULL;
    size_t j = hash_ptr(key, m->cap);
    while (m->keys[j]) {
        if (m->keys[j] == key)
            return m->values[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

TopEntry *tc_top(Checker *c, const char *name)
{
    return tc_map_get(&c->top, name);
}

/* ---- local scopes ------------------------------------------------------ */

/* Bindings are found through `visible` (name -> 1 + the index of its
 * innermost binding); each binding remembers the one it shadows, which a
 * closing scope makes visible again.  So declaring and looking up cost a
 * hash probe, however many locals a scope has. */
static size_t visible_index(const Checker *c, const char *name)
{
    return (size_t)(uintptr_t)tc_map_get(&c->visible, name);
}

void tc_scope_push(Checker *c)
{
    VEC_PUSH(c->marks, c->bindings.len);
}

static void pop_to(Checker *c, size_t len)
{
    while (c->bindings.len > len) {
        Binding *b = &c->bindings.items[--c->bindings.len];
        tc_map_put(&c->visible, b->name, (void *)(uintptr_t)b->shadowed);
    }
}

void tc_scope_pop(Checker *c)
{
    if (c->marks.len == 0)
        return;
    pop_to(c, c->marks.items[--c->marks.len]);
}

void tc_scopes_clear(Checker *c)
{
    pop_to(c, 0);
    c->marks.len = 0;
}

Binding *tc_lookup_local(Checker *c, const char *name)
{
    size_t i = visible_index(c, name);
    return i ? &c->bindings.items[i - 1] : NULL;
}

void tc_declare(Checker *c, Binding b, const char *what)
{
    if (!b.name)
        return;
    size_t floor = c->marks.len ? c->marks.items[c->marks.len - 1] : 0;
    size_t prev = visible_index(c, b.name);
    if (prev && prev - 1 >= floor) {
        Binding *old = &c->bindings.items[prev - 1];
        if (old->sym && old->sym->kind == SYM_PARAM && b.sym && b.sym->kind == SYM_PARAM)
            diag_error(b.loc, DIAG_E0102, "duplicate parameter '%s'", b.name);
        else
            diag_error(b.loc, DIAG_E0102, "%s '%s' is already declared in this scope",
                       what, b.name);
        diag_note(old->loc, "previous declaration of '%s' here", b.name);
    }
    b.shadowed = prev;
    VEC_PUSH(c->bindings, b);
    tc_map_put(&c->visible, b.name, (void *)(uintptr_t)c->bindings.len);
    tc_record_binding(c);
}

Sym *tc_new_sym(Checker *c, SymKind kind, const char *name, Loc loc, Type *type)
{
    Sym *s = ARENA_NEW(Sym);
    s->kind = kind;
    s->name = name;
    s->loc = loc;
    s->type = type ? type : ty_error;
    s->slot = c->nlocals++;
    return s;
}

/* ---- class members and built-ins --------------------------------------- */

/* Each class's members by name, made on first use (the first of a name
 * wins, as the duplicate check in check_decl.c reports the others). */
typedef struct Members {
    NameMap fields, methods;
} Members;
static NameMap class_members;   /* ClassDecl * -> Members * */

void tc_scope_reset(void)
{
    class_members = (NameMap){0};
}

static Members *members(const ClassDecl *cls)
{
    Members *m = tc_map_get(&class_members, (const char *)cls);
    if (m)
        return m;
    m = ARENA_NEW(Members);
    for (size_t i = 0; i < cls->fields.len; i++) {
        FieldDecl *f = cls->fields.items[i];
        if (f && f->name.text && !tc_map_get(&m->fields, f->name.text))
            tc_map_put(&m->fields, f->name.text, f);
    }
    for (size_t i = 0; i < cls->methods.len; i++) {
        FuncDecl *f = cls->methods.items[i];
        if (f && f->name.text && !tc_map_get(&m->methods, f->name.text))
            tc_map_put(&m->methods, f->name.text, f);
    }
    tc_map_put(&class_members, (const char *)cls, m);
    return m;
}

FieldDecl *tc_find_field(const ClassDecl *cls, const char *name)
{
    return cls ? tc_map_get(&members(cls)->fields, name) : NULL;
}

FuncDecl *tc_find_method(const ClassDecl *cls, const char *name)
{
    return cls ? tc_map_get(&members(cls)->methods, name) : NULL;
}

int tc_find_builtin(const Checker *c, const char *name, BuiltinKind kind)
{
    for (int i = 0; i < BI_COUNT; i++)
        if (c->builtin_names[i] == name && tc_builtins[i].kind == kind)
            return i;
    return -1;
}

/* ---- did you mean ------------------------------------------------------ */

void tc_suggest(const char *name, Loc where, const NameList *candidates)
{
    if (!name || candidates->len == 0)
        return;
    const char *best = diag_closest(name, candidates->items, candidates->len);
    if (best && best != name)
        diag_suggest(LOC_NONE, where, best, "did you mean '%s'?", best);
}

/* Where a suggested name is declared: a local, a field or method of cls,
 * a top-level function or class; LOC_NONE for a built-in. */
static Loc declared_at(Checker *c, const ClassDecl *cls, const char *name)
{
    Binding *b = tc_lookup_local(c, name);
    if (b && b->sym)
        return b->loc;
    FieldDecl *fd = cls ? tc_find_field(cls, name) : NULL;
    if (fd)
        return fd->name.loc;
    FuncDecl *m = cls ? tc_find_method(cls, name) : NULL;
    if (m)
        return m->name.loc;
    TopEntry *e = tc_top(c, name);
    if (e && e->func)
        return e->func->name.loc;
    if (e && e->cls)
        return e->cls->name.loc;
    return LOC_NONE;
}

void tc_suggest_in(Checker *c, const ClassDecl *cls, const char *name, Loc where,
                   const NameList *candidates)
{
    if (!name || candidates->len == 0)
        return;
    const char *best = diag_closest(name, candidates->items, candidates->len);
    if (best && best != name)
        diag_suggest(declared_at(c, cls, best), where, best, "did you mean '%s'?", best);
}

void tc_add_local_names(Checker *c, NameList *out)
{
    for (size_t i = 0; i < c->bindings.len; i++)
        if (c->bindings.items[i].sym)   /* pools are not values */
            VEC_PUSH(*out, c->bindings.items[i].name);
}

void tc_add_field_names(const ClassDecl *cls, NameList *out)
{
    if (!cls)
        return;
    for (size_t i = 0; i < cls->fields.len; i++)
        if (cls->fields.items[i])
            VEC_PUSH(*out, cls->fields.items[i]->name.text);
}

void tc_add_method_names(const ClassDecl *cls, NameList *out)
{
    if (!cls)
        return;
    for (size_t i = 0; i < cls->methods.len; i++)
        if (cls->methods.items[i])
            VEC_PUSH(*out, cls->methods.items[i]->name.text);
}

static bool top_is(const TopEntry *e, TopKind kind)
{
    switch (kind) {
    case TOP_ANY: return true;
    case TOP_CLASSES: return e->cls;
    case TOP_FUNCTIONS: return e->func;
    case TOP_LAYOUTS: return e->layout;
    }
    return false;
}

void tc_add_top_names(Checker *c, TopKind kind, NameList *out)
{
    for (size_t i = 0; i < c->top_names.len; i++) {
        TopEntry *e = tc_top(c, c->top_names.items[i]);
        if (e && top_is(e, kind))
            VEC_PUSH(*out, c->top_names.items[i]);
    }
}
