/* cg_internal.h — what the code generator's files share, and nothing else.
 *
 * The code generator is split by subject: module.c (the Cg context, types,
 * runtime declarations, constants, emission and passes), expr.c
 * (expressions and built-ins), stmt.c (statements and function bodies),
 * class.c (object layout, constructors, field access), actor.c (actors,
 * sends, messages, futures), places.c (places at run time), remote.c
 * (--count-remote), builtins.c (built-in functions), map.c (the hash
 * map), emit.c (target, verification, passes, output), checks.c (runtime
 * checks and panics, the stack check), and for -g debug.c (the compile
 * unit, functions, locations, variables), debug_types.c (DWARF types of
 * Mosaic values) and frames.c (the frames runtime errors report).  This
 * header is the
 * contract between them; codegen.h is the only interface the rest of the
 * compiler sees.
 *
 * Two structures carry all state:
 *   Cg    one per compilation: the LLVM context, module, builders, the
 *         types used everywhere, lazily declared runtime functions, tables
 *         from AST declarations to their LLVM counterparts, interned
 *         constants (string literals, "FILE:LINE:COL" strings).
 *   CgFn  one per function being emitted: its LLVM function, entry block
 *         (allocas only until the body is done, see cg_fn_finish), local
 *         slots, the loop stack for break/continue, the cold blocks that
 *         the finish moves to the end, and whether the body calls user
 *         code (only then does it need a stack check).
 *
 * Value representation (LANGUAGE.md §2, stdlib/mosaic_rt.h): int i64,
 * float double, bool i1 in registers and locals but i8 in memory (fields,
 * array elements), string/class/array/actor/future ptr, unit void (a NULL
 * LLVMValueRef).
 */
#ifndef MOSAIC_CG_INTERNAL_H
#define MOSAIC_CG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "codegen.h"
#include "../typecheck/types.h"
#include "../typecheck/layouts.h"
#include "../typecheck/generics.h"

/* Runtime entry points (stdlib/abi.def), declared on first use. */
typedef enum CgRt {
#define RT_FN(name, result, params) CG_RT_##name,
#include "../stdlib/abi.def"
#undef RT_FN
    CG_RT_COUNT
} CgRt;

/* An open-addressing hash table from a key to an LLVM value or a record.
 * Keys are either pointers (declarations) or byte strings (constants). */
typedef struct CgMapEntry {
    const void *key;        /* pointer key, or the bytes of a string key */
    size_t len;             /* string keys: length; pointer keys: 0 */
    uint64_t hash;
    void *value;
} CgMapEntry;

typedef struct CgMap {
    CgMapEntry *slots;
    size_t cap, len;
} CgMap;

void *cg_map_get_ptr(CgMap *m, const void *key);
void cg_map_put_ptr(CgMap *m, const void *key, void *value);
void *cg_map_get_str(CgMap *m, const char *bytes, size_t len);
void cg_map_put_str(CgMap *m, const char *bytes, size_t len, void *value);

/* A class's LLVM counterparts (class.c). */
typedef struct CgClass {
    LLVMTypeRef type;           /* %class.Name: the fields in order (an
                                   actor's after the runtime's header) */
    uint64_t size;              /* bytes to allocate (header included) */
    bool has_pointers;          /* a string, class, array or future field */
    unsigned field_base;        /* struct index of field 0: 1 for actors */
    unsigned place_base;        /* struct index of the first stored place */
    unsigned nplaces;           /* stored places (places.c): 0, or one per
                                   place parameter */
} CgClass;

/* A function's or method's LLVM counterpart (intrinsics). */
typedef struct CgFunc {
    LLVMValueRef fn;
    LLVMTypeRef type;
} CgFunc;

/* An instance (reach.c): a function, a method or a class's construction,
 * for one shape of each place of its context. */
