/* maps.c — Map<K, V> (LANGUAGE.md §9) in generated code.
 *
 * A map is the runtime's (stdlib/map.c): every operation on one is a call,
 * keys and values passed as 64-bit words (cg_to_word / cg_from_word), but
 * for the probe of an int or bool key, which is made in line (see "the
 * probe of an int key" below).  What is decided here is everything around
 * the call:
 *
 *   - the null check, inline like every other (the runtime would catch a
 *     null map too, but the check must come before --count-remote reads
 *     the map's node);
 *   - --count-remote: each entry read or written, each `size`, each method
 *     call counts once, at the node the map records;
 *   - evaluation order (LANGUAGE.md §3): the map, the key, then the value;
 *     `m[k] op= v` reads the entry (a missing key is the runtime error
 *     there), evaluates v, then stores — two lookups, so a v that changes
 *     the map cannot leave a stale slot behind;
 *   - one lookup where nothing can change the map between the read and
 *     the write: `m[k] op= v` and the counting idiom `m[k] = m.get(k, d)
 *     op v`, when m and k are locals (or fields of this) and d and v are
 *     literals or locals, ask the runtime for the value's cell
 *     (mos_map_cell, mos_map_cell_or) and update it in place;
 *   - `{k: v, …}`: a new map, then each entry set in order, so a repeated
 *     key keeps its first position and its last value.
 *
 * The map's `size` is its first word, read inline.  `for k in m` is in
 * stmt.c: it walks a snapshot of the keys, skipping those removed since.
 */
#include "cg_internal.h"
#include "../support/assert.h"
#include "../typecheck/effects.h"
#include "../stdlib/mosaic_rt.h"

static int key_kind(const Type *key)
{
    return key->kind == TY_STRING ? MOS_KEY_STRING
         : key->kind == TY_BOOL   ? MOS_KEY_BOOL
                                  : MOS_KEY_INT;
}

/* A new empty map of type t, recorded at its place under --count-remote. */
static LLVMValueRef new_map(CgFn *f, const Type *t, Loc loc)
{
    Cg *cg = f->cg;
    LLVMValueRef node = LLVMConstInt(cg->t_i64, 0, 0);
    if (cg->opt->count_remote)
        node = cg_node_of_place(f, ty_home(t));
    LLVMValueRef args[5] = {
        LLVMConstInt(cg->t_i32, (unsigned long long)key_kind(t->key), 0),
        LLVMConstInt(cg->t_i32, (unsigned long long)cg_elem_kind(t->elem), 0),
        LLVMConstInt(cg->t_i32, LLVMABISizeOfType(cg->td, cg_mem_type(cg, t->elem)), 0),
        node,
        cg_where(cg, loc),
    };
    return cg_call_rt(f, CG_RT_mos_map_new, args, 5, "map");
}

/* An operation on map m (the value of mx) at `site`: the null check, then
 * the count of `kinds` accesses. */
static void touch(CgFn *f, LLVMValueRef m, const Expr *mx, Loc loc, const void *site,
                  unsigned kinds)
{
    bool counted = cg_counts(f, mx->type);  /* reads the map's node: never null then */
    if (!cg_known_nonnull(mx) && (!f->cg->opt->no_checks || counted))
        cg_null_check(f, m, loc, "null dereference: a null map");
    if (counted)
        cg_count_access(f, site, loc, cg_remote_node(f, m, mx->type), kinds);
}

