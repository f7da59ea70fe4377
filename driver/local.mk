# driver/local.mk — mosaicc's main: options, the pipeline, linking, --run.
mosaicc_SOURCES += \
	driver/main.c driver/driver.h \
	driver/options.c \
	driver/link.c
