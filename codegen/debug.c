/* debug.c — debug information for -g, through LLVM's DIBuilder.
 *
 * What a debugger gets (docs/debugging.md says what a user does with it):
 *
 *   - One compile unit for the source file, in DWARF's C language: gdb and
 *     lldb then parse `print this.count`, `print *xs.data@xs.length` and
 *     `print p->next` as a C programmer expects, and the types of
 *     debug_types.c print like the structs they are.
 *   - A subprogram per function, method and constructor, named as the
 *     source names it ("add", "Counter.incr", "new.Counter"), so that
 *     `break add` and `break Counter.incr` work.  It has no linkage name:
 *     gdb files a C function with one under that name instead of its
 *     DW_AT_name (the symbol table still has mos.fn.add, which `break
 *     'mos.fn.add'` finds), and Mosaic's mangled names mean nothing to a
 *     user.
 *   - A line:column location on every instruction emitted while a function
 *     has a scope, except the prologue (cg_debug_prologue): the stores
 *     of the arguments into their cells carry none, so the first located
 *     instruction, where LLVM puts prologue_end and gdb stops for `break
 *     add`, comes after them, and `info args` shows the real values.
 *   - A variable per named local slot (its alloca), the parameters as
 *     formal parameters numbered from 1, `this` first in a method; and in
 *     a method, each field of this as a variable too (cg_debug_fields),
 *     so that `print count` works where the source says `count`.  A field
 *     is described so only if no parameter or local of the function has
 *     its name (there are no lexical blocks, so a debugger could not tell
 *     which one a line sees); `print this.count` always works.
 *
 * Where the fields are: at -O0 `this` lives in a cell of its own, and a
 * field is the memory at (*cell + offset), a location that stays right
 * throughout the function.  From -O1 on that cell is promoted into a
 * register, and the expression would then read through the object's
 * first word, so a field is described by the value of `this` itself
 * (this + offset, dereferenced) — valid as long as the optimiser keeps
 * `this` anywhere, otherwise gdb says <optimized out>.  A pooled `this`
 * is an object number, not an address (debug_types.c); its fields'
 * addresses are computed once in the prologue into cells of their own,
 * at -O0 only: that is what -g -O0 is for, and at -O2 those cells would
 * be optimised away anyway.
 *
 * Every -g executable also names the pretty-printers (stdlib/mosaic-gdb.py)
 * in a .debug_gdb_scripts section, so gdb loads them by itself once the
 * user trusts the directory they are installed in (docs/debugging.md).
 *
 * Without -g every function here returns at once.  LLVM's verifier demands
 * that every call in a function with a subprogram has a location when the
 * callee has one too; cg_fn_begin gives each function its location before
 * its first instruction, and the prologue makes no such call, so that
 * always holds.
 *
 * LLVM 19 replaced dbg.declare and dbg.value intrinsics by debug records
 * in the C API; both are handled (LLVM_VERSION_MAJOR).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* getcwd under -std=c11 */
#endif
#include <string.h>
#include <unistd.h>

#include <llvm/Config/llvm-config.h>

#include "cg_internal.h"
#include "../support/arena.h"
#include "../support/assert.h"

#define DW_ATE_boolean 0x02
#define DW_ATE_float 0x04
#define DW_ATE_signed 0x05
#define DW_ATE_signed_char 0x06
#define DW_OP_deref 0x06
#define DW_OP_plus_uconst 0x23

/* The .debug_gdb_scripts entry of a Python file (gdb's manual, "The
 * .debug_gdb_scripts section"): this byte, the path, a NUL. */
#define SECTION_SCRIPT_ID_PYTHON_FILE 1

static LLVMMetadataRef basic_type(Cg *cg, const char *name, unsigned bits, unsigned encoding)
{
    return LLVMDIBuilderCreateBasicType(cg->dib, name, strlen(name), bits, encoding,
                                        LLVMDIFlagZero);
}

/* @mos.gdb_scripts in .debug_gdb_scripts, kept by llvm.used (nothing
 * refers to it); the linker keeps the section, a non-allocated one. */
