/* expr.c — expressions: from a checked Expr to an LLVM value.
 *
 * Each expression is emitted where it stands, operands left to right, as
 * straight-line code: no temporaries beyond SSA values, no runtime calls
 * where an instruction will do.  The rules that matter (LANGUAGE.md §3):
 *   - int + - * wrap: plain add/sub/mul, never nsw/nuw;
 *   - int / and %: a zero divisor is a runtime error; `int_min / -1` is
 *     int_min and `int_min % -1` is 0.  LLVM's sdiv/srem are undefined
 *     there, so a divisor of -1 is replaced by 1 before dividing and the
 *     quotient negated afterwards (a select, no branch); both fold away
 *     when the divisor is a constant;
 *   - shift counts are masked to 0..63, `>>` is arithmetic;
 *   - floats are plain IEEE operations with no fast-math flags, so LLVM
 *     never contracts or reassociates them; `!=` is unordered (nan != nan);
 *   - `and`/`or` short-circuit with a branch and a phi;
 *   - string `+` converts the other side with the runtime, then concatenates.
 * Memory accesses check null and bounds (checks.c) unless the receiver is
 * known non-null or --no-checks is given.  Built-in functions are in
 * builtins.c; sends (`a!m()`) and `get` in actor.c.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

bool cg_known_nonnull(const Expr *e)
{
    switch (e->kind) {
    case EX_THIS: case EX_NEW: case EX_NEW_ARRAY: case EX_ARRAY_LIT: case EX_STRING:
    case EX_NEW_MAP: case EX_MAP_LIT:
        return true;
    case EX_NAME:       /* the variable of `for o in P` */
        return e->u.name.res == RES_LOCAL && e->u.name.sym && e->u.name.sym->never_null;
    default:
        return false;
    }
}

/* Type-based alias analysis.  Every cell of the Mosaic heap has one type
 * for its whole life: an object field or array element is an int, a float,
 * a bool or a reference (string, object, array), the first word of an
 * array or string is its length, and the second word of an array is where
 * its elements are.  Telling LLVM so (scalar TBAA: one type node per kind
 * under a common root) lets it keep, say, an array's element pointer in a
 * register across a store to a float field.  Locals (allocas) need no
 * tags: mem2reg removes them. */
enum { TBAA_INT, TBAA_FLOAT, TBAA_BOOL, TBAA_REF, TBAA_LENGTH, TBAA_DATA };

static void set_tbaa(Cg *cg, LLVMValueRef inst, int which)
{
    static const char *const names[] = {"int", "float", "bool", "ref", "length", "data"};
    _Static_assert(sizeof names / sizeof names[0] == sizeof cg->tbaa / sizeof cg->tbaa[0],
                   "a TBAA tag per kind");
    LLVMContextRef c = cg->ctx;
    if (!cg->tbaa[which]) {
        if (!cg->tbaa_root) {
            LLVMMetadataRef name = LLVMMDStringInContext2(c, "Mosaic TBAA", 11);
            cg->tbaa_root = LLVMMDNodeInContext2(c, &name, 1);
        }
        LLVMMetadataRef zero = LLVMValueAsMetadata(LLVMConstInt(cg->t_i64, 0, 0));
        LLVMMetadataRef type_ops[3] = {
            LLVMMDStringInContext2(c, names[which], strlen(names[which])), cg->tbaa_root, zero,
        };
        LLVMMetadataRef type = LLVMMDNodeInContext2(c, type_ops, 3);
        LLVMMetadataRef tag_ops[3] = {type, type, zero};
        cg->tbaa[which] = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, tag_ops, 3));
    }
    LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(c, "tbaa", 4), cg->tbaa[which]);
}

void cg_tbaa(Cg *cg, LLVMValueRef inst, const Type *t, bool length)
{
    set_tbaa(cg, inst, length ? TBAA_LENGTH
                     : t->kind == TY_INT ? TBAA_INT : t->kind == TY_FLOAT ? TBAA_FLOAT
                     : t->kind == TY_BOOL ? TBAA_BOOL : TBAA_REF);
}

void cg_tbaa_data(Cg *cg, LLVMValueRef inst)
{
    set_tbaa(cg, inst, TBAA_DATA);
}

/* The TBAA tag of one field: a child of its kind's type, so it may alias
 * an array element of that kind but no other field (two fields never
 * share memory, whatever object or pool cluster they are in). */
