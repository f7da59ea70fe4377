/* options.c — mosaicc's command line (LANGUAGE.md §7).
 *
 *   mosaicc [options] FILE.mos
 *   mosaicc [options] --run FILE.mos [ARGS...]
 *
 * Options may come before or after the file, except with --run: once both
 * --run and the file have been seen, every later argument belongs to the
 * program (so `mosaicc --run prog.mos -O0` passes "-O0" to prog).  `--`
 * ends the options: the next argument is the file.
 *
 * The output kinds (-c, -S, --emit=llvm, --check, --run, --effects,
 * --layouts, --layout-advice, --dump-ast) exclude each other; giving two different ones is a
 * usage error rather than a silent "last one wins", since either reading
 * could be what the user meant.  Bad usage prints one line and a hint and
 * returns status 2; it never reads the input.
 *
 * `--explain CODE` prints the page of an error code (explain.c) instead of
 * compiling: like --help it wins over the rest of the line, whose input
 * file and options are ignored, as rustc --explain ignores them.
 */
#include "driver.h"
#include "explain.h"
#include "support/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif
#ifndef MOSAIC_LLVM_VERSION
#define MOSAIC_LLVM_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: mosaicc [options] FILE.mos\n"
    "       mosaicc [options] --run FILE.mos [ARGS...]\n"
    "\n"
    "Compiles a Mosaic program to a native executable (default: FILE without .mos).\n"
    "\n"
    "options:\n"
    "  -o FILE           write the output to FILE ('-' for stdout with -S,\n"
    "                    --emit=llvm or -c)\n"
    "  -c                compile to an object file (FILE.o)\n"
    "  -S                compile to assembly (FILE.s)\n"
    "  --emit=llvm       write LLVM IR text (FILE.ll)\n"
    "  --check           parse and type-check only; write nothing\n"
    "  --run [ARGS...]   compile to a temporary executable and run it with ARGS;\n"
    "                    exits with the program's status\n"
    "  -O0 -O1 -O2 -O3   optimisation level (default -O2)\n"
    "  -g                emit debug information\n"
    "  --no-checks       omit null and bounds checks (unsafe; for measurement)\n"
    "  --layout N=SPEC   override the layout of pool or layout N (repeatable)\n"
    "  --layout-file F   read such overrides from F, one NAME = SPEC per line\n"
    "  --format          print the file in the canonical layout; with --check,\n"
    "                    exit 1 (printing nothing) if it is not in it\n"
    "  --draw=KIND       draw the topology (nodes, actors, pools, effects) or the\n"
    "                    layouts (each pool's clusters) as DOT, or with Graphviz\n"
    "                    as -o FILE.svg/.png/.pdf\n"
    "  --counts FILE     with --draw=topology: a --count-remote report to add\n"
    "  --tune-layouts [ARGS...]  build and time the program under each candidate\n"
    "                    layout of each pool, with ARGS and standard input\n"
    "  --runs K          runs per candidate for --tune-layouts (default 3)\n"
    "  --tune-out FILE   write the fastest layouts as a layout file\n"
    "  --tune-timeout S  stop a run after S seconds (default 60)\n"
    "  --effects         print the effect report and stop\n"
    "  --layouts         print the pool layout report and stop\n"
    "  --layout-advice   print the layout report, then the layout advisor's\n"
    "                    view of every loop over a pool, and stop\n"
    "  --count-remote    count remote accesses at run time and report them at exit\n"
    "  --count-remote=F  the same, and write the report to F too (for --counts)\n"
    "  --distributed     build for MPI: node k is rank k of 'mpirun -np N'\n"
    "  --error-limit=N   stop after N errors (default 100; 0: no limit)\n"
    "  --color=WHEN      colour diagnostics: auto (on a terminal, without\n"
    "                    NO_COLOR), always or never\n"
    "  --error-format=F  diagnostics as human text (default), json (one object\n"
    "                    per line) or sarif (one SARIF 2.1.0 log at the end)\n"
    "  -w                report no warnings\n"
    "  -Wno-NAME, -WNAME turn warning NAME (or its code, W0001) off or on\n"
    "  -Werror[=NAME]    make every warning (or warning NAME) an error\n"
    "  --dump-ast        print the syntax tree and stop (for debugging)\n"
    "  --explain CODE    print what error CODE (such as E0300) means, with an\n"
    "                    example, and exit; the rest of the line is ignored\n"
    "  --version         print the version and exit\n"
    "  --help            print this help and exit\n"
    "\n"
    "exit status: 0 success, 1 the program has errors, 2 bad usage or\n"
    "unreadable input; with --run, the program's own exit status.\n"
    "\n"
    "environment: MOSAIC_CC (the C compiler used to link),\n"
    "MOSAIC_RUNTIME_DIR (the directory holding libmosaicrt.a),\n"
    "NO_COLOR (set and not empty: no colour with --color=auto).\n";

