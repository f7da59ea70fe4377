# bench/local.mk — `make bench` (DESIGN.md §5): benchmarks, never part of
# `make check`.
#
# The actor benchmarks (Savina's micro set) are run by bench/run-actors.sh
# against the mosaicc just built; it builds its peers (C++ with CAF, Erlang)
# itself, installing them from Debian when it runs as root, and prints one
# table.  Its scratch files go to bench/work/ and its CSV results to
# bench/results/ in the build tree; `make bench-clean` removes the former.
#
# The cost of --count-remote (LANGUAGE.md §5, "Measured effects") is measured
# by bench/run-remote.sh: the programs of bench/remote/, each built with and
# without the instrumentation, one table.  bench/gen-large.sh writes large
# generated programs for timing the compiler itself.
#
# The layouts (DESIGN.md §5 "Layouts", LANGUAGE.md §6) are measured by
# bench/run-layouts.sh: three loops over pools of millions of objects
# (bench/layouts/), each built with aos, soa and a hot/cold layout, with and
# without --no-checks, beside the same loops in C and on an array of plain
# objects, one table.
#
# What waiting in `get` costs (memory per waiting actor, time per wait) is
# measured by bench/run-waiting.sh over the programs of bench/waiting/, and
# building a string with += beside C and Python by bench/run-strings.sh.
# Map<K, V> (LANGUAGE.md §9) is measured beside a hand-written C hash table,
# Go's map and Python's dict by bench/run-maps.sh (bench/maps/).
# Sequential code beside C (eight classic programs, start-up, executable
# size, compile time of a large generated program) is measured by
# bench/run-seq.sh (bench/seq/).
# What generic code costs the compiler (LANGUAGE.md §11) is measured by
# bench/run-generics.sh: a program with 3,000 instantiations written by
# bench/gen-generics.sh, beside the same program with every instance
# written out by hand, at --check, -O0 and -O2.
# The language server's completion is measured by bench/run-completion.sh:
# bench/completion/replay.py replays the programs of tests/run, examples
# and bench through mosaic-lsp over JSON-RPC, asking for completions
# before every identifier that is not being declared, and tabulates how
# often the name written comes first and in the first five, the latency
# and the server's peak memory.
# See bench/README.md.

EXTRA_DIST += bench/README.md bench/run-actors.sh bench/.gitignore
EXTRA_DIST += bench/lib.sh bench/run-remote.sh bench/gen-large.sh
EXTRA_DIST += bench/remote/fields.mos \
	bench/remote/local_sum.mos \
	bench/remote/methods.mos \
	bench/remote/actor_array.mos
EXTRA_DIST += bench/run-tune.sh
EXTRA_DIST += bench/run-layouts.sh bench/layouts/common.h \
	bench/layouts/particle.mos bench/layouts/particle_objects.mos \
	bench/layouts/particle.c \
	bench/layouts/nbody.mos bench/layouts/nbody_objects.mos \
	bench/layouts/nbody.c \
	bench/layouts/column.mos bench/layouts/column_objects.mos \
	bench/layouts/column.c
EXTRA_DIST += bench/savina/startup.mos \
	bench/savina/pingpong.mos \
	bench/savina/counting.mos \
	bench/savina/threadring.mos \
	bench/savina/fjthrput.mos \
	bench/savina/fib.mos \
	bench/savina/chameneos.mos \
	bench/savina/big.mos
EXTRA_DIST += bench/savina/caf/startup.cpp \
	bench/savina/caf/pingpong.cpp \
	bench/savina/caf/counting.cpp \
	bench/savina/caf/threadring.cpp \
	bench/savina/caf/fjthrput.cpp \
	bench/savina/caf/fib.cpp \
	bench/savina/caf/chameneos.cpp \
	bench/savina/caf/big.cpp
EXTRA_DIST += bench/savina/erlang/startup.erl \
	bench/savina/erlang/pingpong.erl \
	bench/savina/erlang/counting.erl \
	bench/savina/erlang/threadring.erl \
	bench/savina/erlang/fjthrput.erl \
	bench/savina/erlang/fib.erl \
	bench/savina/erlang/chameneos.erl \
	bench/savina/erlang/big.erl

.PHONY: bench bench-actors bench-remote bench-layouts bench-tune bench-frontend \
	bench-generics bench-waiting bench-strings bench-maps bench-seq \
	bench-calls bench-completion bench-clean
