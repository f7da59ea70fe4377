/* mosaic_rt.h — the runtime library's ABI, as generated code sees it.
 *
 * Generated code calls only the functions listed in abi.def; this header
 * gives their C prototypes and the memory layout of the values they share
 * with generated code.  Everything else in stdlib/ is internal (`rt_`).
 *
 * Values:
 *   int    int64_t          float  double         bool  i8 in memory (0/1)
 *   string MosString *      never NULL; immutable; `length` bytes at
 *                           `bytes` (see MosString)
 *   [T]    MosArray *       NULL is null; `length` elements at `data`, each
 *                           elem_size bytes (8 for everything but bool: 1)
 *   object pointer to a GC block of the class's fields in declaration
 *          order (codegen decides the struct); NULL is null
 *
 * Program start: the runtime's main() initialises Boehm GC, builds the
 * argument array, and calls the compiled program's
 *     int64_t mos_program_main(MosArray *args)
 * on a thread with a large stack; its result is the exit status.  Every
 * compiled function compares the stack pointer with the thread-local
 * mos_stack_limit on entry and reports "stack overflow" below it.
 */
#ifndef MOSAIC_RT_H
#define MOSAIC_RT_H

#include <stdint.h>

/* A string: its length (generated code reads it, at offset 0, for
 * `.length`), where its bytes are, and the growable buffer they are the
 * beginning of, if any (string.c: how `s += x` stays linear).  Without a
 * buffer the bytes are followed by a NUL; in a buffer, only the string
 * built last is. */
typedef struct MosStringBuffer MosStringBuffer;

typedef struct MosString {
    int64_t length;
    char *bytes;
    MosStringBuffer *buffer;
} MosString;

/* An array (LANGUAGE.md §9: every array can grow).  Generated code reads
 * `length` at offset 0 and `data` at offset 8; only the runtime changes
 * them (array.c).  `data` first points just past the header, in the same
 * block; growing replaces it with a block of its own, `capacity` elements
 * long.  The element storage is never freed while anything points to it,
 * so an address computed before a growth stays valid (if stale). */
typedef struct MosArray {
    int64_t length;
    char *data;             /* aligned to 8 */
    int64_t capacity;       /* elements that fit at `data` */
    int32_t elem_size;      /* 8, or 1 for bool */
    int32_t elem_kind;      /* MOS_ELEM_* */
} MosArray;

/* elem_kind for mos_array_new */
enum {
    MOS_ELEM_PLAIN = 0,     /* numbers and bools: zeroed, no pointers */
    MOS_ELEM_REF = 1,       /* objects, arrays, futures: NULL */
    MOS_ELEM_STRING = 2,    /* strings: "" */
};

/* A map (LANGUAGE.md §9, map.c): generated code reads its size at offset 0
 * and, under --count-remote, its node at offset 8; the rest is the
 * runtime's.  Keys and values cross the ABI as 64-bit words, like array
 * elements; key_kind says how keys hash and compare. */
typedef struct MosMap MosMap;

enum {
    MOS_KEY_INT = 0,
    MOS_KEY_BOOL = 1,
    MOS_KEY_STRING = 2,
};

/* One operand of a chain of string `+` (mos_string_concat_n): a string,
 * or an int still to be formatted. */
typedef struct MosPart {
    int64_t is_int;
    int64_t word;           /* the int, or the MosString * */
} MosPart;

/* Provided by the compiled program. */
int64_t mos_program_main(MosArray *args);

/* Lowest address the current thread's stack may grow to before the
 * program reports a stack overflow (leaves room to report it). */
extern __thread char *mos_stack_limit;

_Noreturn void mos_panic(const char *where, const char *message);
void *mos_alloc(int64_t bytes);
void *mos_alloc_atomic(int64_t bytes);
/* As mos_alloc_atomic, without the zeroing: for a caller that writes every
 * byte itself (a constructor, whose zeroing LLVM then sees and drops
 * where the fields' initial values overwrite it). */