void cg_tbaa_field(Cg *cg, LLVMValueRef inst, const FieldDecl *fd)
{
    LLVMValueRef tag = cg_map_get_ptr(&cg->tbaa_fields, fd);
    if (!tag) {
        cg_tbaa(cg, inst, fd->field_type, false);      /* makes the kind's node */
        LLVMContextRef c = cg->ctx;
        LLVMValueRef kind_tag = LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(c, "tbaa", 4));
        LLVMMetadataRef kind = LLVMValueAsMetadata(LLVMGetOperand(kind_tag, 0));
        const char *name = arena_printf("%s.%s", fd->owner->name.text, fd->name.text);
        LLVMMetadataRef zero = LLVMValueAsMetadata(LLVMConstInt(cg->t_i64, 0, 0));
        LLVMMetadataRef type_ops[3] = {LLVMMDStringInContext2(c, name, strlen(name)), kind, zero};
        LLVMMetadataRef type = LLVMMDNodeInContext2(c, type_ops, 3);
        LLVMMetadataRef tag_ops[3] = {type, type, zero};
        tag = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, tag_ops, 3));
        cg_map_put_ptr(&cg->tbaa_fields, fd, tag);
    }
    LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(cg->ctx, "tbaa", 4), tag);
}

LLVMValueRef cg_load(CgFn *f, LLVMValueRef addr, const Type *t, bool in_memory,
                     const char *name)
{
    Cg *cg = f->cg;
    if (!in_memory)
        return LLVMBuildLoad2(cg->b, cg_type(cg, t), addr, name);
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, t), addr, name);
    cg_tbaa(cg, v, t, false);
    if (t->kind == TY_BOOL)
        v = LLVMBuildTrunc(cg->b, v, cg->t_i1, name);
    return v;
}

void cg_store(CgFn *f, LLVMValueRef value, LLVMValueRef addr, const Type *t,
              bool in_memory)
{
    Cg *cg = f->cg;
    if (in_memory && t->kind == TY_BOOL)
        value = LLVMBuildZExt(cg->b, value, cg->t_i8, "");
    LLVMValueRef st = LLVMBuildStore(cg->b, value, addr);
    if (in_memory)
        cg_tbaa(cg, st, t, false);
}

LLVMValueRef cg_default_value(Cg *cg, const Type *t)
{
    switch (t->kind) {
    case TY_INT:    return LLVMConstInt(cg->t_i64, 0, 0);
    case TY_FLOAT:  return LLVMConstReal(cg->t_f64, 0.0);
    case TY_BOOL:   return LLVMConstInt(cg->t_i1, 0, 0);
    case TY_STRING: return cg->empty_string;
    case TY_NULL: case TY_CLASS: case TY_ARRAY: case TY_MAP: case TY_FUT:
        return LLVMConstNull(cg->t_ptr);
    default:
        break;
    }
    INTERNAL_ERROR("codegen: no default value for this type");
}

/* ---- strings ------------------------------------------------------------ */

LLVMValueRef cg_to_string(CgFn *f, LLVMValueRef v, const Type *t)
{
    Cg *cg = f->cg;
    switch (t->kind) {
    case TY_STRING:
        return v;
    case TY_INT:
        return cg_call_rt(f, CG_RT_mos_string_from_int, &v, 1, "str");
    case TY_FLOAT:
        return cg_call_rt(f, CG_RT_mos_string_from_float, &v, 1, "str");
    case TY_BOOL: {
        LLVMValueRef b = LLVMBuildZExt(cg->b, v, cg->t_i32, "");
        return cg_call_rt(f, CG_RT_mos_string_from_bool, &b, 1, "str");
    }
    default:
        break;
    }
    INTERNAL_ERROR("codegen: string conversion of a type the checker refuses");
}

/* ---- operators ---------------------------------------------------------- */

static bool const_int_is(LLVMValueRef v, long long x)
{
    return LLVMIsAConstantInt(v) && LLVMConstIntGetSExtValue(v) == x;
}

/* a / b, a % b on ints; see the essay for -1. */
static LLVMValueRef int_divide(CgFn *f, bool rem, LLVMValueRef l, LLVMValueRef r,
                               Loc loc)
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    if (!LLVMIsAConstantInt(r) || const_int_is(r, 0))
        cg_div_check(f, r, loc);
    if (LLVMIsAConstantInt(r) && !const_int_is(r, -1))
        return rem ? LLVMBuildSRem(b, l, r, "rem") : LLVMBuildSDiv(b, l, r, "div");
    LLVMValueRef minus_one = LLVMConstInt(cg->t_i64, (unsigned long long)-1, 1);
    LLVMValueRef is_m1 = LLVMBuildICmp(b, LLVMIntEQ, r, minus_one, "div.by.m1");
    LLVMValueRef d = LLVMBuildSelect(b, is_m1, LLVMConstInt(cg->t_i64, 1, 0), r, "divisor");
    if (rem)    /* x % 1 == 0 == x % -1 */
        return LLVMBuildSRem(b, l, d, "rem");
    LLVMValueRef q = LLVMBuildSDiv(b, l, d, "quot");
    LLVMValueRef neg = LLVMBuildSub(b, LLVMConstInt(cg->t_i64, 0, 0), l, "neg");
    return LLVMBuildSelect(b, is_m1, neg, q, "div");
}

