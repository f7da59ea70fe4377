/* check_stmt.c — statements: bindings, assignment, control flow.
 *
 * Each block opens a scope (a function body shares its parameters' scope,
 * check_decl.c).  Bindings get their Sym, and so do the hidden slots of
 * `for` loops: the bound of a range loop and the array and index of an
 * array loop are evaluated once and live in slots of their own, which the
 * code generator reads from the Stmt.  A loop variable lives in a scope of
 * its own around the body, so the body may shadow it.
 *
 * Mutability (E0203) is decided here, on the resolved target of an
 * assignment: only `var` bindings, `var` fields, array elements, and
 * `val` fields of `this` inside their own class's `init` may be assigned.
 * Missing returns (E0204) are not found here but by flow.c once the whole
 * body is checked.
 */
#include "check.h"
#include "../support/diag.h"

static void check_scoped_block(Checker *c, Stmt *block)
{
    if (!block)
        return;
    tc_scope_push(c);
    tc_check_block_stmts(c, block);
    tc_scope_pop(c);
}

void tc_check_block_stmts(Checker *c, Stmt *block)
{
    if (!block)
        return;
    if (block->kind != ST_BLOCK) {      /* defensive: a lone statement */
        tc_check_stmt(c, block);
        return;
    }
    tc_record_point(c, block->loc.start);
    for (size_t i = 0; i < block->u.block.stmts.len; i++)
        tc_check_stmt(c, block->u.block.stmts.items[i]);
}

// stmt = ( "let" | "var" ) name [ ":" type ] [ "=" expr ]
static void check_let(Checker *c, Stmt *s)
{
    Name name = s->u.let.name;
    Type *declared = NULL;
    if (s->u.let.type) {
        declared = tc_resolve_type(c, s->u.let.type, true);
        if (declared->kind == TY_UNIT) {
            diag_error(s->u.let.type->loc, DIAG_E0200,
                       "variable '%s' cannot have type 'unit'", name.text);
            declared = ty_error;
        }
    }
    Type *t;
    if (s->u.let.init) {
        if (declared) {
            tc_expect(c, s->u.let.init, declared);
            t = declared;
        } else {
            t = tc_value(c, s->u.let.init, NULL);
            if (t->kind == TY_NULL) {
                diag_error(s->u.let.init->loc, DIAG_E0200,
                           "cannot infer a type from 'null'");
                diag_note(LOC_NONE, "write the type: '%s %s: T = null'",
                          s->u.let.is_var ? "var" : "let", name.text);
                t = ty_error;
            }
        }
    } else {
        t = declared ? declared : ty_error;
        if (!s->u.let.is_var)   /* the parser requires it; be safe anyway */
            diag_error(s->loc, DIAG_E0200, "'let %s' needs an initial value", name.text);
    }
    s->u.let.sym = tc_new_sym(c, s->u.let.is_var ? SYM_VAR : SYM_LET, name.text,
                              name.loc, t);
    tc_declare(c, (Binding){name.text, s->u.let.sym, NULL, name.loc, 0}, "variable");
}

static bool in_own_init(Checker *c, const FieldDecl *f)
{
    return c->func && c->func->owner && c->func->owner == f->owner &&
           c->func->name.text == c->s_init;
}

/* The target of an assignment: its type, after checking that it may be
 * assigned (E0203, E0206); ty_error if it was reported. */
