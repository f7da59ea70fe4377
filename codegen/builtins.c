/* builtins.c — the built-in functions and string methods (LANGUAGE.md §3,
 * §8), lowered as typecheck/builtins.def says.
 *
 * The checker resolved each call to a BuiltinId and typed its arguments.
 * Most entries lower by the table alone: a runtime entry called with the
 * arguments (RT, RTW with the call's location appended), or an LLVM
 * intrinsic (INTRINSIC).  The INLINE ones are written here, picking the
 * overload from the argument types the checker attached:
 *
 *   print/println    mos_print_{int,float,bool,string}(v, newline);
 *                    println() is mos_print_newline
 *   int(float)       fptosi when -2^63 <= x < 2^63 (inline), otherwise the
 *                    runtime's mos_float_to_int, which reports NaN,
 *                    infinities and out-of-range values — so the hot path
 *                    never calls the runtime
 *   float(int)       sitofp;  int(int), float(float) are the identity
 *   abs              int: a select, abs(int_min) = int_min (wraps);
 *                    float: llvm.fabs
 *   min(a, b)        (b < a) ? b : a     max(a, b)  (b > a) ? b : a
 *                    i.e. Python's min/max: with a NaN the first argument
 *                    is returned unless the comparison holds, and
 *                    min(0.0, -0.0) is 0.0 (the first of two equals)
 *
 * Booleans cross the runtime ABI as int32 (abi.def's `b`): arguments are
 * widened and results narrowed here.
 */
#include "cg_internal.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

/* eprint(x), eprintln(x), eprintln(): the value as text, to stderr. */
static LLVMValueRef eprint(CgFn *f, Expr *e, bool newline)
{
    Cg *cg = f->cg;
    ExprVec *args = &e->u.call.args;
    LLVMValueRef v[2] = {
        args->len ? cg_to_string(f, cg_expr(f, args->items[0]), args->items[0]->type)
                  : cg->empty_string,
        LLVMConstInt(cg->t_i32, newline, 0),
    };
    cg_call_rt(f, CG_RT_mos_eprint, v, 2, "");
    return NULL;
}

/* sort(xs): the runtime's sort for the element type. */
static LLVMValueRef sort(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    Expr *xs = e->u.call.args.items[0];
    LLVMValueRef v[2] = {cg_expr(f, xs), cg_where(cg, e->loc)};
    CgRt rt = xs->type->elem->kind == TY_INT     ? CG_RT_mos_sort_int
              : xs->type->elem->kind == TY_FLOAT ? CG_RT_mos_sort_float
                                                 : CG_RT_mos_sort_string;
    cg_call_rt_far(f, cg_may_be_remote(f, NULL), rt, v, 2, "rw>u", "");
    return NULL;
}

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

typedef enum LoweringKind { LOWER_INLINE, LOWER_RT, LOWER_RTW, LOWER_INTRINSIC } LoweringKind;

static const struct {
    LoweringKind kind;
    CgRt rt;
    const char *intrinsic;
} lowering[BI_COUNT] = {
#define RT(entry) LOWER_RT, CG_RT_##entry, NULL
#define RTW(entry) LOWER_RTW, CG_RT_##entry, NULL
#define INTRINSIC(name) LOWER_INTRINSIC, 0, "llvm." #name
#define INLINE LOWER_INLINE, 0, NULL
#define BUILTIN(id, name, sig, lower, effect) [id] = {lower},
#define STRING_METHOD(id, name, sig, lower, effect) [id] = {lower},
#define ARRAY_METHOD(id, name, sig, lower, effect) [id] = {lower},
#define MAP_METHOD(id, name, sig, lower, effect) [id] = {lower},
#include "../typecheck/builtins.def"
#undef BUILTIN
#undef STRING_METHOD
#undef ARRAY_METHOD
#undef MAP_METHOD
#undef RT
#undef RTW
#undef INTRINSIC
#undef INLINE
};

/* A call of built-in bi lowered by the table: receiver (a string method's,
 * or NULL) and args evaluated left to right. */
static LLVMValueRef by_table(CgFn *f, int bi, Expr *receiver, ExprVec *args, Loc loc)
{
    Cg *cg = f->cg;
    LLVMValueRef v[8];
    unsigned n = 0;
    if (receiver)
        v[n++] = cg_expr(f, receiver);
    for (size_t i = 0; i < args->len; i++) {
        Expr *a = args->items[i];
        v[n] = cg_expr(f, a);
        if (a->type->kind == TY_BOOL)
            v[n] = LLVMBuildZExt(cg->b, v[n], cg->t_i32, "");
        n++;
    }
    if (lowering[bi].kind == LOWER_INTRINSIC)   /* of one float */
        return intrinsic1(f, lowering[bi].intrinsic, v[0], tc_builtins[bi].name);
    if (lowering[bi].kind == LOWER_RTW)
        v[n++] = cg_where(cg, loc);
    char result = *tc_builtin_result(tc_builtins[bi].sig);
    /* join(xs, sep) reads an array that may be another node's */
    LLVMValueRef r = cg_call_rt_far(f, bi == BI_JOIN && cg_may_be_remote(f, NULL),
                                    lowering[bi].rt, v, n, "rsw>s",
                                    result == 'u' ? "" : tc_builtins[bi].name);
    if (result == 'b')
        return LLVMBuildICmp(cg->b, LLVMIntNE, r, LLVMConstInt(cg->t_i32, 0, 0), "");
    return result == 'u' ? NULL : r;
}