LLVMValueRef cg_arith(CgFn *f, BinaryOp op, const Type *type, const Type *rtype,
                      LLVMValueRef l, LLVMValueRef r, Loc loc)
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    if (op == BIN_ADD && (type->kind == TY_STRING || rtype->kind == TY_STRING)) {
        LLVMValueRef args[2] = {cg_to_string(f, l, type), cg_to_string(f, r, rtype)};
        return cg_call_rt(f, CG_RT_mos_string_concat, args, 2, "concat");
    }
    if (type->kind == TY_FLOAT) {
        switch (op) {
        case BIN_ADD: return LLVMBuildFAdd(b, l, r, "add");
        case BIN_SUB: return LLVMBuildFSub(b, l, r, "sub");
        case BIN_MUL: return LLVMBuildFMul(b, l, r, "mul");
        case BIN_DIV: return LLVMBuildFDiv(b, l, r, "div");
        case BIN_REM: return LLVMBuildFRem(b, l, r, "rem");
        default: break;
        }
        INTERNAL_ERROR("codegen: float operator the checker refuses");
    }
    ASSERT(type->kind == TY_INT || type->kind == TY_BOOL, "integer operands");
    LLVMValueRef mask = LLVMConstInt(cg->t_i64, 63, 0);
    switch (op) {
    case BIN_ADD:    return LLVMBuildAdd(b, l, r, "add");
    case BIN_SUB:    return LLVMBuildSub(b, l, r, "sub");
    case BIN_MUL:    return LLVMBuildMul(b, l, r, "mul");
    case BIN_DIV:    return int_divide(f, false, l, r, loc);
    case BIN_REM:    return int_divide(f, true, l, r, loc);
    case BIN_BITAND: return LLVMBuildAnd(b, l, r, "and");
    case BIN_BITOR:  return LLVMBuildOr(b, l, r, "or");
    case BIN_BITXOR: return LLVMBuildXor(b, l, r, "xor");
    case BIN_SHL:
        return LLVMBuildShl(b, l, LLVMBuildAnd(b, r, mask, "shift.count"), "shl");
    case BIN_SHR:
        return LLVMBuildAShr(b, l, LLVMBuildAnd(b, r, mask, "shift.count"), "shr");
    default:
        break;
    }
    INTERNAL_ERROR("codegen: not an arithmetic operator");
}

/* == != < <= > >= */
static LLVMValueRef compare(CgFn *f, BinaryOp op, const Type *t, LLVMValueRef l,
                            LLVMValueRef r)
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    static const LLVMIntPredicate ipred[] = {
        [BIN_EQ] = LLVMIntEQ, [BIN_NE] = LLVMIntNE, [BIN_LT] = LLVMIntSLT,
        [BIN_LE] = LLVMIntSLE, [BIN_GT] = LLVMIntSGT, [BIN_GE] = LLVMIntSGE,
    };
    static const LLVMRealPredicate fpred[] = {
        [BIN_EQ] = LLVMRealOEQ, [BIN_NE] = LLVMRealUNE, [BIN_LT] = LLVMRealOLT,
        [BIN_LE] = LLVMRealOLE, [BIN_GT] = LLVMRealOGT, [BIN_GE] = LLVMRealOGE,
    };
    switch (t->kind) {
    case TY_INT: case TY_BOOL:
        return LLVMBuildICmp(b, ipred[op], l, r, "cmp");
    case TY_FLOAT:
        return LLVMBuildFCmp(b, fpred[op], l, r, "cmp");
    case TY_STRING: {
        LLVMValueRef args[2] = {l, r};
        LLVMValueRef zero;
        LLVMValueRef res;
        if (op == BIN_EQ || op == BIN_NE) {
            res = cg_call_rt(f, CG_RT_mos_string_eq, args, 2, "streq");
            zero = LLVMConstInt(cg->t_i32, 0, 0);
            return LLVMBuildICmp(b, op == BIN_EQ ? LLVMIntNE : LLVMIntEQ, res, zero, "cmp");
        }
        res = cg_call_rt(f, CG_RT_mos_string_cmp, args, 2, "strcmp");
        zero = LLVMConstInt(cg->t_i64, 0, 0);
        return LLVMBuildICmp(b, ipred[op], res, zero, "cmp");
    }
    default:    /* identity of references */
        ASSERT(op == BIN_EQ || op == BIN_NE, "references compare by identity only");
        return LLVMBuildICmp(b, ipred[op], l, r, "same");
    }
}

/* o == r on objects.  A pooled reference is a number within its pool
 * (pool.c), so two objects of two pools are the same only if the numbers
 * and the pools are — or both are null (0); a pooled number is never a
 * plain object's address, so a plain and a pooled compare as they are. */
