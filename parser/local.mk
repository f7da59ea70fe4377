# parser/local.mk — the grammar (pure bison), the AST and its printer.
#
# AM_YFLAGS = -d (Makefile.am) makes bison write parser/parse.h beside
# parser/parse.c; the scanner includes it, so it is built first.
mosaicc_SOURCES += parser/parse.y parser/parser.h \
	parser/ast.c parser/ast.h parser/ast_clone.c parser/ast_print.c parser/ast_walk.c \
	parser/format.c
BUILT_SOURCES += parser/parse.h
