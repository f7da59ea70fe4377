/* effects.c — sites, summaries to a fixed point, E0302, the report.
 *
 * The pass works on "units": every function and method, plus one unit per
 * passive class for what `new` runs besides init (its field initialisers,
 * whose stores are writes of the new object's home, LANGUAGE.md §5).  A
 * unit knows its `here` (the caller's node for passive code, the home of
 * an active class, node(0) in main), its sites and its call edges.
 *
 * One walk over each body collects sites and edges; then summaries are
 * recomputed from those lists alone, unit after unit, until none grows.
 * Summaries only grow and the places they can hold are the finitely many
 * a program names, so this ends; the lists are small, so a round costs
 * little even on a large program.  Nothing is recomputed from the AST.
 *
 * What counts (LANGUAGE.md §5): field and element reads and writes, an
 * array's `length` (a read of its place; a string's length is nothing:
 * strings are immutable), `for x in xs` (reads of xs's place), `new C<p>`
 * of a passive class (writes p, plus the construction unit and init read
 * through the `new`'s substitution), `new A<p>` of an actor (sends p: its
 * init is a message), and sends (sends to the receiver's home; the
 * message's own effects belong to the receiver).  A site is local when its
 * place is the unit's `here`.
 */
#include <stdlib.h>
#include <string.h>

#include "effects.h"
#include "check.h"
#include "layouts.h"
#include "../support/diag.h"

/* A remote place and what the code does to it; `at` keeps, per kind, the
 * first site that contributed it (for E0302's notes). */
typedef struct Effect {
    Place *place;
    unsigned kinds;
    Loc at[3];
} Effect;
typedef VEC(Effect) EffSet;

typedef struct Edge {
    Loc loc;
    FuncDecl *callee;       /* a function or method, or NULL: */
    ClassDecl *ctor;        /* the construction unit of a passive class */
    Subst *subst;
} Edge;

typedef struct Unit {
    FuncDecl *func;         /* NULL for a construction unit */
    ClassDecl *cls;         /* the enclosing class, or the class constructed */
    Place *here;
    VEC(EffSite *) sites;
    VEC(Edge) calls;
    EffSet summary;
    bool declared;          /* func (or declarer) declares its effects: */
    FuncDecl *declarer;     /* an actor's construction: its init */
    EffSet decl;            /* ... as an effect set (writes include reads) */
} Unit;

static NameMap units;       /* FuncDecl * or ClassDecl * -> Unit * */
static FuncDecl *main_func; /* found once: a program has many functions */

/* `new D` at the home of class C, in C's code: a D in a pool of C if C is
 * pooled (E0401). */
typedef struct HomeAlloc {
    ClassDecl *cls, *allocated;
    Loc loc;
} HomeAlloc;
static VEC(HomeAlloc) home_allocs;
static NameMap sites;       /* access node -> EffSite * */

static int kind_slot(unsigned kind)
{
    return kind == EFF_READ ? 0 : kind == EFF_WRITE ? 1 : 2;
}

static Unit *unit_of(const void *decl)
{
    return tc_map_get(&units, (const char *)decl);
}

void eff_reset(void)
{
    units = sites = (NameMap){0};
    home_allocs.items = NULL, home_allocs.len = home_allocs.cap = 0;
    main_func = NULL;
}

const EffSite *eff_site(const void *node)
{
    return tc_map_get(&sites, (const char *)node);
}

/* Adds (place, kind) to set; true when that is new.  Every unknown node
 * is the one `?` of the report. */
static bool set_add(EffSet *set, Place *place, unsigned kind, Loc at)
{
    if (place->tag == PL_UNKNOWN)
        place = tc_place_unknown();
    for (size_t i = 0; i < set->len; i++) {
        Effect *e = &set->items[i];
        if (e->place != place)
            continue;
        if (e->kinds & kind)
            return false;
        e->kinds |= kind;
        e->at[kind_slot(kind)] = at;
        return true;
    }
    Effect e = {place, kind, {LOC_NONE, LOC_NONE, LOC_NONE}};
    e.at[kind_slot(kind)] = at;
    VEC_PUSH(*set, e);
    return true;
}

