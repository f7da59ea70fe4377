/* places.c — interned places, their names, and substitution.
 *
 * Interning: `here` and `?` are one static object each; node(k) places
 * are kept in a short list (a program names few distinct nodes); the
 * parameters of each class and function are made together, on first use,
 * and found again through a pointer-keyed map from the declaration.  The
 * tables live for the whole compilation, like the arena they come from.
 *
 * Substitution maps places through a short association list: a signature
 * mentions a handful of places, so a linear search beats any table.
 * tc_subst_type rebuilds only the parts of a type that change.
 */
#include "places.h"
#include "generics.h"
#include "check.h"
#include "types.h"
#include "../support/arena.h"

static Place here_place = {.tag = PL_HERE, .name = "here"};
static Place unknown_place = {.tag = PL_UNKNOWN, .name = "?"};
static VEC(Place *) node_places;
static NameMap param_places;    /* ClassDecl * or FuncDecl * -> Place *[] */
static NameMap pool_param_classes;  /* Param * -> the ClassDecl its `pool C` names */

void tc_places_reset(void)
{
    node_places.items = NULL, node_places.len = node_places.cap = 0;
    param_places = (NameMap){0};
    pool_param_classes = (NameMap){0};
}

Place *tc_place_here(void) { return &here_place; }
Place *tc_place_unknown(void) { return &unknown_place; }

Place *tc_place_node(int64_t k)
{
    for (size_t i = 0; i < node_places.len; i++)
        if (node_places.items[i]->node == k)
            return node_places.items[i];
    Place *p = ARENA_NEW(Place);
    p->tag = PL_NODE;
    p->node = k;
    p->name = arena_printf("node(%lld)", (long long)k);
    VEC_PUSH(node_places, p);
    return p;
}

int tc_class_nplaces(const ClassDecl *cls)
{
    return cls->place_params.len ? (int)cls->place_params.len : 1;
}

void tc_note_pool_param(const Param *p, ClassDecl *cls)
{
    if (!tc_map_get(&pool_param_classes, (const char *)p))
        tc_map_put(&pool_param_classes, (const char *)p, cls);
}

static bool is_pool_param(const Param *p)
{
    return p && p->type && p->type->kind == TE_POOL;
}

/* The places a `pool C` parameter brings: the pool, then one for each
 * other place of C (those of its objects). */
static int pool_param_places(const Param *p)
{
    if (!is_pool_param(p))
        return 0;
    ClassDecl *cls = tc_map_get(&pool_param_classes, (const char *)p);
    return cls ? tc_class_nplaces(cls) : 1;
}

int tc_func_nplaces(const FuncDecl *f)
{
    int n = (int)f->place_params.len;
    for (size_t i = 0; i < f->params.len; i++)
        n += pool_param_places(f->params.items[i]);
    return n;
}

static Place **make_params(const NameVec *names, size_t n, ClassDecl *cls, FuncDecl *f)
{
    Place **ps = arena_alloc((n ? n : 1) * sizeof *ps);
    size_t next_param = 0;
    int of_pool = 0;        /* places of the current `pool C` parameter so far */
    for (size_t i = 0; i < n; i++) {
        Place *p = ARENA_NEW(Place);
        p->tag = PL_PARAM;
        p->index = (int)i;
        p->cls = cls;
        p->func = f;
        if (names && i < names->len) {
            p->name = names->items[i].text;
        } else if (f) {     /* a `pool C` parameter, then its objects' other places */
            while (!is_pool_param(f->params.items[next_param]))
                next_param++;
            Param *pp = f->params.items[next_param];
            ClassDecl *pc = tc_map_get(&pool_param_classes, (const char *)pp);
            p->name = of_pool == 0 ? pp->name.text
                                   : arena_printf("%s.%s", pp->name.text,
                                                  pc && (size_t)of_pool < pc->place_params.len
                                                      ? pc->place_params.items[of_pool].text
                                                      : "place");
            if (++of_pool == pool_param_places(pp)) {
                of_pool = 0;
                next_param++;
            }
        } else {
            p->name = "home";
        }
        ps[i] = p;
    }
    return ps;
}

