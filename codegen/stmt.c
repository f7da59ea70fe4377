/* stmt.c — statements and function bodies.
 *
 * A function is emitted in three parts: an `entry` block that receives the
 * allocas of the local slots as they are first met, the body starting in
 * the `body` block, and — once the body is done — the stack check, which is
 * appended to `entry` last because only then do we know whether the body
 * calls user code at all (a function that calls no user function cannot
 * recurse, so it needs no check and, on x86, keeps its frame pointer
 * free).  Panic blocks are moved behind everything else, out of the hot
 * path.
 *
 * Every local (let/var, parameter, loop variable, hidden loop slot) lives
 * in one alloca named after it ("x.addr"); mem2reg turns them into SSA
 * registers from -O1 on, and at -O0 they are what a debugger shows.
 *
 * Structured control flow only: if, while, the two for loops, break and
 * continue (a stack of loop targets), return.  When a statement ends the
 * current block (return, break, continue), the rest of its enclosing block
 * is unreachable and is not emitted at all: a checked program may contain
 * it, but it can have no effect.  Future blocks are created detached and
 * appended when their turn comes, so the blocks of the IR read in source
 * order.
 */
#include <string.h>

#include "cg_internal.h"
#include "../stdlib/mosaic_rt.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"

bool cg_terminated(CgFn *f)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(f->cg->b)) != NULL;
}

/* Appends a detached block to the function and continues there. */
static void start_block(CgFn *f, LLVMBasicBlockRef bb)
{
    LLVMAppendExistingBasicBlock(f->fn, bb);
    LLVMPositionBuilderAtEnd(f->cg->b, bb);
}

static LLVMBasicBlockRef new_block(CgFn *f, const char *name)
{
    return LLVMCreateBasicBlockInContext(f->cg->ctx, name);
}

static void branch_to(CgFn *f, LLVMBasicBlockRef bb)
{
    if (!cg_terminated(f))
        LLVMBuildBr(f->cg->b, bb);
}

void cg_fn_begin(CgFn *f, Cg *cg, LLVMValueRef fn, FuncDecl *decl, Loc loc,
                 const char *debug_name)
{
    memset(f, 0, sizeof *f);
    f->cg = cg;
    f->fn = fn;
    f->decl = decl;
    f->loc = loc;
    f->nslots = decl ? decl->nlocals : 0;
    f->slots = f->nslots ? arena_alloc((size_t)f->nslots * sizeof *f->slots) : NULL;
    LLVMSetCurrentDebugLocation2(cg->b, NULL);
    f->entry = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
    f->body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
    LLVMPositionBuilderAtEnd(cg->b, f->body);
    cg_debug_function(f, debug_name, loc);
}

void cg_fn_finish(CgFn *f, const Type *result)
{
    Cg *cg = f->cg;
    if (!cg_terminated(f)) {
        if (result->kind == TY_UNIT) {
            cg_frame_pop(f);
            LLVMBuildRetVoid(cg->b);
        } else {    /* the checker proved every path returns */
            LLVMBuildUnreachable(cg->b);
        }
    }
    LLVMPositionBuilderAtEnd(cg->b, f->entry);
    cg_debug_fields(f);
    cg_debug_prologue(f);   /* the stack check's panic has a location */
    cg_frame_push(f);
    if (f->calls_user && !f->no_stack_check)
        cg_stack_check(f);
    else
        LLVMBuildBr(cg->b, f->body);
    for (size_t i = 0; i < f->cold.len; i++)
        LLVMMoveBasicBlockAfter(f->cold.items[i], LLVMGetLastBasicBlock(f->fn));
    LLVMSetCurrentDebugLocation2(cg->b, NULL);
}

static LLVMValueRef make_slot(CgFn *f, Sym *sym, int arg_no)
{
    ASSERT(sym && sym->slot >= 0 && sym->slot < f->nslots, "a checked local has a slot");
    LLVMValueRef *cell = &f->slots[sym->slot];
    if (*cell)
        return *cell;
    const char *name = arena_printf("%s.addr", sym->name ? sym->name : "tmp");
    *cell = cg_entry_alloca(f, cg_type(f->cg, sym->type), name);
    if (sym->kind != SYM_HIDDEN)
        cg_debug_variable(f, sym, *cell, arg_no);
    return *cell;
}

