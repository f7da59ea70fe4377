# lsp/local.mk — mosaic-lsp, the language server (lsp/lsp.h).
#
# It runs the front end as `mosaicc --check` does, from the same files as
# the fuzz target (FUZZ_FRONTEND, tests/local.mk) and without LLVM.  Its
# own files are a library so that json-c's flags reach them alone: the
# front end's objects stay those mosaicc is linked from.
bin_PROGRAMS += mosaic-lsp
noinst_LIBRARIES = lsp/libmosaiclsp.a
lsp_libmosaiclsp_a_SOURCES = lsp/lsp.h lsp/main.c lsp/server.c lsp/rpc.h lsp/rpc.c \
	lsp/text.h lsp/text.c lsp/analysis.h lsp/analysis.c lsp/hover.c lsp/complete.c \
	lsp/symbols.c
lsp_libmosaiclsp_a_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS)
mosaic_lsp_SOURCES = $(FUZZ_FRONTEND) support/big_stack.c support/big_stack.h
mosaic_lsp_LDADD = lsp/libmosaiclsp.a $(JSONC_LIBS)

# The keywords completions offer, one LSP_KEYWORD("k") per line, read off
# the scanner's rules so that they cannot drift from the language.
BUILT_SOURCES += lsp/keywords.h
CLEANFILES += lsp/keywords.h
lsp/keywords.h: $(srcdir)/lexer/scan.l
	$(AM_V_GEN)$(MKDIR_P) lsp && \
	sed -n 's/^"\([a-z]*\)"[ 	]*TOK(.*/LSP_KEYWORD("\1")/p' $(srcdir)/lexer/scan.l >$@.tmp && \
	mv -f $@.tmp $@

# Scripted sessions with the server (python3 speaks the protocol).
TESTS += tests/driver/lsp.sh
EXTRA_DIST += tests/driver/lsp.sh tests/driver/lsp_client.py

dist_man_MANS += docs/mosaic-lsp.1