/* ---- the probe of an int key, in line -------------------------------------
 *
 * A lookup of an int or bool key is one cache miss; what matters beside it
 * is how many lookups the processor keeps in flight at once, and a call
 * into the runtime for each, or a long sequence of instructions, stands in
 * their way.  So `m[k]`, `m.get(k, d)` and `m.has(k)` probe here
 * (mosaic_rt.h, MOS_MAP_PROBE): the hash as map.c's mix computes it, the
 * home slot its top bits name, and on for up to INLINE_PROBE slots.  An
 * empty slot means no such key, the key means its value; a longer run is
 * the runtime's, which counts it (map.c's chain_limit).  `m[k] = v` probes
 * the same way and makes a new entry itself when it can (set_int_key), and
 * `m.remove(k)` empties the slot itself when no later slot must shift
 * back into it (remove_int_key).  A map with no slots to probe (no entry
 * yet, or one that has stopped trusting the mix: map.c's essay) leaves
 * the whole operation to the runtime. */

/* The external @mos_map_secret, declared once, with hidden visibility
 * (so dso_local): the runtime is linked into the executable
 * (libmosaicrt.a), and the secret is read relative to the program
 * counter, not through the GOT — one load fewer in every lookup. */
static LLVMValueRef map_secret(Cg *cg)
{
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, "mos_map_secret");
    if (!g) {
        g = LLVMAddGlobal(cg->mod, LLVMArrayType(cg->t_i64, 2), "mos_map_secret");
        LLVMSetLinkage(g, LLVMExternalLinkage);
        LLVMSetVisibility(g, LLVMHiddenVisibility);
    }
    return g;
}

static LLVMValueRef header_word(Cg *cg, LLVMValueRef m, unsigned offset, LLVMTypeRef t,
                                const char *name)
{
    LLVMValueRef at = LLVMConstInt(cg->t_i64, offset, 0);
    LLVMValueRef addr = LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, m, &at, 1, "");
    return LLVMBuildLoad2(cg->b, t, addr, name);
}

/* map.c's mix of the key word k: (k ^ secret) * 2^64/φ. */
static LLVMValueRef int_key_hash(Cg *cg, LLVMValueRef k)
{
    LLVMBuilderRef b = cg->b;
    LLVMValueRef s0 = LLVMBuildLoad2(b, cg->t_i64, map_secret(cg), "secret");
    return LLVMBuildMul(b, LLVMBuildXor(b, k, s0, ""),
                        LLVMConstInt(cg->t_i64, 0x9e3779b97f4a7c15ull, 0), "hash");
}

/* The most slots the in-line probe visits before it leaves the rest to
 * the runtime: two cache lines of pairs, past which a run is rare at a
 * load of at most 1/2, and far below map.c's chain_limit, so that every
 * long probe is still the runtime's, and counted (map.c's essay). */
#define INLINE_PROBE 8

/* A probe for key word k in the slots `pairs` of map m, from its home
 * (the top bits of map.c's mix of k) on: a branch to `hit` at the slot
 * holding k, to `vacant` at the first empty one, to `other` after
 * INLINE_PROBE slots of other keys.  Gives the slot's address (valid in
 * `hit` and `vacant`); *empty is the map's empty mark. */
