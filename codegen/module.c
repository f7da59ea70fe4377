/* module.c — the code generator's driver: one checked Program in, one LLVM
 * module out.
 *
 * cg_compile runs the phases in a fixed order:
 *   1. the host target machine (emit.c; its data layout sizes our objects);
 *   2. struct types of all classes, then the prototypes of every function,
 *      method and constructor, so that bodies can call anything in any
 *      order (declaration order does not matter in Mosaic);
 *   3. the bodies, in source order, the run functions of the messages the
 *      bodies send (actor.c), and the entry point mos_program_main;
 *   4. verification, the default<On> pipeline and output (emit.c).
 *
 * This file also owns the small shared services: the LLVM types of Mosaic
 * types, function attributes, runtime declarations from stdlib/abi.def
 * (declared lazily, so the IR of a small program stays small), and
 * interned constants: string literals as constant MosStrings, and the
 * "FILE:LINE:COL" strings runtime errors report.
 *
 * It does not decide what code looks like for any construct; that is
 * expr.c, builtins.c, stmt.c, class.c and checks.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm/Config/llvm-config.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"

/* ---- types ------------------------------------------------------------- */

bool cg_is_pointer(const Type *t)
{
    switch (t->kind) {
    case TY_STRING: case TY_NULL: case TY_CLASS: case TY_ARRAY: case TY_MAP: case TY_FUT:
        return true;
    default:
        return false;
    }
}

LLVMTypeRef cg_type(Cg *cg, const Type *t)
{
    switch (t->kind) {
    case TY_UNIT:   return cg->t_void;
    case TY_INT:    return cg->t_i64;
    case TY_FLOAT:  return cg->t_f64;
    case TY_BOOL:   return cg->t_i1;
    case TY_STRING: case TY_NULL: case TY_CLASS: case TY_ARRAY: case TY_MAP: case TY_FUT:
        return cg->t_ptr;
    case TY_ERROR: case TY_POOL: case TY_PARAM:     /* TY_PARAM: generic code only */
        break;
    }
    INTERNAL_ERROR("codegen: a type that a checked program cannot have");
}

LLVMTypeRef cg_mem_type(Cg *cg, const Type *t)
{
    return t->kind == TY_BOOL ? cg->t_i8 : cg_type(cg, t);
}

/* ---- attributes, runtime functions, intrinsics ------------------------- */

static unsigned attr_kind(const char *name)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    ASSERT(k != 0, "LLVM knows this attribute");
    return k;
}

void cg_add_fn_attr(Cg *cg, LLVMValueRef fn, unsigned kind)
{
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(cg->ctx, kind, 0));
}

bool cg_tail_calls(const Cg *cg)
{
#if LLVM_VERSION_MAJOR >= 18
    return !cg->opt->debug_info;
#else
    (void)cg;
    return false;
#endif
}

/* Attributes of every function the program defines.  Without tail calls
 * (cg_tail_calls), "disable-tail-calls" keeps recursion recursive:
 * tail-recursion elimination and sibling calls would turn an unbounded
 * recursion into an endless loop, where the language promises a "stack
 * overflow" runtime error (LANGUAGE.md §6).  With them, checks.c's
 * virtual frame keeps that promise. */
void cg_add_defined_fn_attrs(Cg *cg, LLVMValueRef fn)
{
    cg_add_fn_attr(cg, fn, cg->attr_nounwind);
    if (cg_tail_calls(cg))
        return;
    static const char key[] = "disable-tail-calls", val[] = "true";
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(cg->ctx, key, sizeof key - 1,
                                                      val, sizeof val - 1));
}

static void add_ret_attr(Cg *cg, LLVMValueRef fn, unsigned kind)
{
    LLVMAddAttributeAtIndex(fn, LLVMAttributeReturnIndex,
                            LLVMCreateEnumAttribute(cg->ctx, kind, 0));
}

