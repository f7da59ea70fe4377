/* places.c — places at run time: which are needed, and their values.
 *
 * The language's places are static (typecheck/places.h), but a few
 * operations need the node a place stands for while the program runs:
 * `new A<p>` starts an actor on p's node, `--count-remote` records where
 * each object and array lives, and a function generic in a place must be
 * told what it stands for when its code needs it.  A place value is an
 * int64 node number, 0 … nodes()-1.  Where each kind of place gets its
 * value:
 *
 *   here          mos_node_id(): the node of the running actor (main: 0),
 *                 which is the caller's node the language promises
 *   node(k)       mos_node_of(k): k mod nodes()
 *   a function's  a hidden i64 argument after `this` (all of a function's
 *   place param   place parameters have one; callers pass 0 for those the
 *                 body never needs, and LLVM drops unused ones)
 *   a class's     a hidden i64 member after the fields, one per place
 *   place param   parameter, stored by `new` before anything else runs —
 *                 in every actor, and in a passive object only when its
 *                 class "stores places" (below)
 *   ?             not known: the running node stands in for it (only a
 *                 function generic in a place that was inferred as `?`
 *                 can ask, see docs/language-notes.md)
 *
 *   a pool        its descriptor's address (pool.c): a top-level pool's
 *                 from its global, a `pool` statement's from its slot; a
 *                 pooled `this` has its pool as a hidden argument, and the
 *                 pool knows its class's other places
 *
 * So that a normal build pays nothing for places, a passive class stores
 * its places only when some code of the class needs one of them, and a
 * caller computes a hidden argument only when the callee needs it.  The
 * plan of reach.c finds both, to a fixed point: an instance needs a place
 * when it starts an actor there, allocates there an object whose class
 * stores places, reaches through it into a pool, or passes it to a
 * callee's place parameter that the callee needs.  With --count-remote
 * every passive class stores its places and every allocation needs its
 * place, since the counters must know where each object and array lives.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"
#include "../stdlib/mosaic_rt.h"

/* ---- values ---------------------------------------------------------------- */

LLVMValueRef cg_node_of_place(CgFn *f, Place *at)
{
    return f->inst && cg_shape_of(f->inst, at) ? cg_pool_node(f, cg_place_value(f, at))
                                               : cg_place_value(f, at);
}

LLVMValueRef cg_here_value(CgFn *f)
{
    return cg_call_rt(f, CG_RT_mos_node_id, NULL, 0, "here");
}

/* A place value (an i64) read from a pool descriptor's word at `offset`. */
static LLVMValueRef pool_word(CgFn *f, LLVMValueRef pool, uint64_t offset, const char *name,
                              bool invariant)
{
    Cg *cg = f->cg;
    LLVMValueRef base = LLVMBuildIntToPtr(cg->b, pool, cg->t_ptr, "pool");
    LLVMValueRef off = LLVMConstInt(cg->t_i64, offset, 0);
    LLVMValueRef addr = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &off, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, addr, name);
    if (invariant)
        cg_mark_invariant(cg, v);
    cg_tbaa(cg, v, ty_int, true);
    return v;
}

static LLVMValueRef pool_place_here(CgFn *f, LLVMValueRef pool, int i)
{
    Cg *cg = f->cg;
    LLVMValueRef places = pool_word(f, pool, MOS_POOL_PLACES_OFFSET, "pool.places", true);
    LLVMValueRef base = LLVMBuildIntToPtr(cg->b, places, cg->t_ptr, "");
    LLVMValueRef idx = LLVMConstInt(cg->t_i64, (unsigned long long)i, 0);
    LLVMValueRef addr = LLVMBuildInBoundsGEP2(cg->b, cg->t_i64, base, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, addr, "pool.place");
    cg_mark_invariant(cg, v);
    return v;
}

LLVMValueRef cg_pool_places_word(CgFn *f, LLVMValueRef pool, int i)
{
    if (!f->cg->opt->distributed)
        return pool_place_here(f, pool, i);
    /* a pool of another node knows its places there */
    CgFar far;
    cg_far_begin(f, pool, &far);
    return cg_far_pool_word(f, pool, &far, pool_place_here(f, pool, i), 2 + i, "pool.place");
}

LLVMValueRef cg_place_value(CgFn *f, Place *p)
{
    Cg *cg = f->cg;
    switch (p->tag) {
    case PL_NODE: {
        LLVMValueRef k = LLVMConstInt(cg->t_i64, (unsigned long long)p->node, 1);
        return cg_call_rt(f, CG_RT_mos_node_of, &k, 1, "node");
    }
    case PL_POOL:
        return cg_pool_value(f, p->pool);
    case PL_PARAM: {
        int i = f->inst ? cg_ctx_index(f->inst, p) : -1;
        if (i >= (int)f->inst->nclass) {
            ASSERT(f->place_args, "a function's own place parameter");
            return f->place_args[i - (int)f->inst->nclass];
        }
        if (i >= 0 && f->inst->pooled_this)
            return i == 0 ? f->home : cg_pool_places_word(f, f->home, i);
        if (i >= 0 && f->this_val && cg_stores_places(cg, p->cls))
            return cg_load_place_field(f, f->this_val, p->cls, p->index);
        return cg_here_value(f);    /* not stored: the plan says nobody needs it */
    }
    case PL_HERE:
    case PL_UNKNOWN:
        break;
    }
    return cg_here_value(f);
}

void cg_place_args(CgFn *f, const CgInst *callee, const Subst *s, LLVMValueRef *out)
{
    for (unsigned k = callee->nclass; k < callee->nctx; k++) {
        Place *p = tc_place_func_param(callee->func, (int)(k - callee->nclass));
        out[k - callee->nclass] = cg_needs_place_arg(callee, (int)k)
                                      ? cg_place_value(f, tc_subst_place(s, p))
                                      : LLVMConstInt(f->cg->t_i64, 0, 0);
    }
}
