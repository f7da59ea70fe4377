/* check.h — the checker's internal interface, shared by the files of
 * typecheck/.
 *
 * The checker is split by construct: types.c (the Type values), scope.c
 * (top-level names, local scopes, symbols), check_type.c (type
 * expressions), check_decl.c (the program, classes, functions, main),
 * check_stmt.c (statements), check_expr.c (expressions and operators),
 * check_call.c (calls, methods, `new`, built-ins), flow.c (can a statement
 * complete normally, for E0204), record.c (what tools are told, record.h);
 * places.c holds the place terms and substitution they all use.  They
 * share one Checker: the state of the walk (enclosing class and function,
 * scopes, loop depth) plus the program's top-level names.  Nothing here is
 * visible outside typecheck/; the rest of the compiler sees only types.h
 * (and tools record.h).
 *
 * Conventions inside the checker:
 *   - Every tc_expr call sets e->type and returns it; a construct already
 *     reported yields ty_error, and every rule accepts ty_error silently, so
 *     one mistake gives one message.
 *   - tc_value is tc_expr for places that need a value: a `unit` result
 *     there is reported (E0200) and turned into ty_error.
 *   - `expected` (may be NULL) is the type the context wants; it only
 *     guides inference (an empty `[]`), it never reports by itself.
 */
#ifndef MOSAIC_TC_CHECK_H
#define MOSAIC_TC_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include "types.h"
#include "layouts.h"
#include "generics.h"

/* What a top-level name denotes: functions, classes, pools and layouts
 * share one namespace (a duplicate is E0102); only the first declaration
 * of a name is entered. */
typedef struct TopEntry {
    FuncDecl *func;
    ClassDecl *cls;
    PoolDecl *pool;
    LayoutDecl *layout;
} TopEntry;

/* Open-addressing map from interned names (compared by pointer). */
typedef struct NameMap {
    const char **keys;
    void **values;
    size_t cap, len;
} NameMap;

/* A local name: a Sym, or a pool declared by a `pool` statement. */
typedef struct Binding {
    const char *name;
    Sym *sym;
    PoolDecl *pool;
    Loc loc;
    size_t shadowed;        /* scope.c: 1 + the binding this one hides, or 0 */
} Binding;

typedef struct Checker {
    Program *program;
    NameMap top;            /* name -> TopEntry (functions, classes, pools) */
    VEC(const char *) top_names;    /* for did-you-mean, in source order */

    ClassDecl *cls;         /* enclosing class (method or field initialiser) */
    FuncDecl *func;         /* enclosing function or method; NULL in field
                               initialisers */
    FuncDecl *main_func;    /* the program's main, where `here` is node(0) */
    const TcLayoutOverride *layout_overrides;  /* --layout NAME=SPEC, layout files */
    size_t noverrides;
    bool in_field_type;     /* resolving a field's type (`here` refused) */
    bool in_param_type;     /* resolving a parameter's type (`pool C` allowed) */
    bool refused_fut_class; /* the program declares `class Fut` or `class Map` (E0102) */
    Type *result;           /* result type of `func` */
    int nlocals;            /* slots allocated so far in `func` */
    int loop_depth;         /* enclosing while/for loops, for break/continue */

    VEC(Binding) bindings;  /* every visible local, innermost last */
    NameMap visible;        /* name -> 1 + index of its innermost binding */
    VEC(size_t) marks;      /* bindings.len at each open scope */

    /* Interned names the rules compare against. */
    const char *s_int, *s_float, *s_bool, *s_string, *s_fut;
    const char *s_length, *s_init, *s_main, *s_home, *s_here, *s_aos, *s_soa, *s_size, *s_map;
    const char *builtin_names[BI_COUNT];
} Checker;

/* The module tables tc_reset forgets. */
void tc_places_reset(void);
void tc_layouts_reset(void);
void tc_scope_reset(void);

/* ---- scope.c ------------------------------------------------------------ */
void tc_map_put(NameMap *m, const char *key, void *value);
void *tc_map_get(const NameMap *m, const char *key);
TopEntry *tc_top(Checker *c, const char *name);     /* NULL if none */

void tc_scope_push(Checker *c);
void tc_scope_pop(Checker *c);
/* Closes every scope (the start of a new function's walk). */
void tc_scopes_clear(Checker *c);
Binding *tc_lookup_local(Checker *c, const char *name);
/* Declares a name in the innermost scope; a redeclaration in the same
 * scope is E0102 (`what` names the kind in the message: "parameter",
 * "variable"...).  The new binding hides the old one either way. */
void tc_declare(Checker *c, Binding b, const char *what);
/* A new local slot of the current function. */
Sym *tc_new_sym(Checker *c, SymKind kind, const char *name, Loc loc, Type *type);

