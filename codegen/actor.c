/* actor.c — actors (LANGUAGE.md §4): creation, sends, the functions that
 * run messages, and `get`.
 *
 * The runtime ABI is the "Actors" part of stdlib/mosaic_rt.h.  An actor
 * is an object whose struct starts with the runtime's header (class.c);
 * its methods are the plain method functions "mos.m.A.m"(this, params),
 * called directly with `this` = the actor for the actor's own bare and
 * `this.m()` calls.  Everything asynchronous goes through messages:
 *
 *   a!m(x, y)   receiver, then arguments, left to right; then
 *                   msg = mos_message_new(HEADER + 8*2, @"mos.msg.A.m", want)
 *                   store x, y into the 8-byte slots after the header
 *                   fut = mos_send(a, msg, "FILE:LINE:COL")
 *               one GC allocation (two with a future), the stores and one
 *               call: nothing else is on the sender's path.  `want` is 0
 *               when the send is a whole expression statement (the future
 *               would be dropped), and the runtime then makes none.  A null
 *               receiver is reported by mos_send ("null dereference" at
 *               the method name), so --no-checks does not remove it.
 *
 *   "mos.msg.A.m"(actor, msg) -> i64
 *               one per method that some `!` sends, declared at the first
 *               such send and emitted after every other body: loads the
 *               arguments from the slots, calls mos.m.A.m, and returns the
 *               result as the runtime's int64 (int as is, float's bits,
 *               bool 0/1, pointers' addresses, unit 0), which the runtime
 *               puts into the future when there is one.
 *
 *   get f       mos_future_get(f, where), then the int64 decoded back to
 *               the element type.
 *
 *   new A<p>(x) "mos.new.A"(p's node, its other places, x): actor =
 *               mos_actor_new(size, node), its places stored, then the
 *               constructor message "mos.ctor.A"(actor, msg), which stores
 *               the string defaults, runs the field initialisers and calls
 *               init with the arguments from the message — so init is the
 *               actor's first message, running on the actor's worker, and
 *               what it does (sends, `new`s) happens there.  When a class
 *               has no init and its initialisers are all constants, the
 *               message would have nothing to do that cannot be done before
 *               anyone knows the actor: the creator stores the values
 *               itself and sends nothing.
 *
 * The run functions are entered only from the runtime, never from
 * recursion, so they need no stack check of their own: the method they
 * call has one.
 *
 * Futures and actors are plain pointers everywhere else (module.c's
 * cg_type, arrays of MOS_ELEM_REF, identity comparison in expr.c).
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../stdlib/mosaic_rt.h"


/* ---- messages ----------------------------------------------------------- */

static LLVMValueRef message_size(Cg *cg, size_t nargs)
{
    return LLVMConstInt(cg->t_i64, MOS_MESSAGE_HEADER_SIZE + MOS_MESSAGE_SLOT_SIZE * nargs, 0);
}

static LLVMValueRef slot_addr(CgFn *f, LLVMValueRef msg, size_t i, const char *name)
{
    Cg *cg = f->cg;
    LLVMValueRef off = LLVMConstInt(cg->t_i64, MOS_MESSAGE_HEADER_SIZE + MOS_MESSAGE_SLOT_SIZE * i, 0);
    return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, msg, &off, 1,
                                 arena_printf("%s.slot", name));
}

/* Allocates a message for `run` and stores the arguments into it; the
 * values already have the parameters' types (bool as i1).  The method's
 * hidden place arguments (`places`, nplaces of them) follow the
 * arguments, one i64 slot each. */
static LLVMValueRef build_message(CgFn *f, LLVMValueRef run, ParamVec *params,
                                  LLVMValueRef *values, LLVMValueRef *places,
                                  size_t nplaces, bool want_future)
{
    Cg *cg = f->cg;
    LLVMValueRef args[3] = {
        message_size(cg, params->len + nplaces),
        run,
        LLVMConstInt(cg->t_i32, want_future, 0),
    };
    LLVMValueRef msg = cg_call_rt(f, CG_RT_mos_message_new, args, 3, "msg");
    for (size_t i = 0; i < params->len; i++) {
        Param *p = params->items[i];
        if (p->sym->type->kind != TY_POOL)      /* a pool is a place slot */
            cg_store(f, values[i], slot_addr(f, msg, i, p->name.text), p->sym->type, true);
    }
    for (size_t j = 0; j < nplaces; j++)
        cg_store(f, places[j], slot_addr(f, msg, params->len + j, "place"), ty_int, true);
    return msg;
}

