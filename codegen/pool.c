/* pool.c — pools (LANGUAGE.md §6): made, allocated in, iterated, indexed.
 *
 * The runtime's side is stdlib/pool.c; the ABI (MosPool, MosPoolShape, the
 * offsets generated code reads) is mosaic_rt.h.  A pool's value is its
 * descriptor's address as an i64, like any place value (places.c): a
 * top-level pool's lives in a global (@mos.pool.NAME) set when the program
 * starts, in source order; a `pool` statement's in a stack slot.  Each pool
 * gets a constant MosPoolShape (@mos.shape.NAME) that tells the runtime its
 * clusters' strides and which hold pointers, from the pool's TcLayout.
 *
 * A reference into a pool is its object's number (1, 2, …) in a pointer-
 * typed value, so everything that moves references around — locals,
 * fields, arrays, messages, futures, `==`, null — treats it like any
 * other.  Only the accesses differ (access.c): a field is at
 *     bias(cluster) + number * stride(cluster) + offset(field)
 * with the cluster, stride and offset constants of the layout, and the
 * bias loaded from the pool (invariant: clusters never move).
 *
 *   P.size        a load of the pool's size
 *   P[i]          i checked against the size (unsigned, so negatives fail),
 *                 then the reference i + 1
 *   for o in P    the size read once, o = 1, 2, …: never null, never out
 *                 of bounds, so accesses through o are not checked
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../stdlib/mosaic_rt.h"

/* The constant MosPoolShape of a pool. */
static LLVMValueRef pool_shape(Cg *cg, TcPool *p)
{
    TcLayout *l = p->layout;
    size_t n = l->clusters.len;
    LLVMValueRef strides[n + 1], pointers[n + 1];
    for (size_t k = 0; k < n; k++) {
        strides[k] = LLVMConstInt(cg->t_i64, l->clusters.items[k]->size, 0);
        pointers[k] = LLVMConstInt(cg->t_i64, l->clusters.items[k]->has_pointers, 0);
    }
    const char *name = p->decl->name.text;
    LLVMValueRef arrays[2];
    LLVMValueRef *vals[2] = {strides, pointers};
    for (int a = 0; a < 2; a++) {
        LLVMValueRef init = LLVMConstArray(cg->t_i64, vals[a], (unsigned)n);
        arrays[a] = LLVMAddGlobal(cg->mod, LLVMTypeOf(init),
                                  arena_printf("mos.shape.%s.%s", name,
                                               a ? "pointers" : "strides"));
        LLVMSetInitializer(arrays[a], init);
        LLVMSetGlobalConstant(arrays[a], 1);
        LLVMSetLinkage(arrays[a], LLVMPrivateLinkage);
    }
    LLVMValueRef fields[5] = {
        cg_cstring(cg, name, "pool.name"),
        LLVMConstInt(cg->t_i64, n, 0),
        LLVMConstInt(cg->t_i64, (unsigned long long)tc_class_nplaces(l->cls), 0),
        arrays[0],
        arrays[1],
    };
    LLVMValueRef init = LLVMConstStructInContext(cg->ctx, fields, 5, 0);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), arena_printf("mos.shape.%s", name));
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* Makes pool p's descriptor (its node's value first) and returns it as
 * an i64. */
static LLVMValueRef make_pool(CgFn *f, TcPool *p)
{
    Cg *cg = f->cg;
    LLVMValueRef args[2] = {pool_shape(cg, p), cg_place_value(f, p->node)};
    LLVMValueRef d = cg_call_rt(f, CG_RT_mos_pool_new, args, 2,
                                arena_printf("%s.pool", p->decl->name.text));
    return LLVMBuildPtrToInt(cg->b, d, cg->t_i64, p->decl->name.text);
}

/* Sets the places of its objects' class (those after the pool itself):
 * under --distributed through the runtime, the pool being perhaps
 * another node's. */
static void set_pool_places(CgFn *f, TcPool *p, LLVMValueRef pool)
{
    Cg *cg = f->cg;
    for (uint32_t i = 1; i < p->elem->nplaces; i++) {
        LLVMValueRef v = cg_place_value(f, p->elem->places[i]);
        if (cg->opt->distributed) {
            LLVMValueRef args[3] = {pool, LLVMConstInt(cg->t_i64, i, 0), v};
            cg_call_rt(f, CG_RT_mos_pool_set_place, args, 3, "");
            continue;
        }
        LLVMValueRef base = LLVMBuildIntToPtr(cg->b, pool, cg->t_ptr, "");
        LLVMValueRef off = LLVMConstInt(cg->t_i64, MOS_POOL_PLACES_OFFSET, 0);
        LLVMValueRef at = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &off, 1, "");
        LLVMValueRef places = LLVMBuildLoad2(cg->b, cg->t_ptr, at, "places");
        LLVMValueRef idx = LLVMConstInt(cg->t_i64, i, 0);
        LLVMBuildStore(cg->b, v, LLVMBuildInBoundsGEP2(cg->b, cg->t_i64, places, &idx, 1, ""));
    }
}