FieldDecl *tc_find_field(const ClassDecl *cls, const char *name);
FuncDecl *tc_find_method(const ClassDecl *cls, const char *name);
/* The built-in of that kind and name (builtins.def), or -1. */
int tc_find_builtin(const Checker *c, const char *name, BuiltinKind kind);

/* Emits "did you mean 'x'?" if one of the candidates is close to `name`,
 * written at `where`: the suggestion replaces the text there by 'x'. */
typedef VEC(const char *) NameList;
void tc_suggest(const char *name, Loc where, const NameList *candidates);
/* The same, with the note at the suggestion's declaration: a local, a
 * member of cls (or NULL), a top-level function or class. */
void tc_suggest_in(Checker *c, const ClassDecl *cls, const char *name, Loc where,
                   const NameList *candidates);
void tc_add_local_names(Checker *c, NameList *out);
void tc_add_field_names(const ClassDecl *cls, NameList *out);
void tc_add_method_names(const ClassDecl *cls, NameList *out);
/* The top-level names of one kind (or of every kind). */
typedef enum { TOP_ANY, TOP_CLASSES, TOP_FUNCTIONS, TOP_LAYOUTS } TopKind;
void tc_add_top_names(Checker *c, TopKind kind, NameList *out);

/* ---- check_type.c ------------------------------------------------------- */
/* Resolves a written type, sets te->resolved and returns it.  With
 * report == false nothing is printed (the declaration pass resolves
 * signatures early and silently; the same TypeExpr is resolved again, with
 * reports, when its declaration is checked in source order). */
Type *tc_resolve_type(Checker *c, TypeExpr *te, bool report);
/* The place a written place term denotes in the current code (E0301 for
 * an unknown name, reported only when `report`). */
Place *tc_resolve_place(Checker *c, PlaceExpr *pe, bool report);
/* Is name a place parameter (or `home`) in the current code? */
bool tc_names_place_param(const Checker *c, const char *name);
/* `here` of the current code, normalised (places.h). */
Place *tc_here(const Checker *c);
/* Where a type or allocation without places is (LANGUAGE.md §5). */
Place *tc_default_place(const Checker *c);
/* The class of a `pool C` parameter's objects (te a TE_POOL): C, or the
 * instance `pool C[T, ...]` names; NULL if unknown or wrong. */
ClassDecl *tc_pool_param_class(Checker *c, TypeExpr *te, bool report);
/* cls at the places written in te (a TE_NAMED naming cls), or at the
 * default place when te writes none (E0301 for a wrong count). */
Type *ty_class_at(Checker *c, ClassDecl *cls, TypeExpr *te, bool report);

/* ---- layouts.c ------------------------------------------------------------ */
struct TcLayout *tc_layout_of_decl(Checker *c, LayoutDecl *ld);
void tc_check_layout_decl(Checker *c, LayoutDecl *ld);
/* Makes the TcPool and place of a pool declaration (collect, or a `pool`
 * statement), then resolves it (type, node, layout; E0400, E0401). */
void tc_declare_pool(Checker *c, PoolDecl *pd);
void tc_check_pool(Checker *c, PoolDecl *pd, bool report);
/* Reads the --layout overrides (E0402 for a bad one); before any pool or
 * layout is resolved. */
void tc_apply_layout_overrides(Checker *c, const TcLayoutOverride *overrides, size_t n);

/* ---- check_decl.c ------------------------------------------------------- */
/* A parameter's type for its uses: ty_error if it could not be resolved or
 * is `unit` (both reported at the parameter). */
Type *tc_param_type(const Param *p);

/* Instances (generics.c): their signatures, resolved silently as soon as
 * they are made, and their bodies, checked once the generic code has been. */
void tc_resolve_class_signatures(Checker *c, ClassDecl *k);
void tc_resolve_func_signature(Checker *c, FuncDecl *f);
void tc_check_instance_class(Checker *c, ClassDecl *k);
void tc_check_instance_func(Checker *c, FuncDecl *f);

/* ---- generics.c ----------------------------------------------------------- */
/* Around one program's check: instances are made with c. */
void tc_generics_begin(Checker *c);
void tc_generics_end(void);
/* Gives a generic declaration (and a class's generic methods) its type
 * parameters; nothing for the others. */
void tc_generic_declare_class(ClassDecl *k);
void tc_generic_declare_func(FuncDecl *f);
/* The type a type parameter `name` in scope stands for (the function's
 * or method's own, then its class's): a TY_PARAM in generic code, the
 * type argument in an instance; NULL if none is named so. */
Type *tc_type_param_named(const Checker *c, const char *name);
/* Generic class k at `places` applied to `args` (tc_generic_apply), an
 * instance made at `where`; ty_error after E0104 for runaway
 * instantiation. */