static LLVMValueRef same_object(CgFn *f, bool eq, const Type *lt, const Type *rt,
                                LLVMValueRef l, LLVMValueRef r)
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    Place *lh = ty_home(lt), *rh = ty_home(rt);
    bool lpool = f->inst && cg_shape_of(f->inst, lh);
    bool rpool = f->inst && cg_shape_of(f->inst, rh);
    LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, l, r, "same");
    if (lpool && rpool && lh != rh) {
        LLVMValueRef lp = cg_place_value(f, lh), rp = cg_place_value(f, rh);
        LLVMValueRef same_pool = LLVMBuildICmp(b, LLVMIntEQ, lp, rp, "same.pool");
        LLVMValueRef null = LLVMBuildIsNull(b, l, "null");
        same = LLVMBuildAnd(b, same, LLVMBuildOr(b, same_pool, null, ""), "same");
    }
    return eq ? same : LLVMBuildNot(b, same, "not.same");
}

/* e and e, e or e: branch on the left, phi of the constant and the right. */
static LLVMValueRef short_circuit(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    bool is_and = e->u.binary.op == BIN_AND;
    LLVMValueRef l = cg_cond(f, e->u.binary.left);
    LLVMBasicBlockRef left_bb = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef rhs_bb = LLVMCreateBasicBlockInContext(cg->ctx, is_and ? "and.rhs" : "or.rhs");
    LLVMBasicBlockRef end_bb = LLVMCreateBasicBlockInContext(cg->ctx, is_and ? "and.end" : "or.end");
    if (is_and)
        LLVMBuildCondBr(cg->b, l, rhs_bb, end_bb);
    else
        LLVMBuildCondBr(cg->b, l, end_bb, rhs_bb);
    LLVMAppendExistingBasicBlock(f->fn, rhs_bb);
    LLVMPositionBuilderAtEnd(cg->b, rhs_bb);
    LLVMValueRef r = cg_cond(f, e->u.binary.right);
    LLVMBasicBlockRef right_bb = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, end_bb);
    LLVMAppendExistingBasicBlock(f->fn, end_bb);
    LLVMPositionBuilderAtEnd(cg->b, end_bb);
    LLVMValueRef phi = LLVMBuildPhi(cg->b, cg->t_i1, is_and ? "and" : "or");
    LLVMValueRef vals[2] = {LLVMConstInt(cg->t_i1, is_and ? 0 : 1, 0), r};
    LLVMBasicBlockRef bbs[2] = {left_bb, right_bb};
    LLVMAddIncoming(phi, vals, bbs, 2);
    return phi;
}

static bool is_concat(const Expr *e)
{
    return e->kind == EX_BINARY && e->u.binary.op == BIN_ADD && e->type->kind == TY_STRING;
}

/* a + b + c + ... of three operands or more, one of them a string: the
 * operands evaluated left to right, then one runtime call that builds the
 * whole (mos_string_concat_n), where a `+` at a time would make a string
 * for every `+` and every int.  Floats and bools are converted first;
 * ints are formatted straight into the result. */
static LLVMValueRef string_chain(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    size_t n = 1;
    for (Expr *x = e; is_concat(x); x = x->u.binary.left)
        n++;
    Expr **operands = arena_alloc(n * sizeof *operands);
    size_t k = n;
    Expr *x = e;
    for (; is_concat(x); x = x->u.binary.left)
        operands[--k] = x->u.binary.right;
    operands[0] = x;
    LLVMTypeRef part = LLVMStructTypeInContext(cg->ctx, (LLVMTypeRef[]){cg->t_i64, cg->t_i64},
                                               2, 0);
    LLVMTypeRef parts_type = LLVMArrayType(part, (unsigned)n);
    LLVMValueRef parts = cg_entry_alloca(f, parts_type, "parts");
    for (size_t i = 0; i < n; i++) {
        Expr *o = operands[i];
        LLVMValueRef v = cg_expr(f, o);
        bool is_int = o->type->kind == TY_INT;
        if (!is_int)
            v = LLVMBuildPtrToInt(cg->b, cg_to_string(f, v, o->type), cg->t_i64, "part");
        LLVMValueRef idx[3] = {LLVMConstInt(cg->t_i32, 0, 0),
                               LLVMConstInt(cg->t_i32, (unsigned long long)i, 0),
                               LLVMConstInt(cg->t_i32, 0, 0)};
        LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i64, is_int, 0),
                       LLVMBuildInBoundsGEP2(cg->b, parts_type, parts, idx, 3, "is_int"));
        idx[2] = LLVMConstInt(cg->t_i32, 1, 0);
        LLVMBuildStore(cg->b, v, LLVMBuildInBoundsGEP2(cg->b, parts_type, parts, idx, 3, "word"));
    }
    cg_debug_loc(f, e->loc);
    LLVMValueRef args[2] = {parts, LLVMConstInt(cg->t_i64, n, 0)};
    return cg_call_rt(f, CG_RT_mos_string_concat_n, args, 2, "concat");
}