typedef struct CgInstPlan CgInstPlan;
typedef struct CgInst {
    FuncDecl *func;         /* NULL: the construction of cls */
    ClassDecl *cls;         /* the method's class, the class constructed, or
                               NULL for a top-level function */
    const TcLayout **shapes;/* [nctx]: cls's places, then func's own (its
                               place parameters, then its `pool C` ones);
                               NULL: a node */
    unsigned nclass, nctx;
    bool pooled_this;       /* cls's home is a pool: `this` is a pooled
                               reference, and the pool a hidden argument */
    const char *name;       /* of its LLVM function, mangled with the shapes */
    CgInstPlan *plan;       /* the places it needs at run time */
    LLVMValueRef fn;
    LLVMTypeRef type;
    LLVMValueRef msg_run;   /* its message's run function, once sent */
    bool self_recursive;    /* its body calls itself directly (reach.c) */
    LLVMValueRef rec_fn;    /* with tail calls on, a self-recursive instance's
                               body: fn's parameters and the virtual frame
                               (checks.c); fn then only calls it */
    LLVMTypeRef rec_type;
} CgInst;
typedef VEC(CgInst *) CgInstList;

/* A `get`: its where string and the function it is in (mos_wait_sites). */
typedef struct CgWaitSite {
    LLVMValueRef where;
    const char *function;   /* "main", "f", "Class.method" */
} CgWaitSite;

/* --distributed: how a run function's message travels (mos_message_table):
 * the kind of each slot and of the result, as transport_mpi.c reads them. */
typedef struct CgMessageKind {
    LLVMValueRef run;
    const char *kinds;      /* "isr>s": a letter per slot, '>', the result's */
} CgMessageKind;

/* One instrumented access of --count-remote (remote.c): a MosRemoteSite. */
typedef struct CgRemoteSite {
    int64_t line;
    int64_t predicted;
} CgRemoteSite;

typedef struct Cg {
    Program *program;
    const CgOptions *opt;

    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;           /* instructions */
    LLVMBuilderRef alloca_b;    /* allocas at the end of the entry block */
    LLVMTargetMachineRef tm;
    LLVMTargetDataRef td;

    LLVMTypeRef t_i1, t_i8, t_i32, t_i64, t_f64, t_ptr, t_void;

    LLVMValueRef rt[CG_RT_COUNT];
    LLVMTypeRef rt_type[CG_RT_COUNT];
    LLVMValueRef stack_limit;   /* @mos_stack_limit, thread-local */
    LLVMValueRef here_node;     /* @mos_here_node, thread-local (remote.c) */
    LLVMValueRef empty_string;  /* "" */
    LLVMValueRef panic_bounds;  /* mos.panic.bounds(where, index, length) */
    LLVMTypeRef panic_bounds_type;

    CgMap classes;              /* ClassDecl * -> CgClass * */
    CgMap insts;                /* FuncDecl * or ClassDecl * -> CgInstList * */
    VEC(CgInst *) inst_order;   /* every instance, in the order found */
    bool reach_done;            /* no instance may be added any more */
    CgMap pools;                /* PoolDecl * -> its global or slot */
    CgMap strings;              /* literal bytes -> global */
    CgMap cstrings;             /* C string ("FILE:LINE:COL", messages) -> global */
    CgMap intrinsics;           /* intrinsic name -> CgFunc * */
    VEC(CgInst *) pending_runs; /* run functions declared, body not yet */
    VEC(CgRemoteSite) remote_sites; /* --count-remote: mos_remote_table */
    VEC(CgWaitSite) wait_sites;     /* every get: mos_wait_sites */
    VEC(CgMessageKind) message_kinds;   /* --distributed: mos_message_table */

    /* type-based alias analysis: one scalar type per kind of memory cell
     * (see expr.c); access tags, created on first use */
    LLVMMetadataRef tbaa_root;
    LLVMValueRef tbaa[6];
    CgMap tbaa_fields;          /* FieldDecl * -> its access tag */

    unsigned attr_nounwind, attr_noreturn, attr_cold, attr_noinline,
        attr_noalias, attr_nonnull, attr_alwaysinline;

    /* -g (debug.c, debug_types.c, frames.c); all NULL without it */
    LLVMDIBuilderRef dib;
    LLVMMetadataRef di_file, di_cu, di_fn_type;
    LLVMMetadataRef di_int, di_float, di_bool, di_char, di_word, di_addr;
    CgMap di_classes;           /* ClassDecl * -> its DWARF struct */
    LLVMValueRef frame_top;     /* @mos_frame_top, thread-local */
    LLVMTypeRef frame_type;     /* MosFrame */
} Cg;

