/* context.c — switching stacks within a thread, and copying stacks aside.
 *
 * An actor that waits in `get` gives its worker back without giving up
 * its thread's stack region for good: the scheduler copies the part of
 * the stack its turn uses into a heap block, runs other turns in the same
 * region, and later copies the block back, at the very same addresses,
 * and continues the turn where it stopped (sched.c tells the whole story;
 * the idea is the one of stack-copying coroutines, such as Python's
 * greenlets).  This file holds the three machine-level steps that needs,
 * which C cannot express, and the copy itself:
 *
 *   rt_ctx_park(decide, arg)   pushes the callee-saved registers, then
 *                              calls decide(sp, arg) on the same stack,
 *                              below them.  sp is a parked context: the
 *                              stack pointer rt_ctx_resume(sp) needs to
 *                              pop them again and return from this very
 *                              call.  If decide returns, so does
 *                              rt_ctx_park, at once.
 *   rt_ctx_resume(sp)          continues a parked context.
 *   rt_ctx_enter(top, fn, arg) calls fn(arg) with the stack pointer at
 *                              `top`, abandoning the current frames; fn
 *                              never returns.
 *
 * Why this is enough, and safe: rt_ctx_park is an ordinary call as far as
 * the compiler of its caller knows.  Across a call, only the callee-saved
 * registers and the memory above the stack pointer are assumed to
 * survive; both are exactly what a parked context holds once the bytes
 * from sp up to the top of the turn's region are restored in place.
 * Pointers into those bytes (frame pointers, addresses of locals) stay
 * valid because the bytes go back where they were, on the same thread.
 * The x87 control word and MXCSR are callee-saved "control bits" in the
 * x86-64 ABI, so they travel too; on arm64, x19–x30, the frame pointer
 * and d8–d15.
 *
 * rt_stack_copy copies a stack's bytes without AddressSanitizer's
 * checks: a live stack is full of redzones a sanitizer build poisons,
 * and copying them is not an error.  rt_stack_unpoison clears that
 * poison on a region whose frames were put back or abandoned by a copy
 * rather than by returning.  Both are plain copies and no-ops in a normal
 * build.
 *
 * Linux on x86-64 and arm64, like stack.c; another machine needs the
 * three routines below written for it.
 *
 * Not here: what is parked, when, or where the copies live (sched.c).
 */
#include "rt_internal.h"

#include <string.h>

#if defined(__x86_64__)
__asm__(
    "    .text\n"
    "    .globl rt_ctx_park\n"
    "    .type rt_ctx_park, @function\n"
    "    .p2align 4\n"
    "rt_ctx_park:\n"                /* rdi = decide, rsi = arg */
    "    .cfi_startproc\n"
    "    pushq %rbp\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %rbp, 0\n"
    "    pushq %rbx\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %rbx, 0\n"
    "    pushq %r12\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %r12, 0\n"
    "    pushq %r13\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %r13, 0\n"
    "    pushq %r14\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %r14, 0\n"
    "    pushq %r15\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %r15, 0\n"
    "    subq $8, %rsp\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rdi, %rax\n"
    "    movq %rsp, %rdi\n"         /* decide(sp, arg): rsp is 16-aligned */
    "    call *%rax\n"
    "    movq %rsp, %rdi\n"         /* decide returned: resume ourselves */
    "    jmp rt_ctx_resume\n"
    "    .cfi_endproc\n"
    "    .size rt_ctx_park, .-rt_ctx_park\n"
    "\n"
    "    .globl rt_ctx_resume\n"
    "    .type rt_ctx_resume, @function\n"
    "    .p2align 4\n"
    "rt_ctx_resume:\n"              /* rdi = sp */
    "    .cfi_startproc\n"
    "    movq %rdi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    "    .cfi_endproc\n"
    "    .size rt_ctx_resume, .-rt_ctx_resume\n"
    "\n"
    "    .globl rt_ctx_enter\n"
    "    .type rt_ctx_enter, @function\n"
    "    .p2align 4\n"
    "rt_ctx_enter:\n"               /* rdi = top, rsi = fn, rdx = arg */
    "    .cfi_startproc\n"
    "    .cfi_undefined %rip\n"
    "    movq %rdi, %rsp\n"
    "    xorl %ebp, %ebp\n"         /* the end of the frame chain */
    "    movq %rdx, %rdi\n"
    "    call *%rsi\n"
    "    ud2\n"
    "    .cfi_endproc\n"
    "    .size rt_ctx_enter, .-rt_ctx_enter\n");
