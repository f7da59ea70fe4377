/* main.c — mosaicc: the pipeline from a .mos file to what was asked for.
 *
 *   read the file → src_add → parse_program → tc_check_program
 *     → eff_analyse (→ --effects: the report) → cg_compile (object, assembly or LLVM IR) → link with libmosaicrt
 *     → (--run) run it
 *
 * Each phase reports its own errors through support/diag; the driver only
 * looks at the count between phases and stops after the first phase with
 * errors (a checker fed a broken tree would only add confusion).  The
 * driver's own messages ("mosaicc: error: ...") are about the command line
 * and files, not the program.
 *
 * Never crash: a fatal signal in the compiler itself (a bug) is reported
 * as an internal compiler error before the process dies of it, on an
 * alternate stack so that a runaway recursion is reported too.  (ASSERT
 * failures print their own message and abort; that is not caught again.)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1    /* POSIX and Linux calls under -std=c11 */
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "driver.h"
#include "explain.h"
#include "support/arena.h"
#include "support/big_stack.h"
#include "support/diag.h"
#include "parser/parser.h"
#include "typecheck/types.h"
#include "typecheck/effects.h"
#include "typecheck/layouts.h"
#include "codegen/codegen.h"

/* Largest input accepted: locations are 32-bit byte offsets (diag.h). */
#define MAX_SOURCE_BYTES ((size_t)UINT32_MAX - 1)

