/* reach.c — instances: one LLVM function per declaration and shapes.
 *
 * Code generic in a place is compiled once per combination of layouts it
 * is used with (LANGUAGE.md §6), so that every field access in it is
 * specialised.  An instance (CgInst) is a function, a method, or the
 * construction of a class (what `new` runs), together with the *shape* of
 * each place of its context — its class's place parameters, then its own
 * (place parameters and `pool C` parameters): the TcLayout of the pool the
 * place stands for, or NULL for a node.  A method instance whose class's
 * home is a pool has a pooled `this` (a reference into the pool, see
 * pool.c), and receives the pool itself as a hidden argument.
 *
 * The pass, before anything is emitted (as ponyc's reach): start from the
 * all-node instance of every declaration, walk each instance's body, and
 * add the instance of every callee as its call reads it — the callee's
 * places through the call's substitution, then to shapes through the
 * caller's own — until no instance is new.  The same walk records the
 * places whose values each instance needs at run time (see places.c for
 * why and where they come from); a fixed point over those records decides
 * which classes keep their places in their objects and which hidden place
 * arguments callers must compute.  The code generator then finds every
 * callee it emits a call to among the instances found here.
 *
 * Type arguments (LANGUAGE.md §11) are already part of the key: the
 * checker makes each instantiation of a generic class or function a
 * declaration of its own (typecheck/generics.h), with concrete types, so
 * (declaration, shapes) here is (generic, type arguments, shapes).  The
 * checker has to make them, not this pass: it needs an instance's member
 * types at the very use that names it.  Generic code itself is never
 * reached.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"

/* A need that holds only if its condition does: the class (constructed
 * by `ctor`) stores its places, or `callee` needs its context place
 * `index`. */
typedef struct CondNeed {
    CgInst *ctor;
    CgInst *callee;
    int index;
    Place *place;
} CondNeed;

struct CgInstPlan {
    VEC(Place *) needs;
    VEC(CondNeed) conds;
};

/* ---- shapes ----------------------------------------------------------------- */

int cg_ctx_index(const CgInst *in, const Place *p)
{
    if (p->tag != PL_PARAM)
        return -1;
    if (p->cls && p->cls == in->cls)
        return p->index;
    if (p->func && p->func == in->func)
        return (int)in->nclass + p->index;
    return -1;
}

const TcLayout *cg_shape_of(const CgInst *in, const Place *p)
{
    if (!p)
        return NULL;
    if (p->tag == PL_POOL) {
        TcPool *pool = tc_pool_of_place(p);
        return pool ? pool->layout : NULL;
    }
    int i = cg_ctx_index(in, p);
    return i >= 0 ? in->shapes[i] : NULL;
}

/* ---- the table of instances ---------------------------------------------------- */

static bool same_shapes(const CgInst *in, const TcLayout **shapes)
{
    for (unsigned i = 0; i < in->nctx; i++)
        if (in->shapes[i] != shapes[i])
            return false;
    return true;
}

static const char *mangle(const char *base, const TcLayout **shapes, unsigned n)
{
    bool plain = true;
    for (unsigned i = 0; i < n; i++)
        plain &= shapes[i] == NULL;
    if (plain)
        return base;
    const char *s = base;
    for (unsigned i = 0; i < n; i++)
        s = arena_printf("%s%s%s", s, i ? "," : "$", shapes[i] ? shapes[i]->name : "-");
    return s;
}

CgInst *cg_inst(Cg *cg, FuncDecl *func, ClassDecl *cls, const TcLayout **shapes)
{
    const void *key = func ? (const void *)func : (const void *)cls;
    CgInstList *list = cg_map_get_ptr(&cg->insts, key);
    if (!list) {
        list = ARENA_NEW(CgInstList);
        cg_map_put_ptr(&cg->insts, key, list);
    }
    unsigned nclass = cls ? (unsigned)tc_class_nplaces(cls) : 0;
    unsigned nctx = nclass + (func ? (unsigned)tc_func_nplaces(func) : 0);
    for (size_t i = 0; i < list->len; i++)
        if (same_shapes(list->items[i], shapes))
            return list->items[i];
    ASSERT(!cg->reach_done, "every instance is found before code is emitted");
    CgInst *in = ARENA_NEW(CgInst);
    in->func = func;
    in->cls = cls;
    in->nclass = nclass;
    in->nctx = nctx;
    in->shapes = arena_alloc((nctx ? nctx : 1) * sizeof *in->shapes);
    for (unsigned i = 0; i < nctx; i++)
        in->shapes[i] = shapes[i];
    in->pooled_this = cls && nclass > 0 && shapes[0] != NULL;
    in->plan = ARENA_NEW(CgInstPlan);
    const char *base = func ? (func->owner ? arena_printf("mos.m.%s.%s", cls->name.text,
                                                          func->name.text)
                                           : arena_printf("mos.fn.%s", func->name.text))
                            : arena_printf("mos.new.%s", cls->name.text);
    in->name = mangle(base, shapes, nctx);
    VEC_PUSH(*list, in);
    VEC_PUSH(cg->inst_order, in);
    return in;
}

