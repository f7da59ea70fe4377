# typecheck/local.mk — the type checker: names, types, classes, main.
mosaicc_SOURCES += \
	typecheck/types.h typecheck/types.c typecheck/builtins.def \
	typecheck/places.h typecheck/places.c typecheck/generics.h typecheck/generics.c \
	typecheck/effects.h typecheck/effects.c \
	typecheck/layouts.h typecheck/layouts.c typecheck/advisor.c \
	typecheck/check.h typecheck/scope.c typecheck/check_type.c \
	typecheck/check_decl.c typecheck/check_stmt.c typecheck/check_expr.c \
	typecheck/check_call.c typecheck/flow.c typecheck/warn.c \
	typecheck/record.h typecheck/record.c
