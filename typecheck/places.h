/* places.h — the semantic places of LANGUAGE.md §5, and substitution.
 *
 * A place says where an object, array or actor lives.  The checker turns
 * every written place term (a PlaceExpr of the AST) into a Place:
 *
 *   PL_HERE     `here` of a passive method or a top-level function: the
 *               caller's node, a hidden parameter of the code
 *   PL_PARAM    a place parameter of a class (its first one is the home;
 *               a class that declares none has the implicit `home`) or of
 *               a function or method
 *   PL_NODE     node(k), k a literal
 *   PL_POOL     a pool declared at top level or by a `pool` statement
 *               (LANGUAGE.md §6; a `pool C` parameter is a PL_PARAM)
 *   PL_UNKNOWN  `?`, some node nobody knows statically
 *
 * Places are interned — one object per term — so two places are the same
 * term exactly when their pointers are equal, and types compare places
 * with ==.  `here` is normalised where the reference defines it: inside an
 * active class it is the class's home (a PL_PARAM), inside `main` it is
 * node(0); PL_HERE therefore only ever means "the caller's node".
 *
 * Substitution (tc_subst_*) is the one way a signature written from the
 * callee's point of view is read at a call, a send, a `new` or a field
 * access: each class parameter becomes the receiver type's argument, the
 * callee's `here` the caller's here (or the receiver's home for a send),
 * and a function's own place parameters the places inferred from the
 * arguments.  The checker records the substitution of every call in the
 * call's node, so that the effect pass and the code generator read the
 * very same mapping instead of recomputing it.
 */
#ifndef MOSAIC_TC_PLACES_H
#define MOSAIC_TC_PLACES_H

#include <stdbool.h>
#include <stdint.h>
#include "../parser/ast.h"

typedef struct Type Type;

typedef enum PlaceTag {
    PL_HERE,
    PL_PARAM,
    PL_NODE,
    PL_POOL,
    PL_UNKNOWN,
} PlaceTag;

typedef struct Place {
    PlaceTag tag;
    const char *name;   /* PL_PARAM, PL_POOL: as written; printed in messages */
    int index;          /* PL_PARAM: position among its owner's parameters */
    ClassDecl *cls;     /* PL_PARAM of a class (else NULL) */
    FuncDecl *func;     /* PL_PARAM of a function or method (else NULL) */
    int64_t node;       /* PL_NODE */
    PoolDecl *pool;     /* PL_POOL */
    ClassDecl *pool_of; /* PL_PARAM of a `pool C` parameter: C (NULL until
                           its type is resolved, and for other parameters) */
} Place;

Place *tc_place_here(void);
/* `?` as written: some node nobody knows. */
Place *tc_place_unknown(void);
/* A fresh unknown node, equal to no other place: what one `?` stands for
 * once it is used (a receiver's place, an argument's).  It converts to
 * `?`, but nothing converts to it, so a value known to be somewhere cannot
 * be stored where only that unknown node's objects belong.  Printed "?". */
Place *tc_place_opaque(void);
/* t with each `?` of its own places (a class type's, an array type's, not
 * those of its elements) replaced by a fresh unknown (tc_place_opaque). */
Type *tc_open_type(Type *t);
Place *tc_place_node(int64_t k);
/* The i-th place parameter of a class: `home` (i == 0) for a class that
 * declares none. */
Place *tc_place_class_param(ClassDecl *cls, int i);
/* The i-th place parameter of a function or method: its `<p, ...>` first,
 * then one per parameter of type `pool C` (LANGUAGE.md §6: inside, such a
 * parameter is a place), in parameter order. */
Place *tc_place_func_param(FuncDecl *f, int i);
int tc_func_nplaces(const FuncDecl *f);
/* The place of f's parameter number `param` if its type is `pool C`; the
 * other places of C's objects follow it among f's places (named
 * "p.q" for C's place parameter q). */
Place *tc_place_pool_param(FuncDecl *f, size_t param);
/* Tells the places of a function which class its `pool C` parameter p
 * names, before they are made (check_decl.c, at the signature). */
void tc_note_pool_param(const Param *p, ClassDecl *cls);
/* Is p a pool, or a `pool C` parameter? */
bool tc_place_is_pool(const Place *p);
/* Number of place parameters of a class (1 for the implicit home). */
int tc_class_nplaces(const ClassDecl *cls);

/* Is p certainly a node (so that it converts to `?`)?  `here`, node(k) and
 * the home of an active class; not a parameter of a passive class or of a
 * function, which may stand for a pool. */
bool tc_place_is_node(const Place *p);

/* The place as written in messages and reports: "here", "n", "node(1)",
 * "?", a pool's name. */
const char *tc_place_name(const Place *p);

/* A mapping from places to places, and from type parameters to types
 * (LANGUAGE.md §11: a generic class's parameters read through a receiver
 * `Node[T]` inside generic code, a generic function's inferred at a call
 * there); entries not listed map to themselves.  One substitution for
 * both, so that a member's type is read in one step wherever it is read. */
typedef struct Subst {
    VEC(Place *) from;
    VEC(Place *) to;
    VEC(Type *) tfrom;      /* TY_PARAM types */
    VEC(Type *) tto;
} Subst;

void tc_subst_add(Subst *s, Place *from, Place *to);
void tc_subst_add_type(Subst *s, Type *param, Type *to);
/* The image of type parameter `param` in s, or NULL. */
Type *tc_subst_lookup_type(const Subst *s, const Type *param);
/* The image of `from` in s, or NULL when s does not map it. */
Place *tc_subst_lookup(const Subst *s, const Place *from);
Place *tc_subst_place(const Subst *s, Place *p);
/* t with every place and type parameter mapped through s (t itself when
 * nothing changes). */
Type *tc_subst_type(const Subst *s, Type *t);
/* The mapping that reads a member of a `receiver` (a class type) from the
 * outside: the class's parameters become the receiver's arguments (a `?`
 * there a fresh unknown, see tc_place_opaque), its type parameters the
 * receiver's type arguments (generic code only), and the member's `here`
 * becomes `here_to`. */
Subst *tc_subst_receiver(const Type *receiver, Place *here_to);

#endif