static Type *check_target(Checker *c, Expr *t)
{
    if (!t)
        return ty_error;
    switch (t->kind) {
    case EX_NAME: {
        Type *ty = tc_name(c, t, true);
        t->type = ty;
        tc_record_expr(c, t);
        if (ty->kind == TY_ERROR)
            return ty_error;
        if (t->u.name.res == RES_LOCAL && t->u.name.sym) {
            Sym *s = t->u.name.sym;
            const char *what = NULL;
            switch (s->kind) {
            case SYM_VAR:
            case SYM_HIDDEN:
                return ty;
            case SYM_LET:   what = "'let' binding"; break;
            case SYM_PARAM: what = "parameter"; break;
            case SYM_LOOP:  what = "loop variable"; break;
            }
            diag_error(t->loc, DIAG_E0203, "cannot assign to %s '%s'", what, s->name);
            diag_note(s->loc, "'%s' declared here", s->name);
            if (s->kind == SYM_LET)
                diag_note(s->loc, "declare it with 'var' to make it mutable");
            return ty_error;
        }
        if (t->u.name.res == RES_FIELD && t->u.name.field) {
            FieldDecl *f = t->u.name.field;
            if (f->is_var || in_own_init(c, f))
                return ty;
            diag_error(t->loc, DIAG_E0203, "cannot assign to 'val' field '%s' outside 'init'",
                       f->name.text);
            diag_note(f->name.loc, "'%s' declared here", f->name.text);
            return ty_error;
        }
        return ty;
    }
    case EX_FIELD: {
        Type *ty = tc_expr(c, t, NULL);
        if (ty->kind == TY_ERROR)
            return ty_error;
        switch (t->u.field.res) {
        case RES_FIELD: {
            FieldDecl *f = t->u.field.decl;
            if (!f || f->is_var)
                return ty;
            if (in_own_init(c, f) && t->u.field.object && t->u.field.object->kind == EX_THIS)
                return ty;
            diag_error(t->loc, DIAG_E0203, "cannot assign to 'val' field '%s'%s",
                       f->name.text,
                       in_own_init(c, f) ? " of another object" : " outside 'init'");
            diag_note(f->name.loc, "'%s' declared here", f->name.text);
            return ty_error;
        }
        case RES_ARRAY_LENGTH:
        case RES_STRING_LENGTH:
            diag_error(t->loc, DIAG_E0203, "cannot assign to 'length': it is read-only");
            return ty_error;
        case RES_MAP_SIZE:
            diag_error(t->loc, DIAG_E0203, "cannot assign to 'size': it is read-only");
            diag_note(LOC_NONE, "a map's size changes as entries are added and removed");
            return ty_error;
        case RES_POOL_SIZE:
            diag_error(t->loc, DIAG_E0401, "cannot assign to a pool's 'size': it counts the "
                       "objects allocated in it");
            return ty_error;
        default:
            return ty;
        }
    }
    case EX_INDEX: {
        Type *ty = tc_expr(c, t, NULL);
        if (t->u.index.object->type && t->u.index.object->type->kind == TY_POOL) {
            diag_error(t->loc, DIAG_E0401, "cannot assign to an object of a pool: its objects "
                       "are made by 'new', assign to their fields");
            return ty_error;
        }
        return ty;
    }
    default: {
        Type *ty = tc_expr(c, t, NULL);
        if (ty->kind != TY_ERROR)
            diag_error(t->loc, DIAG_E0206, "cannot assign to this expression");
        return ty_error;
    }
    }
}

// stmt = target "=" expr | target ( "+=" | "-=" | "*=" | "/=" | "%=" ) expr
static void check_assign(Checker *c, Stmt *s)
{
    Type *tt = check_target(c, s->u.assign.target);
    Expr *v = s->u.assign.value;
    if (!v)
        return;
    if (!s->u.assign.compound) {
        Type *tv = tc_value(c, v, tt);
        if (!ty_assignable(tv, tt))
            tc_report_mismatch_at(c, v, tv, tt, s);
        return;
    }
    /* x op= e is x = x op e, with x evaluated once. */
    Type *tv = tc_value(c, v, NULL);
    if (tt->kind == TY_ERROR || tv->kind == TY_ERROR)
        return;
    Type *r = tc_binary_type(s->u.assign.op, tt, tv, s->loc);
    if (r->kind != TY_ERROR && !ty_assignable(r, tt))
        diag_error(s->loc, DIAG_E0200,
                   "type mismatch: '%s=' gives '%s' but the target has type '%s'",
                   ast_binary_op_text(s->u.assign.op), ty_name(r), ty_name(tt));
}

static void check_cond(Checker *c, Expr *cond)
{
    if (cond)
        tc_expect(c, cond, ty_bool);
}

static void check_loop_body(Checker *c, Stmt *body)
{
    c->loop_depth++;
    check_scoped_block(c, body);
    c->loop_depth--;
}

// stmt = "for" name "in" expr ".." expr block
static void check_for_range(Checker *c, Stmt *s)
{
    if (s->u.for_range.from)
        tc_expect(c, s->u.for_range.from, ty_int);
    if (s->u.for_range.to)
        tc_expect(c, s->u.for_range.to, ty_int);
    s->u.for_range.limit_sym = tc_new_sym(c, SYM_HIDDEN, "for.limit", s->loc, ty_int);
    tc_scope_push(c);
    Name v = s->u.for_range.var;
    s->u.for_range.sym = tc_new_sym(c, SYM_LOOP, v.text, v.loc, ty_int);
    tc_declare(c, (Binding){v.text, s->u.for_range.sym, NULL, v.loc, 0}, "loop variable");
    check_loop_body(c, s->u.for_range.body);
    tc_scope_pop(c);
}

