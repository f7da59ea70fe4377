/* vec.h — growable arrays for the compiler, allocated in the arena.
 *
 *   VEC(Expr *) args = {0};
 *   VEC_PUSH(args, e);
 *   for (size_t i = 0; i < args.len; i++) use(args.items[i]);
 *
 * Growth doubles the capacity and copies into a new arena block; the old
 * block is reclaimed with the arena at exit.  Declare a named vector type
 * with `typedef VEC(Expr *) ExprVec;` so that it can be passed around.
 */
#ifndef MOSAIC_VEC_H
#define MOSAIC_VEC_H

#include <string.h>
#include "arena.h"

#define VEC(T) struct { T *items; size_t len, cap; }

#define VEC_PUSH(v, x)                                                        \
    do {                                                                      \
        if ((v).len == (v).cap) {                                             \
            size_t vec_newcap_ = (v).cap ? (v).cap * 2 : 4;                   \
            void *vec_new_ = arena_alloc(vec_newcap_ * sizeof *(v).items);    \
            if ((v).len) memcpy(vec_new_, (v).items, (v).len * sizeof *(v).items); \
            (v).items = vec_new_;                                             \
            (v).cap = vec_newcap_;                                            \
        }                                                                     \
        (v).items[(v).len++] = (x);                                           \
    } while (0)

#endif
