/* check_type.c — from a written type (TypeExpr) to a Type.
 *
 * `int`, `float`, `bool` and `string` are ordinary identifiers that name
 * the built-in types (so a class may not take those names, check_decl.c);
 * any other name must be a class.  `unit` is a keyword, parsed apart.
 *
 * `Fut<T>` (LANGUAGE.md §4) is the type of a send's result: any T is
 * allowed, `unit` included (the future of a message that returns nothing
 * still says when it was handled), and futures nest (`Fut<Fut<int>>`).
 * Like classes and arrays it is a reference type: it may be null.
 *
 * This version still refuses, with E0900, the types that involve places
 * and pools: place arguments (`C<p>`, `[T]<p>`) and pool parameters
 * (`pool C`).  The refused type still resolves to its best meaning (the
 * class type, the pool type), so the code that uses it is checked without
 * a cascade of follow-up errors.
 *
 * Resolution runs twice for declarations (check.h, tc_resolve_type):
 * silently first, so every signature is known before any body is checked,
 * then with reports, in source order.  Both runs give the same Type.
 */
#include "check.h"
#include "../support/diag.h"

/* type = name [ "<" places ">" ]   (a built-in type or a class) */
static Type *resolve_named(Checker *c, TypeExpr *te, bool report)
{
    const char *name = te->name.text;
    Type *builtin = NULL;
    if (name == c->s_int)
        builtin = ty_int;
    else if (name == c->s_float)
        builtin = ty_float;
    else if (name == c->s_bool)
        builtin = ty_bool;
    else if (name == c->s_string)
        builtin = ty_string;
    if (builtin) {
        if (te->has_places && report)
            diag_error(te->loc, DIAG_E0301, "type '%s' takes no place arguments", name);
        return builtin;
    }

    TopEntry *top = tc_top(c, name);
    if (!top || !top->cls) {
        if (report) {
            if (top && (top->func || top->pool)) {
                diag_error(te->name.loc, DIAG_E0101, "'%s' is not a type", name);
                return ty_error;
            }
            diag_error(te->name.loc, DIAG_E0101, "unknown type '%s'", name);
            NameList cands = {0};
            VEC_PUSH(cands, c->s_int);
            VEC_PUSH(cands, c->s_float);
            VEC_PUSH(cands, c->s_bool);
            VEC_PUSH(cands, c->s_string);
            for (size_t i = 0; i < c->top_names.len; i++) {
                TopEntry *e = tc_top(c, c->top_names.items[i]);
                if (e && e->cls)
                    VEC_PUSH(cands, c->top_names.items[i]);
            }
            tc_suggest(name, &cands);
        }
        return ty_error;
    }
    if (te->has_places && report)
        diag_error(te->loc, DIAG_E0900, "place arguments are not supported yet");
    return ty_class(top->cls);
}

Type *tc_resolve_type(Checker *c, TypeExpr *te, bool report)
{
    if (!te)
        return ty_error;
    Type *t = ty_error;
    switch (te->kind) {
    case TE_UNIT:
        // type = "unit"
        t = ty_unit;
        break;
    case TE_NAMED:
        t = resolve_named(c, te, report);
        break;
    case TE_ARRAY: {
        // type = "[" type "]" [ "<" place ">" ]
        Type *elem = tc_resolve_type(c, te->elem, report);
        if (te->places.len > 0 && report)
            diag_error(te->loc, DIAG_E0900, "place arguments are not supported yet");
        if (elem->kind == TY_UNIT) {
            if (report)
                diag_error(te->elem->loc, DIAG_E0200,
                           "an array cannot have elements of type 'unit'");
            t = ty_error;
        } else if (elem->kind == TY_ERROR) {
            t = ty_error;
        } else {
            t = ty_array(elem);
        }
        break;
    }
    case TE_FUT: {
        // type = "Fut" "<" type ">"      (T may be unit)
        Type *elem = tc_resolve_type(c, te->elem, report);
        t = elem->kind == TY_ERROR ? ty_error : ty_fut(elem);
        break;
    }
    case TE_POOL: {
        // type = "pool" name
        if (report)
            diag_error(te->loc, DIAG_E0900, "pools are not supported yet");
        TopEntry *top = tc_top(c, te->name.text);
        if (top && top->cls) {
            t = ty_pool(top->cls);
        } else {
            if (report) {
                diag_error(te->name.loc, DIAG_E0101, "unknown class '%s'", te->name.text);
                NameList cands = {0};
                for (size_t i = 0; i < c->top_names.len; i++) {
                    TopEntry *e = tc_top(c, c->top_names.items[i]);
                    if (e && e->cls)
                        VEC_PUSH(cands, c->top_names.items[i]);
                }
                tc_suggest(te->name.text, &cands);
            }
            t = ty_error;
        }
        break;
    }
    }
    te->resolved = t;
    return t;
}
