/* access.c — where a field or an element lives, turned into a load or a
 * store late (Lua's expdesc, Wren's Variable).
 *
 * Every read and write of an object's field, an array's element or an
 * array's length goes through a CgAccess: the expression code describes
 * *what* is accessed (the object or array, its type, the field or the
 * index, the source location and the effect pass's site), and this file
 * alone decides *how*: the address, the checks (null, bounds, unless
 * --no-checks or already proven), the TBAA tag, and the --count-remote
 * instrumentation.  A compound assignment loads and stores through the
 * same descriptor, so its checks are made once, at the load.
 *
 * Objects are LLVM structs (class.c), reached by plain GEPs.  An array is
 * a MosArray header (mosaic_rt.h): its length, then a pointer to its
 * elements, both of which a growing method (§9) changes.  So neither is
 * marked invariant; each is loaded where it is used, with a TBAA kind of
 * its own ("length", "data") that no element or field store can alias,
 * which lets LLVM keep both in registers across a loop that only reads
 * and writes elements — and reload them after any call, the only code
 * that can grow an array.  A string's length never changes.  An
 * object in a pool is reached through its pool's cluster for the field,
 * with the layout's constants (pool.c): which it is, the instance's shapes
 * say (reach.c), never the running program.
 *
 * Under --distributed an object of another node is a tagged reference
 * (stdlib/transport.h): the low bit of the pointer set.  An access that
 * the effect pass proves local (its site is not remote: the object lives
 * `here`) compiles to exactly the code above, with no test at all.  Only
 * an access whose site may be remote tests the bit, after the null check:
 * clear, the same local code; set, a call of mos_remote_load or
 * mos_remote_store, which the MPI transport turns into a request to the
 * owner (bounds are checked there); for an object in a pool, the bit of
 * the pool's reference is tested, and the remote path is mos_pool_load or
 * _store.  Under --count-remote the remote path counts the access with
 * the node its reference names.  The same two paths (CgFar) serve the
 * runtime calls on arrays and maps whose site may be remote
 * (cg_call_rt_far: the call is made on the owner, mos_remote_call), and
 * the lengths loops read (cg_length_far).
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

_Static_assert(offsetof(MosArray, length) == 0 && offsetof(MosArray, data) == 8,
               "generated code reads an array's length and data pointer at these offsets");

/* ---- addresses ------------------------------------------------------------ */

LLVMValueRef cg_field_addr(CgFn *f, LLVMValueRef obj, FieldDecl *fd)
{
    CgClass *c = cg_class(f->cg, fd->owner);
    return LLVMBuildStructGEP2(f->cg->b, c->type, obj, c->field_base + (unsigned)fd->index,
                               arena_printf("%s.addr", fd->name.text));
}

/* Where an array's elements are now. */
LLVMValueRef cg_array_data(CgFn *f, LLVMValueRef arr)
{
    Cg *cg = f->cg;
    LLVMValueRef off = LLVMConstInt(cg->t_i64, offsetof(MosArray, data), 0);
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, arr, &off, 1, "data.addr");
    LLVMValueRef data = LLVMBuildLoad2(cg->b, cg->t_ptr, slot, "data");
    cg_tbaa_data(cg, data);
    return data;
}

static LLVMValueRef elem_addr(CgFn *f, LLVMValueRef arr, LLVMValueRef idx, const Type *elem)
{
    return LLVMBuildInBoundsGEP2(f->cg->b, cg_mem_type(f->cg, elem), cg_array_data(f, arr), &idx,
                                 1, "elem.addr");
}

/* Marks a load of an immutable word (a string's length, a place's node):
 * it reads the same value wherever the object is reachable, so LLVM may
 * keep it across stores and calls. */
void cg_mark_invariant(Cg *cg, LLVMValueRef load)
{
    unsigned kind = LLVMGetMDKindIDInContext(cg->ctx, "invariant.load", 14);
    LLVMSetMetadata(load, kind, LLVMMDNodeInContext(cg->ctx, NULL, 0));
}

