/* confine.c — loop variables that never outlive their turn of the loop.
 *
 * `for w in line.split(" ") { counts[w] = counts.get(w, 0) + 1 }` is the
 * inner loop of most text programs (LANGUAGE.md §9's example).  Made as
 * written, it allocates an array and a string per word, all garbage by
 * the next line.  When nothing in the body can keep w — every mention of
 * it is read and dropped — stmt.c hands out the pieces one at a time in a
 * single reused header instead (mos_split_next), and nothing is allocated
 * per word.
 *
 * "Read and dropped" is a fixed list of uses, and anything else counts
 * as keeping w (a let, an argument of a function or message, a push, a
 * field, a return, a map value, an element of a literal, and `+`, whose
 * result can be w itself when the other side is empty).  The list:
 *
 *   - w.length, w.byte(i), w.find(t), w.contains(t), w.starts_with(t),
 *     w.ends_with(t), w.split(t), w.to_upper(), w.to_lower() — and w as
 *     the argument of any string method (slice and trim may return their
 *     receiver, so w is not theirs to call);
 *   - comparisons: w == t, w < t, …;
 *   - a map key: m[w] read or assigned (a map copies a key it keeps),
 *     m.get(w, d), m.has(w), m.remove(w); an array's index_of(w) and
 *     contains(w);
 *   - print, println, eprint, eprintln, parse_int and parse_float of w,
 *     and the separator of join.
 *
 * The walk sees a node before its operands, so an allowed use marks the
 * mention of w under it, and a mention found unmarked keeps w.
 */
#include "cg_internal.h"

typedef struct Confine {
    const Sym *var;
    VEC(const Expr *) allowed;  /* mentions of var under an allowed use */
    bool kept;                  /* a mention that may outlive the turn */
} Confine;

static bool is_var(const Confine *c, const Expr *e)
{
    return e && e->kind == EX_NAME && e->u.name.res == RES_LOCAL && e->u.name.sym == c->var;
}

static void allow(Confine *c, const Expr *e)
{
    if (is_var(c, e))
        VEC_PUSH(c->allowed, e);
}

static bool was_allowed(const Confine *c, const Expr *e)
{
    for (size_t i = 0; i < c->allowed.len; i++)
        if (c->allowed.items[i] == e)
            return true;
    return false;
}

static void allow_args(Confine *c, const ExprVec *args, size_t from, size_t to)
{
    for (size_t i = from; i < to && i < args->len; i++)
        allow(c, args->items[i]);
}

static void method_call(Confine *c, const Expr *e)
{
    const Expr *object = e->u.method_call.object;
    const ExprVec *args = &e->u.method_call.args;
    if (e->kind != EX_METHOD_CALL || !object->type)
        return;
    switch ((BuiltinId)e->u.method_call.builtin) {
    case SM_BYTE: case SM_FIND: case SM_CONTAINS: case SM_STARTS_WITH: case SM_ENDS_WITH:
    case SM_SPLIT: case SM_TO_UPPER: case SM_TO_LOWER:
        allow(c, object);
        allow_args(c, args, 0, args->len);
        return;
    case SM_SLICE: case SM_TRIM:
        allow_args(c, args, 0, args->len);
        return;
    case MM_GET: case MM_HAS: case MM_REMOVE:
        if (object->type->kind == TY_MAP)
            allow_args(c, args, 0, 1);      /* the key; get's default is returned */
        return;
    case AM_INDEX_OF: case AM_CONTAINS:
        if (object->type->kind == TY_ARRAY)
            allow_args(c, args, 0, 1);
        return;
    default:
        return;
    }
}

static void call(Confine *c, const Expr *e)
{
    const ExprVec *args = &e->u.call.args;
    if (e->u.call.res != RES_BUILTIN)
        return;
    switch ((BuiltinId)e->u.call.builtin) {
    case BI_PRINT: case BI_PRINTLN: case BI_EPRINT: case BI_EPRINTLN:
    case BI_PARSE_INT: case BI_PARSE_FLOAT:
        allow_args(c, args, 0, args->len);
        return;
    case BI_JOIN:
        allow_args(c, args, 1, 2);
        return;
    default:
        return;
    }
}

static bool look(AstWalk *w, Expr *e)
{
    Confine *c = w->ctx;
    switch (e->kind) {
    case EX_NAME:
        if (is_var(c, e) && !was_allowed(c, e))
            c->kept = true;
        return false;
    case EX_FIELD:
        if (e->u.field.res == RES_STRING_LENGTH)
            allow(c, e->u.field.object);
        break;
    case EX_BINARY:
        if (e->u.binary.op >= BIN_EQ && e->u.binary.op <= BIN_GE) {
            allow(c, e->u.binary.left);
            allow(c, e->u.binary.right);
        }
        break;
    case EX_INDEX:
        if (e->u.index.object->type && e->u.index.object->type->kind == TY_MAP)
            allow(c, e->u.index.index);
        break;
    case EX_METHOD_CALL:
        method_call(c, e);
        break;
    case EX_CALL:
        call(c, e);
        break;
    default:
        break;
    }
    return !c->kept;
}

bool cg_loop_var_confined(const Stmt *for_in)
{
    Confine c = {.var = for_in->u.for_in.sym};
    AstWalk w = {look, NULL, NULL, &c};
    ast_walk_stmt(&w, for_in->u.for_in.body);
    return !c.kept;
}
