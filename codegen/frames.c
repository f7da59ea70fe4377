/* frames.c — under -g, the chain of Mosaic frames a runtime error prints.
 *
 * A runtime error in a program built with -g is followed by the Mosaic
 * functions that were running, innermost first (stdlib/backtrace.c):
 *
 *     r_oob.mos:2:10: runtime error: index out of bounds: index 5, length 3
 *       at get_at (r_oob.mos:2)
 *       at main (r_oob.mos:5)
 *
 * Each function, method and constructor keeps a MosFrame (mosaic_rt.h) in
 * its own stack frame: the frame of its caller, a constant naming it, and
 * the line it is at.  Entering links it to the thread-local mos_frame_top
 * (in the entry block, so that a stack overflow found by the entry's
 * check is reported in the function that overflowed), every return
 * unlinks it, and cg_debug_loc stores the line whenever the source line
 * changes within a basic block (and at the first location of each
 * block, since a block may be entered from anywhere): what is stored is
 * the line of the statement or call in progress, which is what a caller's
 * frame should show.  At -O2 the stores that nothing can observe before
 * the next one (no call in between) are deleted by the optimiser.
 *
 * Why a chain kept by the code rather than unwinding the machine stack:
 * the runtime runs actors' turns on its own stacks and moves them aside
 * while they wait (stdlib/sched.c), where an unwinder sees only the
 * worker's loop; mapping addresses back to lines would need a DWARF line
 * reader in the runtime; and frames inlined at -O2 would vanish.  The
 * chain lives in the frames themselves, so it moves with a suspended turn
 * and comes back with it, and the scheduler only saves and restores the
 * thread's pointer to it around a wait.  It costs a few stores per call,
 * and only under -g: without it nothing here emits anything.
 */
#include <string.h>

#include "cg_internal.h"
#include "../support/arena.h"

/* MosFrame's members (mosaic_rt.h) as struct indices. */
enum { FRAME_PREV, FRAME_FUNCTION, FRAME_LINE };

/* @mos_frame_top and the MosFrame type, declared on first use. */
static void declare_chain(Cg *cg)
{
    if (cg->frame_top)
        return;
    cg->frame_top = LLVMAddGlobal(cg->mod, cg->t_ptr, "mos_frame_top");
    LLVMSetThreadLocal(cg->frame_top, 1);
    LLVMSetThreadLocalMode(cg->frame_top, LLVMInitialExecTLSModel);
    LLVMTypeRef members[3] = {cg->t_ptr, cg->t_ptr, cg->t_i64};
    cg->frame_type = LLVMStructCreateNamed(cg->ctx, "MosFrame");
    LLVMStructSetBody(cg->frame_type, members, 3, 0);
}

/* The MosFunction constant naming a function: {name, file}. */
static LLVMValueRef function_info(Cg *cg, const char *name)
{
    LLVMValueRef parts[2] = {cg_cstring(cg, name, "fn.name"),
                             cg_cstring(cg, cg->opt->source_path, "file")};
    LLVMValueRef init = LLVMConstStructInContext(cg->ctx, parts, 2, 0);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), arena_printf("fn.%s", name));
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return g;
}

static LLVMValueRef member(CgFn *f, unsigned i, const char *name)
{
    return LLVMBuildStructGEP2(f->cg->b, f->cg->frame_type, f->frame, i, name);
}

void cg_frame_begin(CgFn *f, const char *name)
{
    Cg *cg = f->cg;
    if (!cg->dib)
        return;
    declare_chain(cg);
    f->frame = cg_entry_alloca(f, cg->frame_type, "frame");
    f->frame_function = function_info(cg, name);
    f->line_block = NULL;
}

void cg_frame_push(CgFn *f)
{
    Cg *cg = f->cg;
    if (!f->frame)
        return;
    unsigned line = 0;
    if (f->loc.file) {
        int l, c;
        src_line_col(f->loc.file, f->loc.start, &l, &c);
        line = (unsigned)l;
    }
    LLVMValueRef prev = LLVMBuildLoad2(cg->b, cg->t_ptr, cg->frame_top, "frame.prev");
    LLVMBuildStore(cg->b, prev, member(f, FRAME_PREV, "frame.prev.addr"));
    LLVMBuildStore(cg->b, f->frame_function, member(f, FRAME_FUNCTION, "frame.function.addr"));
    LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i64, line, 0),
                   member(f, FRAME_LINE, "frame.line.addr"));
    LLVMBuildStore(cg->b, f->frame, cg->frame_top);
}

void cg_frame_pop(CgFn *f)
{
    Cg *cg = f->cg;
    if (!f->frame)
        return;
    LLVMValueRef prev = LLVMBuildLoad2(cg->b, cg->t_ptr, member(f, FRAME_PREV, "frame.prev.addr"),
                                       "frame.prev");
    LLVMBuildStore(cg->b, prev, cg->frame_top);
}

void cg_frame_line(CgFn *f, unsigned line)
{
    if (!f->frame)
        return;
    LLVMBasicBlockRef bb = LLVMGetInsertBlock(f->cg->b);
    if (bb == f->entry || (bb == f->line_block && line == f->line))
        return;
    f->line_block = bb;
    f->line = line;
    LLVMBuildStore(f->cg->b, LLVMConstInt(f->cg->t_i64, line, 0),
                   member(f, FRAME_LINE, "frame.line.addr"));
}
