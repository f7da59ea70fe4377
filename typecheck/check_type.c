/* check_type.c — from a written type (TypeExpr) to a Type.
 *
 * `int`, `float`, `bool` and `string` are ordinary identifiers that name
 * the built-in types (so a class may not take those names, check_decl.c);
 * any other name must be a class.  `unit` is a keyword, parsed apart.
 *
 * `Fut<T>` (LANGUAGE.md §4) is the type of a send's result: any T is
 * allowed, `unit` included (the future of a message that returns nothing
 * still says when it was handled), and futures nest (`Fut<Fut<int>>`).
 * Like classes and arrays it is a reference type: it may be null.
 *
 * Places (LANGUAGE.md §5).  A class type carries one place per place
 * parameter of its class, an array type one place.  Written without places
 * they mean the default place (tc_default_place): inside a class body the
 * class's home, in a top-level function `here`, in `main` node(0).  Place
 * terms are resolved here too (tc_resolve_place): `here` as normalised in
 * places.h, the place parameters in scope (the method's or function's
 * own, then the class's, or `home` for a class that declares none),
 * node(k) and `?`, and pools: a `pool C` parameter, a `pool` statement's
 * pool, a top-level pool.  `pool C` is a parameter's type only (E0401).
 *
 * Resolution runs twice for declarations (check.h, tc_resolve_type):
 * silently first, so every signature is known before any body is checked,
 * then with reports, in source order.  Both runs give the same Type.
 */
#include "check.h"
#include "../support/diag.h"

/* ---- places ---------------------------------------------------------------- */

Place *tc_here(const Checker *c)
{
    if (c->cls && c->cls->is_active)
        return tc_place_class_param(c->cls, 0);
    if (c->func && !c->func->owner && c->func == c->main_func)
        return tc_place_node(0);
    if (!c->func && !c->cls)
        return tc_place_node(0);    /* top level: where the program starts */
    return tc_place_here();
}

Place *tc_default_place(const Checker *c)
{
    return c->cls ? tc_place_class_param(c->cls, 0) : tc_here(c);
}

/* A place parameter named `name` in scope, or NULL. */
static Place *place_param(const Checker *c, const char *name)
{
    if (c->func) {
        for (size_t i = 0; i < c->func->place_params.len; i++)
            if (c->func->place_params.items[i].text == name)
                return tc_place_func_param(c->func, (int)i);
        for (size_t i = 0; i < c->func->params.len; i++) {
            Param *p = c->func->params.items[i];
            if (p && p->name.text == name && tc_place_pool_param(c->func, i))
                return tc_place_pool_param(c->func, i);
        }
    }
    if (c->cls) {
        for (size_t i = 0; i < c->cls->place_params.len; i++)
            if (c->cls->place_params.items[i].text == name)
                return tc_place_class_param(c->cls, (int)i);
        if (!c->cls->has_place_params && name == c->s_home)
            return tc_place_class_param(c->cls, 0);
    }
    return NULL;
}

bool tc_names_place_param(const Checker *c, const char *name)
{
    return place_param(c, name) != NULL;
}

static void suggest_place(const Checker *c, const char *name, Loc where)
{
    NameList cands = {0};
    if (c->func)
        for (size_t i = 0; i < c->func->place_params.len; i++)
            VEC_PUSH(cands, c->func->place_params.items[i].text);
    if (c->cls) {
        for (size_t i = 0; i < c->cls->place_params.len; i++)
            VEC_PUSH(cands, c->cls->place_params.items[i].text);
        if (!c->cls->has_place_params)
            VEC_PUSH(cands, c->s_home);
    }
    VEC_PUSH(cands, c->s_here);
    tc_suggest(name, where, &cands);
}

// place = "here" | name | "node" "(" int ")" | "?"
static Place *resolve_place(Checker *c, PlaceExpr *pe, bool report);

Place *tc_resolve_place(Checker *c, PlaceExpr *pe, bool report)
{
    pe->resolved = resolve_place(c, pe, report);
    return pe->resolved;
}