static LLVMValueRef probe_slots(Cg *cg, LLVMValueRef m, LLVMValueRef pairs, LLVMValueRef k,
                                LLVMValueRef *empty, LLVMBasicBlockRef hit,
                                LLVMBasicBlockRef vacant, LLVMBasicBlockRef other,
                                LLVMValueRef *index_out, LLVMValueRef *mask_out)
{
    LLVMBuilderRef b = cg->b;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.slot");
    LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.check");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.next");
    *empty = header_word(cg, m, MOS_MAP_EMPTY, cg->t_i64, "map.empty");
    LLVMValueRef shift = header_word(cg, m, MOS_MAP_SHIFT, cg->t_i64, "map.shift");
    LLVMValueRef mask = header_word(cg, m, MOS_MAP_MASK, cg->t_i64, "map.mask");
    LLVMValueRef first = LLVMBuildLShr(b, int_key_hash(cg, k), shift, "map.home");
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, loop);

    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef index = LLVMBuildPhi(b, cg->t_i64, "map.index");
    LLVMValueRef steps = LLVMBuildPhi(b, cg->t_i64, "map.steps");
    LLVMValueRef offset = LLVMBuildShl(b, index, LLVMConstInt(cg->t_i64, 4, 0), "");
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(b, cg->t_i8, pairs, &offset, 1, "map.at");
    LLVMValueRef held = LLVMBuildLoad2(b, cg->t_i64, slot, "map.key");
    /* an empty slot first: a held key never equals the mark */
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, held, *empty, ""), vacant, check);

    LLVMPositionBuilderAtEnd(b, check);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, held, k, ""), hit, next);

    LLVMPositionBuilderAtEnd(b, next);
    LLVMValueRef one = LLVMConstInt(cg->t_i64, 1, 0);
    LLVMValueRef index1 = LLVMBuildAnd(b, LLVMBuildAdd(b, index, one, ""), mask, "");
    LLVMValueRef steps1 = LLVMBuildAdd(b, steps, one, "");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, steps1,
                                      LLVMConstInt(cg->t_i64, INLINE_PROBE, 0), "");
    LLVMBuildCondBr(b, more, loop, other);

    LLVMValueRef zero = LLVMConstInt(cg->t_i64, 0, 0);
    LLVMValueRef indices[2] = {first, index1}, counts[2] = {zero, steps1};
    LLVMBasicBlockRef from[2] = {entry, next};
    LLVMAddIncoming(index, indices, from, 2);
    LLVMAddIncoming(steps, counts, from, 2);
    if (index_out)
        *index_out = index;
    if (mask_out)
        *mask_out = mask;
    return slot;
}

/* A lookup's runtime call, `which` with its arguments (the map and the
 * key word first): the whole lookup for a string key, the slow path of an
 * int key's.  rt_lookup makes it and gives its result as an i64 word. */
typedef struct RtLookup {
    CgRt which;
    LLVMValueRef args[4];
    unsigned nargs;
} RtLookup;

/* --distributed: how the arguments and result of map entry `which` on a
 * map of type t travel to the map's node (cg_call_rt_far). */
static const char *travel(CgRt which, const Type *t)
{
    char k = cg_word_kind(t->key), v = cg_word_kind(t->elem);
    switch (which) {
    case CG_RT_mos_map_get: return arena_printf("r%cw>%c", k, v);
    case CG_RT_mos_map_get_or: return arena_printf("r%c%cw>%c", k, v, v);
    case CG_RT_mos_map_has: case CG_RT_mos_map_remove: return arena_printf("r%cw>b", k);
    case CG_RT_mos_map_set: return arena_printf("r%c%cw>u", k, v);
    case CG_RT_mos_map_keys: return "rw>a";
    case CG_RT_mos_map_values: return "rw>a";
    default: return "rw>u";
    }
}

static LLVMValueRef far_call(CgFn *f, bool far, CgRt which, const Type *t, LLVMValueRef *args,
                             unsigned nargs, const char *name)
{
    return cg_call_rt_far(f, far, which, args, nargs, far ? travel(which, t) : NULL, name);
}

static LLVMValueRef rt_lookup(CgFn *f, const RtLookup *l)
{
    LLVMValueRef r = cg_call_rt(f, l->which, (LLVMValueRef *)l->args, l->nargs, "map.slow");
    if (LLVMTypeOf(r) != f->cg->t_i64)
        r = LLVMBuildZExt(f->cg->b, r, f->cg->t_i64, "");
    return r;
}

/* The word a lookup of an int key gives (l's map and key word): the
 * value (or 1 when not `value`) if the first probe finds the key,
 * `if_absent` if it finds an empty slot, else what the runtime call l
 * makes of it (a collision, and without `if_absent` an absent key too). */