static LLVMValueRef binary(CgFn *f, Expr *e)
{
    BinaryOp op = e->u.binary.op;
    if (op == BIN_AND || op == BIN_OR)
        return short_circuit(f, e);
    if (is_concat(e) && is_concat(e->u.binary.left))
        return string_chain(f, e);
    Expr *lx = e->u.binary.left, *rx = e->u.binary.right;
    LLVMValueRef l = cg_expr(f, lx);
    LLVMValueRef r = cg_expr(f, rx);
    if (op >= BIN_EQ && op <= BIN_GE) {
        const Type *t = lx->type->kind == TY_NULL ? rx->type : lx->type;
        if ((op == BIN_EQ || op == BIN_NE) && lx->type->kind == TY_CLASS &&
            rx->type->kind == TY_CLASS)
            return same_object(f, op == BIN_EQ, lx->type, rx->type, l, r);
        return compare(f, op, t, l, r);
    }
    return cg_arith(f, op, lx->type, rx->type, l, r, e->loc);
}

static LLVMValueRef unary(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    LLVMValueRef v = cg_expr(f, e->u.unary.operand);
    if (e->u.unary.op == UN_NOT)
        return LLVMBuildNot(cg->b, v, "not");
    if (e->type->kind == TY_FLOAT)
        return LLVMBuildFNeg(cg->b, v, "neg");
    return LLVMBuildSub(cg->b, LLVMConstInt(cg->t_i64, 0, 0), v, "neg");     /* wraps */
}

/* ---- names, fields, indexing --------------------------------------------- */

static LLVMValueRef name_value(CgFn *f, Expr *e)
{
    switch (e->u.name.res) {
    case RES_LOCAL: {
        Sym *sym = e->u.name.sym;
        return cg_load(f, cg_slot(f, sym), sym->type, false, sym->name);
    }
    case RES_FIELD: {
        FieldDecl *fd = e->u.name.field;
        ASSERT(f->this_val, "a bare field is used inside a class");
        CgAccess a = cg_field_access(f->this_val, tc_this_type(f->cls), fd, e->loc, e, true);
        return cg_access_load(f, &a, fd->name.text);
    }
    default:
        break;
    }
    INTERNAL_ERROR("codegen: a name that is not a value");
}

/* e.f, a.length, s.length */
static LLVMValueRef field(CgFn *f, Expr *e)
{
    Expr *objx = e->u.field.object;
    if (e->u.field.res == RES_POOL_SIZE)    /* P.size: P is a place, not a value */
        return cg_pool_size(f, cg_place_value(f, ty_home(objx->type)));
    LLVMValueRef obj = cg_expr(f, objx);
    cg_debug_loc(f, e->u.field.field.loc);
    Loc at = e->u.field.field.loc;
    CgAccess a;
    switch (e->u.field.res) {
    case RES_FIELD:
        a = cg_field_access(obj, objx->type, e->u.field.decl, at, e, cg_known_nonnull(objx));
        return cg_access_load(f, &a, e->u.field.decl->name.text);
    case RES_ARRAY_LENGTH:
        a = cg_length_access(obj, objx->type, at, e, cg_known_nonnull(objx));
        return cg_access_load(f, &a, "len");
    case RES_STRING_LENGTH:
        return cg_string_length(f, obj);    /* strings are never null */
    case RES_MAP_SIZE:
        return cg_map_size(f, e, obj);
    default:
        break;
    }
    INTERNAL_ERROR("codegen: a field the checker did not resolve");
}

/* a[i] */
static LLVMValueRef index_expr(CgFn *f, Expr *e)
{
    Expr *arrx = e->u.index.object;
    if (arrx->type->kind == TY_POOL) {      /* P[i] */
        LLVMValueRef idx = cg_expr(f, e->u.index.index);
        cg_debug_loc(f, e->loc);
        return cg_pool_index(f, cg_place_value(f, ty_home(arrx->type)), idx, e->loc);
    }
    if (arrx->type->kind == TY_MAP)         /* m[k] */
        return cg_map_index(f, e);
    LLVMValueRef arr = cg_expr(f, arrx);
    LLVMValueRef idx = cg_expr(f, e->u.index.index);
    cg_debug_loc(f, e->loc);
    CgAccess a = cg_elem_access(arr, arrx->type, idx, e->loc, e, cg_known_nonnull(arrx), false);
    return cg_access_load(f, &a, "elem");
}

/* ---- calls and allocation ------------------------------------------------ */

/* Evaluates args left to right into out[first..]. */
static void eval_args(CgFn *f, ExprVec *args, LLVMValueRef *out)
{
    for (size_t i = 0; i < args->len; i++)
        out[i] = cg_expr(f, args->items[i]);
}

/* Evaluates the value arguments (not those of `pool C` parameters, which
 * are places) into out[]; returns how many. */
