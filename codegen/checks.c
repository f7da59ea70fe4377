/* checks.c — the runtime checks of LANGUAGE.md §6 "Safety" and the panics
 * they lead to.
 *
 * A check is a compare and a branch to a cold block that calls
 *     mos_panic("FILE:LINE:COL", "message")      (noreturn, cold)
 * and ends in `unreachable`.  Each check gets its own panic block (its
 * location differs); cg_fn_finish moves them all behind the function's
 * other blocks so the hot path falls through.  LLVM also knows from the
 * noreturn/cold attributes that these branches are almost never taken.
 *
 *   null dereference   field access, method call on a passive object, array
 *                      index and length — skipped by --no-checks, and when
 *                      the operand is known non-null (this, new, literals)
 *   index out of bounds  one unsigned compare idx >= len (catches negative
 *                      indices too) — skipped by --no-checks; the message
 *                      names the index and the length, so it is built by a
 *                      helper (mos.panic.bounds) defined once per module
 *   division by zero   always checked
 *   stack overflow     on entry to every function that calls user code:
 *                      its frame address against the thread-local
 *                      mos_stack_limit the runtime sets for each thread
 *                      (and in a self-recursive function with tail calls
 *                      on, its virtual frame: see below)
 * Invalid conversions, negative array lengths and invalid integers are
 * checked inside the runtime calls that do those operations.
 *
 * Tail calls and the stack check.  LLVM turns a call of a function by
 * itself in tail position (or under an accumulator, as in fib's
 * `f(n-1) + f(n-2)`) into a jump back to its start, and the code
 * generator turns other calls in tail position into jumps.  Either makes
 * an unbounded recursion an endless loop, where the language promises a
 * "stack overflow" error.  So, with tail calls on (cg_tail_calls):
 *
 *   - a call from one function to another is marked notail (cg_call):
 *     it stays a call and uses the stack, as mutual recursion must;
 *   - a self-recursive instance (reach.c) gets its body as a separate
 *     function with one more argument, its *virtual frame*: the lower of
 *     its frame address and its caller's virtual frame, less
 *     CG_TAIL_FRAME_BYTES, is what each self call passes (the public
 *     function passes the highest address, so the first frame is its
 *     own).  The stack check compares the lower of the frame address and
 *     the virtual frame with the limit.  A real call uses more stack than
 *     CG_TAIL_FRAME_BYTES, so there the frame address decides, exactly as
 *     before; a call LLVM turned into a jump keeps the frame address and
 *     lowers the virtual frame, so a recursion that never ends still
 *     reaches the limit — after as many jumps as frames of
 *     CG_TAIL_FRAME_BYTES the stack holds — and ends in "stack overflow".
 *
 * The price is an argument, a minimum and a subtraction per self call;
 * what it buys is fib(n) at the speed of a loop for one of its calls.
 * With -g, tail calls stay off (a debugger shows every frame), as they
 * do before LLVM 18, whose C API cannot mark a call notail.
 */
#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"

static LLVMBasicBlockRef cold_block(CgFn *f, const char *name)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(f->cg->ctx, f->fn, name);
    VEC_PUSH(f->cold, bb);
    return bb;
}

/* br fail, panic, ok — then continue in ok; the builder is left in the
 * panic block for the caller to fill. Returns the ok block. */
static LLVMBasicBlockRef branch_to_cold(CgFn *f, LLVMValueRef fail, const char *name)
{
    Cg *cg = f->cg;
    LLVMBasicBlockRef panic_bb = cold_block(f, name);
    LLVMBasicBlockRef ok_bb = LLVMCreateBasicBlockInContext(cg->ctx, "ok");
    LLVMBuildCondBr(cg->b, fail, panic_bb, ok_bb);
    LLVMPositionBuilderAtEnd(cg->b, panic_bb);
    return ok_bb;
}

static void continue_in(CgFn *f, LLVMBasicBlockRef ok_bb)
{
    LLVMAppendExistingBasicBlock(f->fn, ok_bb);
    LLVMPositionBuilderAtEnd(f->cg->b, ok_bb);
}

static void panic_here(CgFn *f, LLVMValueRef where, const char *message)
{
    Cg *cg = f->cg;
    LLVMValueRef args[2] = {where, cg_cstring(cg, message, "msg")};
    cg_call_rt(f, CG_RT_mos_panic, args, 2, "");
    LLVMBuildUnreachable(cg->b);
}

static void check(CgFn *f, LLVMValueRef fail, Loc loc, const char *message,
                  const char *block_name)
{
    LLVMBasicBlockRef ok_bb = branch_to_cold(f, fail, block_name);
    panic_here(f, cg_where(f->cg, loc), message);
    continue_in(f, ok_bb);
}

void cg_check(CgFn *f, LLVMValueRef fail, Loc loc, const char *message)
{
    check(f, fail, loc, message, "panic");
}

void cg_null_check(CgFn *f, LLVMValueRef ptr, Loc loc, const char *message)
{
    if (f->cg->opt->no_checks)
        return;
    check(f, LLVMBuildIsNull(f->cg->b, ptr, "is.null"), loc, message, "null");
}

void cg_bounds_check(CgFn *f, LLVMValueRef idx, LLVMValueRef len, Loc loc)
{
    Cg *cg = f->cg;
    if (cg->opt->no_checks)
        return;
    LLVMValueRef fail = LLVMBuildICmp(cg->b, LLVMIntUGE, idx, len, "out.of.bounds");
    LLVMBasicBlockRef ok_bb = branch_to_cold(f, fail, "bounds");
    cg_define_panic_bounds(cg);
    LLVMValueRef args[3] = {cg_where(cg, loc), idx, len};
    cg_call(f, cg->panic_bounds_type, cg->panic_bounds, args, 3, "");
    LLVMBuildUnreachable(cg->b);
    continue_in(f, ok_bb);
}