/* ---- the walk: sites and edges ------------------------------------------- */

typedef struct Walk {
    Unit *unit;
} Walk;

/* Is place local to code whose `here` is `here`: the same term, or a pool
 * on that node (LANGUAGE.md §5: "a pool whose node is local")? */
static bool is_local(const Place *place, const Place *here)
{
    if (place == here)
        return true;
    TcPool *p = tc_pool_of_place(place);
    return p && p->node == here;
}

static void site(Walk *w, const void *node, Loc loc, Place *place, unsigned kinds)
{
    if (!place)
        return;
    EffSite *s = ARENA_NEW(EffSite);
    s->loc = loc;
    s->place = place;
    s->kinds = kinds;
    s->remote = !is_local(place, w->unit->here);
    VEC_PUSH(w->unit->sites, s);
    if (node)
        tc_map_put(&sites, (const char *)node, s);
}

static void edge(Walk *w, Loc loc, FuncDecl *callee, ClassDecl *ctor, Subst *subst)
{
    Edge e = {loc, callee, ctor, subst};
    VEC_PUSH(w->unit->calls, e);
}

/* The place of the object, array or actor an expression denotes. */
static Place *home_of(const Expr *e)
{
    return e && e->type ? ty_home(e->type) : NULL;
}

/* The site of a field, element or length expression e (its operands
 * already walked) with the given kinds; false when e is none of those. */
static bool access_site(Walk *w, Expr *e, unsigned kinds)
{
    switch (e->kind) {
    case EX_NAME:
        // access = name   (a field of this)
        if (e->u.name.res == RES_FIELD)
            site(w, e, e->loc, tc_place_class_param(w->unit->cls, 0), kinds);
        return true;
    case EX_FIELD:
        // access = expr "." name
        if (e->u.field.res == RES_FIELD || e->u.field.res == RES_ARRAY_LENGTH ||
            e->u.field.res == RES_MAP_SIZE || e->u.field.res == RES_POOL_SIZE)
            site(w, e, e->u.field.field.loc, home_of(e->u.field.object), kinds);
        return true;
    case EX_INDEX:
        // access = expr "[" expr "]"   (an array's element, a map's entry, or a
        //                               pool's object)
        site(w, e, e->loc, home_of(e->u.index.object), kinds);
        return true;
    default:
        return false;
    }
}

/* The effect of built-in bi (builtins.def) on the place of its first
 * argument or receiver.  A method of an array or a map is a site of its
 * own, which --count-remote counts once per call (codegen/builtins.c). */
static void builtin_site(Walk *w, Expr *e, int bi, Expr *arg0)
{
    BuiltinEffect eff = tc_builtins[bi].effect;
    if (eff == BE_NONE)
        return;
    bool method = tc_builtins[bi].kind == BK_ARRAY_METHOD || tc_builtins[bi].kind == BK_MAP_METHOD;
    site(w, method ? e : NULL, e->loc, home_of(arg0), eff_builtin_kinds(eff));
}

