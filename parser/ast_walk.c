/* ast_walk.c — one walk over the tree for the passes that only look.
 *
 * The effect pass, the code generator's reach pass and the layout advisor
 * each need to see every expression and statement of a body, but each
 * cares about a handful of node kinds.  Rather than three recursive walks
 * that must be kept in step with the AST, each gives callbacks: the walk
 * calls them before a node's children and descends only when they return
 * true (a callback that handles a node's children itself, say to treat an
 * assignment's target as a write, returns false), and `expr_after` once
 * the children are done.  Children are visited
 * in evaluation order, `new A<node(e)>`'s `e` before the arguments.
 */
#include "ast.h"

static void walk_children(AstWalk *w, Expr *e);

void ast_walk_expr(AstWalk *w, Expr *e)
{
    if (!e || (w->expr && !w->expr(w, e)))
        return;
    walk_children(w, e);
    if (w->expr_after)
        w->expr_after(w, e);
}

static void walk_children(AstWalk *w, Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_STRING: case EX_BOOL: case EX_NULL:
    case EX_THIS: case EX_HERE: case EX_NAME:
        return;
    case EX_UNARY:
        ast_walk_expr(w, e->u.unary.operand);
        return;
    case EX_BINARY:
        ast_walk_expr(w, e->u.binary.left);
        ast_walk_expr(w, e->u.binary.right);
        return;
    case EX_GET:
        ast_walk_expr(w, e->u.get.future);
        return;
    case EX_FIELD:
        ast_walk_expr(w, e->u.field.object);
        return;
    case EX_CALL:
        for (size_t i = 0; i < e->u.call.args.len; i++)
            ast_walk_expr(w, e->u.call.args.items[i]);
        return;
    case EX_METHOD_CALL:
    case EX_SEND:
        ast_walk_expr(w, e->u.method_call.object);
        for (size_t i = 0; i < e->u.method_call.args.len; i++)
            ast_walk_expr(w, e->u.method_call.args.items[i]);
        return;
    case EX_INDEX:
        ast_walk_expr(w, e->u.index.object);
        ast_walk_expr(w, e->u.index.index);
        return;
    case EX_NEW: {
        TypeExpr *te = e->u.new_obj.class_type;
        for (size_t i = 0; i < te->places.len; i++)
            ast_walk_expr(w, te->places.items[i]->node_expr);
        for (size_t i = 0; i < e->u.new_obj.args.len; i++)
            ast_walk_expr(w, e->u.new_obj.args.items[i]);
        return;
    }
    case EX_NEW_ARRAY:
        ast_walk_expr(w, e->u.new_array.length);
        return;
    case EX_ARRAY_LIT:
        for (size_t i = 0; i < e->u.array_lit.elems.len; i++)
            ast_walk_expr(w, e->u.array_lit.elems.items[i]);
        return;
    case EX_NEW_MAP:
        return;
    case EX_MAP_LIT:
        for (size_t i = 0; i < e->u.map_lit.keys.len; i++) {
            ast_walk_expr(w, e->u.map_lit.keys.items[i]);
            ast_walk_expr(w, e->u.map_lit.values.items[i]);
        }
        return;
    }
}

void ast_walk_stmt(AstWalk *w, Stmt *s)
{
    if (!s || (w->stmt && !w->stmt(w, s)))
        return;
    switch (s->kind) {
    case ST_LET:
        ast_walk_expr(w, s->u.let.init);
        return;
    case ST_ASSIGN:
        ast_walk_expr(w, s->u.assign.target);
        ast_walk_expr(w, s->u.assign.value);
        return;
    case ST_EXPR:
        ast_walk_expr(w, s->u.expr.expr);
        return;
    case ST_IF:
        ast_walk_expr(w, s->u.if_.cond);
        ast_walk_stmt(w, s->u.if_.then_block);
        ast_walk_stmt(w, s->u.if_.else_stmt);
        return;
    case ST_WHILE:
        ast_walk_expr(w, s->u.while_.cond);
        ast_walk_stmt(w, s->u.while_.body);
        return;
    case ST_FOR_RANGE:
        ast_walk_expr(w, s->u.for_range.from);
        ast_walk_expr(w, s->u.for_range.to);
        ast_walk_stmt(w, s->u.for_range.body);
        return;
    case ST_FOR_IN:
        ast_walk_expr(w, s->u.for_in.iterable);
        ast_walk_stmt(w, s->u.for_in.body);
        return;
    case ST_RETURN:
        ast_walk_expr(w, s->u.ret.value);
        return;
    case ST_BLOCK:
        for (size_t i = 0; i < s->u.block.stmts.len; i++)
            ast_walk_stmt(w, s->u.block.stmts.items[i]);
        return;
    case ST_BREAK: case ST_CONTINUE: case ST_POOL:
        return;
    }
}
