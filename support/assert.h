/* assert.h — asserts that say why, for debug builds.
 *
 * ASSERT(cond, "why") documents an invariant; in a debug build (no NDEBUG)
 * a broken one prints the reason and the place, then aborts: an internal
 * compiler error, never a user error.  UNREACHABLE() marks code no input
 * can reach.
 */
#ifndef MOSAIC_ASSERT_H
#define MOSAIC_ASSERT_H

#include <stdio.h>
#include <stdlib.h>

#define INTERNAL_ERROR(why)                                                   \
    (fprintf(stderr, "mosaicc: internal compiler error: %s (%s:%d)\n", (why), \
             __FILE__, __LINE__),                                             \
     abort())

#ifdef NDEBUG
#define ASSERT(cond, why) ((void)0)
#else
#define ASSERT(cond, why) ((cond) ? (void)0 : INTERNAL_ERROR(why))
#endif

#define UNREACHABLE() INTERNAL_ERROR("unreachable code reached")

#endif
