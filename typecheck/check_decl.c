/* check_decl.c — the program: top-level names, classes, functions, main.
 *
 * Declarations are order-independent (LANGUAGE.md §3), so the checker
 * makes three passes over the top level:
 *
 *   1. collect: every function, class and pool name into the top-level
 *      table (the first of duplicates wins), silently;
 *   2. signatures: field types, parameter and result types, each class's
 *      `init`, silently — after this pass any body may use any declaration;
 *   3. check, in source order and with reports: duplicates, refused
 *      features, the signatures again (now reporting), field initialisers
 *      and bodies.
 *
 * Doing the reporting in one source-ordered pass keeps the diagnostics in
 * the order of the file, which is what a reader expects.  Finally `main`
 * is looked for (E0207).
 *
 * An `active class` (an actor class, LANGUAGE.md §4) is declared and
 * checked exactly like a passive one: its fields, methods and `init` obey
 * the same rules, and inside it `this`, bare field names and bare calls
 * are the actor's own, synchronous code.  What differs is how other code
 * may use an actor (only by sending it messages): that is checked at the
 * uses, in check_expr.c and check_call.c.
 *
 * Layout declarations and pools are checked by layouts.c, called from
 * the passes here (pools resolved silently in pass 2, once every class's
 * fields are known; reported in pass 3, in source order).
 */
#include <string.h>
#include "check.h"
#include "../support/diag.h"

Type *tc_param_type(const Param *p)
{
    Type *t = p && p->type && p->type->resolved ? p->type->resolved : ty_error;
    return t->kind == TY_UNIT ? ty_error : t;   /* reported at the parameter */
}

static bool is_builtin_type_name(Checker *c, const char *name)
{
    return name == c->s_int || name == c->s_float || name == c->s_bool ||
           name == c->s_string || name == c->s_fut || name == c->s_map;
}

/* ---- pass 1: collect top-level names ------------------------------------ */

static TopEntry *top_entry(Checker *c, const char *name)
{
    TopEntry *e = tc_top(c, name);
    if (!e) {
        e = ARENA_NEW(TopEntry);
        tc_map_put(&c->top, name, e);
        VEC_PUSH(c->top_names, name);
    }
    return e;
}

/* Enters each top-level declaration under its name; the first of a name
 * wins, the others are reported in pass 3. */
static void collect(Checker *c)
{
    for (size_t i = 0; i < c->program->decls.len; i++) {
        Decl *d = c->program->decls.items[i];
        if (!d)
            continue;
        const char *name = NULL;
        switch (d->kind) {
        case DECL_FUNC:
            tc_generic_declare_func(d->u.func);
            name = d->u.func ? d->u.func->name.text : NULL;
            break;
        case DECL_CLASS:
            tc_generic_declare_class(d->u.cls);
            name = d->u.cls && !is_builtin_type_name(c, d->u.cls->name.text)
                       ? d->u.cls->name.text : NULL;
            if (d->u.cls && (d->u.cls->name.text == c->s_fut ||
                             d->u.cls->name.text == c->s_map))
                c->refused_fut_class = true;
            break;
        case DECL_POOL:
            if (d->u.pool)
                tc_declare_pool(c, d->u.pool);
            name = d->u.pool ? d->u.pool->name.text : NULL;
            break;
        case DECL_LAYOUT:
            name = d->u.layout ? d->u.layout->name.text : NULL;
            break;
        }
        if (!name)
            continue;
        TopEntry *e = top_entry(c, name);
        if (e->func || e->cls || e->pool || e->layout)
            continue;
        switch (d->kind) {
        case DECL_FUNC: e->func = d->u.func; break;
        case DECL_CLASS: e->cls = d->u.cls; break;
        case DECL_POOL: e->pool = d->u.pool; break;
        case DECL_LAYOUT: e->layout = d->u.layout; break;
        }
    }
}

/* ---- pass 2 (silent) and 3 (reporting): signatures ---------------------- */

/* Place parameter lists: no name twice, and a method's own may not hide
 * its class's (E0102). */