static void name_gdb_script(Cg *cg, const char *path)
{
    size_t n = strlen(path);
    char *entry = arena_alloc(n + 2);
    entry[0] = SECTION_SCRIPT_ID_PYTHON_FILE;
    memcpy(entry + 1, path, n + 1);
    LLVMValueRef init = LLVMConstStringInContext(cg->ctx, entry, (unsigned)n + 2, 1);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "mos.gdb_scripts");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetSection(g, ".debug_gdb_scripts");
    LLVMSetAlignment(g, 1);
    LLVMTypeRef used_type = LLVMArrayType(cg->t_ptr, 1);
    LLVMValueRef used = LLVMAddGlobal(cg->mod, used_type, "llvm.used");
    LLVMSetInitializer(used, LLVMConstArray(cg->t_ptr, &g, 1));
    LLVMSetLinkage(used, LLVMAppendingLinkage);
    LLVMSetSection(used, "llvm.metadata");
}

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
    cg->di_int = basic_type(cg, "int", 64, DW_ATE_signed);
    cg->di_float = basic_type(cg, "float", 64, DW_ATE_float);
    cg->di_bool = basic_type(cg, "bool", 8, DW_ATE_boolean);
    cg->di_char = basic_type(cg, "char", 8, DW_ATE_signed_char);
    cg->di_word = basic_type(cg, "int32", 32, DW_ATE_signed);
    cg->di_addr = LLVMDIBuilderCreatePointerType(cg->dib, NULL, 64, 0, 0, NULL, 0);
    LLVMValueRef version = LLVMConstInt(cg->t_i32, LLVMDebugMetadataVersion(), 0);
    LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(version));
    LLVMValueRef dwarf = LLVMConstInt(cg->t_i32, 4, 0);
    LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                      LLVMValueAsMetadata(dwarf));
    if (cg->opt->gdb_script)
        name_gdb_script(cg, cg->opt->gdb_script);
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
    bool local = LLVMGetLinkage(f->fn) == LLVMInternalLinkage;
    f->di_scope = LLVMDIBuilderCreateFunction(
        cg->dib, cg->di_file, name, strlen(name), NULL, 0, cg->di_file, line,
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
    cg_frame_line(f, line);
}

void cg_debug_prologue(CgFn *f)
{
    if (f->di_scope)
        LLVMSetCurrentDebugLocation2(f->cg->b, NULL);
}

/* Declares var at `storage` (an alloca) with the address expression
 * ops[0..n), at the start of the function. */
static void declare(CgFn *f, LLVMValueRef storage, LLVMMetadataRef var, uint64_t *ops,
                    size_t n, unsigned line, unsigned col)
{
    Cg *cg = f->cg;
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->dib, ops, n);
    LLVMMetadataRef dl = LLVMDIBuilderCreateDebugLocation(cg->ctx, line, col,
                                                          f->di_scope, NULL);
#if LLVM_VERSION_MAJOR >= 19
    LLVMDIBuilderInsertDeclareRecordAtEnd(cg->dib, storage, var, expr, dl, f->entry);
#else
    LLVMDIBuilderInsertDeclareAtEnd(cg->dib, storage, var, expr, dl, f->entry);
#endif
}

/* Says that var's value is `value` with the expression ops[0..n) applied,
 * from the start of the body on. */
static void value_at_start(CgFn *f, LLVMValueRef value, LLVMMetadataRef var, uint64_t *ops,
                           size_t n, unsigned line, unsigned col)
{
    Cg *cg = f->cg;
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->dib, ops, n);
    LLVMMetadataRef dl = LLVMDIBuilderCreateDebugLocation(cg->ctx, line, col,
                                                          f->di_scope, NULL);
    LLVMValueRef first = LLVMGetFirstInstruction(f->body);
    ASSERT(first, "the prologue has stored `this` already");
#if LLVM_VERSION_MAJOR >= 19
    LLVMDIBuilderInsertDbgValueRecordBefore(cg->dib, value, var, expr, dl, first);
#else
    LLVMDIBuilderInsertDbgValueBefore(cg->dib, value, var, expr, dl, first);
#endif
}

static LLVMMetadataRef variable(CgFn *f, const char *name, int arg_no, unsigned line,
                                LLVMMetadataRef type, LLVMDIFlags flags)
{
    Cg *cg = f->cg;
    size_t len = strlen(name);
    cg_map_put_str(&f->di_names, name, len, (void *)name);
    if (arg_no)
        return LLVMDIBuilderCreateParameterVariable(cg->dib, f->di_scope, name, len,
                                                    (unsigned)arg_no, cg->di_file, line, type,
                                                    1, flags);
    return LLVMDIBuilderCreateAutoVariable(cg->dib, f->di_scope, name, len, cg->di_file, line,
                                           type, 1, flags, 0);
}