void cg_emit_pair_table(Cg *cg, const char *name, LLVMValueRef *pairs, size_t n)
{
    LLVMTypeRef pair_t = LLVMStructTypeInContext(cg->ctx, (LLVMTypeRef[]){cg->t_ptr, cg->t_ptr},
                                                 2, 0);
    LLVMValueRef *elems = arena_alloc((n + 1) * sizeof *elems);
    for (size_t i = 0; i < n; i++)
        elems[i] = LLVMConstStructInContext(cg->ctx, pairs + 2 * i, 2, 0);
    LLVMValueRef end[2] = {LLVMConstNull(cg->t_ptr), LLVMConstNull(cg->t_ptr)};
    elems[n] = LLVMConstStructInContext(cg->ctx, end, 2, 0);
    LLVMValueRef arr = LLVMConstArray(pair_t, elems, (unsigned)n + 1);
    LLVMValueRef table = LLVMAddGlobal(cg->mod, LLVMTypeOf(arr), name);
    LLVMSetInitializer(table, arr);
    LLVMSetGlobalConstant(table, 1);
}

/* abi.def spells types as letters; stringising the parameter list gives
 * e.g. "(p , p )" (comments are gone by then), which we read back. */
static const struct {
    const char *name, *result, *params;
} rt_table[CG_RT_COUNT] = {
#define RT_FN(name, result, params) {#name, #result, #params},
#include "../stdlib/abi.def"
#undef RT_FN
};

static LLVMTypeRef rt_letter_type(Cg *cg, char c)
{
    switch (c) {
    case 'v': return cg->t_void;
    case 'i': return cg->t_i64;
    case 'd': return cg->t_f64;
    case 'b': return cg->t_i32;
    case 'p': return cg->t_ptr;
    }
    INTERNAL_ERROR("codegen: unknown type letter in stdlib/abi.def");
}

static LLVMValueRef rt_decl(Cg *cg, CgRt which)
{
    if (cg->rt[which])
        return cg->rt[which];
    LLVMTypeRef params[8];
    unsigned n = 0;
    for (const char *s = rt_table[which].params; *s; s++) {
        if (*s == '(' || *s == ')' || *s == ',' || *s == ' ')
            continue;
        ASSERT(n < 8, "runtime functions take few parameters");
        params[n++] = rt_letter_type(cg, *s);
    }
    LLVMTypeRef ft = LLVMFunctionType(rt_letter_type(cg, rt_table[which].result[0]),
                                      params, n, 0);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, rt_table[which].name, ft);
    cg_add_fn_attr(cg, fn, cg->attr_nounwind);
    switch (which) {
    case CG_RT_mos_panic:
        cg_add_fn_attr(cg, fn, cg->attr_noreturn);
        cg_add_fn_attr(cg, fn, cg->attr_cold);
        break;
    case CG_RT_mos_exit:
        cg_add_fn_attr(cg, fn, cg->attr_noreturn);
        break;
    case CG_RT_mos_alloc: case CG_RT_mos_alloc_atomic: case CG_RT_mos_alloc_atomic_raw:
    case CG_RT_mos_array_new:
    case CG_RT_mos_actor_new: case CG_RT_mos_message_new:
        /* fresh memory, never NULL (out of memory is a runtime panic) */
        add_ret_attr(cg, fn, cg->attr_noalias);
        add_ret_attr(cg, fn, cg->attr_nonnull);
        break;
    case CG_RT_mos_string_concat: case CG_RT_mos_string_from_int:
    case CG_RT_mos_string_from_float: case CG_RT_mos_string_from_bool:
        add_ret_attr(cg, fn, cg->attr_nonnull);
        break;
    default:
        break;
    }
    cg->rt[which] = fn;
    cg->rt_type[which] = ft;
    return fn;
}

LLVMValueRef cg_call(CgFn *f, LLVMTypeRef fn_type, LLVMValueRef fn,
                     LLVMValueRef *args, unsigned nargs, const char *name)
{
    bool is_void = LLVMGetReturnType(fn_type) == f->cg->t_void;
    LLVMValueRef call = LLVMBuildCall2(f->cg->b, fn_type, fn, args, nargs,
                                       is_void ? "" : name);
    cg_set_notail(f->cg, call);     /* checks.c: only a self call may become a jump */
    return call;
}

