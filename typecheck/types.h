/* types.h — the semantic structures the checker attaches to the AST.
 *
 * Type: what an expression, binding or field is.  Types are interned for
 * the simple kinds (one shared object each: compare kinds, not pointers,
 * for class types compare the ClassDecl).  TY_ERROR is the type of an
 * expression already reported as wrong: every rule accepts it silently,
 * which is how one mistake yields one message.
 *
 * Sym: one local binding (let/var, parameter, loop variable, or a hidden
 * slot the checker creates for a loop).  Each function or method numbers
 * its Syms 0..nlocals-1 (`slot`); code generation gives each slot one
 * stack cell.
 *
 * Places (LANGUAGE.md §5, places.h) are part of class and array types: a
 * class type carries one place per place parameter of its class (its home
 * first), an array type the one place the array lives at.  ty_equal
 * compares them; ty_same_shape ignores them, which is how the checker
 * tells a place mismatch (E0300) from a type mismatch (E0200).
 */
#ifndef MOSAIC_TYPES_H
#define MOSAIC_TYPES_H

#include <stdbool.h>
#include "../parser/ast.h"
#include "places.h"

typedef enum TypeKind {
    TY_ERROR,   /* already reported; accepted everywhere silently */
    TY_UNIT,
    TY_INT,
    TY_FLOAT,
    TY_BOOL,
    TY_STRING,
    TY_NULL,    /* the type of `null`; converts to any reference type */
    TY_CLASS,   /* reference to an object (or actor) of class `cls` */
    TY_ARRAY,   /* reference to an array of `elem` */
    TY_FUT,     /* Fut<elem> */
    TY_POOL,    /* a pool of `cls` (parameters of type `pool C`) */
    TY_MAP,     /* reference to a map from `key` to `elem` (LANGUAGE.md §9) */
    TY_PARAM,   /* a type parameter of a generic declaration, inside it
                   (LANGUAGE.md §11): opaque, one object per parameter */
} TypeKind;

struct Type {
    TypeKind kind;
    ClassDecl *cls;     /* TY_CLASS, TY_POOL */
    Type *elem;         /* TY_ARRAY, TY_FUT; TY_MAP: the value type */
    Type *key;          /* TY_MAP: int, string or bool */
    Place **places;     /* TY_CLASS: one per place parameter of cls (home
                           first); TY_ARRAY, TY_MAP: places[0], where it lives;
                           TY_POOL: places[0], the pool itself */
    uint32_t nplaces;
    Type **targs;       /* TY_CLASS or TY_POOL of a generic class inside
                           generic code, where some argument is a type
                           parameter (`Node[T]`, `pool Cell[T]`): the type
                           arguments; NULL for every other class or pool
                           type (an instance such as `Node[int]` is a class
                           of its own, generics.h) */
    uint32_t ntargs;
    const char *param_name; /* TY_PARAM: as written */
    Generic *param_of;  /* TY_PARAM: the generic declaration it belongs to */
    uint32_t param_index;   /* TY_PARAM: its position among them */
};

extern Type *const ty_error, *const ty_unit, *const ty_int, *const ty_float,
    *const ty_bool, *const ty_string, *const ty_null;
Type *ty_class(ClassDecl *cls, Place **places, uint32_t nplaces);
/* A generic class applied to arguments among which is a type parameter. */
Type *ty_class_applied(ClassDecl *cls, Place **places, uint32_t nplaces, Type **targs,
                       uint32_t ntargs);
Type *ty_param(const char *name, Generic *of, uint32_t index);
/* Does t mention a type parameter (so that it is only ever seen inside
 * generic code)? */
bool ty_is_open(const Type *t);
Type *ty_array(Type *elem, Place *place);
Type *ty_fut(Type *elem);
Type *ty_map(Type *key, Type *value, Place *place);
/* The key types of maps (LANGUAGE.md §9): int, string and bool. */
bool ty_is_map_key(const Type *t);
/* A pool of cls that is the place `at` (a pool or a `pool C` parameter). */
Type *ty_pool(ClassDecl *cls, Place *at);
/* A pool of a generic class applied to arguments among which is a type
 * parameter (`pool Cell[T]`, in generic code). */
Type *ty_pool_applied(ClassDecl *cls, Place *at, Type **targs, uint32_t ntargs);

/* Same type (structurally, places included). */
bool ty_equal(const Type *a, const Type *b);
/* Same type once places are ignored. */
bool ty_same_shape(const Type *a, const Type *b);
/* Can a value of type `from` be stored where `to` is expected?  Equal,
 * null into a reference type, error into anything, and a class or array
 * type into the same type with `?` where it has a place known to be a node
 * (LANGUAGE.md §5; element, key and value types stay invariant). */
