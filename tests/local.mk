# tests/local.mk — `make check` (DESIGN.md §4).
#
# Every .mos file under tests/run, tests/compile-fail, tests/run-fail and
# tests/effects is a test, found when make runs (a new test needs no edit
# here).  Their names are relative to the source tree so that logs land in
# the build tree; make's VPATH finds the sources.  tests/run-test.sh
# compiles and runs one of them and speaks TAP to automake's TAP driver.
# Unit tests are C programs under tests/unit that print TAP themselves;
# other modules add theirs here (check_PROGRAMS and TESTS).

# MOS_TESTS (from configure.ac) expands, when make runs, to every .mos file
# of those four directories; automake must not see its value, else it tries
# to write one rule per word of it.
TEST_EXTENSIONS = .mos .sh
TAP_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
MOS_LOG_DRIVER = $(TAP_DRIVER)
MOS_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-test.sh
# The `// ranks: N` tests run under mpirun too when configure found Open MPI.
AM_TESTS_ENVIRONMENT = MOSAIC_MPI=@HAVE_MPI@; export MOSAIC_MPI;
AM_MOS_LOG_FLAGS = --mosaicc $(abs_top_builddir)/mosaicc$(EXEEXT)
LOG_DRIVER = $(TAP_DRIVER)

# Driver tests (tests/driver/*.sh): shell scripts that run the compiler
# and the programs it makes the way a user does, and speak TAP themselves;
# they find the compiler in $MOSAICC.
SH_LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_COMPILER = env MOSAICC=$(abs_top_builddir)/mosaicc$(EXEEXT) $(SHELL)
DRIVER_TESTS = tests/driver/output_failures.sh tests/driver/outputs.sh \
	tests/driver/library_io.sh tests/driver/examples.sh \
	tests/driver/modes.sh tests/driver/habits.sh tests/driver/reference.sh
DRIVER_TESTS += tests/driver/gdb.sh tests/driver/backtrace.sh
DRIVER_TESTS += tests/driver/distributed.sh
# docs/editors.md's Vim, Neovim and Emacs setups, run as written in the
# editors (each skipped when its editor is not installed)
DRIVER_TESTS += tests/driver/editors_vim.sh tests/driver/editors_neovim.sh \
	tests/driver/editors_emacs.sh
EXTRA_DIST += tests/driver/editors_doc.sh tests/driver/editors_emacs.el

