/* emit.c — the back half of cg_compile: the host target machine, the
 * verifier, the optimisation pipeline and writing the result.
 *
 *   cg_make_target   the host triple, CPU and features (programs run where
 *                    they are compiled, as with -march=native), PIC code so
 *                    that the driver may link a PIE; the module gets the
 *                    target's triple and data layout before any code is
 *                    built, so that object sizes and alignments are right.
 *   cg_verify        LLVMVerifyModule; a failure is a bug in this compiler:
 *                    the message and the module go to stderr.
 *   cg_optimise      the new pass manager's default<O0..O3> pipeline, with
 *                    the vectorisers and unrolling from -O2 on, as clang.
 *   cg_write_output  an object file or assembly through the target machine,
 *                    or IR text; "-" means stdout.
 * No fast-math anywhere: floating-point results are plain IEEE, in source
 * order (LANGUAGE.md §3), and the target machine's default FP contraction
 * (only where the IR says so) never fuses a multiply and an add.
 */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "cg_internal.h"

bool cg_make_target(Cg *cg)
{
    static bool initialised;
    if (!initialised) {
        if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
            fprintf(stderr, "mosaicc: LLVM has no support for the host target\n");
            return false;
        }
        initialised = true;
    }
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
        fprintf(stderr, "mosaicc: cannot target %s: %s\n", triple, err);
        LLVMDisposeMessage(err);
        LLVMDisposeMessage(triple);
        return false;
    }
    static const LLVMCodeGenOptLevel levels[4] = {
        LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
        LLVMCodeGenLevelAggressive,
    };
    int lvl = cg->opt->opt_level < 0 ? 0 : cg->opt->opt_level > 3 ? 3 : cg->opt->opt_level;
    /* Programs run where they are compiled (like -march=native); PIC so
     * that the driver may link a PIE, the default of Debian's gcc. */
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    cg->tm = LLVMCreateTargetMachine(target, triple, cpu, features, levels[lvl],
                                     LLVMRelocPIC, LLVMCodeModelDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMSetTarget(cg->mod, triple);
    LLVMDisposeMessage(triple);
    if (!cg->tm) {
        fprintf(stderr, "mosaicc: cannot create a target machine for the host\n");
        return false;
    }
    cg->td = LLVMCreateTargetDataLayout(cg->tm);
    LLVMSetModuleDataLayout(cg->mod, cg->td);
    return true;
}

bool cg_verify(Cg *cg)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(cg->mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    fprintf(stderr, "mosaicc: internal compiler error: invalid LLVM module:\n%s\n", msg);
    LLVMDisposeMessage(msg);
    char *ir = LLVMPrintModuleToString(cg->mod);
    fputs(ir, stderr);
    LLVMDisposeMessage(ir);
    return false;
}

/* LLVM's diagnostics during the passes: its remarks go to the advisor,
 * nothing else is expected (errors come back from LLVMRunPasses). */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx)
{
    Cg *cg = ctx;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSRemark || !cg->opt->remark)
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    cg->opt->remark(cg->opt->remark_ctx, text);
    LLVMDisposeMessage(text);
}

/* Asks the loop vectoriser for its remarks, once per process (LLVM's
 * options are global). */
static void enable_vectoriser_remarks(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    const char *argv[] = {
        "mosaicc", "-pass-remarks=loop-vectorize", "-pass-remarks-missed=loop-vectorize",
        "-pass-remarks-analysis=loop-vectorize",
    };
    LLVMParseCommandLineOptions(4, argv, NULL);
}

/* LLVM inlines a function with internal linkage and a single call site
 * whatever its size (it can then delete it).  A function that calls many
 * such functions — a generated `main` calling a `run` per unit, a
 * dispatcher — thus becomes one enormous function, and the optimiser's
 * time grows faster than the program (gcc bounds this with its
 * large-function-growth limit).  So, as a bound of our own: when one
 * function calls more than MAX_SINGLE_CALLEES functions that it alone
 * calls, those become linkonce_odr (still deleted when unused, still
 * inlined when small, but no longer at any size). */
#define MAX_SINGLE_CALLEES 16