Place *tc_place_pool_param(FuncDecl *f, size_t param)
{
    if (param >= f->params.len || !is_pool_param(f->params.items[param]))
        return NULL;
    int k = (int)f->place_params.len;
    for (size_t i = 0; i < param; i++)
        k += pool_param_places(f->params.items[i]);
    return tc_place_func_param(f, k);
}

bool tc_place_is_pool(const Place *p)
{
    return p->tag == PL_POOL || (p->tag == PL_PARAM && p->func && p->pool_of);
}

Place *tc_place_class_param(ClassDecl *cls, int i)
{
    Place **ps = tc_map_get(&param_places, (const char *)cls);
    if (!ps) {
        ps = make_params(cls->place_params.len ? &cls->place_params : NULL,
                         (size_t)tc_class_nplaces(cls), cls, NULL);
        tc_map_put(&param_places, (const char *)cls, ps);
    }
    return ps[i];
}

Place *tc_place_func_param(FuncDecl *f, int i)
{
    Place **ps = tc_map_get(&param_places, (const char *)f);
    if (!ps) {
        ps = make_params(&f->place_params, (size_t)tc_func_nplaces(f), NULL, f);
        tc_map_put(&param_places, (const char *)f, ps);
    }
    return ps[i];
}

Place *tc_place_opaque(void)
{
    Place *p = ARENA_NEW(Place);
    p->tag = PL_UNKNOWN;
    p->name = "?";
    return p;
}

bool tc_place_is_node(const Place *p)
{
    switch (p->tag) {
    case PL_HERE:
    case PL_NODE:
    case PL_UNKNOWN:    /* `?` is some node; a fresh unknown is one too */
        return true;
    case PL_PARAM:
        return p->cls && p->cls->is_active && p->index == 0;
    default:
        return false;
    }
}

const char *tc_place_name(const Place *p)
{
    return p && p->name ? p->name : "?";
}

/* ---- substitution --------------------------------------------------------- */

void tc_subst_add(Subst *s, Place *from, Place *to)
{
    for (size_t i = 0; i < s->from.len; i++)
        if (s->from.items[i] == from) {
            s->to.items[i] = to;
            return;
        }
    VEC_PUSH(s->from, from);
    VEC_PUSH(s->to, to);
}

void tc_subst_add_type(Subst *s, Type *param, Type *to)
{
    for (size_t i = 0; i < s->tfrom.len; i++)
        if (s->tfrom.items[i] == param) {
            s->tto.items[i] = to;
            return;
        }
    VEC_PUSH(s->tfrom, param);
    VEC_PUSH(s->tto, to);
}

Type *tc_subst_lookup_type(const Subst *s, const Type *param)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < s->tfrom.len; i++)
        if (s->tfrom.items[i] == param)
            return s->tto.items[i];
    return NULL;
}

Place *tc_subst_lookup(const Subst *s, const Place *from)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < s->from.len; i++)
        if (s->from.items[i] == from)
            return s->to.items[i];
    return NULL;
}

Place *tc_subst_place(const Subst *s, Place *p)
{
    Place *q = tc_subst_lookup(s, p);
    return q ? q : p;
}

/* `t`, a class type, with `map` applied to each of its places; `t` itself
 * when no place changes, so that unchanged types stay shared. */
static Type *map_class_places(Type *t, Place *(*map)(const void *, Place *), const void *ctx)
{
    bool changed = false;
    Place **ps = arena_alloc(t->nplaces * sizeof *ps);
    for (uint32_t i = 0; i < t->nplaces; i++) {
        ps[i] = map(ctx, t->places[i]);
        changed |= ps[i] != t->places[i];
    }
    return changed ? ty_class_applied(t->cls, ps, t->nplaces, t->targs, t->ntargs) : t;
}

static Place *subst_place_in(const void *s, Place *p) { return tc_subst_place(s, p); }

/* A `?` read from a declaration: a node nobody can name (tc_open_type). */
static Place *open_place(const void *unused, Place *p)
{
    (void)unused;
    return p == tc_place_unknown() ? tc_place_opaque() : p;
}