static LLVMValueRef probe_int_key(CgFn *f, const RtLookup *l, bool value, LLVMValueRef if_absent)
{
    Cg *cg = f->cg;
    LLVMValueRef m = l->args[0], k = l->args[1];
    LLVMBuilderRef b = cg->b;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef probe = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.probe");
    LLVMBasicBlockRef found = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.found");
    LLVMBasicBlockRef absent = if_absent ? LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.absent")
                                         : NULL;
    LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.other");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.join");
    LLVMBasicBlockRef none = absent ? absent : other;

    /* no slots to probe (no entry yet, or the map hashes strongly): the runtime */
    LLVMValueRef pairs = header_word(cg, m, MOS_MAP_PROBE, cg->t_ptr, "map.pairs");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, pairs, ""), other, probe);

    LLVMPositionBuilderAtEnd(b, probe);
    LLVMValueRef empty;
    LLVMValueRef slot = probe_slots(cg, m, pairs, k, &empty, found, none, other, NULL, NULL);

    LLVMPositionBuilderAtEnd(b, found);
    LLVMValueRef eight = LLVMConstInt(cg->t_i64, 8, 0);
    LLVMValueRef hit = LLVMConstInt(cg->t_i64, 1, 0);
    if (value)
        hit = LLVMBuildLoad2(b, cg->t_i64, LLVMBuildInBoundsGEP2(b, cg->t_i8, slot, &eight, 1, ""),
                             "map.value");
    LLVMBuildBr(b, join);

    if (absent) {
        LLVMPositionBuilderAtEnd(b, absent);
        LLVMBuildBr(b, join);
    }

    LLVMPositionBuilderAtEnd(b, other);
    LLVMValueRef slow_word = rt_lookup(f, l);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef phi = LLVMBuildPhi(b, cg->t_i64, "map.word");
    LLVMValueRef words[3] = {hit, slow_word, if_absent};
    LLVMBasicBlockRef from[3] = {found, slow_end, absent};
    LLVMAddIncoming(phi, words, from, absent ? 3 : 2);
    return phi;
}

/* A lookup (mos_map_get, _get_or or _has in l): its first probe in line
 * for an int or bool key, the runtime call alone for a string. */
static LLVMValueRef lookup_word(CgFn *f, const Type *t, const RtLookup *l, bool value,
                                LLVMValueRef if_absent, bool far)
{
    if (far) {      /* the map may be another node's: no probe in line */
        LLVMValueRef r = far_call(f, true, l->which, t, (LLVMValueRef *)l->args, l->nargs,
                                  "map.far");
        return LLVMTypeOf(r) != f->cg->t_i64 ? LLVMBuildZExt(f->cg->b, r, f->cg->t_i64, "") : r;
    }
    return t->key->kind != TY_STRING ? probe_int_key(f, l, value, if_absent) : rt_lookup(f, l);
}

static void store_word(Cg *cg, LLVMValueRef base, unsigned offset, LLVMValueRef word)
{
    LLVMValueRef at = LLVMConstInt(cg->t_i64, offset, 0);
    LLVMBuildStore(cg->b, word, LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, base, &at, 1, ""));
}

/* m[k] = v of an int or bool key (args: mos_map_set's), in line when the
 * in-line probe finds k (the value is replaced) or an empty slot with
 * room to spare (mosaic_rt.h, MOS_MAP_ORDER: the entry is made there, as
 * map.c's mos_map_set would make it); anything else is the runtime's: a
 * long probe, growth of the slots or of the order array, no slots to
 * probe, or the key that marks empty slots. */