void cg_set_notail(Cg *cg, LLVMValueRef call)
{
#if LLVM_VERSION_MAJOR >= 18
    if (cg_tail_calls(cg))
        LLVMSetTailCallKind(call, LLVMTailCallKindNoTail);
#else
    (void)cg, (void)call;
#endif
}

LLVMValueRef cg_call_self(CgFn *f, CgInst *in, LLVMValueRef *args, unsigned nargs,
                          const char *name)
{
    LLVMValueRef call = cg_call(f, in->rec_type, in->rec_fn, args, nargs, name);
#if LLVM_VERSION_MAJOR >= 18
    LLVMSetTailCallKind(call, LLVMTailCallKindNone);
#endif
    return call;
}

LLVMValueRef cg_call_rt(CgFn *f, CgRt which, LLVMValueRef *args, unsigned nargs,
                        const char *name)
{
    LLVMValueRef fn = rt_decl(f->cg, which);
    return cg_call(f, f->cg->rt_type[which], fn, args, nargs, name);
}

CgFunc *cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef overload)
{
    CgFunc *fi = cg_map_get_str(&cg->intrinsics, name, strlen(name));
    if (fi)
        return fi;
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    ASSERT(id != 0, "LLVM knows this intrinsic");
    fi = ARENA_NEW(CgFunc);
    fi->fn = LLVMGetIntrinsicDeclaration(cg->mod, id, &overload, 1);
    fi->type = LLVMGlobalGetValueType(fi->fn);
    cg_map_put_str(&cg->intrinsics, name, strlen(name), fi);
    return fi;
}

/* ---- constants --------------------------------------------------------- */

LLVMValueRef cg_string_literal(Cg *cg, const char *bytes, size_t len)
{
    LLVMValueRef g = cg_map_get_str(&cg->strings, bytes, len);
    if (g)
        return g;
    /* a MosString { i64 length, ptr bytes, ptr buffer = null } and its
     * bytes, then a NUL */
    LLVMValueRef text = LLVMConstStringInContext(cg->ctx, bytes, (unsigned)len, 0);
    LLVMValueRef data = LLVMAddGlobal(cg->mod, LLVMTypeOf(text), "str.bytes");
    LLVMSetInitializer(data, text);
    LLVMSetGlobalConstant(data, 1);
    LLVMSetLinkage(data, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(data, LLVMGlobalUnnamedAddr);
    LLVMValueRef fields[3] = {
        LLVMConstInt(cg->t_i64, len, 0),
        data,
        LLVMConstPointerNull(cg->t_ptr),
    };
    LLVMValueRef init = LLVMConstStructInContext(cg->ctx, fields, 3, 0);
    g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), len ? "str" : "str.empty");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 8);
    cg_map_put_str(&cg->strings, bytes, len, g);
    return g;
}

LLVMValueRef cg_cstring(Cg *cg, const char *text, const char *name)
{
    size_t len = strlen(text);
    LLVMValueRef g = cg_map_get_str(&cg->cstrings, text, len);
    if (g)
        return g;
    LLVMValueRef init = LLVMConstStringInContext(cg->ctx, text, (unsigned)len, 0);
    g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 1);
    cg_map_put_str(&cg->cstrings, text, len, g);
    return g;
}

LLVMValueRef cg_where(Cg *cg, Loc loc)
{
    int line = 0, col = 0;
    if (loc.file)
        src_line_col(loc.file, loc.start, &line, &col);
    char *text = arena_printf("%s:%d:%d", cg->opt->source_path, line, col);
    return cg_cstring(cg, text, "where");
}

/* ---- declarations ------------------------------------------------------ */

/* Is parameter p of type `pool C`?  Such a parameter is a place, passed
 * as a hidden argument like the function's other places. */
static bool is_pool_param(const Param *p)
{
    return p->sym && p->sym->type && p->sym->type->kind == TY_POOL;
}

/* The LLVM function of a function's or method's instance:
 * mos.fn.f$shapes(places..., params) or mos.m.C.m$shapes(this, [pool,]
 * places..., params), with one hidden i64 per place of its own after
 * `this` (places.c), and the pool of a pooled `this` before them. */
