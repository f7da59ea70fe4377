/* types.c — the Type values: constructors, equality, assignability, names.
 *
 * The simple types (error, unit, int, float, bool, string, null) are one
 * static object each, so `t == ty_int` and `t->kind == TY_INT` agree.
 * Composite types (classes, arrays, futures, pools) are allocated in the
 * arena on demand and compared structurally by ty_equal: they are small,
 * and not interning them keeps this module free of tables.  Class types
 * are equal when they name the same ClassDecl (nominal typing).
 *
 * Assignability is equality plus two widenings: `null` into any reference
 * type, and the error type into or from anything (an already reported
 * mistake must not be reported again).  There is no implicit numeric
 * conversion (LANGUAGE.md §2).  Places are not represented yet: the
 * sequential core refuses every construct that would carry one.
 */
#include <string.h>
#include "types.h"
#include "../support/arena.h"

static Type error_obj = {TY_ERROR, NULL, NULL};
static Type unit_obj = {TY_UNIT, NULL, NULL};
static Type int_obj = {TY_INT, NULL, NULL};
static Type float_obj = {TY_FLOAT, NULL, NULL};
static Type bool_obj = {TY_BOOL, NULL, NULL};
static Type string_obj = {TY_STRING, NULL, NULL};
static Type null_obj = {TY_NULL, NULL, NULL};

Type *const ty_error = &error_obj;
Type *const ty_unit = &unit_obj;
Type *const ty_int = &int_obj;
Type *const ty_float = &float_obj;
Type *const ty_bool = &bool_obj;
Type *const ty_string = &string_obj;
Type *const ty_null = &null_obj;

const char *const tc_builtin_names[BI_COUNT] = {
#define BUILTIN(id, name) [id] = name,
#include "builtins.def"
#undef BUILTIN
};

static Type *make(TypeKind kind, ClassDecl *cls, Type *elem)
{
    Type *t = ARENA_NEW(Type);
    t->kind = kind;
    t->cls = cls;
    t->elem = elem;
    return t;
}

Type *ty_class(ClassDecl *cls) { return make(TY_CLASS, cls, NULL); }
Type *ty_array(Type *elem) { return make(TY_ARRAY, NULL, elem); }
Type *ty_fut(Type *elem) { return make(TY_FUT, NULL, elem); }
Type *ty_pool(ClassDecl *cls) { return make(TY_POOL, cls, NULL); }

bool ty_equal(const Type *a, const Type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_CLASS:
    case TY_POOL:
        return a->cls == b->cls;
    case TY_ARRAY:
    case TY_FUT:
        return ty_equal(a->elem, b->elem);
    default:
        return true;    /* the simple kinds carry nothing else */
    }
}

bool ty_is_reference(const Type *t)
{
    return t && (t->kind == TY_CLASS || t->kind == TY_ARRAY || t->kind == TY_FUT);
}

bool ty_assignable(const Type *from, const Type *to)
{
    if (!from || !to || from->kind == TY_ERROR || to->kind == TY_ERROR)
        return true;
    if (ty_equal(from, to))
        return true;
    return from->kind == TY_NULL && ty_is_reference(to);
}

const char *ty_name(const Type *t)
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
    case TY_CLASS:  return t->cls && t->cls->name.text ? t->cls->name.text : "<class>";
    case TY_ARRAY:  return arena_printf("[%s]", ty_name(t->elem));
    case TY_FUT:    return arena_printf("Fut<%s>", ty_name(t->elem));
    case TY_POOL:
        return arena_printf("pool %s",
                            t->cls && t->cls->name.text ? t->cls->name.text : "<class>");
    }
    return "<error>";
}
