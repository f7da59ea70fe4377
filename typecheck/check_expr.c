/* check_expr.c — expressions: literals, names, operators, members, arrays.
 *
 * tc_expr gives every expression its type (Expr.type) and resolves its
 * names.  Calls, method calls, sends and `new C` live in check_call.c.
 *
 * Operators follow LANGUAGE.md §3 with no implicit conversion: both sides
 * of arithmetic have one numeric type; `+` with a string on either side
 * concatenates the text of an int, float, bool or string; `==`/`!=` need
 * equal types or `null` against a reference.  A `unit` value (the result
 * of a call to a function without result) is not a value: wherever one is
 * needed it is reported once (tc_value) and becomes the error type.
 *
 * Bare names are resolved innermost first: local bindings, then the
 * fields of `this` inside a class.  Functions, methods, classes and
 * built-ins are not values (E0206); only calls may name them.
 *
 * An array literal takes its element type from the context when there is
 * one (`let xs: [float] = []`), else from its first non-null element.
 *
 * Actors (LANGUAGE.md §4): `get e` needs a future and gives its content;
 * `e.f` on an actor is allowed only when `e` is `this` (the actor's own
 * code); from anywhere else it is E0303, reported once, and the access
 * has the error type so that what surrounds it (an assignment, an
 * operator) reports nothing more.
 */
#include <string.h>
#include "check.h"
#include "../support/diag.h"

bool tc_foreign_actor(const Expr *object, const Type *t)
{
    return t && t->kind == TY_CLASS && t->cls && t->cls->is_active &&
           !(object && object->kind == EX_THIS);
}

const char *tc_snippet(Loc loc)
{
    enum { MAX_SNIPPET = 40 };  /* longer receivers are not worth quoting */
    if (loc.file == 0 || loc.end <= loc.start || loc.end - loc.start > MAX_SNIPPET ||
        loc.end > src_length(loc.file))
        return NULL;
    const char *text = src_text(loc.file) + loc.start;
    size_t len = loc.end - loc.start;
    if (memchr(text, '\n', len) || memchr(text, '\r', len))
        return NULL;
    return arena_strndup(text, len);
}

Type *tc_value(Checker *c, Expr *e, Type *expected)
{
    Type *t = tc_expr(c, e, expected);
    if (t->kind == TY_UNIT) {
        diag_error(e->loc, DIAG_E0200, "this expression has type 'unit' and gives no value");
        return ty_error;
    }
    if (t->kind == TY_POOL) {
        diag_error(e->loc, DIAG_E0401, "a pool is not a value");
        diag_note(LOC_NONE, "a pool is a place: allocate in it with 'new %s<...>', iterate "
                  "over it, index it, or pass it to a 'pool %s' parameter",
                  t->cls->name.text, t->cls->name.text);
        return ty_error;
    }
    return t;
}

/* Where the place of e's type comes from, when that is worth saying: a
 * local's declaration, or the default place of an allocation. */
static void explain_found_place(Checker *c, const Expr *e, const Type *got)
{
    if (e->kind == EX_NAME && e->u.name.res == RES_LOCAL && e->u.name.sym) {
        const Sym *s = e->u.name.sym;
        diag_note(s->loc, "'%s' is a '%s', declared here", s->name, ty_show(s->type));
    } else if (e->kind == EX_NAME && e->u.name.res == RES_FIELD && e->u.name.field) {
        const FieldDecl *f = e->u.name.field;
        diag_note(f->name.loc, "field '%s' is a '%s'", f->name.text, ty_show(got));
    } else if ((e->kind == EX_NEW && !e->u.new_obj.class_type->has_places) ||
               e->kind == EX_NEW_ARRAY || e->kind == EX_ARRAY_LIT ||
               e->kind == EX_NEW_MAP || e->kind == EX_MAP_LIT) {
        diag_note(e->loc, "an allocation that names no place is at the default place "
                  "of this code, '%s'", tc_place_name(tc_default_place(c)));
    }
}