typedef struct CgLoop {
    LLVMBasicBlockRef break_to, continue_to;
} CgLoop;

typedef struct CgFn {
    Cg *cg;
    LLVMValueRef fn;
    FuncDecl *decl;             /* NULL for constructors and helpers */
    LLVMBasicBlockRef entry;    /* allocas; stack check added at the end */
    LLVMBasicBlockRef body;     /* first block of the body */
    LLVMValueRef this_val;      /* methods and constructors, else NULL */
    ClassDecl *cls;             /* the class of this_val */
    CgInst *inst;               /* the instance being emitted (NULL in
                                   helpers without places) */
    LLVMValueRef home;          /* a pooled this's pool (an i64) */
    LLVMValueRef *place_args;   /* the values of decl's own places */
    LLVMValueRef *slots;        /* Sym.slot -> alloca, created on first use */
    int nslots;
    VEC(CgLoop) loops;
    VEC(LLVMBasicBlockRef) cold;/* panic blocks, moved to the end */
    bool calls_user;            /* calls a user function: needs a stack check */
    bool no_stack_check;        /* a rec_fn's inlined copy: its caller checks */
    bool waits;                 /* has a `get` (its turn may be suspended) */
    LLVMValueRef vframe;        /* in a rec_fn: its virtual frame, an i64 */
    Loc loc;                    /* where "stack overflow" is reported */
    /* -g only */
    LLVMMetadataRef di_scope;   /* the DISubprogram */
    CgMap di_names;             /* names of the variables described so far */
    LLVMValueRef this_slot;     /* the cell `this` is described in */
    LLVMValueRef frame;         /* its MosFrame, if it has one (frames.c), */
    LLVMValueRef frame_function;/* and the MosFunction naming it */
    LLVMBasicBlockRef line_block;   /* where frame's line was last set, */
    unsigned line;                  /* and to what */
} CgFn;

/* A field, element or length to be read or written (access.c). */
typedef enum CgAccessKind {
    CG_ACC_FIELD,       /* a field of an object */
    CG_ACC_ELEM,        /* an element of an array */
    CG_ACC_LENGTH,      /* an array's length */
} CgAccessKind;

typedef struct CgAccess {
    CgAccessKind kind;
    const Type *owner;      /* the object's or array's type */
    LLVMValueRef base;      /* the object or array */
    FieldDecl *field;       /* CG_ACC_FIELD */
    LLVMValueRef index;     /* CG_ACC_ELEM */
    const Type *type;       /* the type of what is accessed */
    Loc loc;                /* where a failed check is reported */
    const void *site;       /* the effect pass's key (effects.h), or NULL
                               for what is not an access of the program
                               (an allocation's own initial stores) */
    bool null_known;        /* base cannot be null */
    bool in_bounds;         /* index is known to be in bounds */
    bool checked;           /* the checks are done */
    LLVMValueRef addr;      /* computed on first use */
    LLVMValueRef remote_node;   /* --count-remote: where base lives */
} CgAccess;

/* The runtime's int64 encoding of a value of type t (int as is, float's
 * bits, bool 0/1, references' addresses, unit 0), and back: message
 * results, futures, remote loads and stores. */
LLVMValueRef cg_value_to_word(CgFn *f, LLVMValueRef v, const Type *t);
LLVMValueRef cg_word_to_value(CgFn *f, LLVMValueRef bits, const Type *t);

/* --distributed (access.c): whether the access, allocation or call at
 * effect site `site` (NULL: unknown) may involve another node's object;
 * the test of a reference's remote bit; the node a remote reference
 * names; the letter that says how a value of type t travels ('i' a word,
 * 'b' a byte, 's' a string, 'r' a reference, 'p' a pool, 'u' nothing). */
bool cg_may_be_remote(CgFn *f, const void *site);
/* Whether every object must know its places and every allocation its
 * node: --count-remote counts by them, --distributed allocates there. */