void cg_declare_global_pools(Cg *cg)
{
    for (size_t i = 0; i < tc_pool_count(); i++) {
        TcPool *p = tc_pool_at(i);
        if (p->decl->is_local)
            continue;
        LLVMValueRef g = LLVMAddGlobal(cg->mod, cg->t_i64,
                                       arena_printf("mos.pool.%s", p->decl->name.text));
        LLVMSetInitializer(g, LLVMConstInt(cg->t_i64, 0, 0));
        LLVMSetLinkage(g, LLVMInternalLinkage);
        cg_map_put_ptr(&cg->pools, p->decl, g);
    }
}

void cg_create_global_pools(CgFn *f)
{
    Cg *cg = f->cg;
    size_t n = tc_pool_count();
    LLVMValueRef made[n + 1];
    for (size_t i = 0; i < n; i++) {
        TcPool *p = tc_pool_at(i);
        made[i] = NULL;
        if (p->decl->is_local)
            continue;
        made[i] = make_pool(f, p);
        cg_tbaa(cg, LLVMBuildStore(cg->b, made[i], cg_map_get_ptr(&cg->pools, p->decl)),
                ty_int, true);
    }
    /* then their places, which may name each other */
    for (size_t i = 0; i < n; i++)
        if (made[i])
            set_pool_places(f, tc_pool_at(i), made[i]);
    if (cg->opt->distributed)       /* the other processes learn of them */
        cg_call_rt(f, CG_RT_mos_pools_made, NULL, 0, "");
}

void cg_emit_global_pool_table(Cg *cg)
{
    if (!cg->opt->distributed)
        return;
    size_t n = tc_pool_count(), k = 0;
    LLVMValueRef elems[n + 1];
    for (size_t i = 0; i < n; i++) {
        TcPool *p = tc_pool_at(i);
        if (!p->decl->is_local)
            elems[k++] = cg_map_get_ptr(&cg->pools, p->decl);
    }
    elems[k++] = LLVMConstNull(cg->t_ptr);
    LLVMValueRef arr = LLVMConstArray(cg->t_ptr, elems, (unsigned)k);
    LLVMValueRef table = LLVMAddGlobal(cg->mod, LLVMTypeOf(arr), "mos_global_pools");
    LLVMSetInitializer(table, arr);
    LLVMSetGlobalConstant(table, 1);
}

void cg_emit_pool_stmt(CgFn *f, Stmt *s)
{
    Cg *cg = f->cg;
    PoolVec *ps = &s->u.pool.pools;
    LLVMValueRef made[ps->len + 1];
    for (size_t i = 0; i < ps->len; i++) {
        TcPool *p = tc_pool(ps->items[i]);
        LLVMValueRef slot = cg_entry_alloca(f, cg->t_i64,
                                            arena_printf("%s.addr", p->decl->name.text));
        cg_map_put_ptr(&cg->pools, p->decl, slot);
        made[i] = make_pool(f, p);
        cg_tbaa(cg, LLVMBuildStore(cg->b, made[i], slot), ty_int, true);
    }
    for (size_t i = 0; i < ps->len; i++)
        set_pool_places(f, tc_pool(ps->items[i]), made[i]);
}

/* A pool's global or slot is written once, when the pool is made, and
 * then only read: it is tagged as a header word (expr.c's TBAA), so LLVM
 * keeps it in a register across the stores of a loop over the pool. */
LLVMValueRef cg_pool_value(CgFn *f, PoolDecl *pd)
{
    LLVMValueRef at = cg_map_get_ptr(&f->cg->pools, pd);
    ASSERT(at, "a pool is made before code uses it");
    LLVMValueRef v = LLVMBuildLoad2(f->cg->b, f->cg->t_i64, at, pd->name.text);
    cg_tbaa(f->cg, v, ty_int, true);
    return v;
}

