/* check_call.c — calls: functions, methods, built-ins, `new`, sends.
 *
 * A bare call `f(args)` is resolved in this order: a local binding named
 * `f` is not callable (E0206); inside a class, a field of `this` is not
 * callable either and a method of `this` is called; then a top-level
 * function; then a built-in (builtins.def) — so a user's function or
 * method named `print` or `min` hides the built-in.  Only names can be
 * called: there are no function values.
 *
 * Arguments are checked against parameters position by position (E0200
 * at the argument); a wrong count is one E0201 at the call, after which
 * the arguments are still checked for their own mistakes.  Built-in
 * functions and string methods are checked against their signatures in
 * builtins.def, whose letters also cover the overloaded ones (print on
 * four types, abs/min/max on int or float, the int()/float() conversions,
 * sort on three array types); the call records which built-in through
 * call.builtin (method_call.builtin for a string's) and the argument
 * types.
 *
 * `init` runs only through `new` (calling it directly is E0206), for
 * actors too (`new A(args)` checks init's parameters the same way).
 *
 * Actors (LANGUAGE.md §4).  A send `a!m(args)` is checked like a method
 * call — the method must exist (E0103), `init` cannot be sent (E0206),
 * the arguments must match (E0201, E0200) — but its receiver must be an
 * actor (E0303 for a passive object or any other value; `this!m()` inside
 * an actor is a message to itself) and its type is `Fut<T>`, T the
 * method's result (`Fut<unit>` for a method without one).  A synchronous
 * call `a.m()` on an actor is E0303 unless `a` is `this`: only the actor's
 * own code may call its methods directly.  Its arguments are still checked
 * against the method (they are the same for the send the user will write)
 * and it has the error type, so nothing around it cascades.
 */
#include "check.h"
#include "../support/assert.h"
#include "../support/diag.h"

#include <stdio.h>
#include <string.h>

/* Checks arguments that cannot be matched to parameters (the callee is
 * unknown or the count is wrong), for their own mistakes only. */
static void check_args_alone(Checker *c, ExprVec *args)
{
    for (size_t i = 0; i < args->len; i++)
        if (args->items[i])
            tc_expr(c, args->items[i], NULL);
}

/* An argument that takes its type from its parameter alone: `[]`, `{}`. */
static bool empty_literal(const Expr *a)
{
    return (a->kind == EX_ARRAY_LIT && a->u.array_lit.elems.len == 0) ||
           (a->kind == EX_MAP_LIT && a->u.map_lit.keys.len == 0);
}

/* Binds f's own place parameters that `want` (a parameter's type) leaves
 * open to the places `got` (the argument's type) has in their position. */
static void infer_places(FuncDecl *f, const Type *want, const Type *got, Subst *s)
{
    if (!want || !got || want->kind != got->kind)
        return;
    /* a generic class in the signature (`Box[T]<p>`) matches its instances */
    bool same_class = want->kind == TY_CLASS &&
                      (want->cls == got->cls || tc_is_instance_of(got->cls, want->cls));
    if (same_class || want->kind == TY_ARRAY || want->kind == TY_MAP) {
        for (uint32_t i = 0; i < want->nplaces && i < got->nplaces; i++) {
            Place *p = want->places[i];
            if (p->tag == PL_PARAM && p->func == f && !tc_subst_lookup(s, p))
                tc_subst_add(s, p, got->places[i]);
        }
    }
    if (want->kind == TY_ARRAY || want->kind == TY_FUT || want->kind == TY_MAP)
        infer_places(f, want->elem, got->elem, s);
    if (same_class && want->ntargs && tc_is_instance_class(got->cls))
        for (uint32_t i = 0; i < want->ntargs && i < got->cls->generic->nargs; i++)
            infer_places(f, want->targs[i], got->cls->generic->args[i], s);
}

/* Does t mention a place parameter of f that s does not bind yet? */
static bool mentions_open_place(FuncDecl *f, const Type *t, const Subst *s)
{
    if (!t)
        return false;
    for (uint32_t i = 0; i < t->nplaces; i++) {
        Place *p = t->places[i];
        if (p->tag == PL_PARAM && p->func == f && !tc_subst_lookup(s, p))
            return true;
    }
    return (t->kind == TY_ARRAY || t->kind == TY_FUT || t->kind == TY_MAP) &&
           mentions_open_place(f, t->elem, s);
}

/* Does the written type te give no place where `want` (its resolved,
 * substituted form) differs from `got`?  Then the expected place is the
 * default one, read from the receiver's point of view: worth a note. */
static bool default_place_mismatch(const TypeExpr *te, const Type *want, const Type *got)
{
    if (!te || !want || !got || want->kind != got->kind)
        return false;
    if (te->kind == TE_NAMED && want->kind == TY_CLASS) {
        /* `x: T` takes its places from the type argument, not by default */
        const ClassDecl *k = tc_is_instance_class(want->cls) ? want->cls->generic->of->cls
                                                             : want->cls;
        return te->name.text == k->name.text && !te->has_places &&
               want->places[0] != got->places[0];
    }
    if ((te->kind == TE_ARRAY && want->kind == TY_ARRAY) ||
        (te->kind == TE_MAP && want->kind == TY_MAP))
        return te->places.len == 0 && want->places[0] != got->places[0];
    return false;
}