static void set_int_key(CgFn *f, LLVMValueRef args[4])
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    LLVMValueRef m = args[0], k = args[1], v = args[2];
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef probe = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.probe");
    LLVMBasicBlockRef replace = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.replace");
    LLVMBasicBlockRef room = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.room");
    LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.add");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.slow");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.set.done");

    LLVMValueRef pairs = header_word(cg, m, MOS_MAP_PROBE, cg->t_ptr, "map.pairs");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, pairs, ""), slow, probe);

    /* an empty slot: a new entry, unless the key is the mark itself */
    LLVMPositionBuilderAtEnd(b, probe);
    LLVMValueRef empty;
    LLVMValueRef slot = probe_slots(cg, m, pairs, k, &empty, replace, room, slow, NULL, NULL);

    LLVMPositionBuilderAtEnd(b, replace);
    store_word(cg, slot, 8, v);
    LLVMBuildBr(b, join);

    /* a new entry if the key is not the mark, the slots stay at most half
     * full ((size + 1) * 2 <= mask + 1, that is 2 * size < mask) and the
     * order array has room */
    LLVMPositionBuilderAtEnd(b, room);
    LLVMValueRef size = header_word(cg, m, 0, cg->t_i64, "map.size");
    LLVMValueRef mask = header_word(cg, m, MOS_MAP_MASK, cg->t_i64, "map.mask");
    LLVMValueRef used = header_word(cg, m, MOS_MAP_USED, cg->t_i64, "map.used");
    LLVMValueRef cap = header_word(cg, m, MOS_MAP_ORDER_CAP, cg->t_i64, "map.order_cap");
    LLVMValueRef one = LLVMConstInt(cg->t_i64, 1, 0);
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntULT, LLVMBuildShl(b, size, one, ""), mask, "");
    fits = LLVMBuildAnd(b, fits, LLVMBuildICmp(b, LLVMIntSLT, used, cap, ""), "");
    fits = LLVMBuildAnd(b, fits, LLVMBuildICmp(b, LLVMIntNE, k, empty, ""), "map.fits");
    LLVMBuildCondBr(b, fits, add, slow);

    LLVMPositionBuilderAtEnd(b, add);
    store_word(cg, slot, 0, k);
    store_word(cg, slot, 8, v);
    LLVMValueRef order = header_word(cg, m, MOS_MAP_ORDER, cg->t_ptr, "map.order");
    LLVMBuildStore(b, k, LLVMBuildInBoundsGEP2(b, cg->t_i64, order, &used, 1, "map.entry"));
    store_word(cg, m, MOS_MAP_USED, LLVMBuildAdd(b, used, one, ""));
    store_word(cg, m, 0, LLVMBuildAdd(b, size, one, ""));
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, slow);
    cg_call_rt(f, CG_RT_mos_map_set, args, 4, "");
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, join);
}

/* m[k] = v; in line for an int or bool key (set_int_key) when `in_line`. */
static void set(CgFn *f, LLVMValueRef m, const Type *t, LLVMValueRef key, LLVMValueRef value,
                Loc loc, bool in_line, bool far)
{
    Cg *cg = f->cg;
    LLVMValueRef args[4] = {m, cg_to_word(cg, key, t->key), cg_to_word(cg, value, t->elem),
                            cg_where(cg, loc)};
    if (in_line && !far && t->key->kind != TY_STRING)
        set_int_key(f, args);
    else
        far_call(f, far, CG_RT_mos_map_set, t, args, 4, "");
}

static LLVMValueRef get(CgFn *f, LLVMValueRef m, const Type *t, LLVMValueRef key, Loc loc,
                        bool far)
{
    Cg *cg = f->cg;
    RtLookup l = {CG_RT_mos_map_get, {m, cg_to_word(cg, key, t->key), cg_where(cg, loc)}, 3};
    return cg_from_word(cg, lookup_word(f, t, &l, true, NULL, far), t->elem, "value");
}

/* m.remove(k) of an int or bool key (args: mos_map_remove's), in line
 * when the in-line probe finds no such key, or finds it and the next slot
 * is empty: then nothing shifts back (map.c's shift_pairs), and the slot
 * is emptied here — {mark, 0}, as map.c empties one — and the size goes
 * down; the key's entry in the order array is left dead, as the runtime
 * leaves it.  Anything else is the runtime's.  Gives the i1 "removed". */