static Place *resolve_place(Checker *c, PlaceExpr *pe, bool report)
{
    switch (pe->kind) {
    case PLACE_HERE:
        if (c->in_field_type && c->cls && !c->cls->is_active) {
            if (report) {
                diag_error(pe->loc, DIAG_E0301, "'here' has no meaning in a field of a "
                           "passive class");
                diag_note(LOC_NONE, "a passive object has no node of its own code; write "
                          "the class's home ('%s') or another place parameter",
                          tc_place_name(tc_place_class_param(c->cls, 0)));
            }
            return tc_place_class_param(c->cls, 0);
        }
        return tc_here(c);
    case PLACE_NAME: {
        Place *p = place_param(c, pe->name);
        if (p)
            return p;
        Binding *b = tc_lookup_local(c, pe->name);     /* a `pool` statement's */
        if (b && b->pool && tc_pool(b->pool))
            return tc_pool(b->pool)->place;
        TopEntry *top = tc_top(c, pe->name);
        if (!b && top && top->pool && tc_pool(top->pool))
            return tc_pool(top->pool)->place;
        if (report) {
            {
                diag_error(pe->loc, DIAG_E0301, "unknown place '%s'", pe->name);
                if (tc_type_param_named(c, pe->name))
                    diag_note(LOC_NONE, "'%s' is a type parameter: it stands for a type, "
                              "not a place", pe->name);
                else if (c->cls && c->cls->has_place_params && pe->name == c->s_home)
                    diag_note(c->cls->name.loc, "'home' names the implicit place of a class "
                              "without place parameters; '%s' declares its own",
                              c->cls->name.text);
                else
                    suggest_place(c, pe->name, pe->loc);
            }
        }
        return tc_place_unknown();
    }
    case PLACE_NODE:
        return tc_place_node(pe->node);
    case PLACE_UNKNOWN:
        return tc_place_unknown();
    }
    return tc_place_unknown();
}

/* The type arguments of te, resolved (reported when `report`); NULL when
 * one is wrong. */
static Type **resolve_type_args(Checker *c, TypeExpr *te, bool report)
{
    Type **args = arena_alloc((te->targs.len + 1) * sizeof *args);
    bool ok = true;
    for (size_t i = 0; i < te->targs.len; i++) {
        args[i] = tc_resolve_type(c, te->targs.items[i], report);
        if (args[i]->kind == TY_UNIT) {
            if (report)
                diag_error(te->targs.items[i]->loc, DIAG_E0200,
                           "'unit' cannot be a type argument");
            args[i] = ty_error;
        }
        ok &= args[i]->kind != TY_ERROR;
    }
    return ok ? args : NULL;
}

/* type = name "[" type { "," type } "]" [ "<" places ">" ]   (§11)
 * A generic class needs exactly its number of type arguments, any other
 * type none (E0104). */
static Type *resolve_generic(Checker *c, ClassDecl *k, TypeExpr *te, bool report)
{
    size_t want = k->type_params.len;
    if (!te->has_targs && want == 0)
        return ty_class_at(c, k, te, report);
    if (!te->has_targs || te->targs.len != want) {
        if (report) {
            if (want == 0)
                diag_error(te->name.loc, DIAG_E0104, "class '%s' takes no type arguments",
                           k->name.text);
            else if (!te->has_targs)
                diag_error(te->name.loc, DIAG_E0104, "generic class '%s' needs %zu type "
                           "argument%s: write '%s[%s]'", k->name.text, want,
                           want == 1 ? "" : "s", k->name.text,
                           want == 1 ? "T" : "T, ...");
            else
                diag_error(te->loc, DIAG_E0104, "wrong number of type arguments for '%s': "
                           "expected %zu, found %zu", k->name.text, want, te->targs.len);
            diag_note(k->name.loc, "'%s' declared here", k->name.text);
        }
        resolve_type_args(c, te, report);   /* their own mistakes */
        if (want == 0)
            return ty_class_at(c, k, te, report);
        return ty_error;
    }
    Type **args = resolve_type_args(c, te, report);
    Type *at = ty_class_at(c, k, te, report);
    if (!args)
        return ty_error;
    return tc_generic_apply_at(c, k, at->places, at->nplaces, args, (uint32_t)want, te->loc);
}