/* The notes of an argument whose place does not fit its parameter. */
static void explain_param_place(FuncDecl *f, Param *p, const Type *want, const Type *got)
{
    if (!default_place_mismatch(p->type, want, got))
        return;
    const char *who = f->owner ? arena_printf("%s.%s", f->owner->name.text, f->name.text)
                               : f->name.text;
    /* a signature is read from the receiver's point of view: a method's
     * default place is the receiver's home, a function's the caller's node */
    diag_note(p->type->loc, "'%s' in the signature of '%s' names no place: it means '%s' "
              "here, %s", ty_name(want), who, ty_show(want),
              f->owner ? "the receiver's home" : "the caller's node");
    if (tc_place_is_node(got->places[0]))
        diag_note(p->name.loc, "to accept a '%s', write '%s<?>' for parameter '%s', or name "
                  "a place parameter there", ty_show(got), ty_name(want), p->name.text);
    else
        diag_note(p->name.loc, "to accept a '%s', name a place parameter in the type of "
                  "parameter '%s'", ty_show(got), p->name.text);
}

/* After an E0201, or an E0104: f's type parameters stand for the error
 * type, so that nothing about the call's result cascades. */
static void bind_type_params_to_error(FuncDecl *f, Subst *s)
{
    Generic *g = tc_is_generic_func(f) ? f->generic : NULL;
    for (uint32_t i = 0; g && !g->of && i < g->nargs; i++)
        if (!tc_subst_lookup_type(s, g->args[i]))
            tc_subst_add_type(s, g->args[i], ty_error);
}

/* The callee of a call to generic function f, once its type arguments
 * are inferred into s (LANGUAGE.md §11): the instance when they are all
 * types without parameters, with f's places bound in s passed on to the
 * instance's; f itself, read through s, in generic code; f after an
 * E0104 for a parameter nothing determines. */
static FuncDecl *generic_callee(Checker *c, FuncDecl *f, Loc call_loc, const char *what,
                                Subst *s, bool saw_error)
{
    Generic *g = f->generic;
    Type **targs = arena_alloc((g->nargs + 1) * sizeof *targs);
    bool open = false, missing = false;
    for (uint32_t i = 0; i < g->nargs; i++) {
        targs[i] = tc_subst_lookup_type(s, g->args[i]);
        if (!targs[i]) {
            if (!saw_error) {
                diag_error(call_loc, DIAG_E0104, "cannot infer type parameter '%s' of %s",
                           g->args[i]->param_name, what);
                diag_note(f->type_params.items[i].loc, "'%s' declared here; it is inferred "
                          "from the arguments' types, and no argument's type determines it",
                          g->args[i]->param_name);
            }
            missing = true;
            continue;
        }
        missing |= targs[i]->kind == TY_ERROR;
        open |= ty_is_open(targs[i]);
    }
    if (missing) {
        bind_type_params_to_error(f, s);
        return f;
    }
    if (open)
        return f;
    FuncDecl *inst = tc_instantiate_func(c, f, targs, call_loc);
    if (!inst) {
        bind_type_params_to_error(f, s);
        return f;
    }
    for (int i = 0; i < tc_func_nplaces(f); i++) {
        Place *p = tc_subst_lookup(s, tc_place_func_param(f, i));
        if (p)
            tc_subst_add(s, tc_place_func_param(inst, i), p);
    }
    return inst;
}

