# support/local.mk — diagnostics, source files, arena, interning, vectors.
mosaicc_SOURCES += \
	support/diag.c support/diag.h support/diag_internal.h support/diag_json.c \
	support/errors.def \
	support/arena.c support/arena.h support/big_stack.c support/big_stack.h \
	support/vec.h support/assert.h
