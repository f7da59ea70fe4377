/* class.c — classes: object layout, constructors, field access.
 *
 * An object is a block of GC memory holding its fields in declaration
 * order, described by a named LLVM struct ("class.Counter") so that field
 * accesses are struct GEPs the optimiser understands and the IR reads
 * like the source.  Sizes come from the target's data layout.  A class
 * with no pointer field (no string, object, array or future) is allocated
 * with mos_alloc_atomic_raw, which the collector never scans, and zeroed
 * by the constructor itself.
 *
 * `new C(args)` calls the class's constructor "mos.new.C"(init params):
 *   1. allocate (the memory is zeroed: 0, 0.0, false and null for free);
 *   2. store "" into string fields (the only default that is not zero);
 *   3. run the field initialisers in declaration order (they may use
 *      `this`, and see the defaults of the fields not yet initialised);
 *   4. call init with the arguments, if the class has one;
 *   5. return the object.
 * Methods are ordinary functions "mos.m.C.m"(this, params) emitted by
 * stmt.c; every call is direct (Mosaic has no inheritance).
 *
 * An active class (an actor) has the same struct with one more member in
 * front: MOS_ACTOR_HEADER_SIZE bytes that belong to the runtime (mailbox,
 * scheduling state, node), so field i is struct member i + 1
 * (CgClass.field_base).  Its methods are the same plain functions, with
 * `this` the actor; its `new` and constructor message are in actor.c.
 *
 * A class that stores its places (places.c: every actor, a passive class
 * only when its code needs their values, or under --count-remote) has one
 * i64 member per place parameter after the fields (CgClass.place_base),
 * and its constructor takes their values first, before init's parameters,
 * and stores them before any initialiser runs.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

CgClass *cg_class(Cg *cg, ClassDecl *cls)
{
    CgClass *c = cg_map_get_ptr(&cg->classes, cls);
    ASSERT(c, "every class is declared first");
    return c;
}

uint64_t cg_field_offset(Cg *cg, FieldDecl *fd)
{
    CgClass *c = cg_class(cg, fd->owner);
    return LLVMOffsetOfElement(cg->td, c->type, c->field_base + (unsigned)fd->index);
}

void cg_declare_classes(Cg *cg)
{
    Program *p = cg->program;
    /* all names first: fields refer to other classes only through
     * pointers, but keep the order independent of that anyway */
    for (size_t i = 0; i < p->decls.len; i++) {
        Decl *d = p->decls.items[i];
        if (d->kind != DECL_CLASS || tc_is_generic_class(d->u.cls))
            continue;
        CgClass *c = ARENA_NEW(CgClass);
        c->type = LLVMStructCreateNamed(cg->ctx,
                                        arena_printf("class.%s", d->u.cls->name.text));
        cg_map_put_ptr(&cg->classes, d->u.cls, c);
    }
    for (size_t i = 0; i < p->decls.len; i++) {
        Decl *d = p->decls.items[i];
        if (d->kind != DECL_CLASS || tc_is_generic_class(d->u.cls))
            continue;
        ClassDecl *cls = d->u.cls;
        CgClass *c = cg_class(cg, cls);
        size_t n = cls->fields.len;
        c->nplaces = cg_stores_places(cg, cls) ? (unsigned)tc_class_nplaces(cls) : 0;
        LLVMTypeRef fields[n + 1 + c->nplaces];
        if (cls->is_active) {
            /* the runtime's header, opaque to generated code */
            fields[0] = LLVMArrayType(cg->t_i8, MOS_ACTOR_HEADER_SIZE);
            c->field_base = 1;
        }
        for (size_t j = 0; j < n; j++) {
            FieldDecl *fd = cls->fields.items[j];
            ASSERT(fd->index == (int)j, "field indices follow declaration order");
            fields[c->field_base + j] = cg_mem_type(cg, fd->field_type);
            if (cg_is_pointer(fd->field_type))
                c->has_pointers = true;
        }
        c->place_base = c->field_base + (unsigned)n;
        for (unsigned j = 0; j < c->nplaces; j++)
            fields[c->place_base + j] = cg->t_i64;
        if (c->nplaces)
            c->has_pointers = true;     /* a place may be a pool's address */
        LLVMStructSetBody(c->type, fields, c->place_base + c->nplaces, 0);
        c->size = LLVMABISizeOfType(cg->td, c->type);
        if (c->size == 0)
            c->size = 1;        /* distinct objects need distinct addresses */
    }
}

/* mos.new.C$shapes(its places, or its pool when it lives in one, then
 * init's parameters) -> the object */
