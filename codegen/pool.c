/* pool.c — pools (LANGUAGE.md §6): made, allocated in, iterated. */
#include "cg_internal.h"
#include "../support/assert.h"

void cg_create_global_pools(CgFn *f)
{
    (void)f;
}

LLVMValueRef cg_pool_value(CgFn *f, PoolDecl *pd)
{
    (void)f, (void)pd;
    INTERNAL_ERROR("codegen: pools are not supported yet");
}

LLVMValueRef cg_pool_alloc(CgFn *f, LLVMValueRef pool, Loc loc)
{
    (void)f, (void)pool, (void)loc;
    INTERNAL_ERROR("codegen: pools are not supported yet");
}