static unsigned eval_value_args(CgFn *f, FuncDecl *fd, ExprVec *args, LLVMValueRef *out)
{
    unsigned n = 0;
    for (size_t i = 0; i < args->len; i++) {
        if (fd->params.items[i]->sym->type->kind == TY_POOL)
            continue;
        out[n++] = cg_expr(f, args->items[i]);
    }
    return n;
}

/* Calls the instance `in` of fd: `this` and its pool when it has them,
 * the hidden places, then the arguments. */
static LLVMValueRef call_inst(CgFn *f, CgInst *in, LLVMValueRef self, Place *self_home,
                              ExprVec *args, const Subst *s, Loc null_at)
{
    FuncDecl *fd = in->func;
    size_t np = in->nctx - in->nclass;
    LLVMValueRef argv[args->len + np + 3];
    unsigned n = 0;
    if (fd->owner)
        argv[n++] = self;
    if (in->pooled_this)
        argv[n++] = cg_place_value(f, self_home);
    cg_place_args(f, in, s, argv + n);
    n += (unsigned)np;
    n += eval_value_args(f, fd, args, argv + n);
    if (null_at.file) {     /* a method call on another object: as in Java, after the args */
        cg_debug_loc(f, null_at);
        cg_null_check(f, self, null_at,
                      arena_printf("null dereference: method '%s' called on a null '%s'",
                                   fd->name.text, fd->owner->name.text));
    }
    f->calls_user = true;
    const char *name = arena_printf("call.%s", fd->name.text);
    if (in == f->inst && in->rec_fn) {      /* checks.c: the virtual frame */
        argv[n++] = cg_next_vframe(f);
        return cg_call_self(f, in, argv, n, name);
    }
    return cg_call(f, in->type, in->fn, argv, n, name);
}

/* f(args): functions, bare method calls on this, built-ins */
static LLVMValueRef call(CgFn *f, Expr *e)
{
    switch (e->u.call.res) {
    case RES_FUNC: {
        CgInst *in = cg_callee_inst(f->cg, f->inst, e->u.call.func, NULL, e->u.call.subst);
        return call_inst(f, in, NULL, NULL, &e->u.call.args, e->u.call.subst, LOC_NONE);
    }
    case RES_METHOD: {
        ASSERT(f->this_val, "a bare method call is inside a class");
        FuncDecl *fd = e->u.call.func;
        CgInst *in = cg_callee_inst(f->cg, f->inst, fd, fd->owner, e->u.call.subst);
        return call_inst(f, in, f->this_val, tc_place_class_param(fd->owner, 0),
                         &e->u.call.args, e->u.call.subst, LOC_NONE);
    }
    case RES_BUILTIN: case RES_CONVERT:
        return cg_builtin(f, e);
    default:
        break;
    }
    INTERNAL_ERROR("codegen: a call that the checker did not resolve");
}

/* e.m(args): the receiver, then the arguments, then (at the call) the
 * null check, as in Java. */
static LLVMValueRef method_call(CgFn *f, Expr *e)
{
    if (e->u.method_call.builtin >= 0)
        return cg_builtin_method(f, e);
    Expr *objx = e->u.method_call.object;
    FuncDecl *fd = e->u.method_call.func;
    CgInst *in = cg_callee_inst(f->cg, f->inst, fd, fd->owner, e->u.method_call.subst);
    LLVMValueRef self = cg_expr(f, objx);
    return call_inst(f, in, self, ty_home(objx->type), &e->u.method_call.args,
                     e->u.method_call.subst,
                     cg_known_nonnull(objx) ? LOC_NONE : e->u.method_call.method.loc);
}

/* The place values a `new` passes its class's constructor: the place
 * written as node(e) from e, the others from their terms. */