void *mos_alloc_atomic_raw(int64_t bytes);
MosArray *mos_array_new(int64_t length, int64_t elem_size, int32_t elem_kind, const char *where);
MosString *mos_string_concat(MosString *a, MosString *b);
MosString *mos_string_concat_n(const MosPart *parts, int64_t n);
MosString *mos_string_from_int(int64_t v);
MosString *mos_string_from_float(double v);
MosString *mos_string_from_bool(int32_t v);
int32_t mos_string_eq(MosString *a, MosString *b);
int64_t mos_string_cmp(MosString *a, MosString *b);
void mos_print_int(int64_t v, int32_t newline);
void mos_print_float(double v, int32_t newline);
void mos_print_bool(int32_t v, int32_t newline);
void mos_print_string(MosString *s, int32_t newline);
void mos_print_newline(void);
int64_t mos_parse_int(MosString *s, const char *where);
/* LANGUAGE.md §8 (text.c): string methods take the receiver first. */
MosString *mos_string_slice(MosString *s, int64_t a, int64_t b, const char *where);
int64_t mos_string_find(MosString *s, MosString *t);
int32_t mos_string_contains(MosString *s, MosString *t);
int32_t mos_string_starts_with(MosString *s, MosString *t);
int32_t mos_string_ends_with(MosString *s, MosString *t);
MosArray *mos_string_split(MosString *s, MosString *sep, const char *where);
/* `for w in s.split(sep)` where w never outlives its turn of the loop
 * (codegen/stmt.c decides): the pieces one at a time, each in the same
 * header and scratch bytes, so the loop allocates nothing per piece.  The
 * iterator lives in the loop's stack frame; generated code knows only
 * its size. */
typedef struct MosSplitIter {
    MosString piece;        /* what the loop variable points to */
    MosString *s, *sep;
    int64_t start;          /* where the next piece starts; -1: no more */
    char *scratch;          /* the piece's bytes and a NUL: small, or a GC block */
    int64_t scratch_cap;
    char small[64];
} MosSplitIter;
#define MOS_SPLIT_ITER_SIZE 128
void mos_split_begin(MosSplitIter *it, MosString *s, MosString *sep, const char *where);
MosString *mos_split_next(MosSplitIter *it, const char *where);    /* NULL: done */
MosString *mos_string_trim(MosString *s);
MosString *mos_string_to_upper(MosString *s);
MosString *mos_string_to_lower(MosString *s);
MosString *mos_string_join(MosArray *xs, MosString *sep, const char *where);
MosString *mos_char(int64_t i, const char *where);
double mos_parse_float(MosString *s, const char *where);
/* array.c: the array methods that keep the length (LANGUAGE.md §9) */
MosArray *mos_array_slice(MosArray *xs, int64_t a, int64_t b, const char *where);
void mos_array_reverse(MosArray *xs, const char *where);
/* array.c: the methods that change the length.  An element crosses the
 * ABI as a 64-bit word: an int, a float's bits, a bool's 0/1, a pointer. */
void mos_array_push(MosArray *xs, int64_t value, const char *where);
int64_t mos_array_pop(MosArray *xs, const char *where);
void mos_array_insert(MosArray *xs, int64_t index, int64_t value, const char *where);
int64_t mos_array_remove(MosArray *xs, int64_t index, const char *where);
void mos_array_clear(MosArray *xs, const char *where);

/* map.c */
MosMap *mos_map_new(int32_t key_kind, int32_t value_kind, int32_t value_size, int64_t node,
                    const char *where);
int64_t mos_map_get(MosMap *m, int64_t key, const char *where);
int64_t mos_map_get_or(MosMap *m, int64_t key, int64_t otherwise, const char *where);
int32_t mos_map_has(MosMap *m, int64_t key, const char *where);
void mos_map_set(MosMap *m, int64_t key, int64_t value, const char *where);
/* An int- or bool-keyed map's first probe is made in line by generated
 * code (codegen/maps.c), which reads these words of the header (offsets in
 * bytes): the slots it may probe (16 bytes each, the key then the value;
 * NULL before the first entry and once the map hashes its keys with
 * SipHash, when every lookup is the runtime's), the key that marks an
 * empty slot, and 64 - log2 of the slot count, by which the keys' hash
 * (of mos_map_secret) is shifted to give the first slot, and the mask of
 * the slot count.  A lookup that meets another key there calls the
 * runtime, which probes on. */
#define MOS_MAP_PROBE 16
#define MOS_MAP_EMPTY 24
#define MOS_MAP_SHIFT 32
#define MOS_MAP_MASK 40
/* `m[k] = v` of an int or bool key also inserts in line when the slot is
 * empty and neither the slots nor the order array must grow: the key and
 * value go in the slot, the key at the end of the order array (its keys,
 * `used` of `order_cap` written), and `used` and the size go up by one. */