LLVMValueRef cg_slot(CgFn *f, Sym *sym)
{
    return make_slot(f, sym, 0);
}

/* A cell in the entry block: every local's (make_slot), and hidden ones
 * that are not Syms (the counter of a range loop, a pool's slot, the parts
 * of a string chain). */
LLVMValueRef cg_entry_alloca(CgFn *f, LLVMTypeRef type, const char *name)
{
    LLVMPositionBuilderAtEnd(f->cg->alloca_b, f->entry);
    return LLVMBuildAlloca(f->cg->alloca_b, type, name);
}

static void emit_stmt(CgFn *f, Stmt *s);

/* block = "{" stmt* "}" */
static void emit_block(CgFn *f, Stmt *s)
{
    ASSERT(s->kind == ST_BLOCK, "a block");
    for (size_t i = 0; i < s->u.block.stmts.len; i++) {
        if (cg_terminated(f))
            break;      /* after return/break/continue: dead code */
        emit_stmt(f, s->u.block.stmts.items[i]);
    }
}

/* let x[: T] = e  /  var x[: T] [= e] */
static void emit_let(CgFn *f, Stmt *s)
{
    Sym *sym = s->u.let.sym;
    LLVMValueRef v = s->u.let.init ? cg_expr(f, s->u.let.init)
                                   : cg_default_value(f->cg, sym->type);
    cg_store(f, v, cg_slot(f, sym), sym->type, false);
}

/* target = e,  target op= e
 * Operands are evaluated left to right: the target's object and index,
 * then the value.  A plain assignment checks the target (null, bounds)
 * after evaluating the value, when the store happens; a compound one
 * checks it before, when it loads the old value (as Java does): both
 * through one access descriptor (access.c). */
static void emit_assign(CgFn *f, Stmt *s)
{
    Expr *t = s->u.assign.target, *value = s->u.assign.value;
    bool compound = s->u.assign.compound;
    if (t->kind == EX_NAME && t->u.name.res == RES_LOCAL) {
        Sym *sym = t->u.name.sym;
        LLVMValueRef slot = cg_slot(f, sym);
        LLVMValueRef v;
        if (compound) {
            LLVMValueRef old = cg_load(f, slot, sym->type, false, "old");
            LLVMValueRef r = cg_expr(f, value);
            cg_debug_loc(f, s->loc);
            v = cg_arith(f, s->u.assign.op, sym->type, value->type, old, r, s->loc);
        } else {
            v = cg_expr(f, value);
        }
        cg_store(f, v, slot, sym->type, false);
        return;
    }

    CgAccess a;
    switch (t->kind) {
    case EX_NAME:
        ASSERT(t->u.name.res == RES_FIELD && f->this_val, "a bare field inside a class");
        a = cg_field_access(f->this_val, tc_this_type(f->cls), t->u.name.field, t->loc, t,
                            true);
        break;
    case EX_FIELD: {
        ASSERT(t->u.field.res == RES_FIELD, "only fields are assignable");
        Expr *objx = t->u.field.object;
        LLVMValueRef obj = cg_expr(f, objx);
        a = cg_field_access(obj, objx->type, t->u.field.decl, t->u.field.field.loc, t,
                            cg_known_nonnull(objx));
        break;
    }
    case EX_INDEX: {
        Expr *arrx = t->u.index.object;
        if (arrx->type->kind == TY_MAP) {
            cg_map_assign(f, s);
            return;
        }
        ASSERT(arrx->type->kind == TY_ARRAY, "the checker refuses assignment to a pool element (E0401)");
        LLVMValueRef arr = cg_expr(f, arrx);
        LLVMValueRef idx = cg_expr(f, t->u.index.index);
        a = cg_elem_access(arr, arrx->type, idx, t->loc, t, cg_known_nonnull(arrx), false);
        break;
    }
    default:
        INTERNAL_ERROR("codegen: assignment to something not assignable");
    }

    LLVMValueRef v;
    if (compound) {
        cg_debug_loc(f, s->loc);
        LLVMValueRef old = cg_access_load(f, &a, "old");
        LLVMValueRef r = cg_expr(f, value);
        cg_debug_loc(f, s->loc);
        if (a.kind == CG_ACC_ELEM)
            cg_access_recheck(&a);      /* the value's calls may have grown the array */
        v = cg_arith(f, s->u.assign.op, a.type, value->type, old, r, s->loc);
    } else {
        v = cg_expr(f, value);
        cg_debug_loc(f, s->loc);
    }
    cg_access_store(f, &a, v);
}

