/* ast.h — the abstract syntax tree of a Mosaic program.
 *
 * The parser builds it (through the ast_* constructors, so that bison rules
 * stay one line each); the checker resolves names and attaches types; the
 * code generator reads it.  Every node carries its source span.
 *
 * Contract between phases:
 *   - parser: fills every field not marked "checker:".  Identifiers are
 *     interned (compare with ==).  String literals are already decoded
 *     (escapes resolved, may contain NUL bytes, hence the explicit length).
 *   - checker (typecheck/): fills the fields marked "checker:" and only
 *     those; the tree's shape never changes.  After a successful check every
 *     Expr has a non-error `type`, every name is resolved, every binding has
 *     its Sym, and every FuncDecl knows its number of local slots.
 *   - codegen: reads only.
 *
 * Types, places and symbols are separate structures (typecheck/types.h)
 * that the checker attaches by pointer.  Nodes are tagged unions: one enum
 * of kinds, a union of per-kind payloads.
 */
#ifndef MOSAIC_AST_H
#define MOSAIC_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "../support/diag.h"
#include "../support/vec.h"

typedef struct Type Type;           /* typecheck/types.h */
typedef struct Sym Sym;             /* typecheck/types.h */
typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct TypeExpr TypeExpr;
typedef struct PlaceExpr PlaceExpr;
typedef struct FuncDecl FuncDecl;
typedef struct ClassDecl ClassDecl;
typedef struct FieldDecl FieldDecl;
typedef struct LayoutDecl LayoutDecl;
typedef struct PoolDecl PoolDecl;
typedef struct Subst Subst;         /* typecheck/places.h */

typedef VEC(Expr *) ExprVec;
typedef VEC(Stmt *) StmtVec;
typedef VEC(PlaceExpr *) PlaceVec;
typedef VEC(FuncDecl *) FuncVec;
typedef VEC(FieldDecl *) FieldVec;
typedef VEC(PoolDecl *) PoolVec;
typedef VEC(TypeExpr *) TypeExprVec;

/* An identifier with the span where it was written. */
typedef struct Name {
    const char *text;   /* interned */
    Loc loc;
} Name;
typedef VEC(Name) NameVec;

/* ---- places (LANGUAGE.md §5) ------------------------------------------ */

typedef enum PlaceKind {
    PLACE_HERE,     /* here */
    PLACE_NAME,     /* a place parameter, `home`, or a pool name */
    PLACE_NODE,     /* node(k) with a literal k */
    PLACE_UNKNOWN,  /* ? */
} PlaceKind;

struct PlaceExpr {
    PlaceKind kind;
    Loc loc;
    const char *name;   /* PLACE_NAME */
    int64_t node;       /* PLACE_NODE */
    Expr *node_expr;    /* PLACE_NODE written node(e) with a non-literal e
                           (only in `new A<node(e)>`, LANGUAGE.md §5);
                           NULL when k is a literal (then `node` holds it) */
    struct Place *resolved; /* checker: the place it denotes (places.h) */
};

/* ---- type expressions (as written; the checker turns them into Type) -- */

typedef enum TypeExprKind {
    TE_NAMED,   /* int, float, bool, string, C, C<p, ...> */
    TE_UNIT,    /* unit */
    TE_ARRAY,   /* [T] or [T]<p> */
    TE_FUT,     /* Fut<T> */
    TE_MAP,     /* Map<K, V> or Map<K, V><p> */
    TE_POOL,    /* pool C (parameter type only) */
} TypeExprKind;

struct TypeExpr {
    TypeExprKind kind;
    Loc loc;
    Name name;          /* TE_NAMED, TE_POOL: the type or class name */
    TypeExprVec targs;  /* TE_NAMED: type arguments `[T, ...]` (LANGUAGE.md §11) */
    bool has_targs;     /* a `[...]` list was written */
    PlaceVec places;    /* TE_NAMED: place arguments (empty if none written);
                           TE_ARRAY, TE_MAP: zero or one place */
    bool has_places;    /* a `<...>` list was written (even if empty) */
    TypeExpr *elem;     /* TE_ARRAY, TE_FUT; TE_MAP: the value type */
    TypeExpr *key;      /* TE_MAP: the key type */
    Type *resolved;     /* checker: the Type this denotes */
};

/* ---- expressions ------------------------------------------------------- */