/* Loads the arguments of a message into out[], as register values (but
 * for `pool C` parameters, which travel as places), and its nplaces place
 * slots into places[]. */
static void load_arguments(CgFn *f, LLVMValueRef msg, ParamVec *params, LLVMValueRef *out,
                           LLVMValueRef *places, size_t nplaces)
{
    size_t k = 0;
    for (size_t i = 0; i < params->len; i++) {
        Param *p = params->items[i];
        if (p->sym->type->kind != TY_POOL)
            out[k++] = cg_load(f, slot_addr(f, msg, i, p->name.text), p->sym->type, true,
                               p->name.text);
    }
    for (size_t j = 0; j < nplaces; j++)
        places[j] = cg_load(f, slot_addr(f, msg, params->len + j, "place"), ty_int, true,
                            "place");
}

/* ---- how messages travel between nodes (--distributed) ------------------- */

/* Records how the message of `run` travels: params' slots, then nplaces
 * place slots (of method fd's place parameters, NULL: a class's), then
 * the result.  A place is a node's number, or a pool's descriptor ('p'). */
static void record_kinds(Cg *cg, LLVMValueRef run, const ParamVec *params, FuncDecl *fd,
                         size_t nplaces, const Type *result)
{
    if (!cg->opt->distributed)
        return;
    size_t n = params->len + nplaces;
    char *kinds = arena_alloc(n + 3);
    for (size_t i = 0; i < params->len; i++)
        kinds[i] = cg_word_kind(params->items[i]->sym->type);
    for (size_t j = 0; j < nplaces; j++)
        kinds[params->len + j] = fd && tc_place_is_pool(tc_place_func_param(fd, (int)j)) ? 'p'
                                                                                         : 'i';
    kinds[n] = '>';
    kinds[n + 1] = cg_word_kind(result);
    kinds[n + 2] = '\0';
    CgMessageKind k = {run, kinds};
    VEC_PUSH(cg->message_kinds, k);
}

void cg_emit_message_table(Cg *cg)
{
    if (!cg->opt->distributed)
        return;
    size_t n = cg->message_kinds.len;
    LLVMValueRef *pairs = arena_alloc((2 * n + 1) * sizeof *pairs);
    for (size_t i = 0; i < n; i++) {
        pairs[2 * i] = cg->message_kinds.items[i].run;
        pairs[2 * i + 1] = cg_cstring(cg, cg->message_kinds.items[i].kinds, "kinds");
    }
    cg_emit_pair_table(cg, "mos_message_table", pairs, n);
}

/* ---- run functions -------------------------------------------------------- */

/* i64 name(ptr actor, ptr msg): a MosMessageRun. */
static LLVMValueRef declare_run(Cg *cg, const char *name)
{
    LLVMTypeRef params[2] = {cg->t_ptr, cg->t_ptr};
    LLVMTypeRef type = LLVMFunctionType(cg->t_i64, params, 2, 0);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, name, type);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_defined_fn_attrs(cg, fn);
    LLVMSetValueName2(LLVMGetParam(fn, 0), "actor", 5);
    LLVMSetValueName2(LLVMGetParam(fn, 1), "msg", 3);
    return fn;
}

/* The run function of a method's instance, declared on first use. */
static LLVMValueRef message_run(Cg *cg, CgInst *in)
{
    if (in->msg_run)
        return in->msg_run;
    in->msg_run = declare_run(cg, arena_printf("mos.msg.%s", in->name + strlen("mos.m.")));
    VEC_PUSH(cg->pending_runs, in);
    record_kinds(cg, in->msg_run, &in->func->params, in->func, in->nctx - in->nclass,
                 in->func->result_type);
    return in->msg_run;
}