/* Does t have a fresh unknown place (tc_place_opaque) anywhere? */
static bool mentions_opaque(const Type *t)
{
    if (!t)
        return false;
    for (uint32_t i = 0; i < t->nplaces; i++)
        if (t->places[i]->tag == PL_UNKNOWN && t->places[i] != tc_place_unknown())
            return true;
    return (t->kind == TY_ARRAY || t->kind == TY_FUT || t->kind == TY_MAP) &&
           mentions_opaque(t->elem);
}

/* Where an assignment's target was declared, for the note under a place
 * mismatch at the assignment (LANGUAGE.md §7's example: "'acc' declared
 * here", at the field's declaration). */
static void note_target_declared(const Expr *target)
{
    if (target->kind == EX_NAME && target->u.name.res == RES_LOCAL && target->u.name.sym)
        diag_note(target->u.name.sym->loc, "'%s' declared here", target->u.name.sym->name);
    else if (target->kind == EX_NAME && target->u.name.res == RES_FIELD && target->u.name.field)
        diag_note(target->u.name.field->loc, "'%s' declared here",
                  target->u.name.field->name.text);
    else if (target->kind == EX_FIELD && target->u.field.res == RES_FIELD && target->u.field.decl)
        diag_note(target->u.field.decl->loc, "'%s' declared here",
                  target->u.field.decl->name.text);
}

void tc_report_mismatch(Checker *c, Expr *e, Type *got, Type *want)
{
    tc_report_mismatch_at(c, e, got, want, NULL);
}

void tc_report_mismatch_at(Checker *c, Expr *e, Type *got, Type *want, const Stmt *assign)
{
    if (ty_same_shape(got, want)) {
        diag_error(assign ? assign->loc : e->loc, DIAG_E0300,
                   "place mismatch: expected '%s', found '%s'", ty_show(want), ty_show(got));
        if (assign)
            note_target_declared(assign->u.assign.target);
        explain_found_place(c, e, got);
        if (mentions_opaque(want))
            diag_note(LOC_NONE, "each '?' here is an unknown node of its own (a receiver's "
                      "or an argument's): two may differ, and nothing but null is known to "
                      "be at one");
        for (uint32_t i = 0; i < want->nplaces && i < got->nplaces; i++)
            if (want->places[i] == tc_place_unknown() && got->places[i]->tag == PL_PARAM &&
                !tc_place_is_node(got->places[i])) {
                diag_note(LOC_NONE, "only a place known to be a node ('here', 'node(k)', "
                          "an actor's home) converts to '?'; '%s' may stand for a pool",
                          tc_place_name(got->places[i]));
                break;
            }
        return;
    }
    diag_error(e->loc, DIAG_E0200, "type mismatch: expected '%s', found '%s'",
               ty_name(want), ty_name(got));
    if ((got->kind == TY_INT && want->kind == TY_FLOAT) ||
        (got->kind == TY_FLOAT && want->kind == TY_INT))
        diag_note(LOC_NONE, "numbers are not converted implicitly: use %s(...)",
                  ty_name(want));
    else if (got->kind == TY_FUT && ty_same_shape(got->elem, want)) {
        const char *text = tc_snippet(e->loc);
        diag_note(LOC_NONE, "a message's answer is a future: wait for its value with 'get %s'",
                  text ? text : "...");
    }
}

bool tc_expect(Checker *c, Expr *e, Type *want)
{
    if (!e)
        return false;
    Type *t = tc_value(c, e, want);
    if (ty_assignable(t, want))
        return true;
    tc_report_mismatch(c, e, t, want);
    return false;
}

/* ---- names ----------------------------------------------------------------- */

/* A name that denotes a pool: a place, usable only where a pool is. */
static Type *pool_name(Checker *c, Expr *e, PoolDecl *pd, bool assign)
{
    (void)c;
    TcPool *p = tc_pool(pd);
    if (assign) {
        diag_error(e->loc, DIAG_E0401, "cannot assign to pool '%s'", pd->name.text);
        return ty_error;
    }
    if (!p || !p->elem)
        return ty_error;    /* its declaration was reported */
    e->u.name.res = RES_POOL;
    e->u.name.pool = pd;
    return ty_pool(p->elem->cls, p->place);
}

