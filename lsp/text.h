/* text.h — a document's text and the positions the protocol speaks in.
 *
 * The compiler locates everything by byte offset (support/diag.h); the
 * Language Server Protocol by a line, counted from 0, and a character
 * offset in that line counted in UTF-16 code units (its default and only
 * mandatory encoding): a character outside the Basic Multilingual Plane,
 * such as an emoji in a string, is two units, and é is one unit for two
 * bytes.  Lines end at "\n", "\r\n" or a lone "\r", as the protocol says,
 * whatever the compiler counts.
 *
 * A byte that is not part of a well-formed UTF-8 sequence counts as one
 * unit, so that every offset has a position and back; text_utf8 makes a
 * string safe to put in JSON the same way (U+FFFD for such a byte).
 */
#ifndef MOSAIC_LSP_TEXT_H
#define MOSAIC_LSP_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* realloc that ends the server (status 2, a line on stderr) when memory
 * runs out; (NULL, n) allocates.  The one allocator of lsp/. */
void *lsp_xrealloc(void *p, size_t n);

typedef struct LspText {
    const char *s;          /* not owned */
    size_t len;
    size_t *lines;          /* byte offset of each line's start; malloc'd */
    size_t nlines;          /* at least 1 */
} LspText;

typedef struct LspPos {
    int64_t line;           /* from 0 */
    int64_t character;      /* UTF-16 code units from the line's start */
} LspPos;

/* Indexes the lines of s[0..len) (s must outlive t). */
void text_init(LspText *t, const char *s, size_t len);
void text_free(LspText *t);

/* The position of byte `offset` (clamped to the text). */
LspPos text_position(const LspText *t, size_t offset);
/* The byte offset of a position: a line past the last is the end of the
 * text, a character past the line's end is its end (the protocol's rule),
 * and a position inside a surrogate pair is the character's start. */
size_t text_offset(const LspText *t, LspPos p);

/* A malloc'd copy of s[0..n) in which every byte that is not part of a
 * well-formed sequence is U+FFFD and NUL bytes are dropped. */
char *text_utf8(const char *s, size_t n);

#endif