void cg_declare_constructor(Cg *cg, CgInst *in)
{
    ClassDecl *cls = in->cls;
    CgClass *c = cg_class(cg, cls);
    size_t n = cls->init ? cls->init->params.len : 0;
    unsigned np = in->pooled_this ? 1 : c->nplaces;
    LLVMTypeRef params[n + np + 1];
    for (unsigned j = 0; j < np; j++)
        params[j] = cg->t_i64;
    for (size_t j = 0; j < n; j++)
        params[np + j] = cg_type(cg, cls->init->params.items[j]->sym->type);
    in->type = LLVMFunctionType(cg->t_ptr, params, (unsigned)(n + np), 0);
    in->fn = LLVMAddFunction(cg->mod, in->name, in->type);
    LLVMSetLinkage(in->fn, LLVMInternalLinkage);
    cg_add_defined_fn_attrs(cg, in->fn);
    LLVMAddAttributeAtIndex(in->fn, LLVMAttributeReturnIndex,
                            LLVMCreateEnumAttribute(cg->ctx, cg->attr_nonnull, 0));
    for (unsigned j = 0; j < np; j++) {
        const char *name = in->pooled_this ? "pool"
                                           : tc_place_name(tc_place_class_param(cls, (int)j));
        LLVMSetValueName2(LLVMGetParam(in->fn, j), name, strlen(name));
    }
    for (size_t j = 0; j < n; j++) {
        const char *name = cls->init->params.items[j]->name.text;
        LLVMSetValueName2(LLVMGetParam(in->fn, np + (unsigned)j), name, strlen(name));
    }
}

static LLVMValueRef place_field_addr(CgFn *f, LLVMValueRef obj, ClassDecl *cls, int i)
{
    CgClass *c = cg_class(f->cg, cls);
    ASSERT((unsigned)i < c->nplaces, "the class stores its places");
    return LLVMBuildStructGEP2(f->cg->b, c->type, obj, c->place_base + (unsigned)i,
                               arena_printf("%s.place.addr",
                                            tc_place_name(tc_place_class_param(cls, i))));
}

static LLVMValueRef load_place_here(CgFn *f, LLVMValueRef obj, ClassDecl *cls, int i)
{
    LLVMValueRef v = LLVMBuildLoad2(f->cg->b, f->cg->t_i64, place_field_addr(f, obj, cls, i),
                                    tc_place_name(tc_place_class_param(cls, i)));
    cg_tbaa(f->cg, v, ty_int, false);
    return v;
}

LLVMValueRef cg_load_place_field(CgFn *f, LLVMValueRef obj, ClassDecl *cls, int i)
{
    Cg *cg = f->cg;
    if (!cg->opt->distributed || cls->is_active)
        return load_place_here(f, obj, cls, i);
    /* --distributed: a passive object may be another node's, and its
     * places are read where it is, like its fields */
    CgClass *c = cg_class(cg, cls);
    CgFar far;
    cg_far_begin(f, obj, &far);
    cg_far_else(f, &far, load_place_here(f, obj, cls, i));
    LLVMValueRef args[5] = {
        obj,
        LLVMConstInt(cg->t_i64, 0, 0),          /* a field's word */
        LLVMConstInt(cg->t_i64, LLVMOffsetOfElement(cg->td, c->type, c->place_base + (unsigned)i),
                     0),
        LLVMConstInt(cg->t_i64, 'i', 0),
        LLVMConstNull(cg->t_ptr),               /* a place's load cannot fail */
    };
    return cg_far_end(f, &far, cg_call_rt(f, CG_RT_mos_remote_load, args, 5, "place"), "place");
}

void cg_store_place_fields(CgFn *f, LLVMValueRef obj, ClassDecl *cls, LLVMValueRef *values)
{
    CgClass *c = cg_class(f->cg, cls);
    for (unsigned i = 0; i < c->nplaces; i++) {
        LLVMValueRef st = LLVMBuildStore(f->cg->b, values[i],
                                         place_field_addr(f, obj, cls, (int)i));
        cg_tbaa(f->cg, st, ty_int, false);
    }
}

void cg_init_fields(CgFn *f, ClassDecl *cls)
{
    Cg *cg = f->cg;
    for (size_t i = 0; i < cls->fields.len; i++) {
        FieldDecl *fd = cls->fields.items[i];
        if (fd->field_type->kind != TY_STRING)
            continue;
        /* the default value: part of the allocation, not an access */
        CgAccess a = cg_field_access(f->this_val, tc_this_type(cls), fd, fd->loc, NULL, true);
        cg_access_store(f, &a, cg->empty_string);
    }
    for (size_t i = 0; i < cls->fields.len; i++) {
        FieldDecl *fd = cls->fields.items[i];
        if (!fd->init)
            continue;
        cg_debug_loc(f, fd->loc);
        LLVMValueRef v = cg_expr(f, fd->init);
        /* run by the creator: a store into an object perhaps elsewhere */
        CgAccess a = cg_field_access(f->this_val, tc_this_type(cls), fd, fd->loc, fd, true);
        cg_access_store(f, &a, v);
    }
}

