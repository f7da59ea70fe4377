/* record.c — the checker's hooks for tools (record.h).
 *
 * Each hook is called by the checker at the point where it has just
 * decided something: tc_record_expr after an expression is checked (its
 * resolution fields and type are set then), tc_record_type after a type
 * is resolved with reports (so once per written type: the silent first
 * pass over signatures is not recorded), tc_record_binding after a local
 * is declared, tc_record_point where a block starts and a statement ends.
 * The hooks only read the checker's state; with no record started each
 * is one test of a pointer.
 *
 * Scope chains mirror the checker's binding stack (scope.c): the link of
 * the binding at stack index i points to the link of the binding at i-1,
 * which is still on the stack whenever i is.  Closing a scope only lowers
 * the stack's height, so a point's chain is the link of the binding on
 * top, and a link once made never changes: every point keeps its own
 * view, at the cost of one link per binding.
 */
#include <string.h>
#include "check.h"
#include "record.h"
#include "../support/diag.h"

static TcRecord *recording;

void tc_record_start(TcRecord *r)
{
    memset(r, 0, sizeof *r);
    recording = r;
}

void tc_record_stop(void)
{
    recording = NULL;
}

static TcRef *add(TcRefKind kind, Loc span, Type *type)
{
    TcRef ref = {.span = span, .kind = kind, .type = type, .builtin = -1};
    VEC_PUSH(recording->refs, ref);
    return &recording->refs.items[recording->refs.len - 1];
}

/* A member access: e.f, e.m(...), e!m(...). */
static void member(Loc span, const Expr *object, FuncDecl *func, int builtin, Type *type)
{
    TcRef *r = add(func ? TC_REF_METHOD : builtin >= 0 ? TC_REF_BUILTIN : TC_REF_NONE, span,
                   type);
    r->receiver = object ? object->type : NULL;
    r->func = func;
    r->builtin = builtin;
}

void tc_record_expr(Checker *c, const Expr *e)
{
    if (!recording || !e || diag_is_muted())   /* an instance: the generic was recorded */
        return;
    switch (e->kind) {
    case EX_THIS:
        add(TC_REF_THIS, e->loc, e->type);
        break;
    case EX_NAME:
        if (e->u.name.res == RES_LOCAL && e->u.name.sym) {
            add(TC_REF_LOCAL, e->loc, e->type)->sym = e->u.name.sym;
        } else if (e->u.name.res == RES_FIELD && e->u.name.field) {
            TcRef *r = add(TC_REF_FIELD, e->loc, e->type);
            r->field = e->u.name.field;
            r->receiver = c->cls ? tc_this_type(c->cls) : NULL;
        } else if (e->u.name.res == RES_POOL && e->u.name.pool) {
            add(TC_REF_POOL, e->loc, e->type)->pool = e->u.name.pool;
        }
        break;
    case EX_FIELD: {
        const Expr *o = e->u.field.object;
        TcRef *r;
        switch (e->u.field.res) {
        case RES_FIELD:
            r = add(TC_REF_FIELD, e->u.field.field.loc, e->type);
            r->field = e->u.field.decl;
            break;
        case RES_ARRAY_LENGTH:
        case RES_STRING_LENGTH:
        case RES_MAP_SIZE:
        case RES_POOL_SIZE:
            r = add(TC_REF_PROPERTY, e->u.field.field.loc, e->type);
            break;
        default:
            r = add(TC_REF_NONE, e->u.field.field.loc, NULL);
            break;
        }
        r->receiver = o ? o->type : NULL;
        break;
    }
    case EX_CALL: {
        const Expr *callee = e->u.call.callee;
        if (!callee || callee->kind != EX_NAME)
            break;
        TcRef *r = NULL;
        if (e->u.call.res == RES_FUNC && e->u.call.func) {
            r = add(TC_REF_FUNC, callee->loc, e->type);
        } else if (e->u.call.res == RES_METHOD && e->u.call.func) {
            r = add(TC_REF_METHOD, callee->loc, e->type);
            r->receiver = c->cls ? tc_this_type(c->cls) : NULL;
        } else if (e->u.call.res == RES_BUILTIN || e->u.call.res == RES_CONVERT) {
            r = add(TC_REF_BUILTIN, callee->loc, e->type);
            r->builtin = e->u.call.builtin;
        }
        if (r)
            r->func = e->u.call.func;
        break;
    }
    case EX_METHOD_CALL:
    case EX_SEND:
        member(e->u.method_call.method.loc, e->u.method_call.object, e->u.method_call.func,
               e->u.method_call.func ? -1 : e->u.method_call.builtin, e->type);
        break;
    default:
        break;
    }
}

void tc_record_type(const TypeExpr *te)
{
    if (!recording || !te || !te->resolved || diag_is_muted())
        return;
    Type *t = te->resolved;
    if ((te->kind == TE_NAMED && t->kind == TY_CLASS) || (te->kind == TE_POOL && t->kind == TY_POOL))
        add(TC_REF_CLASS, te->name.loc, t)->cls = t->cls;
}

void tc_record_binding(Checker *c)
{
    if (!recording || c->bindings.len == 0 || diag_is_muted())
        return;
    size_t i = c->bindings.len - 1;
    const Binding *b = &c->bindings.items[i];
    TcScopeLink *link = ARENA_NEW(TcScopeLink);
    link->name = b->name;
    link->sym = b->sym;
    link->pool = b->pool;
    link->next = i > 0 && i - 1 < recording->chain.len ? recording->chain.items[i - 1] : NULL;
    while (recording->chain.len <= i)
        VEC_PUSH(recording->chain, NULL);
    recording->chain.items[i] = link;

    TcRef *r = add(b->sym ? TC_REF_LOCAL : TC_REF_POOL, b->loc, b->sym ? b->sym->type : NULL);
    r->is_decl = true;
    r->sym = b->sym;
    r->pool = b->pool;
}

void tc_record_point(Checker *c, uint32_t offset)
{
    if (!recording || diag_is_muted())
        return;
    size_t n = c->bindings.len;
    TcScopePoint p = {offset, n && n <= recording->chain.len ? recording->chain.items[n - 1] : NULL};
    VEC_PUSH(recording->points, p);
}
