/* builtins.c — the built-in functions of LANGUAGE.md §3 (typecheck/builtins.def).
 *
 * The checker resolved each call to a BuiltinId and typed its arguments;
 * here the overload is picked from those types.  Most built-ins are one
 * instruction or one LLVM intrinsic; the runtime is called only for what
 * needs it (printing, parsing, the clock, the topology).
 *
 *   print/println    mos_print_{int,float,bool,string}(v, newline);
 *                    println() is mos_print_newline
 *   int(float)       fptosi when -2^63 <= x < 2^63 (inline), otherwise the
 *                    runtime's mos_float_to_int, which reports NaN,
 *                    infinities and out-of-range values — so the hot path
 *                    never calls the runtime
 *   float(int)       sitofp;  int(int), float(float) are the identity
 *   sqrt ... floor   llvm.sqrt/sin/cos/exp/log/floor.f64 (libm at worst)
 *   abs              int: a select, abs(int_min) = int_min (wraps);
 *                    float: llvm.fabs
 *   min(a, b)        (b < a) ? b : a     max(a, b)  (b > a) ? b : a
 *                    i.e. Python's min/max: with a NaN the first argument
 *                    is returned unless the comparison holds, and
 *                    min(0.0, -0.0) is 0.0 (the first of two equals)
 *   parse_int        mos_parse_int(s, where)
 *   clock nodes node_id   the runtime
 */
#include "cg_internal.h"
#include "../support/assert.h"

static LLVMValueRef print(CgFn *f, Expr *e, bool newline)
{
    Cg *cg = f->cg;
    ExprVec *args = &e->u.call.args;
    if (args->len == 0) {
        ASSERT(newline, "only println takes no argument");
        cg_call_rt(f, CG_RT_mos_print_newline, NULL, 0, "");
        return NULL;
    }
    Expr *a = args->items[0];
    LLVMValueRef v[2] = {cg_expr(f, a), LLVMConstInt(cg->t_i32, newline, 0)};
    switch (a->type->kind) {
    case TY_INT:
        cg_call_rt(f, CG_RT_mos_print_int, v, 2, "");
        break;
    case TY_FLOAT:
        cg_call_rt(f, CG_RT_mos_print_float, v, 2, "");
        break;
    case TY_BOOL:
        v[0] = LLVMBuildZExt(cg->b, v[0], cg->t_i32, "");
        cg_call_rt(f, CG_RT_mos_print_bool, v, 2, "");
        break;
    case TY_STRING:
        cg_call_rt(f, CG_RT_mos_print_string, v, 2, "");
        break;
    default:
        INTERNAL_ERROR("codegen: printing a type the checker refuses");
    }
    return NULL;
}

/* int(x) for a float x, see the essay. */
static LLVMValueRef float_to_int(CgFn *f, LLVMValueRef x, Loc loc)
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    LLVMValueRef lo = LLVMConstReal(cg->t_f64, -9223372036854775808.0);    /* -2^63 */
    LLVMValueRef hi = LLVMConstReal(cg->t_f64, 9223372036854775808.0);     /*  2^63 */
    LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, x, lo, "ge.min"),
                                   LLVMBuildFCmp(b, LLVMRealOLT, x, hi, "lt.max"),
                                   "in.range");
    LLVMBasicBlockRef fast_bb = LLVMCreateBasicBlockInContext(cg->ctx, "toint.fast");
    LLVMBasicBlockRef slow_bb = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "toint.slow");
    LLVMBasicBlockRef end_bb = LLVMCreateBasicBlockInContext(cg->ctx, "toint.end");
    VEC_PUSH(f->cold, slow_bb);
    LLVMBuildCondBr(b, ok, fast_bb, slow_bb);

    LLVMPositionBuilderAtEnd(b, slow_bb);
    LLVMValueRef args[2] = {x, cg_where(cg, loc)};
    LLVMValueRef slow = cg_call_rt(f, CG_RT_mos_float_to_int, args, 2, "toint.checked");
    LLVMBuildBr(b, end_bb);

    LLVMAppendExistingBasicBlock(f->fn, fast_bb);
    LLVMPositionBuilderAtEnd(b, fast_bb);
    LLVMValueRef fast = LLVMBuildFPToSI(b, x, cg->t_i64, "toint");
    LLVMBuildBr(b, end_bb);

    LLVMAppendExistingBasicBlock(f->fn, end_bb);
    LLVMPositionBuilderAtEnd(b, end_bb);
    LLVMValueRef phi = LLVMBuildPhi(b, cg->t_i64, "int");
    LLVMValueRef vals[2] = {fast, slow};
    LLVMBasicBlockRef bbs[2] = {fast_bb, slow_bb};
    LLVMAddIncoming(phi, vals, bbs, 2);
    return phi;
}