static inline bool cg_knows_places(const Cg *cg)
{
    return cg->opt->count_remote || cg->opt->distributed;
}
LLVMValueRef cg_is_remote_ref(CgFn *f, LLVMValueRef ptr);
/* The two paths of code that may meet a remote reference `ref` (a
 * pointer, or a pool's i64 place value): cg_far_begin branches on its bit
 * and leaves the builder in the local path; cg_far_else ends the local
 * path with its value (or NULL) and moves to the remote one; cg_far_end
 * ends that with its value and joins them (a phi, unless NULL). */
typedef struct CgFar {
    LLVMBasicBlockRef remote, join, here_end;
    LLVMValueRef here;
} CgFar;
void cg_far_begin(CgFn *f, LLVMValueRef ref, CgFar *far);
void cg_far_else(CgFn *f, CgFar *far, LLVMValueRef here);
LLVMValueRef cg_far_end(CgFn *f, CgFar *far, LLVMValueRef there, const char *name);
/* Ends the local path of a pool word with `here` and reads word `which`
 * of mos_pool_word on the remote path (pool.c). */
LLVMValueRef cg_far_pool_word(CgFn *f, LLVMValueRef pool, CgFar *far, LLVMValueRef here,
                              int which, const char *name);
/* --distributed: mos_global_pools, the top-level pools' globals (pool.c). */
void cg_emit_global_pool_table(Cg *cg);
/* The node of place `at` at run time: a pool's node for a pool. */
LLVMValueRef cg_node_of_place(CgFn *f, Place *at);
LLVMValueRef cg_remote_ref_node(CgFn *f, LLVMValueRef ref);
char cg_travel_kind(const Type *t);
/* The same for a value passed as a whole word (a message slot, a
 * runtime call's argument or result): a bool travels as 'i'. */
char cg_word_kind(const Type *t);
/* A call of runtime function fn whose first argument is an array or map
 * and whose last is `where`: when `far` (the site may be remote), the
 * call is made on the node of a remote first argument (mos_remote_call),
 * `kinds` saying how each argument and the result travel ("rsw>s"). */
LLVMValueRef cg_call_rt_far(CgFn *f, bool far, CgRt fn, LLVMValueRef *args, unsigned nargs,
                            const char *kinds, const char *name);
/* An array's (or map's) length now, read through its node when `far`. */
LLVMValueRef cg_length_far(CgFn *f, bool far, LLVMValueRef arr, const Type *t, Loc loc);

/* ---- emit.c ------------------------------------------------------------ */

bool cg_make_target(Cg *cg);
bool cg_verify(Cg *cg);
bool cg_optimise(Cg *cg);
bool cg_write_output(Cg *cg, CgOutput output, const char *out_path);

/* ---- module.c ---------------------------------------------------------- */

/* A constant table `name` of n pairs of pointers (pairs[2i], pairs[2i+1]),
 * ended by a pair of NULLs: the runtime's tables of the program. */
void cg_emit_pair_table(Cg *cg, const char *name, LLVMValueRef *pairs, size_t n);

/* The LLVM type of a value of type t in a register or local (bool i1). */
LLVMTypeRef cg_type(Cg *cg, const Type *t);
/* The LLVM type of t in memory: fields and array elements (bool i8). */
LLVMTypeRef cg_mem_type(Cg *cg, const Type *t);
/* Is t represented by a pointer (string, class, array, future, null)? */
bool cg_is_pointer(const Type *t);

/* Calls runtime entry point `fn` with `args` (already of the ABI types). */
LLVMValueRef cg_call_rt(CgFn *f, CgRt fn, LLVMValueRef *args, unsigned nargs,
                        const char *name);
/* The declaration of an overloaded intrinsic, e.g. ("llvm.sqrt", f64). */
CgFunc *cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef overload);
/* A call; `name` is ignored for void results.  With tail calls on, it
 * is marked notail (checks.c). */
LLVMValueRef cg_call(CgFn *f, LLVMTypeRef fn_type, LLVMValueRef fn,
                     LLVMValueRef *args, unsigned nargs, const char *name);
/* Marks `call` notail when tail calls are on (checks.c). */
void cg_set_notail(Cg *cg, LLVMValueRef call);
/* A call of in's rec_fn from its own body (args end with the virtual
 * frame), the one call that may become a jump. */
LLVMValueRef cg_call_self(CgFn *f, CgInst *in, LLVMValueRef *args, unsigned nargs,
                          const char *name);

