/* ast_clone.c — fresh copies of declarations, for the instances of generics.
 *
 * A generic class or function (LANGUAGE.md §11) is checked once as written,
 * with its type parameters opaque; each instantiation is then a copy of
 * its declaration, checked again with the type parameters bound to the
 * type arguments, and compiled like any other declaration (the way ponyc's
 * reify copies an AST with its type arguments).  Copying keeps every
 * phase after the checker ignorant of type parameters: effects, layouts,
 * pools, code generation and debug information see ordinary classes and
 * functions with concrete types.
 *
 * A copy is deep for everything the checker writes into (expressions,
 * statements, type and place expressions, parameters, fields, methods,
 * local pools) and shares what nobody writes (interned names, decoded
 * string literals, locations).  Every field marked "checker:" in ast.h is
 * left zero, as the parser leaves it.  Locations are kept: errors, debug
 * lines and `--count-remote` lines of an instance name the generic's
 * source.
 */
#include <string.h>
#include "ast.h"
#include "../support/arena.h"

static Expr *clone_expr(const Expr *e);
static Stmt *clone_stmt(const Stmt *s);
static TypeExpr *clone_type(const TypeExpr *t);

static ExprVec clone_exprs(const ExprVec *v)
{
    ExprVec out = {0};
    for (size_t i = 0; i < v->len; i++)
        VEC_PUSH(out, clone_expr(v->items[i]));
    return out;
}

static PlaceExpr *clone_place(const PlaceExpr *p)
{
    if (!p)
        return NULL;
    PlaceExpr *q = ARENA_NEW(PlaceExpr);
    *q = *p;
    q->node_expr = clone_expr(p->node_expr);
    q->resolved = NULL;
    return q;
}

static PlaceVec clone_places(const PlaceVec *v)
{
    PlaceVec out = {0};
    for (size_t i = 0; i < v->len; i++)
        VEC_PUSH(out, clone_place(v->items[i]));
    return out;
}

static TypeExpr *clone_type(const TypeExpr *t)
{
    if (!t)
        return NULL;
    TypeExpr *u = ARENA_NEW(TypeExpr);
    *u = *t;
    u->places = clone_places(&t->places);
    u->targs = (TypeExprVec){0};
    for (size_t i = 0; i < t->targs.len; i++)
        VEC_PUSH(u->targs, clone_type(t->targs.items[i]));
    u->elem = clone_type(t->elem);
    u->key = clone_type(t->key);
    u->resolved = NULL;
    return u;
}

static Expr *clone_expr(const Expr *e)
{
    if (!e)
        return NULL;
    Expr *x = ARENA_NEW(Expr);
    *x = *e;
    x->type = NULL;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_STRING: case EX_BOOL: case EX_NULL:
    case EX_THIS: case EX_HERE:
        break;
    case EX_NAME:
        x->u.name.res = RES_NONE;
        x->u.name.sym = NULL;
        x->u.name.field = NULL;
        x->u.name.func = NULL;
        x->u.name.pool = NULL;
        break;
    case EX_UNARY:
        x->u.unary.operand = clone_expr(e->u.unary.operand);
        break;
    case EX_BINARY:
        x->u.binary.left = clone_expr(e->u.binary.left);
        x->u.binary.right = clone_expr(e->u.binary.right);
        break;
    case EX_GET:
        x->u.get.future = clone_expr(e->u.get.future);
        break;
    case EX_FIELD:
        x->u.field.object = clone_expr(e->u.field.object);
        x->u.field.res = RES_NONE;
        x->u.field.decl = NULL;
        break;
    case EX_CALL:
        x->u.call.callee = clone_expr(e->u.call.callee);
        x->u.call.args = clone_exprs(&e->u.call.args);
        x->u.call.res = RES_NONE;
        x->u.call.func = NULL;
        x->u.call.builtin = 0;
        x->u.call.subst = NULL;
        break;
    case EX_METHOD_CALL:
    case EX_SEND:
        x->u.method_call.object = clone_expr(e->u.method_call.object);
        x->u.method_call.args = clone_exprs(&e->u.method_call.args);
        x->u.method_call.func = NULL;
        x->u.method_call.builtin = 0;
        x->u.method_call.subst = NULL;
        break;
    case EX_INDEX:
        x->u.index.object = clone_expr(e->u.index.object);
        x->u.index.index = clone_expr(e->u.index.index);
        break;
    case EX_NEW:
        x->u.new_obj.class_type = clone_type(e->u.new_obj.class_type);
        x->u.new_obj.args = clone_exprs(&e->u.new_obj.args);
        x->u.new_obj.cls = NULL;
        x->u.new_obj.subst = NULL;
        break;
    case EX_NEW_ARRAY:
        x->u.new_array.elem = clone_type(e->u.new_array.elem);
        x->u.new_array.length = clone_expr(e->u.new_array.length);
        break;
    case EX_ARRAY_LIT:
        x->u.array_lit.elems = clone_exprs(&e->u.array_lit.elems);
        break;
    case EX_NEW_MAP:
        x->u.new_map.map_type = clone_type(e->u.new_map.map_type);
        break;
    case EX_MAP_LIT:
        x->u.map_lit.keys = clone_exprs(&e->u.map_lit.keys);
        x->u.map_lit.values = clone_exprs(&e->u.map_lit.values);
        break;
    }
    return x;
}