FuncDecl *tc_check_args(Checker *c, FuncDecl *f, ExprVec *args, Loc call_loc,
                        const char *what, Subst *s)
{
    Generic *generic = f->generic && !f->generic->of ? f->generic : NULL;
    if (f->params.len != args->len) {
        diag_error(call_loc, DIAG_E0201, "wrong number of arguments to %s: "
                   "expected %zu, found %zu", what, f->params.len, args->len);
        diag_note(f->name.loc, "'%s' declared here", f->name.text);
        check_args_alone(c, args);
        for (size_t i = 0; i < f->place_params.len; i++)
            tc_subst_add(s, tc_place_func_param(f, (int)i), tc_place_unknown());
        bind_type_params_to_error(f, s);
        return f;
    }
    /* First the arguments' own types, each guided by its parameter, and
     * the place parameters they determine; then the fit of each. */
    Type *got[args->len + 1];
    bool saw_error = false;
    bool deferred[args->len + 1];
    VEC(size_t) order = {0};    /* the arguments in the order they are typed */
    for (size_t i = 0; i < args->len; i++) {
        deferred[i] = false;
        VEC_PUSH(order, i);
    }
    for (size_t k = 0; k < order.len; k++) {
        size_t i = order.items[k];
        Param *p = f->params.items[i];
        got[i] = ty_error;
        if (!args->items[i] || !p)
            continue;
        Type *want = tc_subst_type(s, tc_param_type(p));
        if (want->kind == TY_POOL) {
            /* a `pool C` parameter: the argument is a pool of C, and the
             * parameter's place stands for it */
            Expr *a = args->items[i];
            bool other_place = a->kind == EX_HERE ||
                               (a->kind == EX_NAME && !tc_lookup_local(c, a->u.name.text) &&
                                tc_names_place_param(c, a->u.name.text) &&
                                !(c->cls && tc_find_field(c->cls, a->u.name.text)));
            if (other_place) {
                diag_error(a->loc, DIAG_E0401, "expected a pool of '%s', found the place '%s', "
                           "which is not a pool", ty_name(tc_pool_elem_type(want)),
                           a->kind == EX_HERE ? "here" : a->u.name.text);
                diag_note(p->name.loc, "parameter '%s' declared here", p->name.text);
                a->type = ty_error;
                tc_subst_add(s, want->places[0], tc_place_unknown());
                got[i] = ty_error;
                continue;
            }
            got[i] = tc_expr(c, a, NULL);
            bool fits = got[i]->kind == TY_POOL &&
                        (got[i]->cls == want->cls ||
                         (want->ntargs && tc_is_instance_of(got[i]->cls, want->cls)));
            if (fits) {
                /* the pool, its objects' type arguments and other places */
                tc_subst_add(s, want->places[0], got[i]->places[0]);
                tc_infer_type_args(generic, tc_param_type(p), got[i], s);
                Type *theirs = tc_pool_elem_type(got[i]);
                Type *ours = tc_pool_elem_type(want);
                for (uint32_t k = 1; k < ours->nplaces && k < theirs->nplaces; k++)
                    tc_subst_add(s, ours->places[k], theirs->places[k]);
            } else if (got[i]->kind != TY_ERROR) {
                diag_error(args->items[i]->loc, DIAG_E0401, "expected a pool of '%s', found "
                           "%s", ty_name(tc_pool_elem_type(want)),
                           got[i]->kind == TY_POOL
                               ? arena_printf("a pool of '%s'",
                                              ty_name(tc_pool_elem_type(got[i])))
                               : arena_printf("'%s'", ty_name(got[i])));
                diag_note(p->name.loc, "parameter '%s' declared here", p->name.text);
                tc_subst_add(s, want->places[0], tc_place_unknown());
            } else {
                tc_subst_add(s, want->places[0], tc_place_unknown());
            }
            got[i] = ty_error;      /* checked: nothing more to say below */
            continue;
        }
        /* a hint that still names f's own open places would only
         * mislead a literal: it then types itself */
        if (want->kind == TY_ERROR && args->items[i]->kind == EX_NAME) {
            got[i] = tc_expr(c, args->items[i], NULL);  /* perhaps a pool: no value needed */
            continue;
        }
        bool unbound = tc_mentions_unbound(generic, want, s);
        if (unbound && empty_literal(args->items[i]) && !deferred[i]) {
            /* `[]` or `{}` says nothing of T: typed after the others */
            deferred[i] = true;
            VEC_PUSH(order, i);
            continue;
        }
        bool open = mentions_open_place(f, want, s) || unbound;
        got[i] = tc_value(c, args->items[i], open ? NULL : want);
        saw_error |= got[i]->kind == TY_ERROR;
        tc_infer_type_args(generic, tc_param_type(p), got[i], s);
        /* each `?` of an argument is one unknown node of its own */
        got[i] = tc_open_type(got[i]);
        infer_places(f, tc_param_type(p), got[i], s);
    }
    if (generic)
        f = generic_callee(c, f, call_loc, what, s, saw_error);
    for (size_t i = 0; i < f->place_params.len; i++) {
        Place *pp = tc_place_func_param(f, (int)i);
        if (tc_subst_lookup(s, pp))
            continue;
        bool init = f->owner && f->name.text == c->s_init;     /* refused at init */
        if (!saw_error && !init) {
            diag_error(call_loc, DIAG_E0301, "cannot infer place parameter '%s' of %s "
                       "from the arguments", pp->name, what);
            diag_note(f->place_params.items[i].loc, "'%s' declared here", pp->name);
        }
        tc_subst_add(s, pp, tc_place_unknown());
    }
    for (size_t i = 0; i < args->len; i++) {
        Param *p = f->params.items[i];
        if (!args->items[i] || !p)
            continue;
        Type *want = tc_subst_type(s, tc_param_type(p));
        if (ty_assignable(got[i], want))
            continue;
        tc_report_mismatch(c, args->items[i], got[i], want);
        diag_note(p->name.loc, "parameter '%s' declared here", p->name.text);
        if (ty_same_shape(got[i], want))
            explain_param_place(f, p, want, got[i]);
    }
    return f;
}

/* ---- built-ins ----------------------------------------------------------------- */

/* Built-ins are typed from their signatures in builtins.def, letter by
 * letter: one letter per parameter, then `>` and the result. */

static bool printable(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL ||
           t->kind == TY_STRING;
}

static bool numeric(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_FLOAT;
}

static bool string_array(const Type *t)
{
    return t->kind == TY_ARRAY && t->elem->kind == TY_STRING;
}

static bool sortable_array(const Type *t)
{
    return t->kind == TY_ARRAY && (t->elem->kind == TY_INT || t->elem->kind == TY_FLOAT ||
                                   t->elem->kind == TY_STRING);
}

/* The type a signature letter stands for; NULL for the letters that
 * accept several (p, n, c, S, A) or follow the receiver (e, R). */
static Type *letter_type(char letter)
{
    switch (letter) {
    case 'i': return ty_int;
    case 'f': return ty_float;
    case 'b': return ty_bool;
    case 's': return ty_string;
    case 'u': return ty_unit;
    default:  return NULL;
    }
}

/* The type of a parameter or result letter that follows the receiver
 * (e, k, v), or of a plain one. */