// expr = name
Type *tc_name(Checker *c, Expr *e, bool assign)
{
    const char *n = e->u.name.text;
    e->u.name.res = RES_NONE;
    Binding *b = tc_lookup_local(c, n);
    if (b && b->pool)
        return pool_name(c, e, b->pool, assign);
    if (b) {
        if (b->sym && b->sym->type->kind == TY_POOL && assign) {
            diag_error(e->loc, DIAG_E0401, "cannot assign to pool parameter '%s'", n);
            return ty_error;
        }
        e->u.name.res = RES_LOCAL;
        e->u.name.sym = b->sym;
        return b->sym && b->sym->type ? b->sym->type : ty_error;
    }
    if (c->cls) {
        FieldDecl *f = tc_find_field(c->cls, n);
        if (f) {
            e->u.name.res = RES_FIELD;
            e->u.name.field = f;
            return f->field_type ? f->field_type : ty_error;
        }
        FuncDecl *m = tc_find_method(c->cls, n);
        if (m) {
            if (assign)
                diag_error(e->loc, DIAG_E0206, "cannot assign to method '%s'", n);
            else
                diag_error(e->loc, DIAG_E0206, "method '%s' used as a value", n);
            diag_note(m->name.loc, "'%s' declared here", n);
            return ty_error;
        }
    }
    TopEntry *top = tc_top(c, n);
    if (top && (top->func || top->cls)) {
        const char *what = top->func ? "function" : "class";
        if (assign)
            diag_error(e->loc, DIAG_E0206, "cannot assign to %s '%s'", what, n);
        else
            diag_error(e->loc, DIAG_E0206, "%s '%s' used as a value", what, n);
        diag_note(top->func ? top->func->name.loc : top->cls->name.loc,
                  "'%s' declared here", n);
        if (top->cls && !assign)
            diag_note(LOC_NONE, "create an object with 'new %s'", n);
        return ty_error;
    }
    if (top && top->pool)
        return pool_name(c, e, top->pool, assign);
    if (tc_find_builtin(c, n, BK_FUNCTION) >= 0) {
        if (assign)
            diag_error(e->loc, DIAG_E0206, "cannot assign to built-in function '%s'", n);
        else
            diag_error(e->loc, DIAG_E0206, "built-in function '%s' used as a value", n);
        return ty_error;
    }
    diag_error(e->loc, DIAG_E0100, "undefined variable '%s'", n);
    NameList cands = {0};
    tc_add_local_names(c, &cands);
    tc_add_field_names(c->cls, &cands);
    tc_add_top_names(c, TOP_ANY, &cands);
    tc_suggest_in(c, c->cls, n, e->loc, &cands);
    return ty_error;
}

/* ---- operators ------------------------------------------------------------- */

static bool is_numeric(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_FLOAT;
}

static bool is_text(const Type *t)     /* what string `+` accepts */
{
    return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL ||
           t->kind == TY_STRING;
}

static Type *no_operator(BinaryOp op, Type *l, Type *r, Loc loc)
{
    diag_error(loc, DIAG_E0202, "operator '%s' not defined for '%s' and '%s'",
               ast_binary_op_text(op), ty_name(l), ty_name(r));
    if (is_numeric(l) && is_numeric(r))
        diag_note(LOC_NONE, "numbers are not converted implicitly: "
                  "use int(...) or float(...)");
    return ty_error;
}