/* After a node's operands: its own sites and edges. */
static void walk_expr_after(AstWalk *aw, Expr *e)
{
    Walk *w = aw->ctx;
    if (access_site(w, e, EFF_READ))
        return;
    switch (e->kind) {
    case EX_CALL:
        if ((e->u.call.res == RES_FUNC || e->u.call.res == RES_METHOD) && e->u.call.func)
            edge(w, e->loc, e->u.call.func, NULL, e->u.call.subst);
        else if (e->u.call.res == RES_BUILTIN && e->u.call.args.len > 0)
            builtin_site(w, e, e->u.call.builtin, e->u.call.args.items[0]);
        return;
    case EX_METHOD_CALL:
        if (e->u.method_call.func)
            edge(w, e->loc, e->u.method_call.func, NULL, e->u.method_call.subst);
        else if (e->u.method_call.builtin >= 0)     /* a string's or an array's */
            builtin_site(w, e, e->u.method_call.builtin, e->u.method_call.object);
        return;
    case EX_SEND:
        // the message's effects are the receiver's; the sender sends
        site(w, e, e->u.method_call.method.loc, home_of(e->u.method_call.object), EFF_SEND);
        return;
    case EX_NEW: {
        ClassDecl *k = e->u.new_obj.cls;
        if (k->is_active) {
            site(w, e, e->loc, ty_home(e->type), EFF_SEND);
            return;
        }
        site(w, e, e->loc, ty_home(e->type), EFF_WRITE);
        edge(w, e->loc, NULL, k, e->u.new_obj.subst);
        if (k->init)
            edge(w, e->loc, k->init, NULL, e->u.new_obj.subst);
        /* an object of another class at this class's home: impossible if
         * this class lives in a pool (checked by check_pooled_homes) */
        ClassDecl *own = w->unit->cls;
        if (own && !own->is_active && k != own &&
            ty_home(e->type) == tc_place_class_param(own, 0)) {
            HomeAlloc h = {own, k, e->loc};
            VEC_PUSH(home_allocs, h);
        }
        return;
    }
    case EX_NEW_ARRAY:
    case EX_ARRAY_LIT:
    case EX_NEW_MAP:
    case EX_MAP_LIT:
        site(w, e, e->loc, ty_home(e->type), EFF_WRITE);
        return;
    default:
        return;
    }
}

static bool walk_stmt_before(AstWalk *aw, Stmt *s)
{
    Walk *w = aw->ctx;
    switch (s->kind) {
    case ST_ASSIGN: {
        // stmt = target "=" expr | target op "=" expr   (op=: a read and a write)
        Expr *t = s->u.assign.target;
        if (t->kind == EX_NAME && t->u.name.res == RES_LOCAL) {
            ast_walk_expr(aw, s->u.assign.value);
            return false;
        }
        /* the target's operands, then the target itself as what is written */
        if (t->kind == EX_FIELD)
            ast_walk_expr(aw, t->u.field.object);
        else if (t->kind == EX_INDEX) {
            ast_walk_expr(aw, t->u.index.object);
            ast_walk_expr(aw, t->u.index.index);
        }
        access_site(w, t, s->u.assign.compound ? EFF_READ | EFF_WRITE : EFF_WRITE);
        ast_walk_expr(aw, s->u.assign.value);
        return false;
    }
    case ST_FOR_IN: {
        // stmt = "for" name "in" expr block   (reads the array's elements, the
        //                                      map's keys)
        Expr *it = s->u.for_in.iterable;
        ast_walk_expr(aw, it);
        if (it->type && (it->type->kind == TY_ARRAY || it->type->kind == TY_MAP ||
                         it->type->kind == TY_POOL))
            site(w, s, it->loc, ty_home(it->type), EFF_READ);
        ast_walk_stmt(aw, s->u.for_in.body);
        return false;
    }
    default:
        return true;
    }
}

static void walk_body(Unit *u, Stmt *body, Expr *init)
{
    Walk w = {u};
    AstWalk aw = {NULL, walk_expr_after, walk_stmt_before, &w};
    ast_walk_stmt(&aw, body);
    ast_walk_expr(&aw, init);
}

/* ---- units ------------------------------------------------------------------ */


static Place *here_of(const ClassDecl *cls, const FuncDecl *f)
{
    if (cls && cls->is_active)
        return tc_place_class_param((ClassDecl *)cls, 0);
    if (f && !f->owner && f == main_func)
        return tc_place_node(0);
    return tc_place_here();
}

/* The declared effects of f as an effect set: writes(p) counts as reading
 * and writing p. */
static void declared_set(Unit *u, const EffectDecl *d)
{
    u->declared = true;
    const struct { const PlaceVec *places; unsigned kinds; } clauses[3] = {
        {&d->reads, EFF_READ},
        {&d->writes, EFF_READ | EFF_WRITE},
        {&d->sends, EFF_SEND},
    };
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < clauses[k].places->len; i++) {
            PlaceExpr *pe = clauses[k].places->items[i];
            Place *p = pe->resolved ? pe->resolved : tc_place_unknown();
            for (unsigned bit = EFF_READ; bit <= EFF_SEND; bit <<= 1)
                if (clauses[k].kinds & bit)
                    set_add(&u->decl, p, bit, pe->loc);
        }
}