static PoolDecl *clone_pool(const PoolDecl *p)
{
    if (!p)
        return NULL;
    PoolDecl *q = ARENA_NEW(PoolDecl);
    *q = *p;
    q->type = clone_type(p->type);
    q->on = clone_place(p->on);
    /* the layout spec holds names only: nobody writes into it */
    return q;
}

static Stmt *clone_stmt(const Stmt *s)
{
    if (!s)
        return NULL;
    Stmt *t = ARENA_NEW(Stmt);
    *t = *s;
    switch (s->kind) {
    case ST_LET:
        t->u.let.type = clone_type(s->u.let.type);
        t->u.let.init = clone_expr(s->u.let.init);
        t->u.let.sym = NULL;
        break;
    case ST_ASSIGN:
        t->u.assign.target = clone_expr(s->u.assign.target);
        t->u.assign.value = clone_expr(s->u.assign.value);
        break;
    case ST_EXPR:
        t->u.expr.expr = clone_expr(s->u.expr.expr);
        break;
    case ST_IF:
        t->u.if_.cond = clone_expr(s->u.if_.cond);
        t->u.if_.then_block = clone_stmt(s->u.if_.then_block);
        t->u.if_.else_stmt = clone_stmt(s->u.if_.else_stmt);
        break;
    case ST_WHILE:
        t->u.while_.cond = clone_expr(s->u.while_.cond);
        t->u.while_.body = clone_stmt(s->u.while_.body);
        break;
    case ST_FOR_RANGE:
        t->u.for_range.from = clone_expr(s->u.for_range.from);
        t->u.for_range.to = clone_expr(s->u.for_range.to);
        t->u.for_range.body = clone_stmt(s->u.for_range.body);
        t->u.for_range.sym = NULL;
        t->u.for_range.limit_sym = NULL;
        break;
    case ST_FOR_IN:
        t->u.for_in.iterable = clone_expr(s->u.for_in.iterable);
        t->u.for_in.body = clone_stmt(s->u.for_in.body);
        t->u.for_in.sym = NULL;
        t->u.for_in.iter_sym = NULL;
        t->u.for_in.index_sym = NULL;
        break;
    case ST_BREAK:
    case ST_CONTINUE:
        break;
    case ST_RETURN:
        t->u.ret.value = clone_expr(s->u.ret.value);
        break;
    case ST_BLOCK:
        t->u.block.stmts = (StmtVec){0};
        for (size_t i = 0; i < s->u.block.stmts.len; i++)
            VEC_PUSH(t->u.block.stmts, clone_stmt(s->u.block.stmts.items[i]));
        break;
    case ST_POOL:
        t->u.pool.pools = (PoolVec){0};
        for (size_t i = 0; i < s->u.pool.pools.len; i++)
            VEC_PUSH(t->u.pool.pools, clone_pool(s->u.pool.pools.items[i]));
        break;
    }
    return t;
}

static EffectDecl *clone_effects(const EffectDecl *e)
{
    if (!e)
        return NULL;
    EffectDecl *d = ARENA_NEW(EffectDecl);
    *d = *e;
    d->reads = clone_places(&e->reads);
    d->writes = clone_places(&e->writes);
    d->sends = clone_places(&e->sends);
    return d;
}

FuncDecl *ast_clone_func(const FuncDecl *f, ClassDecl *owner)
{
    FuncDecl *g = ARENA_NEW(FuncDecl);
    *g = *f;
    g->owner = owner;
    g->params = (ParamVec){0};
    for (size_t i = 0; i < f->params.len; i++) {
        const Param *p = f->params.items[i];
        Param *q = NULL;
        if (p) {
            q = ARENA_NEW(Param);
            q->name = p->name;
            q->type = clone_type(p->type);
        }
        VEC_PUSH(g->params, q);
    }
    g->result = clone_type(f->result);
    g->effects = clone_effects(f->effects);
    g->body = clone_stmt(f->body);
    g->generic = NULL;
    g->nlocals = 0;
    g->result_type = NULL;
    return g;
}

ClassDecl *ast_clone_class(const ClassDecl *cls)
{
    ClassDecl *k = ARENA_NEW(ClassDecl);
    *k = *cls;
    k->fields = (FieldVec){0};
    for (size_t i = 0; i < cls->fields.len; i++) {
        const FieldDecl *f = cls->fields.items[i];
        FieldDecl *g = NULL;
        if (f) {
            g = ARENA_NEW(FieldDecl);
            *g = *f;
            g->type = clone_type(f->type);
            g->init = clone_expr(f->init);
            g->owner = k;
            g->field_type = NULL;
        }
        VEC_PUSH(k->fields, g);
    }
    k->methods = (FuncVec){0};
    for (size_t i = 0; i < cls->methods.len; i++)
        VEC_PUSH(k->methods, cls->methods.items[i]
                                 ? ast_clone_func(cls->methods.items[i], k) : NULL);
    k->generic = NULL;
    k->init = NULL;
    return k;
}
