/* generics.h — generic classes and functions (LANGUAGE.md §11): what the
 * rest of the compiler sees of them.
 *
 * A declaration with type parameters (`class Stack[T]`, `def last[T]`) is
 * a *generic*.  The checker checks it once, as written, with each type
 * parameter an opaque TY_PARAM; inside it, a generic class applied to
 * arguments that mention a type parameter (`Node[T]`) is a TY_CLASS of
 * the generic carrying those arguments, read through the one
 * substitution of places.h.
 *
 * Every application to types without parameters (`Stack[int]`, `last`
 * called on an `[int]`) is an *instance*: a copy of the declaration
 * (parser/ast_clone.c) whose type parameters stand for the arguments,
 * named after them ("Stack[int]", "last[int]"), checked again (silently:
 * its mistakes were the generic's) and added to the program — a class or
 * function to the top level, a method to its class.  From then on an
 * instance is an ordinary declaration with concrete types: effects,
 * layouts, pools, code generation and debug information handle it as
 * they handle any other, which is how a `Stack[int]` comes to hold
 * unboxed ints.  Phases that report or print in source order (the effect
 * report, warnings, the language server) skip instances and show the
 * generic; phases that generate code skip generics.
 *
 * Instances are found while checking, as they are named, not by a later
 * walk from `main`: the checker needs an instance's member types at the
 * use that names it.  An instance that names a bigger instance of its own
 * generic (`class A[T] { def f() { new A[[T]] } }`) would go on forever;
 * instantiation stops with E0104 when an instance would be made by more
 * than TC_MAX_INSTANCE_DEPTH instances of its own generic.
 */
#ifndef MOSAIC_TC_GENERICS_H
#define MOSAIC_TC_GENERICS_H

#include <stdbool.h>
#include "types.h"

/* An instance may be made, directly or through others, by at most this
 * many instances of its own generic: a generic whose instances make
 * instances of it with larger type arguments (`new A[[T]]` inside
 * `class A[T]`) would otherwise go on forever, since type arguments never
 * shrink.  Real programs nest one or two (`Stack[Stack[int]]` is made by
 * no instance at all: its arguments are written out). */
#define TC_MAX_INSTANCE_DEPTH 24

struct Generic {
    Generic *of;            /* an instance: its generic; NULL for a generic */
    ClassDecl *cls;         /* the declaration, a class ... */
    FuncDecl *func;         /* ... or a function or method */
    Type **args;            /* a generic: its parameters (TY_PARAM); an
                               instance: the type arguments */
    uint32_t nargs;
    VEC(Generic *) instances;   /* a generic: its instances, oldest first */
    Generic *made_by;       /* an instance: the instance whose signatures or
                               body named it first, NULL for other code */
    struct GenericIndex *index; /* a generic: its instances by arguments and
                                   names (generics.c) */
    bool runaway_reported;  /* a generic: E0104 for runaway instantiation */
};

/* Is the declaration generic code (never compiled itself): a generic
 * class, a generic function or method, or a method of a generic class? */
bool tc_is_generic_class(const ClassDecl *k);
bool tc_is_generic_func(const FuncDecl *f);
/* Is it an instance, or a method of an instance class? */
bool tc_is_instance_class(const ClassDecl *k);
bool tc_is_instance_func(const FuncDecl *f);

/* Is k an instance of the generic class `generic`? */
bool tc_is_instance_of(const ClassDecl *k, const ClassDecl *generic);

/* The i-th type parameter of a generic class, as a TY_PARAM. */
Type *tc_generic_param(const ClassDecl *k, uint32_t i);
/* Generic class k applied to `args` at the given places: the instance's
 * class type when no argument mentions a type parameter, else the
 * applied generic (ty_class_applied).  After the check (effects, codegen)
 * no instance is made any more: an instance not made then is `fallback`. */
Type *tc_generic_apply(ClassDecl *k, Place **places, uint32_t nplaces, Type **args,
                       uint32_t nargs, Type *fallback);

/* Forgets the instances' bookkeeping (tc_reset). */
void tc_generics_reset(void);

#endif
