/* flow.c — can a statement complete normally? (for E0204, missing return)
 *
 * A deliberately simple, syntactic analysis, in the spirit of Java's
 * "can complete normally" rules (LANGUAGE.md §3, docs/language-notes.md):
 *
 *   - `return` cannot complete;
 *   - a block cannot if one of its statements cannot (what follows is
 *     unreachable, which is allowed and not reported);
 *   - `if` cannot only when it has an `else` and neither branch can;
 *   - `while true { ... }`, with the condition literally `true` and no
 *     `break` that targets this loop, cannot;
 *   - every other statement can.
 *
 * No constant folding: `while 1 == 1` can complete.  It runs on a checked
 * body but needs nothing from the checker; it never reports by itself.
 * tc_falls_through is the same question for the next statement of a
 * block, where a break or continue leaves too (W0004, warn.c).
 */
#include "check.h"

/* Does `s` contain a `break` that leaves the loop enclosing `s`?  Breaks
 * inside a nested loop belong to that loop. */
static bool breaks_out(const Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case ST_BREAK:
        return true;
    case ST_BLOCK:
        for (size_t i = 0; i < s->u.block.stmts.len; i++)
            if (breaks_out(s->u.block.stmts.items[i]))
                return true;
        return false;
    case ST_IF:
        return breaks_out(s->u.if_.then_block) || breaks_out(s->u.if_.else_stmt);
    default:
        return false;   /* loops own their breaks; nothing else nests */
    }
}

/* Can control leave s at its end?  With `jumps`, a break or continue
 * counts as leaving elsewhere, as a return does (the statement after it
 * in its block is never reached). */
static bool completes(const Stmt *s, bool jumps)
{
    if (!s)
        return true;
    switch (s->kind) {
    case ST_RETURN:
        return false;
    case ST_BREAK: case ST_CONTINUE:
        return !jumps;
    case ST_BLOCK:
        for (size_t i = 0; i < s->u.block.stmts.len; i++)
            if (!completes(s->u.block.stmts.items[i], jumps))
                return false;
        return true;
    case ST_IF:
        return !s->u.if_.else_stmt || completes(s->u.if_.then_block, jumps) ||
               completes(s->u.if_.else_stmt, jumps);
    case ST_WHILE: {
        const Expr *cond = s->u.while_.cond;
        bool forever = cond && cond->kind == EX_BOOL && cond->u.bool_lit;
        return !forever || breaks_out(s->u.while_.body);
    }
    default:
        return true;
    }
}

bool tc_can_complete(const Stmt *s)
{
    return completes(s, false);
}

bool tc_falls_through(const Stmt *s)
{
    return completes(s, true);
}