static Type *receiver_letter_type(char letter, const Type *receiver)
{
    switch (letter) {
    case 'e': case 'v': return receiver->elem;
    case 'k': return receiver->key;
    default:  return letter_type(letter);
    }
}

/* A letter as the notes show it: with the receiver's types when there is
 * one ("(string, int)"), else in words ("(the key type, the value type)"). */
static const char *letter_name(char letter, const Type *receiver)
{
    if (receiver && strchr("ekvKVR", letter)) {
        if (letter == 'K')
            return arena_printf("[%s]", ty_name(receiver->key));
        if (letter == 'V' || letter == 'R')
            return arena_printf("[%s]", ty_name(receiver->elem));
        return ty_name(receiver_letter_type(letter, receiver));
    }
    switch (letter) {
    case 'p': return "int, float, bool or string";
    case 'n': case 'c': return "int or float";
    case 'S': return "[string]";
    case 'A': return "[int], [float] or [string]";
    case 'e': return "the element type";
    case 'R': return "a new array of the same type";
    case 'k': return "the key type";
    case 'v': return "the value type";
    case 'K': return "a new array of the keys";
    case 'V': return "a new array of the values";
    default:  return ty_name(letter_type(letter));
    }
}

/* The parameter letters of a signature, without the `?` marks. */
static size_t sig_params(const char *sig, char *letters, size_t *required)
{
    size_t n = 0;
    *required = 0;
    for (const char *p = sig; *p != '>'; p++) {
        if (*p == '?') {
            (*required)--;
            continue;
        }
        ASSERT(n < 8, "built-ins take at most 8 parameters");
        letters[n++] = *p;
        (*required)++;
    }
    return n;
}

static char sig_result(const char *sig)
{
    return *tc_builtin_result(sig);
}

/* "(T1, T2)": the first n parameter letters, as types. */
static const char *param_list(const char *letters, size_t n, const Type *receiver)
{
    char buf[256] = "(";
    size_t len = 1;
    for (size_t i = 0; i < n && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                                letter_name(letters[i], receiver));
    snprintf(buf + len, sizeof buf - len, ")");
    return arena_printf("%s", buf);
}

const char *tc_builtin_signature(int bi, const Type *receiver)
{
    const BuiltinSpec *b = &tc_builtins[bi];
    char letters[8] = {0};
    size_t required, n = sig_params(b->sig, letters, &required);
    const char *takes = param_list(letters, required, receiver);
    if (n > required)
        takes = arena_printf("%s or %s", takes, param_list(letters, n, receiver));
    char r = sig_result(b->sig);
    const char *what = b->kind == BK_STRING_METHOD  ? "string method"
                       : b->kind == BK_ARRAY_METHOD ? "array method"
                       : b->kind == BK_MAP_METHOD   ? "map method"
                                                    : "built-in";
    if (r == 'u')
        return arena_printf("%s '%s' takes %s", what, b->name, takes);
    return arena_printf("%s '%s' takes %s and returns '%s'", what, b->name, takes,
                        letter_name(r, receiver));
}

/* A note that shows the built-in's signature, under its errors. */
static void note_signature(int bi, const Type *receiver)
{
    diag_note(LOC_NONE, "%s", tc_builtin_signature(bi, receiver));
}

/* The type of a result letter; a new array is at the default place of
 * the calling code, like any allocation that names no place (§5).
 * receiver is an array method's, NULL for the others. */
static Type *result_type(Checker *c, char letter, Type *receiver)
{
    if (letter == 'S')
        return ty_array(ty_string, tc_default_place(c));
    if (letter == 'R' || letter == 'V')
        return ty_array(receiver->elem, tc_default_place(c));
    if (letter == 'K')
        return ty_array(receiver->key, tc_default_place(c));
    Type *t = receiver_letter_type(letter, receiver);
    return t ? t : ty_error;
}

/* The result of a built-in whose arguments could not be matched (wrong
 * count): known unless it follows the arguments, so that the caller does
 * not cascade. */
static Type *known_result(Checker *c, int bi, Type *receiver)
{
    return result_type(c, sig_result(tc_builtins[bi].sig), receiver);
}

// arg = "p" — print and println
static void check_printable(Checker *c, Expr *a)
{
    Type *t = tc_value(c, a, NULL);
    if (t->kind != TY_ERROR && !printable(t))
        diag_error(a->loc, DIAG_E0206, "cannot print a value of type '%s'", ty_name(t));
}

// arg = "c" — int(x), float(x)
static void check_convertible(Checker *c, Expr *a, int bi)
{
    Type *t = tc_value(c, a, NULL);
    const char *name = tc_builtins[bi].name;
    if (t->kind != TY_ERROR && !numeric(t)) {
        diag_error(a->loc, DIAG_E0200, "cannot convert '%s' to '%s'", ty_name(t), name);
        if (t->kind == TY_STRING && sig_result(tc_builtins[bi].sig) == 'i')
            diag_note(LOC_NONE, "use parse_int(...) to read an integer from a string");
    }
}

