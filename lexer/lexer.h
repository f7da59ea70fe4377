/* lexer.h — the reentrant flex scanner's interface (lexer/scan.l).
 *
 * The parser drives the scanner through yylex with bison's semantic value
 * and location types (parser/parse.h, generated).  The newline rule of
 * LANGUAGE.md §1 lives in the scanner: a newline becomes a statement
 * separator token only after a token that can end a statement.  So do the
 * angle brackets: the scanner tells a place list `C<p, q>` and a type
 * argument `Fut<T>` from the comparison and shift operators, so that the
 * grammar stays LALR(1) (see the comment in scan.l).
 *
 * Lexical errors (E0001) are reported through diag as they are met, and
 * scanning goes on: the parser never sees a bad token.
 *
 * lex_token_name gives the printable name of a token for messages and
 * tests; it lives in parse.y because bison owns the token table (the
 * aliases declared there are the single source of token names).
 */
#ifndef MOSAIC_LEXER_H
#define MOSAIC_LEXER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Opens a scanner over the text of registered source file `file`
 * (src_text/src_length; the text may contain NUL bytes).  The result is a
 * flex yyscan_t; lex_close frees every byte the scanner holds. */
void *lex_open(uint32_t file);
void lex_close(void *scanner);

/* Whether text was dropped for a lexical error (bad characters, an
 * unterminated comment) just before the last token returned, or that token
 * is itself broken (an unterminated string).  A syntax
 * error at that token is the lexical error's consequence: the parser
 * recovers from it silently instead of reporting a cascade. */
bool lex_after_error(void *scanner);

/* The innermost bracket (`(`, `[` or `{`) scanned and not closed yet: its
 * place and kind; false when none is open. */
bool lex_innermost_open(void *scanner, Loc *loc, char *kind);

/* From now on, tokens that start at an offset in [from, to) are scanned
 * (brackets still counted, lexical errors still reported) but not given
 * to the parser: the body of `interface X { ... }` after its error. */
void lex_hide(void *scanner, uint32_t from, uint32_t to);

/* The number of `{` minus the number of `}` scanned so far: positive at the
 * end of the file when a `}` is missing. */
int lex_brace_depth(void *scanner);

/* The printable name of a token kind as yylex returns it ("identifier",
 * "'{'", "newline", "end of file"); defined in parser/parse.y. */
const char *lex_token_name(int token);

/* Debugging and unit tests: scans file `file` to its end and writes one
 * line per token: its name, then, for identifiers and literals, a space and
 * its value (identifiers and numbers as written in decimal, strings decoded
 * with C escapes).  Returns the number of tokens written. */
int lex_dump_tokens(uint32_t file, FILE *out);

#endif
