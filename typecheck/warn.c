/* warn.c — the warnings (docs/warnings.md), for a program without errors.
 *
 * An error says the program is wrong; a warning says it is legal but
 * probably not what was meant.  Each has a W code of errors.def and a
 * name for -Wno-NAME and -Werror=NAME (diag.c):
 *
 *   W0001 unused-variable      a let, var or loop variable never read
 *                              (one that is only assigned says so);
 *   W0002 unused-parameter     a parameter never read;
 *   W0003 unused-function      a function that no other function calls;
 *   W0004 unreachable-code     a statement after return, break or
 *                              continue, or after an if whose branches
 *                              all leave, in the same block;
 *   W0005 unused-get           `get f` as a statement, when the reply has
 *                              a value: the value is dropped;
 *   W0006 constant-comparison  a comparison whose result does not depend
 *                              on the run: both sides the same variable
 *                              (not a float: x != x is the test for NaN),
 *                              or a length against 0.  Two literals are
 *                              left alone: `if 1 > 2` is a deliberate way
 *                              to switch code off, and examples print
 *                              `1 < 2` to show what it is.
 *
 * A name that starts with '_' asks for no W0001, W0002 or W0003: the
 * usual way to say "unused on purpose".
 *
 * The driver runs this only when the program has no errors: a warning
 * beside an error is mostly noise (the unused variable is often the one
 * whose use has the error), and so compile-fail tests and users see each
 * error alone.  The warnings are found first and reported after, sorted
 * by place, so that the output reads top to bottom.
 *
 * Every function body is walked once (AstWalk), with a mark per local
 * slot (Sym.slot) for "read" and "assigned".
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "../support/arena.h"
#include "../support/diag.h"

typedef struct Warning {
    Loc loc;
    DiagCode code;
    char message[160];
    Loc note_at;            /* LOC_NONE: no note with a place */
    char note[160];         /* "" for none */
    Loc rename;             /* where `_name` would go; LOC_NONE: nothing to rename */
    const char *name;
} Warning;

typedef VEC(Warning) WarningVec;

typedef struct Walk {
    WarningVec *out;
    const FuncDecl *fn;
    bool *read, *assigned;  /* by Sym.slot */
    VEC(const Sym *) declared;  /* the variables the body declares, for W0001 */
    bool *called;           /* by index into `funcs` */
    const FuncDecl *const *funcs;   /* the top-level functions, by address */
    size_t nfuncs;
} Walk;

static void add(Walk *w, Warning x)
{
    VEC_PUSH(*w->out, x);
}

static bool is_local(const Expr *e)
{
    return e && e->kind == EX_NAME && e->u.name.res == RES_LOCAL && e->u.name.sym;
}

static bool in_range(const Walk *w, const Sym *s)
{
    return s && s->slot >= 0 && s->slot < w->fn->nlocals;
}

static void declare(Walk *w, const Sym *s)
{
    if (s)
        VEC_PUSH(w->declared, s);
}

/* ---- W0006: comparisons -------------------------------------------------- */

static bool is_comparison(BinaryOp op)
{
    return op >= BIN_EQ && op <= BIN_GE;
}

static bool is_length(const Expr *e)
{
    return e->kind == EX_FIELD &&
           (e->u.field.res == RES_ARRAY_LENGTH || e->u.field.res == RES_STRING_LENGTH ||
            e->u.field.res == RES_MAP_SIZE || e->u.field.res == RES_POOL_SIZE);
}

static bool is_zero(const Expr *e)
{
    return e->kind == EX_INT && e->u.int_lit.value == 0 && !e->u.int_lit.too_big;
}

static BinaryOp mirrored(BinaryOp op)
{
    switch (op) {
    case BIN_LT: return BIN_GT;
    case BIN_GT: return BIN_LT;
    case BIN_LE: return BIN_GE;
    case BIN_GE: return BIN_LE;
    default: return op;
    }
}

static void comparison(Walk *w, const Expr *e)
{
    const Expr *l = e->u.binary.left, *r = e->u.binary.right;
    BinaryOp op = e->u.binary.op;
    bool always;
    const char *why;
    if (is_local(l) && is_local(r) && l->u.name.sym == r->u.name.sym && l->type &&
        l->type->kind != TY_FLOAT) {
        always = op == BIN_EQ || op == BIN_LE || op == BIN_GE;
        why = "both sides are the same variable";
    } else if ((is_length(l) && is_zero(r)) || (is_zero(l) && is_length(r))) {
        BinaryOp o = is_length(l) ? op : mirrored(op);    /* as `length o 0` */
        if (o != BIN_LT && o != BIN_GE)
            return;
        always = o == BIN_GE;
        why = "a length or a size is never negative";
    } else {
        return;
    }
    Warning x = {.loc = e->loc, .code = DIAG_W0006, .note_at = LOC_NONE, .rename = LOC_NONE};
    snprintf(x.message, sizeof x.message, "this comparison is always %s",
             always ? "true" : "false");
    snprintf(x.note, sizeof x.note, "%s", why);
    add(w, x);
}

