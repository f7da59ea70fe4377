/* layouts.h — layouts and pools (LANGUAGE.md §6) as the checker resolves
 * them, for the code generator and the `--layouts` report.
 *
 * A TcLayout is a class's fields grouped into clusters, each cluster a
 * record of its fields in class order with C's natural alignment: a bool
 * takes one byte, everything else (int, float, references) eight.  The
 * built-in `aos` (one cluster) and `soa` (one per field) exist once per
 * class; a `layout` declaration or a literal `rec{…} + …` (in a pool or a
 * `--layout` override) gives one of its own.  A TcPool is a pool
 * declaration resolved: the place it is, the type of its objects, the
 * node it is on, and the layout in force once `--layout` overrides are
 * applied.  The code generator never looks a layout up at run time: it
 * specialises the code for the TcLayout of each pool.
 */
#ifndef MOSAIC_TC_LAYOUTS_H
#define MOSAIC_TC_LAYOUTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "types.h"

typedef struct TcCluster {
    VEC(FieldDecl *) fields;    /* in class order */
    VEC(uint64_t) offsets;      /* of each field within the record */
    uint64_t size;              /* bytes per object */
    bool has_pointers;          /* a string, object, array or future field */
} TcCluster;

typedef struct TcLayout {
    ClassDecl *cls;
    const char *name;           /* "aos", "soa", a declaration's name, or the
                                   literal as written */
    VEC(TcCluster *) clusters;  /* in the order the layout lists them */
    int *cluster_of;            /* field index -> its cluster */
    int *slot_of;               /* field index -> its position in the cluster */
} TcLayout;

typedef struct TcPool {
    PoolDecl *decl;
    Place *place;               /* the pool as a place (PL_POOL) */
    Type *elem;                 /* the type of its objects: C<P, ...> */
    Place *node;                /* where it is: `on`, else node(0) at top
                                   level and `here` in a block */
    TcLayout *layout;           /* the layout in force */
} TcPool;

/* The pool a declaration makes (NULL before the checker has seen it). */
TcPool *tc_pool(const PoolDecl *decl);
/* The pool a pool place stands for (PL_POOL), or NULL. */
TcPool *tc_pool_of_place(const Place *p);
/* Every pool of the program, in source order. */
size_t tc_pool_count(void);
TcPool *tc_pool_at(size_t i);

/* The type of the objects of a pool (a TY_POOL type). */
Type *tc_pool_elem_type(const Type *pool_type);
/* The bytes a field takes in a cluster (1 for a bool, else 8). */
uint64_t tc_field_size(const FieldDecl *fd);

/* The `--layouts` report (LANGUAGE.md §6). */
void tc_print_layouts(FILE *out);

/* `aos` (soa false) or `soa` of a class. */
TcLayout *tc_builtin_layout(ClassDecl *cls, bool soa);
/* The layout a declaration stands for (overrides applied), NULL if bad. */
TcLayout *tc_layout_of_decl_resolved(const LayoutDecl *ld);

/* A layout's clusters as `--layout` takes them: "rec{x, y} + rec{id}". */
const char *tc_layout_spec_text(const TcLayout *l);
/* The two-cluster layout of cls with the fields hot[i] first, the others
 * after (each in class order); NULL if either cluster would be empty. */
TcLayout *tc_split_layout(ClassDecl *cls, const bool *hot);

/* The layout tuner's candidates (advisor.c, for driver/tune.c): for each
 * pool that a loop visits, the layouts worth measuring with the bytes per
 * object its loops move under each (the advisor's cost model, summed over
 * the loops): the layout in force, `aos`, `soa`, the layouts declared for
 * the class, and the hot/cold split of the fields the loops touch; each
 * cluster structure once. */
typedef struct TcTuneCandidate {
    const char *spec;       /* for --layout: a layout's name, or clusters */
    const char *what;       /* "in force", "aos", "soa", "declared", "hot/cold" */
    const TcLayout *layout;
    uint64_t bytes;         /* predicted bytes per object over the loops */
} TcTuneCandidate;

typedef struct TcTunePool {
    const TcPool *pool;
    int nloops;
    VEC(TcTuneCandidate) cands;     /* the layout in force first */
} TcTunePool;
typedef VEC(TcTunePool) TcTunePools;

void tc_tune_candidates(const Program *program, TcTunePools *out);

/* What the vectoriser said about the loop on `line`: "yes (...)" or
 * "no (...)", or NULL if nothing. */
typedef const char *(*TcVectorNote)(void *ctx, int line);
/* The layout advisor (advisor.c), after the report: one entry per loop
 * over a pool. */
void tc_print_layout_advice(FILE *out, const Program *program, int opt_level,
                            TcVectorNote note, void *note_ctx);

#endif