/* if c { } [else if c { } | else { }] */
static void emit_if(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    LLVMValueRef c = cg_cond(f, s->u.if_.cond);
    LLVMBasicBlockRef then_bb = new_block(f, "if.then");
    LLVMBasicBlockRef else_bb = s->u.if_.else_stmt ? new_block(f, "if.else") : NULL;
    LLVMBasicBlockRef end_bb = NULL;
    if (!else_bb)
        end_bb = new_block(f, "if.end");
    LLVMBuildCondBr(cg->b, c, then_bb, else_bb ? else_bb : end_bb);

    start_block(f, then_bb);
    emit_block(f, s->u.if_.then_block);
    if (!cg_terminated(f)) {
        if (!end_bb)
            end_bb = new_block(f, "if.end");
        LLVMBuildBr(cg->b, end_bb);
    }
    if (else_bb) {
        start_block(f, else_bb);
        emit_stmt(f, s->u.if_.else_stmt);
        if (!cg_terminated(f)) {
            if (!end_bb)
                end_bb = new_block(f, "if.end");
            LLVMBuildBr(cg->b, end_bb);
        }
    }
    /* no end block: both branches left; the current block is terminated */
    if (end_bb)
        start_block(f, end_bb);
}

static void push_loop(CgFn *f, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont)
{
    CgLoop l = {brk, cont};
    VEC_PUSH(f->loops, l);
}

/* while c { } */
static void emit_while(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    LLVMBasicBlockRef cond_bb = new_block(f, "while.cond");
    LLVMBasicBlockRef body_bb = new_block(f, "while.body");
    LLVMBasicBlockRef end_bb = new_block(f, "while.end");
    LLVMBuildBr(cg->b, cond_bb);
    start_block(f, cond_bb);
    cg_debug_loc(f, s->u.while_.cond->loc);
    LLVMBuildCondBr(cg->b, cg_cond(f, s->u.while_.cond), body_bb, end_bb);
    start_block(f, body_bb);
    push_loop(f, end_bb, cond_bb);
    emit_block(f, s->u.while_.body);
    f->loops.len--;
    branch_to(f, cond_bb);
    start_block(f, end_bb);
}

/* for i in a..b { }
 * `b` is evaluated once, into the hidden limit slot; a hidden counter
 * drives the loop and the variable is set from it at each iteration.  The
 * counter is below the limit when incremented, so the increment cannot
 * overflow (nsw, which helps LLVM's loop analyses). */