TESTS += $(MOS_TESTS) $(DRIVER_TESTS)
EXTRA_DIST += tests/run-test.sh tests/driver/tap.sh $(MOS_TESTS) $(DRIVER_TESTS)
EXTRA_DIST += $(wildcard $(srcdir)/tests/*/*.expected $(srcdir)/tests/*/*.txt)
EXTRA_DIST += $(wildcard $(srcdir)/tests/driver/draw/*.mos $(srcdir)/tests/driver/draw/*.dot)

# mosaicc --explain: every page of docs/errors printed, and its examples
# compiled (docs/errors/README.md).
DRIVER_TESTS += tests/driver/explain.sh tests/driver/layouts_report.sh tests/driver/layout_file.sh tests/driver/tune.sh tests/driver/draw.sh tests/driver/format.sh \
	tests/driver/reference_diagnostic.sh

# mosaicc --format's line breaking (tests/driver/format.sh): golden files,
# and every program of the tree formatted narrow by tests/format/narrow.
check_PROGRAMS += tests/format/narrow
tests_format_narrow_SOURCES = tests/format/narrow.c lexer/scan.l lexer/lexer.h \
	parser/parse.y parser/parser.h parser/ast.c parser/ast.h parser/ast_print.c \
	parser/format.c support/diag.c support/diag_json.c support/arena.c
EXTRA_DIST += $(wildcard $(srcdir)/tests/format/*.mos $(srcdir)/tests/format/*.expected)

# ---- unit tests -------------------------------------------------------------

check_PROGRAMS += tests/unit/test_diag
tests_unit_test_diag_SOURCES = tests/unit/test_diag.c tests/unit/tap.h \
	support/diag.c support/diag_json.c support/arena.c
TESTS += tests/unit/test_diag

# Diagnostics for people and for tools: --color, --error-format.
DRIVER_TESTS += tests/driver/diag_formats.sh
DRIVER_TESTS += tests/driver/warnings.sh
EXTRA_DIST += tests/driver/sarif-2.1.0-subset.schema.json

# ---- the front end under fuzzing (tests/fuzz/README.md) ----------------------

# What the fuzz target and its replay compile: the front end up to effects.
FUZZ_FRONTEND = lexer/scan.l lexer/lexer.h \
	parser/parse.y parser/parser.h parser/ast.c parser/ast.h parser/ast_print.c \
	parser/ast_walk.c parser/ast_clone.c parser/format.c typecheck/generics.c \
	typecheck/types.c typecheck/places.c typecheck/effects.c typecheck/layouts.c \
	typecheck/advisor.c typecheck/scope.c typecheck/check_type.c \
	typecheck/check_decl.c typecheck/check_stmt.c typecheck/check_expr.c \
	typecheck/check_call.c typecheck/flow.c typecheck/record.c typecheck/warn.c \
	support/diag.c support/diag_json.c support/arena.c

# The replay, in `make check`: the seed corpus and every crash input found.
check_PROGRAMS += tests/fuzz/replay
tests_fuzz_replay_SOURCES = tests/fuzz/frontend.c $(FUZZ_FRONTEND)
DRIVER_TESTS += tests/driver/fuzz_replay.sh tests/driver/differential.sh
EXTRA_DIST += tests/diff/gen.awk
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/mosaic.dict \
	$(wildcard $(srcdir)/tests/fuzz/corpus/*.mos $(srcdir)/tests/fuzz/crashes/*.mos)

# The differential fuzzer (tests/fuzz/gen.py makes programs,
# tests/fuzz/differential.py runs each in every variant): a short seeded
# run in make check, a longer one in make fuzz.
DRIVER_TESTS += tests/driver/fuzz_differential.sh
EXTRA_DIST += tests/fuzz/gen.py tests/fuzz/differential.py

# `make fuzz`: the libFuzzer target (clang) for FUZZ_SECONDS, then the
# differential fuzzer for FUZZ_SECONDS, then its mutation mode (the front
# end on broken programs) for FUZZ_SECONDS; each alone is `make
# fuzz-frontend`, `make fuzz-differential`, `make fuzz-mutate`.  The
# differential runs start at seed FUZZ_SEED (default: the time, so that
# every run tries new programs; each finding names its seed for a replay).
# Findings land in tests/fuzz/found/ in the build tree.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_SEED =
FUZZ_PY = python3
FUZZ_C_FILES = $(srcdir)/tests/fuzz/frontend.c lexer/scan.c parser/parse.c \
	$(filter %.c,$(addprefix $(srcdir)/,$(filter-out lexer/% parser/parse.y,$(FUZZ_FRONTEND))))
tests/fuzz/fuzz-frontend: $(FUZZ_C_FILES)
	$(AM_V_GEN)$(MKDIR_P) tests/fuzz && \
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -DMOS_LIBFUZZER \
	    -I$(builddir) -I$(srcdir) -I$(builddir)/lexer -I$(srcdir)/lexer \
	    -o $@ $(FUZZ_C_FILES)
.PHONY: fuzz fuzz-frontend fuzz-differential fuzz-mutate
fuzz: fuzz-frontend fuzz-differential fuzz-mutate
fuzz-frontend: tests/fuzz/fuzz-frontend
	$(MKDIR_P) tests/fuzz/found
	tests/fuzz/fuzz-frontend -max_total_time=$(FUZZ_SECONDS) -dict=$(srcdir)/tests/fuzz/mosaic.dict \
	    -artifact_prefix=tests/fuzz/found/ tests/fuzz/found $(srcdir)/tests/fuzz/corpus
fuzz-differential: mosaicc$(EXEEXT)
	$(MKDIR_P) tests/fuzz/found
	seed='$(FUZZ_SEED)'; [ -n "$$seed" ] || seed=$$(date +%s); \
	$(FUZZ_PY) $(srcdir)/tests/fuzz/differential.py --mosaicc ./mosaicc$(EXEEXT) \
	    --seed $$seed --seconds $(FUZZ_SECONDS) --findings tests/fuzz/found/differential
fuzz-mutate: mosaicc$(EXEEXT)
	$(MKDIR_P) tests/fuzz/found
	seed='$(FUZZ_SEED)'; [ -n "$$seed" ] || seed=$$(date +%s); \
	$(FUZZ_PY) $(srcdir)/tests/fuzz/differential.py --mosaicc ./mosaicc$(EXEEXT) --mutate \
	    --seed $$seed --seconds $(FUZZ_SECONDS) --findings tests/fuzz/found/mutants
CLEANFILES += tests/fuzz/fuzz-frontend