typedef enum ExprKind {
    EX_INT,         /* 42, 0xff, 1_000 */
    EX_FLOAT,       /* 1.5, 2e10 */
    EX_STRING,      /* "text" (decoded) */
    EX_BOOL,        /* true, false */
    EX_NULL,        /* null */
    EX_THIS,        /* this */
    EX_HERE,        /* here, used as a value (refused: places are not values) */
    EX_NAME,        /* x: local, parameter, field of this, function, class, pool */
    EX_UNARY,       /* -e, not e */
    EX_BINARY,      /* e op e, including and/or (short-circuit) */
    EX_GET,         /* get e */
    EX_FIELD,       /* e.f (also a.length, s.length, P.size) */
    EX_CALL,        /* f(args): callee is usually an EX_NAME */
    EX_METHOD_CALL, /* e.m(args) */
    EX_SEND,        /* e!m(args) */
    EX_INDEX,       /* e[i] (arrays; P[i] on pools) */
    EX_NEW,         /* new C, new C(args), new C<p, ...>(args) */
    EX_NEW_ARRAY,   /* new [T](n) */
    EX_ARRAY_LIT,   /* [e, e, ...] */
    EX_NEW_MAP,     /* new Map<K, V> */
    EX_MAP_LIT,     /* {k: v, k: v, ...} or {} */
} ExprKind;

typedef enum UnaryOp {
    UN_NEG,     /* - */
    UN_NOT,     /* not */
} UnaryOp;

/* Binary operators, loosest first (LANGUAGE.md §3). */
typedef enum BinaryOp {
    BIN_OR, BIN_AND,
    BIN_EQ, BIN_NE, BIN_LT, BIN_LE, BIN_GT, BIN_GE,
    BIN_BITOR, BIN_BITXOR, BIN_BITAND,
    BIN_SHL, BIN_SHR,
    BIN_ADD, BIN_SUB,
    BIN_MUL, BIN_DIV, BIN_REM,
} BinaryOp;

/* What a name or a call resolved to (checker). */
typedef enum Resolution {
    RES_NONE,       /* not resolved (error, or not a name) */
    RES_LOCAL,      /* a let/var binding, parameter or loop variable: sym */
    RES_FIELD,      /* a field of this (bare name) or of a receiver: field */
    RES_FUNC,       /* a top-level function: func */
    RES_METHOD,     /* a method of this (bare call) or of a receiver: func */
    RES_BUILTIN,    /* a built-in function: builtin (typecheck/builtins.def) */
    RES_CONVERT,    /* int(x) or float(x): builtin */
    RES_ARRAY_LENGTH,   /* a.length */
    RES_MAP_SIZE,       /* m.size */
    RES_STRING_LENGTH,  /* s.length */
    RES_POOL_SIZE,      /* P.size */
    RES_POOL,       /* a pool name: pool */
} Resolution;

