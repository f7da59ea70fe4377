# stdlib/local.mk — the runtime library libmosaicrt.a and its unit tests.
#
# Every Mosaic executable links with libmosaicrt.a, whose start.o holds
# main().  start.c is a leaf (no other runtime file refers to anything it
# defines), so a unit test with its own main() links against the same
# archive and the linker never pulls start.o in: the tests exercise the
# very objects that programs use, with no second build of the sources.
# GC_THREADS must be defined wherever gc.h is read (rt_internal.h defines
# it too, for builds by hand).

rt_common_sources = \
	stdlib/mosaic_rt.h stdlib/abi.def stdlib/rt_internal.h \
	stdlib/rt_actors.h stdlib/mailbox.h stdlib/runq.h stdlib/transport.h \
	stdlib/start.c \
	stdlib/panic.c \
	stdlib/backtrace.c \
	stdlib/stack.c \
	stdlib/threads.c \
	stdlib/nodes.c \
	stdlib/actor.c \
	stdlib/future.c \
	stdlib/sched.c \
	stdlib/context.c \
	stdlib/alloc.c \
	stdlib/array.c stdlib/map.c \
	stdlib/string.c \
	stdlib/text.c \
	stdlib/sort.c \
	stdlib/io.c \
	stdlib/float_format.c \
	stdlib/print.c \
	stdlib/builtins.c \
	stdlib/remote.c \
	stdlib/pool.c
stdlib_libmosaicrt_a_SOURCES += $(rt_common_sources) stdlib/transport_shm.c
stdlib_libmosaicrt_a_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
stdlib_libmosaicrt_a_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)

# libmosaicrt-mpi.a, the runtime of programs built with --distributed: the
# same sources compiled with MOS_DISTRIBUTED (the remote paths of
# transport.h), and the MPI transport instead of the shared-memory one.
stdlib_libmosaicrt_mpi_a_SOURCES += $(rt_common_sources) stdlib/transport_mpi.c stdlib/rank_watch.c
stdlib_libmosaicrt_mpi_a_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS -DMOS_DISTRIBUTED $(MPI_CFLAGS)
stdlib_libmosaicrt_mpi_a_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)

# The gdb pretty-printers (docs/debugging.md).  Every -g executable names
# this file for gdb to load: the one beside the in-tree ./mosaicc, or the
# installed one (driver/paths.h's MOSAIC_GDBDIR).
gdbscriptdir = $(pkgdatadir)/gdb
dist_gdbscript_DATA = stdlib/mosaic-gdb.py

# ---- unit tests (TAP) -------------------------------------------------------

rt_test_ldadd = stdlib/libmosaicrt.a $(GC_LIBS) -lm -lpthread

# test_float_format, test_runtime, test_map and test_nodes (which include
# map.c and nodes.c themselves),
# test_mailbox and test_sched_queue have
# their own main(); test_start and test_sched are stand-ins for a compiled
# program (they define mos_program_main) and get the runtime's main(), as
# programs do.
check_PROGRAMS += tests/unit/test_float_format tests/unit/test_runtime \
	tests/unit/test_start tests/unit/test_map tests/unit/test_nodes
tests_unit_test_float_format_SOURCES = tests/unit/test_float_format.c
tests_unit_test_float_format_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_float_format_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_float_format_LDADD = $(rt_test_ldadd)
tests_unit_test_runtime_SOURCES = tests/unit/test_runtime.c
tests_unit_test_runtime_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_runtime_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_runtime_LDADD = $(rt_test_ldadd)
tests_unit_test_start_SOURCES = tests/unit/test_start.c
tests_unit_test_start_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_start_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_start_LDADD = $(rt_test_ldadd)
tests_unit_test_map_SOURCES = tests/unit/test_map.c tests/unit/tap.h
tests_unit_test_map_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_map_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_map_LDADD = $(rt_test_ldadd)
tests_unit_test_nodes_SOURCES = tests/unit/test_nodes.c tests/unit/tap.h
tests_unit_test_nodes_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_nodes_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_nodes_LDADD = $(rt_test_ldadd)
TESTS += tests/unit/test_float_format tests/unit/test_runtime \
	tests/unit/test_start tests/unit/test_map tests/unit/test_nodes

check_PROGRAMS += tests/unit/test_mailbox tests/unit/test_sched_queue \
	tests/unit/test_sched
tests_unit_test_mailbox_SOURCES = tests/unit/test_mailbox.c tests/unit/tap.h
tests_unit_test_mailbox_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_mailbox_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_mailbox_LDADD = $(rt_test_ldadd)
tests_unit_test_sched_queue_SOURCES = tests/unit/test_sched_queue.c \
	tests/unit/tap.h
tests_unit_test_sched_queue_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_sched_queue_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_sched_queue_LDADD = $(rt_test_ldadd)
tests_unit_test_sched_SOURCES = tests/unit/test_sched.c
tests_unit_test_sched_CPPFLAGS = $(AM_CPPFLAGS) -DGC_THREADS
tests_unit_test_sched_CFLAGS = $(AM_CFLAGS) $(GC_CFLAGS)
tests_unit_test_sched_LDADD = $(rt_test_ldadd)
TESTS += tests/unit/test_mailbox tests/unit/test_sched_queue \
	tests/unit/test_sched
