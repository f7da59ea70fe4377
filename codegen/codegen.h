/* codegen.h — from a checked Program to native code, through the LLVM C API.
 *
 * Expects a Program that tc_check_program accepted (every "checker:" field
 * of the AST filled).  Builds one LLVM module (opaque pointers), verifies
 * it, optimises it with the new pass manager at the requested level, and
 * writes an object file, assembly or LLVM IR.  Linking with the runtime is
 * the driver's job.  Returns false (after printing "mosaicc: ..." to
 * stderr) only on an internal or output failure, never for user errors.
 */
#ifndef MOSAIC_CODEGEN_H
#define MOSAIC_CODEGEN_H

#include <stdbool.h>
#include "../parser/ast.h"

typedef enum CgOutput {
    CG_OUT_OBJECT,      /* .o for the host */
    CG_OUT_ASSEMBLY,    /* .s */
    CG_OUT_LLVM_IR,     /* .ll, readable (named values) */
    CG_OUT_NONE,        /* nothing written: for the optimiser's remarks */
} CgOutput;

/* Receives each remark of LLVM's loop vectoriser ("FILE:LINE:COL: text"),
 * when CgOptions.remark is set (the layout advisor of `--layouts`). */
typedef void (*CgRemarkFn)(void *ctx, const char *text);

typedef struct CgOptions {
    int opt_level;          /* 0..3 */
    bool debug_info;        /* -g */
    bool no_checks;         /* --no-checks: omit null and bounds checks */
    bool count_remote;      /* --count-remote: count remote accesses */
    const char *count_remote_file;  /* --count-remote=FILE: the report there too */
    bool distributed;       /* --distributed: possibly remote accesses check
                               for a remote reference (transport.h) */
    CgRemarkFn remark;      /* NULL, or where the vectoriser's remarks go */
    void *remark_ctx;
    const char *source_path;/* as given on the command line, for messages */
    const char *gdb_script; /* -g: the pretty-printers' path, which the
                               executable names for gdb (or NULL) */
} CgOptions;

bool cg_compile(Program *program, const CgOptions *options, CgOutput output,
                const char *out_path);

#endif