static void on_fatal_signal(int sig)
{
    /* Only async-signal-safe calls here. */
    static const char msg[] =
        "mosaicc: internal compiler error: fatal signal (a bug in mosaicc; please report it)\n";
    ssize_t r = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)r;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_crash_handlers(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return;     /* ASan's own report says much more */
#endif
    /* 64 KiB is ample for the handler above (SIGSTKSZ is no longer a
     * constant in recent glibc). */
    static char alt_stack[1 << 16];
    stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {0};
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

/* Reads the whole file into an arena buffer; NULL after reporting. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mosaicc: error: cannot read '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > MAX_SOURCE_BYTES) break;
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf) {
        fprintf(stderr, "mosaicc: error: out of memory reading '%s'\n", path);
        return NULL;
    }
    if (err) {
        fprintf(stderr, "mosaicc: error: cannot read '%s': %s\n", path, strerror(err));
        free(buf);
        return NULL;
    }
    if (n > MAX_SOURCE_BYTES) {
        fprintf(stderr, "mosaicc: error: cannot read '%s': file too large\n", path);
        free(buf);
        return NULL;
    }
    char *text = arena_strndup(buf, n);
    free(buf);
    *len = n;
    return text;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* FILE without .mos, plus `ext`.  An executable from a file that does not
 * end in .mos is FILE.out, so that the source is never overwritten. */
static const char *default_output(const char *input, const char *ext)
{
    size_t len = strlen(input);
    const char *slash = strrchr(input, '/');
    const char *base = slash ? slash + 1 : input;
    if (strcmp(base, ".mos") == 0)      /* nothing before the extension: a.out, a.o ... */
        return arena_printf("%.*sa%s", (int)(base - input), input, *ext ? ext : ".out");
    if (ends_with(input, ".mos")) len -= 4;
    else if (!*ext) ext = ".out";
    return arena_printf("%.*s%s", (int)len, input, ext);
}

/* Refuses an output that would destroy the input (whatever the path's
 * spelling, hard links included) or that cannot be written: a directory,
 * a missing or unwritable directory.  Returns EXIT_OK or EXIT_USAGE after
 * saying why. */
static int check_output(const char *input, const char *out)
{
    struct stat in_st, out_st;
    if (stat(out, &out_st) == 0) {
        if (stat(input, &in_st) == 0 && in_st.st_dev == out_st.st_dev &&
            in_st.st_ino == out_st.st_ino) {
            fprintf(stderr, "mosaicc: error: refusing to write '%s': it is the input file\n",
                    out);
            return EXIT_USAGE;
        }
        if (S_ISDIR(out_st.st_mode)) {
            fprintf(stderr, "mosaicc: error: cannot write '%s': it is a directory\n", out);
            return EXIT_USAGE;
        }
        if (access(out, W_OK) != 0) {
            fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", out, strerror(errno));
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    const char *slash = strrchr(out, '/');
    const char *dir = !slash ? "." : slash == out ? "/" : arena_strndup(out, (size_t)(slash - out));
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", out, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The base name without .mos, for the temporary executable of --run (the
 * name a program sees as its own). */
static const char *program_name(const char *input)
{
    const char *slash = strrchr(input, '/');
    const char *base = slash ? slash + 1 : input;
    size_t len = strlen(base);
    if (ends_with(base, ".mos")) len -= 4;
    if (len == 0) return "program";
    return arena_strndup(base, len);
}

static int compile(const DriverOptions *o, Program *program)
{
    CgOptions cg = {
        .opt_level = o->opt_level,
        .debug_info = o->debug_info,
        .no_checks = o->no_checks,
        .count_remote = o->count_remote,
        .count_remote_file = o->count_remote_file,
        .distributed = o->distributed,
        .source_path = o->input,
        .gdb_script = o->debug_info ? driver_gdb_script() : NULL,
    };

    CgOutput kind;
    const char *ext;
    switch (o->mode) {
    case MODE_ASSEMBLY: kind = CG_OUT_ASSEMBLY; ext = ".s"; break;
    case MODE_LLVM_IR: kind = CG_OUT_LLVM_IR; ext = ".ll"; break;
    case MODE_OBJECT: kind = CG_OUT_OBJECT; ext = ".o"; break;
    default: kind = CG_OUT_OBJECT; ext = ""; break;    /* executable, run */
    }

    if (kind != CG_OUT_OBJECT || o->mode == MODE_OBJECT) {
        const char *out = o->output ? o->output : default_output(o->input, ext);
        if (strcmp(out, "-") != 0 && check_output(o->input, out) != EXIT_OK)
            return EXIT_USAGE;
        if (strcmp(out, "-") == 0) {
            const char *tmp = driver_temp_path(arena_printf("out%s", ext));
            if (!tmp) return EXIT_USAGE;
            if (!cg_compile(program, &cg, kind, tmp)) return EXIT_ERRORS;
            return driver_copy_to_stdout(tmp);
        }
        return cg_compile(program, &cg, kind, out) ? EXIT_OK : EXIT_ERRORS;
    }

    /* An executable: an object in the temporary directory, then a link. */
    if (o->distributed && !driver_can_distribute())
        return EXIT_USAGE;
    if (o->mode != MODE_RUN) {
        const char *exe = o->output ? o->output : default_output(o->input, "");
        if (check_output(o->input, exe) != EXIT_OK)
            return EXIT_USAGE;
    }
    const char *obj = driver_temp_path("program.o");
    if (!obj) return EXIT_USAGE;
    if (!cg_compile(program, &cg, CG_OUT_OBJECT, obj)) return EXIT_ERRORS;
    const char *exe = o->mode == MODE_RUN ? driver_temp_path(program_name(o->input))
                                          : o->output ? o->output
                                                      : default_output(o->input, "");
    if (!exe) return EXIT_USAGE;
    int status = driver_link(obj, exe, o->debug_info, o->distributed);
    if (status != EXIT_OK || o->mode != MODE_RUN) return status;
    diag_finish(EXIT_OK);   /* the compiler's diagnostics end before the program's output */
    return driver_run(exe, o->run_args, o->nrun_args);
}

/* The loop vectoriser's verdicts, by source line (the layout advisor). */
typedef struct Remarks {
    const char *path;
    VEC(int) lines;
    VEC(const char *) notes;
    const char *pending;    /* the first reason given for the loop whose
                               verdict comes next: LLVM gives the reasons
                               first, at the instruction at fault (often
                               in an inlined method, on another line), then
                               a bare "loop not vectorized" at the loop */
} Remarks;

static void keep_remark(void *ctx, const char *text)
{
    Remarks *r = ctx;
    size_t n = strlen(r->path);
    int line = 0, col = 0, used = 0;
    if (strncmp(text, r->path, n) != 0 || sscanf(text + n, ":%d:%d: %n", &line, &col, &used) < 2)
        return;
    const char *msg = text + n + used;
    const char *note = NULL;
    if (strncmp(msg, "vectorized loop", 15) == 0) {
        note = arena_printf("yes %s", msg + 16);
        r->pending = NULL;
    } else if (strncmp(msg, "loop not vectorized", 19) == 0 && msg[19] == ':') {
        note = arena_printf("no (%s)", msg + 21);
        if (!r->pending)
            r->pending = note;
    } else if (strncmp(msg, "loop not vectorized", 19) == 0) {
        note = r->pending ? r->pending : "no";
        r->pending = NULL;
    }
    if (!note)
        return;
    /* a loop inlined in several places has several verdicts: a "yes"
     * wins over a bare "no", a reason over a bare "no" */
    for (size_t i = 0; i < r->lines.len; i++)
        if (r->lines.items[i] == line) {
            if (strcmp(r->notes.items[i], "no") == 0 || note[0] == 'y')
                r->notes.items[i] = note;
            return;
        }
    VEC_PUSH(r->lines, line);
    VEC_PUSH(r->notes, note);
}

static const char *remark_for(void *ctx, int line)
{
    Remarks *r = ctx;
    for (size_t i = 0; i < r->lines.len; i++)
        if (r->lines.items[i] == line)
            return r->notes.items[i];
    return NULL;
}

/* The layout advisor after the layout report, for --layout-advice
 * (--layouts prints the report alone, exactly as LANGUAGE.md §6 gives
 * it): the loops over pools, what they touch, and what the optimiser made
 * of them (the program is compiled as for -O with debug locations, and
 * nothing is written). */
static int advise_layouts(const DriverOptions *o, Program *program)
{
    Remarks r = {.path = o->input};
    CgOptions cg = {
        .opt_level = o->opt_level,
        .debug_info = true,         /* remarks carry the loops' lines */
        .no_checks = o->no_checks,
        .source_path = o->input,
        .remark = keep_remark,
        .remark_ctx = &r,
    };
    if (!cg_compile(program, &cg, CG_OUT_NONE, "-"))
        return EXIT_ERRORS;
    tc_print_layout_advice(stdout, program, o->opt_level, remark_for, &r);
    return EXIT_OK;
}

/* --format: the canonical layout on stdout; with --check, status 1 and a
 * message when the file is not in it (printing nothing else). */
static int format_file(const DriverOptions *o, const char *text, size_t len)
{
    size_t n;
    char *out = fmt_source(text, len, &n);
    int status = EXIT_OK;
    if (o->format_check) {
        if (n != len || memcmp(out, text, n) != 0) {
            fprintf(stderr, "mosaicc: %s is not in the canonical layout (mosaicc --format "
                    "%s prints it)\n", o->input, o->input);
            status = EXIT_ERRORS;
        }
    } else if (fwrite(out, 1, n, stdout) != n || fflush(stdout) != 0) {
        fprintf(stderr, "mosaicc: error: cannot write standard output: %s\n", strerror(errno));
        status = EXIT_USAGE;
    }
    free(out);
    return status;
}

static int run_driver(int argc, char **argv)
{
    DriverOptions o;
    int status = driver_parse_options(argc, argv, &o);
    if (status == DRIVER_DONE) return EXIT_OK;
    if (status != EXIT_OK) return status;


    size_t len = 0;
    char *text = read_file(o.input, &len);
    if (!text) return EXIT_USAGE;
    /* a UTF-8 byte-order mark says nothing a UTF-8 file does not */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    uint32_t file = src_add(o.input, text, len);

    /* --layout N=SPEC: the form is checked here; whether N names a pool
     * or layout of the program and SPEC a valid layout is the checker's
     * business, once layouts are compiled.  A bad one is a program error
     * (E0402, status 1), reported with the rest. */
    LayoutOverrideVec overrides = {0};
    for (size_t i = 0; i < o.nlayouts; i++) {
        const char *v = o.layouts[i].value;
        if (o.layouts[i].is_file) {
            if (!driver_read_layout_file(v, &overrides))
                return EXIT_USAGE;
            continue;
        }
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1])
            diag_error_noloc(DIAG_E0402, "invalid --layout override '%s': expected NAME=SPEC",
                             v);
        VEC_PUSH(overrides, ((TcLayoutOverride){.text = v, .at = LOC_NONE}));
    }

    int override_errors = diag_error_count();   /* checked along with the program */
    Program *program = parse_program(file);
    if (o.mode == MODE_DUMP_AST && program) {
        ast_print(stdout, program);
        fflush(stdout);
    }
    if (!program || diag_error_count() > override_errors) return EXIT_ERRORS;
    if (o.mode == MODE_FORMAT)
        return format_file(&o, text, len);
    if (o.mode == MODE_DUMP_AST) return diag_error_count() > 0 ? EXIT_ERRORS : EXIT_OK;
    /* A bad override is reported with the program's own errors, not
     * instead of them. */
    bool ok = tc_check_program(program, overrides.items, overrides.len);
    if (ok) ok = eff_analyse(program);
    if (!ok || diag_error_count() > 0) return EXIT_ERRORS;
    tc_warn_program(program);
    if (diag_error_count() > 0) return EXIT_ERRORS;    /* -Werror */
    if (o.mode == MODE_CHECK) return EXIT_OK;
    if (o.mode == MODE_EFFECTS) {
        eff_print_report(stdout, program);
        return EXIT_OK;
    }
    if (o.mode == MODE_TUNE)
        return driver_tune_layouts(&o, program);
    if (o.mode == MODE_DRAW)
        return driver_draw(&o, program);
    if (o.mode == MODE_LAYOUTS || o.mode == MODE_LAYOUT_ADVICE) {
        tc_print_layouts(stdout);
        return o.mode == MODE_LAYOUTS ? EXIT_OK : advise_layouts(&o, program);
    }

    return compile(&o, program);
}

/* The phases recurse over the tree (the checker and code generator once
 * per nesting level of an expression), so they run on a thread with a
 * stack sized for AST_MAX_EXPR_DEPTH levels with a wide margin; memory is
 * committed only as it is used.  Falls back to the main thread if the
 * system refuses such a stack. */
#define DRIVER_STACK_SIZE ((size_t)512 << 20)

typedef struct DriverRun {
    int argc;
    char **argv;
    int status;
} DriverRun;

static void *driver_thread(void *arg)
{
    DriverRun *run = arg;
    run->status = run_driver(run->argc, run->argv);
    return NULL;
}

static int run_driver_on_big_stack(int argc, char **argv)
{
    DriverRun run = { argc, argv, EXIT_USAGE };
    run_on_big_stack(driver_thread, &run, DRIVER_STACK_SIZE);
    return run.status;
}

int main(int argc, char **argv)
{
    /* diagnostics go out one at a time (diag.c flushes after each), not
     * one write per byte */
    static char err_buf[1 << 16];
    setvbuf(stderr, err_buf, _IOFBF, sizeof err_buf);
    install_crash_handlers();
    int status = run_driver_on_big_stack(argc, argv);
    if (status == EXIT_ERRORS && diag_get_format() == DIAG_FORMAT_HUMAN)
        driver_explain_hint();
    diag_finish(status);    /* what --error-format kept for the end */
    /* ferror too: an earlier flush (--dump-ast's) may have failed already */
    int flushed = fflush(stdout);
    int err = errno;
    if ((flushed != 0 || ferror(stdout)) && status == EXIT_OK) {
        fprintf(stderr, "mosaicc: error: cannot write to standard output%s%s\n",
                err ? ": " : "", err ? strerror(err) : "");
        status = EXIT_USAGE;
    }
    arena_free_all();
    return status;
}