// args = "n"... — abs, min, max: ints or floats, all of one type
static Type *check_numeric(Checker *c, Expr **args, size_t n, int bi)
{
    const char *name = tc_builtins[bi].name;
    Type *first = NULL;
    bool bad = false;
    Type *types[8];
    for (size_t i = 0; i < n; i++) {
        types[i] = tc_value(c, args[i], NULL);
        if (types[i]->kind == TY_ERROR)
            bad = true;
        else if (!numeric(types[i])) {
            if (n == 1)
                diag_error(args[i]->loc, DIAG_E0200, "'%s' takes an 'int' or a 'float', "
                           "found '%s'", name, ty_name(types[i]));
            else
                diag_error(args[i]->loc, DIAG_E0200, "'%s' takes two 'int's or two "
                           "'float's, found '%s'", name, ty_name(types[i]));
            bad = true;
        } else if (!first)
            first = types[i];
    }
    if (bad)
        return first ? first : ty_error;
    for (size_t i = 1; i < n; i++)
        if (types[i]->kind != first->kind) {
            diag_error(args[i]->loc, DIAG_E0200, "type mismatch: expected '%s', found '%s'",
                       ty_name(first), ty_name(types[i]));
            diag_note(LOC_NONE, "numbers are not converted implicitly: "
                      "use int(...) or float(...)");
        }
    return first;
}

// arg = "S" | "A" — an array of strings, or of ints, floats or strings,
// of any place
static void check_array_arg(Checker *c, Expr *a, int bi, char letter)
{
    Type *t = tc_value(c, a, NULL);
    if (t->kind == TY_ERROR || (letter == 'S' ? string_array(t) : sortable_array(t)))
        return;
    diag_error(a->loc, DIAG_E0200, "type mismatch: expected %s, found '%s'",
               letter == 'S' ? "'[string]'" : "an array of 'int', 'float' or 'string'",
               ty_name(t));
    note_signature(bi, NULL);
}

/* Checks the arguments of built-in bi (a function, or a method without
 * its receiver, of type receiver) against its signature; returns the
 * result type. */
static Type *check_signature(Checker *c, int bi, Loc loc, ExprVec *args, Type *receiver)
{
    const BuiltinSpec *b = &tc_builtins[bi];
    char letters[8] = {0};
    size_t required, n = sig_params(b->sig, letters, &required);
    if (args->len < required || args->len > n) {
        if (required == n)
            diag_error(loc, DIAG_E0201, "wrong number of arguments to '%s': "
                       "expected %zu, found %zu", b->name, n, args->len);
        else
            diag_error(loc, DIAG_E0201, "wrong number of arguments to '%s': "
                       "expected %zu or %zu, found %zu", b->name, required, n, args->len);
        note_signature(bi, receiver);
        check_args_alone(c, args);
        return known_result(c, bi, receiver);
    }
    for (size_t i = 0; i < args->len; i++)
        if (!args->items[i])
            return known_result(c, bi, receiver);
    Type *numeric_type = NULL;
    for (size_t i = 0; i < args->len; i++) {
        Expr *a = args->items[i];
        switch (letters[i]) {
        case 'p':
            check_printable(c, a);
            break;
        case 'c':
            check_convertible(c, a, bi);
            break;
        case 'n':
            /* all of a call's n arguments at once: they must agree */
            if (!numeric_type)
                numeric_type = check_numeric(c, args->items + i, args->len - i, bi);
            break;
        case 'S':
        case 'A':
            check_array_arg(c, a, bi, letters[i]);
            break;
        default:
            if (!tc_expect(c, a, receiver_letter_type(letters[i], receiver)))
                note_signature(bi, receiver);
            break;
        }
    }
    char r = sig_result(b->sig);
    if (r == 'n')
        return numeric_type ? numeric_type : ty_error;
    return result_type(c, r, receiver);
}

// expr = builtin "(" args ")"
static Type *check_builtin(Checker *c, Expr *e, int bi)
{
    e->u.call.res = tc_builtins[bi].sig[0] == 'c' ? RES_CONVERT : RES_BUILTIN;
    e->u.call.builtin = bi;
    return check_signature(c, bi, e->loc, &e->u.call.args, NULL);
}

/* ---- calls ----------------------------------------------------------------------- */

static void suggest_callable(Checker *c, const char *name, Loc where)
{
    NameList cands = {0};
    tc_add_method_names(c->cls, &cands);
    tc_add_top_names(c, TOP_FUNCTIONS, &cands);
    for (int i = 0; i < BI_COUNT; i++)
        if (tc_builtins[i].kind == BK_FUNCTION)
            VEC_PUSH(cands, c->builtin_names[i]);
    tc_suggest_in(c, c->cls, name, where, &cands);
}

/* f(args) or a bare method call m(args) on this: the callee's `here` is
 * the caller's, and a method's class parameters are this's own. */
static Type *call_func(Checker *c, Expr *e, FuncDecl *f, Resolution res, const char *what)
{
    e->u.call.res = res;
    e->u.call.func = f;
    Subst *s = tc_subst_receiver(res == RES_METHOD ? tc_this_type(c->cls) : NULL, tc_here(c));
    e->u.call.subst = s;
    f = tc_check_args(c, f, &e->u.call.args, e->loc, what, s);
    e->u.call.func = f;
    return f->result_type ? tc_subst_type(s, f->result_type) : ty_error;
}