CgInst *cg_callee_inst(Cg *cg, const CgInst *caller, FuncDecl *callee, ClassDecl *cls,
                       const Subst *s)
{
    unsigned nclass = cls ? (unsigned)tc_class_nplaces(cls) : 0;
    unsigned nctx = nclass + (callee ? (unsigned)tc_func_nplaces(callee) : 0);
    const TcLayout *shapes[nctx + 1];
    for (unsigned i = 0; i < nclass; i++)
        shapes[i] = cg_shape_of(caller, tc_subst_place(s, tc_place_class_param(cls, (int)i)));
    for (unsigned j = nclass; j < nctx; j++)
        shapes[j] = cg_shape_of(caller, tc_subst_place(s, tc_place_func_param(callee,
                                                                           (int)(j - nclass))));
    return cg_inst(cg, callee, cls, shapes);
}

/* ---- the walk ---------------------------------------------------------------------- */

typedef struct Reach {
    Cg *cg;
    CgInst *in;
} Reach;

static bool plan_has(const CgInst *in, const Place *p)
{
    for (size_t i = 0; i < in->plan->needs.len; i++)
        if (in->plan->needs.items[i] == p)
            return true;
    return false;
}

/* Records that `in` needs the value of p; true when that is new.  Pools,
 * nodes and `here` are always at hand, and so is every class place of a
 * pooled `this` (its pool knows them). */
static bool need(CgInst *in, Place *p)
{
    if (!p || p->tag != PL_PARAM || plan_has(in, p))
        return false;
    if (p->cls && p->cls == in->cls && in->pooled_this)
        return false;
    VEC_PUSH(in->plan->needs, p);
    return true;
}

static void cond(Reach *r, CgInst *ctor, CgInst *callee, int index, Place *p)
{
    CondNeed c = {ctor, callee, index, p};
    VEC_PUSH(r->in->plan->conds, c);
}

/* A call of `callee` (its instance J) with substitution s: the hidden
 * places it is passed, and the pool of a pooled receiver. */
static void call_needs(Reach *r, CgInst *j, const Subst *s, Place *receiver_home)
{
    if (j->pooled_this)
        need(r->in, receiver_home);
    for (unsigned k = j->nclass; k < j->nctx; k++)
        cond(r, NULL, j, (int)k,
             tc_subst_place(s, tc_place_func_param(j->func, (int)(k - j->nclass))));
}

/* An access to what e's value lives in: the pool's value is needed when
 * it is one (the access goes through its clusters). */
static void access_needs(Reach *r, const Expr *obj)
{
    Place *home = obj && obj->type ? ty_home(obj->type) : NULL;
    if (home && cg_shape_of(r->in, home))
        need(r->in, home);
}

static void reach_new(Reach *r, Expr *e)
{
    ClassDecl *k = e->u.new_obj.cls;
    const Subst *s = e->u.new_obj.subst;
    CgInst *ctor = cg_callee_inst(r->cg, r->in, NULL, k, s);
    if (k->init)
        cg_callee_inst(r->cg, r->in, k->init, k, s);
    for (uint32_t i = 0; i < e->type->nplaces; i++) {
        Place *p = e->type->places[i];
        if (k->is_active || cg_knows_places(r->cg) || (i == 0 && ctor->pooled_this))
            need(r->in, p);
        else if (!ctor->pooled_this)
            cond(r, ctor, NULL, 0, p);
    }
}

/* After a node's operands (the walk's order does not matter here): what
 * the node itself reaches and needs. */
static bool reach_expr(AstWalk *w, Expr *e)
{
    Reach *r = w->ctx;
    Cg *cg = r->cg;
    switch (e->kind) {
    case EX_BINARY:
        if (e->u.binary.op == BIN_EQ || e->u.binary.op == BIN_NE) {
            /* identity across two pools compares the pools too (expr.c) */
            access_needs(r, e->u.binary.left);
            access_needs(r, e->u.binary.right);
        }
        return true;
    case EX_FIELD:
        if (e->u.field.res == RES_FIELD || e->u.field.res == RES_POOL_SIZE)
            access_needs(r, e->u.field.object);
        return true;
    case EX_INDEX:
        access_needs(r, e->u.index.object);
        return true;
    case EX_CALL: {
        FuncDecl *g = e->u.call.func;
        CgInst *j = NULL;
        if (e->u.call.res == RES_FUNC && g) {
            j = cg_callee_inst(cg, r->in, g, NULL, e->u.call.subst);
            call_needs(r, j, e->u.call.subst, NULL);
        } else if (e->u.call.res == RES_METHOD && g) {
            j = cg_callee_inst(cg, r->in, g, g->owner, e->u.call.subst);
            call_needs(r, j, e->u.call.subst, tc_place_class_param(g->owner, 0));
        }
        if (j == r->in)
            r->in->self_recursive = true;
        return true;
    }
    case EX_METHOD_CALL:
    case EX_SEND: {
        FuncDecl *g = e->u.method_call.func;
        if (!g)
            return true;    /* a string method: the runtime's */
        CgInst *j = cg_callee_inst(cg, r->in, g, g->owner, e->u.method_call.subst);
        call_needs(r, j, e->u.method_call.subst, ty_home(e->u.method_call.object->type));
        if (j == r->in && e->kind == EX_METHOD_CALL)    /* a send is no call */
            r->in->self_recursive = true;
        return true;
    }
    case EX_NEW:
        reach_new(r, e);
        return true;
    case EX_NEW_ARRAY:
    case EX_ARRAY_LIT:
    case EX_NEW_MAP:
    case EX_MAP_LIT:
        if (cg_knows_places(cg))
            need(r->in, ty_home(e->type));
        return true;
    default:
        return true;
    }
}

