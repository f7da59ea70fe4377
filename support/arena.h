/* arena.h — bump allocation for the compiler, strings interned once.
 *
 * The compiler is a short-lived process that builds large trees of small
 * nodes and never frees one of them before the end.  An arena gives each
 * allocation in a few instructions and frees everything at once at exit
 * (arena_free_all, called by the driver).  Memory is zeroed.  Out of memory
 * is fatal: the compiler prints a message and exits with status 2.
 *
 * Interned strings are unique: two equal names have the same pointer, so
 * the checker compares names with ==.
 */
#ifndef MOSAIC_ARENA_H
#define MOSAIC_ARENA_H

#include <stddef.h>

void *arena_alloc(size_t size);
/* Allocates one zeroed T. */
#define ARENA_NEW(T) ((T *)arena_alloc(sizeof(T)))
char *arena_strndup(const char *s, size_t n);
char *arena_strdup(const char *s);
/* printf into a fresh arena string. */
char *arena_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void arena_free_all(void);

/* The unique copy of s[0..n). */
const char *intern(const char *s, size_t n);
const char *intern_cstr(const char *s);

#endif