static void check_place_params(const NameVec *names, const ClassDecl *outer,
                               const char *what)
{
    for (size_t i = 0; i < names->len; i++) {
        Name n = names->items[i];
        for (size_t j = 0; j < i; j++)
            if (names->items[j].text == n.text) {
                diag_error(n.loc, DIAG_E0102, "duplicate %s '%s'", what, n.text);
                diag_note(names->items[j].loc, "previous definition here");
                break;
            }
        if (!outer)
            continue;
        if (!outer->has_place_params && strcmp(n.text, "home") == 0) {
            diag_error(n.loc, DIAG_E0102, "place parameter 'home' hides the home of class "
                       "'%s'", outer->name.text);
            continue;
        }
        for (size_t j = 0; j < outer->place_params.len; j++)
            if (outer->place_params.items[j].text == n.text) {
                diag_error(n.loc, DIAG_E0102, "place parameter '%s' hides a place "
                           "parameter of class '%s'", n.text, outer->name.text);
                diag_note(outer->place_params.items[j].loc, "declared here");
                break;
            }
    }
}

/* Type parameter lists (LANGUAGE.md §11): no name twice, none the name of
 * a class, a built-in type or a place parameter of the same declaration,
 * and a method's own may not hide its class's (E0102). */
static void check_type_params(Checker *c, const NameVec *names, const NameVec *places,
                              const ClassDecl *outer)
{
    for (size_t i = 0; i < names->len; i++) {
        Name n = names->items[i];
        bool bad = false;
        for (size_t j = 0; j < i && !bad; j++)
            if (names->items[j].text == n.text) {
                diag_error(n.loc, DIAG_E0102, "duplicate type parameter '%s'", n.text);
                diag_note(names->items[j].loc, "previous definition here");
                bad = true;
            }
        TopEntry *top = bad ? NULL : tc_top(c, n.text);
        if (bad) {
        } else if (is_builtin_type_name(c, n.text)) {
            diag_error(n.loc, DIAG_E0102, "type parameter '%s' has the name of a built-in "
                       "type", n.text);
        } else if (top && top->cls) {
            diag_error(n.loc, DIAG_E0102, "type parameter '%s' has the name of class '%s'",
                       n.text, n.text);
            diag_note(top->cls->name.loc, "class '%s' declared here", n.text);
        } else {
            for (size_t j = 0; j < places->len; j++)
                if (places->items[j].text == n.text) {
                    diag_error(n.loc, DIAG_E0102, "'%s' is both a type parameter and a "
                               "place parameter", n.text);
                    diag_note(places->items[j].loc, "place parameter '%s' declared here",
                              n.text);
                    break;
                }
            for (size_t j = 0; outer && j < outer->type_params.len; j++)
                if (outer->type_params.items[j].text == n.text) {
                    diag_error(n.loc, DIAG_E0102, "type parameter '%s' hides a type "
                               "parameter of class '%s'", n.text, outer->name.text);
                    diag_note(outer->type_params.items[j].loc, "declared here");
                    break;
                }
        }
    }
}

/* Starts a walk of a function, a method or a class member: the context
 * that names, places and `here` are resolved in. */
static void reset_walk(Checker *c, ClassDecl *cls, FuncDecl *f)
{
    c->cls = cls;
    c->func = f;
    c->result = f ? f->result_type : ty_error;
    c->nlocals = 0;
    c->loop_depth = 0;
    tc_scopes_clear(c);
}