LLVMValueRef cg_string_length(CgFn *f, LLVMValueRef s)
{
    LLVMValueRef len = LLVMBuildLoad2(f->cg->b, f->cg->t_i64, s, "len");
    cg_mark_invariant(f->cg, len);
    cg_tbaa(f->cg, len, ty_int, true);
    return len;
}

/* An array's length now (no check). */
LLVMValueRef cg_array_length(CgFn *f, LLVMValueRef arr)
{
    LLVMValueRef len = LLVMBuildLoad2(f->cg->b, f->cg->t_i64, arr, "len");
    cg_tbaa(f->cg, len, ty_int, true);
    return len;
}

/* ---- descriptors ------------------------------------------------------------ */

CgAccess cg_field_access(LLVMValueRef obj, const Type *obj_type, FieldDecl *fd, Loc loc,
                         const void *site, bool known_nonnull)
{
    CgAccess a = {0};
    a.kind = CG_ACC_FIELD;
    a.base = obj;
    a.owner = obj_type;
    a.field = fd;
    a.type = fd->field_type;
    a.loc = loc;
    a.site = site;
    a.null_known = known_nonnull;
    return a;
}

CgAccess cg_elem_access(LLVMValueRef arr, const Type *arr_type, LLVMValueRef idx, Loc loc,
                        const void *site, bool known_nonnull, bool in_bounds)
{
    CgAccess a = {0};
    a.kind = CG_ACC_ELEM;
    a.base = arr;
    a.owner = arr_type;
    a.index = idx;
    a.type = arr_type->elem;
    a.loc = loc;
    a.site = site;
    a.null_known = known_nonnull;
    a.in_bounds = in_bounds;
    return a;
}

CgAccess cg_length_access(LLVMValueRef arr, const Type *arr_type, Loc loc, const void *site,
                          bool known_nonnull)
{
    CgAccess a = {0};
    a.kind = CG_ACC_LENGTH;
    a.base = arr;
    a.owner = arr_type;
    a.type = ty_int;
    a.loc = loc;
    a.site = site;
    a.null_known = known_nonnull;
    return a;
}

static const char *null_message(const CgAccess *a)
{
    switch (a->kind) {
    case CG_ACC_FIELD:
        return arena_printf("null dereference: field '%s' of a null '%s'", a->field->name.text,
                            a->owner->kind == TY_CLASS ? a->owner->cls->name.text : "object");
    case CG_ACC_ELEM:
        return "null dereference: indexing a null array";
    case CG_ACC_LENGTH:
        return "null dereference: length of a null array";
    }
    return "null dereference";
}

void cg_access_check(CgFn *f, CgAccess *a)
{
    if (a->checked)
        return;
    a->checked = true;
    if (f->cg->opt->no_checks)
        return;
    if (!a->null_known)
        cg_null_check(f, a->base, a->loc, null_message(a));
    if (a->kind == CG_ACC_ELEM && !a->in_bounds)
        cg_bounds_check(f, a->index, cg_array_length(f, a->base), a->loc);
}

/* After code that may have changed the array's length or storage (a call
 * in the value of `xs[i] += f()`): the store finds the element again, and
 * checks the index against the length now. */
void cg_access_recheck(CgAccess *a)
{
    a->addr = NULL;
    a->checked = false;
    a->null_known = true;       /* the same array, checked at the load */
}

/* The layout of the pool the accessed object lives in, or NULL. */
static const TcLayout *pooled(CgFn *f, const CgAccess *a)
{
    return a->kind == CG_ACC_FIELD && f->inst ? cg_shape_of(f->inst, ty_home(a->owner)) : NULL;
}