static LLVMValueRef remove_int_key(CgFn *f, LLVMValueRef args[3])
{
    Cg *cg = f->cg;
    LLVMBuilderRef b = cg->b;
    LLVMValueRef m = args[0], k = args[1];
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef probe = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.probe");
    LLVMBasicBlockRef found = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.found");
    LLVMBasicBlockRef absent = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.absent");
    LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.last");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.slow");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, fn, "map.remove.done");

    LLVMValueRef pairs = header_word(cg, m, MOS_MAP_PROBE, cg->t_ptr, "map.pairs");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, pairs, ""), slow, probe);

    LLVMPositionBuilderAtEnd(b, probe);
    LLVMValueRef empty, index, mask;
    LLVMValueRef slot = probe_slots(cg, m, pairs, k, &empty, found, absent, slow, &index, &mask);

    LLVMPositionBuilderAtEnd(b, absent);
    LLVMBuildBr(b, join);

    /* the key: does the run go on past it? */
    LLVMPositionBuilderAtEnd(b, found);
    LLVMValueRef one = LLVMConstInt(cg->t_i64, 1, 0);
    LLVMValueRef next = LLVMBuildShl(b, LLVMBuildAnd(b, LLVMBuildAdd(b, index, one, ""), mask, ""),
                                     LLVMConstInt(cg->t_i64, 4, 0), "");
    LLVMValueRef after = LLVMBuildLoad2(b, cg->t_i64,
                                        LLVMBuildInBoundsGEP2(b, cg->t_i8, pairs, &next, 1, ""),
                                        "map.next_key");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, after, empty, ""), last, slow);

    LLVMPositionBuilderAtEnd(b, last);
    store_word(cg, slot, 0, empty);
    store_word(cg, slot, 8, LLVMConstInt(cg->t_i64, 0, 0));
    LLVMValueRef size = header_word(cg, m, 0, cg->t_i64, "map.size");
    store_word(cg, m, 0, LLVMBuildSub(b, size, one, ""));
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, slow);
    LLVMValueRef r = cg_call_rt(f, CG_RT_mos_map_remove, args, 3, "removed");
    r = LLVMBuildICmp(b, LLVMIntNE, r, LLVMConstInt(cg->t_i32, 0, 0), "");
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, join);

    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef phi = LLVMBuildPhi(b, cg->t_i1, "map.removed");
    LLVMValueRef words[3] = {LLVMConstInt(cg->t_i1, 0, 0), LLVMConstInt(cg->t_i1, 1, 0), r};
    LLVMBasicBlockRef from[3] = {absent, last, slow_end};
    LLVMAddIncoming(phi, words, from, 3);
    return phi;
}

LLVMValueRef cg_new_map(CgFn *f, Expr *e)
{
    LLVMValueRef m = new_map(f, e->type, e->loc);
    if (e->kind == EX_NEW_MAP)
        return m;
    for (size_t i = 0; i < e->u.map_lit.keys.len; i++) {
        LLVMValueRef k = cg_expr(f, e->u.map_lit.keys.items[i]);
        LLVMValueRef v = cg_expr(f, e->u.map_lit.values.items[i]);
        set(f, m, e->type, k, v, e->loc, false, false);  /* the allocation's: here, not counted */
    }
    return m;
}

LLVMValueRef cg_map_index(CgFn *f, Expr *e)
{
    Expr *mx = e->u.index.object;
    LLVMValueRef m = cg_expr(f, mx);
    LLVMValueRef k = cg_expr(f, e->u.index.index);
    cg_debug_loc(f, e->loc);
    touch(f, m, mx, e->loc, e, EFF_READ);
    return get(f, m, mx->type, k, e->loc, cg_may_be_remote(f, e));
}

/* An operand whose evaluation cannot touch any map: a literal or a local. */
static bool inert(const Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_BOOL: case EX_STRING:
        return true;
    case EX_NAME:
        return e->u.name.res == RES_LOCAL;
    default:
        return false;
    }
}