/* mos.msg.A.m: arguments out of the message, call, encoded result. */
static void emit_message_run(Cg *cg, CgInst *in)
{
    FuncDecl *fd = in->func;
    LLVMValueRef fn = in->msg_run;
    CgFn f;
    cg_fn_begin(&f, cg, fn, NULL, fd->loc,
                arena_printf("%s.%s.msg", fd->owner->name.text, fd->name.text));
    size_t np = in->nctx - in->nclass;
    LLVMValueRef argv[fd->params.len + np + 1];
    argv[0] = LLVMGetParam(fn, 0);
    load_arguments(&f, LLVMGetParam(fn, 1), &fd->params, argv + 1 + np, argv + 1, np);
    unsigned nargs = 1 + (unsigned)np;
    for (size_t i = 0; i < fd->params.len; i++)
        nargs += fd->params.items[i]->sym->type->kind != TY_POOL;
    LLVMValueRef r = cg_call(&f, in->type, in->fn, argv, nargs,
                             arena_printf("call.%s", fd->name.text));
    LLVMBuildRet(cg->b, cg_value_to_word(&f, r, fd->result_type));
    f.calls_user = false;   /* see the essay: the method checks the stack */
    cg_fn_finish(&f, ty_int);
}

void cg_emit_message_runs(Cg *cg)
{
    /* by index: emitting never declares more, but stay correct if it did */
    for (size_t i = 0; i < cg->pending_runs.len; i++)
        emit_message_run(cg, cg->pending_runs.items[i]);
    cg->pending_runs.len = 0;
}

/* ---- creation --------------------------------------------------------------- */

static bool is_constant(const Expr *e)
{
    return e->kind == EX_NULL || e->kind == EX_STRING || cg_literal_number(e);
}

/* Can the creator initialise the actor itself (see the essay)?  Not
 * under --distributed, where the actor may live in another process: its
 * places travel in the constructor message, and everything is stored
 * there. */
static bool needs_constructor_message(Cg *cg, const ClassDecl *cls)
{
    if (cls->init || cg->opt->distributed)
        return true;
    for (size_t i = 0; i < cls->fields.len; i++) {
        const FieldDecl *fd = cls->fields.items[i];
        if (fd->init && !is_constant(fd->init))
            return true;
    }
    return false;
}

/* mos.ctor.A(actor, msg): defaults, field initialisers, init(args). */
static void emit_constructor_run(Cg *cg, CgInst *in, LLVMValueRef fn)
{
    ClassDecl *cls = in->cls;
    CgClass *c = cg_class(cg, cls);
    CgFn f;
    cg_fn_begin(&f, cg, fn, NULL, cls->loc, arena_printf("%s.ctor", cls->name.text));
    f.this_val = LLVMGetParam(fn, 0);
    f.cls = cls;
    f.inst = in;
    cg_frame_begin(&f, arena_printf("new %s", cls->name.text));
    static ParamVec no_params;
    ParamVec *params = cls->init ? &cls->init->params : &no_params;
    LLVMValueRef argv[params->len + 1];
    if (cg->opt->distributed) {     /* the places came in the message */
        LLVMValueRef places[c->nplaces];
        load_arguments(&f, LLVMGetParam(fn, 1), params, argv + 1, places, c->nplaces);
        cg_store_place_fields(&f, f.this_val, cls, places);
    }
    cg_init_fields(&f, cls);
    if (cls->init) {
        FuncDecl *init = cls->init;
        argv[0] = f.this_val;
        if (!cg->opt->distributed)
            load_arguments(&f, LLVMGetParam(fn, 1), &init->params, argv + 1, NULL, 0);
        CgInst *fi = cg_inst(cg, init, cls, in->shapes);
        cg_debug_loc(&f, cls->loc);
        cg_call(&f, fi->type, fi->fn, argv, (unsigned)init->params.len + 1, "");
    }
    cg_frame_pop(&f);
    LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i64, 0, 0));
    f.calls_user = false;   /* entered from the runtime only */
    cg_fn_finish(&f, ty_int);
}