static LLVMValueRef address(CgFn *f, CgAccess *a)
{
    if (a->addr)
        return a->addr;
    const TcLayout *l = pooled(f, a);
    if (l)
        a->addr = cg_pooled_field_addr(f, cg_place_value(f, ty_home(a->owner)), l, a->base,
                                       a->field);
    else
        a->addr = a->kind == CG_ACC_FIELD ? cg_field_addr(f, a->base, a->field)
                : a->kind == CG_ACC_ELEM  ? elem_addr(f, a->base, a->index, a->type)
                                          : a->base;
    return a->addr;
}

/* --count-remote: counts the access when what it touches is counted. */
static void count(CgFn *f, CgAccess *a, unsigned kind)
{
    if (!a->site || !cg_counts(f, a->owner))
        return;
    if (!a->remote_node)
        a->remote_node = cg_remote_node(f, a->base, a->owner);
    cg_count_access(f, a->site, a->loc, a->remote_node, kind);
}

/* ---- the int64 encoding of values (mosaic_rt.h): results, remote data ---- */

LLVMValueRef cg_value_to_word(CgFn *f, LLVMValueRef v, const Type *t)
{
    if (t->kind == TY_UNIT)
        return LLVMConstInt(f->cg->t_i64, 0, 0);
    ASSERT(t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || cg_is_pointer(t),
           "the other values are references");
    return cg_to_word(f->cg, v, t);
}

LLVMValueRef cg_word_to_value(CgFn *f, LLVMValueRef bits, const Type *t)
{
    return t->kind == TY_UNIT ? NULL : cg_from_word(f->cg, bits, t, "got");
}

/* ---- remote references (--distributed) ----------------------------------------- */

bool cg_may_be_remote(CgFn *f, const void *site)
{
    if (!f->cg->opt->distributed)
        return false;
    const EffSite *s = site ? eff_site(site) : NULL;
    return s ? s->remote : true;
}

/* Whether a's object may be another node's: a passive object (an actor's
 * fields are its own code's), array or map, or one in a pool of another
 * node, at a site that is not proven local. */
static bool may_be_remote(CgFn *f, const CgAccess *a)
{
    if (!f->cg->opt->distributed)
        return false;
    if (a->owner->kind == TY_CLASS && a->owner->cls->is_active)
        return false;
    return cg_may_be_remote(f, a->site);
}

LLVMValueRef cg_is_remote_ref(CgFn *f, LLVMValueRef ptr)
{
    Cg *cg = f->cg;
    LLVMValueRef bits = LLVMTypeOf(ptr) == cg->t_i64    /* a place value: a pool */
                            ? ptr : LLVMBuildPtrToInt(cg->b, ptr, cg->t_i64, "ref.bits");
    LLVMValueRef tag = LLVMBuildAnd(cg->b, bits, LLVMConstInt(cg->t_i64, 1, 0), "ref.tag");
    return LLVMBuildICmp(cg->b, LLVMIntNE, tag, LLVMConstInt(cg->t_i64, 0, 0), "is.remote");
}

void cg_far_begin(CgFn *f, LLVMValueRef ref, CgFar *far)
{
    Cg *cg = f->cg;
    LLVMBasicBlockRef local_bb = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "local");
    far->remote = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "remote");
    far->join = LLVMAppendBasicBlockInContext(cg->ctx, f->fn, "joined");
    LLVMBuildCondBr(cg->b, cg_is_remote_ref(f, ref), far->remote, local_bb);
    LLVMPositionBuilderAtEnd(cg->b, local_bb);
}

void cg_far_else(CgFn *f, CgFar *far, LLVMValueRef here)
{
    far->here = here;
    far->here_end = LLVMGetInsertBlock(f->cg->b);
    LLVMBuildBr(f->cg->b, far->join);
    LLVMPositionBuilderAtEnd(f->cg->b, far->remote);
}