Type *tc_binary_type(BinaryOp op, Type *l, Type *r, Loc loc)
{
    if (l->kind == TY_ERROR || r->kind == TY_ERROR)
        return ty_error;
    switch (op) {
    case BIN_OR:
    case BIN_AND:
        if (l->kind == TY_BOOL && r->kind == TY_BOOL)
            return ty_bool;
        return no_operator(op, l, r, loc);
    case BIN_EQ:
    case BIN_NE:
        /* Numbers, bools and strings compare by value; references (objects,
         * arrays, futures) by identity, wherever they live; null against
         * any reference. */
        if (ty_same_shape(l, r) && l->kind != TY_UNIT && l->kind != TY_POOL)
            return ty_bool;
        if ((l->kind == TY_NULL && ty_is_reference(r)) ||
            (r->kind == TY_NULL && ty_is_reference(l)))
            return ty_bool;
        return no_operator(op, l, r, loc);
    case BIN_LT:
    case BIN_LE:
    case BIN_GT:
    case BIN_GE:
        if (l->kind == r->kind &&
            (l->kind == TY_INT || l->kind == TY_FLOAT || l->kind == TY_STRING))
            return ty_bool;
        return no_operator(op, l, r, loc);
    case BIN_BITOR:
    case BIN_BITXOR:
    case BIN_BITAND:
    case BIN_SHL:
    case BIN_SHR:
        if (l->kind == TY_INT && r->kind == TY_INT)
            return ty_int;
        return no_operator(op, l, r, loc);
    case BIN_ADD:
        if ((l->kind == TY_STRING && is_text(r)) || (r->kind == TY_STRING && is_text(l)))
            return ty_string;
        if (l->kind == r->kind && is_numeric(l))
            return l;
        return no_operator(op, l, r, loc);
    case BIN_SUB:
    case BIN_MUL:
    case BIN_DIV:
    case BIN_REM:
        /* `%` on floats is allowed: C's fmod (the result has the sign of
         * the dividend, like the integer `%`); code generation uses frem. */
        if (l->kind == r->kind && is_numeric(l))
            return l->kind == TY_INT ? ty_int : ty_float;
        return no_operator(op, l, r, loc);
    }
    return no_operator(op, l, r, loc);
}

// expr = expr op expr
static Type *check_binary(Checker *c, Expr *e)
{
    Type *l = tc_value(c, e->u.binary.left, NULL);
    /* `xs == []`: the left side tells an empty literal its type. */
    bool eq = e->u.binary.op == BIN_EQ || e->u.binary.op == BIN_NE;
    Type *r = tc_value(c, e->u.binary.right,
                       eq && (l->kind == TY_ARRAY || l->kind == TY_MAP) ? l : NULL);
    return tc_binary_type(e->u.binary.op, l, r, e->loc);
}

// expr = "-" expr | "not" expr
static Type *check_unary(Checker *c, Expr *e)
{
    Type *t = tc_value(c, e->u.unary.operand, NULL);
    if (t->kind == TY_ERROR)
        return ty_error;
    if (e->u.unary.op == UN_NEG && is_numeric(t))
        return t;
    if (e->u.unary.op == UN_NOT && t->kind == TY_BOOL)
        return ty_bool;
    diag_error(e->loc, DIAG_E0202, "operator '%s' not defined for '%s'",
               ast_unary_op_text(e->u.unary.op), ty_name(t));
    return ty_error;
}

/* ---- members and elements ---------------------------------------------------- */