# One benchmark after the other, even under `make -j`: two at once would
# share the cores and spoil both tables.
bench: all
	$(MAKE) $(AM_MAKEFLAGS) bench-actors
	$(MAKE) $(AM_MAKEFLAGS) bench-remote
	$(MAKE) $(AM_MAKEFLAGS) bench-layouts
	$(MAKE) $(AM_MAKEFLAGS) bench-tune
	$(MAKE) $(AM_MAKEFLAGS) bench-frontend
	$(MAKE) $(AM_MAKEFLAGS) bench-generics
	$(MAKE) $(AM_MAKEFLAGS) bench-waiting
	$(MAKE) $(AM_MAKEFLAGS) bench-strings
	$(MAKE) $(AM_MAKEFLAGS) bench-maps
	$(MAKE) $(AM_MAKEFLAGS) bench-seq
	$(MAKE) $(AM_MAKEFLAGS) bench-calls
	$(MAKE) $(AM_MAKEFLAGS) bench-completion
	$(SHELL) $(srcdir)/bench/run-distributed.sh ./mosaicc$(EXEEXT)

bench-actors: all
	$(SHELL) $(srcdir)/bench/run-actors.sh ./mosaicc$(EXEEXT)

bench-remote: all
	$(SHELL) $(srcdir)/bench/run-remote.sh ./mosaicc$(EXEEXT)

bench-layouts: all
	$(SHELL) $(srcdir)/bench/run-layouts.sh ./mosaicc$(EXEEXT)

bench-tune: all
	$(SHELL) $(srcdir)/bench/run-tune.sh ./mosaicc$(EXEEXT)

bench-frontend: all
	$(SHELL) $(srcdir)/bench/run-frontend.sh ./mosaicc$(EXEEXT)

bench-generics: all
	$(SHELL) $(srcdir)/bench/run-generics.sh ./mosaicc$(EXEEXT)

bench-waiting: all
	$(SHELL) $(srcdir)/bench/run-waiting.sh ./mosaicc$(EXEEXT)

bench-strings: all
	$(SHELL) $(srcdir)/bench/run-strings.sh ./mosaicc$(EXEEXT)

bench-maps: all
	$(SHELL) $(srcdir)/bench/run-maps.sh ./mosaicc$(EXEEXT)

bench-seq: all
	$(SHELL) $(srcdir)/bench/run-seq.sh ./mosaicc$(EXEEXT)

bench-calls: all
	$(SHELL) $(srcdir)/bench/run-calls.sh ./mosaicc$(EXEEXT)

bench-completion: all
	$(SHELL) $(srcdir)/bench/run-completion.sh ./mosaic-lsp$(EXEEXT)

bench-clean:
	rm -rf bench/work
EXTRA_DIST += bench/run-frontend.sh
EXTRA_DIST += bench/run-generics.sh bench/gen-generics.sh
EXTRA_DIST += bench/run-waiting.sh bench/waiting/chain.mos \
	bench/waiting/roundtrip.mos bench/waiting/deep.mos
EXTRA_DIST += bench/run-strings.sh bench/strings/append.mos \
	bench/strings/append.c bench/strings/append.py
EXTRA_DIST += bench/run-maps.sh bench/maps/gen_text.c \
	bench/maps/wordfreq.mos bench/maps/wordfreq.c \
	bench/maps/wordfreq.go bench/maps/wordfreq.py \
	bench/maps/intkeys.mos bench/maps/intkeys.c \
	bench/maps/intkeys.go bench/maps/intkeys.py
EXTRA_DIST += bench/run-seq.sh bench/seq/gen-large-c.sh \
	bench/seq/nbody.mos bench/seq/nbody.c \
	bench/seq/spectralnorm.mos bench/seq/spectralnorm.c \
	bench/seq/fannkuchredux.mos bench/seq/fannkuchredux.c \
	bench/seq/binarytrees.mos bench/seq/binarytrees.c \
	bench/seq/mandelbrot.mos bench/seq/mandelbrot.c \
	bench/seq/sieve.mos bench/seq/sieve.c \
	bench/seq/strings.mos bench/seq/strings.c \
	bench/seq/richards.mos bench/seq/richards.c \
	bench/seq/fib.mos bench/seq/fib.c \
	bench/seq/hello.mos bench/seq/hello.c
EXTRA_DIST += bench/run-completion.sh bench/completion/replay.py
EXTRA_DIST += bench/run-calls.sh bench/calls/fib_costs.c