/* Two mentions of one local, or of one field of this, or one int. */
static bool same_operand(const Expr *a, const Expr *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == EX_INT)
        return a->u.int_lit.value == b->u.int_lit.value;
    if (a->kind != EX_NAME || a->u.name.res != b->u.name.res)
        return false;
    return (a->u.name.res == RES_LOCAL && a->u.name.sym == b->u.name.sym) ||
           (a->u.name.res == RES_FIELD && a->u.name.field == b->u.name.field);
}

/* The `m.get(k, d)` of `m[k] = m.get(k, d) op v` when the assignment can
 * update the value's cell in place (see the essay), else NULL. */
static const Expr *counting_get(CgFn *f, const Stmt *s)
{
    const Expr *t = s->u.assign.target, *value = s->u.assign.value;
    const Expr *mx = t->u.index.object, *k = t->u.index.index;
    if (s->u.assign.compound || value->kind != EX_BINARY || !inert(value->u.binary.right))
        return NULL;
    const Expr *call = value->u.binary.left;
    if (call->kind != EX_METHOD_CALL || call->u.method_call.builtin != MM_GET ||
        call->u.method_call.args.len != 2 || !inert(call->u.method_call.args.items[1]))
        return NULL;
    if (!same_operand(call->u.method_call.object, mx) ||
        !same_operand(call->u.method_call.args.items[0], k))
        return NULL;
    return cg_counts(f, mx->type) ? NULL : call;
}

static bool numeric(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_FLOAT;
}

/* m[k] op= v, or m[k] = m.get(k, d) op v (get: the call), through the
 * value's cell: read, compute, write back, with one lookup. */
static void update_cell(CgFn *f, const Stmt *s, const Expr *get_call)
{
    Cg *cg = f->cg;
    Expr *t = s->u.assign.target, *mx = t->u.index.object;
    const Type *mt = mx->type;
    LLVMValueRef m = cg_expr(f, mx);
    LLVMValueRef k = cg_expr(f, t->u.index.index);
    Expr *rhs = get_call ? s->u.assign.value->u.binary.right : s->u.assign.value;
    cg_debug_loc(f, s->loc);
    touch(f, m, mx, t->loc, t, EFF_READ | EFF_WRITE);
    LLVMValueRef cell;
    if (get_call) {
        LLVMValueRef d = cg_expr(f, get_call->u.method_call.args.items[1]);
        cg_debug_loc(f, s->loc);
        LLVMValueRef args[4] = {m, cg_to_word(cg, k, mt->key), cg_to_word(cg, d, mt->elem),
                                cg_where(cg, t->loc)};
        cell = cg_call_rt(f, CG_RT_mos_map_cell_or, args, 4, "cell");
    } else {
        LLVMValueRef args[3] = {m, cg_to_word(cg, k, mt->key), cg_where(cg, t->loc)};
        cell = cg_call_rt(f, CG_RT_mos_map_cell, args, 3, "cell");
    }
    LLVMValueRef old = cg_from_word(cg, LLVMBuildLoad2(cg->b, cg->t_i64, cell, "entry"),
                                    mt->elem, "value");
    LLVMValueRef r = cg_expr(f, rhs);
    cg_debug_loc(f, s->loc);
    BinaryOp op = get_call ? s->u.assign.value->u.binary.op : s->u.assign.op;
    Loc at = get_call ? s->u.assign.value->loc : s->loc;
    LLVMValueRef v = cg_arith(f, op, mt->elem, rhs->type, old, r, at);
    LLVMBuildStore(cg->b, cg_to_word(cg, v, mt->elem), cell);
}