#define MOS_MAP_ORDER 48
#define MOS_MAP_USED 56
#define MOS_MAP_ORDER_CAP 64
extern uint64_t mos_map_secret[2];
/* The cell holding key's value, for `m[k] op= e` (missing key: a runtime
 * error) and `m[k] = m.get(k, d) op e` (a missing key is first inserted
 * with d), when e cannot touch the map: generated code reads and writes
 * the cell at once, one probe instead of two. */
int64_t *mos_map_cell(MosMap *m, int64_t key, const char *where);
int64_t *mos_map_cell_or(MosMap *m, int64_t key, int64_t otherwise, const char *where);
int32_t mos_map_remove(MosMap *m, int64_t key, const char *where);
void mos_map_clear(MosMap *m, const char *where);
MosArray *mos_map_keys(MosMap *m, const char *where);
MosArray *mos_map_values(MosMap *m, const char *where);
int64_t mos_array_index_of_word(MosArray *xs, int64_t v, const char *where);
int64_t mos_array_index_of_float(MosArray *xs, double v, const char *where);
int64_t mos_array_index_of_bool(MosArray *xs, int32_t v, const char *where);
int64_t mos_array_index_of_string(MosArray *xs, MosString *v, const char *where);
/* sort.c */
void mos_sort_int(MosArray *xs, const char *where);
void mos_sort_float(MosArray *xs, const char *where);
void mos_sort_string(MosArray *xs, const char *where);
/* io.c: standard input, files, standard error, exit */
MosString *mos_read_line(void);
int32_t mos_eof(void);
MosString *mos_read_all(void);
MosString *mos_read_file(MosString *path, const char *where);
void mos_write_file(MosString *path, MosString *s, const char *where);
void mos_eprint(MosString *s, int32_t newline);
_Noreturn void mos_exit(int64_t code);
int64_t mos_float_to_int(double v, const char *where);
double mos_clock(void);
int64_t mos_nodes(void);
int64_t mos_node_id(void);
int64_t mos_node_of(int64_t k);     /* node(k): k mod nodes(), for any k */

/* ---- Actors (LANGUAGE.md §4) ------------------------------------------
 *
 * An actor is a GC block: MOS_ACTOR_HEADER_SIZE bytes owned by the runtime
 * (mailbox, scheduling state, node), then the class's fields laid out by
 * codegen.  mos_actor_new returns it zeroed with the header initialised.
 *
 * A message is a GC block: MOS_MESSAGE_HEADER_SIZE bytes owned by the
 * runtime (queue link, run function, future), then the arguments, each in
 * an 8-byte slot (bool as i8 at the slot's start), laid out by codegen.
 * Sending `a!m(x, y)`: msg = mos_message_new(size, run, want_future); store
 * the arguments; fut = mos_send(a, msg, where).  The receiver's worker later
 * calls run(actor, msg) and, if the message has a future, fulfils it with
 * run's result (an int64: int as is, float's bits, bool 0/1, pointers cast,
 * 0 for unit).  `new A(args)` is mos_actor_new followed by the send of a
 * message whose run function initialises the fields and runs init, so init
 * is the actor's first message.
 *
 * mos_future_get(f, where) waits until f has a value and returns it (the
 * same int64 encoding); other actors keep running meanwhile.  A NULL
 * actor (mos_send) or future (mos_future_get) is "null dereference" at
 * `where`; a get that nothing can ever fulfil is reported as a deadlock
 * at its `where` (status 101).  mos_actor_new's node is -1 for the
 * creator's node (`here`), else node k mod nodes() (negative k too).
 * A message belongs to the runtime once sent: after run returns, the
 * runtime may clear its argument slots (so an idle actor keeps nothing
 * alive), so run must not leave the message itself anywhere.
 * The runtime's side of all this is described in sched.c. */
#define MOS_ACTOR_HEADER_SIZE 64
#define MOS_MESSAGE_HEADER_SIZE 32
#define MOS_MESSAGE_SLOT_SIZE 8     /* one argument (or place value) each */
typedef int64_t (*MosMessageRun)(void *actor, void *message);
void *mos_actor_new(int64_t bytes, int64_t node);
void *mos_message_new(int64_t bytes, MosMessageRun run, int32_t want_future);
void *mos_send(void *actor, void *message, const char *where);
int64_t mos_future_get(void *future, const char *where);