static LLVMValueRef intrinsic1(CgFn *f, const char *name, LLVMValueRef x, const char *vname)
{
    CgFunc *fi = cg_intrinsic(f->cg, name, f->cg->t_f64);
    return cg_call(f, fi->type, fi->fn, &x, 1, vname);
}

static LLVMValueRef min_max(CgFn *f, bool is_min, Expr *e)
{
    Cg *cg = f->cg;
    Expr *ax = e->u.call.args.items[0];
    LLVMValueRef a = cg_expr(f, ax);
    LLVMValueRef bv = cg_expr(f, e->u.call.args.items[1]);
    LLVMValueRef take_b;
    if (ax->type->kind == TY_FLOAT)
        take_b = LLVMBuildFCmp(cg->b, is_min ? LLVMRealOLT : LLVMRealOGT, bv, a, "");
    else
        take_b = LLVMBuildICmp(cg->b, is_min ? LLVMIntSLT : LLVMIntSGT, bv, a, "");
    return LLVMBuildSelect(cg->b, take_b, bv, a, is_min ? "min" : "max");
}

LLVMValueRef cg_builtin(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    ExprVec *args = &e->u.call.args;
    Expr *a0 = args->len ? args->items[0] : NULL;
    switch ((BuiltinId)e->u.call.builtin) {
    case BI_PRINT:
        return print(f, e, false);
    case BI_PRINTLN:
        return print(f, e, true);
    case BI_INT: {
        LLVMValueRef x = cg_expr(f, a0);
        if (a0->type->kind == TY_INT)
            return x;
        return float_to_int(f, x, e->loc);
    }
    case BI_FLOAT: {
        LLVMValueRef x = cg_expr(f, a0);
        if (a0->type->kind == TY_FLOAT)
            return x;
        return LLVMBuildSIToFP(cg->b, x, cg->t_f64, "float");
    }
    case BI_SQRT:  return intrinsic1(f, "llvm.sqrt", cg_expr(f, a0), "sqrt");
    case BI_SIN:   return intrinsic1(f, "llvm.sin", cg_expr(f, a0), "sin");
    case BI_COS:   return intrinsic1(f, "llvm.cos", cg_expr(f, a0), "cos");
    case BI_EXP:   return intrinsic1(f, "llvm.exp", cg_expr(f, a0), "exp");
    case BI_LOG:   return intrinsic1(f, "llvm.log", cg_expr(f, a0), "log");
    case BI_FLOOR: return intrinsic1(f, "llvm.floor", cg_expr(f, a0), "floor");
    case BI_ABS: {
        LLVMValueRef x = cg_expr(f, a0);
        if (a0->type->kind == TY_FLOAT)
            return intrinsic1(f, "llvm.fabs", x, "abs");
        LLVMValueRef neg = LLVMBuildSub(cg->b, LLVMConstInt(cg->t_i64, 0, 0), x, "neg");
        LLVMValueRef is_neg = LLVMBuildICmp(cg->b, LLVMIntSLT, x,
                                            LLVMConstInt(cg->t_i64, 0, 0), "is.neg");
        return LLVMBuildSelect(cg->b, is_neg, neg, x, "abs");
    }
    case BI_MIN:
        return min_max(f, true, e);
    case BI_MAX:
        return min_max(f, false, e);
    case BI_PARSE_INT: {
        LLVMValueRef v[2] = {cg_expr(f, a0), cg_where(cg, e->loc)};
        return cg_call_rt(f, CG_RT_mos_parse_int, v, 2, "parsed");
    }
    case BI_CLOCK:
        return cg_call_rt(f, CG_RT_mos_clock, NULL, 0, "clock");
    case BI_NODES:
        return cg_call_rt(f, CG_RT_mos_nodes, NULL, 0, "nodes");
    case BI_NODE_ID:
        return cg_call_rt(f, CG_RT_mos_node_id, NULL, 0, "node.id");
    case BI_COUNT:
        break;
    }
    INTERNAL_ERROR("codegen: unknown built-in function");
}