static Unit *new_unit(const void *key, FuncDecl *f, ClassDecl *cls, Place *here)
{
    Unit *u = ARENA_NEW(Unit);
    u->func = f;
    u->cls = cls;
    u->here = here;
    tc_map_put(&units, (const char *)key, u);
    return u;
}

static void walk_function(FuncDecl *f, ClassDecl *cls)
{
    Unit *u = new_unit(f, f, cls, here_of(cls, f));
    if (f->effects)
        declared_set(u, f->effects);
    walk_body(u, f->body, NULL);
}

/* What `new` runs before init: the field initialisers, each a store into
 * the new object at its own line.  A passive class's run on the creator's
 * node (`here`) and are part of every `new`; an actor's run as its first
 * message, at its home, and are checked against its init's declaration. */
static void walk_construction(ClassDecl *cls)
{
    Place *here = cls->is_active ? tc_place_class_param(cls, 0) : tc_place_here();
    Unit *u = new_unit(cls, NULL, cls, here);
    if (cls->is_active && cls->init && cls->init->effects) {
        declared_set(u, cls->init->effects);
        u->declarer = cls->init;
    }
    Walk w = {u};
    for (size_t i = 0; i < cls->fields.len; i++) {
        FieldDecl *fd = cls->fields.items[i];
        if (!fd->init)
            continue;
        walk_body(u, NULL, fd->init);
        site(&w, fd, fd->loc, tc_place_class_param(cls, 0), EFF_WRITE);
    }
}

/* ---- summaries ---------------------------------------------------------------- */

/* What a caller sees of the callee of edge e: its declaration, or its
 * summary so far. */
static const EffSet *callee_effects(const Edge *e)
{
    Unit *c = e->ctor ? unit_of(e->ctor) : unit_of(e->callee);
    if (!c)
        return NULL;
    return c->declared ? &c->decl : &c->summary;
}

/* One round for u; true when its summary grew. */
static bool summarise(Unit *u)
{
    bool grew = false;
    for (size_t i = 0; i < u->sites.len; i++) {
        EffSite *s = u->sites.items[i];
        if (!s->remote)
            continue;
        for (unsigned bit = EFF_READ; bit <= EFF_SEND; bit <<= 1)
            if (s->kinds & bit)
                grew |= set_add(&u->summary, s->place, bit, s->loc);
    }
    for (size_t i = 0; i < u->calls.len; i++) {
        const Edge *e = &u->calls.items[i];
        const EffSet *ce = callee_effects(e);
        if (!ce)
            continue;
        for (size_t j = 0; j < ce->len; j++) {
            Place *p = tc_subst_place(e->subst, ce->items[j].place);
            if (is_local(p, u->here))
                continue;
            for (unsigned bit = EFF_READ; bit <= EFF_SEND; bit <<= 1)
                if (ce->items[j].kinds & bit)
                    grew |= set_add(&u->summary, p, bit, e->loc);
        }
    }
    return grew;
}

/* ---- declared effects (E0302) --------------------------------------------------- */

static bool allows(const Unit *u, const Place *p, unsigned bit)
{
    for (size_t i = 0; i < u->decl.len; i++) {
        const Effect *d = &u->decl.items[i];
        if ((d->place == p || d->place == tc_place_unknown()) && (d->kinds & bit))
            return true;
    }
    return false;
}

static const char *kind_verb(unsigned bit)
{
    return bit == EFF_READ ? "reads" : bit == EFF_WRITE ? "writes" : "sends to";
}

static const char *clause_name(unsigned bit)
{
    return bit == EFF_READ ? "reads" : bit == EFF_WRITE ? "writes" : "sends";
}

static const char *func_name(const FuncDecl *f)
{
    return f->owner ? arena_printf("%s.%s", f->owner->name.text, f->name.text) : f->name.text;
}

static const char *unit_name(const Unit *u)
{
    if (!u->func)
        return arena_printf("%s (field initialisers)", u->cls->name.text);
    return func_name(u->func);
}

