/* record.h — what the checker saw, kept for tools: which declaration each
 * name of the source denotes, its type there, and which locals are in
 * scope at each point of a body.
 *
 * The language server (lsp/) answers "what is this?", "where is it
 * declared?" and "what could I write here?" from this record instead of
 * resolving names a second time: the checker already decides every one of
 * them, with its rules for shadowing, fields of `this`, built-ins and
 * places, and a second resolver would drift from it.  So the checker
 * calls a hook (check.h, tc_record_*) where it resolves a name, resolves
 * a written type, declares a local and starts or ends a statement; each
 * hook returns at once unless a record was started.  The compiler itself
 * never starts one.
 *
 * What is recorded:
 *   - refs: one per name the checker resolved (a use) or declared (a
 *     local's declaration), with the span of the name as written.  Member
 *     accesses `e.f`, `e.m(...)`, `e!m(...)` are recorded with the
 *     receiver's type even when the member is unknown (TC_REF_NONE), so
 *     that a tool can list what the receiver has.  Top-level declarations
 *     (functions, classes, fields, methods, pools) are in the AST already
 *     and are not recorded.
 *   - scope points: at the start of each block and the end of each
 *     statement, the locals visible there, as a chain from the innermost
 *     binding outward (shadowed ones included; the first of a name wins).
 *     Chains share their tails, so a body with n locals costs O(n).
 *     Points come in source order.
 *
 * Everything lives in the arena, like the AST it points into: it is valid
 * until arena_free_all.
 */
#ifndef MOSAIC_TC_RECORD_H
#define MOSAIC_TC_RECORD_H

#include "types.h"

typedef enum TcRefKind {
    TC_REF_NONE,        /* a member access whose member is unknown: receiver only */
    TC_REF_LOCAL,       /* a let/var binding, parameter or loop variable: sym */
    TC_REF_FIELD,       /* a field, of this (a bare name) or of a receiver: field */
    TC_REF_METHOD,      /* a method: func */
    TC_REF_FUNC,        /* a top-level function: func */
    TC_REF_CLASS,       /* a class named in a type or `new`: cls */
    TC_REF_POOL,        /* a pool, top-level or a `pool` statement's: pool */
    TC_REF_BUILTIN,     /* a built-in function or method: builtin (BuiltinId) */
    TC_REF_PROPERTY,    /* `length` of an array or string, `size` of a map or pool */
    TC_REF_THIS,        /* `this` */
} TcRefKind;

typedef struct TcRef {
    Loc span;           /* the name as written */
    TcRefKind kind;
    bool is_decl;       /* the declaration of a local (or local pool) */
    Type *type;         /* its type here (a member's read through the
                           receiver; a call's result); NULL if unknown */
    Type *receiver;     /* a member access's receiver type, else NULL */
    Sym *sym;
    FieldDecl *field;
    FuncDecl *func;
    ClassDecl *cls;
    PoolDecl *pool;
    int builtin;        /* TC_REF_BUILTIN: a BuiltinId */
} TcRef;

/* One visible local: a Sym, or a pool of a `pool` statement. */
typedef struct TcScopeLink {
    const char *name;
    Sym *sym;
    PoolDecl *pool;
    const struct TcScopeLink *next;     /* the binding below it */
} TcScopeLink;

typedef struct TcScopePoint {
    uint32_t offset;                    /* a byte offset of the checked file */
    const TcScopeLink *visible;         /* innermost first; NULL: none */
} TcScopePoint;

typedef struct TcRecord {
    VEC(TcRef) refs;                    /* in the order the checker met them */
    VEC(TcScopePoint) points;           /* in source order */
    VEC(const TcScopeLink *) chain;     /* record.c: the link of each binding
                                           on the checker's stack */
} TcRecord;

/* Records into *r (zeroed here) everything the checker sees from now on,
 * until tc_record_stop. */
void tc_record_start(TcRecord *r);
void tc_record_stop(void);

#endif