/* ---- Pools (LANGUAGE.md §6) -------------------------------------------
 *
 * A pool is a MosPool: its objects are numbered 1, 2, … in allocation
 * order, and a reference to one is that number (0 is null), held in a
 * pointer-sized value.  Each cluster of the pool's layout is one
 * contiguous array of records, `stride` bytes each, reserved once for
 * MOS_POOL_MAX_OBJECTS objects (address space only; pages are committed as
 * objects arrive), so it never moves.  Field f of object r, in cluster k at
 * offset o, is at clusters[k].bias + r * clusters[k].stride + o, where
 * bias is the cluster's start minus one stride: codegen knows k, o and
 * the stride of every field for the pool's layout and emits exactly that.
 * A cluster that holds pointers is a root of the collector for the part
 * in use.  The pool's node (where its objects live) and the values of its
 * class's places (places[i] for place i > 0) are set by codegen after
 * mos_pool_new.  MosPoolShape describes a layout, one constant per layout
 * in the program. */
typedef struct MosPoolShape {
    const char *name;               /* the pool's name, for messages */
    int64_t nclusters;
    int64_t nplaces;                /* its class's place parameters */
    const int64_t *strides;         /* [nclusters] */
    const int64_t *pointers;        /* [nclusters]: 1 if it holds pointers */
} MosPoolShape;
typedef struct MosPoolCluster {
    char *bias;                     /* start - stride */
    int64_t stride;
    char *start;
    int64_t pointers;
    void *map;                      /* the reservation start lies in */
    int64_t unused;                 /* keeps a cluster 16-byte sized */
} MosPoolCluster;
typedef struct MosPool {
    int64_t size;                   /* objects so far */
    int64_t node;
    int64_t capacity;               /* objects the roots cover */
    int64_t nclusters;
    const char *name;
    int64_t *places;
    MosPoolCluster clusters[];
} MosPool;
#define MOS_POOL_SIZE_OFFSET 0
#define MOS_POOL_NODE_OFFSET 8
#define MOS_POOL_PLACES_OFFSET 40
#define MOS_POOL_CLUSTERS_OFFSET 48
#define MOS_POOL_CLUSTER_BYTES 48       /* bias first */
#define MOS_POOL_MAX_OBJECTS ((int64_t)1 << 28)
MosPool *mos_pool_new(const MosPoolShape *shape, int64_t node);
int64_t mos_pool_alloc(MosPool *pool, const char *where);

/* ---- Remote-access counting (LANGUAGE.md §5, --count-remote) ----------
 *
 * A program compiled with --count-remote defines mos_remote_table: one
 * MosRemoteSite per instrumented access in the code, the line it is on and
 * whether the effect analysis predicted it remote.  Before each
 * instrumented read or write it calls mos_cr_access(node, site, write)
 * with the node of the object or array accessed; the runtime counts it when
 * that node is not the running code's, and prints the report at exit.
 * Under counting, every array is allocated with a node word
 * MOS_ARRAY_NODE_PREFIX bytes before its MosArray (mos_array_new_at says
 * which node; mos_array_new uses the running code's); a passive object's
 * node is its first stored place (codegen, class.c). */
typedef struct MosRemoteSite {
    int64_t line;
    int64_t predicted;      /* 1: the static effects call this site remote */
} MosRemoteSite;
typedef struct MosRemoteTable {
    int64_t nsites;
    const char *file;       /* as given on mosaicc's command line */
    const MosRemoteSite *sites;
    const char *report_file;/* --count-remote=FILE: the report goes there too
                               (for mosaicc --draw --counts); NULL: stderr only */
} MosRemoteTable;
#define MOS_ARRAY_NODE_PREFIX 16    /* keeps the MosArray 16-byte aligned */
extern const MosRemoteTable mos_remote_table;

/* Every `get` of the program: its where string (the very pointer it
 * passes to mos_future_get) and the function it is in ("main", "f",
 * "Class.method"), ended by a pair of NULLs.  A deadlock report names the
 * function of each waiter from it (sched.c). */
typedef struct MosWaitSite {
    const char *where;
    const char *function;
} MosWaitSite;
extern const MosWaitSite mos_wait_sites[];
/* The node of the code the thread runs: its actor's home, 0 in main
 * (what mos_node_id() answers; instrumented code compares with it before
 * calling mos_cr_access, so a local access costs a load and a branch). */