// expr = expr "." name
static Type *check_field(Checker *c, Expr *e)
{
    const char *n = e->u.field.field.text;
    Loc nloc = e->u.field.field.loc;
    e->u.field.res = RES_NONE;
    Type *t = tc_expr(c, e->u.field.object, NULL);
    if (t->kind == TY_UNIT || t->kind == TY_POOL) {
        if (t->kind == TY_POOL && n == c->s_size) {
            e->u.field.res = RES_POOL_SIZE;
            return ty_int;
        }
        if (t->kind == TY_POOL) {
            diag_error(nloc, DIAG_E0401, "a pool has no field '%s'; its only one is 'size'", n);
            return ty_error;
        }
        diag_error(e->u.field.object->loc, DIAG_E0200,
                   "this expression has type 'unit' and gives no value");
        return ty_error;
    }
    switch (t->kind) {
    case TY_ERROR:
        return ty_error;
    case TY_CLASS: {
        FieldDecl *f = tc_find_field(t->cls, n);
        if (f && tc_foreign_actor(e->u.field.object, t)) {
            diag_error(e->loc, DIAG_E0303, "cannot access field '%s' of actor '%s' "
                       "from outside the actor", n, ty_name(t));
            diag_note(LOC_NONE, "only the actor's own code may touch its fields; "
                      "send it a message with '!' instead");
            return ty_error;
        }
        if (f) {
            e->u.field.res = RES_FIELD;
            e->u.field.decl = f;
            if (!f->field_type)
                return ty_error;
            /* the field's type is written from the object's point of view */
            return tc_subst_type(tc_subst_receiver(t, NULL), f->field_type);
        }
        FuncDecl *m = tc_find_method(t->cls, n);
        if (m) {
            diag_error(nloc, DIAG_E0206, "method '%s' used as a value", n);
            diag_note(LOC_NONE, "call it: '%s(...)'", n);
            return ty_error;
        }
        diag_error(nloc, DIAG_E0103, "no field '%s' in class '%s'", n, ty_name(t));
        NameList cands = {0};
        tc_add_field_names(t->cls, &cands);
        tc_suggest_in(c, t->cls, n, nloc, &cands);
        return ty_error;
    }
    case TY_ARRAY:
        if (n == c->s_length) {
            e->u.field.res = RES_ARRAY_LENGTH;
            return ty_int;
        }
        break;
    case TY_STRING:
        if (n == c->s_length) {
            e->u.field.res = RES_STRING_LENGTH;
            return ty_int;
        }
        break;
    case TY_MAP:
        if (n == c->s_size) {
            e->u.field.res = RES_MAP_SIZE;
            return ty_int;
        }
        break;
    default:
        break;
    }
    diag_error(nloc, DIAG_E0103, "no field '%s' on type '%s'", n, ty_name(t));
    if (t->kind == TY_FUT)
        diag_note(LOC_NONE, "a future has no fields: 'get' it to wait for its value");
    if (t->kind == TY_MAP && n == c->s_length)
        diag_note(LOC_NONE, "a map's number of entries is '.size'");
    else if (t->kind == TY_ARRAY && n == c->s_size)
        diag_note(LOC_NONE, "an array's number of elements is '.length'");
    else if (t->kind == TY_ARRAY || t->kind == TY_STRING || t->kind == TY_MAP) {
        NameList cands = {0};
        VEC_PUSH(cands, t->kind == TY_MAP ? c->s_size : c->s_length);
        tc_suggest(n, nloc, &cands);
    }
    return ty_error;
}

// expr = expr "[" expr "]"
static Type *check_index(Checker *c, Expr *e)
{
    Type *t = tc_expr(c, e->u.index.object, NULL);
    if (t->kind == TY_UNIT) {
        diag_error(e->u.index.object->loc, DIAG_E0200,
                   "this expression has type 'unit' and gives no value");
        t = ty_error;
    }
    if (e->u.index.index)     /* m[k] takes a key, everything else an int */
        tc_expect(c, e->u.index.index, t->kind == TY_MAP ? t->key : ty_int);
    if (t->kind == TY_ERROR)
        return ty_error;
    if (t->kind == TY_ARRAY || t->kind == TY_MAP)
        return t->elem;
    if (t->kind == TY_POOL)
        return tc_pool_elem_type(t);
    diag_error(e->u.index.object->loc, DIAG_E0200, "cannot index a value of type '%s'",
               ty_name(t));
    return ty_error;
}

/* ---- maps (LANGUAGE.md §9) --------------------------------------------------- */

// expr = "new" "Map" "<" type "," type ">"
static Type *check_new_map(Checker *c, Expr *e)
{
    return tc_resolve_type(c, e->u.new_map.map_type, true);
}