/* A pointer to the constant MosString holding bytes[0..len). */
LLVMValueRef cg_string_literal(Cg *cg, const char *bytes, size_t len);
/* A pointer to a private constant C string (NUL-terminated). */
LLVMValueRef cg_cstring(Cg *cg, const char *text, const char *name);
/* "PATH:LINE:COL" of the start of loc, as a constant C string. */
LLVMValueRef cg_where(Cg *cg, Loc loc);

void cg_add_fn_attr(Cg *cg, LLVMValueRef fn, unsigned kind);
/* nounwind (and no tail calls, when cg_tail_calls is false): for every
 * function defined by the program. */
void cg_add_defined_fn_attrs(Cg *cg, LLVMValueRef fn);
/* Whether calls in tail position may become jumps (checks.c says how the
 * stack check still catches unbounded recursion): not with -g, and not
 * before LLVM 18. */
bool cg_tail_calls(const Cg *cg);


/* ---- reach.c ----------------------------------------------------------- */

/* Finds every instance and the places each needs (before anything is
 * declared). */
void cg_reach(Cg *cg);
/* The instance of func (or of cls's construction, func NULL) for these
 * shapes: one per place of its context. */
CgInst *cg_inst(Cg *cg, FuncDecl *func, ClassDecl *cls, const TcLayout **shapes);
/* The instance a caller's call of callee (a method of cls, a function, or
 * cls's construction) with substitution s reaches. */
CgInst *cg_callee_inst(Cg *cg, const CgInst *caller, FuncDecl *callee, ClassDecl *cls,
                       const Subst *s);
/* Position of p among in's context places, or -1. */
int cg_ctx_index(const CgInst *in, const Place *p);
/* The shape (pool layout) of p in in, or NULL for a node. */
const TcLayout *cg_shape_of(const CgInst *in, const Place *p);
bool cg_stores_places(Cg *cg, ClassDecl *cls);
/* Must callers pass in's context place ctx_index (one of its own)? */
bool cg_needs_place_arg(const CgInst *in, int ctx_index);

/* ---- places.c ---------------------------------------------------------- */

/* The value (an i64: a node, or a pool's address) that place p, a term of
 * the current code, stands for. */
LLVMValueRef cg_place_value(CgFn *f, Place *p);
/* mos_node_id(): the current code's `here`. */
LLVMValueRef cg_here_value(CgFn *f);
/* The hidden place arguments of a call of callee with substitution s
 * (one per place of callee's own). */
void cg_place_args(CgFn *f, const CgInst *callee, const Subst *s, LLVMValueRef *out);
/* Word i of a pool's places (its class's place values). */
LLVMValueRef cg_pool_places_word(CgFn *f, LLVMValueRef pool, int i);
/* The value of a declared pool (its global, or its slot). */
LLVMValueRef cg_pool_value(CgFn *f, PoolDecl *pd);

/* ---- remote.c ---------------------------------------------------------- */

/* Are accesses to a value of type t counted (--count-remote, a passive
 * object, an array or a map)? */
bool cg_counts(CgFn *f, const Type *t);
/* The node the object or array ptr (of type t) lives on. */
LLVMValueRef cg_remote_node(CgFn *f, LLVMValueRef ptr, const Type *t);
/* Counts an access (EFF_READ and/or EFF_WRITE bits) to something on
 * `node`, recorded as the site of ast_node (effects.h's key). */
void cg_count_access(CgFn *f, const void *ast_node, Loc loc, LLVMValueRef node,
                     unsigned kinds);
/* A call of an array's or a map's method (`call`, its receiver obj, the
 * value of objx): one access of `kinds` when counted, after a null check
 * (the node is read from the receiver). */
void cg_count_method(CgFn *f, const Expr *call, LLVMValueRef obj, const Expr *objx,
                     unsigned kinds);
/* Defines mos_remote_table (after every body). */
void cg_emit_remote_table(Cg *cg);

/* ---- maps.c ------------------------------------------------------------ */

