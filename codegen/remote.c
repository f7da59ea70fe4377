/* remote.c — the instrumentation of --count-remote (LANGUAGE.md §5).
 *
 * Each field or element access the program makes (a read or write of a
 * passive object's field, an array element or length, a map's entry or
 * size, an element or key a for loop reads, a method of an array or a map,
 * a field initialiser's store) becomes, under --count-remote,
 * a call mos_cr_access(node, site, write) just before the load or store,
 * once the null check has passed: `node` is where the object or array
 * lives (a passive object's first stored place, an array's node word, a
 * map's node field),
 * `site` the index of the access in the module's mos_remote_table, which
 * records the access's line and whether the effect pass predicted it
 * remote.  The prediction is read from the effect pass's own record of the
 * site (eff_site), the very one behind --effects and E0302, so the
 * runtime's "(not predicted)" mark checks the analysis against what the
 * program does.
 *
 * An actor's own fields are not counted: only the actor's code touches
 * them, always on the actor's node, and the analysis calls them local.
 * Without --count-remote nothing here emits anything.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

/* The node of a passive object (of class cls), an array or a map. */
static LLVMValueRef node_of(CgFn *f, LLVMValueRef ptr, const Type *t)
{
    Cg *cg = f->cg;
    if (t->kind == TY_CLASS)
        return cg_load_place_field(f, ptr, t->cls, 0);
    /* an array's node word is just before it; a map's is its second word */
    LLVMValueRef off = LLVMConstInt(cg->t_i64, t->kind == TY_MAP ? 8 : (unsigned long long)-8,
                                    1);
    LLVMValueRef addr = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, ptr, &off, 1, "node.addr");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, addr, "node");
    cg_tbaa(cg, v, ty_int, true);
    return v;
}

bool cg_counts(CgFn *f, const Type *t)
{
    if (!f->cg->opt->count_remote || !t)
        return false;
    return t->kind == TY_ARRAY || t->kind == TY_MAP ||
           (t->kind == TY_CLASS && !t->cls->is_active);
}

LLVMValueRef cg_remote_node(CgFn *f, LLVMValueRef ptr, const Type *t)
{
    /* an object in a pool lives on the pool's node */
    if (t->kind == TY_CLASS && f->inst && cg_shape_of(f->inst, ty_home(t)))
        return cg_pool_node(f, cg_place_value(f, ty_home(t)));
    if (!f->cg->opt->distributed)
        return node_of(f, ptr, t);
    /* --distributed: a remote reference names its node; a local object's
     * node is this process's, which its own word says */
    CgFar far;
    cg_far_begin(f, ptr, &far);
    cg_far_else(f, &far, node_of(f, ptr, t));
    return cg_far_end(f, &far, cg_remote_ref_node(f, ptr), "node");
}

void cg_count_method(CgFn *f, const Expr *call, LLVMValueRef obj, const Expr *objx,
                     unsigned kinds)
{
    if (!cg_counts(f, objx->type))
        return;
    if (!cg_known_nonnull(objx))
        cg_null_check(f, obj, call->loc, "null dereference: a method of a null value");
    cg_count_access(f, call, call->loc, cg_remote_node(f, obj, objx->type), kinds);
}

void cg_count_access(CgFn *f, const void *ast_node, Loc loc, LLVMValueRef node,
                     unsigned kinds)
{
    Cg *cg = f->cg;
    const EffSite *s = eff_site(ast_node);
    Loc at = s ? s->loc : loc;
    int line = 0, col = 0;
    if (at.file)
        src_line_col(at.file, at.start, &line, &col);
    CgRemoteSite site = {line, s && s->remote};
    int64_t id = (int64_t)cg->remote_sites.len;
    VEC_PUSH(cg->remote_sites, site);
    /* if (node != mos_here_node) mos_cr_access(...): a local access costs
     * a thread-local load and a branch */
    if (!cg->here_node) {
        cg->here_node = LLVMAddGlobal(cg->mod, cg->t_i64, "mos_here_node");
        LLVMSetThreadLocal(cg->here_node, 1);
        LLVMSetThreadLocalMode(cg->here_node, LLVMInitialExecTLSModel);
    }
    LLVMValueRef here = LLVMBuildLoad2(cg->b, cg->t_i64, cg->here_node, "here.node");
    LLVMValueRef remote = LLVMBuildICmp(cg->b, LLVMIntNE, node, here, "remote");
    LLVMBasicBlockRef count_bb = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "count.remote");
    LLVMBasicBlockRef done_bb = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "counted");
    LLVMBuildCondBr(cg->b, remote, count_bb, done_bb);
    LLVMPositionBuilderAtEnd(cg->b, count_bb);
    for (unsigned bit = 1; bit <= 2; bit <<= 1) {     /* EFF_READ, then EFF_WRITE */
        if (!(kinds & bit))
            continue;
        LLVMValueRef args[3] = {
            node,
            LLVMConstInt(cg->t_i64, (unsigned long long)id, 0),
            LLVMConstInt(cg->t_i32, bit == 2, 0),
        };
        cg_call_rt(f, CG_RT_mos_cr_access, args, 3, "");
    }
    LLVMBuildBr(cg->b, done_bb);
    LLVMPositionBuilderAtEnd(cg->b, done_bb);
}

void cg_emit_remote_table(Cg *cg)
{
    if (!cg->opt->count_remote)
        return;
    LLVMTypeRef site_t = LLVMStructTypeInContext(cg->ctx, (LLVMTypeRef[]){cg->t_i64, cg->t_i64},
                                                 2, 0);
    size_t n = cg->remote_sites.len;
    LLVMValueRef elems[n + 1];
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef v[2] = {
            LLVMConstInt(cg->t_i64, (unsigned long long)cg->remote_sites.items[i].line, 0),
            LLVMConstInt(cg->t_i64, (unsigned long long)cg->remote_sites.items[i].predicted, 0),
        };
        elems[i] = LLVMConstStructInContext(cg->ctx, v, 2, 0);
    }
    LLVMValueRef arr = LLVMConstArray(site_t, elems, (unsigned)n);
    LLVMValueRef sites = LLVMAddGlobal(cg->mod, LLVMTypeOf(arr), "mos.remote.sites");
    LLVMSetInitializer(sites, arr);
    LLVMSetGlobalConstant(sites, 1);
    LLVMSetLinkage(sites, LLVMPrivateLinkage);
    LLVMValueRef fields[4] = {
        LLVMConstInt(cg->t_i64, n, 0),
        cg_cstring(cg, cg->opt->source_path, "source.path"),
        sites,
        cg->opt->count_remote_file ? cg_cstring(cg, cg->opt->count_remote_file, "report.path")
                                   : LLVMConstNull(cg->t_ptr),
    };
    LLVMValueRef init = LLVMConstStructInContext(cg->ctx, fields, 4, 0);
    LLVMValueRef table = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "mos_remote_table");
    LLVMSetInitializer(table, init);
    LLVMSetGlobalConstant(table, 1);
}