struct Expr {
    ExprKind kind;
    Loc loc;
    Type *type;             /* checker: the expression's type */
    uint32_t depth;         /* nesting depth of this expression tree (1 for
                               a leaf); the parser caps it at
                               AST_MAX_EXPR_DEPTH so that the recursive
                               phases after it stay within their stack */
    union {
        struct { uint64_t value; bool too_big; } int_lit;
                            /* too_big: the literal exceeds INT64_MAX; the
                               parser folds -9223372036854775808 into one
                               EX_INT and the checker reports the rest. */
        double float_lit;
        struct { const char *bytes; size_t len; } string_lit;
        bool bool_lit;
        struct {
            const char *text;   /* interned */
            Resolution res;     /* checker */
            Sym *sym;           /* checker: RES_LOCAL */
            FieldDecl *field;   /* checker: RES_FIELD (implicit this) */
            FuncDecl *func;     /* checker: RES_FUNC */
            PoolDecl *pool;     /* checker: RES_POOL */
        } name;
        struct { UnaryOp op; Expr *operand; } unary;
        struct { BinaryOp op; Expr *left, *right; } binary;
        struct { Expr *future; } get;
        struct {
            Expr *object;
            Name field;
            Resolution res;     /* checker: RES_FIELD, RES_*_LENGTH, RES_POOL_SIZE */
            FieldDecl *decl;    /* checker: RES_FIELD */
        } field;
        struct {
            Expr *callee;       /* EX_NAME for f(args); anything else is
                                   refused by the checker (E0206) */
            ExprVec args;
            Resolution res;     /* checker: RES_FUNC, RES_METHOD (bare call
                                   on this), RES_BUILTIN, RES_CONVERT */
            FuncDecl *func;     /* checker: RES_FUNC, RES_METHOD */
            int builtin;        /* checker: RES_BUILTIN/RES_CONVERT: a BuiltinId */
            Subst *subst;       /* checker: RES_FUNC, RES_METHOD: the callee's
                                   places in the caller's terms */
        } call;
        struct {
            Expr *object;       /* receiver */
            Name method;
            ExprVec args;
            FuncDecl *func;     /* checker: the method (NULL for a string's) */
            int builtin;        /* checker: a string method's BuiltinId, or -1 */
            Subst *subst;       /* checker: the method's places in the
                                   caller's terms (receiver, here, its own
                                   place parameters) */
        } method_call;          /* EX_METHOD_CALL and EX_SEND */
        struct { Expr *object, *index; } index;
        struct {
            TypeExpr *class_type;   /* TE_NAMED with optional places */
            ExprVec args;
            bool has_parens;        /* `new C` vs `new C()` */
            ClassDecl *cls;         /* checker */
            Subst *subst;           /* checker: the class's places (and init's
                                       here) in the caller's terms */
        } new_obj;
        struct { TypeExpr *elem; Expr *length; } new_array;
        struct { ExprVec elems; } array_lit;
        struct { TypeExpr *map_type; } new_map;                 /* a TE_MAP */
        struct { ExprVec keys; ExprVec values; } map_lit;       /* as many of each */
    } u;
};

/* ---- statements -------------------------------------------------------- */

typedef enum StmtKind {
    ST_LET,         /* let x[: T] = e   /  var x[: T] [= e] */
    ST_ASSIGN,      /* target = e, target op= e */
    ST_EXPR,        /* e */
    ST_IF,          /* if c { } [else if ... | else { }] */
    ST_WHILE,       /* while c { } */
    ST_FOR_RANGE,   /* for i in a..b { } */
    ST_FOR_IN,      /* for x in e { }   (array or pool) */
    ST_BREAK,       /* break */
    ST_CONTINUE,    /* continue */
    ST_RETURN,      /* return [e] */
    ST_BLOCK,       /* { ... } */
    ST_POOL,        /* pool p: C layout L, q: ...   (local pools) */
} StmtKind;

struct Stmt {
    StmtKind kind;
    Loc loc;
    union {
        struct {
            Name name;
            bool is_var;        /* var (mutable) vs let */
            TypeExpr *type;     /* NULL if omitted */
            Expr *init;         /* NULL only for `var x: T` */
            Sym *sym;           /* checker */
        } let;
        struct {
            Expr *target;       /* EX_NAME, EX_FIELD or EX_INDEX */
            bool compound;      /* op= form */
            BinaryOp op;        /* compound: BIN_ADD .. BIN_REM */
            Expr *value;
        } assign;
        struct { Expr *expr; } expr;
        struct { Expr *cond; Stmt *then_block; Stmt *else_stmt; /* ST_BLOCK, ST_IF or NULL */ } if_;
        struct { Expr *cond; Stmt *body; } while_;
        struct {
            Name var;
            Expr *from, *to;
            Stmt *body;
            Sym *sym;           /* checker: the loop variable */
            Sym *limit_sym;     /* checker: hidden slot holding `to` */
        } for_range;
        struct {
            Name var;
            Expr *iterable;
            Stmt *body;
            Sym *sym;           /* checker: the loop variable */
            Sym *iter_sym;      /* checker: hidden slot holding the array */
            Sym *index_sym;     /* checker: hidden slot holding the index */
        } for_in;
        struct { Expr *value; /* NULL for bare return */ } ret;
        struct { StmtVec stmts; Loc close; /* the closing brace */ } block;
        struct { PoolVec pools; } pool;
    } u;
};

/* ---- declarations ------------------------------------------------------ */

typedef struct Param {
    Name name;
    TypeExpr *type;
    Sym *sym;               /* checker */
} Param;
typedef VEC(Param *) ParamVec;

/* The clauses of a declared effect. */
typedef enum EffectClause {
    EFFECT_LOCAL,   /* local */
    EFFECT_READS,   /* reads(p, ...) */
    EFFECT_WRITES,  /* writes(p, ...) */
    EFFECT_SENDS,   /* sends(p, ...) */
} EffectClause;

