/* generics.c — type parameters, their inference, and instances (§11).
 *
 * What this module does (the picture is in generics.h):
 *
 *   - gives each generic declaration its Generic: one TY_PARAM per type
 *     parameter, which the names of those parameters resolve to inside it
 *     (tc_type_param_named);
 *   - applies a generic class to type arguments (tc_generic_apply): the
 *     instance when the arguments are types without parameters, else the
 *     applied generic, which generic code reads through a substitution;
 *   - infers a generic function's type arguments from its arguments' types
 *     (tc_infer_type_args), by matching each parameter's type against its
 *     argument's, structurally, as places.c's place inference does;
 *   - makes instances (a copy of the declaration, parser/ast_clone.c),
 *     resolves their signatures at once, so that the use that named one
 *     can read its members, and checks their bodies later, muted
 *     (tc_check_instances): an instance of a generic that checked cannot
 *     fail unless the checker is wrong, in which case its first error is
 *     reported, as the compiler's own mistake, rather than compiled.
 *
 * Instances are keyed by (generic, type arguments), the arguments compared
 * with ty_equal, places included: `Stack[Account<node(1)>]` and
 * `Stack[Account<node(2)>]` are two classes, as their types differ.  An
 * unknown node `?` in an argument is one key whatever fresh unknown
 * (places.h) the argument's type carried, so that one instance serves
 * every use.
 *
 * The substitution itself is places.c's (tc_subst_type), the one way a
 * member's type is read from outside, for places and type parameters
 * alike.
 */
#include <string.h>
#include "check.h"
#include "generics.h"
#include "../support/arena.h"
#include "../support/diag.h"

/* The checker of the program being checked: instances found by a
 * substitution (places.c) are made with it, and instances' bodies wait in
 * `pending` until the generic code around them has been checked. */
static Checker *active;
static VEC(Generic *) pending;
/* The instance whose signatures or body are being checked (NULL in other
 * code): what makes the instances found meanwhile. */
static Generic *making;

void tc_generics_reset(void)
{
    active = NULL;
    making = NULL;
    pending = (typeof(pending)){0};
}

void tc_generics_begin(Checker *c)
{
    active = c;
    making = NULL;
    pending = (typeof(pending)){0};
}

void tc_generics_end(void)
{
    active = NULL;
}

/* ---- what is generic ------------------------------------------------------ */

bool tc_is_generic_class(const ClassDecl *k)
{
    return k && k->generic && !k->generic->of;
}

bool tc_is_instance_class(const ClassDecl *k)
{
    return k && k->generic && k->generic->of;
}

bool tc_is_generic_func(const FuncDecl *f)
{
    return f && ((f->generic && !f->generic->of) || tc_is_generic_class(f->owner));
}

bool tc_is_instance_func(const FuncDecl *f)
{
    return f && ((f->generic && f->generic->of) || tc_is_instance_class(f->owner));
}

bool tc_is_instance_of(const ClassDecl *k, const ClassDecl *generic)
{
    return tc_is_instance_class(k) && k->generic->of->cls == generic;
}

Type *tc_generic_param(const ClassDecl *k, uint32_t i)
{
    return k->generic && i < k->generic->nargs ? k->generic->args[i] : ty_error;
}

static Generic *declare(const NameVec *names, ClassDecl *k, FuncDecl *f)
{
    Generic *g = ARENA_NEW(Generic);
    g->cls = k;
    g->func = f;
    g->nargs = (uint32_t)names->len;
    g->args = arena_alloc(g->nargs * sizeof *g->args);
    for (uint32_t i = 0; i < g->nargs; i++)
        g->args[i] = ty_param(names->items[i].text, g, i);
    return g;
}

void tc_generic_declare_func(FuncDecl *f)
{
    if (f && f->type_params.len && !f->generic)
        f->generic = declare(&f->type_params, NULL, f);
}

void tc_generic_declare_class(ClassDecl *k)
{
    if (!k)
        return;
    if (k->type_params.len && !k->generic)
        k->generic = declare(&k->type_params, k, NULL);
    for (size_t i = 0; i < k->methods.len; i++)
        tc_generic_declare_func(k->methods.items[i]);
}

/* The parameter `name` among g's, or NULL. */
static Type *param_in(const Generic *g, const NameVec *names, const char *name)
{
    if (!g)
        return NULL;
    for (size_t i = 0; i < names->len && i < g->nargs; i++)
        if (names->items[i].text == name)
            return g->args[i];
    return NULL;
}

