# driver/local.mk — mosaicc's main: options, the pipeline, linking, --run.
mosaicc_SOURCES += \
	driver/main.c driver/driver.h \
	driver/options.c \
	driver/link.c

# driver/paths.h: the installed runtime's directory and the gdb printers'
# (stdlib/local.mk), rewritten whenever the Makefile changes (a new
# ./configure) but replaced only when its text does, so that a changed
# --prefix rebuilds link.c and nothing else.
BUILT_SOURCES += driver/paths.h
CLEANFILES += driver/paths.h
driver/paths.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) driver && \
	{ echo '#define MOSAIC_LIBDIR "$(libdir)"'; \
	  echo '#define MOSAIC_GDBDIR "$(gdbscriptdir)"'; } >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
$(mosaicc_OBJECTS): driver/paths.h parser/parse.h