// signature = "def" name [ "<" places ">" ] "(" params ")" [ ":" type ] [ effects ]
static void resolve_signature(Checker *c, FuncDecl *f, bool report)
{
    /* the classes of its `pool C` parameters first: they decide how many
     * places the function has (places.c) */
    for (size_t i = 0; i < f->params.len; i++) {
        Param *p = f->params.items[i];
        if (p && p->type && p->type->kind == TE_POOL) {
            ClassDecl *k = tc_pool_param_class(c, p->type, false);
            if (k)
                tc_note_pool_param(p, k);
        }
    }
    if (report) {
        check_place_params(&f->place_params, f->owner, "place parameter");
        check_type_params(c, &f->type_params, &f->place_params, f->owner);
    }
    if (report && f->owner && f->name.text == c->s_init && f->type_params.len)
        diag_error(f->type_params.items[0].loc, DIAG_E0104,
                   "'init' cannot declare type parameters; declare them on class '%s'",
                   f->owner->name.text);
    if (report && f->owner && f->name.text == c->s_init && f->place_params.len)
        diag_error(f->place_params.items[0].loc, DIAG_E0301,
                   "'init' cannot declare place parameters; declare them on class '%s'",
                   f->owner->name.text);
    for (size_t i = 0; i < f->params.len; i++) {
        Param *p = f->params.items[i];
        if (!p)
            continue;
        c->in_param_type = true;
        Type *t = tc_resolve_type(c, p->type, report);
        c->in_param_type = false;
        if (report && t->kind == TY_UNIT)
            diag_error(p->type->loc, DIAG_E0200,
                       "parameter '%s' cannot have type 'unit'", p->name.text);
        if (t->kind == TY_POOL && t->cls->is_active) {
            if (report)
                diag_error(p->type->loc, DIAG_E0401, "'%s' is an active class: actors do not "
                           "live in pools", t->cls->name.text);
        } else if (t->kind == TY_POOL) {
            /* inside, the parameter is a place: its own */
            Place *at = tc_place_pool_param(f, i);
            at->pool_of = t->cls;
            t->places[0] = at;
        }
    }
    bool is_init = f->owner && f->name.text == c->s_init;
    if (!f->result) {
        f->result_type = ty_unit;
    } else {
        Type *t = tc_resolve_type(c, f->result, report);
        if (is_init && t->kind != TY_UNIT) {
            if (report && t->kind != TY_ERROR)
                diag_error(f->result->loc, DIAG_E0200,
                           "'init' cannot return a value (it returns 'unit')");
            t = ty_error;
        }
        f->result_type = t;
    }
    // effects = "local" | { ( "reads" | "writes" | "sends" ) "(" places ")" }
    if (f->effects) {
        PlaceVec *clauses[3] = {&f->effects->reads, &f->effects->writes, &f->effects->sends};
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < clauses[k]->len; i++)
                tc_resolve_place(c, clauses[k]->items[i], report);
    }
}

static void resolve_field(Checker *c, ClassDecl *k, FieldDecl *fd, bool report)
{
    reset_walk(c, k, NULL);
    c->in_field_type = true;
    Type *t = tc_resolve_type(c, fd->type, report);
    c->in_field_type = false;
    if (t->kind == TY_UNIT) {
        if (report)
            diag_error(fd->type->loc, DIAG_E0200,
                       "field '%s' cannot have type 'unit'", fd->name.text);
        t = ty_error;
    }
    fd->field_type = t;
}

void tc_resolve_class_signatures(Checker *c, ClassDecl *k)
{
    for (size_t j = 0; j < k->fields.len; j++)
        if (k->fields.items[j])
            resolve_field(c, k, k->fields.items[j], false);
    k->init = NULL;
    for (size_t j = 0; j < k->methods.len; j++) {
        FuncDecl *m = k->methods.items[j];
        if (!m)
            continue;
        reset_walk(c, k, m);
        resolve_signature(c, m, false);
        if (m->name.text == c->s_init && !k->init)
            k->init = m;
    }
    reset_walk(c, NULL, NULL);
}

void tc_resolve_func_signature(Checker *c, FuncDecl *f)
{
    reset_walk(c, f->owner, f);
    resolve_signature(c, f, false);
    reset_walk(c, NULL, NULL);
}

