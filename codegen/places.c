/* places.c — places at run time: which are needed, and their values.
 *
 * The language's places are static (typecheck/places.h), but a few
 * operations need the node a place stands for while the program runs:
 * `new A<p>` starts an actor on p's node, `--count-remote` records where
 * each object and array lives, and a function generic in a place must be
 * told what it stands for when its code needs it.  A place value is an
 * int64 node number, 0 … nodes()-1.  Where each kind of place gets its
 * value:
 *
 *   here          mos_node_id(): the node of the running actor (main: 0),
 *                 which is the caller's node the language promises
 *   node(k)       mos_node_of(k): k mod nodes()
 *   a function's  a hidden i64 argument after `this` (all of a function's
 *   place param   place parameters have one; callers pass 0 for those the
 *                 body never needs, and LLVM drops unused ones)
 *   a class's     a hidden i64 member after the fields, one per place
 *   place param   parameter, stored by `new` before anything else runs —
 *                 in every actor, and in a passive object only when its
 *                 class "stores places" (below)
 *   ?             not known: the running node stands in for it (only a
 *                 function generic in a place that was inferred as `?`
 *                 can ask, see docs/language-notes.md)
 *
 * So that a normal build pays nothing for places, a passive class stores
 * its places only when some code of the class needs one of them, and a
 * caller computes a hidden argument only when the callee needs it.  The
 * plan (cg_plan_places) finds both, to a fixed point: a unit (function,
 * method, or a class's field initialisers) needs a place when it starts an
 * actor there, allocates there an object whose class stores places, or
 * passes it to a callee's place parameter that the callee needs.  With
 * --count-remote every passive class stores its places and every
 * allocation needs its place, since the counters must know where each
 * object and array lives.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"

/* A need that holds only if its condition does: the class stores places,
 * or the callee needs its place parameter `index`. */
typedef struct CondNeed {
    ClassDecl *cls;
    FuncDecl *callee;
    int index;
    Place *place;
} CondNeed;

typedef struct PlanUnit {
    VEC(Place *) needs;
    VEC(CondNeed) conds;
} PlanUnit;

typedef struct Plan {
    Cg *cg;
    PlanUnit *unit;         /* the unit being walked */
} Plan;

static bool unit_needs(const PlanUnit *u, const Place *p)
{
    for (size_t i = 0; i < u->needs.len; i++)
        if (u->needs.items[i] == p)
            return true;
    return false;
}

static bool need(PlanUnit *u, Place *p)
{
    if (!p || p->tag == PL_UNKNOWN || unit_needs(u, p))
        return false;
    VEC_PUSH(u->needs, p);
    return true;
}

static void cond(Plan *pl, ClassDecl *cls, FuncDecl *callee, int index, Place *p)
{
    CondNeed c = {cls, callee, index, p};
    VEC_PUSH(pl->unit->conds, c);
}

/* The place parameters of a callee, read through the call's substitution. */
static void callee_places(Plan *pl, FuncDecl *callee, const Subst *s)
{
    for (size_t j = 0; j < callee->place_params.len; j++)
        cond(pl, NULL, callee, (int)j,
             tc_subst_place(s, tc_place_func_param(callee, (int)j)));
}

static void plan_expr(Plan *pl, Expr *e);

static void plan_exprs(Plan *pl, ExprVec *v)
{
    for (size_t i = 0; i < v->len; i++)
        plan_expr(pl, v->items[i]);
}

static void plan_expr(Plan *pl, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EX_UNARY:
        plan_expr(pl, e->u.unary.operand);
        return;
    case EX_BINARY:
        plan_expr(pl, e->u.binary.left);
        plan_expr(pl, e->u.binary.right);
        return;
    case EX_GET:
        plan_expr(pl, e->u.get.future);
        return;
    case EX_FIELD:
        plan_expr(pl, e->u.field.object);
        return;
    case EX_INDEX:
        plan_expr(pl, e->u.index.object);
        plan_expr(pl, e->u.index.index);
        return;
    case EX_CALL:
        plan_exprs(pl, &e->u.call.args);
        if ((e->u.call.res == RES_FUNC || e->u.call.res == RES_METHOD) && e->u.call.func)
            callee_places(pl, e->u.call.func, e->u.call.subst);
        return;
    case EX_METHOD_CALL:
    case EX_SEND:
        plan_expr(pl, e->u.method_call.object);
        plan_exprs(pl, &e->u.method_call.args);
        callee_places(pl, e->u.method_call.func, e->u.method_call.subst);
        return;
    case EX_NEW: {
        plan_exprs(pl, &e->u.new_obj.args);
        ClassDecl *k = e->u.new_obj.cls;
        for (uint32_t i = 0; i < e->type->nplaces; i++) {
            if (k->is_active || pl->cg->opt->count_remote)
                need(pl->unit, e->type->places[i]);
            else
                cond(pl, k, NULL, 0, e->type->places[i]);
        }
        if (k->init)
            callee_places(pl, k->init, e->u.new_obj.subst);
        return;
    }
    case EX_NEW_ARRAY:
        plan_expr(pl, e->u.new_array.length);
        if (pl->cg->opt->count_remote)
            need(pl->unit, ty_home(e->type));
        return;
    case EX_ARRAY_LIT:
        plan_exprs(pl, &e->u.array_lit.elems);
        if (pl->cg->opt->count_remote)
            need(pl->unit, ty_home(e->type));
        return;
    default:
        return;
    }
}