LLVMValueRef cg_far_end(CgFn *f, CgFar *far, LLVMValueRef there, const char *name)
{
    Cg *cg = f->cg;
    LLVMBasicBlockRef there_end = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, far->join);
    LLVMPositionBuilderAtEnd(cg->b, far->join);
    if (!far->here || !there)
        return far->here;
    LLVMValueRef phi = LLVMBuildPhi(cg->b, LLVMTypeOf(far->here), name);
    LLVMValueRef vals[2] = {far->here, there};
    LLVMBasicBlockRef from[2] = {far->here_end, there_end};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

LLVMValueRef cg_remote_ref_node(CgFn *f, LLVMValueRef ref)
{
    Cg *cg = f->cg;
    if (LLVMTypeOf(ref) == cg->t_i64)
        ref = LLVMBuildIntToPtr(cg->b, ref, cg->t_ptr, "ref");
    /* the proxy's first word, one byte below the tagged reference */
    LLVMValueRef off = LLVMConstInt(cg->t_i64, (unsigned long long)-1, 1);
    LLVMValueRef addr = LLVMBuildGEP2(cg->b, cg->t_i8, ref, &off, 1, "proxy");
    LLVMValueRef node = LLVMBuildLoad2(cg->b, cg->t_i64, addr, "ref.node");
    cg_mark_invariant(cg, node);
    return node;
}

char cg_travel_kind(const Type *t)
{
    switch (t->kind) {
    case TY_UNIT: return 'u';
    case TY_BOOL: return 'b';
    case TY_INT: case TY_FLOAT: return 'i';
    case TY_STRING: return 's';
    case TY_POOL: return 'p';
    default: return 'r';
    }
}

char cg_word_kind(const Type *t)
{
    return t->kind == TY_BOOL ? 'i' : cg_travel_kind(t);
}

/* The arguments of mos_remote_load and _store that say what is accessed:
 * the reference, what (0 a field, 1 an element, 2 the length), the
 * field's offset or the element's index, the kind of the value. */
static void remote_target(CgFn *f, CgAccess *a, LLVMValueRef *args)
{
    Cg *cg = f->cg;
    args[0] = a->base;
    args[1] = LLVMConstInt(cg->t_i64, a->kind == CG_ACC_FIELD ? 0 : a->kind == CG_ACC_ELEM ? 1 : 2,
                           0);
    args[2] = a->kind == CG_ACC_FIELD ? LLVMConstInt(cg->t_i64, cg_field_offset(cg, a->field), 0)
            : a->kind == CG_ACC_ELEM  ? a->index
                                      : LLVMConstInt(cg->t_i64, 0, 0);
    args[3] = LLVMConstInt(cg->t_i64, (unsigned long long)cg_travel_kind(a->type), 0);
}

/* The pool of a's pooled object, or NULL. */
static LLVMValueRef pool_of(CgFn *f, const CgAccess *a)
{
    return pooled(f, a) ? cg_place_value(f, ty_home(a->owner)) : NULL;
}

/* --count-remote, on the remote path: the node `ref` names (the object's
 * reference, or its pool's). */
static void count_remote_ref(CgFn *f, CgAccess *a, LLVMValueRef ref, unsigned kind)
{
    if (a->site && cg_counts(f, a->owner))
        cg_count_access(f, a->site, a->loc, cg_remote_ref_node(f, ref), kind);
}

/* Begins the two paths of an access that may be remote: the null check,
 * then the branch on the remote bit of the object's reference (of its
 * pool's, for a pooled object), with the builder in the local path.  The
 * descriptor forgets its address and node, which the local path computes
 * anew and which must not be used beyond it. */
static void split_remote(CgFn *f, CgAccess *a, LLVMValueRef pool, CgFar *far)
{
    if (!a->null_known && !f->cg->opt->no_checks)
        cg_null_check(f, a->base, a->loc, null_message(a));
    a->null_known = true;
    a->addr = NULL;
    a->remote_node = NULL;
    cg_far_begin(f, pool ? pool : a->base, far);
}

/* The arguments of mos_pool_load and _store that say what is accessed:
 * the pool, the object's number, its field's cluster and offset there,
 * the kind of the value. */
