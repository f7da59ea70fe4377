# lexer/local.mk — the scanner (reentrant flex) and its unit test.
#
# automake runs flex on lexer/scan.l through ylwrap (lexer/scan.c); the
# scanner includes the parser's generated header as "parser/parse.h"
# (-I$(builddir)), which parser/local.mk lists in BUILT_SOURCES so that it
# exists before scan.c is compiled.
mosaicc_SOURCES += lexer/scan.l lexer/lexer.h

# The scanner's unit test links the scanner with the parser (which owns the
# token names, lex_token_name) and what both need from support/.
check_PROGRAMS += tests/unit/test_lexer
tests_unit_test_lexer_SOURCES = tests/unit/test_lexer.c \
	lexer/scan.l lexer/lexer.h \
	parser/parse.y parser/ast.c parser/ast_print.c parser/ast.h parser/parser.h \
	support/diag.c support/diag_json.c support/arena.c
TESTS += tests/unit/test_lexer