static bool unit_is_instance(const Unit *u)
{
    return u->func ? tc_is_instance_func(u->func) : tc_is_instance_class(u->cls);
}

static const FuncDecl *declaring(const Unit *u)
{
    return u->declarer ? u->declarer : u->func;
}

static void note_declaration(const Unit *u)
{
    const FuncDecl *f = declaring(u);
    diag_note(f->effects->loc, "the effects of '%s' are declared here%s", func_name(f),
              u->declarer ? " (they cover the actor's field initialisers)" : "");
}

static const char *breaks(const Unit *u, unsigned bit, const Place *p)
{
    if (declaring(u)->effects->is_local)
        return "it is declared 'local'";
    if (bit == EFF_READ)
        return arena_printf("neither 'reads(%s)' nor 'writes(%s)' is declared",
                            tc_place_name(p), tc_place_name(p));
    return arena_printf("'%s(%s)' is not declared", clause_name(bit), tc_place_name(p));
}

/* The kinds in the order E0302 reports them: a write says more than the
 * read that comes with it. */
static const unsigned report_order[3] = {EFF_WRITE, EFF_READ, EFF_SEND};

/* Checks u against its declaration: every remote site, then every call
 * whose callee brings an effect the declaration lacks.  One error per
 * site or call, for its first disallowed effect. */
static void check_declared(Unit *u)
{
    for (size_t i = 0; i < u->sites.len; i++) {
        EffSite *s = u->sites.items[i];
        if (!s->remote)
            continue;
        for (int k = 0; k < 3; k++) {
            unsigned bit = report_order[k];
            if (!(s->kinds & bit) || allows(u, s->place, bit))
                continue;
            diag_error(s->loc, DIAG_E0302, "'%s' %s '%s' here, but %s",
                       unit_name(u), kind_verb(bit), tc_place_name(s->place),
                       breaks(u, bit, s->place));
            note_declaration(u);
            break;
        }
    }
    for (size_t i = 0; i < u->calls.len; i++) {
        const Edge *e = &u->calls.items[i];
        const EffSet *ce = callee_effects(e);
        if (!ce)
            continue;
        bool reported = false;
        for (size_t j = 0; j < ce->len && !reported; j++) {
            Place *p = tc_subst_place(e->subst, ce->items[j].place);
            if (is_local(p, u->here))
                continue;
            for (int k = 0; k < 3; k++) {
                unsigned bit = report_order[k];
                if (!(ce->items[j].kinds & bit) || allows(u, p, bit))
                    continue;
                const Unit *callee = e->ctor ? unit_of(e->ctor) : unit_of(e->callee);
                const char *what = e->ctor ? arena_printf("'new %s'", e->ctor->name.text)
                                           : arena_printf("the call of '%s'",
                                                          unit_name(callee));
                diag_error(e->loc, DIAG_E0302, "%s %s '%s', but %s", what,
                           bit == EFF_SEND ? "sends to" : bit == EFF_READ ? "reads"
                                                                          : "writes",
                           tc_place_name(p), breaks(u, bit, p));
                Loc at = ce->items[j].at[kind_slot(bit)];
                if (callee->declared)
                    diag_note(at, "'%s' declares '%s(%s)'", unit_name(callee),
                              clause_name(bit), tc_place_name(ce->items[j].place));
                else if (ce->items[j].place != p)
                    diag_note(at, "it comes from this access inside '%s', to '%s' there",
                              unit_name(callee), tc_place_name(ce->items[j].place));
                else
                    diag_note(at, "it comes from this access inside '%s'", unit_name(callee));
                note_declaration(u);
                reported = true;
                break;
            }
        }
    }
}

/* ---- the pass -------------------------------------------------------------------- */

/* A class whose code allocates objects of other classes at its own home
 * cannot be pooled: there, its home is a pool of its own class. */