bool ty_assignable(const Type *from, const Type *to);
/* The type of `this` inside cls: cls at its own place parameters. */
Type *tc_this_type(ClassDecl *cls);
/* The home of a class type or the place of an array or map type; NULL
 * otherwise. */
Place *ty_home(const Type *t);
/* A reference type (may hold null): class, array, map, future. */
bool ty_is_reference(const Type *t);
/* The type as written in messages, without places: "int", "[string]",
 * "Counter", "Fut<int>". */
const char *ty_name(const Type *t);
/* The type with its places: "Counter<node(1)>", "[int]<n>", "Fut<A<?>>". */
const char *ty_show(const Type *t);

typedef enum SymKind {
    SYM_LET,        /* let x = e (immutable) */
    SYM_VAR,        /* var x = e (mutable) */
    SYM_PARAM,      /* function or method parameter (immutable) */
    SYM_LOOP,       /* for-loop variable (immutable) */
    SYM_HIDDEN,     /* a slot the checker made for a loop's bookkeeping */
} SymKind;

struct Sym {
    SymKind kind;
    const char *name;   /* interned */
    Loc loc;            /* where it was declared */
    Type *type;
    int slot;           /* index within its function: 0..nlocals-1 */
    bool never_null;    /* the variable of `for o in P`: one of P's objects */
};

/* The built-in functions and string methods, from builtins.def. */
typedef enum BuiltinId {
#define BUILTIN(id, name, sig, lowering, effect) id,
#define STRING_METHOD(id, name, sig, lowering, effect) id,
#define ARRAY_METHOD(id, name, sig, lowering, effect) id,
#define MAP_METHOD(id, name, sig, lowering, effect) id,
#include "builtins.def"
#undef BUILTIN
#undef STRING_METHOD
#undef ARRAY_METHOD
#undef MAP_METHOD
    BI_COUNT
} BuiltinId;

typedef enum BuiltinKind {
    BK_FUNCTION,        /* name(args) */
    BK_STRING_METHOD,   /* s.name(args) */
    BK_ARRAY_METHOD,    /* xs.name(args) */
    BK_MAP_METHOD,      /* m.name(args) */
} BuiltinKind;

typedef enum BuiltinEffect {
    BE_NONE,
    BE_R_ARG0,      /* reads the place of the first argument (or receiver) */
    BE_W_ARG0,      /* writes it */
    BE_RW_ARG0,     /* reads and writes it */
} BuiltinEffect;

/* What the checker reads of a built-in's entry (builtins.def explains
 * the signature letters); codegen reads the lowering column itself. */
typedef struct BuiltinSpec {
    const char *name;
    const char *sig;
    BuiltinKind kind;
    BuiltinEffect effect;
} BuiltinSpec;

extern const BuiltinSpec tc_builtins[BI_COUNT];
/* The result letter of a signature (after its `>`). */
const char *tc_builtin_result(const char *sig);
/* A built-in's signature in words, as the checker's notes and the
 * language server's hovers show it: "built-in 'min' takes (int or float,
 * int or float) and returns 'int or float'"; with the receiver's types
 * for a method when `receiver` is given (may be NULL). */
const char *tc_builtin_signature(int bi, const Type *receiver);

/* One layout override (LANGUAGE.md §6's `--layout NAME=SPEC`): its text
 * "NAME=SPEC", and for one read from a layout file (--layout-file) where
 * it is, so that its errors point there. */
typedef struct TcLayoutOverride {
    const char *text;       /* NAME=SPEC */
    Loc at;                 /* NAME in the layout file; LOC_NONE for a flag */
    uint32_t spec_offset;   /* with `at`: the file offset of SPEC's first byte */
    const char *origin;     /* with `at`: "FILE:LINE", for the --layouts report */
} TcLayoutOverride;

/* Checks the whole program: names, types, places, classes, layouts and
 * pools, main.  `overrides` are the `--layout NAME=SPEC` flags and the
 * lines of layout files, in the order given (E0402 for a bad one; a flag
 * without '=' is the driver's to report; a later override of a name wins).
 * Reports every error through diag; returns true when there were none
 * (the program may then be compiled).  Fills the "checker:" fields of the
 * AST. */
bool tc_check_program(Program *program, const TcLayoutOverride *overrides,
                      size_t noverrides);
/* The warnings of warn.c (docs/warnings.md), for a checked program
 * without errors, reported through diag_warning. */
void tc_warn_program(const Program *program);

/* Forgets the checker's tables (places, layouts and pools, class members),
 * whose memory is the arena's: before another program is checked in the
 * same process (the fuzzer). */
void tc_reset(void);

/* The program's entry point after a successful check. */
FuncDecl *tc_main_function(const Program *program);

#endif
