/* ast.c — constructors of the AST nodes (parser/ast.h).
 *
 * One small function per node form, so that each grammar rule of parse.y is
 * one line.  Nodes come from the arena, zeroed: every field the checker
 * fills later starts as NULL / RES_NONE / 0.  Two constructors do a little
 * more than copy their arguments, both to keep the tree in the shape the
 * later phases expect:
 *
 *   ast_unary folds `-9223372036854775808` (a too_big literal under unary
 *   minus) into the one EX_INT with value INT64_MIN, the only way to write
 *   the smallest int;
 *   ast_call turns a call whose callee is a field access `e.m(args)` into
 *   an EX_METHOD_CALL.
 *
 * Nothing here reports errors or knows about types.
 */
#include "ast.h"

#include "../support/arena.h"

/* The magnitude of INT64_MIN: the only too_big literal a minus may take. */
#define INT64_MIN_MAGNITUDE ((uint64_t)INT64_MAX + 1)

static Expr *new_expr(ExprKind kind, Loc loc)
{
    Expr *e = ARENA_NEW(Expr);
    e->kind = kind;
    e->loc = loc;
    e->depth = 1;
    return e;
}

/* Makes `e` one level deeper than its deepest child.  Past
 * AST_MAX_EXPR_DEPTH the parser reports the expression once (E0002) and
 * returns the child instead, so the tree never grows deeper: the program
 * is already in error and will not be checked. */
static Expr *nest(Expr *e, Expr *a, Expr *b)
{
    static bool reported;
    uint32_t da = a ? a->depth : 0, db = b ? b->depth : 0;
    e->depth = (da > db ? da : db) + 1;
    if (e->depth <= AST_MAX_EXPR_DEPTH) return e;
    if (!reported) {
        reported = true;
        diag_error(e->loc, DIAG_E0002, "expression nested too deeply (more than %d levels)",
                   AST_MAX_EXPR_DEPTH);
    }
    return a ? a : b;
}

static Stmt *new_stmt(StmtKind kind, Loc loc)
{
    Stmt *s = ARENA_NEW(Stmt);
    s->kind = kind;
    s->loc = loc;
    return s;
}

/* ---- expressions ------------------------------------------------------ */

Expr *ast_int(Loc loc, uint64_t value, bool too_big)
{
    Expr *e = new_expr(EX_INT, loc);
    e->u.int_lit.value = value;
    e->u.int_lit.too_big = too_big;
    return e;
}

Expr *ast_float(Loc loc, double value)
{
    Expr *e = new_expr(EX_FLOAT, loc);
    e->u.float_lit = value;
    return e;
}

Expr *ast_string(Loc loc, const char *bytes, size_t len)
{
    Expr *e = new_expr(EX_STRING, loc);
    e->u.string_lit.bytes = bytes;
    e->u.string_lit.len = len;
    return e;
}

Expr *ast_bool(Loc loc, bool value)
{
    Expr *e = new_expr(EX_BOOL, loc);
    e->u.bool_lit = value;
    return e;
}

Expr *ast_null(Loc loc)
{
    return new_expr(EX_NULL, loc);
}

Expr *ast_this(Loc loc)
{
    return new_expr(EX_THIS, loc);
}

Expr *ast_here(Loc loc)
{
    return new_expr(EX_HERE, loc);
}

Expr *ast_name(Loc loc, const char *text)
{
    Expr *e = new_expr(EX_NAME, loc);
    e->u.name.text = text;
    return e;
}

Expr *ast_unary(Loc loc, UnaryOp op, Expr *operand)
{
    if (op == UN_NEG && operand->kind == EX_INT && operand->u.int_lit.too_big &&
        operand->u.int_lit.value == INT64_MIN_MAGNITUDE)
        return ast_int(loc, INT64_MIN_MAGNITUDE, false);   /* INT64_MIN as bits */
    Expr *e = new_expr(EX_UNARY, loc);
    e->u.unary.op = op;
    e->u.unary.operand = operand;
    return nest(e, operand, NULL);
}