static void resolve_signatures(Checker *c)
{
    for (size_t i = 0; i < c->program->decls.len; i++) {
        Decl *d = c->program->decls.items[i];
        if (!d)
            continue;
        if (d->kind == DECL_FUNC && d->u.func && !tc_is_instance_func(d->u.func)) {
            reset_walk(c, NULL, d->u.func);
            resolve_signature(c, d->u.func, false);
        } else if (d->kind == DECL_CLASS && d->u.cls && !tc_is_instance_class(d->u.cls)) {
            tc_resolve_class_signatures(c, d->u.cls);
        }
    }
    /* the overrides and the pools, once every class's fields are known
     * (layouts need their sizes) */
    tc_apply_layout_overrides(c, c->layout_overrides, c->noverrides);
    for (size_t i = 0; i < c->program->decls.len; i++) {
        Decl *d = c->program->decls.items[i];
        if (d && d->kind == DECL_POOL && d->u.pool) {
            reset_walk(c, NULL, NULL);
            tc_check_pool(c, d->u.pool, false);
        }
    }
    reset_walk(c, NULL, NULL);
}

/* ---- pass 3: bodies ------------------------------------------------------ */

// function = signature block
static void check_function(Checker *c, FuncDecl *f, ClassDecl *cls)
{
    reset_walk(c, cls, f);
    resolve_signature(c, f, true);
    c->result = f->result_type;
    tc_scope_push(c);       /* parameters and the body's statements share it */
    for (size_t i = 0; i < f->params.len; i++) {
        Param *p = f->params.items[i];
        if (!p)
            continue;
        p->sym = tc_new_sym(c, SYM_PARAM, p->name.text, p->name.loc, tc_param_type(p));
        tc_declare(c, (Binding){p->name.text, p->sym, NULL, p->name.loc, 0}, "parameter");
    }
    if (f->body)
        tc_check_block_stmts(c, f->body);
    tc_scope_pop(c);
    tc_record_point(c, f->loc.end);
    f->nlocals = c->nlocals;

    Type *r = f->result_type;
    if (f->body && f->body->kind == ST_BLOCK && r && r->kind != TY_UNIT &&
        r->kind != TY_ERROR && tc_can_complete(f->body)) {
        diag_error(f->body->u.block.close, DIAG_E0204,
                   "missing return: %s '%s' must return a value of type '%s'",
                   cls ? "method" : "function", f->name.text, ty_name(r));
        diag_note(f->name.loc, "'%s' declared here", f->name.text);
    }
    reset_walk(c, NULL, NULL);
}

static void report_duplicate_top(Checker *c, const char *name, Loc loc, void *self)
{
    TopEntry *e = tc_top(c, name);
    if (!e || (void *)e->func == self || (void *)e->cls == self || (void *)e->pool == self ||
        (void *)e->layout == self)
        return;
    Loc prev = e->func ? e->func->name.loc : e->cls ? e->cls->name.loc
             : e->pool ? e->pool->name.loc : e->layout ? e->layout->name.loc : LOC_NONE;
    if (!e->func && !e->cls && !e->pool && !e->layout)
        return;
    diag_error(loc, DIAG_E0102, "duplicate definition of '%s'", name);
    diag_note(prev, "previous definition here");
}

/* Duplicate members (E0102), in one pass each: tc_find_field and
 * tc_find_method give the first member of a name. */
static void check_members(ClassDecl *k)
{
    for (size_t i = 0; i < k->fields.len; i++) {
        FieldDecl *f = k->fields.items[i];
        if (!f)
            continue;
        FieldDecl *g = tc_find_field(k, f->name.text);
        if (g && g != f) {
            diag_error(f->name.loc, DIAG_E0102, "duplicate field '%s' in class '%s'",
                       f->name.text, k->name.text);
            diag_note(g->name.loc, "previous definition here");
        }
    }
    for (size_t i = 0; i < k->methods.len; i++) {
        FuncDecl *m = k->methods.items[i];
        if (!m)
            continue;
        FieldDecl *f = tc_find_field(k, m->name.text);
        if (f) {
            diag_error(m->name.loc, DIAG_E0102,
                       "method '%s' has the same name as a field of class '%s'",
                       m->name.text, k->name.text);
            diag_note(f->name.loc, "field '%s' declared here", f->name.text);
            continue;
        }
        FuncDecl *g = tc_find_method(k, m->name.text);
        if (g && g != m) {
            diag_error(m->name.loc, DIAG_E0102, "duplicate method '%s' in class '%s'",
                       m->name.text, k->name.text);
            diag_note(g->name.loc, "previous definition here");
        }
    }
}