static void plan_stmt(Plan *pl, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case ST_LET:
        plan_expr(pl, s->u.let.init);
        return;
    case ST_ASSIGN:
        plan_expr(pl, s->u.assign.target);
        plan_expr(pl, s->u.assign.value);
        return;
    case ST_EXPR:
        plan_expr(pl, s->u.expr.expr);
        return;
    case ST_IF:
        plan_expr(pl, s->u.if_.cond);
        plan_stmt(pl, s->u.if_.then_block);
        plan_stmt(pl, s->u.if_.else_stmt);
        return;
    case ST_WHILE:
        plan_expr(pl, s->u.while_.cond);
        plan_stmt(pl, s->u.while_.body);
        return;
    case ST_FOR_RANGE:
        plan_expr(pl, s->u.for_range.from);
        plan_expr(pl, s->u.for_range.to);
        plan_stmt(pl, s->u.for_range.body);
        return;
    case ST_FOR_IN:
        plan_expr(pl, s->u.for_in.iterable);
        plan_stmt(pl, s->u.for_in.body);
        return;
    case ST_RETURN:
        plan_expr(pl, s->u.ret.value);
        return;
    case ST_BLOCK:
        for (size_t i = 0; i < s->u.block.stmts.len; i++)
            plan_stmt(pl, s->u.block.stmts.items[i]);
        return;
    default:
        return;
    }
}

static PlanUnit *plan_unit(Cg *cg, const void *key)
{
    PlanUnit *u = cg_map_get_ptr(&cg->place_plan, key);
    if (!u) {
        u = ARENA_NEW(PlanUnit);
        cg_map_put_ptr(&cg->place_plan, key, u);
    }
    return u;
}

bool cg_needs_place_arg(Cg *cg, FuncDecl *fd, int j)
{
    PlanUnit *u = cg_map_get_ptr(&cg->place_plan, fd);
    return u && unit_needs(u, tc_place_func_param(fd, j));
}

bool cg_stores_places(Cg *cg, ClassDecl *cls)
{
    if (cls->is_active || cg->opt->count_remote)
        return true;
    for (int i = 0; i < tc_class_nplaces(cls); i++) {
        Place *p = tc_place_class_param(cls, i);
        if (unit_needs(plan_unit(cg, cls), p))
            return true;
        for (size_t j = 0; j < cls->methods.len; j++)
            if (unit_needs(plan_unit(cg, cls->methods.items[j]), p))
                return true;
    }
    return false;
}

static bool cond_holds(Cg *cg, const CondNeed *c)
{
    return c->cls ? cg_stores_places(cg, c->cls) : cg_needs_place_arg(cg, c->callee, c->index);
}

void cg_plan_places(Cg *cg)
{
    VEC(PlanUnit *) all = {0};
    Program *p = cg->program;
    for (size_t i = 0; i < p->decls.len; i++) {
        Decl *d = p->decls.items[i];
        if (d->kind == DECL_FUNC) {
            Plan pl = {cg, plan_unit(cg, d->u.func)};
            plan_stmt(&pl, d->u.func->body);
            VEC_PUSH(all, pl.unit);
        } else if (d->kind == DECL_CLASS) {
            ClassDecl *k = d->u.cls;
            Plan pl = {cg, plan_unit(cg, k)};     /* the field initialisers */
            for (size_t j = 0; j < k->fields.len; j++)
                plan_expr(&pl, k->fields.items[j]->init);
            VEC_PUSH(all, pl.unit);
            for (size_t j = 0; j < k->methods.len; j++) {
                pl.unit = plan_unit(cg, k->methods.items[j]);
                plan_stmt(&pl, k->methods.items[j]->body);
                VEC_PUSH(all, pl.unit);
            }
        }
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < all.len; i++) {
            PlanUnit *u = all.items[i];
            for (size_t j = 0; j < u->conds.len; j++)
                if (cond_holds(cg, &u->conds.items[j]))
                    grew |= need(u, u->conds.items[j].place);
        }
    }
}

/* ---- values ---------------------------------------------------------------- */

LLVMValueRef cg_here_value(CgFn *f)
{
    return cg_call_rt(f, CG_RT_mos_node_id, NULL, 0, "here");
}

LLVMValueRef cg_place_value(CgFn *f, Place *p)
{
    Cg *cg = f->cg;
    switch (p->tag) {
    case PL_NODE: {
        LLVMValueRef k = LLVMConstInt(cg->t_i64, (unsigned long long)p->node, 1);
        return cg_call_rt(f, CG_RT_mos_node_of, &k, 1, "node");
    }
    case PL_PARAM:
        if (p->func) {
            ASSERT(f->place_args && f->decl == p->func, "a function's own place parameter");
            return f->place_args[p->index];
        }
        if (f->this_val && f->cls == p->cls && cg_stores_places(cg, p->cls))
            return cg_load_place_field(f, f->this_val, p->cls, p->index);
        return cg_here_value(f);    /* not stored: the plan says nobody needs it */
    case PL_HERE:
    case PL_UNKNOWN:
    case PL_POOL:
        break;
    }
    return cg_here_value(f);
}

void cg_place_args(CgFn *f, FuncDecl *callee, const Subst *s, LLVMValueRef *out)
{
    for (size_t j = 0; j < callee->place_params.len; j++)
        out[j] = cg_needs_place_arg(f->cg, callee, (int)j)
                     ? cg_place_value(f, tc_subst_place(s, tc_place_func_param(callee, (int)j)))
                     : LLVMConstInt(f->cg->t_i64, 0, 0);
}