extern __thread int64_t mos_here_node;
void mos_cr_access(int64_t node, int64_t site, int32_t write);
MosArray *mos_array_new_at(int64_t length, int64_t elem_size, int32_t elem_kind,
                           const char *where, int64_t node);

/* ---- Frames of a -g program (codegen/frames.c, backtrace.c) ----------
 *
 * Code compiled with -g keeps, per thread, the chain of the Mosaic
 * functions running: each function, method and constructor pushes a
 * MosFrame living in its own stack frame when it is entered (prev = the
 * old mos_frame_top, then mos_frame_top = the frame), keeps `line` at the
 * line it executes, and pops it before it returns.  A runtime error
 * prints the chain, innermost first.  Code compiled without -g never
 * touches mos_frame_top, which then stays NULL.  While an actor's turn
 * waits in `get`, its frames are moved aside with it and the scheduler
 * saves the pointer (sched.c). */
typedef struct MosFunction {
    const char *name;       /* "add", "Counter.incr", "new Counter" */
    const char *file;       /* the source, as given to mosaicc */
} MosFunction;
typedef struct MosFrame {
    struct MosFrame *prev;
    const MosFunction *function;
    int64_t line;
} MosFrame;
extern __thread MosFrame *mos_frame_top;

/* Called once when the program meets a runtime error, before anything is
 * printed: the place for a debugger's breakpoint (`break
 * mos_runtime_error`), with the stack of the failing code still there.
 * It does nothing itself. */
void mos_runtime_error(const char *where, const char *message);

/* Formats `v` exactly as Python 3's repr(float) into buf (at least 32
 * bytes); returns the length.  Exposed for the unit tests. */
int rt_format_float(double v, char *buf);

/* ---- Distributed programs (--distributed, LANGUAGE.md §10) ----------------
 *
 * Defined by libmosaicrt-mpi.a only (transport_mpi.c); generated code
 * calls them only where an access may touch another node's object, after
 * testing the reference's remote bit (stdlib/transport.h).  `what` is 0 a
 * field (at byte `offset`), 1 an element (at `index`), 2 an array's
 * length; `kind` a letter: 'i' a word, 'b' a byte, 's' a string, 'r' a
 * reference.  Values are words in the int64 encoding of results. */
int64_t mos_remote_load(void *ref, int64_t what, int64_t offset, int64_t kind,
                        const char *where);
void mos_remote_store(void *ref, int64_t what, int64_t offset, int64_t kind, int64_t value,
                      const char *where);
/* A zeroed object of `bytes` on `node` (scanned: it may hold pointers),
 * its nplaces place values stored from `places_offset`: a local pointer,
 * or a reference when node is another process's. */
void *mos_object_new_at(int64_t bytes, int64_t node, int32_t scanned, int64_t places_offset,
                        int64_t nplaces, const int64_t *places);
/* A new array (map: 1) built here, moved to `node` when that is another
 * process's: its contents are copied there and the reference returned. */
void *mos_place_at(void *obj, int64_t node, int32_t is_map, const char *where);
/* Runtime function `fn` (its CgRt number, the order of abi.def) called on
 * the node of words[0], a reference, with the words as its arguments;
 * kinds has one letter per word, then '>' and the result's. */
int64_t mos_remote_call(int64_t fn, const char *kinds, const int64_t *words, const char *where);
/* A pool of another node (its place value a remote reference): a field of
 * object `ref`, in cluster `cluster` at `offset` of its record, read or
 * written there; a word of its descriptor (0 its size, 1 its node, 2 + k
 * the value of its class's place k).  mos_pool_set_place stores place k
 * of any pool's class, and mos_pools_made tells the other processes the
 * top-level pools main has just made (mos_global_pools). */
int64_t mos_pool_load(int64_t pool, void *ref, int64_t cluster, int64_t offset, int64_t kind,
                      const char *where);
void mos_pool_store(int64_t pool, void *ref, int64_t cluster, int64_t offset, int64_t kind,
                    int64_t value, const char *where);
int64_t mos_pool_word(int64_t pool, int64_t which);
void mos_pool_set_place(int64_t pool, int64_t k, int64_t value);
void mos_pools_made(void);
/* The top-level pools' globals, NULL-terminated (--distributed). */
extern int64_t *const mos_global_pools[];

#endif