/* A class's field initialisers and method bodies.  Its generic methods are
 * checked as generic code (with an instance's type arguments in place,
 * for an instance); the instances of generic methods are generics.c's. */
static void check_class_bodies(Checker *c, ClassDecl *k)
{
    // field = ( "var" | "val" ) name ":" type [ "=" expr ]
    for (size_t i = 0; i < k->fields.len; i++) {
        FieldDecl *f = k->fields.items[i];
        if (!f)
            continue;
        resolve_field(c, k, f, true);
        if (f->init) {
            reset_walk(c, k, NULL);
            tc_expect(c, f->init, f->field_type);
            reset_walk(c, NULL, NULL);
        }
    }
    for (size_t i = 0; i < k->methods.len; i++) {
        FuncDecl *m = k->methods.items[i];
        if (m && !(m->generic && m->generic->of))
            check_function(c, m, k);
    }
}

// class = [ "active" ] "class" name [ "<" params ">" ] "{" { field | method } "}"
static void check_class(Checker *c, ClassDecl *k)
{
    if (is_builtin_type_name(c, k->name.text))
        diag_error(k->name.loc, DIAG_E0102,
                   "'%s' is the name of a built-in type and cannot name a class",
                   k->name.text);
    else
        report_duplicate_top(c, k->name.text, k->name.loc, k);
    check_place_params(&k->place_params, NULL, "place parameter");
    check_type_params(c, &k->type_params, &k->place_params, NULL);
    check_members(k);
    check_class_bodies(c, k);
}

/* An instance's fields and methods, as check_class does for the generic
 * (muted by the caller: generics.c). */
void tc_check_instance_class(Checker *c, ClassDecl *k)
{
    check_class_bodies(c, k);
}

void tc_check_instance_func(Checker *c, FuncDecl *f)
{
    check_function(c, f, f->owner);
}

static void check_decl(Checker *c, Decl *d)
{
    switch (d->kind) {
    case DECL_FUNC:
        if (!d->u.func)
            return;
        report_duplicate_top(c, d->u.func->name.text, d->u.func->name.loc, d->u.func);
        check_function(c, d->u.func, NULL);
        break;
    case DECL_CLASS:
        if (d->u.cls)
            check_class(c, d->u.cls);
        break;
    case DECL_LAYOUT:
        // decl = "layout" name ":" class "=" layout
        if (d->u.layout) {
            LayoutDecl *ld = d->u.layout;
            if (ld->name.text == c->s_aos || ld->name.text == c->s_soa)
                diag_error(ld->name.loc, DIAG_E0102, "'%s' is a built-in layout and cannot "
                           "be declared", ld->name.text);
            else
                report_duplicate_top(c, ld->name.text, ld->name.loc, ld);
            tc_check_layout_decl(c, ld);
        }
        break;
    case DECL_POOL:
        // decl = "pool" name ":" type [ "layout" layout ] [ "on" place ]
        if (d->u.pool) {
            report_duplicate_top(c, d->u.pool->name.text, d->u.pool->name.loc, d->u.pool);
            reset_walk(c, NULL, NULL);
            tc_check_pool(c, d->u.pool, true);
        }
        break;
    }
}

/* ---- main ---------------------------------------------------------------- */