static void new_places(CgFn *f, Expr *e, unsigned n, LLVMValueRef *out)
{
    TypeExpr *te = e->u.new_obj.class_type;
    LLVMValueRef computed[te->places.len + 1];
    for (size_t i = 0; i < te->places.len; i++) {   /* evaluated even if unused */
        PlaceExpr *pe = te->places.items[i];
        computed[i] = NULL;
        if (pe->kind == PLACE_NODE && pe->node_expr) {
            LLVMValueRef k = cg_expr(f, pe->node_expr);
            computed[i] = cg_call_rt(f, CG_RT_mos_node_of, &k, 1, "node");
        }
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = i < te->places.len && computed[i] ? computed[i]
                                                    : cg_place_value(f, e->type->places[i]);
}

/* new C<places>(args): the constructor instance for the places' shapes,
 * given the places' values (or the pool) first */
static LLVMValueRef new_object(CgFn *f, Expr *e)
{
    ClassDecl *k = e->u.new_obj.cls;
    CgClass *c = cg_class(f->cg, k);
    CgInst *in = cg_callee_inst(f->cg, f->inst, NULL, k, e->u.new_obj.subst);
    unsigned np = in->pooled_this ? 1 : c->nplaces;
    ExprVec *args = &e->u.new_obj.args;
    LLVMValueRef argv[args->len + np + 1];
    new_places(f, e, np, argv);
    eval_args(f, args, argv + np);
    cg_debug_loc(f, e->loc);
    f->calls_user = true;
    return cg_call(f, in->type, in->fn, argv, (unsigned)args->len + np,
                   arena_printf("new.%s", k->name.text));
}

/* A value as the runtime's collections hold it (mosaic_rt.h): a 64-bit
 * word, the int itself, a float's bits, a bool's 0/1, a pointer's address. */
LLVMValueRef cg_to_word(Cg *cg, LLVMValueRef v, const Type *t)
{
    switch (t->kind) {
    case TY_INT:
        return v;
    case TY_FLOAT:
        return LLVMBuildBitCast(cg->b, v, cg->t_i64, "word");
    case TY_BOOL:
        return LLVMBuildZExt(cg->b, v, cg->t_i64, "word");
    default:
        return LLVMBuildPtrToInt(cg->b, v, cg->t_i64, "word");
    }
}

LLVMValueRef cg_from_word(Cg *cg, LLVMValueRef w, const Type *t, const char *name)
{
    switch (t->kind) {
    case TY_INT:
        return w;
    case TY_FLOAT:
        return LLVMBuildBitCast(cg->b, w, cg->t_f64, name);
    case TY_BOOL:
        return LLVMBuildICmp(cg->b, LLVMIntNE, w, LLVMConstInt(cg->t_i64, 0, 0), name);
    default:
        return LLVMBuildIntToPtr(cg->b, w, cg->t_ptr, name);
    }
}

int cg_elem_kind(const Type *elem)
{
    return elem->kind == TY_STRING ? MOS_ELEM_STRING
         : cg_is_pointer(elem)     ? MOS_ELEM_REF
                                   : MOS_ELEM_PLAIN;
}

/* A new array's header, as the runtime wrote it, written again: the same
 * values, but now LLVM knows them, so until the next call that might grow
 * the array its length is `len` (the bounds checks of a loop up to `len`
 * fold away) and its elements follow the header. */
static LLVMValueRef known_header(CgFn *f, LLVMValueRef arr, LLVMValueRef len)
{
    Cg *cg = f->cg;
    cg_tbaa(cg, LLVMBuildStore(cg->b, len, arr), ty_int, true);
    LLVMValueRef off = LLVMConstInt(cg->t_i64, offsetof(MosArray, data), 0);
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, arr, &off, 1, "data.addr");
    LLVMValueRef size = LLVMConstInt(cg->t_i64, sizeof(MosArray), 0);
    LLVMValueRef data = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, arr, &size, 1, "data");
    cg_tbaa_data(cg, LLVMBuildStore(cg->b, data, slot));
    return arr;
}

/* A new array of type t (under --count-remote, recorded at its place). */
static LLVMValueRef new_array(CgFn *f, const Type *t, LLVMValueRef len, Loc loc)
{
    Cg *cg = f->cg;
    const Type *elem = t->elem;
    int kind = cg_elem_kind(elem);
    LLVMValueRef args[5] = {
        len,
        LLVMConstInt(cg->t_i64, LLVMABISizeOfType(cg->td, cg_mem_type(cg, elem)), 0),
        LLVMConstInt(cg->t_i32, (unsigned long long)kind, 0),
        cg_where(cg, loc),
    };
    if (cg->opt->count_remote) {
        /* its node: an array allocated at a pool's place is on its node */
        args[4] = cg_node_of_place(f, ty_home(t));
        return known_header(f, cg_call_rt(f, CG_RT_mos_array_new_at, args, 5, "array"), len);
    }
    return known_header(f, cg_call_rt(f, CG_RT_mos_array_new, args, 4, "array"), len);
}

/* --distributed: a new array or map whose place may be another node's is
 * built here, as always, and then moved there (mos_place_at), before
 * anything else can know it. */
static LLVMValueRef placed(CgFn *f, Expr *e, LLVMValueRef obj, bool is_map)
{
    Cg *cg = f->cg;
    if (!cg_may_be_remote(f, e))
        return obj;
    LLVMValueRef args[4] = {
        obj,
        cg_node_of_place(f, ty_home(e->type)),
        LLVMConstInt(cg->t_i32, is_map, 0),
        cg_where(cg, e->loc),
    };
    return cg_call_rt(f, CG_RT_mos_place_at, args, 4, is_map ? "map" : "array");
}

/* [e, e, ...]: allocate, then store each element as it is evaluated. */
bool cg_literal_number(const Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL:
        return true;
    case EX_UNARY:
        return e->u.unary.op == UN_NEG && (e->u.unary.operand->kind == EX_INT ||
                                           e->u.unary.operand->kind == EX_FLOAT);
    default:
        return false;
    }
}