/* ---- W0004: unreachable statements --------------------------------------- */

static const char *leaving(const Stmt *s)
{
    switch (s->kind) {
    case ST_RETURN: return "this 'return' leaves the function";
    case ST_BREAK: return "this 'break' leaves the loop";
    case ST_CONTINUE: return "this 'continue' goes back to the loop's start";
    case ST_IF: return "every branch of this 'if' leaves the block";
    case ST_WHILE: return "this loop never ends";
    default: return "this statement leaves the block";
    }
}

static void block(Walk *w, const Stmt *s)
{
    const StmtVec *v = &s->u.block.stmts;
    for (size_t i = 0; i + 1 < v->len; i++) {
        const Stmt *here = v->items[i], *next = v->items[i + 1];
        if (here && next && !tc_falls_through(here)) {
            Warning x = {.loc = next->loc, .code = DIAG_W0004, .note_at = here->loc,
                         .rename = LOC_NONE};
            snprintf(x.message, sizeof x.message, "unreachable statement");
            snprintf(x.note, sizeof x.note, "%s", leaving(here));
            add(w, x);
            return;
        }
    }
}

/* ---- the walk ------------------------------------------------------------ */

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const FuncDecl *const *)a;
    uintptr_t y = (uintptr_t)*(const FuncDecl *const *)b;
    return (x > y) - (x < y);
}

/* A call of f: a binary search of the functions, sorted by address, so
 * that a program of many functions and calls takes no quadratic time. */
static void mark_called(Walk *w, const FuncDecl *f)
{
    if (f->generic && f->generic->of)   /* an instance: a call of its generic */
        f = f->generic->of->func;
    const FuncDecl *const *at = w->nfuncs ? bsearch(&f, w->funcs, w->nfuncs,
                                                    sizeof *w->funcs, by_address)
                                          : NULL;
    if (at)
        w->called[at - w->funcs] = true;
}

/* `new C<p>` with p a `pool C` parameter uses p, as a place. */
static void mark_pool_places_used(Walk *w, const TypeExpr *te)
{
    for (size_t k = 0; te && k < te->places.len; k++) {
        const Place *at = te->places.items[k]->resolved;
        for (size_t i = 0; at && i < w->fn->params.len; i++) {
            const Sym *s = w->fn->params.items[i]->sym;
            if (tc_place_pool_param((FuncDecl *)w->fn, i) == at && in_range(w, s))
                w->read[s->slot] = true;
        }
    }
}

static bool walk_expr(AstWalk *aw, Expr *e)
{
    Walk *w = aw->ctx;
    switch (e->kind) {
    case EX_NAME:
        if (is_local(e) && in_range(w, e->u.name.sym))
            w->read[e->u.name.sym->slot] = true;
        break;
    case EX_NEW:
        mark_pool_places_used(w, e->u.new_obj.class_type);
        break;
    case EX_CALL:
        if (e->u.call.res == RES_FUNC && e->u.call.func != w->fn)
            mark_called(w, e->u.call.func);
        break;
    case EX_BINARY:
        if (is_comparison(e->u.binary.op))
            comparison(w, e);
        break;
    default:
        break;
    }
    return true;
}

static bool walk_stmt(AstWalk *aw, Stmt *s)
{
    Walk *w = aw->ctx;
    switch (s->kind) {
    case ST_LET:
        declare(w, s->u.let.sym);
        break;
    case ST_FOR_RANGE:
        declare(w, s->u.for_range.sym);
        break;
    case ST_FOR_IN:
        declare(w, s->u.for_in.sym);
        break;
    case ST_BLOCK:
        block(w, s);
        break;
    case ST_EXPR: {
        const Expr *e = s->u.expr.expr;
        if (e && e->kind == EX_GET && e->type && e->type->kind != TY_UNIT &&
            e->type->kind != TY_ERROR) {
            Warning x = {.loc = e->loc, .code = DIAG_W0005, .note_at = LOC_NONE,
                         .rename = LOC_NONE};
            snprintf(x.message, sizeof x.message, "the value of this 'get' is never used");
            snprintf(x.note, sizeof x.note,
                     "the reply is waited for and dropped; to keep it, write 'let name = get ...'");
            add(w, x);
        }
        break;
    }
    case ST_ASSIGN: {
        /* `x = e` and `x op= e` write x without reading it for the program */
        const Expr *t = s->u.assign.target;
        if (is_local(t)) {
            if (in_range(w, t->u.name.sym))
                w->assigned[t->u.name.sym->slot] = true;
            ast_walk_expr(aw, s->u.assign.value);
            return false;
        }
        break;
    }
    default:
        break;
    }
    return true;
}