/* new Map<K, V> and {k: v, ...} */
LLVMValueRef cg_new_map(CgFn *f, Expr *e);
/* m[k] */
LLVMValueRef cg_map_index(CgFn *f, Expr *e);
/* m[k] = v, m[k] op= v */
void cg_map_assign(CgFn *f, Stmt *s);
/* m.size of the map m (e is the EX_FIELD) */
LLVMValueRef cg_map_size(CgFn *f, Expr *e, LLVMValueRef m);
/* m.name(args) */
LLVMValueRef cg_map_method(CgFn *f, Expr *e);

/* ---- pool.c ------------------------------------------------------------ */

/* The globals of the top-level pools (before any body), then the code
 * that makes them, in source order, at the start of the program. */
void cg_declare_global_pools(Cg *cg);
void cg_create_global_pools(CgFn *f);
/* A new object in pool (a pool's value): its reference. */
LLVMValueRef cg_pool_alloc(CgFn *f, LLVMValueRef pool, Loc loc);
/* A `pool` statement: its pools made, in a slot each. */
void cg_emit_pool_stmt(CgFn *f, Stmt *s);
/* The number of objects of pool, and its node. */
LLVMValueRef cg_pool_size(CgFn *f, LLVMValueRef pool);
LLVMValueRef cg_pool_node(CgFn *f, LLVMValueRef pool);
/* The address of field fd of the object ref of a pool with layout l. */
LLVMValueRef cg_pooled_field_addr(CgFn *f, LLVMValueRef pool, const TcLayout *l,
                                  LLVMValueRef ref, FieldDecl *fd);
/* P[idx]: checked against the size, the reference. */
LLVMValueRef cg_pool_index(CgFn *f, LLVMValueRef pool, LLVMValueRef idx, Loc loc);

/* ---- stmt.c ------------------------------------------------------------ */

/* Starts emitting into `fn`: entry and body blocks, debug scope. */
void cg_fn_begin(CgFn *f, Cg *cg, LLVMValueRef fn, FuncDecl *decl, Loc loc,
                 const char *debug_name);
/* Ends the function: default return, stack check, cold blocks last. */
void cg_fn_finish(CgFn *f, const Type *result);
/* A cell of `type` in the function's entry block (stmt.c). */
LLVMValueRef cg_entry_alloca(CgFn *f, LLVMTypeRef type, const char *name);
/* confine.c: true when the body of `for x in …` only reads x and drops
 * it, so that x may be a header reused from one turn to the next. */
bool cg_loop_var_confined(const Stmt *for_in);
/* The alloca of a local, created in the entry block on first use. */
LLVMValueRef cg_slot(CgFn *f, Sym *sym);
/* Emits the body of a function's or method's instance. */
void cg_emit_function(Cg *cg, CgInst *in);
/* Has the current block already ended (return, break, continue)? */
bool cg_terminated(CgFn *f);

/* ---- expr.c ------------------------------------------------------------ */

/* The value of e (NULL when e is of type unit). */
LLVMValueRef cg_expr(CgFn *f, Expr *e);
/* The i1 value of a bool expression. */
LLVMValueRef cg_cond(CgFn *f, Expr *e);
/* Arithmetic and bitwise operators on values already computed (used by
 * compound assignment too); `type` is the left operand's type, `loc` the
 * place a division by zero is reported at. */
LLVMValueRef cg_arith(CgFn *f, BinaryOp op, const Type *type, const Type *rtype,
                      LLVMValueRef l, LLVMValueRef r, Loc loc);
/* Marks a load as reading memory that never changes once reachable. */
void cg_mark_invariant(Cg *cg, LLVMValueRef load);
/* Is e a number or bool written as a literal (its value known now)? */
bool cg_literal_number(const Expr *e);
/* Can the compiler see that e is never null (this, new, literals)? */
bool cg_known_nonnull(const Expr *e);
/* Loads/stores a value of type t at addr, in memory representation (bool
 * as i8) when `in_memory`, else as a register value (locals). */
LLVMValueRef cg_load(CgFn *f, LLVMValueRef addr, const Type *t, bool in_memory,
                     const char *name);
void cg_store(CgFn *f, LLVMValueRef value, LLVMValueRef addr, const Type *t,
              bool in_memory);
/* The default value of t (0, 0.0, false, "", null). */
LLVMValueRef cg_default_value(Cg *cg, const Type *t);
/* Marks a load or store with the TBAA tag of a memory cell of type t
 * (length: an array's or string's length word). */
