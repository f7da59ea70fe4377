# driver/local.mk — mosaicc's main: options, the pipeline, linking, --run.
mosaicc_SOURCES += \
	driver/main.c driver/driver.h \
	driver/options.c driver/layout_file.c driver/tune.c driver/draw.c \
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

# mosaicc --explain CODE: a page per error code, written in docs/errors and
# compiled into the binary as the table of driver/explain_pages.c, which
# driver/explain_pages.awk writes (POSIX awk, no xxd).  A new code in
# support/errors.def needs its page here; tests/driver/explain.sh checks
# that the pages and the table of codes agree.
ERROR_PAGES = \
	docs/errors/E0001.md docs/errors/E0002.md \
	docs/errors/E0100.md docs/errors/E0101.md docs/errors/E0102.md \
	docs/errors/E0103.md docs/errors/E0104.md \
	docs/errors/E0200.md docs/errors/E0201.md docs/errors/E0202.md \
	docs/errors/E0203.md docs/errors/E0204.md docs/errors/E0205.md \
	docs/errors/E0206.md docs/errors/E0207.md \
	docs/errors/E0300.md docs/errors/E0301.md docs/errors/E0302.md \
	docs/errors/E0303.md \
	docs/errors/E0400.md docs/errors/E0401.md docs/errors/E0402.md \
	docs/errors/E0900.md \
	docs/errors/W0001.md docs/errors/W0002.md docs/errors/W0003.md \
	docs/errors/W0004.md docs/errors/W0005.md docs/errors/W0006.md
mosaicc_SOURCES += driver/explain.c driver/explain.h
nodist_mosaicc_SOURCES = driver/explain_pages.c
CLEANFILES += driver/explain_pages.c
EXTRA_DIST += driver/explain_pages.awk docs/errors/README.md $(ERROR_PAGES)
driver/explain_pages.c: $(ERROR_PAGES) driver/explain_pages.awk
	$(AM_V_GEN)$(MKDIR_P) driver && \
	LC_ALL=C $(AWK) -f $(srcdir)/driver/explain_pages.awk \
	    $(addprefix $(srcdir)/,$(ERROR_PAGES)) >$@.tmp && \
	mv -f $@.tmp $@