static void emit_for_range(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    Sym *var = s->u.for_range.sym;
    LLVMValueRef from = cg_expr(f, s->u.for_range.from);
    LLVMValueRef to = cg_expr(f, s->u.for_range.to);
    LLVMValueRef limit = cg_slot(f, s->u.for_range.limit_sym);
    LLVMBuildStore(cg->b, to, limit);
    LLVMValueRef counter = cg_entry_alloca(f, cg->t_i64,
                                      arena_printf("%s.next.addr", var->name));
    LLVMBuildStore(cg->b, from, counter);
    LLVMValueRef var_slot = cg_slot(f, var);

    LLVMBasicBlockRef cond_bb = new_block(f, "for.cond");
    LLVMBasicBlockRef body_bb = new_block(f, "for.body");
    LLVMBasicBlockRef step_bb = new_block(f, "for.step");
    LLVMBasicBlockRef end_bb = new_block(f, "for.end");
    LLVMBuildBr(cg->b, cond_bb);

    start_block(f, cond_bb);
    LLVMValueRef i = LLVMBuildLoad2(cg->b, cg->t_i64, counter, var->name);
    LLVMValueRef lim = LLVMBuildLoad2(cg->b, cg->t_i64, limit, "limit");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, i, lim, "for.more"),
                    body_bb, end_bb);

    start_block(f, body_bb);
    LLVMBuildStore(cg->b, i, var_slot);
    push_loop(f, end_bb, step_bb);
    emit_block(f, s->u.for_range.body);
    f->loops.len--;
    branch_to(f, step_bb);

    start_block(f, step_bb);
    LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->t_i64, counter, var->name);
    LLVMBuildStore(cg->b, LLVMBuildNSWAdd(cg->b, cur, LLVMConstInt(cg->t_i64, 1, 0),
                                          "next"), counter);
    LLVMBuildBr(cg->b, cond_bb);
    start_block(f, end_bb);
}

/* The loop of `for x in ...`: the hidden index runs from 0 while it is
 * below `limit` (evaluated once, before) and, when `live` is an array,
 * below that array's length at each turn; `set` then gives the loop
 * variable its value from the index, and may return a condition under
 * which this turn is skipped (NULL: never). */
typedef LLVMValueRef (*SetLoopVar)(CgFn *f, Stmt *s, LLVMValueRef index, void *ctx);

static void emit_indexed_loop(CgFn *f, Stmt *s, LLVMValueRef limit, LLVMValueRef live,
                              SetLoopVar set, void *ctx)
{
    Cg *cg = f->cg;
    LLVMValueRef index = cg_slot(f, s->u.for_in.index_sym);
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i64, 0, 0), index);

    LLVMBasicBlockRef cond_bb = new_block(f, "for.cond");
    LLVMBasicBlockRef body_bb = new_block(f, "for.body");
    LLVMBasicBlockRef step_bb = new_block(f, "for.step");
    LLVMBasicBlockRef end_bb = new_block(f, "for.end");
    LLVMBuildBr(cg->b, cond_bb);

    start_block(f, cond_bb);
    LLVMValueRef i = LLVMBuildLoad2(cg->b, cg->t_i64, index, "index");
    LLVMValueRef more = LLVMBuildICmp(cg->b, LLVMIntSLT, i, limit, "for.more");
    if (live) {
        Expr *it = s->u.for_in.iterable;
        LLVMValueRef len = cg_length_far(f, cg_may_be_remote(f, s), live, it->type, it->loc);
        more = LLVMBuildAnd(cg->b, more, LLVMBuildICmp(cg->b, LLVMIntSLT, i, len, ""),
                            "for.more");
    }
    LLVMBuildCondBr(cg->b, more, body_bb, end_bb);

    start_block(f, body_bb);
    LLVMValueRef skip = set(f, s, i, ctx);
    if (skip) {
        LLVMBasicBlockRef visit_bb = new_block(f, "for.visit");
        LLVMBuildCondBr(cg->b, skip, step_bb, visit_bb);
        start_block(f, visit_bb);
    }
    push_loop(f, end_bb, step_bb);
    emit_block(f, s->u.for_in.body);
    f->loops.len--;
    branch_to(f, step_bb);

    start_block(f, step_bb);
    LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->t_i64, index, "index");
    LLVMBuildStore(cg->b, LLVMBuildNSWAdd(cg->b, cur, LLVMConstInt(cg->t_i64, 1, 0),
                                          "index.next"), index);
    LLVMBuildBr(cg->b, cond_bb);
    start_block(f, end_bb);
}

/* o = the object number index + 1 */
static LLVMValueRef set_pool_object(CgFn *f, Stmt *s, LLVMValueRef i, void *ctx)
{
    (void)ctx;
    Cg *cg = f->cg;
    Sym *var = s->u.for_in.sym;
    LLVMValueRef n = LLVMBuildNUWAdd(cg->b, i, LLVMConstInt(cg->t_i64, 1, 0), "number");
    LLVMBuildStore(cg->b, LLVMBuildIntToPtr(cg->b, n, cg->t_ptr, var->name), cg_slot(f, var));
    return NULL;
}