/* --distributed: the object is made on its home's node, which may be
 * another process's, with its places (the constructor's first
 * parameters) stored there (mos_object_new_at); the rest of the
 * constructor then stores through references like any other code. */
static LLVMValueRef distributed_alloc(CgFn *f, CgClass *c, LLVMValueRef fn)
{
    Cg *cg = f->cg;
    ASSERT(c->nplaces >= 1, "under --distributed every class stores its places");
    LLVMTypeRef places_t = LLVMArrayType(cg->t_i64, c->nplaces);
    LLVMValueRef places = cg_entry_alloca(f, places_t, "places");
    for (unsigned j = 0; j < c->nplaces; j++) {
        LLVMValueRef idx[2] = {LLVMConstInt(cg->t_i64, 0, 0), LLVMConstInt(cg->t_i64, j, 0)};
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(cg->b, places_t, places, idx, 2, "place.slot");
        LLVMBuildStore(cg->b, LLVMGetParam(fn, j), slot);
    }
    LLVMValueRef args[6] = {
        LLVMConstInt(cg->t_i64, c->size, 0),
        LLVMGetParam(fn, 0),                                    /* its home's node */
        LLVMConstInt(cg->t_i32, c->has_pointers, 0),
        LLVMConstInt(cg->t_i64, LLVMOffsetOfElement(cg->td, c->type, c->place_base), 0),
        LLVMConstInt(cg->t_i64, c->nplaces, 0),
        places,
    };
    return cg_call_rt(f, CG_RT_mos_object_new_at, args, 6, "this");
}

void cg_emit_constructor(Cg *cg, CgInst *in)
{
    ClassDecl *cls = in->cls;
    if (cls->is_active) {
        cg_emit_actor_new(cg, in);
        return;
    }
    CgClass *c = cg_class(cg, cls);
    CgFn f;
    cg_fn_begin(&f, cg, in->fn, NULL, cls->loc, arena_printf("new.%s", cls->name.text));
    f.inst = in;
    f.cls = cls;
    cg_frame_begin(&f, arena_printf("new %s", cls->name.text));
    unsigned np = in->pooled_this ? 1 : c->nplaces;
    if (in->pooled_this) {
        /* into the pool: a reference to its next object (pool.c) */
        f.home = LLVMGetParam(in->fn, 0);
        f.this_val = cg_pool_alloc(&f, f.home, cls->loc);
    } else if (cg->opt->distributed) {
        f.this_val = distributed_alloc(&f, c, in->fn);
    } else {
        LLVMValueRef size = LLVMConstInt(cg->t_i64, c->size, 0);
        if (c->has_pointers) {
            f.this_val = cg_call_rt(&f, CG_RT_mos_alloc, &size, 1, "this");    /* zeroed */
        } else {
            /* zeroed here, where LLVM sees the stores that overwrite it */
            f.this_val = cg_call_rt(&f, CG_RT_mos_alloc_atomic_raw, &size, 1, "this");
            LLVMBuildMemSet(cg->b, f.this_val, LLVMConstInt(cg->t_i8, 0, 0), size, 8);
        }
        LLVMValueRef places[c->nplaces + 1];
        for (unsigned j = 0; j < c->nplaces; j++)
            places[j] = LLVMGetParam(in->fn, j);
        cg_store_place_fields(&f, f.this_val, cls, places);
    }
    cg_init_fields(&f, cls);
    if (cls->init) {
        CgInst *init = cg_inst(cg, cls->init, cls, in->shapes);
        size_t n = cls->init->params.len;
        LLVMValueRef args[n + 2];
        unsigned k = 0;
        args[k++] = f.this_val;
        if (in->pooled_this)
            args[k++] = f.home;
        for (size_t j = 0; j < n; j++)
            args[k++] = LLVMGetParam(in->fn, np + (unsigned)j);
        cg_debug_loc(&f, cls->loc);
        cg_call(&f, init->type, init->fn, args, k, "");
        f.calls_user = true;
    }
    cg_frame_pop(&f);
    LLVMBuildRet(cg->b, f.this_val);
    cg_fn_finish(&f, ty_null);
}