// expr = name "(" args ")"
static Type *resolve_call(Checker *c, Expr *e)
{
    Expr *callee = e->u.call.callee;
    ExprVec *args = &e->u.call.args;
    const char *n = callee->u.name.text;

    Binding *b = tc_lookup_local(c, n);
    if (b) {
        diag_error(callee->loc, DIAG_E0206, "'%s' is not a function", n);
        diag_note(b->loc, "'%s' declared here", n);
        check_args_alone(c, args);
        return ty_error;
    }
    if (c->cls) {
        FieldDecl *fd = tc_find_field(c->cls, n);
        if (fd) {
            diag_error(callee->loc, DIAG_E0206, "field '%s' is not a method", n);
            diag_note(fd->name.loc, "'%s' declared here", n);
            check_args_alone(c, args);
            return ty_error;
        }
        FuncDecl *m = tc_find_method(c->cls, n);
        if (m) {
            if (n == c->s_init) {
                diag_error(callee->loc, DIAG_E0206, "'init' cannot be called directly");
                diag_note(LOC_NONE, "'init' runs when an object is created with 'new'");
                check_args_alone(c, args);
                return ty_error;
            }
            return call_func(c, e, m, RES_METHOD, arena_printf("method '%s'", n));
        }
    }
    TopEntry *top = tc_top(c, n);
    if (top && top->func && top->func == c->main_func) {
        /* main runs once, as the program, on node 0 (its `here`) */
        diag_error(callee->loc, DIAG_E0206, "'main' cannot be called");
        diag_note(top->func->name.loc, "'main' is where the program starts, on node 0");
        check_args_alone(c, args);
        return ty_error;
    }
    if (top && top->func)
        return call_func(c, e, top->func, RES_FUNC, arena_printf("'%s'", n));
    if (top && top->cls) {
        diag_error(callee->loc, DIAG_E0206, "class '%s' is not a function", n);
        diag_note(LOC_NONE, "create an object with 'new %s(...)'", n);
        check_args_alone(c, args);
        return ty_error;
    }
    if (top && top->pool) {
        diag_error(callee->loc, DIAG_E0206, "pool '%s' is not a function", n);
        check_args_alone(c, args);
        return ty_error;
    }
    int bi = tc_find_builtin(c, n, BK_FUNCTION);
    if (bi >= 0)
        return check_builtin(c, e, bi);
    diag_error(callee->loc, DIAG_E0100, "undefined function '%s'", n);
    suggest_callable(c, n, callee->loc);
    check_args_alone(c, args);
    return ty_error;
}

Type *tc_call(Checker *c, Expr *e)
{
    Expr *callee = e->u.call.callee;
    e->u.call.res = RES_NONE;
    e->u.call.func = NULL;
    /* The parser drops parentheses, but a parenthesised callee `(f)(x)`
     * starts after the call does: it is a value, and values are not
     * callable. */
    bool parenthesised = callee && callee->loc.start != e->loc.start;
    if (!callee || callee->kind != EX_NAME || parenthesised) {
        // expr = expr "(" args ")"   (only names can be called)
        Type *t = tc_expr(c, callee, NULL);
        if (t->kind != TY_ERROR)
            diag_error(callee->loc, DIAG_E0206,
                       "only functions and methods can be called, not a value of type '%s'",
                       ty_name(t));
        check_args_alone(c, &e->u.call.args);
        return ty_error;
    }
    Type *t = resolve_call(c, e);
    /* The callee names a function, not a value; mirror the call's
     * resolution on it so that every Expr carries something sensible. */
    callee->type = t;
    callee->u.name.res = e->u.call.func ? e->u.call.res : RES_NONE;
    callee->u.name.func = e->u.call.func;
    return t;
}

/* The method `m` of class type `t`, for a call or a send: NULL after
 * reporting a field used as a method (E0206), an unknown method (E0103) or
 * `init` (E0206), with the arguments checked for their own mistakes. */
static FuncDecl *find_callable_method(Checker *c, Type *t, Name m, ExprVec *args)
{
    FuncDecl *f = tc_find_method(t->cls, m.text);
    if (!f) {
        FieldDecl *fd = tc_find_field(t->cls, m.text);
        if (fd) {
            diag_error(m.loc, DIAG_E0206, "field '%s' of class '%s' is not a method",
                       m.text, ty_name(t));
            diag_note(fd->name.loc, "'%s' declared here", m.text);
        } else {
            diag_error(m.loc, DIAG_E0103, "no method '%s' in class '%s'", m.text, ty_name(t));
            NameList cands = {0};
            tc_add_method_names(t->cls, &cands);
            tc_suggest_in(c, t->cls, m.text, m.loc, &cands);
        }
        check_args_alone(c, args);
        return NULL;
    }
    if (m.text == c->s_init) {
        diag_error(m.loc, DIAG_E0206, "'init' cannot be called directly");
        diag_note(LOC_NONE, "'init' runs when an object is created with 'new'");
        check_args_alone(c, args);
        return NULL;
    }
    return f;
}

/* The receiver of a call or send (of type t) is already wrong: check the
 * arguments alone so their own mistakes still show, and say the call is
 * done for. */
static bool receiver_unusable(Checker *c, Expr *e, Type *t)
{
    if (t->kind != TY_ERROR)
        return false;
    check_args_alone(c, &e->u.method_call.args);
    return true;
}

static NameList methods_of(Checker *c, BuiltinKind kind)
{
    NameList names = {0};
    for (int i = 0; i < BI_COUNT; i++)
        if (tc_builtins[i].kind == kind)
            VEC_PUSH(names, c->builtin_names[i]);
    return names;
}