/* An array method: a runtime entry (the array's header says its element
 * size and kind), chosen by element type where equality differs, with
 * elements as words where they cross the ABI. */
static LLVMValueRef array_method(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    Expr *xs = e->u.method_call.object;
    ExprVec *args = &e->u.method_call.args;
    const Type *elem = xs->type->elem;
    LLVMValueRef arr = cg_expr(f, xs);
    cg_count_method(f, e, arr, xs, eff_builtin_kinds(tc_builtins[e->u.method_call.builtin].effect));
    LLVMValueRef where = cg_where(cg, e->loc);
    bool far = cg_may_be_remote(f, e);
    char k = cg_word_kind(elem);
    switch ((BuiltinId)e->u.method_call.builtin) {
    case AM_SLICE: {
        LLVMValueRef a = cg_expr(f, args->items[0]), b = cg_expr(f, args->items[1]);
        LLVMValueRef v[4] = {arr, a, b, where};
        return cg_call_rt_far(f, far, CG_RT_mos_array_slice, v, 4, "riiw>a", "slice");
    }
    case AM_REVERSE: {
        LLVMValueRef v[2] = {arr, where};
        cg_call_rt_far(f, far, CG_RT_mos_array_reverse, v, 2, "rw>u", "");
        return NULL;
    }
    case AM_INDEX_OF:
    case AM_CONTAINS: {
        LLVMValueRef x = cg_expr(f, args->items[0]);
        CgRt rt = elem->kind == TY_FLOAT    ? CG_RT_mos_array_index_of_float
                  : elem->kind == TY_BOOL   ? CG_RT_mos_array_index_of_bool
                  : elem->kind == TY_STRING ? CG_RT_mos_array_index_of_string
                                            : CG_RT_mos_array_index_of_word;
        if (elem->kind == TY_BOOL)
            x = LLVMBuildZExt(cg->b, x, cg->t_i32, "");
        else if (rt == CG_RT_mos_array_index_of_word && elem->kind != TY_INT)
            x = LLVMBuildPtrToInt(cg->b, x, cg->t_i64, "");   /* by identity */
        LLVMValueRef v[3] = {arr, x, where};
        const char *kinds = elem->kind == TY_FLOAT ? "rdw>i" : elem->kind == TY_BOOL ? "rbw>i"
                          : arena_printf("r%cw>i", k);
        LLVMValueRef i = cg_call_rt_far(f, far, rt, v, 3, kinds, "index");
        if (e->u.method_call.builtin == AM_INDEX_OF)
            return i;
        return LLVMBuildICmp(cg->b, LLVMIntSGE, i, LLVMConstInt(cg->t_i64, 0, 0), "found");
    }
    case AM_PUSH: {
        LLVMValueRef v[3] = {arr, cg_to_word(cg, cg_expr(f, args->items[0]), elem), where};
        cg_call_rt_far(f, far, CG_RT_mos_array_push, v, 3, arena_printf("r%cw>u", k), "");
        return NULL;
    }
    case AM_POP: {
        LLVMValueRef v[2] = {arr, where};
        return cg_from_word(cg, cg_call_rt_far(f, far, CG_RT_mos_array_pop, v, 2,
                                               arena_printf("rw>%c", k), ""),
                            elem, "popped");
    }
    case AM_INSERT: {
        LLVMValueRef i = cg_expr(f, args->items[0]);
        LLVMValueRef v[4] = {arr, i, cg_to_word(cg, cg_expr(f, args->items[1]), elem), where};
        cg_call_rt_far(f, far, CG_RT_mos_array_insert, v, 4, arena_printf("ri%cw>u", k), "");
        return NULL;
    }
    case AM_REMOVE: {
        LLVMValueRef v[3] = {arr, cg_expr(f, args->items[0]), where};
        return cg_from_word(cg, cg_call_rt_far(f, far, CG_RT_mos_array_remove, v, 3,
                                               arena_printf("riw>%c", k), ""),
                            elem, "removed");
    }
    case AM_CLEAR: {
        LLVMValueRef v[2] = {arr, where};
        cg_call_rt_far(f, far, CG_RT_mos_array_clear, v, 2, "rw>u", "");
        return NULL;
    }
    default:
        break;
    }
    INTERNAL_ERROR("codegen: an array method without code of its own");
}

/* s.byte(i): a compare and a load, the hot loop of byte-wise text code
 * (a call each would cost more than the work).  Strings never change, so
 * their length and bytes are invariant loads; the check is made even
 * under --no-checks, as the runtime's string methods make theirs. */