#elif defined(__aarch64__)
__asm__(
    "    .text\n"
    "    .globl rt_ctx_park\n"
    "    .type rt_ctx_park, %function\n"
    "    .p2align 4\n"
    "rt_ctx_park:\n"                /* x0 = decide, x1 = arg */
    "    sub sp, sp, #160\n"
    "    stp x19, x20, [sp, #0]\n"
    "    stp x21, x22, [sp, #16]\n"
    "    stp x23, x24, [sp, #32]\n"
    "    stp x25, x26, [sp, #48]\n"
    "    stp x27, x28, [sp, #64]\n"
    "    stp x29, x30, [sp, #80]\n"
    "    stp d8, d9, [sp, #96]\n"
    "    stp d10, d11, [sp, #112]\n"
    "    stp d12, d13, [sp, #128]\n"
    "    stp d14, d15, [sp, #144]\n"
    "    mov x2, x0\n"
    "    mov x0, sp\n"
    "    blr x2\n"
    "    mov x0, sp\n"
    "    b rt_ctx_resume\n"
    "    .size rt_ctx_park, .-rt_ctx_park\n"
    "\n"
    "    .globl rt_ctx_resume\n"
    "    .type rt_ctx_resume, %function\n"
    "    .p2align 4\n"
    "rt_ctx_resume:\n"              /* x0 = sp */
    "    mov sp, x0\n"
    "    ldp x19, x20, [sp, #0]\n"
    "    ldp x21, x22, [sp, #16]\n"
    "    ldp x23, x24, [sp, #32]\n"
    "    ldp x25, x26, [sp, #48]\n"
    "    ldp x27, x28, [sp, #64]\n"
    "    ldp x29, x30, [sp, #80]\n"
    "    ldp d8, d9, [sp, #96]\n"
    "    ldp d10, d11, [sp, #112]\n"
    "    ldp d12, d13, [sp, #128]\n"
    "    ldp d14, d15, [sp, #144]\n"
    "    add sp, sp, #160\n"
    "    ret\n"
    "    .size rt_ctx_resume, .-rt_ctx_resume\n"
    "\n"
    "    .globl rt_ctx_enter\n"
    "    .type rt_ctx_enter, %function\n"
    "    .p2align 4\n"
    "rt_ctx_enter:\n"               /* x0 = top, x1 = fn, x2 = arg */
    "    mov sp, x0\n"
    "    mov x29, #0\n"
    "    mov x30, #0\n"
    "    mov x0, x2\n"
    "    blr x1\n"
    "    brk #0\n"
    "    .size rt_ctx_enter, .-rt_ctx_enter\n");
#else
#error "context.c: stack switching is written for x86-64 and arm64 only"
#endif

#if defined(__SANITIZE_ADDRESS__)
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);

/* Word by word through a volatile pointer, so that the compiler cannot
 * turn the loop into a call to the sanitizer's checked memcpy.  Stack
 * regions are 16-aligned at both ends, so whole words cover them. */
__attribute__((no_sanitize_address))
void rt_stack_copy(void *dst, const void *src, size_t n)
{
    volatile uintptr_t *d = dst;
    const volatile uintptr_t *s = src;
    for (size_t i = 0; i < n / sizeof(uintptr_t); i++)
        d[i] = s[i];
}

void rt_stack_unpoison(void *lo, size_t n)
{
    __asan_unpoison_memory_region(lo, n);
}
#else
void rt_stack_copy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}

void rt_stack_unpoison(void *lo, size_t n)
{
    (void)lo;
    (void)n;
}
#endif