static void name_params(LLVMValueRef fn, const CgInst *in)
{
    FuncDecl *fd = in->func;
    unsigned n = 0;
    if (fd->owner)
        LLVMSetValueName2(LLVMGetParam(fn, n++), "this", 4);
    if (in->pooled_this)
        LLVMSetValueName2(LLVMGetParam(fn, n++), "this.pool", 9);
    for (unsigned i = 0; i < in->nctx - in->nclass; i++) {
        const char *pname = arena_printf("%s.place",
                                         tc_place_name(tc_place_func_param(fd, (int)i)));
        LLVMSetValueName2(LLVMGetParam(fn, n++), pname, strlen(pname));
    }
    for (size_t i = 0; i < fd->params.len; i++) {
        if (is_pool_param(fd->params.items[i]))
            continue;
        const char *pname = fd->params.items[i]->name.text;
        LLVMSetValueName2(LLVMGetParam(fn, n++), pname, strlen(pname));
    }
}

static void declare_function(Cg *cg, CgInst *in)
{
    FuncDecl *fd = in->func;
    unsigned nplaces = in->nctx - in->nclass;
    LLVMTypeRef params[fd->params.len + nplaces + 3];     /* this, its pool, the vframe */
    unsigned n = 0;
    if (fd->owner)
        params[n++] = cg->t_ptr;                /* this */
    if (in->pooled_this)
        params[n++] = cg->t_i64;                /* this's pool */
    for (unsigned i = 0; i < nplaces; i++)
        params[n++] = cg->t_i64;
    for (size_t i = 0; i < fd->params.len; i++)
        if (!is_pool_param(fd->params.items[i]))
            params[n++] = cg_type(cg, fd->params.items[i]->sym->type);
    in->type = LLVMFunctionType(cg_type(cg, fd->result_type), params, n, 0);
    in->fn = LLVMAddFunction(cg->mod, in->name, in->type);
    LLVMSetLinkage(in->fn, LLVMInternalLinkage);
    cg_add_defined_fn_attrs(cg, in->fn);
    name_params(in->fn, in);
    if (in->self_recursive && cg_tail_calls(cg)) {     /* checks.c: the virtual frame */
        params[n++] = cg->t_i64;
        in->rec_type = LLVMFunctionType(cg_type(cg, fd->result_type), params, n, 0);
        in->rec_fn = LLVMAddFunction(cg->mod, arena_printf("%s.rec", in->name), in->rec_type);
        LLVMSetLinkage(in->rec_fn, LLVMInternalLinkage);
        cg_add_defined_fn_attrs(cg, in->rec_fn);
        name_params(in->rec_fn, in);
        LLVMSetValueName2(LLVMGetParam(in->rec_fn, n - 1), "vframe", 6);
    }
}

static void declare_all(Cg *cg)
{
    cg_reach(cg);
    cg_declare_classes(cg);
    cg_declare_global_pools(cg);
    for (size_t i = 0; i < cg->inst_order.len; i++) {
        CgInst *in = cg->inst_order.items[i];
        if (in->func)
            declare_function(cg, in);
        else
            cg_declare_constructor(cg, in);
    }
}

static void emit_all(Cg *cg)
{
    for (size_t i = 0; i < cg->inst_order.len; i++) {
        CgInst *in = cg->inst_order.items[i];
        if (in->func)
            cg_emit_function(cg, in);
        else
            cg_emit_constructor(cg, in);
    }
}

/* i64 @mos_program_main(ptr %args): the runtime's entry into the program. */
static void emit_program_main(Cg *cg)
{
    FuncDecl *main_fd = tc_main_function(cg->program);
    ASSERT(main_fd, "a checked program has a main");
    LLVMTypeRef ft = LLVMFunctionType(cg->t_i64, &cg->t_ptr, 1, 0);
    LLVMValueRef fn = LLVMAddFunction(cg->mod, "mos_program_main", ft);
    cg_add_defined_fn_attrs(cg, fn);
    LLVMValueRef args = LLVMGetParam(fn, 0);
    LLVMSetValueName2(args, "args", 4);

    CgFn f;
    cg_fn_begin(&f, cg, fn, NULL, main_fd->loc, "mos_program_main");
    cg_create_global_pools(&f);
    const TcLayout *none[1] = {NULL};
    CgInst *mi = cg_inst(cg, main_fd, NULL, none);
    LLVMValueRef status = cg_call(&f, mi->type, mi->fn, &args,
                                  main_fd->params.len ? 1 : 0, "status");
    if (main_fd->result_type->kind == TY_INT)
        LLVMBuildRet(cg->b, status);
    else
        LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i64, 0, 0));
    f.calls_user = false;       /* main checks the stack itself */
    cg_fn_finish(&f, ty_int);
}