static bool reach_stmt(AstWalk *w, Stmt *s)
{
    Reach *r = w->ctx;
    if (s->kind == ST_FOR_IN && s->u.for_in.iterable->type->kind == TY_POOL)
        access_needs(r, s->u.for_in.iterable);
    if (s->kind == ST_POOL) {
        /* a pool statement makes its pools: their nodes and the places
         * their objects' classes take */
        for (size_t i = 0; i < s->u.pool.pools.len; i++) {
            TcPool *p = tc_pool(s->u.pool.pools.items[i]);
            need(r->in, p->node);
            for (uint32_t k = 1; k < p->elem->nplaces; k++)
                need(r->in, p->elem->places[k]);
        }
    }
    return true;
}

static void reach_inst(Cg *cg, CgInst *in)
{
    Reach r = {cg, in};
    AstWalk w = {reach_expr, NULL, reach_stmt, &r};
    if (in->func) {
        ast_walk_stmt(&w, in->func->body);
        return;
    }
    for (size_t j = 0; j < in->cls->fields.len; j++)
        ast_walk_expr(&w, in->cls->fields.items[j]->init);
}

/* ---- the plan's fixed point ------------------------------------------------------------ */

bool cg_needs_place_arg(const CgInst *in, int ctx_index)
{
    ASSERT(ctx_index >= (int)in->nclass, "a hidden argument is one of the function's places");
    return plan_has(in, tc_place_func_param(in->func, ctx_index - (int)in->nclass));
}

bool cg_stores_places(Cg *cg, ClassDecl *cls)
{
    if (cls->is_active || cg_knows_places(cg))
        return true;
    CgInstList *lists[cls->methods.len + 1];
    size_t nl = 0;
    lists[nl++] = cg_map_get_ptr(&cg->insts, cls);
    for (size_t j = 0; j < cls->methods.len; j++)
        lists[nl++] = cg_map_get_ptr(&cg->insts, cls->methods.items[j]);
    for (size_t l = 0; l < nl; l++)
        for (size_t i = 0; lists[l] && i < lists[l]->len; i++) {
            CgInst *in = lists[l]->items[i];
            if (in->pooled_this)
                continue;
            for (size_t k = 0; k < in->plan->needs.len; k++)
                if (in->plan->needs.items[k]->cls == cls)
                    return true;
        }
    return false;
}

static bool cond_holds(Cg *cg, const CondNeed *c)
{
    return c->ctor ? cg_stores_places(cg, c->ctor->cls) : cg_needs_place_arg(c->callee, c->index);
}

void cg_reach(Cg *cg)
{
    Program *p = cg->program;
    const TcLayout *none[64] = {0};     /* the all-node shapes of any declaration */
    for (size_t i = 0; i < p->decls.len; i++) {
        Decl *d = p->decls.items[i];
        /* generic code is compiled only as its instances (generics.h) */
        if (d->kind == DECL_FUNC && !tc_is_generic_func(d->u.func)) {
            ASSERT(tc_func_nplaces(d->u.func) <= 64, "few place parameters");
            cg_inst(cg, d->u.func, NULL, none);
        } else if (d->kind == DECL_CLASS && !tc_is_generic_class(d->u.cls)) {
            ClassDecl *k = d->u.cls;
            ASSERT(tc_class_nplaces(k) <= 32, "few place parameters");
            cg_inst(cg, NULL, k, none);
            for (size_t j = 0; j < k->methods.len; j++)
                if (!tc_is_generic_func(k->methods.items[j]))
                    cg_inst(cg, k->methods.items[j], k, none);
        }
    }
    /* by index: walking an instance adds its callees at the end */
    for (size_t i = 0; i < cg->inst_order.len; i++)
        reach_inst(cg, cg->inst_order.items[i]);
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < cg->inst_order.len; i++) {
            CgInst *in = cg->inst_order.items[i];
            for (size_t j = 0; j < in->plan->conds.len; j++)
                if (cond_holds(cg, &in->plan->conds.items[j]))
                    grew |= need(in, in->plan->conds.items[j].place);
        }
    }
    cg->reach_done = true;
}