/* Declared effects: `local`, or any of reads(...) writes(...) sends(...). */
typedef struct EffectDecl {
    Loc loc;
    bool is_local;
    PlaceVec reads, writes, sends;
} EffectDecl;

/* What the checker attaches to a declaration with type parameters
 * (LANGUAGE.md §11, typecheck/generics.h): the generic itself, or one of
 * its instances. */
typedef struct Generic Generic;

struct FuncDecl {
    Loc loc;                /* the whole declaration */
    Name name;
    NameVec type_params;    /* def f[T, U](...) */
    Generic *generic;       /* checker: set for a generic function or method
                               and for each of its instances */
    NameVec place_params;   /* def f<p, q>(...) */
    ParamVec params;
    TypeExpr *result;       /* NULL: unit */
    EffectDecl *effects;    /* NULL: not declared */
    Stmt *body;             /* ST_BLOCK; body->u.block.close is the closing } */
    ClassDecl *owner;       /* the class of a method, NULL for a function */
    int nlocals;            /* checker: number of local slots (Sym.slot) */
    Type *result_type;      /* checker */
};

struct FieldDecl {
    Loc loc;
    Name name;
    bool is_var;            /* var vs val */
    TypeExpr *type;
    Expr *init;             /* NULL: default value */
    ClassDecl *owner;
    int index;              /* position among the class's fields, from 0 */
    Type *field_type;       /* checker */
};

struct ClassDecl {
    Loc loc;
    Name name;              /* an instance's is its generic's with the type
                               arguments: "Stack[int]" */
    bool is_active;
    NameVec type_params;    /* class C[T, U] */
    Generic *generic;       /* checker: set for a generic class and for each
                               of its instances */
    NameVec place_params;   /* empty: the implicit single parameter `home` */
    bool has_place_params;  /* `<...>` was written */
    FieldVec fields;        /* in declaration order */
    FuncVec methods;        /* in declaration order; init is among them */
    FuncDecl *init;         /* checker: the init method or NULL */
};

/* rec{f, g} — one cluster of a layout. */
typedef struct Cluster {
    Loc loc;
    NameVec fields;
} Cluster;
typedef VEC(Cluster *) ClusterVec;

/* A layout as written: a name (aos, soa, a declared layout) or clusters. */
typedef struct LayoutSpec {
    Loc loc;
    Name name;              /* .text NULL when clusters are given */
    ClusterVec clusters;
} LayoutSpec;

struct LayoutDecl {
    Loc loc;
    Name name;
    Name class_name;
    LayoutSpec *spec;
};

struct PoolDecl {
    Loc loc;
    Name name;
    TypeExpr *type;         /* C or C<P, ...> */
    LayoutSpec *layout;     /* NULL: aos */
    PlaceExpr *on;          /* NULL: default node */
    bool is_local;          /* declared by a statement */
};

typedef enum DeclKind {
    DECL_FUNC,      /* def f(...) */
    DECL_CLASS,     /* class C / active class A */
    DECL_LAYOUT,    /* layout L: C = ... */
    DECL_POOL,      /* pool p: C layout L on node(0) */
} DeclKind;

typedef struct Decl {
    DeclKind kind;
    union {
        FuncDecl *func;
        ClassDecl *cls;
        LayoutDecl *layout;
        PoolDecl *pool;
    } u;
} Decl;
typedef VEC(Decl *) DeclVec;

/* A whole program: one source file. */
typedef struct Program {
    uint32_t file;
    DeclVec decls;          /* in source order */
} Program;

/* ---- constructors (parser/ast.c), one per node form -------------------- */

/* Deepest expression tree the parser builds.  A longer chain (say 200,000
 * terms of `x + x + ...`) is refused with E0002, once per file, instead of
 * overflowing the checker's or code generator's stack; the driver runs the
 * phases on a thread whose stack holds this depth with room to spare. */
#define AST_MAX_EXPR_DEPTH 100000

