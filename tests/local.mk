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
AM_MOS_LOG_FLAGS = --mosaicc $(abs_top_builddir)/mosaicc$(EXEEXT)
LOG_DRIVER = $(TAP_DRIVER)

# Driver tests (tests/driver/*.sh): shell scripts that run the compiler
# and the programs it makes the way a user does, and speak TAP themselves;
# they find the compiler in $MOSAICC.
SH_LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_COMPILER = env MOSAICC=$(abs_top_builddir)/mosaicc$(EXEEXT) $(SHELL)
DRIVER_TESTS = tests/driver/output_failures.sh tests/driver/outputs.sh \
	tests/driver/modes.sh

TESTS += $(MOS_TESTS) $(DRIVER_TESTS)
EXTRA_DIST += tests/run-test.sh $(MOS_TESTS) $(DRIVER_TESTS)
EXTRA_DIST += $(wildcard $(srcdir)/tests/*/*.expected $(srcdir)/tests/*/*.txt)

# ---- unit tests -------------------------------------------------------------

check_PROGRAMS += tests/unit/test_diag
tests_unit_test_diag_SOURCES = tests/unit/test_diag.c tests/unit/tap.h \
	support/diag.c support/arena.c
TESTS += tests/unit/test_diag