Type *tc_subst_type(const Subst *s, Type *t)
{
    if (!s || !t || (s->from.len == 0 && s->tfrom.len == 0))
        return t;
    switch (t->kind) {
    case TY_PARAM: {
        Type *to = tc_subst_lookup_type(s, t);
        return to ? to : t;
    }
    case TY_CLASS: {
        Type *u = map_class_places(t, subst_place_in, s);
        /* the type arguments too: a generic class's in generic code, an
         * instance's everywhere (`Stack[Account<n>]` read through a
         * receiver whose n is node(1) is `Stack[Account<node(1)>]`) */
        bool inst = tc_is_instance_class(t->cls);
        uint32_t n = inst ? t->cls->generic->nargs : t->ntargs;
        Type *const *from = inst ? t->cls->generic->args : t->targs;
        if (n == 0)
            return u;
        Type **args = arena_alloc(n * sizeof *args);
        bool changed = false;
        for (uint32_t i = 0; i < n; i++) {
            args[i] = tc_subst_type(s, from[i]);
            if (args[i]->kind == TY_ERROR)
                return ty_error;
            changed |= args[i] != from[i];
        }
        if (!changed)
            return u;
        ClassDecl *generic = inst ? t->cls->generic->of->cls : t->cls;
        return tc_generic_apply(generic, u->places, u->nplaces, args, n, u);
    }
    case TY_POOL: {
        /* `pool Cell[T]` with T known: a pool of the instance.  Its place
         * stays: a pool parameter's place is bound by the call itself. */
        if (t->ntargs == 0)
            return t;
        Type *k = tc_subst_type(s, ty_class_applied(t->cls, NULL, 0, t->targs, t->ntargs));
        if (k->kind == TY_ERROR)
            return ty_error;
        return ty_pool_applied(k->cls, t->places[0], k->targs, k->ntargs);
    }
    case TY_ARRAY: {
        Type *elem = tc_subst_type(s, t->elem);
        Place *p = tc_subst_place(s, t->places[0]);
        if (elem->kind == TY_ERROR)
            return ty_error;    /* an uninferred type parameter: already reported */
        return elem == t->elem && p == t->places[0] ? t : ty_array(elem, p);
    }
    case TY_MAP: {
        Type *key = tc_subst_type(s, t->key);
        Type *value = tc_subst_type(s, t->elem);
        Place *p = tc_subst_place(s, t->places[0]);
        if (key->kind == TY_ERROR || value->kind == TY_ERROR)
            return ty_error;
        return key == t->key && value == t->elem && p == t->places[0] ? t
                                                                       : ty_map(key, value, p);
    }
    case TY_FUT: {
        Type *elem = tc_subst_type(s, t->elem);
        if (elem->kind == TY_ERROR)
            return ty_error;
        return elem == t->elem ? t : ty_fut(elem);
    }
    default:
        return t;
    }
}

Type *tc_open_type(Type *t)
{
    if (!t)
        return t;
    switch (t->kind) {
    case TY_CLASS:
        return map_class_places(t, open_place, NULL);
    case TY_ARRAY:
        /* the array's own place only: a `?` in its element type says the
         * elements may each be anywhere, which is not one unknown node */
        return t->places[0] == tc_place_unknown() ? ty_array(t->elem, tc_place_opaque()) : t;
    case TY_MAP:
        return t->places[0] == tc_place_unknown() ? ty_map(t->key, t->elem, tc_place_opaque())
                                                  : t;
    default:
        return t;
    }
}

Subst *tc_subst_receiver(const Type *receiver, Place *here_to)
{
    Subst *s = ARENA_NEW(Subst);
    if (receiver && receiver->kind == TY_CLASS)
        for (uint32_t i = 0; i < receiver->nplaces; i++) {
            Place *p = receiver->places[i];
            tc_subst_add(s, tc_place_class_param(receiver->cls, (int)i), open_place(NULL, p));
        }
    if (receiver && receiver->kind == TY_CLASS && receiver->ntargs)
        for (uint32_t i = 0; i < receiver->ntargs; i++)
            tc_subst_add_type(s, tc_generic_param(receiver->cls, i), receiver->targs[i]);
    if (here_to && here_to != tc_place_here())
        tc_subst_add(s, tc_place_here(), here_to);
    return s;
}