Type *tc_type_param_named(const Checker *c, const char *name)
{
    Type *t = c->func ? param_in(c->func->generic, &c->func->type_params, name) : NULL;
    if (!t && c->cls)
        t = param_in(c->cls->generic, &c->cls->type_params, name);
    return t;
}

/* ---- instances -------------------------------------------------------------- */

/* t with every unknown node its own places carry written `?`: the form
 * an instance is keyed by. */
static Type *key_form(Type *t)
{
    if (!t)
        return t;
    switch (t->kind) {
    case TY_CLASS: {
        Place **ps = arena_alloc(t->nplaces * sizeof *ps);
        for (uint32_t i = 0; i < t->nplaces; i++)
            ps[i] = t->places[i]->tag == PL_UNKNOWN ? tc_place_unknown() : t->places[i];
        return ty_class_applied(t->cls, ps, t->nplaces, t->targs, t->ntargs);
    }
    case TY_ARRAY:
        return ty_array(key_form(t->elem),
                        t->places[0]->tag == PL_UNKNOWN ? tc_place_unknown() : t->places[0]);
    case TY_MAP:
        return ty_map(t->key, key_form(t->elem),
                      t->places[0]->tag == PL_UNKNOWN ? tc_place_unknown() : t->places[0]);
    case TY_FUT:
        return ty_fut(key_form(t->elem));
    default:
        return t;
    }
}

/* "Stack[int]", "Pair[int, [string]]"; with the arguments' places
 * ("Stack[Account<node(1)>]") when `places`. */
static const char *instance_name(const char *base, Type **args, uint32_t n, bool places)
{
    const char *s = "";
    for (uint32_t i = 0; i < n; i++)
        s = arena_printf("%s%s%s", s, i ? ", " : "", places ? ty_show(args[i])
                                                             : ty_name(args[i]));
    return intern_cstr(arena_printf("%s[%s]", base, s));
}

static const char *decl_name(const Generic *g)
{
    return g->cls ? g->cls->name.text : g->func->name.text;
}

static Loc decl_loc(const Generic *g)
{
    return g->cls ? g->cls->name.loc : g->func->name.loc;
}

/* A generic's instances, found in expected constant time: by the text of
 * their arguments (equal types print alike; types that print alike are
 * told apart by ty_equal), and their names, which must be unique. */
struct GenericIndex {
    NameMap by_text;        /* interned argument text -> Generic * (a chain) */
    NameMap names;          /* interned instance name -> the instance */
};

/* The chain of instances whose arguments print as `text`, through
 * `next_same_text`, kept in the index's own map. */
typedef struct TextChain {
    Generic *instance;
    struct TextChain *next;
} TextChain;

static struct GenericIndex *index_of(Generic *g)
{
    if (!g->index)
        g->index = ARENA_NEW(struct GenericIndex);
    return g->index;
}

static const char *args_text(Type **args, uint32_t n)
{
    return instance_name("", args, n, true);
}

/* The instance of g at args made earlier, or NULL. */
static Generic *find_instance(Generic *g, Type **args)
{
    for (TextChain *c = tc_map_get(&index_of(g)->by_text, args_text(args, g->nargs)); c;
         c = c->next) {
        bool same = true;
        for (uint32_t j = 0; j < g->nargs && same; j++)
            same = ty_equal(c->instance->args[j], args[j]);
        if (same)
            return c->instance;
    }
    return NULL;
}

static void remember_instance(Generic *g, Generic *in, const char *name)
{
    struct GenericIndex *ix = index_of(g);
    const char *text = args_text(in->args, in->nargs);
    TextChain *c = ARENA_NEW(TextChain);
    c->instance = in;
    c->next = tc_map_get(&ix->by_text, text);
    tc_map_put(&ix->by_text, text, c);
    tc_map_put(&ix->names, name, in);
}

/* Reports runaway instantiation once per generic, even inside a muted
 * instance: it is the one mistake only instances show.  Runaway: the
 * instance about to be made would be made by TC_MAX_INSTANCE_DEPTH
 * instances of its own generic, each made by the next. */
static bool runaway(Generic *g, Loc where)
{
    int mine = 0;
    for (Generic *m = making; m; m = m->made_by)
        mine += m->of == g;
    if (mine < TC_MAX_INSTANCE_DEPTH)
        return false;
    if (!g->runaway_reported) {
        g->runaway_reported = true;
        int muted = 0;
        for (; diag_is_muted(); muted++)
            diag_mute(false);
        diag_error(where, DIAG_E0104, "instantiating '%s' does not end: each instance makes "
                   "another with larger type arguments", decl_name(g));
        diag_note(decl_loc(g), "'%s' declared here; instantiation stops after %d instances "
                  "of it made by one another", decl_name(g), TC_MAX_INSTANCE_DEPTH);
        while (muted--)
            diag_mute(true);
    }
    return true;
}