/* x = arr[index], known in bounds; ctx is the array's CgAccess template */
static LLVMValueRef set_array_element(CgFn *f, Stmt *s, LLVMValueRef i, void *ctx)
{
    CgAccess a = *(CgAccess *)ctx;
    a.index = i;
    Sym *var = s->u.for_in.sym;
    LLVMValueRef x = cg_access_load(f, &a, var->name);
    cg_store(f, x, cg_slot(f, var), a.type, false);
    return NULL;
}

/* The keys of `for k in m`, taken when the loop starts. */
typedef struct MapLoop {
    LLVMValueRef map, keys, node;
    const Type *type;
} MapLoop;

/* k = keys[index]; skipped when m no longer has it */
static LLVMValueRef set_map_key(CgFn *f, Stmt *s, LLVMValueRef i, void *ctx)
{
    Cg *cg = f->cg;
    MapLoop *ml = ctx;
    Sym *var = s->u.for_in.sym;
    const Type *key = ml->type->key;
    LLVMValueRef addr = LLVMBuildInBoundsGEP2(cg->b, cg_mem_type(cg, key),
                                              cg_array_data(f, ml->keys), &i, 1, "key.addr");
    LLVMValueRef k = cg_load(f, addr, key, true, var->name);
    cg_store(f, k, cg_slot(f, var), key, false);
    if (ml->node)
        cg_count_access(f, s, s->u.for_in.iterable->loc, ml->node, EFF_READ);
    LLVMValueRef args[3] = {ml->map, cg_to_word(cg, k, key),
                            cg_where(cg, s->u.for_in.iterable->loc)};
    LLVMValueRef has = cg_call_rt_far(f, cg_may_be_remote(f, s), CG_RT_mos_map_has, args, 3,
                                      arena_printf("r%cw>b", cg_word_kind(key)), "present");
    return LLVMBuildICmp(cg->b, LLVMIntEQ, has, LLVMConstInt(cg->t_i32, 0, 0), "removed");
}

/* for k in m { }
 * LANGUAGE.md §9: the keys present when the loop starts, in the map's
 * order, skipping any removed meanwhile — so the loop walks a snapshot
 * of the keys (m.keys()) and asks the map about each. */
static void emit_for_map(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    Expr *iterable = s->u.for_in.iterable;
    LLVMValueRef m = cg_expr(f, iterable);
    LLVMBuildStore(cg->b, m, cg_slot(f, s->u.for_in.iter_sym));
    if (!cg_known_nonnull(iterable))
        cg_null_check(f, m, iterable->loc, "null dereference: iterating over a null map");
    LLVMValueRef args[2] = {m, cg_where(cg, iterable->loc)};
    /* the keys come here, whichever node the map is on */
    MapLoop ml = {m, cg_call_rt_far(f, cg_may_be_remote(f, s), CG_RT_mos_map_keys, args, 2,
                                    "rw>a", "keys"),
                  NULL, iterable->type};
    if (cg_counts(f, iterable->type))
        ml.node = cg_remote_node(f, m, iterable->type);
    emit_indexed_loop(f, s, cg_array_length(f, ml.keys), NULL, set_map_key, &ml);
}

/* for o in P { }
 * The pool's size is read once: objects allocated by the body are not
 * visited (as for arrays, LANGUAGE.md §9).  o is the reference 1, 2, …, so
 * it is never null and accesses through it need no check (cg_known_nonnull). */
static void emit_for_pool(CgFn *f, Stmt *s)
{
    Expr *iterable = s->u.for_in.iterable;
    LLVMValueRef pool = cg_place_value(f, ty_home(iterable->type));
    emit_indexed_loop(f, s, cg_pool_size(f, pool), NULL, set_pool_object, NULL);
}