Expr *ast_binary(Loc loc, BinaryOp op, Expr *left, Expr *right)
{
    Expr *e = new_expr(EX_BINARY, loc);
    e->u.binary.op = op;
    e->u.binary.left = left;
    e->u.binary.right = right;
    return nest(e, left, right);
}

Expr *ast_get(Loc loc, Expr *future)
{
    Expr *e = new_expr(EX_GET, loc);
    e->u.get.future = future;
    return nest(e, future, NULL);
}

Expr *ast_field(Loc loc, Expr *object, Name field)
{
    Expr *e = new_expr(EX_FIELD, loc);
    e->u.field.object = object;
    e->u.field.field = field;
    return nest(e, object, NULL);
}

Expr *ast_call(Loc loc, Expr *callee, ExprVec args)
{
    if (callee->kind == EX_FIELD) {
        Expr *e = new_expr(EX_METHOD_CALL, loc);
        e->u.method_call.object = callee->u.field.object;
        e->u.method_call.method = callee->u.field.field;
        e->u.method_call.args = args;
        return nest(e, callee->u.field.object, NULL);
    }
    Expr *e = new_expr(EX_CALL, loc);
    e->u.call.callee = callee;
    e->u.call.args = args;
    return nest(e, callee, NULL);
}

Expr *ast_send(Loc loc, Expr *object, Name method, ExprVec args)
{
    Expr *e = new_expr(EX_SEND, loc);
    e->u.method_call.object = object;
    e->u.method_call.method = method;
    e->u.method_call.args = args;
    return nest(e, object, NULL);
}

Expr *ast_index(Loc loc, Expr *object, Expr *index)
{
    Expr *e = new_expr(EX_INDEX, loc);
    e->u.index.object = object;
    e->u.index.index = index;
    return nest(e, object, index);
}

Expr *ast_new(Loc loc, TypeExpr *class_type, ExprVec args, bool has_parens)
{
    Expr *e = new_expr(EX_NEW, loc);
    e->u.new_obj.class_type = class_type;
    e->u.new_obj.args = args;
    e->u.new_obj.has_parens = has_parens;
    return e;
}

Expr *ast_new_array(Loc loc, TypeExpr *elem, Expr *length)
{
    Expr *e = new_expr(EX_NEW_ARRAY, loc);
    e->u.new_array.elem = elem;
    e->u.new_array.length = length;
    return e;
}

Expr *ast_new_map(Loc loc, TypeExpr *map_type)
{
    Expr *e = new_expr(EX_NEW_MAP, loc);
    e->u.new_map.map_type = map_type;
    return e;
}

Expr *ast_map_lit(Loc loc, ExprVec keys, ExprVec values)
{
    Expr *e = new_expr(EX_MAP_LIT, loc);
    e->u.map_lit.keys = keys;
    e->u.map_lit.values = values;
    return e;
}

Expr *ast_array_lit(Loc loc, ExprVec elems)
{
    Expr *e = new_expr(EX_ARRAY_LIT, loc);
    e->u.array_lit.elems = elems;
    return e;
}

/* ---- statements ------------------------------------------------------- */

Stmt *ast_let(Loc loc, Name name, bool is_var, TypeExpr *type, Expr *init)
{
    Stmt *s = new_stmt(ST_LET, loc);
    s->u.let.name = name;
    s->u.let.is_var = is_var;
    s->u.let.type = type;
    s->u.let.init = init;
    return s;
}

Stmt *ast_assign(Loc loc, Expr *target, bool compound, BinaryOp op, Expr *value)
{
    Stmt *s = new_stmt(ST_ASSIGN, loc);
    s->u.assign.target = target;
    s->u.assign.compound = compound;
    s->u.assign.op = op;
    s->u.assign.value = value;
    return s;
}

Stmt *ast_expr_stmt(Loc loc, Expr *expr)
{
    Stmt *s = new_stmt(ST_EXPR, loc);
    s->u.expr.expr = expr;
    return s;
}

Stmt *ast_if(Loc loc, Expr *cond, Stmt *then_block, Stmt *else_stmt)
{
    Stmt *s = new_stmt(ST_IF, loc);
    s->u.if_.cond = cond;
    s->u.if_.then_block = then_block;
    s->u.if_.else_stmt = else_stmt;
    return s;
}