/* Literals this long, of literal numbers only, are copied from constant
 * data rather than stored one by one (a 100,000-element literal would
 * otherwise be 100,000 stores for the optimiser to chew on). */
#define CONST_LITERAL_MIN 16

static LLVMValueRef array_literal(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    ExprVec *elems = &e->u.array_lit.elems;
    LLVMValueRef arr = new_array(f, e->type, LLVMConstInt(cg->t_i64, elems->len, 0), e->loc);
    bool constant = elems->len >= CONST_LITERAL_MIN;
    for (size_t i = 0; i < elems->len && constant; i++)
        constant = cg_literal_number(elems->items[i]);
    if (constant) {
        LLVMTypeRef mt = cg_mem_type(cg, e->type->elem);
        LLVMValueRef *vals = arena_alloc(elems->len * sizeof *vals);
        for (size_t i = 0; i < elems->len; i++) {
            LLVMValueRef v = cg_expr(f, elems->items[i]);
            vals[i] = e->type->elem->kind == TY_BOOL
                          ? LLVMConstInt(cg->t_i8, LLVMConstIntGetZExtValue(v), 0) : v;
        }
        LLVMValueRef init = LLVMConstArray(mt, vals, (unsigned)elems->len);
        LLVMValueRef data = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "literal");
        LLVMSetInitializer(data, init);
        LLVMSetGlobalConstant(data, 1);
        LLVMSetLinkage(data, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(data, LLVMGlobalUnnamedAddr);
        LLVMValueRef dst = cg_array_data(f, arr);
        LLVMValueRef size = LLVMConstInt(cg->t_i64, LLVMABISizeOfType(cg->td, LLVMTypeOf(init)),
                                         0);
        LLVMBuildMemCpy(cg->b, dst, 8, data, 8, size);
        return arr;
    }
    for (size_t i = 0; i < elems->len; i++) {
        LLVMValueRef v = cg_expr(f, elems->items[i]);
        /* part of the allocation: no check, and not an access to count */
        CgAccess a = cg_elem_access(arr, e->type, LLVMConstInt(cg->t_i64, i, 0), e->loc,
                                    NULL, true, true);
        cg_access_store(f, &a, v);
    }
    return arr;
}

/* ---- dispatch ------------------------------------------------------------- */

static LLVMValueRef expr(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    switch (e->kind) {
    case EX_INT:
        return LLVMConstInt(cg->t_i64, e->u.int_lit.value, 0);
    case EX_FLOAT:
        return LLVMConstReal(cg->t_f64, e->u.float_lit);
    case EX_STRING:
        return cg_string_literal(cg, e->u.string_lit.bytes, e->u.string_lit.len);
    case EX_BOOL:
        return LLVMConstInt(cg->t_i1, e->u.bool_lit, 0);
    case EX_NULL:
        return LLVMConstNull(cg->t_ptr);
    case EX_THIS:
        ASSERT(f->this_val, "this is used inside a class");
        return f->this_val;
    case EX_NAME:
        return name_value(f, e);
    case EX_UNARY:
        return unary(f, e);
    case EX_BINARY:
        return binary(f, e);
    case EX_FIELD:
        return field(f, e);
    case EX_CALL:
        return call(f, e);
    case EX_METHOD_CALL:
        return method_call(f, e);
    case EX_INDEX:
        return index_expr(f, e);
    case EX_NEW:
        return new_object(f, e);
    case EX_NEW_ARRAY: {
        LLVMValueRef len = cg_expr(f, e->u.new_array.length);
        cg_debug_loc(f, e->loc);
        return placed(f, e, new_array(f, e->type, len, e->loc), false);
    }
    case EX_ARRAY_LIT:
        return placed(f, e, array_literal(f, e), false);
    case EX_NEW_MAP:
    case EX_MAP_LIT:
        return placed(f, e, cg_new_map(f, e), true);
    case EX_SEND:
        return cg_send(f, e, true);
    case EX_GET:
        return cg_get(f, e);
    case EX_HERE:
        break;
    }
    INTERNAL_ERROR("codegen: a place used as a value");
}

LLVMValueRef cg_expr(CgFn *f, Expr *e)
{
    if (!f->di_scope)
        return expr(f, e);
    /* -g: the expression's own instructions carry its location; restore
     * the enclosing one for what follows */
    LLVMMetadataRef saved = LLVMGetCurrentDebugLocation2(f->cg->b);
    cg_debug_loc(f, e->loc);
    LLVMValueRef v = expr(f, e);
    LLVMSetCurrentDebugLocation2(f->cg->b, saved);
    return v;
}

LLVMValueRef cg_cond(CgFn *f, Expr *e)
{
    return cg_expr(f, e);
}