void cg_tbaa(Cg *cg, LLVMValueRef inst, const Type *t, bool length);
/* An array's data pointer: its own kind, so element stores never alias it. */
void cg_tbaa_data(Cg *cg, LLVMValueRef inst);
/* The same for an access to field fd: it aliases no other field. */
void cg_tbaa_field(Cg *cg, LLVMValueRef inst, const FieldDecl *fd);

/* ---- builtins.c -------------------------------------------------------- */

/* A call of a built-in function (RES_BUILTIN, RES_CONVERT). */
LLVMValueRef cg_builtin(CgFn *f, Expr *e);
LLVMValueRef cg_builtin_method(CgFn *f, Expr *e);
/* mos_array_new's elem_kind for an element type (MOS_ELEM_*). */
/* A value to and from the 64-bit word the runtime's arrays and maps pass
 * elements, keys and values as. */
LLVMValueRef cg_to_word(Cg *cg, LLVMValueRef v, const Type *t);
LLVMValueRef cg_from_word(Cg *cg, LLVMValueRef w, const Type *t, const char *name);
int cg_elem_kind(const Type *elem);
/* v (of type t: int, float, bool or string) as a string, as `+` makes it. */
LLVMValueRef cg_to_string(CgFn *f, LLVMValueRef v, const Type *t);

/* ---- access.c ---------------------------------------------------------- */

CgAccess cg_field_access(LLVMValueRef obj, const Type *obj_type, FieldDecl *fd, Loc loc,
                         const void *site, bool known_nonnull);
CgAccess cg_elem_access(LLVMValueRef arr, const Type *arr_type, LLVMValueRef idx, Loc loc,
                        const void *site, bool known_nonnull, bool in_bounds);
CgAccess cg_length_access(LLVMValueRef arr, const Type *arr_type, Loc loc, const void *site,
                          bool known_nonnull);
/* Emits the access's checks now (they are otherwise made by the first
 * load or store). */
void cg_access_check(CgFn *f, CgAccess *a);
void cg_access_recheck(CgAccess *a);
LLVMValueRef cg_access_load(CgFn *f, CgAccess *a, const char *name);
void cg_access_store(CgFn *f, CgAccess *a, LLVMValueRef value);
/* The length word of an array or string (no checks). */
LLVMValueRef cg_string_length(CgFn *f, LLVMValueRef s);
/* An array's length and its element storage as they are now: both change
 * when the array grows or shrinks (LANGUAGE.md §9). */
LLVMValueRef cg_array_length(CgFn *f, LLVMValueRef arr);
LLVMValueRef cg_array_data(CgFn *f, LLVMValueRef arr);
/* Address of field fd in object obj (no check). */
LLVMValueRef cg_field_addr(CgFn *f, LLVMValueRef obj, FieldDecl *fd);

/* ---- class.c ----------------------------------------------------------- */

/* Creates the struct types of every class (before anything else). */
void cg_declare_classes(Cg *cg);
/* Declares the constructor of a construction instance (after the struct
 * types): mos.new.C(its places or its pool, init's parameters). */
void cg_declare_constructor(Cg *cg, CgInst *in);
/* Emits the constructor of a construction instance. */
void cg_emit_constructor(Cg *cg, CgInst *in);
CgClass *cg_class(Cg *cg, ClassDecl *cls);
/* Byte offset of field fd in an object of its class (not pooled). */
uint64_t cg_field_offset(Cg *cg, FieldDecl *fd);
/* The stored place i of obj (an object of cls, which stores places). */
LLVMValueRef cg_load_place_field(CgFn *f, LLVMValueRef obj, ClassDecl *cls, int i);
/* Stores the values of all of cls's places into obj. */
void cg_store_place_fields(CgFn *f, LLVMValueRef obj, ClassDecl *cls, LLVMValueRef *values);
/* Stores "" into the string fields of f->this_val, then runs the field
 * initialisers in declaration order (constructors of objects and actors). */
void cg_init_fields(CgFn *f, ClassDecl *cls);

/* ---- actor.c ----------------------------------------------------------- */

/* Emits mos.new.A for an active class's construction instance (and its
 * constructor message). */