// main = "def" "main" "(" [ name ":" "[" "string" "]" ] ")" [ ":" ( "int" | "unit" ) ] block
static void check_main(Checker *c)
{
    TopEntry *e = tc_top(c, c->s_main);
    if (!e || !e->func) {
        Loc start = {c->program->file, 0, 0};
        diag_error(start, DIAG_E0207, "no 'main' function");
        if (e && e->cls) {
            diag_note(e->cls->name.loc, "'main' is a class here; it must be a function");
            return;
        }
        NameList funcs = {0};
        tc_add_top_names(c, TOP_FUNCTIONS, &funcs);
        const char *near = diag_closest(c->s_main, funcs.items, funcs.len);
        TopEntry *t = near ? tc_top(c, near) : NULL;
        if (t && t->func)
            diag_suggest(t->func->name.loc, t->func->name.loc, c->s_main,
                         "did you mean 'main'? this function is '%s'", near);
        else
            diag_note(LOC_NONE, "the program starts at 'def main()' or 'def main(args: [string])'");
        return;
    }
    FuncDecl *f = e->func;
    bool params_ok = f->params.len == 0;
    if (f->params.len == 1 && f->params.items[0]) {
        /* the arguments are made by the runtime, on node 0 */
        Type *t = tc_param_type(f->params.items[0]);
        params_ok = t->kind == TY_ERROR ||
                    (t->kind == TY_ARRAY && t->elem->kind == TY_STRING &&
                     t->places[0] == tc_place_node(0));
    }
    if (f->place_params.len)
        diag_error(f->place_params.items[0].loc, DIAG_E0207,
                   "'main' cannot have place parameters");
    if (f->type_params.len)
        diag_error(f->type_params.items[0].loc, DIAG_E0207,
                   "'main' cannot have type parameters");
    if (!params_ok)
        diag_error(f->name.loc, DIAG_E0207,
                   "'main' must take no parameters or one parameter of type '[string]'");
    Type *r = f->result_type ? f->result_type : ty_unit;
    if (r->kind != TY_UNIT && r->kind != TY_INT && r->kind != TY_ERROR)
        diag_error(f->result ? f->result->loc : f->name.loc, DIAG_E0207,
                   "'main' must return 'int' or nothing, not '%s'", ty_name(r));
}

/* ---- entry points -------------------------------------------------------- */

static void init_names(Checker *c)
{
    c->s_int = intern_cstr("int");
    c->s_float = intern_cstr("float");
    c->s_bool = intern_cstr("bool");
    c->s_string = intern_cstr("string");
    c->s_fut = intern_cstr("Fut");
    c->s_map = intern_cstr("Map");
    c->s_length = intern_cstr("length");
    c->s_init = intern_cstr("init");
    c->s_main = intern_cstr("main");
    c->s_home = intern_cstr("home");
    c->s_here = intern_cstr("here");
    c->s_aos = intern_cstr("aos");
    c->s_soa = intern_cstr("soa");
    c->s_size = intern_cstr("size");
    for (int i = 0; i < BI_COUNT; i++)
        c->builtin_names[i] = intern_cstr(tc_builtins[i].name);
}

bool tc_check_program(Program *program, const TcLayoutOverride *layout_overrides,
                      size_t noverrides)
{
    if (!program)
        return false;
    int before = diag_error_count();
    Checker c;
    memset(&c, 0, sizeof c);
    c.program = program;
    init_names(&c);
    collect(&c);
    TopEntry *main_entry = tc_top(&c, c.s_main);
    c.main_func = main_entry ? main_entry->func : NULL;
    c.layout_overrides = layout_overrides;
    c.noverrides = noverrides;
    tc_generics_begin(&c);
    resolve_signatures(&c);
    for (size_t i = 0; i < program->decls.len; i++) {
        Decl *d = program->decls.items[i];
        if (d && !(d->kind == DECL_CLASS && tc_is_instance_class(d->u.cls)) &&
            !(d->kind == DECL_FUNC && tc_is_instance_func(d->u.func)))
            check_decl(&c, d);
    }
    tc_check_instances(&c, before);
    check_main(&c);
    tc_generics_end();
    return diag_error_count() == before;
}

void tc_reset(void)
{
    tc_places_reset();
    tc_layouts_reset();
    tc_scope_reset();
    tc_generics_reset();
}

FuncDecl *tc_main_function(const Program *program)
{
    if (!program)
        return NULL;
    for (size_t i = 0; i < program->decls.len; i++) {
        Decl *d = program->decls.items[i];
        if (d && d->kind == DECL_FUNC && d->u.func && d->u.func->name.text &&
            strcmp(d->u.func->name.text, "main") == 0)
            return d->u.func;
    }
    return NULL;
}