static bool name_taken(Generic *g, const char *name)
{
    return tc_map_get(&index_of(g)->names, name) != NULL;
}

/* A new Generic for an instance of g, registered, named uniquely: after
 * its type arguments without their places, which is what a reader wants
 * to see, unless another instance differs from it only in places. */
static Generic *new_instance(Generic *g, Type **args, const char **name)
{
    Generic *in = ARENA_NEW(Generic);
    in->of = g;
    in->made_by = making;
    in->nargs = g->nargs;
    in->args = arena_alloc(g->nargs * sizeof *in->args);
    memcpy(in->args, args, g->nargs * sizeof *args);
    const char *n = instance_name(decl_name(g), args, g->nargs, false);
    if (name_taken(g, n))
        n = instance_name(decl_name(g), args, g->nargs, true);
    for (int k = 2; name_taken(g, n); k++)     /* `Account<n>` of two classes' n */
        n = intern_cstr(arena_printf("%s#%d", instance_name(decl_name(g), args, g->nargs,
                                                            true), k));
    *name = n;
    VEC_PUSH(g->instances, in);
    remember_instance(g, in, n);
    return in;
}

static void add_decl(Program *p, DeclKind kind, void *what)
{
    Decl *d = ARENA_NEW(Decl);
    d->kind = kind;
    if (kind == DECL_CLASS)
        d->u.cls = what;
    else
        d->u.func = what;
    VEC_PUSH(p->decls, d);
}

/* A checker for an instance's signatures, made in the middle of another
 * walk: the same program and tables, scopes of its own. */
static Checker sub_checker(const Checker *c)
{
    Checker sub = *c;
    sub.bindings.items = NULL;
    sub.bindings.len = sub.bindings.cap = 0;
    sub.visible = (NameMap){0};
    sub.marks.items = NULL;
    sub.marks.len = sub.marks.cap = 0;
    return sub;
}

static ClassDecl *instantiate_class(Checker *c, ClassDecl *k, Type **args, Loc where)
{
    Generic *g = k->generic;
    for (uint32_t i = 0; i < g->nargs; i++)
        args[i] = key_form(args[i]);
    Generic *in = find_instance(g, args);
    if (in)
        return in->cls;
    if (runaway(g, where))
        return NULL;
    const char *name;
    in = new_instance(g, args, &name);
    ClassDecl *inst = ast_clone_class(k);
    inst->name.text = name;
    inst->generic = in;
    in->cls = inst;
    for (size_t i = 0; i < inst->methods.len; i++)
        tc_generic_declare_func(inst->methods.items[i]);
    add_decl(c->program, DECL_CLASS, inst);
    Checker sub = sub_checker(c);
    Generic *outer = making;
    making = in;
    tc_resolve_class_signatures(&sub, inst);
    making = outer;
    VEC_PUSH(pending, in);
    return inst;
}

FuncDecl *tc_instantiate_func(Checker *c, FuncDecl *f, Type **args, Loc where)
{
    Generic *g = f->generic;
    for (uint32_t i = 0; i < g->nargs; i++)
        args[i] = key_form(args[i]);
    Generic *in = find_instance(g, args);
    if (in)
        return in->func;
    if (runaway(g, where))
        return NULL;
    const char *name;
    in = new_instance(g, args, &name);
    FuncDecl *inst = ast_clone_func(f, f->owner);
    inst->name.text = name;
    inst->generic = in;
    in->func = inst;
    if (f->owner)
        VEC_PUSH(f->owner->methods, inst);
    else
        add_decl(c->program, DECL_FUNC, inst);
    Checker sub = sub_checker(c);
    Generic *outer = making;
    making = in;
    tc_resolve_func_signature(&sub, inst);
    making = outer;
    VEC_PUSH(pending, in);
    return inst;
}