/* for w in s.split(sep) { } when w never outlives its turn (confine.c):
 * the runtime's split iterator, in this frame, hands out each piece in one
 * reused header, so the loop makes no array and no string per piece.  The
 * string and the separator are evaluated once, in that order, and an
 * empty separator is the runtime error at the call, as for the array. */
static bool is_split_loop(CgFn *f, const Stmt *s)
{
    const Expr *it = s->u.for_in.iterable;
    return it->kind == EX_METHOD_CALL && it->u.method_call.builtin == SM_SPLIT &&
           !f->cg->opt->count_remote && cg_loop_var_confined(s);
}

static void emit_for_split(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    Expr *call = s->u.for_in.iterable;
    Sym *var = s->u.for_in.sym;
    LLVMValueRef str = cg_expr(f, call->u.method_call.object);
    LLVMValueRef sep = cg_expr(f, call->u.method_call.args.items[0]);
    cg_debug_loc(f, call->loc);
    LLVMValueRef iter = cg_entry_alloca(f, LLVMArrayType(cg->t_i8, MOS_SPLIT_ITER_SIZE),
                                        "split.iter");
    LLVMSetAlignment(iter, 8);
    LLVMValueRef where = cg_where(cg, call->loc);
    LLVMValueRef begin[4] = {iter, str, sep, where};
    cg_call_rt(f, CG_RT_mos_split_begin, begin, 4, "");

    LLVMBasicBlockRef next_bb = new_block(f, "split.next");
    LLVMBasicBlockRef body_bb = new_block(f, "split.body");
    LLVMBasicBlockRef end_bb = new_block(f, "split.end");
    LLVMBuildBr(cg->b, next_bb);
    start_block(f, next_bb);
    LLVMValueRef next[2] = {iter, where};
    LLVMValueRef piece = cg_call_rt(f, CG_RT_mos_split_next, next, 2, var->name);
    LLVMBuildCondBr(cg->b, LLVMBuildIsNotNull(cg->b, piece, "split.more"), body_bb, end_bb);
    start_block(f, body_bb);
    cg_store(f, piece, cg_slot(f, var), var->type, false);
    push_loop(f, end_bb, next_bb);
    emit_block(f, s->u.for_in.body);
    f->loops.len--;
    branch_to(f, next_bb);
    start_block(f, end_bb);
}

/* for x in arr { }
 * The array is evaluated once (iter slot) and must not be null.  The loop
 * visits index i while i is below both the length at the start and the
 * length now (LANGUAGE.md §9: appended elements are not visited, and a
 * loop over an array that shrinks ends early), so elements are read
 * without a bounds check. */
static void emit_for_in(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    Expr *iterable = s->u.for_in.iterable;
    if (iterable->type->kind == TY_POOL) {
        emit_for_pool(f, s);
        return;
    }
    if (iterable->type->kind == TY_MAP) {
        emit_for_map(f, s);
        return;
    }
    if (is_split_loop(f, s)) {
        emit_for_split(f, s);
        return;
    }
    LLVMValueRef arr = cg_expr(f, iterable);
    LLVMBuildStore(cg->b, arr, cg_slot(f, s->u.for_in.iter_sym));
    if (!cg_known_nonnull(iterable))
        cg_null_check(f, arr, iterable->loc, "null dereference: iterating over a null array");
    LLVMValueRef len = cg_length_far(f, cg_may_be_remote(f, s), arr, iterable->type,
                                     iterable->loc);
    CgAccess a = cg_elem_access(arr, iterable->type, NULL, iterable->loc, s, true, true);
    /* --count-remote: where the array lives, found once */
    if (cg_counts(f, iterable->type))
        a.remote_node = cg_remote_node(f, arr, iterable->type);
    emit_indexed_loop(f, s, len, arr, set_array_element, &a);
}