static void init_types(Cg *cg)
{
    LLVMContextRef c = cg->ctx;
    cg->t_i1 = LLVMInt1TypeInContext(c);
    cg->t_i8 = LLVMInt8TypeInContext(c);
    cg->t_i32 = LLVMInt32TypeInContext(c);
    cg->t_i64 = LLVMInt64TypeInContext(c);
    cg->t_f64 = LLVMDoubleTypeInContext(c);
    cg->t_ptr = LLVMPointerTypeInContext(c, 0);
    cg->t_void = LLVMVoidTypeInContext(c);
    cg->attr_nounwind = attr_kind("nounwind");
    cg->attr_noreturn = attr_kind("noreturn");
    cg->attr_cold = attr_kind("cold");
    cg->attr_noinline = attr_kind("noinline");
    cg->attr_noalias = attr_kind("noalias");
    cg->attr_nonnull = attr_kind("nonnull");
    cg->attr_alwaysinline = attr_kind("alwaysinline");

    /* extern __thread char *mos_stack_limit (initial-exec: the runtime is
     * linked statically into the executable) */
    cg->stack_limit = LLVMAddGlobal(cg->mod, cg->t_ptr, "mos_stack_limit");
    LLVMSetThreadLocal(cg->stack_limit, 1);
    LLVMSetThreadLocalMode(cg->stack_limit, LLVMInitialExecTLSModel);

    cg->empty_string = cg_string_literal(cg, "", 0);
}

bool cg_compile(Program *program, const CgOptions *options, CgOutput output,
                const char *out_path)
{
    CgOptions opt = *options;
    if (!opt.source_path)
        opt.source_path = "program.mos";
    Cg cg;
    memset(&cg, 0, sizeof cg);
    cg.program = program;
    cg.opt = &opt;
    cg.ctx = LLVMContextCreate();
    /* Names of local values only matter in readable IR; dropping them
     * otherwise saves LLVM real time on large programs. */
    if (output != CG_OUT_LLVM_IR)
        LLVMContextSetDiscardValueNames(cg.ctx, 1);
    const char *src = opt.source_path;
    cg.mod = LLVMModuleCreateWithNameInContext(src, cg.ctx);
    LLVMSetSourceFileName(cg.mod, src, strlen(src));
    cg.b = LLVMCreateBuilderInContext(cg.ctx);
    cg.alloca_b = LLVMCreateBuilderInContext(cg.ctx);

    bool ok = cg_make_target(&cg);
    if (ok) {
        init_types(&cg);
        cg_debug_init(&cg);
        declare_all(&cg);
        emit_all(&cg);
        cg_emit_message_runs(&cg);
        emit_program_main(&cg);
        cg_emit_remote_table(&cg);
        cg_emit_wait_sites(&cg);
        cg_emit_message_table(&cg);
        cg_emit_global_pool_table(&cg);
        cg_debug_finish(&cg);
        ok = cg_verify(&cg) && cg_optimise(&cg) && cg_write_output(&cg, output, out_path);
    }

    if (cg.dib)
        LLVMDisposeDIBuilder(cg.dib);
    LLVMDisposeBuilder(cg.alloca_b);
    LLVMDisposeBuilder(cg.b);
    if (cg.td)
        LLVMDisposeTargetData(cg.td);
    if (cg.tm)
        LLVMDisposeTargetMachine(cg.tm);
    LLVMDisposeModule(cg.mod);
    LLVMContextDispose(cg.ctx);
    return ok;
}