// stmt = "for" name "in" expr block        (an array, a map or a pool)
static void check_for_in(Checker *c, Stmt *s)
{
    Expr *it = s->u.for_in.iterable;
    Type *t = it ? tc_expr(c, it, NULL) : ty_error;
    Type *elem = ty_error;
    if (t->kind == TY_ARRAY) {
        elem = t->elem;
    } else if (t->kind == TY_MAP) {
        elem = t->key;                  /* `for k in m`: its keys, in order */
    } else if (t->kind == TY_POOL) {
        elem = tc_pool_elem_type(t);    /* `for o in P`: its objects, in order */
    } else if (t->kind != TY_ERROR) {
        diag_error(it->loc, DIAG_E0200, "cannot iterate over '%s'", ty_name(t));
        t = ty_error;
    }
    s->u.for_in.iter_sym = tc_new_sym(c, SYM_HIDDEN, "for.array", s->loc, t);
    s->u.for_in.index_sym = tc_new_sym(c, SYM_HIDDEN, "for.index", s->loc, ty_int);
    tc_scope_push(c);
    Name v = s->u.for_in.var;
    s->u.for_in.sym = tc_new_sym(c, SYM_LOOP, v.text, v.loc, elem);
    s->u.for_in.sym->never_null = t->kind == TY_POOL;
    tc_declare(c, (Binding){v.text, s->u.for_in.sym, NULL, v.loc, 0}, "loop variable");
    check_loop_body(c, s->u.for_in.body);
    tc_scope_pop(c);
}

// stmt = "return" [ expr ]
static void check_return(Checker *c, Stmt *s)
{
    Type *r = c->result ? c->result : ty_error;
    Expr *v = s->u.ret.value;
    if (v) {
        if (r->kind == TY_UNIT) {
            tc_expr(c, v, NULL);
            diag_error(v->loc, DIAG_E0200, "this function returns nothing, "
                       "but 'return' is given a value");
            if (c->func)
                diag_note(c->func->name.loc, "'%s' declared here without a result type",
                          c->func->name.text);
        } else {
            tc_expect(c, v, r);
        }
    } else if (r->kind != TY_UNIT && r->kind != TY_ERROR) {
        diag_error(s->loc, DIAG_E0200, "missing return value: this function returns '%s'",
                   ty_name(r));
    }
}

// stmt = "pool" name ":" type [ "layout" layout ] [ "on" place ] { "," ... }
/* The pools of one statement may refer to each other: all are declared
 * first, then each is resolved. */
static void check_pool_stmt(Checker *c, Stmt *s)
{
    for (size_t i = 0; i < s->u.pool.pools.len; i++) {
        PoolDecl *p = s->u.pool.pools.items[i];
        if (!p || !p->name.text)
            continue;
        tc_declare_pool(c, p);
        tc_declare(c, (Binding){p->name.text, NULL, p, p->name.loc, 0}, "pool");
    }
    for (size_t i = 0; i < s->u.pool.pools.len; i++)
        if (s->u.pool.pools.items[i])
            tc_check_pool(c, s->u.pool.pools.items[i], true);
}

void tc_check_stmt(Checker *c, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case ST_LET:
        check_let(c, s);
        break;
    case ST_ASSIGN:
        check_assign(c, s);
        break;
    case ST_EXPR:
        // stmt = expr
        if (s->u.expr.expr)
            tc_expr(c, s->u.expr.expr, NULL);
        break;
    case ST_IF:
        // stmt = "if" expr block [ "else" ( if | block ) ]
        check_cond(c, s->u.if_.cond);
        check_scoped_block(c, s->u.if_.then_block);
        if (s->u.if_.else_stmt)
            tc_check_stmt(c, s->u.if_.else_stmt);
        break;
    case ST_WHILE:
        // stmt = "while" expr block
        check_cond(c, s->u.while_.cond);
        check_loop_body(c, s->u.while_.body);
        break;
    case ST_FOR_RANGE:
        check_for_range(c, s);
        break;
    case ST_FOR_IN:
        check_for_in(c, s);
        break;
    case ST_BREAK:
        // stmt = "break"
        if (c->loop_depth == 0)
            diag_error(s->loc, DIAG_E0205, "'break' outside a loop");
        break;
    case ST_CONTINUE:
        // stmt = "continue"
        if (c->loop_depth == 0)
            diag_error(s->loc, DIAG_E0205, "'continue' outside a loop");
        break;
    case ST_RETURN:
        check_return(c, s);
        break;
    case ST_BLOCK:
        // stmt = "{" { stmt } "}"
        check_scoped_block(c, s);
        break;
    case ST_POOL:
        check_pool_stmt(c, s);
        break;
    }
    tc_record_point(c, s->loc.end);
}