static void emit_stmt(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    cg_debug_loc(f, s->loc);
    switch (s->kind) {
    case ST_LET:
        emit_let(f, s);
        return;
    case ST_ASSIGN:
        emit_assign(f, s);
        return;
    case ST_EXPR:
        if (s->u.expr.expr->kind == EX_SEND)
            cg_send(f, s->u.expr.expr, false);     /* the future is dropped: none */
        else
            cg_expr(f, s->u.expr.expr);
        return;
    case ST_IF:
        emit_if(f, s);
        return;
    case ST_WHILE:
        emit_while(f, s);
        return;
    case ST_FOR_RANGE:
        emit_for_range(f, s);
        return;
    case ST_FOR_IN:
        emit_for_in(f, s);
        return;
    case ST_BREAK:
        ASSERT(f->loops.len, "the checker refuses break outside loops");
        LLVMBuildBr(cg->b, f->loops.items[f->loops.len - 1].break_to);
        return;
    case ST_CONTINUE:
        ASSERT(f->loops.len, "the checker refuses continue outside loops");
        LLVMBuildBr(cg->b, f->loops.items[f->loops.len - 1].continue_to);
        return;
    case ST_RETURN:
        if (s->u.ret.value) {
            LLVMValueRef v = cg_expr(f, s->u.ret.value);
            if (v) {
                cg_debug_loc(f, s->loc);
                cg_frame_pop(f);
                LLVMBuildRet(cg->b, v);
                return;
            }
        }
        cg_frame_pop(f);
        LLVMBuildRetVoid(cg->b);
        return;
    case ST_BLOCK:
        emit_block(f, s);
        return;
    case ST_POOL:
        cg_emit_pool_stmt(f, s);
        return;
    }
    INTERNAL_ERROR("codegen: a statement the checker does not know");
}

/* A self-recursive instance with tail calls on (checks.c): its function
 * passes its arguments to the body's, with the highest virtual frame, so
 * that the body's first frame is judged by its real address. */
static void emit_call_of_body(Cg *cg, CgInst *in)
{
    unsigned n = LLVMCountParams(in->fn);
    LLVMValueRef argv[n + 1];
    for (unsigned i = 0; i < n; i++)
        argv[i] = LLVMGetParam(in->fn, i);
    argv[n] = LLVMConstInt(cg->t_i64, UINT64_MAX, 0);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(cg->ctx, in->fn, "entry");
    LLVMPositionBuilderAtEnd(cg->b, bb);
    LLVMSetCurrentDebugLocation2(cg->b, NULL);
    /* notail, as every call but a self call (checks.c): LLVM inlines this
     * function into its callers, and a self call of the body inlined
     * through a mutual recursion would otherwise become a jump that
     * starts the virtual frame afresh. */
    LLVMValueRef call = LLVMBuildCall2(cg->b, in->rec_type, in->rec_fn, argv, n + 1, "");
    cg_set_notail(cg, call);
    if (LLVMGetReturnType(in->type) == cg->t_void)
        LLVMBuildRetVoid(cg->b);
    else
        LLVMBuildRet(cg->b, call);
}

/* The body of instance in as function fn (its fn, or its rec_fn);
 * returns whether it has a `get`. */
static bool emit_body(Cg *cg, CgInst *in, LLVMValueRef fn, bool check_stack)
{
    FuncDecl *fd = in->func;
    CgFn f;
    const char *dname = fd->owner
        ? arena_printf("%s.%s", fd->owner->name.text, fd->name.text)
        : fd->name.text;
    cg_fn_begin(&f, cg, fn, fd, fd->loc, dname);
    f.inst = in;
    f.no_stack_check = !check_stack;
    unsigned n = 0;
    if (fd->owner)
        f.this_val = LLVMGetParam(fn, n++);
    if (in->pooled_this)
        f.home = LLVMGetParam(fn, n++);
    f.cls = fd->owner;
    size_t np = in->nctx - in->nclass;
    if (np) {
        f.place_args = arena_alloc(np * sizeof *f.place_args);
        for (size_t i = 0; i < np; i++)
            f.place_args[i] = LLVMGetParam(fn, n++);
    }
    if (in->rec_fn)
        f.vframe = LLVMGetParam(fn, LLVMCountParams(fn) - 1);
    cg_debug_prologue(&f);
    cg_debug_this(&f);
    for (size_t i = 0; i < fd->params.len; i++) {
        Sym *sym = fd->params.items[i]->sym;
        if (sym->type->kind == TY_POOL)
            continue;       /* a place: among the hidden arguments */
        LLVMValueRef slot = make_slot(&f, sym, (int)i + 1);
        LLVMBuildStore(cg->b, LLVMGetParam(fn, n++), slot);
    }
    cg_frame_begin(&f, dname);
    emit_block(&f, fd->body);
    if (!cg_terminated(&f) && fd->result_type->kind == TY_UNIT)
        cg_debug_loc(&f, fd->body->u.block.close);
    cg_fn_finish(&f, fd->result_type);
    return f.waits;
}