Type *tc_generic_apply_at(Checker *c, ClassDecl *k, Place **places, uint32_t nplaces,
                          Type **args, uint32_t nargs, Loc where)
{
    bool open = false;
    for (uint32_t i = 0; i < nargs; i++) {
        if (args[i]->kind == TY_ERROR)
            return ty_error;
        open |= ty_is_open(args[i]);
    }
    if (open)
        return ty_class_applied(k, places, nplaces, args, nargs);
    Type **copy = arena_alloc(nargs * sizeof *copy);
    memcpy(copy, args, nargs * sizeof *args);
    ClassDecl *inst = instantiate_class(c, k, copy, where);
    return inst ? ty_class(inst, places, nplaces) : ty_error;
}

Type *tc_generic_apply(ClassDecl *k, Place **places, uint32_t nplaces, Type **args,
                       uint32_t nargs, Type *fallback)
{
    if (!tc_is_generic_class(k))
        return fallback;
    if (active)
        return tc_generic_apply_at(active, k, places, nplaces, args, nargs, k->name.loc);
    bool open = false;
    for (uint32_t i = 0; i < nargs; i++)
        open |= ty_is_open(args[i]);
    if (open)
        return ty_class_applied(k, places, nplaces, args, nargs);
    for (uint32_t i = 0; i < nargs; i++)
        args[i] = key_form(args[i]);
    Generic *in = find_instance(k->generic, args);
    return in ? ty_class(in->cls, places, nplaces) : fallback;
}

/* ---- inference ------------------------------------------------------------------ */

void tc_infer_type_args(const Generic *g, const Type *want, Type *got, Subst *s)
{
    if (!g || !want || !got || got->kind == TY_ERROR)
        return;
    if (want->kind == TY_PARAM) {
        if (want->param_of == g && got->kind != TY_NULL && !tc_subst_lookup_type(s, want))
            tc_subst_add_type(s, (Type *)want, key_form(got));
        return;
    }
    if (want->kind != got->kind)
        return;
    switch (want->kind) {
    case TY_ARRAY:
    case TY_FUT:
        tc_infer_type_args(g, want->elem, got->elem, s);
        break;
    case TY_MAP:
        tc_infer_type_args(g, want->key, got->key, s);
        tc_infer_type_args(g, want->elem, got->elem, s);
        break;
    case TY_CLASS:
    case TY_POOL:       /* `pool Cell[T]` given a pool of Cell[int] */
        if (!want->ntargs)
            break;
        if (got->ntargs && got->cls == want->cls) {
            for (uint32_t i = 0; i < want->ntargs && i < got->ntargs; i++)
                tc_infer_type_args(g, want->targs[i], got->targs[i], s);
        } else if (tc_is_instance_of(got->cls, want->cls)) {
            Generic *in = got->cls->generic;
            for (uint32_t i = 0; i < want->ntargs && i < in->nargs; i++)
                tc_infer_type_args(g, want->targs[i], in->args[i], s);
        }
        break;
    default:
        break;
    }
}

bool tc_mentions_unbound(const Generic *g, const Type *t, const Subst *s)
{
    if (!g || !t)
        return false;
    switch (t->kind) {
    case TY_PARAM:
        return t->param_of == g && !tc_subst_lookup_type(s, t);
    case TY_ARRAY:
    case TY_FUT:
        return tc_mentions_unbound(g, t->elem, s);
    case TY_MAP:
        return tc_mentions_unbound(g, t->key, s) || tc_mentions_unbound(g, t->elem, s);
    case TY_CLASS:
    case TY_POOL:
        for (uint32_t i = 0; i < t->ntargs; i++)
            if (tc_mentions_unbound(g, t->targs[i], s))
                return true;
        return false;
    default:
        return false;
    }
}

/* ---- the instances' bodies ------------------------------------------------------ */

void tc_check_instances(Checker *c, int program_errors_before)
{
    int muted_before = diag_muted_errors();
    for (size_t i = 0; i < pending.len; i++) {     /* checking may add more */
        Generic *in = pending.items[i];
        diag_mute(true);
        making = in;
        if (in->cls)
            tc_check_instance_class(c, in->cls);
        else
            tc_check_instance_func(c, in->func);
        making = NULL;
        diag_mute(false);
    }
    pending.len = 0;
    /* a generic that checked gives instances that check; if one did not,
     * the mistake is the checker's, and it must not reach code generation */
    if (diag_muted_errors() > muted_before && diag_error_count() == program_errors_before) {
        Loc loc;
        DiagCode code;
        const char *msg = diag_first_muted(&loc, &code);
        diag_error(loc, code, "%s", msg);
        diag_note(LOC_NONE, "found only in an instance of a generic declaration, which "
                  "should have been reported in the generic code: a compiler bug, please "
                  "report it");
    }
}