static void check_pooled_homes(void)
{
    for (size_t i = 0; i < tc_pool_count(); i++) {
        TcPool *p = tc_pool_at(i);
        if (!p->elem)
            continue;
        for (size_t j = 0; j < home_allocs.len; j++) {
            HomeAlloc *h = &home_allocs.items[j];
            if (h->cls != p->elem->cls)
                continue;
            diag_error(p->decl->name.loc, DIAG_E0401, "pool '%s' cannot hold '%s': its code "
                       "allocates a '%s' at its home, which here is the pool",
                       p->decl->name.text, h->cls->name.text, h->allocated->name.text);
            diag_note(h->loc, "'new %s' at the default place of '%s' is here; give it a "
                      "place of its own", h->allocated->name.text, h->cls->name.text);
            break;
        }
    }
}

bool eff_analyse(Program *program)
{
    int before = diag_error_count();
    main_func = tc_main_function(program);
    VEC(Unit *) all = {0};
    for (size_t i = 0; i < program->decls.len; i++) {
        Decl *d = program->decls.items[i];
        if (d->kind == DECL_FUNC) {
            walk_function(d->u.func, NULL);
            VEC_PUSH(all, unit_of(d->u.func));
        } else if (d->kind == DECL_CLASS) {
            ClassDecl *k = d->u.cls;
            walk_construction(k);
            VEC_PUSH(all, unit_of(k));
            for (size_t j = 0; j < k->methods.len; j++) {
                walk_function(k->methods.items[j], k);
                VEC_PUSH(all, unit_of(k->methods.items[j]));
            }
        }
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < all.len; i++)
            grew |= summarise(all.items[i]);
    }
    for (size_t i = 0; i < all.len; i++)    /* an instance's are its generic's */
        if (all.items[i]->declared && !unit_is_instance(all.items[i]))
            check_declared(all.items[i]);
    check_pooled_homes();
    return diag_error_count() == before;
}

/* ---- the report --------------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(tc_place_name(*(Place *const *)a), tc_place_name(*(Place *const *)b));
}

static void print_group(FILE *out, const EffSet *set, unsigned bit, bool *first)
{
    Place *ps[set->len + 1];
    size_t n = 0;
    for (size_t i = 0; i < set->len; i++)
        if (set->items[i].kinds & bit)
            ps[n++] = set->items[i].place;
    if (n == 0)
        return;
    qsort(ps, n, sizeof *ps, by_name);
    fprintf(out, "%s%s(", *first ? "" : " ", clause_name(bit));
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? ", " : "", tc_place_name(ps[i]));
    fputc(')', out);
    *first = false;
}

static void print_effects(FILE *out, const Unit *u)
{
    bool first = true;
    for (unsigned bit = EFF_READ; bit <= EFF_SEND; bit <<= 1)
        print_group(out, &u->summary, bit, &first);
    if (first)
        fputs("local", out);
}

static void print_unit(FILE *out, const Unit *u)
{
    fprintf(out, "%s: ", unit_name(u));
    print_effects(out, u);
    fputc('\n', out);
}

size_t eff_summary(const FuncDecl *f, size_t i, Place **place, unsigned *kinds)
{
    const Unit *u = f ? unit_of(f) : NULL;
    if (!u || i >= u->summary.len)
        return u ? u->summary.len : 0;
    *place = u->summary.items[i].place;
    *kinds = u->summary.items[i].kinds;
    return u->summary.len;
}

bool eff_print_function(FILE *out, const FuncDecl *f)
{
    const Unit *u = f ? unit_of(f) : NULL;
    if (!u)
        return false;
    print_effects(out, u);
    return true;
}

/* Generic code is reported as written, once (its effects do not depend on
 * its type arguments, which it cannot look into); instances are not. */
void eff_print_report(FILE *out, const Program *program)
{
    for (size_t i = 0; i < program->decls.len; i++) {
        Decl *d = program->decls.items[i];
        if (d->kind == DECL_FUNC && !tc_is_instance_func(d->u.func)) {
            print_unit(out, unit_of(d->u.func));
        } else if (d->kind == DECL_CLASS && !tc_is_instance_class(d->u.cls)) {
            for (size_t j = 0; j < d->u.cls->methods.len; j++)
                if (!tc_is_instance_func(d->u.cls->methods.items[j]))
                    print_unit(out, unit_of(d->u.cls->methods.items[j]));
        }
    }
}