Expr *ast_int(Loc loc, uint64_t value, bool too_big);
Expr *ast_float(Loc loc, double value);
Expr *ast_string(Loc loc, const char *bytes, size_t len);
Expr *ast_bool(Loc loc, bool value);
Expr *ast_null(Loc loc);
Expr *ast_this(Loc loc);
Expr *ast_here(Loc loc);
Expr *ast_name(Loc loc, const char *text);
Expr *ast_unary(Loc loc, UnaryOp op, Expr *operand);   /* folds -INT64_MIN literal */
Expr *ast_binary(Loc loc, BinaryOp op, Expr *left, Expr *right);
Expr *ast_get(Loc loc, Expr *future);
Expr *ast_field(Loc loc, Expr *object, Name field);
Expr *ast_call(Loc loc, Expr *callee, ExprVec args);   /* callee e.f → EX_METHOD_CALL */
Expr *ast_send(Loc loc, Expr *object, Name method, ExprVec args);
Expr *ast_index(Loc loc, Expr *object, Expr *index);
Expr *ast_new(Loc loc, TypeExpr *class_type, ExprVec args, bool has_parens);
Expr *ast_new_array(Loc loc, TypeExpr *elem, Expr *length);
Expr *ast_array_lit(Loc loc, ExprVec elems);
Expr *ast_new_map(Loc loc, TypeExpr *map_type);
Expr *ast_map_lit(Loc loc, ExprVec keys, ExprVec values);

Stmt *ast_let(Loc loc, Name name, bool is_var, TypeExpr *type, Expr *init);
Stmt *ast_assign(Loc loc, Expr *target, bool compound, BinaryOp op, Expr *value);
Stmt *ast_expr_stmt(Loc loc, Expr *expr);
Stmt *ast_if(Loc loc, Expr *cond, Stmt *then_block, Stmt *else_stmt);
Stmt *ast_while(Loc loc, Expr *cond, Stmt *body);
Stmt *ast_for_range(Loc loc, Name var, Expr *from, Expr *to, Stmt *body);
Stmt *ast_for_in(Loc loc, Name var, Expr *iterable, Stmt *body);
Stmt *ast_break(Loc loc);
Stmt *ast_continue(Loc loc);
Stmt *ast_return(Loc loc, Expr *value);
Stmt *ast_block(Loc loc, StmtVec stmts, Loc close);
Stmt *ast_pool_stmt(Loc loc, PoolVec pools);

TypeExpr *ast_type_named(Loc loc, Name name, PlaceVec places, bool has_places);
/* The same with type arguments `C[T, ...]` written after the name. */
TypeExpr *ast_type_generic(Loc loc, Name name, TypeExprVec targs, PlaceVec places,
                           bool has_places);
TypeExpr *ast_type_unit(Loc loc);
TypeExpr *ast_type_array(Loc loc, TypeExpr *elem, PlaceExpr *place /* or NULL */);
TypeExpr *ast_type_fut(Loc loc, TypeExpr *elem);
TypeExpr *ast_type_map(Loc loc, TypeExpr *key, TypeExpr *value, PlaceExpr *place /* or NULL */);
TypeExpr *ast_type_pool(Loc loc, Name class_name);

PlaceExpr *ast_place(Loc loc, PlaceKind kind, const char *name, int64_t node);

/* Names of operators and kinds, for messages and the AST printer. */
const char *ast_binary_op_text(BinaryOp op);    /* "+", "and", ... */
const char *ast_unary_op_text(UnaryOp op);      /* "-", "not" */

/* A walk over a body for passes that only look (parser/ast_walk.c): `expr`
 * and `stmt` are called before a node's children, which are visited (in
 * evaluation order) only when they return true, `expr_after` after them;
 * any may be NULL; `ctx` is the pass's own. */
typedef struct AstWalk AstWalk;
struct AstWalk {
    bool (*expr)(AstWalk *w, Expr *e);
    void (*expr_after)(AstWalk *w, Expr *e);
    bool (*stmt)(AstWalk *w, Stmt *s);
    void *ctx;
};
void ast_walk_expr(AstWalk *w, Expr *e);
void ast_walk_stmt(AstWalk *w, Stmt *s);

/* A fresh copy of a class or function with every "checker:" field
 * cleared (parser/ast_clone.c): the body an instance of a generic
 * declaration is checked and compiled from.  Locations are kept, so that
 * the instance's code points at the generic's source. */
ClassDecl *ast_clone_class(const ClassDecl *cls);
FuncDecl *ast_clone_func(const FuncDecl *f, ClassDecl *owner);

/* Prints the tree as an S-expression (for `mosaicc --dump-ast` and tests). */
void ast_print(FILE *out, const Program *program);

#endif
