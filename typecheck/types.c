/* types.c — the Type values: constructors, equality, assignability, names.
 *
 * The simple types (error, unit, int, float, bool, string, null) are one
 * static object each, so `t == ty_int` and `t->kind == TY_INT` agree.
 * Composite types (classes, arrays, maps, futures, pools) are allocated in the
 * arena on demand and compared structurally by ty_equal: they are small,
 * and not interning them keeps this module free of tables.  Class types
 * are equal when they name the same ClassDecl (nominal typing) at the same
 * places; places are interned (places.c), so they compare by pointer.
 *
 * Assignability is equality plus three widenings: `null` into any
 * reference type, the error type into or from anything (an already
 * reported mistake must not be reported again), and a place known to be a
 * node into `?` (LANGUAGE.md §5: `C<here>` is a `C<?>`, never the other way
 * round).  There is no implicit numeric conversion (LANGUAGE.md §2).
 */
#include <string.h>
#include "types.h"
#include "generics.h"
#include "../support/arena.h"

static Type error_obj = {.kind = TY_ERROR};
static Type unit_obj = {.kind = TY_UNIT};
static Type int_obj = {.kind = TY_INT};
static Type float_obj = {.kind = TY_FLOAT};
static Type bool_obj = {.kind = TY_BOOL};
static Type string_obj = {.kind = TY_STRING};
static Type null_obj = {.kind = TY_NULL};

Type *const ty_error = &error_obj;
Type *const ty_unit = &unit_obj;
Type *const ty_int = &int_obj;
Type *const ty_float = &float_obj;
Type *const ty_bool = &bool_obj;
Type *const ty_string = &string_obj;
Type *const ty_null = &null_obj;

