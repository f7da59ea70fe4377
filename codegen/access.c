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

LLVMValueRef cg_access_load(CgFn *f, CgAccess *a, const char *name)
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

void cg_access_store(CgFn *f, CgAccess *a, LLVMValueRef value)
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