static LLVMValueRef string_byte(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    LLVMValueRef s = cg_expr(f, e->u.method_call.object);
    LLVMValueRef i = cg_expr(f, e->u.method_call.args.items[0]);
    cg_bounds_check(f, i, cg_string_length(f, s), e->loc);
    LLVMValueRef off = LLVMConstInt(cg->t_i64, offsetof(MosString, bytes), 0);
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, s, &off, 1, "bytes.addr");
    LLVMValueRef bytes = LLVMBuildLoad2(cg->b, cg->t_ptr, slot, "bytes");
    cg_mark_invariant(cg, bytes);
    cg_tbaa_data(cg, bytes);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, bytes, &i, 1, "byte.addr");
    LLVMValueRef b = LLVMBuildLoad2(cg->b, cg->t_i8, at, "byte");
    cg_mark_invariant(cg, b);
    return LLVMBuildZExt(cg->b, b, cg->t_i64, "byte");
}

/* s.m(args) or xs.m(args) for a string's or an array's built-in method. */
LLVMValueRef cg_builtin_method(CgFn *f, Expr *e)
{
    int bi = e->u.method_call.builtin;
    if (bi == SM_BYTE)
        return string_byte(f, e);
    if (tc_builtins[bi].kind == BK_MAP_METHOD)
        return cg_map_method(f, e);
    if (lowering[bi].kind == LOWER_INLINE)
        return array_method(f, e);
    return by_table(f, bi, e->u.method_call.object, &e->u.method_call.args, e->loc);
}

/* join([a, b, ...], sep) with a literal array of at most
 * JOIN_LITERAL_MAX strings: the array lives only for the call, which reads
 * its length and elements and keeps neither, so it is built in the
 * function's frame — a MosArray header and its elements after it, as
 * mos_array_new lays them out — rather than on the heap.  The elements are
 * evaluated left to right before the separator, as for any call; the
 * collector finds them on the stack.  The bound keeps a frame small (a
 * literal of thousands of strings is rare, and takes the heap). */
#define JOIN_LITERAL_MAX 64

static bool join_of_literal(const Expr *e)
{
    const Expr *xs = e->u.call.args.items[0];
    return xs->kind == EX_ARRAY_LIT && xs->u.array_lit.elems.len <= JOIN_LITERAL_MAX;
}

static LLVMValueRef join_literal(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    ExprVec *elems = &e->u.call.args.items[0]->u.array_lit.elems;
    size_t n = elems->len;
    _Static_assert(sizeof(MosArray) % 8 == 0, "the elements follow the header, aligned");
    size_t header_words = sizeof(MosArray) / 8;
    LLVMValueRef arr = cg_entry_alloca(f, LLVMArrayType(cg->t_i64, (unsigned)(header_words + n)),
                                       "join.array");
    LLVMValueRef data = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, arr,
                                              (LLVMValueRef[]){LLVMConstInt(cg->t_i64, sizeof(MosArray), 0)},
                                              1, "join.items");
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef v = cg_expr(f, elems->items[i]);
        LLVMValueRef at = LLVMBuildInBoundsGEP2(cg->b, cg->t_ptr, data,
                                                (LLVMValueRef[]){LLVMConstInt(cg->t_i64, i, 0)},
                                                1, "join.item");
        LLVMBuildStore(cg->b, v, at);
    }
    struct { size_t offset; LLVMValueRef value; } header[] = {
        {offsetof(MosArray, length), LLVMConstInt(cg->t_i64, n, 0)},
        {offsetof(MosArray, data), data},
        {offsetof(MosArray, capacity), LLVMConstInt(cg->t_i64, n, 0)},
        {offsetof(MosArray, elem_size), LLVMConstInt(cg->t_i32, sizeof(MosString *), 0)},
        {offsetof(MosArray, elem_kind), LLVMConstInt(cg->t_i32, MOS_ELEM_STRING, 0)},
    };
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++) {
        LLVMValueRef off = LLVMConstInt(cg->t_i64, header[i].offset, 0);
        LLVMBuildStore(cg->b, header[i].value,
                       LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, arr, &off, 1, ""));
    }
    LLVMValueRef v[3] = {arr, cg_expr(f, e->u.call.args.items[1]), cg_where(cg, e->loc)};
    return cg_call_rt(f, CG_RT_mos_string_join, v, 3, "join");
}

LLVMValueRef cg_builtin(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    ExprVec *args = &e->u.call.args;
    Expr *a0 = args->len ? args->items[0] : NULL;
    int bi = e->u.call.builtin;
    if (bi == BI_JOIN && join_of_literal(e))
        return join_literal(f, e);
    if (lowering[bi].kind != LOWER_INLINE)
        return by_table(f, bi, NULL, args, e->loc);
    switch ((BuiltinId)bi) {
    case BI_PRINT:
        return print(f, e, false);
    case BI_PRINTLN:
        return print(f, e, true);
    case BI_EPRINT:
        return eprint(f, e, false);
    case BI_EPRINTLN:
        return eprint(f, e, true);
    case BI_SORT:
        return sort(f, e);
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
    default:
        break;
    }
    INTERNAL_ERROR("codegen: a built-in marked INLINE without code of its own");
}