Stmt *ast_while(Loc loc, Expr *cond, Stmt *body)
{
    Stmt *s = new_stmt(ST_WHILE, loc);
    s->u.while_.cond = cond;
    s->u.while_.body = body;
    return s;
}

Stmt *ast_for_range(Loc loc, Name var, Expr *from, Expr *to, Stmt *body)
{
    Stmt *s = new_stmt(ST_FOR_RANGE, loc);
    s->u.for_range.var = var;
    s->u.for_range.from = from;
    s->u.for_range.to = to;
    s->u.for_range.body = body;
    return s;
}

Stmt *ast_for_in(Loc loc, Name var, Expr *iterable, Stmt *body)
{
    Stmt *s = new_stmt(ST_FOR_IN, loc);
    s->u.for_in.var = var;
    s->u.for_in.iterable = iterable;
    s->u.for_in.body = body;
    return s;
}

Stmt *ast_break(Loc loc)
{
    return new_stmt(ST_BREAK, loc);
}

Stmt *ast_continue(Loc loc)
{
    return new_stmt(ST_CONTINUE, loc);
}

Stmt *ast_return(Loc loc, Expr *value)
{
    Stmt *s = new_stmt(ST_RETURN, loc);
    s->u.ret.value = value;
    return s;
}

Stmt *ast_block(Loc loc, StmtVec stmts, Loc close)
{
    Stmt *s = new_stmt(ST_BLOCK, loc);
    s->u.block.stmts = stmts;
    s->u.block.close = close;
    return s;
}

Stmt *ast_pool_stmt(Loc loc, PoolVec pools)
{
    Stmt *s = new_stmt(ST_POOL, loc);
    s->u.pool.pools = pools;
    return s;
}

/* ---- types and places ------------------------------------------------- */

static TypeExpr *new_type(TypeExprKind kind, Loc loc)
{
    TypeExpr *t = ARENA_NEW(TypeExpr);
    t->kind = kind;
    t->loc = loc;
    return t;
}

TypeExpr *ast_type_named(Loc loc, Name name, PlaceVec places, bool has_places)
{
    TypeExpr *t = new_type(TE_NAMED, loc);
    t->name = name;
    t->places = places;
    t->has_places = has_places;
    return t;
}

TypeExpr *ast_type_generic(Loc loc, Name name, TypeExprVec targs, PlaceVec places,
                           bool has_places)
{
    TypeExpr *t = ast_type_named(loc, name, places, has_places);
    t->targs = targs;
    t->has_targs = true;
    return t;
}

TypeExpr *ast_type_unit(Loc loc)
{
    return new_type(TE_UNIT, loc);
}

TypeExpr *ast_type_array(Loc loc, TypeExpr *elem, PlaceExpr *place)
{
    TypeExpr *t = new_type(TE_ARRAY, loc);
    t->elem = elem;
    if (place) {
        VEC_PUSH(t->places, place);
        t->has_places = true;
    }
    return t;
}

TypeExpr *ast_type_fut(Loc loc, TypeExpr *elem)
{
    TypeExpr *t = new_type(TE_FUT, loc);
    t->elem = elem;
    return t;
}

TypeExpr *ast_type_map(Loc loc, TypeExpr *key, TypeExpr *value, PlaceExpr *place)
{
    TypeExpr *t = new_type(TE_MAP, loc);
    t->key = key;
    t->elem = value;
    if (place) {
        VEC_PUSH(t->places, place);
        t->has_places = true;
    }
    return t;
}

TypeExpr *ast_type_pool(Loc loc, Name class_name)
{
    TypeExpr *t = new_type(TE_POOL, loc);
    t->name = class_name;
    return t;
}

PlaceExpr *ast_place(Loc loc, PlaceKind kind, const char *name, int64_t node)
{
    PlaceExpr *p = ARENA_NEW(PlaceExpr);
    p->kind = kind;
    p->loc = loc;
    p->name = name;
    p->node = node;
    return p;
}