static void pool_target(CgFn *f, CgAccess *a, LLVMValueRef pool, LLVMValueRef *args)
{
    Cg *cg = f->cg;
    const TcLayout *l = pooled(f, a);
    int k = l->cluster_of[a->field->index];
    args[0] = pool;
    args[1] = a->base;
    args[2] = LLVMConstInt(cg->t_i64, (unsigned long long)k, 0);
    args[3] = LLVMConstInt(cg->t_i64, l->clusters.items[k]->offsets.items[l->slot_of[a->field->index]],
                           0);
    args[4] = LLVMConstInt(cg->t_i64, (unsigned long long)cg_travel_kind(a->type), 0);
}

/* An i64 word of an ABI value (pointer, int32, int64 or double), and back. */
static LLVMValueRef abi_word(Cg *cg, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (t == cg->t_ptr)
        return LLVMBuildPtrToInt(cg->b, v, cg->t_i64, "word");
    if (t == cg->t_f64)
        return LLVMBuildBitCast(cg->b, v, cg->t_i64, "word");
    if (t != cg->t_i64)
        return LLVMBuildZExt(cg->b, v, cg->t_i64, "word");
    return v;
}

static LLVMValueRef abi_value(Cg *cg, LLVMValueRef w, LLVMTypeRef t)
{
    if (t == cg->t_ptr)
        return LLVMBuildIntToPtr(cg->b, w, t, "result");
    if (t == cg->t_f64)
        return LLVMBuildBitCast(cg->b, w, t, "result");
    if (t != cg->t_i64)
        return LLVMBuildTrunc(cg->b, w, t, "result");
    return w;
}

LLVMValueRef cg_call_rt_far(CgFn *f, bool far, CgRt fn, LLVMValueRef *args, unsigned nargs,
                            const char *kinds, const char *name)
{
    if (!far)
        return cg_call_rt(f, fn, args, nargs, name);
    Cg *cg = f->cg;
    CgFar two;
    cg_far_begin(f, args[0], &two);
    LLVMValueRef here = cg_call_rt(f, fn, args, nargs, name);
    LLVMTypeRef result_t = LLVMGetReturnType(cg->rt_type[fn]);
    bool is_void = LLVMGetTypeKind(result_t) == LLVMVoidTypeKind;
    cg_far_else(f, &two, is_void ? NULL : here);

    LLVMTypeRef words_t = LLVMArrayType(cg->t_i64, nargs);
    LLVMValueRef words = cg_entry_alloca(f, words_t, "call.words");
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef idx[2] = {LLVMConstInt(cg->t_i64, 0, 0), LLVMConstInt(cg->t_i64, i, 0)};
        LLVMBuildStore(cg->b, abi_word(cg, args[i]),
                       LLVMBuildInBoundsGEP2(cg->b, words_t, words, idx, 2, "call.word"));
    }
    LLVMValueRef call_args[4] = {
        LLVMConstInt(cg->t_i64, (unsigned long long)fn, 0),
        cg_cstring(cg, kinds, "call.kinds"),
        words,
        args[nargs - 1],        /* every such call's last argument: where */
    };
    LLVMValueRef w = cg_call_rt(f, CG_RT_mos_remote_call, call_args, 4, "remote.result");
    return cg_far_end(f, &two, is_void ? NULL : abi_value(cg, w, result_t), name);
}

LLVMValueRef cg_length_far(CgFn *f, bool far, LLVMValueRef arr, const Type *t, Loc loc)
{
    if (!far)
        return cg_array_length(f, arr);
    /* no site: the length a loop or a map's size reads is not counted */
    CgAccess a = cg_length_access(arr, t, loc, NULL, true);
    return cg_access_load(f, &a, "len");
}

static LLVMValueRef local_load(CgFn *f, CgAccess *a, const char *name);
static void local_store(CgFn *f, CgAccess *a, LLVMValueRef value);