/* type = name [ "<" places ">" ]   (a built-in type, a type parameter or a class) */
static Type *resolve_named(Checker *c, TypeExpr *te, bool report)
{
    const char *name = te->name.text;
    Type *param = tc_type_param_named(c, name);
    if (param) {
        if (te->has_places && report)
            diag_error(te->loc, DIAG_E0301, "type parameter '%s' takes no place arguments: "
                       "its places are those of its type argument", name);
        if (te->has_targs && report)
            diag_error(te->loc, DIAG_E0104, "type parameter '%s' takes no type arguments",
                       name);
        return param;
    }
    Type *builtin = NULL;
    if (name == c->s_int)
        builtin = ty_int;
    else if (name == c->s_float)
        builtin = ty_float;
    else if (name == c->s_bool)
        builtin = ty_bool;
    else if (name == c->s_string)
        builtin = ty_string;
    if (builtin) {
        if (te->has_places && report)
            diag_error(te->loc, DIAG_E0301, "type '%s' takes no place arguments", name);
        if (te->has_targs && report)
            diag_error(te->loc, DIAG_E0104, "type '%s' takes no type arguments", name);
        return builtin;
    }

    TopEntry *top = tc_top(c, name);
    if (!top || !top->cls) {
        if ((name == c->s_fut || name == c->s_map) && c->refused_fut_class)
            return ty_error;    /* `class Fut` was refused (E0102): no echoes */
        if ((name == c->s_fut || name == c->s_map) && report) {
            diag_error(te->name.loc, DIAG_E0101, "'%s' needs %s", name,
                       name == c->s_map ? "a key type and a value type" : "the type of its value");
            diag_note(LOC_NONE, "write '%s', e.g. '%s'",
                      name == c->s_map ? "Map<K, V>" : "Fut<T>",
                      name == c->s_map ? "Map<string, int>" : "Fut<int>");
            return ty_error;
        }
        if (report) {
            if (top && (top->func || top->pool)) {
                diag_error(te->name.loc, DIAG_E0101, "'%s' is not a type", name);
                return ty_error;
            }
            diag_error(te->name.loc, DIAG_E0101, "unknown type '%s'", name);
            for (size_t i = 0; c->cls && i < c->cls->place_params.len; i++)
                if (c->cls->place_params.items[i].text == name) {
                    diag_note(c->cls->place_params.items[i].loc, "'%s' is a place parameter "
                              "of '%s': the '<...>' after a class name lists the places its "
                              "objects live at; type parameters go in '[...]' before it",
                              name, c->cls->name.text);
                    return ty_error;
                }
            NameList cands = {0};
            VEC_PUSH(cands, c->s_int);
            VEC_PUSH(cands, c->s_float);
            VEC_PUSH(cands, c->s_bool);
            VEC_PUSH(cands, c->s_string);
            tc_add_top_names(c, TOP_CLASSES, &cands);
            tc_suggest(name, te->name.loc, &cands);
        }
        return ty_error;
    }
    return resolve_generic(c, top->cls, te, report);
}

/* The class type cls<places written in te>, or at the default place when
 * none are written. */
Type *ty_class_at(Checker *c, ClassDecl *cls, TypeExpr *te, bool report)
{
    uint32_t n = (uint32_t)tc_class_nplaces(cls);
    Place **ps = arena_alloc(n * sizeof *ps);
    if (!te->has_places) {
        if (n > 1 && report) {
            diag_error(te->loc, DIAG_E0301, "class '%s' takes %u place arguments; write "
                       "'%s<%s, ...>'", cls->name.text, n, cls->name.text,
                       cls->place_params.items[0].text);
            diag_note(cls->name.loc, "'%s' declared here", cls->name.text);
        }
        /* the default place everywhere: after an E0301, the likeliest
         * meaning, and one that does not cascade */
        for (uint32_t i = 0; i < n; i++)
            ps[i] = tc_default_place(c);
        return ty_class(cls, ps, n);
    }
    if (te->places.len != n && report) {
        diag_error(te->loc, DIAG_E0301, "wrong number of place arguments for '%s': "
                   "expected %u, found %zu", cls->name.text, n, te->places.len);
        diag_note(cls->name.loc, "'%s' declared here", cls->name.text);
    }
    for (uint32_t i = 0; i < n; i++)
        ps[i] = i < te->places.len ? tc_resolve_place(c, te->places.items[i], report)
                                   : tc_default_place(c);
    for (size_t i = n; i < te->places.len; i++)    /* report their own mistakes */
        tc_resolve_place(c, te->places.items[i], report);
    return ty_class(cls, ps, n);
}

/* The objects' class of a `pool C` parameter (te a TE_POOL) as a class
 * type: C, the instance `pool C[int]` names, or, in generic code, the
 * generic applied to arguments that mention a type parameter
 * (`pool Cell[T]`); NULL if unknown or wrong. */
static Type *pool_param_class_type(Checker *c, TypeExpr *te, bool report)
{
    TopEntry *top = tc_top(c, te->name.text);
    if (!top || !top->cls)
        return NULL;
    if (!te->has_targs && !tc_is_generic_class(top->cls))
        return ty_class(top->cls, NULL, 0);
    Type *t = resolve_generic(c, top->cls, te, report);
    return t->kind == TY_CLASS ? t : NULL;
}

