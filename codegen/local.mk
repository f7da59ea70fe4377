# codegen/local.mk — the code generator (LLVM C API).  LLVM's flags reach
# these files through AM_CPPFLAGS ($(LLVM_CPPFLAGS)) and mosaicc's link
# through mosaicc_LDFLAGS/LDADD, both set in the top-level Makefile.am.
mosaicc_SOURCES += \
	codegen/codegen.h codegen/cg_internal.h \
	codegen/module.c \
	codegen/map.c \
	codegen/maps.c \
	codegen/emit.c \
	codegen/expr.c \
	codegen/builtins.c \
	codegen/stmt.c \
	codegen/class.c \
	codegen/actor.c \
	codegen/checks.c \
	codegen/confine.c \
	codegen/access.c \
	codegen/places.c \
	codegen/reach.c \
	codegen/pool.c \
	codegen/remote.c \
	codegen/debug.c \
	codegen/debug_types.c \
	codegen/frames.c