LLVMValueRef cg_access_load(CgFn *f, CgAccess *a, const char *name)
{
    if (!may_be_remote(f, a))
        return local_load(f, a, name);
    Cg *cg = f->cg;
    LLVMValueRef pool = pool_of(f, a);
    CgFar far;
    split_remote(f, a, pool, &far);
    bool was_checked = a->checked;
    cg_far_else(f, &far, local_load(f, a, name));
    a->addr = NULL;
    a->remote_node = NULL;

    LLVMValueRef args[6];
    LLVMValueRef bits;
    if (pool) {
        pool_target(f, a, pool, args);
        args[5] = cg_where(cg, a->loc);
        bits = cg_call_rt(f, CG_RT_mos_pool_load, args, 6, "remote.bits");
    } else {
        remote_target(f, a, args);
        args[4] = cg_where(cg, a->loc);
        bits = cg_call_rt(f, CG_RT_mos_remote_load, args, 5, "remote.bits");
    }
    /* counted once it happened, as on the local path, which checks first:
     * an access that fails its check on the owner is not counted */
    count_remote_ref(f, a, pool ? pool : a->base, EFF_READ);
    LLVMValueRef v = cg_far_end(f, &far, cg_word_to_value(f, bits, a->type), name);
    a->checked = was_checked;   /* the local path's checks are its own */
    return v;
}

void cg_access_store(CgFn *f, CgAccess *a, LLVMValueRef value)
{
    if (!may_be_remote(f, a)) {
        local_store(f, a, value);
        return;
    }
    Cg *cg = f->cg;
    LLVMValueRef pool = pool_of(f, a);
    CgFar far;
    split_remote(f, a, pool, &far);
    bool was_checked = a->checked;
    a->checked = false;         /* a load's checks were on its own path */
    local_store(f, a, value);
    cg_far_else(f, &far, NULL);
    a->addr = NULL;
    a->remote_node = NULL;

    LLVMValueRef args[7];
    if (pool) {
        pool_target(f, a, pool, args);
        args[5] = cg_value_to_word(f, value, a->type);
        args[6] = cg_where(cg, a->loc);
        cg_call_rt(f, CG_RT_mos_pool_store, args, 7, "");
    } else {
        remote_target(f, a, args);
        args[4] = cg_value_to_word(f, value, a->type);
        args[5] = cg_where(cg, a->loc);
        cg_call_rt(f, CG_RT_mos_remote_store, args, 6, "");
    }
    count_remote_ref(f, a, pool ? pool : a->base, EFF_WRITE);     /* once it happened */
    cg_far_end(f, &far, NULL, "");
    a->checked = was_checked;
}

static LLVMValueRef local_load(CgFn *f, CgAccess *a, const char *name)
{
    Cg *cg = f->cg;
    cg_access_check(f, a);
    count(f, a, EFF_READ);
    if (a->kind == CG_ACC_LENGTH)
        return cg_array_length(f, a->base);
    if (a->kind == CG_ACC_ELEM)
        return cg_load(f, address(f, a), a->type, true, name);
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_mem_type(cg, a->type), address(f, a), name);
    cg_tbaa_field(cg, v, a->field);
    return a->type->kind == TY_BOOL ? LLVMBuildTrunc(cg->b, v, cg->t_i1, name) : v;
}

static void local_store(CgFn *f, CgAccess *a, LLVMValueRef value)
{
    Cg *cg = f->cg;
    ASSERT(a->kind != CG_ACC_LENGTH, "lengths are read-only");
    cg_access_check(f, a);
    count(f, a, EFF_WRITE);
    if (a->kind == CG_ACC_ELEM) {
        cg_store(f, value, address(f, a), a->type, true);
        return;
    }
    if (a->type->kind == TY_BOOL)
        value = LLVMBuildZExt(cg->b, value, cg->t_i8, "");
    cg_tbaa_field(cg, LLVMBuildStore(cg->b, value, address(f, a)), a->field);
}