void cg_debug_variable(CgFn *f, Sym *sym, LLVMValueRef slot, int arg_no)
{
    if (!f->di_scope || !sym->name)
        return;
    unsigned line, col;
    line_col(sym->loc, &line, &col);
    if (arg_no && f->decl && f->decl->owner)
        arg_no++;       /* `this` is the first */
    LLVMMetadataRef var = variable(f, sym->name, arg_no, line,
                                   cg_debug_type(f->cg, f->inst, sym->type), LLVMDIFlagZero);
    declare(f, slot, var, NULL, 0, line, col);
}

void cg_debug_this(CgFn *f)
{
    Cg *cg = f->cg;
    if (!f->di_scope || !f->this_val)
        return;
    unsigned line, col;
    line_col(f->loc, &line, &col);
    const Type *t = tc_this_type(f->cls);
    LLVMMetadataRef type = cg_debug_type(cg, f->inst, t);
    if (!f->inst->pooled_this)
        type = LLVMDIBuilderCreateObjectPointerType(cg->dib, type);
    LLVMMetadataRef var = variable(f, "this", 1, line, type, LLVMDIFlagArtificial);
    f->this_slot = cg_entry_alloca(f, cg->t_ptr, "this.addr");
    LLVMBuildStore(cg->b, f->this_val, f->this_slot);
    declare(f, f->this_slot, var, NULL, 0, line, col);
}

/* A pooled object's field fd, at -O0: its address, computed now into a
 * cell of its own (pool.c), is where the variable is. */
static void describe_pooled_field(CgFn *f, FieldDecl *fd, LLVMMetadataRef var, unsigned line,
                                  unsigned col)
{
    Cg *cg = f->cg;
    const TcLayout *l = cg_shape_of(f->inst, ty_home(tc_this_type(f->cls)));
    LLVMValueRef cell = cg_entry_alloca(f, cg->t_ptr,
                                        arena_printf("%s.field.addr", fd->name.text));
    /* the prologue's end: after the other stores into cells, before the
     * body's first instruction */
    LLVMBuilderRef saved = cg->b;
    cg->b = LLVMCreateBuilderInContext(cg->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(f->body);
    if (first)
        LLVMPositionBuilderBefore(cg->b, first);
    else
        LLVMPositionBuilderAtEnd(cg->b, f->body);
    LLVMValueRef addr = cg_pooled_field_addr(f, f->home, l, f->this_val, fd);
    LLVMBuildStore(cg->b, addr, cell);
    LLVMDisposeBuilder(cg->b);
    cg->b = saved;
    uint64_t deref[] = {DW_OP_deref};
    declare(f, cell, var, deref, 1, line, col);
}

void cg_debug_fields(CgFn *f)
{
    Cg *cg = f->cg;
    if (!f->this_slot)
        return;
    int level = cg->opt->opt_level;
    bool pooled = f->inst->pooled_this;
    if (pooled && level > 0)
        return;
    unsigned line, col;
    line_col(f->loc, &line, &col);
    for (size_t i = 0; i < f->cls->fields.len; i++) {
        FieldDecl *fd = f->cls->fields.items[i];
        const char *name = fd->name.text;
        if (cg_map_get_str(&f->di_names, name, strlen(name)))
            continue;       /* a local or parameter of that name hides it */
        unsigned fline, fcol;
        line_col(fd->loc, &fline, &fcol);
        LLVMMetadataRef var = variable(f, name, 0, fline,
                                       cg_debug_type(cg, NULL, fd->field_type),
                                       LLVMDIFlagZero);
        if (pooled) {
            describe_pooled_field(f, fd, var, line, col);
        } else if (level == 0) {
            uint64_t ops[] = {DW_OP_deref, DW_OP_plus_uconst, cg_field_offset(cg, fd)};
            declare(f, f->this_slot, var, ops, 3, line, col);
        } else {
            uint64_t ops[] = {DW_OP_plus_uconst, cg_field_offset(cg, fd), DW_OP_deref};
            value_at_start(f, f->this_val, var, ops, 3, line, col);
        }
    }
}