const BuiltinSpec tc_builtins[BI_COUNT] = {
#define BUILTIN(id, name, sig, lowering, effect) [id] = {name, sig, BK_FUNCTION, BE_##effect},
#define STRING_METHOD(id, name, sig, lowering, effect) \
    [id] = {name, sig, BK_STRING_METHOD, BE_##effect},
#define ARRAY_METHOD(id, name, sig, lowering, effect) \
    [id] = {name, sig, BK_ARRAY_METHOD, BE_##effect},
#define MAP_METHOD(id, name, sig, lowering, effect) \
    [id] = {name, sig, BK_MAP_METHOD, BE_##effect},
#include "builtins.def"
#undef BUILTIN
#undef STRING_METHOD
#undef ARRAY_METHOD
#undef MAP_METHOD
};

const char *tc_builtin_result(const char *sig)
{
    return strchr(sig, '>') + 1;
}

static Type *make(TypeKind kind, ClassDecl *cls, Type *elem)
{
    Type *t = ARENA_NEW(Type);
    t->kind = kind;
    t->cls = cls;
    t->elem = elem;
    return t;
}

Type *ty_class(ClassDecl *cls, Place **places, uint32_t nplaces)
{
    Type *t = make(TY_CLASS, cls, NULL);
    t->places = places;
    t->nplaces = nplaces;
    return t;
}

Type *ty_class_applied(ClassDecl *cls, Place **places, uint32_t nplaces, Type **targs,
                       uint32_t ntargs)
{
    Type *t = ty_class(cls, places, nplaces);
    t->targs = targs;
    t->ntargs = ntargs;
    return t;
}

Type *ty_param(const char *name, Generic *of, uint32_t index)
{
    Type *t = make(TY_PARAM, NULL, NULL);
    t->param_name = name;
    t->param_of = of;
    t->param_index = index;
    return t;
}

bool ty_is_open(const Type *t)
{
    if (!t)
        return false;
    switch (t->kind) {
    case TY_PARAM:
        return true;
    case TY_CLASS:
    case TY_POOL:
        return t->ntargs > 0;   /* only generic code applies a class to a parameter */
    case TY_ARRAY:
    case TY_FUT:
        return ty_is_open(t->elem);
    case TY_MAP:
        return ty_is_open(t->key) || ty_is_open(t->elem);
    default:
        return false;
    }
}

/* Arrays and pools have one place: where they live. */
static Type *with_home(Type *t, Place *home)
{
    t->places = arena_alloc(sizeof *t->places);
    t->places[0] = home;
    t->nplaces = 1;
    return t;
}

Type *ty_array(Type *elem, Place *place) { return with_home(make(TY_ARRAY, NULL, elem), place); }

Type *ty_map(Type *key, Type *value, Place *place)
{
    Type *t = with_home(make(TY_MAP, NULL, value), place);
    t->key = key;
    return t;
}

bool ty_is_map_key(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_STRING || t->kind == TY_BOOL;
}

Place *ty_home(const Type *t)
{
    return t && (t->kind == TY_CLASS || t->kind == TY_ARRAY || t->kind == TY_MAP ||
                 t->kind == TY_POOL) &&
                   t->nplaces ? t->places[0] : NULL;
}
Type *ty_fut(Type *elem) { return make(TY_FUT, NULL, elem); }
Type *ty_pool(ClassDecl *cls, Place *at) { return with_home(make(TY_POOL, cls, NULL), at); }

Type *ty_pool_applied(ClassDecl *cls, Place *at, Type **targs, uint32_t ntargs)
{
    Type *t = ty_pool(cls, at);
    t->targs = targs;
    t->ntargs = ntargs;
    return t;
}

/* `places`: compare places too (ty_equal) or not (ty_same_shape). */
static bool same(const Type *a, const Type *b, bool places)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    if (places && a->nplaces == b->nplaces) {
        for (uint32_t i = 0; i < a->nplaces; i++)
            if (a->places[i] != b->places[i])
                return false;
    } else if (places) {
        return false;
    }
    switch (a->kind) {
    case TY_POOL:
    case TY_CLASS:
        if (!places && a->cls != b->cls && tc_is_instance_class(a->cls) &&
            tc_is_instance_class(b->cls) && a->cls->generic->of == b->cls->generic->of) {
            /* two instances of one generic whose arguments differ in
             * places only: a place mismatch (E0300), not a type mismatch */
            for (uint32_t i = 0; i < a->cls->generic->nargs; i++)
                if (!same(a->cls->generic->args[i], b->cls->generic->args[i], false))
                    return false;
            return true;
        }
        if (a->cls != b->cls || a->ntargs != b->ntargs)
            return false;
        for (uint32_t i = 0; i < a->ntargs; i++)
            if (!same(a->targs[i], b->targs[i], places))
                return false;
        return true;
    case TY_PARAM:
        return false;   /* one object per parameter: a == b was tested */
    case TY_ARRAY:
    case TY_FUT:
        return same(a->elem, b->elem, places);
    case TY_MAP:
        return same(a->key, b->key, places) && same(a->elem, b->elem, places);
    default:
        return true;    /* the simple kinds carry nothing else */
    }
}

bool ty_equal(const Type *a, const Type *b) { return same(a, b, true); }
bool ty_same_shape(const Type *a, const Type *b) { return same(a, b, false); }

bool ty_is_reference(const Type *t)
{
    return t && (t->kind == TY_CLASS || t->kind == TY_ARRAY || t->kind == TY_MAP ||
                 t->kind == TY_FUT);
}

bool ty_assignable(const Type *from, const Type *to)
{
    if (!from || !to || from->kind == TY_ERROR || to->kind == TY_ERROR)
        return true;
    if (ty_equal(from, to))
        return true;
    if (from->kind == TY_NULL)
        return ty_is_reference(to);
    if ((from->kind != TY_CLASS && from->kind != TY_ARRAY && from->kind != TY_MAP) ||
        from->kind != to->kind || from->cls != to->cls || from->nplaces != to->nplaces)
        return false;
    if ((from->kind == TY_ARRAY || from->kind == TY_MAP) && !ty_equal(from->elem, to->elem))
        return false;
    if (from->kind == TY_CLASS && from->ntargs) {
        if (from->ntargs != to->ntargs)
            return false;
        for (uint32_t i = 0; i < from->ntargs; i++)
            if (!ty_equal(from->targs[i], to->targs[i]))
                return false;   /* type arguments are invariant */
    }
    if (from->kind == TY_MAP && !ty_equal(from->key, to->key))
        return false;
    for (uint32_t i = 0; i < from->nplaces; i++) {
        Place *p = from->places[i], *q = to->places[i];
        if (p != q && !(q == tc_place_unknown() && tc_place_is_node(p)))
            return false;       /* (a fresh unknown q accepts only itself) */
    }
    return true;
}

static const char *name(const Type *t, bool places);

static const char *place_list(const Type *t, bool places)
{
    if (!places || t->nplaces == 0)
        return "";
    const char *s = "<";
    for (uint32_t i = 0; i < t->nplaces; i++)
        s = arena_printf("%s%s%s", s, i ? ", " : "", tc_place_name(t->places[i]));
    return arena_printf("%s>", s);
}

const char *ty_name(const Type *t) { return name(t, false); }
const char *ty_show(const Type *t) { return name(t, true); }

/* The class of a class or pool type with its type arguments: a generic
 * applied in generic code, or an instance, shows the generic's name and
 * the arguments, written as the rest of the type is. */
static const char *class_with_args(const Type *t, bool places)
{
    ClassDecl *k = t->cls;
    Type *const *targs = t->targs;
    uint32_t n = t->ntargs;
    if (k && k->generic && k->generic->of) {
        targs = k->generic->args;
        n = k->generic->nargs;
        k = k->generic->of->cls;
    }
    const char *args = "";
    for (uint32_t i = 0; i < n; i++)
        args = arena_printf("%s%s%s", args, i ? ", " : "[", name(targs[i], places));
    return arena_printf("%s%s%s", k && k->name.text ? k->name.text : "<class>", args,
                        n ? "]" : "");
}

static const char *name(const Type *t, bool places)
{
    if (!t)
        return "<error>";
    switch (t->kind) {
    case TY_ERROR:  return "<error>";
    case TY_UNIT:   return "unit";
    case TY_INT:    return "int";
    case TY_FLOAT:  return "float";
    case TY_BOOL:   return "bool";
    case TY_STRING: return "string";
    case TY_NULL:   return "null";
    case TY_CLASS:
        return arena_printf("%s%s", class_with_args(t, places), place_list(t, places));
    case TY_PARAM:  return t->param_name;
    case TY_ARRAY:
        return arena_printf("[%s]%s", name(t->elem, places), place_list(t, places));
    case TY_FUT:    return arena_printf("Fut<%s>", name(t->elem, places));
    case TY_MAP:
        return arena_printf("Map<%s, %s>%s", name(t->key, places), name(t->elem, places),
                            place_list(t, places));
    case TY_POOL:
        return arena_printf("pool %s", class_with_args(t, places));
    }
    return "<error>";
}