void driver_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mosaicc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'mosaicc --help' for more information\n", stderr);
    va_end(ap);
}

/* Records the output kind chosen by `flag`; two different kinds are an
 * error.  Returns false after reporting it. */
static bool set_mode(DriverOptions *o, DriverMode mode, const char *flag)
{
    if (o->mode_flag && o->mode != mode) {
        driver_usage_error("'%s' and '%s' cannot be used together", o->mode_flag, flag);
        return false;
    }
    o->mode = mode;
    o->mode_flag = flag;
    return true;
}

/* Options that take a value accept it attached (-oFILE, --layout=N=S) or
 * as the next argument.  Returns the value, or NULL after reporting it
 * missing; *i moves past a separate value. */
static const char *option_value(int argc, char **argv, int *i, const char *arg,
                                const char *name)
{
    size_t n = strlen(name);
    if (arg[n] == '=' && name[1] == '-') return arg + n + 1;    /* --opt=v */
    if (arg[n] != '\0' && name[1] != '-') return arg + n;       /* -ov */
    if (*i + 1 >= argc) {
        driver_usage_error("option '%s' needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* --explain CODE, given `n` times: the page, or a usage error. */
static int explain_code(const char *code, int n)
{
    if (n > 1) {
        driver_usage_error("'--explain' takes one error code; give it once");
        return EXIT_USAGE;
    }
    if (!*code) {
        driver_usage_error("option '--explain' needs an error code, such as E0300");
        return EXIT_USAGE;
    }
    return driver_explain(code) ? DRIVER_DONE : EXIT_USAGE;
}

/* --NAME=VALUE where VALUE is one of `names` (NULL-terminated): its index,
 * or -1 after saying which values there are. */
static int option_choice(const char *arg, const char *name, const char *const *names)
{
    const char *v = arg[strlen(name)] == '=' ? arg + strlen(name) + 1 : NULL;
    for (int i = 0; v && names[i]; i++)
        if (strcmp(v, names[i]) == 0) return i;
    char valid[128] = "";
    for (int i = 0; names[i]; i++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
                 i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
    if (v)
        driver_usage_error("invalid value '%s' for '%s' (use %s)", v, name, valid);
    else
        driver_usage_error("option '%s' needs a value: %s=%s", name, name, valid);
    return -1;
}

/* How diagnostics look (support/diag.h): the option's values in the order
 * of DiagColor. */
static bool diag_color_option(const char *a)
{
    static const char *const when[] = {"auto", "always", "never", NULL};
    const char *name = starts_with(a, "--colour") ? "--colour" : "--color";
    int i = option_choice(a, name, when);
    if (i < 0) return false;
    diag_set_color((DiagColor)i);
    return true;
}

/* The values in the order of DiagFormat. */
static bool diag_format_option(const char *a)
{
    static const char *const formats[] = {"human", "json", "sarif", NULL};
    int i = option_choice(a, "--error-format", formats);
    if (i < 0) return false;
    diag_set_format((DiagFormat)i);
    return true;
}

/* -w (no warnings), -Werror (all are errors), -Werror=NAME, -Wno-NAME,
 * -WNAME (back on), -Wall (all on): applied in order, so the last word on
 * a warning wins, as with cc.  NAME is a warning's name or its code. */
static bool warning_option(const char *a)
{
    const char *name = NULL;
    DiagWarnLevel level = DIAG_WARN_ON;
    if (strcmp(a, "-w") == 0) {
        level = DIAG_WARN_OFF;
    } else if (strcmp(a, "-Werror") == 0) {
        level = DIAG_WARN_ERROR;
    } else if (starts_with(a, "-Werror=")) {
        name = a + 8;
        level = DIAG_WARN_ERROR;
    } else if (starts_with(a, "-Wno-")) {
        name = a + 5;
        level = DIAG_WARN_OFF;
    } else if (strcmp(a, "-Wall") != 0) {
        name = a + 2;
    }
    if (name && (!*name || !diag_set_warning_level(name, level))) {
        driver_usage_error("unknown warning '%s' in '%s' (the warnings: %s)", name, a,
                           diag_warning_names());
        return false;
    }
    if (!name)
        diag_set_warning_level(NULL, level);
    return true;
}

int driver_parse_options(int argc, char **argv, DriverOptions *o)
{
    memset(o, 0, sizeof *o);
    o->mode = MODE_EXECUTABLE;
    o->opt_level = 2;
    o->tune_runs = 3;
    o->tune_timeout = 60;
    o->layouts = arena_alloc((size_t)(argc > 0 ? argc : 1) * sizeof *o->layouts);
    bool options_done = false;

    /* --help and --version win over anything else on the line, even
     * errors, as users expect of them; --explain over the rest. */
    bool seen_run = false;
    const char *explain = NULL;
    int nexplain = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) break;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--layout") == 0 ||
            strcmp(a, "--layout-file") == 0 || strcmp(a, "--runs") == 0 ||
            strcmp(a, "--draw") == 0 || strcmp(a, "--counts") == 0 ||
            strcmp(a, "--tune-out") == 0 || strcmp(a, "--tune-timeout") == 0) {
            i++;                /* skip the option's value */
            continue;
        }
        if (strcmp(a, "--run") == 0 || strcmp(a, "--tune-layouts") == 0) seen_run = true;
        if (a[0] != '-' && seen_run) break;     /* the program's arguments follow */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return DRIVER_DONE;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("mosaicc %s (LLVM %s)\n", PACKAGE_VERSION, MOSAIC_LLVM_VERSION);
            return DRIVER_DONE;
        }
        if (strcmp(a, "--explain") == 0 || starts_with(a, "--explain=")) {
            explain = option_value(argc, argv, &i, a, "--explain");
            if (!explain) return EXIT_USAGE;
            nexplain++;
        }
    }
    if (explain) return explain_code(explain, nexplain);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if ((o->mode == MODE_RUN || o->mode == MODE_TUNE) && o->input) {
            /* Everything after `--run FILE` is the program's. */
            o->run_args = argv + i;
            o->nrun_args = argc - i;
            break;
        }
        if (options_done || a[0] != '-' || strcmp(a, "-") == 0) {
            if (strcmp(a, "-") == 0) {
                driver_usage_error("reading a program from standard input is not supported");
                return EXIT_USAGE;
            }
            if (o->input) {
                driver_usage_error("more than one input file ('%s' and '%s')", o->input, a);
                return EXIT_USAGE;
            }
            o->input = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_done = true;
        } else if (starts_with(a, "-o")) {
            const char *v = option_value(argc, argv, &i, a, "-o");
            if (!v) return EXIT_USAGE;
            if (!*v) {
                driver_usage_error("option '-o' needs a file name");
                return EXIT_USAGE;
            }
            o->output = v;
        } else if (strcmp(a, "-c") == 0) {
            if (!set_mode(o, MODE_OBJECT, "-c")) return EXIT_USAGE;
        } else if (strcmp(a, "-S") == 0) {
            if (!set_mode(o, MODE_ASSEMBLY, "-S")) return EXIT_USAGE;
        } else if (strcmp(a, "--emit=llvm") == 0) {
            if (!set_mode(o, MODE_LLVM_IR, "--emit=llvm")) return EXIT_USAGE;
        } else if (starts_with(a, "--emit")) {
            driver_usage_error("unknown output kind in '%s' (only --emit=llvm is known)", a);
            return EXIT_USAGE;
        } else if (strcmp(a, "--check") == 0) {
            if (o->mode == MODE_FORMAT)
                o->format_check = true;     /* --format --check */
            else if (!set_mode(o, MODE_CHECK, "--check"))
                return EXIT_USAGE;
        } else if (strcmp(a, "--run") == 0) {
            if (!set_mode(o, MODE_RUN, "--run")) return EXIT_USAGE;
        } else if (strcmp(a, "--format") == 0) {
            if (o->mode == MODE_CHECK) {    /* --check --format */
                o->mode_flag = NULL;
                o->format_check = true;
            }
            if (!set_mode(o, MODE_FORMAT, "--format")) return EXIT_USAGE;
        } else if (strcmp(a, "--draw") == 0 || starts_with(a, "--draw=")) {
            const char *v = option_value(argc, argv, &i, a, "--draw");
            if (!v) return EXIT_USAGE;
            if (strcmp(v, "topology") != 0 && strcmp(v, "layouts") != 0) {
                driver_usage_error("unknown drawing '%s' (--draw=topology or --draw=layouts)", v);
                return EXIT_USAGE;
            }
            if (!set_mode(o, MODE_DRAW, "--draw")) return EXIT_USAGE;
            o->draw = v;
        } else if (strcmp(a, "--counts") == 0 || starts_with(a, "--counts=")) {
            const char *v = option_value(argc, argv, &i, a, "--counts");
            if (!v) return EXIT_USAGE;
            o->draw_counts = v;
        } else if (strcmp(a, "--tune-layouts") == 0) {
            if (!set_mode(o, MODE_TUNE, "--tune-layouts")) return EXIT_USAGE;
        } else if (strcmp(a, "--runs") == 0 || starts_with(a, "--runs=")) {
            const char *v = option_value(argc, argv, &i, a, "--runs");
            if (!v) return EXIT_USAGE;
            char *end;
            long k = strtol(v, &end, 10);
            if (!*v || *end || k < 1 || k > 1000) {
                driver_usage_error("invalid number of runs '%s' (1 to 1000)", v);
                return EXIT_USAGE;
            }
            o->tune_runs = (int)k;
            o->tune_flag = "--runs";
        } else if (strcmp(a, "--tune-timeout") == 0 || starts_with(a, "--tune-timeout=")) {
            const char *v = option_value(argc, argv, &i, a, "--tune-timeout");
            if (!v) return EXIT_USAGE;
            char *end;
            double t = strtod(v, &end);
            if (!*v || *end || !(t > 0 && t <= 86400)) {
                driver_usage_error("invalid time limit '%s' (seconds, above 0)", v);
                return EXIT_USAGE;
            }
            o->tune_timeout = t;
            o->tune_flag = "--tune-timeout";
        } else if (strcmp(a, "--tune-out") == 0 || starts_with(a, "--tune-out=")) {
            const char *v = option_value(argc, argv, &i, a, "--tune-out");
            if (!v) return EXIT_USAGE;
            if (!*v) {
                driver_usage_error("option '--tune-out' needs a file name");
                return EXIT_USAGE;
            }
            o->tune_out = v;
            o->tune_flag = "--tune-out";
        } else if (strcmp(a, "--effects") == 0) {
            if (!set_mode(o, MODE_EFFECTS, "--effects")) return EXIT_USAGE;
        } else if (strcmp(a, "--layouts") == 0) {
            if (!set_mode(o, MODE_LAYOUTS, "--layouts")) return EXIT_USAGE;
        } else if (strcmp(a, "--layout-advice") == 0) {
            if (!set_mode(o, MODE_LAYOUT_ADVICE, "--layout-advice")) return EXIT_USAGE;
        } else if (strcmp(a, "--dump-ast") == 0) {
            if (!set_mode(o, MODE_DUMP_AST, "--dump-ast")) return EXIT_USAGE;
        } else if (starts_with(a, "-O")) {
            if (a[2] == '\0') {
                o->opt_level = 2;       /* -O alone: the default level */
            } else if (a[2] >= '0' && a[2] <= '3' && a[3] == '\0') {
                o->opt_level = a[2] - '0';
            } else {
                driver_usage_error("invalid optimisation level '%s' (use -O0, -O1, -O2 or -O3)", a);
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "-g") == 0) {
            o->debug_info = true;
        } else if (strcmp(a, "--no-checks") == 0) {
            o->no_checks = true;
        } else if (starts_with(a, "--count-remote=")) {
            if (!a[15]) {
                driver_usage_error("option '--count-remote=' needs a file name");
                return EXIT_USAGE;
            }
            o->count_remote = true;
            o->count_remote_file = a + 15;
        } else if (strcmp(a, "--count-remote") == 0) {
            o->count_remote = true;
        } else if (strcmp(a, "--distributed") == 0) {
            o->distributed = true;
        } else if (strcmp(a, "--color") == 0 || starts_with(a, "--color=") ||
                   strcmp(a, "--colour") == 0 || starts_with(a, "--colour=")) {
            if (!diag_color_option(a)) return EXIT_USAGE;
        } else if (strcmp(a, "--error-format") == 0 || starts_with(a, "--error-format=")) {
            if (!diag_format_option(a)) return EXIT_USAGE;
        } else if (strcmp(a, "-w") == 0 || starts_with(a, "-W")) {
            if (!warning_option(a)) return EXIT_USAGE;
        } else if (starts_with(a, "--error-limit=")) {
            char *end;
            long n = strtol(a + 14, &end, 10);
            if (!a[14] || *end || n < 0 || n > 1000000) {
                driver_usage_error("invalid error limit '%s' (a number of errors, 0 for none)",
                                   a + 14);
                return EXIT_USAGE;
            }
            diag_set_error_limit((int)n);
        } else if (strcmp(a, "--layout") == 0 || starts_with(a, "--layout=")) {
            const char *v = option_value(argc, argv, &i, a, "--layout");
            if (!v) return EXIT_USAGE;
            o->layouts[o->nlayouts++] = (DriverLayoutArg){v, false};
        } else if (strcmp(a, "--layout-file") == 0 || starts_with(a, "--layout-file=")) {
            const char *v = option_value(argc, argv, &i, a, "--layout-file");
            if (!v) return EXIT_USAGE;
            o->layouts[o->nlayouts++] = (DriverLayoutArg){v, true};
        } else {
            driver_usage_error("unknown option '%s'", a);
            return EXIT_USAGE;
        }
    }

    if (!o->input) {
        driver_usage_error("no input file");
        return EXIT_USAGE;
    }
    if (o->draw_counts && (o->mode != MODE_DRAW || strcmp(o->draw, "topology") != 0)) {
        driver_usage_error("'--counts' is an option of '--draw=topology'");
        return EXIT_USAGE;
    }
    if (o->tune_flag && o->mode != MODE_TUNE) {
        driver_usage_error("'%s' is an option of '--tune-layouts'", o->tune_flag);
        return EXIT_USAGE;
    }
    if (o->output && (o->mode == MODE_CHECK || o->mode == MODE_RUN ||
                      o->mode == MODE_EFFECTS || o->mode == MODE_LAYOUTS ||
                      o->mode == MODE_LAYOUT_ADVICE || o->mode == MODE_TUNE ||
                      o->mode == MODE_FORMAT ||
                      o->mode == MODE_DUMP_AST)) {
        driver_usage_error("'-o' cannot be used with '%s', which writes no file", o->mode_flag);
        return EXIT_USAGE;
    }
    if (o->output && strcmp(o->output, "-") == 0 && o->mode == MODE_EXECUTABLE) {
        driver_usage_error("an executable cannot be written to standard output");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}