// expr = "{" [ expr ":" expr { "," expr ":" expr } ] "}"
// Typed from the context, else from the first entry, as an array literal
// is; allocated at the default place.
static Type *check_map_lit(Checker *c, Expr *e, Type *expected)
{
    ExprVec *keys = &e->u.map_lit.keys, *values = &e->u.map_lit.values;
    if (expected && expected->kind == TY_MAP) {
        for (size_t i = 0; i < keys->len; i++) {
            tc_expect(c, keys->items[i], expected->key);
            tc_expect(c, values->items[i], expected->elem);
        }
        return ty_map(expected->key, expected->elem, tc_default_place(c));
    }
    if (keys->len == 0 || (expected && expected->kind == TY_ERROR)) {
        if (keys->len == 0 && !(expected && expected->kind == TY_ERROR)) {
            diag_error(e->loc, DIAG_E0200, "cannot infer the type of an empty map literal");
            diag_note(LOC_NONE, "give the type, e.g. 'let m: Map<string, int> = {}'");
        }
        for (size_t i = 0; i < keys->len; i++) {
            tc_value(c, keys->items[i], NULL);
            tc_value(c, values->items[i], NULL);
        }
        return ty_error;
    }
    Type *key = tc_value(c, keys->items[0], NULL);
    Type *value = tc_value(c, values->items[0], NULL);
    bool ok = key->kind != TY_ERROR && value->kind != TY_ERROR;
    if (key->kind != TY_ERROR && !ty_is_map_key(key)) {
        diag_error(keys->items[0]->loc, DIAG_E0200, "a map key cannot be of type '%s'",
                   ty_name(key));
        diag_note(LOC_NONE, "map keys are 'int', 'string' or 'bool' (compared by value)");
        ok = false;
    }
    if (value->kind == TY_NULL) {
        diag_error(values->items[0]->loc, DIAG_E0200, "cannot infer the value type of a map "
                   "literal from 'null'");
        diag_note(LOC_NONE, "give the type, e.g. 'let m: Map<int, C> = {1: null}'");
        ok = false;
    }
    for (size_t i = 1; i < keys->len; i++) {
        if (!ok) {
            tc_value(c, keys->items[i], NULL);
            tc_value(c, values->items[i], NULL);
            continue;
        }
        bool key_ok = tc_expect(c, keys->items[i], key);
        if (!tc_expect(c, values->items[i], value) || !key_ok)
            diag_note(keys->items[0]->loc, "the first entry makes this a 'Map<%s, %s>'",
                      ty_name(key), ty_name(value));
    }
    return ok ? ty_map(key, value, tc_default_place(c)) : ty_error;
}

/* ---- arrays ------------------------------------------------------------------ */

// expr = "[" [ expr { "," expr } ] "]"
static Type *check_array_lit(Checker *c, Expr *e, Type *expected)
{
    ExprVec *el = &e->u.array_lit.elems;
    if (expected && expected->kind == TY_ARRAY && expected->elem &&
        expected->elem->kind != TY_ERROR) {
        for (size_t i = 0; i < el->len; i++)
            tc_expect(c, el->items[i], expected->elem);
        /* the context gives the elements' type; the literal itself is
         * allocated at the default place (LANGUAGE.md §5) */
        return ty_array(expected->elem, tc_default_place(c));
    }
    if (expected && expected->kind == TY_ERROR) {
        /* The context's type was already reported: check the elements
         * for their own mistakes, infer nothing. */
        for (size_t i = 0; i < el->len; i++)
            if (el->items[i])
                tc_value(c, el->items[i], NULL);
        return ty_error;
    }
    if (el->len == 0) {
        diag_error(e->loc, DIAG_E0200, "cannot infer the element type of an empty array");
        diag_note(LOC_NONE, "give the type, e.g. 'let xs: [int] = []'");
        return ty_error;
    }
    Type *elem = NULL;
    bool saw_error = false;
    for (size_t i = 0; i < el->len; i++) {
        Expr *x = el->items[i];
        if (!x)
            continue;
        Type *t = tc_value(c, x, elem);
        if (t->kind == TY_ERROR) {
            saw_error = true;
        } else if (t->kind == TY_NULL) {
            continue;   /* checked below, once the element type is known */
        } else if (!elem) {
            elem = t;
        } else if (!ty_equal(t, elem)) {
            tc_report_mismatch(c, x, t, elem);
            diag_note(LOC_NONE, "the elements of an array literal must all have one type");
        }
    }
    if (!elem) {
        if (!saw_error)
            diag_error(e->loc, DIAG_E0200, "cannot infer the element type of an array "
                       "of nulls");
        return ty_error;
    }
    if (!ty_is_reference(elem)) {
        for (size_t i = 0; i < el->len; i++) {
            Expr *x = el->items[i];
            if (x && x->type && x->type->kind == TY_NULL)
                diag_error(x->loc, DIAG_E0200, "type mismatch: expected '%s', found 'null'",
                           ty_name(elem));
        }
    }
    return ty_array(elem, tc_default_place(c));
}

