/* driver.h — the pieces of mosaicc's main, shared between driver/ files.
 *
 * options.c turns argv into a DriverOptions (or a usage error), link.c
 * finds the runtime, runs the C compiler to link, runs programs and keeps
 * the temporary directory, main.c runs the pipeline (LANGUAGE.md §7):
 *
 *   read → src_add → parse_program → tc_check_program → eff_analyse
 *     → cg_compile → link
 *
 * Exit statuses: 0 success, 1 the program has errors (or could not be
 * compiled or linked), 2 bad usage or unreadable input, or a file that
 * could not be written; with --run, the program's own status (128 + N when
 * it was killed by signal N).
 */
#ifndef MOSAIC_DRIVER_H
#define MOSAIC_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include "typecheck/types.h"
#include "support/vec.h"

enum {
    EXIT_OK = 0,
    EXIT_ERRORS = 1,    /* the program has errors */
    EXIT_USAGE = 2,     /* bad usage, unreadable input, I/O failure */
};

/* What mosaicc makes of the input: exactly one per run. */
typedef enum DriverMode {
    MODE_EXECUTABLE,    /* default: a linked program */
    MODE_OBJECT,        /* -c */
    MODE_ASSEMBLY,      /* -S */
    MODE_LLVM_IR,       /* --emit=llvm */
    MODE_CHECK,         /* --check */
    MODE_RUN,           /* --run */
    MODE_EFFECTS,       /* --effects: the effect report */
    MODE_LAYOUTS,       /* --layouts: the layout report (LANGUAGE.md §6) */
    MODE_LAYOUT_ADVICE, /* --layout-advice: the report, then the advisor */
    MODE_DUMP_AST,      /* --dump-ast: the parser's tree, for debugging */
    MODE_TUNE,          /* --tune-layouts: measure the candidate layouts (tune.c) */
    MODE_DRAW,          /* --draw=topology|layouts: a picture (draw.c) */
    MODE_FORMAT,        /* --format: the canonical layout (parser/format.c) */
} DriverMode;

/* A --layout N=SPEC or a --layout-file FILE, in command-line order. */
typedef struct DriverLayoutArg {
    const char *value;          /* N=SPEC, or the file's path */
    bool is_file;
} DriverLayoutArg;

typedef struct DriverOptions {
    DriverMode mode;
    const char *mode_flag;      /* the option that chose mode, for messages */
    const char *input;
    const char *output;         /* -o, NULL: derived from input */
    int opt_level;              /* 0..3, default 2 */
    bool debug_info;            /* -g */
    bool no_checks;             /* --no-checks */
    bool count_remote;          /* --count-remote */
    const char *count_remote_file;  /* --count-remote=FILE: the report there too */
    bool distributed;           /* --distributed: nodes are MPI ranks */
    DriverLayoutArg *layouts;   /* --layout N=SPEC and --layout-file FILE, in order
                                   (checked and applied by typecheck/layouts.c) */
    size_t nlayouts;
    char **run_args;            /* --run, --tune-layouts: the program's arguments */
    int nrun_args;
    int tune_runs;              /* --runs K: runs per candidate (default 3) */
    double tune_timeout;        /* --tune-timeout S: seconds per run (default 60) */
    const char *tune_out;       /* --tune-out FILE: the winners as a layout file */
    const char *tune_flag;      /* the last tuning option given, for messages */
    const char *draw;           /* --draw=KIND: "topology" or "layouts" */
    bool format_check;          /* --format --check: say whether it would change */
    const char *draw_counts;    /* --counts FILE: a --count-remote report */
} DriverOptions;

/* Parses the command line.  Returns EXIT_OK with *opts filled, or the
 * status to exit with at once: --help and --version print and return
 * "done" (-1 then *status is 0), usage errors print and return 2. */
#define DRIVER_DONE (-1)
int driver_parse_options(int argc, char **argv, DriverOptions *opts);
/* Layout files (layout_file.c): reads FILE's overrides into out, each
 * with its place in the file (E0402 for a line that is not NAME = SPEC);
 * false, after a message, when the file cannot be read. */
typedef VEC(TcLayoutOverride) LayoutOverrideVec;

/* --draw (draw.c), on a checked program: the status to exit with. */
int driver_draw(const DriverOptions *o, const Program *program);

/* --tune-layouts (tune.c), on a checked program: the status to exit with. */
int driver_tune_layouts(const DriverOptions *o, const Program *program);
bool driver_read_layout_file(const char *path, LayoutOverrideVec *out);

void driver_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A private temporary directory, made on first use and removed, with
 * everything in it, at exit.  Returns a path inside it (arena string), or
 * NULL after printing why. */
const char *driver_temp_path(const char *name);

/* Links `object` with the runtime into the executable `output`.  Returns
 * an exit status (0 on success, after printing why otherwise). */
int driver_link(const char *object, const char *output, bool debug_info, bool distributed);
/* Whether this mosaicc can link --distributed programs; if not, says why
 * on stderr. */
bool driver_can_distribute(void);

/* The absolute path of the gdb pretty-printers (stdlib/mosaic-gdb.py)
 * beside the in-tree ./mosaicc, else where `make install` put them; NULL
 * when neither exists. */
const char *driver_gdb_script(void);

/* Runs `exe` with `args` (argv[0] is exe), waits, and returns its exit
 * status, or 128 + N if signal N killed it. */
int driver_run(const char *exe, char **args, int nargs);

/* Copies a file to stdout (for `-o -`).  Returns an exit status. */
int driver_copy_to_stdout(const char *path);

#endif