void cg_div_check(CgFn *f, LLVMValueRef divisor, Loc loc)
{
    Cg *cg = f->cg;
    LLVMValueRef fail = LLVMBuildICmp(cg->b, LLVMIntEQ, divisor,
                                      LLVMConstInt(cg->t_i64, 0, 0), "div.by.zero");
    check(f, fail, loc, "division by zero", "div.zero");
}

LLVMValueRef cg_frame_low(CgFn *f)
{
    Cg *cg = f->cg;
    CgFunc *fa = cg_intrinsic(cg, "llvm.frameaddress", cg->t_ptr);
    LLVMValueRef zero = LLVMConstInt(cg->t_i32, 0, 0);
    LLVMValueRef frame = cg_call(f, fa->type, fa->fn, &zero, 1, "frame");
    frame = LLVMBuildPtrToInt(cg->b, frame, cg->t_i64, "frame.addr");
    if (!f->vframe)
        return frame;
    CgFunc *umin = cg_intrinsic(cg, "llvm.umin", cg->t_i64);
    LLVMValueRef both[2] = {frame, f->vframe};
    return cg_call(f, umin->type, umin->fn, both, 2, "frame.low");
}

LLVMValueRef cg_next_vframe(CgFn *f)
{
    Cg *cg = f->cg;
    return LLVMBuildSub(cg->b, cg_frame_low(f),
                        LLVMConstInt(cg->t_i64, CG_TAIL_FRAME_BYTES, 0), "vframe.next");
}

/* In the entry block, before the body: frame address < mos_stack_limit?
 * The runtime keeps enough room below the limit to report the error. */
void cg_stack_check(CgFn *f)
{
    Cg *cg = f->cg;
    LLVMValueRef frame = cg_frame_low(f);
    LLVMValueRef limit = LLVMBuildLoad2(cg->b, cg->t_ptr, cg->stack_limit, "stack.limit");
    limit = LLVMBuildPtrToInt(cg->b, limit, cg->t_i64, "stack.limit.addr");
    LLVMValueRef fail = LLVMBuildICmp(cg->b, LLVMIntULT, frame, limit, "stack.overflow");
    LLVMBasicBlockRef panic_bb = cold_block(f, "stack.overflow");
    LLVMBuildCondBr(cg->b, fail, panic_bb, f->body);
    LLVMPositionBuilderAtEnd(cg->b, panic_bb);
    cg_debug_loc(f, f->loc);    /* -g: the check itself is the prologue's */
    panic_here(f, cg_where(cg, f->loc), "stack overflow");
}

/* void mos.panic.bounds(ptr where, i64 index, i64 length): builds
 * "index out of bounds: index I, length N" and panics.  Kept out of line
 * (noinline, cold) so that each bounds check costs a compare and a call. */
void cg_define_panic_bounds(Cg *cg)
{
    if (cg->panic_bounds)
        return;
    LLVMTypeRef params[3] = {cg->t_ptr, cg->t_i64, cg->t_i64};
    cg->panic_bounds_type = LLVMFunctionType(cg->t_void, params, 3, 0);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, "mos.panic.bounds", cg->panic_bounds_type);
    cg->panic_bounds = fn;
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_add_fn_attr(cg, fn, cg->attr_nounwind);
    cg_add_fn_attr(cg, fn, cg->attr_noreturn);
    cg_add_fn_attr(cg, fn, cg->attr_cold);
    cg_add_fn_attr(cg, fn, cg->attr_noinline);
    LLVMValueRef where = LLVMGetParam(fn, 0), index = LLVMGetParam(fn, 1),
                 length = LLVMGetParam(fn, 2);
    LLVMSetValueName2(where, "where", 5);
    LLVMSetValueName2(index, "index", 5);
    LLVMSetValueName2(length, "length", 6);

    /* emitted with a builder of its own: we are in the middle of another
     * function; no debug info (it is a leaf of the runtime's kind) */
    LLVMBuilderRef saved = cg->b;
    cg->b = LLVMCreateBuilderInContext(cg->ctx);
    CgFn h = {.cg = cg, .fn = fn};
    LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
    static const char prefix[] = "index out of bounds: index ";
    static const char middle[] = ", length ";
    LLVMValueRef s = cg_string_literal(cg, prefix, sizeof prefix - 1);
    LLVMValueRef args[2] = {s, cg_call_rt(&h, CG_RT_mos_string_from_int, &index, 1, "i")};
    s = cg_call_rt(&h, CG_RT_mos_string_concat, args, 2, "msg");
    args[0] = s;
    args[1] = cg_string_literal(cg, middle, sizeof middle - 1);
    s = cg_call_rt(&h, CG_RT_mos_string_concat, args, 2, "msg");
    args[0] = s;
    args[1] = cg_call_rt(&h, CG_RT_mos_string_from_int, &length, 1, "n");
    s = cg_call_rt(&h, CG_RT_mos_string_concat, args, 2, "msg");
    /* MosString.bytes: the concatenation made last is NUL-terminated */
    LLVMValueRef off = LLVMConstInt(cg->t_i64, 8, 0);
    LLVMValueRef field = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, s, &off, 1, "bytes.field");
    LLVMValueRef bytes = LLVMBuildLoad2(cg->b, cg->t_ptr, field, "bytes");
    LLVMValueRef pargs[2] = {where, bytes};
    cg_call_rt(&h, CG_RT_mos_panic, pargs, 2, "");
    LLVMBuildUnreachable(cg->b);
    LLVMDisposeBuilder(cg->b);
    cg->b = saved;
}