// expr = "new" "[" type "]" "(" expr ")"
static Type *check_new_array(Checker *c, Expr *e)
{
    Type *elem = tc_resolve_type(c, e->u.new_array.elem, true);
    if (elem->kind == TY_UNIT) {
        diag_error(e->u.new_array.elem->loc, DIAG_E0200,
                   "an array cannot have elements of type 'unit'");
        elem = ty_error;
    }
    if (e->u.new_array.length)
        tc_expect(c, e->u.new_array.length, ty_int);
    return elem->kind == TY_ERROR ? ty_error : ty_array(elem, tc_default_place(c));
}

/* ---- the dispatcher ------------------------------------------------------------ */

Type *tc_expr(Checker *c, Expr *e, Type *expected)
{
    if (!e)
        return ty_error;
    Type *t = ty_error;
    switch (e->kind) {
    case EX_INT:
        // expr = int-literal
        if (e->u.int_lit.too_big)
            diag_error(e->loc, DIAG_E0001, "integer literal too large "
                       "(the largest int is 9223372036854775807)");
        else
            t = ty_int;
        break;
    case EX_FLOAT:
        t = ty_float;
        break;
    case EX_STRING:
        t = ty_string;
        break;
    case EX_BOOL:
        t = ty_bool;
        break;
    case EX_NULL:
        t = ty_null;
        break;
    case EX_THIS:
        // expr = "this"
        if (c->cls)
            t = tc_this_type(c->cls);
        else
            diag_error(e->loc, DIAG_E0206, "'this' used outside a class");
        break;
    case EX_HERE:
        // expr = "here"   (a place, not a value)
        diag_error(e->loc, DIAG_E0206, "'here' is a place, not a value");
        diag_note(LOC_NONE, "node_id() gives the number of the node the code runs on");
        break;
    case EX_NAME:
        t = tc_name(c, e, false);
        break;
    case EX_UNARY:
        t = check_unary(c, e);
        break;
    case EX_BINARY:
        t = check_binary(c, e);
        break;
    case EX_GET: {
        // expr = "get" expr
        /* tc_expr, not tc_value: `get f()` of a unit call is a misused
         * `get` (E0303), not a missing value.  `get` of a Fut<unit> is
         * unit: an expression statement only. */
        Type *f = tc_expr(c, e->u.get.future, NULL);
        if (f->kind == TY_FUT) {
            t = f->elem;
        } else if (f->kind != TY_ERROR) {
            diag_error(e->loc, DIAG_E0303, "'get' needs a future, found '%s'", ty_name(f));
            diag_note(LOC_NONE, "a future is what a send gives: 'get a!m(...)'");
        }
        break;
    }
    case EX_FIELD:
        t = check_field(c, e);
        break;
    case EX_CALL:
        t = tc_call(c, e);
        break;
    case EX_METHOD_CALL:
        t = tc_method_call(c, e);
        break;
    case EX_SEND:
        t = tc_send(c, e);
        break;
    case EX_INDEX:
        t = check_index(c, e);
        break;
    case EX_NEW:
        t = tc_new(c, e);
        break;
    case EX_NEW_ARRAY:
        t = check_new_array(c, e);
        break;
    case EX_ARRAY_LIT:
        t = check_array_lit(c, e, expected);
        break;
    case EX_NEW_MAP:
        t = check_new_map(c, e);
        break;
    case EX_MAP_LIT:
        t = check_map_lit(c, e, expected);
        break;
    }
    e->type = t ? t : ty_error;
    tc_record_expr(c, e);
    return e->type;
}