void cg_map_assign(CgFn *f, Stmt *s)
{
    bool far = cg_may_be_remote(f, s->u.assign.target);
    if (!far && numeric(s->u.assign.target->u.index.object->type->elem)) {
        const Expr *get_call = counting_get(f, s);
        if (get_call || (s->u.assign.compound && inert(s->u.assign.value) &&
                         !cg_counts(f, s->u.assign.target->u.index.object->type))) {
            update_cell(f, s, get_call);
            return;
        }
    }
    Expr *t = s->u.assign.target, *mx = t->u.index.object, *value = s->u.assign.value;
    LLVMValueRef m = cg_expr(f, mx);
    LLVMValueRef k = cg_expr(f, t->u.index.index);
    cg_debug_loc(f, s->loc);
    LLVMValueRef v;
    if (s->u.assign.compound) {
        touch(f, m, mx, t->loc, t, EFF_READ | EFF_WRITE);
        LLVMValueRef old = get(f, m, mx->type, k, t->loc, far);
        LLVMValueRef r = cg_expr(f, value);
        cg_debug_loc(f, s->loc);
        v = cg_arith(f, s->u.assign.op, mx->type->elem, value->type, old, r, s->loc);
    } else {
        v = cg_expr(f, value);
        cg_debug_loc(f, s->loc);
        touch(f, m, mx, t->loc, t, EFF_WRITE);
    }
    set(f, m, mx->type, k, v, t->loc, true, far);
}

LLVMValueRef cg_map_size(CgFn *f, Expr *e, LLVMValueRef m)
{
    Expr *mx = e->u.field.object;
    touch(f, m, mx, e->u.field.field.loc, e, EFF_READ);
    /* the first word, as an array's length */
    return cg_length_far(f, cg_may_be_remote(f, e), m, mx->type, e->u.field.field.loc);
}

/* m.name(args) for a map method of builtins.def. */
LLVMValueRef cg_map_method(CgFn *f, Expr *e)
{
    Cg *cg = f->cg;
    Expr *mx = e->u.method_call.object;
    const Type *t = mx->type;
    ExprVec *args = &e->u.method_call.args;
    BuiltinId bi = (BuiltinId)e->u.method_call.builtin;
    LLVMValueRef m = cg_expr(f, mx);
    LLVMValueRef v[4] = {m};
    unsigned n = 1;
    if (args->len > 0)
        v[n++] = cg_to_word(cg, cg_expr(f, args->items[0]), t->key);
    if (args->len > 1)
        v[n++] = cg_to_word(cg, cg_expr(f, args->items[1]), t->elem);
    v[n++] = cg_where(cg, e->loc);
    cg_debug_loc(f, e->loc);
    touch(f, m, mx, e->loc, e, eff_builtin_kinds(tc_builtins[bi].effect));
    bool far = cg_may_be_remote(f, e);
    switch (bi) {
    case MM_GET: {
        RtLookup l = {CG_RT_mos_map_get_or, {v[0], v[1], v[2], v[3]}, n};
        return cg_from_word(cg, lookup_word(f, t, &l, true, v[2], far), t->elem, "value");
    }
    case MM_HAS: {
        LLVMValueRef zero = LLVMConstInt(cg->t_i64, 0, 0);
        RtLookup l = {CG_RT_mos_map_has, {v[0], v[1], v[2]}, n};
        return LLVMBuildICmp(cg->b, LLVMIntNE, lookup_word(f, t, &l, false, zero, far), zero,
                             "has");
    }
    case MM_REMOVE: {
        if (t->key->kind != TY_STRING && !far)
            return remove_int_key(f, v);
        LLVMValueRef r = far_call(f, far, CG_RT_mos_map_remove, t, v, n, "removed");
        return LLVMBuildICmp(cg->b, LLVMIntNE, r, LLVMConstInt(cg->t_i32, 0, 0), "");
    }
    case MM_KEYS:
        return far_call(f, far, CG_RT_mos_map_keys, t, v, n, "keys");
    case MM_VALUES:
        return far_call(f, far, CG_RT_mos_map_values, t, v, n, "values");
    case MM_CLEAR:
        far_call(f, far, CG_RT_mos_map_clear, t, v, n, "");
        return NULL;
    default:
        break;
    }
    INTERNAL_ERROR("codegen: a map method without code of its own");
}