static LLVMValueRef only_caller(LLVMValueRef fn)
{
    LLVMUseRef use = LLVMGetFirstUse(fn);
    if (!use || LLVMGetNextUse(use))
        return NULL;
    LLVMValueRef user = LLVMGetUser(use);
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != fn)
        return NULL;
    return LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
}

static void bound_inlining_growth(Cg *cg)
{
    CgMap single = {0};     /* caller -> its number of single-use callees */
    for (LLVMValueRef fn = LLVMGetFirstFunction(cg->mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) != LLVMInternalLinkage)
            continue;
        LLVMValueRef caller = only_caller(fn);
        if (caller)
            cg_map_put_ptr(&single, caller,
                           (void *)((uintptr_t)cg_map_get_ptr(&single, caller) + 1));
    }
    for (LLVMValueRef fn = LLVMGetFirstFunction(cg->mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) != LLVMInternalLinkage)
            continue;
        LLVMValueRef caller = only_caller(fn);
        if (caller && (uintptr_t)cg_map_get_ptr(&single, caller) > MAX_SINGLE_CALLEES) {
            LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
            LLVMSetVisibility(fn, LLVMHiddenVisibility);
        }
    }
}

bool cg_optimise(Cg *cg)
{
    bound_inlining_growth(cg);
    if (cg->opt->remark) {
        enable_vectoriser_remarks();
        LLVMContextSetDiagnosticHandler(cg->ctx, on_diagnostic, cg);
    }
    int lvl = cg->opt->opt_level < 0 ? 0 : cg->opt->opt_level > 3 ? 3 : cg->opt->opt_level;
    char pipeline[32];
    snprintf(pipeline, sizeof pipeline, "default<O%d>", lvl);
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    /* vectorisers from -O2 on, as clang does; loop unrolling from -O3 on,
     * as gcc does: at -O2 it made a large program's build a third slower
     * and its object a third larger, and no benchmark of bench/seq/ any
     * faster (bench/README.md, "Sequential programs") */
    LLVMPassBuilderOptionsSetLoopVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(pbo, lvl >= 2);
    LLVMPassBuilderOptionsSetLoopUnrolling(pbo, lvl >= 3);
    LLVMPassBuilderOptionsSetLoopInterleaving(pbo, lvl >= 2);
    LLVMErrorRef err = LLVMRunPasses(cg->mod, pipeline, cg->tm, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        fprintf(stderr, "mosaicc: internal compiler error: LLVM passes: %s\n", msg);
        LLVMDisposeErrorMessage(msg);
        return false;
    }
    return true;
}

bool cg_write_output(Cg *cg, CgOutput output, const char *out_path)
{
    char *err = NULL;
    if (output == CG_OUT_NONE)
        return true;
    bool to_stdout = strcmp(out_path, "-") == 0;
    if (output == CG_OUT_LLVM_IR) {
        if (to_stdout) {
            char *ir = LLVMPrintModuleToString(cg->mod);
            fputs(ir, stdout);
            LLVMDisposeMessage(ir);
            return fflush(stdout) == 0;
        }
        if (LLVMPrintModuleToFile(cg->mod, out_path, &err)) {
            fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", out_path, err);
            LLVMDisposeMessage(err);
            return false;
        }
        return true;
    }
    LLVMCodeGenFileType kind = output == CG_OUT_ASSEMBLY ? LLVMAssemblyFile : LLVMObjectFile;
    if (to_stdout) {
        LLVMMemoryBufferRef buf;
        if (LLVMTargetMachineEmitToMemoryBuffer(cg->tm, cg->mod, kind, &err, &buf)) {
            fprintf(stderr, "mosaicc: cannot emit code: %s\n", err);
            LLVMDisposeMessage(err);
            return false;
        }
        fwrite(LLVMGetBufferStart(buf), 1, LLVMGetBufferSize(buf), stdout);
        LLVMDisposeMemoryBuffer(buf);
        return fflush(stdout) == 0;
    }
    if (LLVMTargetMachineEmitToFile(cg->tm, cg->mod, (char *)out_path, kind, &err)) {
        fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n", out_path, err);
        LLVMDisposeMessage(err);
        return false;
    }
    return true;
}