Type *tc_generic_apply_at(Checker *c, ClassDecl *k, Place **places, uint32_t nplaces,
                          Type **args, uint32_t nargs, Loc where);
/* The instance of generic function or method f at args (NULL after
 * E0104 for runaway instantiation). */
FuncDecl *tc_instantiate_func(Checker *c, FuncDecl *f, Type **args, Loc where);
/* Binds the parameters of g that `want` (a parameter's type) mentions to
 * what `got` (the argument's type) has in their position. */
void tc_infer_type_args(const Generic *g, const Type *want, Type *got, Subst *s);
/* Does t mention a parameter of g that s does not bind yet? */
bool tc_mentions_unbound(const Generic *g, const Type *t, const Subst *s);
/* Checks the bodies of the instances made so far, and of those they make,
 * muted; reports the first error found only there (a checker bug) when
 * the program had no other since `program_errors_before`. */
void tc_check_instances(Checker *c, int program_errors_before);

/* ---- check_stmt.c ------------------------------------------------------- */
/* Checks the statements of a block in the current scope (the caller
 * decides whether the block opens one: a function body shares the scope of
 * its parameters). */
void tc_check_block_stmts(Checker *c, Stmt *block);
void tc_check_stmt(Checker *c, Stmt *s);

/* ---- check_expr.c ------------------------------------------------------- */
Type *tc_expr(Checker *c, Expr *e, Type *expected);
Type *tc_value(Checker *c, Expr *e, Type *expected);
/* A bare name (EX_NAME) as a value, or as the target of an assignment
 * (`assign`: the messages for functions and classes say so). */
Type *tc_name(Checker *c, Expr *e, bool assign);
/* Checks e (as a value) against `want`: E0200 "type mismatch" if it is not
 * assignable.  Returns false only after reporting that mismatch. */
bool tc_expect(Checker *c, Expr *e, Type *want);
/* Reports that e, of type `got`, does not fit `want`: E0300 when the two
 * differ only in places, else E0200. */
void tc_report_mismatch(Checker *c, Expr *e, Type *got, Type *want);
/* The same for the value of assignment `assign`: a place mismatch is then
 * reported at the whole assignment, with a note at the target's
 * declaration, as LANGUAGE.md §7's example shows it. */
void tc_report_mismatch_at(Checker *c, Expr *e, Type *got, Type *want, const Stmt *assign);
/* A binary operator on two checked operand types (shared with compound
 * assignment): the result, or ty_error after an E0202 at `loc`. */
Type *tc_binary_type(BinaryOp op, Type *l, Type *r, Loc loc);
/* Is `object`, of type `t`, an actor whose fields and methods the current
 * code may not touch directly?  Every actor is, except `this` (LANGUAGE.md
 * §4: only an actor's own code, `this.f`, `this.m()` and bare names, may). */
bool tc_foreign_actor(const Expr *object, const Type *t);
/* The source text of `loc` if it is short and on one line (for messages
 * that quote the user's code), else NULL. */
const char *tc_snippet(Loc loc);

/* ---- check_call.c ------------------------------------------------------- */
Type *tc_call(Checker *c, Expr *e);         /* EX_CALL */
Type *tc_method_call(Checker *c, Expr *e);  /* EX_METHOD_CALL */
Type *tc_send(Checker *c, Expr *e);         /* EX_SEND */
Type *tc_new(Checker *c, Expr *e);          /* EX_NEW */
/* Checks a list of arguments against a function's parameters (E0201 count,
 * E0200/E0300 each), read through `s` (tc_subst_receiver), which this
 * extends with f's own place parameters inferred from the arguments
 * (E0301 when one cannot be); `what` names the callee in messages ("'f'",
 * "method 'm'"). */
/* A generic f's type parameters are inferred the same way (E0104 when
 * one cannot be); the result is the function the call calls: f, or the
 * instance of generic f at the inferred types. */
FuncDecl *tc_check_args(Checker *c, FuncDecl *f, ExprVec *args, Loc call_loc,
                        const char *what, Subst *s);

/* ---- flow.c ------------------------------------------------------------- */
bool tc_can_complete(const Stmt *s);
/* Can control reach the statement after s in its block?  (flow.c: as
 * tc_can_complete, with break and continue leaving too.) */
bool tc_falls_through(const Stmt *s);

/* ---- record.c: what tools are told (record.h) ----------------------------- */
/* Each returns at once unless a record was started (tc_record_start). */
void tc_record_expr(Checker *c, const Expr *e);     /* e, just checked */
void tc_record_type(const TypeExpr *te);            /* te, resolved with reports */
void tc_record_binding(Checker *c);                 /* the local just declared */
void tc_record_point(Checker *c, uint32_t offset);  /* the locals visible there */

#endif
