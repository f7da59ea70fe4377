/* debug.c — debug information for -g, through LLVM's DIBuilder.
 *
 * Minimal but valid DWARF: one compile unit for the source file, one
 * subprogram per emitted function (functions, methods, constructors and
 * mos_program_main), a line:column location on every instruction emitted
 * while a function has a scope, and a variable for each named local slot
 * (its alloca), so that a debugger can break on a line and print locals at
 * -O0.  Types are described coarsely: int, float, bool, and an untyped
 * pointer for strings, objects and arrays.  There are no lexical blocks.
 *
 * Without -g every function here returns at once.  LLVM's verifier demands
 * that every call in a function with a subprogram has a location when the
 * callee has one too; cg_fn_begin gives each function its location before
 * its first instruction, so that always holds.
 *
 * LLVM 19 replaced dbg.declare intrinsics by debug records in the C API;
 * both are handled (LLVM_VERSION_MAJOR).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* getcwd under -std=c11 */
#endif
#include <string.h>
#include <unistd.h>

#include <llvm/Config/llvm-config.h>

#include "cg_internal.h"
#include "../support/arena.h"

void cg_debug_init(Cg *cg)
{
    if (!cg->opt->debug_info)
        return;
#if LLVM_VERSION_MAJOR >= 19
    LLVMSetIsNewDbgInfoFormat(cg->mod, 1);
#endif
    cg->dib = LLVMCreateDIBuilder(cg->mod);
    const char *path = cg->opt->source_path;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, ".");
    cg->di_file = LLVMDIBuilderCreateFile(cg->dib, path, strlen(path), cwd, strlen(cwd));
    static const char producer[] = "mosaicc";
    cg->di_cu = LLVMDIBuilderCreateCompileUnit(
        cg->dib, LLVMDWARFSourceLanguageC, cg->di_file, producer, sizeof producer - 1,
        cg->opt->opt_level > 0, "", 0, 0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0,
        "", 0, "", 0);
    cg->di_fn_type = LLVMDIBuilderCreateSubroutineType(cg->dib, cg->di_file, NULL, 0,
                                                       LLVMDIFlagZero);
    LLVMValueRef version = LLVMConstInt(cg->t_i32, LLVMDebugMetadataVersion(), 0);
    LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(version));
    LLVMValueRef dwarf = LLVMConstInt(cg->t_i32, 4, 0);
    LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                      LLVMValueAsMetadata(dwarf));
}

void cg_debug_finish(Cg *cg)
{
    if (cg->dib)
        LLVMDIBuilderFinalize(cg->dib);
}

static void line_col(Loc loc, unsigned *line, unsigned *col)
{
    int l = 0, c = 0;
    if (loc.file)
        src_line_col(loc.file, loc.start, &l, &c);
    *line = (unsigned)l;
    *col = (unsigned)c;
}

void cg_debug_function(CgFn *f, const char *name, Loc loc)
{
    Cg *cg = f->cg;
    if (!cg->dib)
        return;
    unsigned line, col;
    line_col(loc, &line, &col);
    size_t llen;
    const char *linkage = LLVMGetValueName2(f->fn, &llen);
    bool local = LLVMGetLinkage(f->fn) == LLVMInternalLinkage;
    f->di_scope = LLVMDIBuilderCreateFunction(
        cg->dib, cg->di_file, name, strlen(name), linkage, llen, cg->di_file, line,
        cg->di_fn_type, local, 1, line, LLVMDIFlagZero, cg->opt->opt_level > 0);
    LLVMSetSubprogram(f->fn, f->di_scope);
    cg_debug_loc(f, loc);
}

void cg_debug_loc(CgFn *f, Loc loc)
{
    if (!f->di_scope || !loc.file)
        return;
    unsigned line, col;
    line_col(loc, &line, &col);
    LLVMMetadataRef dl = LLVMDIBuilderCreateDebugLocation(f->cg->ctx, line, col,
                                                          f->di_scope, NULL);
    LLVMSetCurrentDebugLocation2(f->cg->b, dl);
}

static LLVMMetadataRef di_type(Cg *cg, const Type *t)
{
    switch (t->kind) {
    case TY_INT:
        return LLVMDIBuilderCreateBasicType(cg->dib, "int", 3, 64, 0x05 /* DW_ATE_signed */,
                                            LLVMDIFlagZero);
    case TY_FLOAT:
        return LLVMDIBuilderCreateBasicType(cg->dib, "float", 5, 64, 0x04 /* DW_ATE_float */,
                                            LLVMDIFlagZero);
    case TY_BOOL:
        return LLVMDIBuilderCreateBasicType(cg->dib, "bool", 4, 8, 0x02 /* DW_ATE_boolean */,
                                            LLVMDIFlagZero);
    default: {
        const char *name = ty_name(t);
        return LLVMDIBuilderCreatePointerType(cg->dib, NULL, 64, 0, 0, name, strlen(name));
    }
    }
}

void cg_debug_variable(CgFn *f, Sym *sym, LLVMValueRef slot, int arg_no)
{
    Cg *cg = f->cg;
    if (!f->di_scope || !sym->name)
        return;
    unsigned line, col;
    line_col(sym->loc, &line, &col);
    LLVMMetadataRef type = di_type(cg, sym->type);
    size_t len = strlen(sym->name);
    LLVMMetadataRef var = arg_no
        ? LLVMDIBuilderCreateParameterVariable(cg->dib, f->di_scope, sym->name, len,
                                               (unsigned)arg_no, cg->di_file, line, type,
                                               1, LLVMDIFlagZero)
        : LLVMDIBuilderCreateAutoVariable(cg->dib, f->di_scope, sym->name, len,
                                          cg->di_file, line, type, 1, LLVMDIFlagZero, 0);
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->dib, NULL, 0);
    LLVMMetadataRef dl = LLVMDIBuilderCreateDebugLocation(cg->ctx, line, col,
                                                          f->di_scope, NULL);
#if LLVM_VERSION_MAJOR >= 19
    LLVMDIBuilderInsertDeclareRecordAtEnd(cg->dib, slot, var, expr, dl, f->entry);
#else
    LLVMDIBuilderInsertDeclareAtEnd(cg->dib, slot, var, expr, dl, f->entry);
#endif
}