LLVMValueRef cg_pool_alloc(CgFn *f, LLVMValueRef pool, Loc loc)
{
    Cg *cg = f->cg;
    LLVMValueRef args[2] = {LLVMBuildIntToPtr(cg->b, pool, cg->t_ptr, "pool"),
                            cg_where(cg, loc)};
    LLVMValueRef ref = cg_call_rt(f, CG_RT_mos_pool_alloc, args, 2, "ref");
    return LLVMBuildIntToPtr(cg->b, ref, cg->t_ptr, "this");
}

/* A word of a pool's descriptor. */
static LLVMValueRef pool_word(CgFn *f, LLVMValueRef pool, uint64_t offset, const char *name)
{
    Cg *cg = f->cg;
    LLVMValueRef base = LLVMBuildIntToPtr(cg->b, pool, cg->t_ptr, "pool");
    LLVMValueRef off = LLVMConstInt(cg->t_i64, offset, 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &off, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, at, name);
    cg_tbaa(cg, v, ty_int, true);
    return v;
}

LLVMValueRef cg_far_pool_word(CgFn *f, LLVMValueRef pool, CgFar *far, LLVMValueRef here,
                              int which, const char *name)
{
    cg_far_else(f, far, here);
    LLVMValueRef args[2] = {pool, LLVMConstInt(f->cg->t_i64, (unsigned long long)which, 0)};
    return cg_far_end(f, far, cg_call_rt(f, CG_RT_mos_pool_word, args, 2, name), name);
}

LLVMValueRef cg_pool_size(CgFn *f, LLVMValueRef pool)
{
    if (!f->cg->opt->distributed)
        return pool_word(f, pool, MOS_POOL_SIZE_OFFSET, "pool.size");
    CgFar far;
    cg_far_begin(f, pool, &far);
    return cg_far_pool_word(f, pool, &far,
                            pool_word(f, pool, MOS_POOL_SIZE_OFFSET, "pool.size"), 0,
                            "pool.size");
}

static LLVMValueRef pool_node_here(CgFn *f, LLVMValueRef pool)
{
    LLVMValueRef v = pool_word(f, pool, MOS_POOL_NODE_OFFSET, "pool.node");
    cg_mark_invariant(f->cg, v);
    return v;
}

LLVMValueRef cg_pool_node(CgFn *f, LLVMValueRef pool)
{
    if (!f->cg->opt->distributed)
        return pool_node_here(f, pool);
    /* a pool is made on its node: a remote one's is its reference's */
    CgFar far;
    cg_far_begin(f, pool, &far);
    cg_far_else(f, &far, pool_node_here(f, pool));
    return cg_far_end(f, &far, cg_remote_ref_node(f, pool), "pool.node");
}

LLVMValueRef cg_pooled_field_addr(CgFn *f, LLVMValueRef pool, const TcLayout *l,
                                  LLVMValueRef ref, FieldDecl *fd)
{
    Cg *cg = f->cg;
    int k = l->cluster_of[fd->index];
    TcCluster *c = l->clusters.items[k];
    uint64_t offset = c->offsets.items[l->slot_of[fd->index]];
    LLVMValueRef bias = pool_word(f, pool, MOS_POOL_CLUSTERS_OFFSET +
                                               (uint64_t)k * MOS_POOL_CLUSTER_BYTES,
                                  "cluster.bias");
    cg_mark_invariant(cg, bias);        /* clusters never move */
    LLVMValueRef base = LLVMBuildIntToPtr(cg->b, bias, cg->t_ptr, "cluster");
    LLVMValueRef n = LLVMBuildPtrToInt(cg->b, ref, cg->t_i64, "number");
    LLVMValueRef at = LLVMBuildNUWMul(cg->b, n, LLVMConstInt(cg->t_i64, c->size, 0), "record");
    at = LLVMBuildNUWAdd(cg->b, at, LLVMConstInt(cg->t_i64, offset, 0), "at");
    return LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &at, 1,
                                 arena_printf("%s.addr", fd->name.text));
}

LLVMValueRef cg_pool_index(CgFn *f, LLVMValueRef pool, LLVMValueRef idx, Loc loc)
{
    Cg *cg = f->cg;
    cg_bounds_check(f, idx, cg_pool_size(f, pool), loc);
    LLVMValueRef n = LLVMBuildNUWAdd(cg->b, idx, LLVMConstInt(cg->t_i64, 1, 0), "number");
    return LLVMBuildIntToPtr(cg->b, n, cg->t_ptr, "obj");
}