/* mos.new.A(its places, init params) -> the actor */
void cg_emit_actor_new(Cg *cg, CgInst *in)
{
    ClassDecl *cls = in->cls;
    CgClass *c = cg_class(cg, cls);
    LLVMValueRef new_fn = in->fn;
    CgFn f;
    cg_fn_begin(&f, cg, new_fn, NULL, cls->loc, arena_printf("new.%s", cls->name.text));
    f.inst = in;
    ASSERT(c->nplaces >= 1, "an actor stores its places, its home first");
    LLVMValueRef args[3] = {
        LLVMConstInt(cg->t_i64, c->size, 0),
        LLVMGetParam(new_fn, 0),                             /* its home's node */
    };
    f.this_val = cg_call_rt(&f, CG_RT_mos_actor_new, args, 2, "actor");
    f.cls = cls;
    LLVMValueRef places[c->nplaces];
    for (unsigned j = 0; j < c->nplaces; j++)
        places[j] = LLVMGetParam(new_fn, j);
    bool distributed = cg->opt->distributed;
    if (!distributed)
        cg_store_place_fields(&f, f.this_val, cls, places);
    LLVMValueRef ctor = NULL;
    if (needs_constructor_message(cg, cls)) {
        ctor = declare_run(cg, arena_printf("mos.ctor.%s", in->name + strlen("mos.new.")));
        size_t n = cls->init ? cls->init->params.len : 0;
        LLVMValueRef values[n + 1];
        for (size_t j = 0; j < n; j++)
            values[j] = LLVMGetParam(new_fn, c->nplaces + (unsigned)j);
        static ParamVec no_params;
        ParamVec *params = cls->init ? &cls->init->params : &no_params;
        size_t nplaces = distributed ? c->nplaces : 0;
        record_kinds(cg, ctor, params, NULL, nplaces, ty_unit);
        LLVMValueRef msg = build_message(&f, ctor, params, values, places, nplaces, false);
        args[0] = f.this_val;
        args[1] = msg;
        args[2] = cg_where(cg, cls->loc);
        cg_call_rt(&f, CG_RT_mos_send, args, 3, "");
    } else {
        /* constants only: stored before the actor is known to anyone */
        cg_init_fields(&f, cls);
    }
    LLVMBuildRet(cg->b, f.this_val);
    cg_fn_finish(&f, ty_null);
    if (ctor)
        emit_constructor_run(cg, in, ctor);
}

/* ---- sends and get ----------------------------------------------------------- */

/* a!m(args) */
LLVMValueRef cg_send(CgFn *f, Expr *e, bool want_future)
{
    Cg *cg = f->cg;
    FuncDecl *fd = e->u.method_call.func;
    ExprVec *args = &e->u.method_call.args;
    ASSERT(fd && fd->owner && fd->owner->is_active, "a checked send names an actor's method");
    LLVMValueRef actor = cg_expr(f, e->u.method_call.object);
    CgInst *in = cg_callee_inst(cg, f->inst, fd, fd->owner, e->u.method_call.subst);
    size_t np = in->nctx - in->nclass;
    LLVMValueRef places[np + 1];
    cg_place_args(f, in, e->u.method_call.subst, places);
    LLVMValueRef values[args->len + 1];
    for (size_t i = 0; i < args->len; i++)      /* a pool is a place: in a slot */
        values[i] = args->items[i]->type->kind == TY_POOL ? NULL : cg_expr(f, args->items[i]);
    cg_debug_loc(f, e->u.method_call.method.loc);
    LLVMValueRef msg = build_message(f, message_run(cg, in), &fd->params, values, places, np,
                                     want_future);
    LLVMValueRef sargs[3] = {actor, msg, cg_where(cg, e->u.method_call.method.loc)};
    LLVMValueRef fut = cg_call_rt(f, CG_RT_mos_send, sargs, 3,
                                  arena_printf("fut.%s", fd->name.text));
    return want_future ? fut : LLVMConstNull(cg->t_ptr);
}

/* get e */
LLVMValueRef cg_get(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    LLVMValueRef fut = cg_expr(f, e->u.get.future);
    cg_debug_loc(f, e->loc);
    LLVMValueRef where = cg_where(cg, e->loc);
    if (f->decl) {
        CgWaitSite site = {where, f->decl->owner ? arena_printf("%s.%s", f->decl->owner->name.text,
                                                                f->decl->name.text)
                                                 : f->decl->name.text};
        VEC_PUSH(cg->wait_sites, site);
    }
    f->waits = true;
    LLVMValueRef args[2] = {fut, where};
    LLVMValueRef bits = cg_call_rt(f, CG_RT_mos_future_get, args, 2, "got.bits");
    return cg_word_to_value(f, bits, e->type);
}

void cg_emit_wait_sites(Cg *cg)
{
    size_t n = cg->wait_sites.len;
    LLVMValueRef *pairs = arena_alloc((2 * n + 1) * sizeof *pairs);
    for (size_t i = 0; i < n; i++) {
        pairs[2 * i] = cg->wait_sites.items[i].where;
        pairs[2 * i + 1] = cg_cstring(cg, cg->wait_sites.items[i].function, "function");
    }
    cg_emit_pair_table(cg, "mos_wait_sites", pairs, n);
}
