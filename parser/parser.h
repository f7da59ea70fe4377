/* parser.h — from a registered source file to a Program.
 *
 * parse_program runs the reentrant flex scanner (lexer/scan.l) under the
 * pure bison parser (parser/parse.y).  It reports lexical errors (E0001)
 * and syntax errors (E0002, naming the expected tokens) through diag,
 * recovering at `;`, newlines and `}` so that every error of the file is
 * reported once.  It always returns a Program (possibly partial); the
 * caller checks diag_error_count() before going on.
 */
#ifndef MOSAIC_PARSER_H
#define MOSAIC_PARSER_H

#include "ast.h"

Program *parse_program(uint32_t file);

/* The canonical layout of a file's text (parser/format.c), which must
 * parse: a malloc'd string of *out_len bytes. */
char *fmt_source(const char *text, size_t len, size_t *out_len);
/* The same with lines of code broken past `width` columns instead of the
 * canonical 100: for the tests, which narrow it to break nearly every list. */
char *fmt_source_width(const char *text, size_t len, int width, size_t *out_len);

#endif