void cg_emit_actor_new(Cg *cg, CgInst *in);
/* a!m(args); without want_future (an expression statement) the value is
 * a null pointer and the runtime makes no future. */
LLVMValueRef cg_send(CgFn *f, Expr *e, bool want_future);
/* get e */
LLVMValueRef cg_get(CgFn *f, Expr *e);
/* Emits the bodies of the message run functions the sends declared. */
void cg_emit_message_runs(Cg *cg);
/* mos_wait_sites: every get of the module, with the function it is in,
 * for the runtime's deadlock report (mosaic_rt.h). */
void cg_emit_wait_sites(Cg *cg);
/* --distributed: mos_message_table, how each message's slots travel
 * between nodes (actor.c). */
void cg_emit_message_table(Cg *cg);

/* ---- checks.c ---------------------------------------------------------- */

/* Branches to a cold block that reports `message` at `loc` when `fail`. */
void cg_check(CgFn *f, LLVMValueRef fail, Loc loc, const char *message);
/* Null check of a receiver, array or object, unless --no-checks. */
void cg_null_check(CgFn *f, LLVMValueRef ptr, Loc loc, const char *message);
/* idx < len (unsigned, so negatives fail), unless --no-checks. */
void cg_bounds_check(CgFn *f, LLVMValueRef idx, LLVMValueRef len, Loc loc);
/* Divisor zero check, always. */
void cg_div_check(CgFn *f, LLVMValueRef divisor, Loc loc);
/* The stack check at the end of the entry block: branches to f->body, or
 * to a panic when the frame is below mos_stack_limit. */
void cg_stack_check(CgFn *f);
/* The stack a self call jumped to by LLVM is taken to use (checks.c). */
#define CG_TAIL_FRAME_BYTES 32
/* The frame address as an i64, or in a rec_fn the lower of it and the
 * virtual frame (checks.c explains). */
LLVMValueRef cg_frame_low(CgFn *f);
/* The virtual frame a rec_fn passes to its self calls. */
LLVMValueRef cg_next_vframe(CgFn *f);
/* Defines mos.panic.bounds (once per module). */
void cg_define_panic_bounds(Cg *cg);

/* ---- debug.c ----------------------------------------------------------- */

/* Every function here is a no-op without -g. */
void cg_debug_init(Cg *cg);
void cg_debug_finish(Cg *cg);
/* Attaches a DISubprogram to f->fn. */
void cg_debug_function(CgFn *f, const char *name, Loc loc);
/* Sets the location of the next instructions (and the line of f's frame). */
void cg_debug_loc(CgFn *f, Loc loc);
/* The next instructions are the prologue: no location, so that a
 * debugger stops after them, at the first line of the body. */
void cg_debug_prologue(CgFn *f);
/* Describes local variable sym stored at slot; arg_no > 0 for the
 * arg_no-th parameter (`this` is the first of a method). */
void cg_debug_variable(CgFn *f, Sym *sym, LLVMValueRef slot, int arg_no);
/* Describes `this` (f->this_val, in the prologue), and at the function's
 * end the fields of this as variables too, unless a local or parameter
 * has the same name. */
void cg_debug_this(CgFn *f);
void cg_debug_fields(CgFn *f);

/* ---- debug_types.c ----------------------------------------------------- */

/* The DWARF type of a value of type t in instance `in` (NULL: outside
 * any, as for a class's fields), shaped as the code generator lays it out. */
LLVMMetadataRef cg_debug_type(Cg *cg, const CgInst *in, const Type *t);
/* The DWARF struct of class cls's objects (not pooled). */
LLVMMetadataRef cg_debug_class(Cg *cg, ClassDecl *cls);

/* ---- frames.c ---------------------------------------------------------- */

/* Under -g: f gets a frame on the chain a runtime error prints, named
 * `name` ("add", "Counter.incr", "new Counter"); pushed when the function
 * is entered (cg_fn_finish places the code), popped before each return. */
void cg_frame_begin(CgFn *f, const char *name);
void cg_frame_push(CgFn *f);
void cg_frame_pop(CgFn *f);
/* Records that f's code is now at `line` (cg_debug_loc calls it). */
void cg_frame_line(CgFn *f, unsigned line);

#endif