ClassDecl *tc_pool_param_class(Checker *c, TypeExpr *te, bool report)
{
    Type *t = pool_param_class_type(c, te, report);
    return t ? t->cls : NULL;
}

// type = "Map" "<" type "," type ">" [ "<" place ">" ]
static Type *resolve_map(Checker *c, TypeExpr *te, bool report)
{
    Type *key = tc_resolve_type(c, te->key, report);
    Type *value = tc_resolve_type(c, te->elem, report);
    Place *at = te->places.len > 0 ? tc_resolve_place(c, te->places.items[0], report)
                                   : tc_default_place(c);
    bool ok = key->kind != TY_ERROR && value->kind != TY_ERROR;
    if (key->kind != TY_ERROR && !ty_is_map_key(key)) {
        if (report) {
            diag_error(te->key->loc, DIAG_E0200, "a map key cannot be of type '%s'",
                       ty_name(key));
            diag_note(LOC_NONE, "map keys are 'int', 'string' or 'bool' (compared by value)%s",
                      key->kind == TY_FLOAT ? "; a float key could be 'int' or 'string'"
                                              " instead" : "");
        }
        ok = false;
    }
    if (value->kind == TY_UNIT) {
        if (report)
            diag_error(te->elem->loc, DIAG_E0200, "a map cannot have values of type 'unit'");
        ok = false;
    }
    return ok ? ty_map(key, value, at) : ty_error;
}

Type *tc_resolve_type(Checker *c, TypeExpr *te, bool report)
{
    if (!te)
        return ty_error;
    Type *t = ty_error;
    switch (te->kind) {
    case TE_UNIT:
        // type = "unit"
        t = ty_unit;
        break;
    case TE_NAMED:
        t = resolve_named(c, te, report);
        break;
    case TE_ARRAY: {
        // type = "[" type "]" [ "<" place ">" ]
        Type *elem = tc_resolve_type(c, te->elem, report);
        Place *at = te->places.len > 0 ? tc_resolve_place(c, te->places.items[0], report)
                                       : tc_default_place(c);
        if (elem->kind == TY_UNIT) {
            if (report)
                diag_error(te->elem->loc, DIAG_E0200,
                           "an array cannot have elements of type 'unit'");
            t = ty_error;
        } else if (elem->kind == TY_ERROR) {
            t = ty_error;
        } else {
            t = ty_array(elem, at);
        }
        break;
    }
    case TE_MAP:
        t = resolve_map(c, te, report);
        break;
    case TE_FUT: {
        // type = "Fut" "<" type ">"      (T may be unit)
        Type *elem = tc_resolve_type(c, te->elem, report);
        t = elem->kind == TY_ERROR ? ty_error : ty_fut(elem);
        break;
    }
    case TE_POOL: {
        // type = "pool" name   (a parameter's type only; its place is set by
        //                       the signature, check_decl.c)
        TopEntry *top = tc_top(c, te->name.text);
        if (!c->in_param_type) {
            if (report)
                diag_error(te->loc, DIAG_E0401, "'pool %s' is only the type of a parameter: "
                           "pools cannot be stored or returned", te->name.text);
            t = ty_error;
        } else if (top && top->cls) {
            Type *k = pool_param_class_type(c, te, report);
            t = k ? ty_pool_applied(k->cls, tc_place_unknown(), k->targs, k->ntargs) : ty_error;
        } else {
            if (report) {
                diag_error(te->name.loc, DIAG_E0101, "unknown class '%s'", te->name.text);
                NameList cands = {0};
                tc_add_top_names(c, TOP_CLASSES, &cands);
                tc_suggest(te->name.text, te->name.loc, &cands);
            }
            t = ty_error;
        }
        break;
    }
    }
    te->resolved = t;
    if (report)
        tc_record_type(te);
    return t;
}

Type *tc_this_type(ClassDecl *cls)
{
    uint32_t n = (uint32_t)tc_class_nplaces(cls);
    Place **ps = arena_alloc(n * sizeof *ps);
    for (uint32_t i = 0; i < n; i++)
        ps[i] = tc_place_class_param(cls, (int)i);
    if (tc_is_generic_class(cls))   /* inside a generic class: C[T, ...] */
        return ty_class_applied(cls, ps, n, cls->generic->args, cls->generic->nargs);
    return ty_class(cls, ps, n);
}
