/* big_stack.h — running a function on a thread with a deep stack.
 *
 * mosaicc's phases and mosaic-lsp's sessions recurse once per nesting
 * level of an expression (up to AST_MAX_EXPR_DEPTH), far deeper than a
 * default 8 MiB stack allows, so they run on a thread of their own whose
 * stack is reserved large and committed only as it is used.
 */
#ifndef MOSAIC_BIG_STACK_H
#define MOSAIC_BIG_STACK_H

#include <stddef.h>

/* Calls fn(arg) on a new thread with a stack of stack_size bytes and
 * waits for it; calls it on this thread instead when the system refuses
 * such a thread. */
void run_on_big_stack(void *(*fn)(void *), void *arg, size_t stack_size);

#endif