/* Levels of a self recursion inlined (LANGUAGE.md §6 keeps "stack
 * overflow"; bench/README.md, fib, measures why).  LLVM never inlines a
 * function into itself, and gcc's inlining of a small recursive function
 * into itself, some levels deep, is why gcc's fib is twice as fast as
 * clang's.  So a small rec_fn gets copies of its body, `.rec.1`, `.rec.2`
 * …, each always inlined: the rec_fn's self calls go to the first copy,
 * each copy's to the next, the last one's back to the rec_fn.  After
 * inlining, each real frame runs several levels of the recursion and
 * checks the stack once (the copies have no check; their calls still
 * lower the virtual frame, so an endless recursion still reaches the
 * limit).  Not for a body with a `get`: a turn suspended there keeps its
 * frames, and must be judged frame by frame (sched.c's rule that a turn
 * may not wait with less than an eighth of its stack left).  Levels are
 * added while the code they make stays within
 * UNROLL_BUDGET instructions: a body of b instructions with s self calls
 * costs b·(1 + s + … + s^k) for k levels. */
#define UNROLL_BUDGET 3200
#define UNROLL_MAX_LEVELS 8

typedef VEC(LLVMValueRef) ValueVec;

/* The calls of fn to callee, and how many instructions fn has. */
static void calls_to(LLVMValueRef fn, LLVMValueRef callee, unsigned *ninstr, ValueVec *calls)
{
    *ninstr = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            ++*ninstr;
            if (LLVMGetInstructionOpcode(i) == LLVMCall && LLVMGetCalledValue(i) == callee)
                VEC_PUSH(*calls, i);
        }
}

static void unroll_self_recursion(Cg *cg, CgInst *in)
{
    ValueVec calls = {0};
    unsigned body = 0;
    calls_to(in->rec_fn, in->rec_fn, &body, &calls);
    size_t per_level = calls.len, copies = per_level, size = body;
    for (int level = 1; level <= UNROLL_MAX_LEVELS && per_level; level++) {
        size += (size_t)body * copies;
        if (size > UNROLL_BUDGET)
            break;
        LLVMValueRef copy = LLVMAddFunction(cg->mod, arena_printf("%s.rec.%d", in->name, level),
                                            in->rec_type);
        LLVMSetLinkage(copy, LLVMInternalLinkage);
        cg_add_defined_fn_attrs(cg, copy);
        cg_add_fn_attr(cg, copy, cg->attr_alwaysinline);
        emit_body(cg, in, copy, false);     /* its self calls: to the rec_fn */
        for (size_t k = 0; k < calls.len; k++)
            LLVMSetOperand(calls.items[k], (unsigned)LLVMGetNumOperands(calls.items[k]) - 1, copy);
        calls.len = 0;
        unsigned ignored;
        calls_to(copy, in->rec_fn, &ignored, &calls);
        copies *= per_level;
    }
}

/* def f(params): T { body }  — also methods, with `this` first; one
 * instance (reach.c) at a time. */
void cg_emit_function(Cg *cg, CgInst *in)
{
    if (!in->rec_fn) {
        emit_body(cg, in, in->fn, true);
        return;
    }
    emit_call_of_body(cg, in);
    if (!emit_body(cg, in, in->rec_fn, true))
        unroll_self_recursion(cg, in);
}