/* "the methods of maps are 'get', 'has', ..." */
static void note_methods(Checker *c, BuiltinKind kind)
{
    NameList names = methods_of(c, kind);
    const char *list = "";
    for (size_t i = 0; i < names.len; i++)
        list = arena_printf("%s%s'%s'", list, i ? ", " : "", names.items[i]);
    diag_note(LOC_NONE, "the methods of %s are %s", kind == BK_STRING_METHOD ? "strings"
              : kind == BK_MAP_METHOD ? "maps" : "arrays", list);
}

// expr = expr "." name "(" args ")"   (a string's, array's or map's: builtins.def)
static Type *builtin_method(Checker *c, Expr *e, Type *t, BuiltinKind kind)
{
    Name m = e->u.method_call.method;
    int bi = tc_find_builtin(c, m.text, kind);
    if (bi >= 0) {
        e->u.method_call.builtin = bi;
        return check_signature(c, bi, e->loc, &e->u.method_call.args, t);
    }
    BuiltinKind other = kind == BK_ARRAY_METHOD ? BK_MAP_METHOD
                      : kind == BK_MAP_METHOD   ? BK_ARRAY_METHOD : kind;
    if (other != kind && tc_find_builtin(c, m.text, other) >= 0) {
        /* LANGUAGE.md §9: a method of the other kind of collection */
        diag_error(m.loc, DIAG_E0200, "'%s' is %s method, and this is a '%s'", m.text,
                   other == BK_MAP_METHOD ? "a map" : "an array", ty_name(t));
        note_methods(c, kind);
        check_args_alone(c, &e->u.method_call.args);
        return ty_error;
    }
    diag_error(m.loc, DIAG_E0103, "no method '%s' on type '%s'", m.text, ty_name(t));
    const char *length = kind == BK_MAP_METHOD ? c->s_size : c->s_length;
    if (m.text == length || diag_closest(m.text, &length, 1)) {  /* `length`, or nearly */
        diag_note(LOC_NONE, "'%s' is not a method: write '.%s' without '()'", length, length);
        check_args_alone(c, &e->u.method_call.args);
        return ty_error;
    }
    NameList cands = methods_of(c, kind);
    if (!diag_closest(m.text, cands.items, cands.len))
        note_methods(c, kind);      /* nothing close: name them all */
    tc_suggest(m.text, m.loc, &cands);
    check_args_alone(c, &e->u.method_call.args);
    return ty_error;
}

// expr = expr "." name "(" args ")"
Type *tc_method_call(Checker *c, Expr *e)
{
    Name m = e->u.method_call.method;
    ExprVec *args = &e->u.method_call.args;
    e->u.method_call.func = NULL;
    e->u.method_call.builtin = -1;
    Type *t = tc_value(c, e->u.method_call.object, NULL);
    if (receiver_unusable(c, e, t))
        return ty_error;
    if (t->kind == TY_STRING)
        return builtin_method(c, e, t, BK_STRING_METHOD);
    if (t->kind == TY_ARRAY)
        return builtin_method(c, e, t, BK_ARRAY_METHOD);
    if (t->kind == TY_MAP)
        return builtin_method(c, e, t, BK_MAP_METHOD);
    if (t->kind != TY_CLASS) {
        diag_error(m.loc, DIAG_E0103, "no method '%s' on type '%s'", m.text, ty_name(t));
        if (t->kind == TY_FUT)
            diag_note(LOC_NONE, "a future has no methods: 'get' it to wait for its value");
        check_args_alone(c, args);
        return ty_error;
    }
    FuncDecl *f = find_callable_method(c, t, m, args);
    if (!f)
        return ty_error;
    e->u.method_call.func = f;
    /* read from the receiver's point of view, with the caller's here */
    Subst *s = tc_subst_receiver(t, tc_here(c));
    e->u.method_call.subst = s;
    if (tc_foreign_actor(e->u.method_call.object, t)) {
        const char *recv = tc_snippet(e->u.method_call.object->loc);
        diag_error(e->loc, DIAG_E0303, "cannot call '%s' on actor '%s' synchronously; "
                   "use '%s!%s(...)'", m.text, ty_name(t), recv ? recv : "...", m.text);
        diag_note(LOC_NONE, "only the actor's own code may call its methods directly");
        tc_check_args(c, f, args, e->loc, arena_printf("method '%s'", m.text),
                      tc_subst_receiver(t, ty_home(t)));
        return ty_error;
    }
    f = tc_check_args(c, f, args, e->loc, arena_printf("method '%s'", m.text), s);
    e->u.method_call.func = f;
    return f->result_type ? tc_subst_type(s, f->result_type) : ty_error;
}