static void unused(Walk *w, const Sym *s, DiagCode code, const char *what)
{
    if (!in_range(w, s) || w->read[s->slot] || !s->name || s->name[0] == '_')
        return;
    Warning x = {.loc = s->loc, .code = code, .note_at = LOC_NONE, .rename = s->loc,
                 .name = s->name};
    if (w->assigned[s->slot])
        snprintf(x.message, sizeof x.message, "%s '%s' is assigned but never read", what,
                 s->name);
    else
        snprintf(x.message, sizeof x.message, "%s '%s' is never used", what, s->name);
    add(w, x);
}

static void walk_function(Walk *w, const FuncDecl *fn)
{
    if (!fn || !fn->body)
        return;
    w->fn = fn;
    size_t n = fn->nlocals > 0 ? (size_t)fn->nlocals : 1;
    w->read = arena_alloc(n * sizeof *w->read);
    w->assigned = arena_alloc(n * sizeof *w->assigned);
    memset(w->read, 0, n * sizeof *w->read);
    memset(w->assigned, 0, n * sizeof *w->assigned);
    w->declared.len = 0;
    AstWalk aw = {walk_expr, NULL, walk_stmt, w};
    ast_walk_stmt(&aw, fn->body);
    for (size_t i = 0; i < fn->params.len; i++)
        unused(w, fn->params.items[i]->sym, DIAG_W0002, "parameter");
    for (size_t i = 0; i < w->declared.len; i++)
        unused(w, w->declared.items[i], DIAG_W0001, "variable");
}

/* Field initialisers declare no locals, but they may call functions. */
static void walk_field_inits(Walk *w, const ClassDecl *cls)
{
    static const FuncDecl no_function;      /* no locals: nothing is marked */
    static bool none[1];
    w->fn = &no_function;
    w->read = w->assigned = none;
    AstWalk aw = {walk_expr, NULL, walk_stmt, w};
    for (size_t i = 0; i < cls->fields.len; i++)
        ast_walk_expr(&aw, cls->fields.items[i]->init);
}

static int by_place(const void *a, const void *b)
{
    const Warning *x = a, *y = b;
    if (x->loc.file != y->loc.file)
        return x->loc.file < y->loc.file ? -1 : 1;
    if (x->loc.start != y->loc.start)
        return x->loc.start < y->loc.start ? -1 : 1;
    return (int)x->code - (int)y->code;
}

static void report(const Warning *x)
{
    if (!diag_warning(x->loc, x->code, "%s", x->message))
        return;
    if (x->note[0])
        diag_note(x->note_at, "%s", x->note);
    if (x->name) {
        char renamed[128];
        snprintf(renamed, sizeof renamed, "_%s", x->name);
        diag_suggest(LOC_NONE, x->rename, renamed,
                     "if it is unused on purpose, name it '%s'", renamed);
    }
}

void tc_warn_program(const Program *program)
{
    WarningVec out = {0};
    VEC(const FuncDecl *) funcs = {0};
    for (size_t i = 0; i < program->decls.len; i++) {
        const Decl *d = program->decls.items[i];
        if (d->kind == DECL_FUNC && !tc_is_instance_func(d->u.func))
            VEC_PUSH(funcs, d->u.func);
    }
    if (funcs.len > 1)
        qsort(funcs.items, funcs.len, sizeof *funcs.items, by_address);
    Walk w = {.out = &out, .funcs = funcs.items, .nfuncs = funcs.len};
    w.called = arena_alloc((funcs.len ? funcs.len : 1) * sizeof *w.called);
    memset(w.called, 0, (funcs.len ? funcs.len : 1) * sizeof *w.called);
    for (size_t i = 0; i < program->decls.len; i++) {
        const Decl *d = program->decls.items[i];
        /* instances are the generic code again: its warnings are the generic's */
        if (d->kind == DECL_FUNC && !tc_is_instance_func(d->u.func)) {
            walk_function(&w, d->u.func);
        } else if (d->kind == DECL_CLASS && !tc_is_instance_class(d->u.cls)) {
            for (size_t j = 0; j < d->u.cls->methods.len; j++)
                if (!tc_is_instance_func(d->u.cls->methods.items[j]))
                    walk_function(&w, d->u.cls->methods.items[j]);
            walk_field_inits(&w, d->u.cls);
        }
    }
    for (size_t i = 0; i < funcs.len; i++) {
        const FuncDecl *f = funcs.items[i];
        if (w.called[i] || strcmp(f->name.text, "main") == 0 || f->name.text[0] == '_')
            continue;
        Warning x = {.loc = f->name.loc, .code = DIAG_W0003, .note_at = LOC_NONE,
                     .rename = LOC_NONE};
        snprintf(x.message, sizeof x.message, "function '%s' is never called", f->name.text);
        VEC_PUSH(out, x);
    }
    if (out.len > 1)
        qsort(out.items, out.len, sizeof *out.items, by_place);
    for (size_t i = 0; i < out.len; i++)
        report(&out.items[i]);
}
