/* effects.h — the effect pass (LANGUAGE.md §5, "Effects").
 *
 * Runs after a successful check, reads the checked AST and writes nothing
 * into it: its results live in side tables of its own.
 *
 * For every function and method it records each access *site*: a field or
 * element read or write, an array's length, an allocation (a write of the
 * place allocated at), a send (and `new` of an actor, whose init is a
 * message), each with its place and whether that place is remote — not
 * provably the code's own `here`.  Calls become edges to the callee, with
 * the substitution the checker recorded at the call.  A function's
 * summary, the set of remote places it reads, writes and sends to, is the
 * union of its remote sites and of its callees' summaries read through
 * the call's substitution (a callee's declaration instead of its body
 * when it declares its effects), computed to a fixed point over
 * recursion.  Declared effects are then checked (E0302).
 *
 * Three consumers read the same records, so prediction and measurement
 * cannot drift apart: the `--effects` report (eff_print_report, and its
 * lines one at a time for the language server's hovers), the E0302
 * check, and the `--count-remote` instrumentation of the code generator,
 * which asks for each access it instruments whether the analysis
 * predicted it remote (eff_site).
 */
#ifndef MOSAIC_EFFECTS_H
#define MOSAIC_EFFECTS_H

#include <stdbool.h>
#include <stdio.h>
#include "types.h"

typedef enum EffKind {
    EFF_READ = 1,
    EFF_WRITE = 2,
    EFF_SEND = 4,
} EffKind;

/* The EffKind bits of a built-in's effect on its first argument's place
 * (builtins.def). */
static inline unsigned eff_builtin_kinds(BuiltinEffect e)
{
    return e == BE_RW_ARG0 ? EFF_READ | EFF_WRITE : e == BE_W_ARG0 ? EFF_WRITE
         : e == BE_R_ARG0 ? EFF_READ : 0;
}

/* One access the program makes. */
typedef struct EffSite {
    Loc loc;
    Place *place;       /* where the accessed object, array or actor lives */
    unsigned kinds;     /* EffKind bits */
    bool remote;        /* not provably the code's `here` */
} EffSite;

/* Analyses a checked program: the sites, the summaries, E0302.  Returns
 * false when it reported an error. */
bool eff_analyse(Program *program);

/* The report of `mosaicc --effects`: one line per function and method,
 * in source order. */
void eff_print_report(FILE *out, const Program *program);
/* The EFFECTS part of one function's or method's line of that report
 * ("local", "reads(m) writes(m)"), for tools; false, printing nothing,
 * when f was not analysed. */
bool eff_print_function(FILE *out, const FuncDecl *f);

/* A function's or method's summary, one remote place at a time: with i
 * below the count returned, *place and *kinds (EffKind bits) are its i-th
 * (for drawings, driver/draw.c); the count alone otherwise. */
size_t eff_summary(const FuncDecl *f, size_t i, Place **place, unsigned *kinds);

/* Forgets every record (the memory is the arena's): before another
 * program is analysed in the same process. */
void eff_reset(void);

/* The site recorded for an access node: an Expr (a field, an element, a
 * length, an assignment's target), a for-in Stmt (its element reads) or a
 * FieldDecl (its initialiser's store); NULL if there is none. */
const EffSite *eff_site(const void *node);

#endif