// expr = expr "!" name "(" args ")"
Type *tc_send(Checker *c, Expr *e)
{
    Name m = e->u.method_call.method;
    ExprVec *args = &e->u.method_call.args;
    Expr *object = e->u.method_call.object;
    e->u.method_call.func = NULL;
    e->u.method_call.builtin = -1;
    /* tc_expr, not tc_value: a unit receiver is a misused '!' (E0303). */
    Type *t = tc_expr(c, object, NULL);
    if (receiver_unusable(c, e, t))
        return ty_error;
    if (t->kind != TY_CLASS || !t->cls->is_active) {
        if (t->kind == TY_CLASS) {
            diag_error(object->loc, DIAG_E0303, "'!' needs an actor; '%s' is a passive class",
                       ty_name(t));
            diag_note(t->cls->name.loc, "declare it 'active class %s' to make it an actor",
                      ty_name(t));
        } else {
            diag_error(object->loc, DIAG_E0303, "'!' needs an actor, found '%s'",
                       ty_name(t));
        }
        check_args_alone(c, args);
        return ty_error;
    }
    FuncDecl *f = find_callable_method(c, t, m, args);
    if (!f)
        return ty_error;
    e->u.method_call.func = f;
    /* read from the receiver's point of view.  An actor's code names its
     * own node by its home parameter (tc_here), never by `here`: a `here`
     * in its signature came in with a type argument (`new K[[int]]<node(1)>`
     * in a function) and is the sender's, so it stays the sender's. */
    Subst *s = tc_subst_receiver(t, tc_here(c));
    e->u.method_call.subst = s;
    f = tc_check_args(c, f, args, e->loc, arena_printf("method '%s'", m.text), s);
    e->u.method_call.func = f;
    Type *r = f->result_type ? tc_subst_type(s, f->result_type) : ty_error;
    return r->kind == TY_ERROR ? ty_error : ty_fut(r);
}

/* `new C<P, ...>` with P a pool: P must be a pool of C (E0401), and the
 * other places those of the pool's objects (E0300); an actor cannot be
 * started in a pool. */
static bool check_pool_home(Checker *c, Type *t, TypeExpr *te)
{
    (void)c;
    Place *home = t->places[0];
    if (!tc_place_is_pool(home))
        return true;
    Loc at = te->places.len ? te->places.items[0]->loc : te->loc;
    if (t->cls->is_active) {
        diag_error(at, DIAG_E0401, "an actor cannot live in pool '%s'", tc_place_name(home));
        return false;
    }
    TcPool *p = tc_pool_of_place(home);
    ClassDecl *of = p ? (p->elem ? p->elem->cls : NULL) : home->pool_of;
    if (!of)
        return false;       /* the pool's declaration was reported */
    if (of != t->cls) {
        diag_error(at, DIAG_E0401, "'%s' is a pool of '%s', not of '%s'", tc_place_name(home),
                   of->name.text, t->cls->name.text);
        if (p)
            diag_note(p->decl->name.loc, "pool '%s' declared here", p->decl->name.text);
        return false;
    }
    if (p && !ty_equal(t, p->elem)) {
        diag_error(te->loc, DIAG_E0300, "place mismatch: pool '%s' holds '%s', not '%s'",
                   p->decl->name.text, ty_show(p->elem), ty_show(t));
        diag_note(p->decl->name.loc, "pool '%s' declared here", p->decl->name.text);
        return false;
    }
    return true;
}

// expr = "new" name [ "<" places ">" ] [ "(" args ")" ]
Type *tc_new(Checker *c, Expr *e)
{
    ExprVec *args = &e->u.new_obj.args;
    TypeExpr *te = e->u.new_obj.class_type;
    e->u.new_obj.cls = NULL;
    /* node(e) with a computed e (only here, LANGUAGE.md §5): an int, and the
     * type says `?` in its position */
    for (size_t i = 0; i < te->places.len; i++) {
        PlaceExpr *pe = te->places.items[i];
        if (pe->kind == PLACE_NODE && pe->node_expr)
            tc_expect(c, pe->node_expr, ty_int);
    }
    Type *t = tc_resolve_type(c, te, true);
    if (t->kind == TY_ERROR) {
        check_args_alone(c, args);
        return ty_error;
    }
    if (t->kind != TY_CLASS) {
        diag_error(te->loc, DIAG_E0101, "'%s' is not a class", ty_name(t));
        check_args_alone(c, args);
        return ty_error;
    }
    for (size_t i = 0; i < te->places.len && i < t->nplaces; i++) {
        PlaceExpr *pe = te->places.items[i];
        if (pe->kind == PLACE_NODE && pe->node_expr)
            t->places[i] = tc_place_unknown();
        else if (i == 0 && pe->kind == PLACE_UNKNOWN)
            diag_error(pe->loc, DIAG_E0301, "cannot allocate at '?': name the place the "
                       "new %s lives at", t->cls->is_active ? "actor" : "object");
    }
    if (!check_pool_home(c, t, te)) {
        check_args_alone(c, args);
        return ty_error;
    }
    ClassDecl *k = t->cls;
    e->u.new_obj.cls = k;
    /* init reads its signature from the new object's point of view; a
     * passive init runs as part of `new`, on the creator's node, an
     * actor's as its first message, at its home — which its code names by
     * its home parameter, so that a `here` there is the creator's, come in
     * with a type argument, as for a send (tc_send) */
    Subst *s = tc_subst_receiver(t, tc_here(c));
    e->u.new_obj.subst = s;
    if (k->init) {
        tc_check_args(c, k->init, args, e->loc,
                      arena_printf("'init' of class '%s'", k->name.text), s);
    } else if (args->len > 0) {
        diag_error(e->loc, DIAG_E0201, "wrong number of arguments to 'new %s': "
                   "expected 0, found %zu", k->name.text, args->len);
        diag_note(k->name.loc, "class '%s' has no 'init'", k->name.text);
        check_args_alone(c, args);
    }
    return t;
}
