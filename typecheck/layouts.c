/* layouts.c — layout declarations, pools, `--layout` overrides, and the
 * `--layouts` report (LANGUAGE.md §6).
 *
 * A layout is checked against its class (E0400: every field in exactly
 * one cluster, no field the class lacks) and resolved once into a
 * TcLayout, whose clusters' sizes and offsets both the report and the
 * code generator use.  A pool is checked when its declaration is (E0401:
 * its type must name the pool itself as the home, E0400 for its layout),
 * and gets its place, its objects' type, its node and its layout.
 *
 * `--layout NAME=SPEC` replaces, for this compilation, the layout of the
 * pool or layout declaration NAME — a top-level one, or every pool
 * statement of that name (LANGUAGE.md §6 allows pools in both places);
 * SPEC is a layout name or a literal `rec{x, y} + rec{z}`, valid for the
 * class of every declaration it replaces.  Overrides are read before any pool is
 * resolved, so a pool that names an overridden layout declaration gets the
 * override too.  A bad override is E0402, reported with the program's
 * other errors: without a place for a flag, at the line and column of a
 * layout file (`--layout-file`, whose lines the driver reads into
 * overrides, driver/layout_file.c).  The literal is read by a few lines of
 * code here rather than by the parser: it is a flag's value, not source
 * text, and its grammar is two rules.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "layouts.h"
#include "check.h"
#include "../support/diag.h"

static NameMap pools_by_decl;       /* PoolDecl * -> TcPool * */
static NameMap pools_by_place;      /* Place * -> TcPool * */
static NameMap layouts_by_decl;     /* LayoutDecl * -> TcLayout * */
static NameMap builtin_layouts;     /* ClassDecl * -> TcLayout *[2] (aos, soa) */
static VEC(TcPool *) all_pools;
/* layout_for_instance: a generic class's layout and its form for one instance */
typedef struct InstanceLayout { TcLayout *of, *l; } InstanceLayout;
static VEC(InstanceLayout) instance_layouts;

/* --layout overrides: name (interned) -> the SPEC text, and -> the override
 * itself (for a layout file's: where it came from) */
static NameMap overrides;
static NameMap override_entries;

void tc_layouts_reset(void)
{
    pools_by_decl = pools_by_place = layouts_by_decl = builtin_layouts = overrides =
        override_entries = (NameMap){0};
    all_pools.items = NULL, all_pools.len = all_pools.cap = 0;
    instance_layouts.items = NULL, instance_layouts.len = instance_layouts.cap = 0;
}

TcPool *tc_pool(const PoolDecl *decl) { return tc_map_get(&pools_by_decl, (const char *)decl); }

TcPool *tc_pool_of_place(const Place *p)
{
    return p && p->tag == PL_POOL ? tc_map_get(&pools_by_place, (const char *)p) : NULL;
}

size_t tc_pool_count(void) { return all_pools.len; }
TcPool *tc_pool_at(size_t i) { return all_pools.items[i]; }

Type *tc_pool_elem_type(const Type *pool_type)
{
    Place *at = pool_type->places[0];
    TcPool *p = tc_pool_of_place(at);
    if (p && p->elem)
        return p->elem;
    /* a `pool C` parameter: its objects live in it, and their other places
     * are the function's places that follow the parameter's (places.h) */
    ClassDecl *cls = pool_type->cls;
    uint32_t n = (uint32_t)tc_class_nplaces(cls);
    Place **ps = arena_alloc(n * sizeof *ps);
    ps[0] = at;
    for (uint32_t i = 1; i < n; i++)
        ps[i] = at->tag == PL_PARAM && at->func ? tc_place_func_param(at->func, at->index + (int)i)
                                                : tc_place_unknown();
    return ty_class_applied(cls, ps, n, pool_type->targs, pool_type->ntargs);
}

uint64_t tc_field_size(const FieldDecl *fd)
{
    return fd->field_type && fd->field_type->kind == TY_BOOL ? 1 : 8;
}

/* ---- building layouts ------------------------------------------------------ */

static TcLayout *new_layout(ClassDecl *cls, const char *name)
{
    TcLayout *l = ARENA_NEW(TcLayout);
    l->cls = cls;
    l->name = name;
    size_t n = cls->fields.len ? cls->fields.len : 1;
    l->cluster_of = arena_alloc(n * sizeof *l->cluster_of);
    l->slot_of = arena_alloc(n * sizeof *l->slot_of);
    for (size_t i = 0; i < cls->fields.len; i++)
        l->cluster_of[i] = -1;
    return l;
}

/* Lays out each cluster's fields in class order, naturally aligned. */
static void finish_layout(TcLayout *l)
{
    for (size_t k = 0; k < l->clusters.len; k++) {
        TcCluster *c = l->clusters.items[k];
        c->offsets.len = 0;
        uint64_t at = 0, align = 1;
        VEC(FieldDecl *) sorted = {0};
        for (size_t i = 0; i < l->cls->fields.len; i++)
            if (l->cluster_of[i] == (int)k)
                VEC_PUSH(sorted, l->cls->fields.items[i]);
        c->fields.len = 0;
        for (size_t i = 0; i < sorted.len; i++) {
            FieldDecl *fd = sorted.items[i];
            uint64_t size = tc_field_size(fd);
            at = (at + size - 1) / size * size;
            l->slot_of[fd->index] = (int)c->fields.len;
            VEC_PUSH(c->fields, fd);
            VEC_PUSH(c->offsets, at);
            at += size;
            if (size > align)
                align = size;
            if (fd->field_type && (ty_is_reference(fd->field_type) ||
                                   fd->field_type->kind == TY_STRING))
                c->has_pointers = true;
        }
        c->size = (at + align - 1) / align * align;
        if (c->size == 0)
            c->size = 1;    /* distinct objects, distinct addresses */
    }
}

static TcCluster *add_cluster(TcLayout *l)
{
    TcCluster *c = ARENA_NEW(TcCluster);
    VEC_PUSH(l->clusters, c);
    return c;
}

/* aos (soa == false) or soa of cls, made once. */
TcLayout *tc_builtin_layout(ClassDecl *cls, bool soa)
{
    TcLayout **pair = tc_map_get(&builtin_layouts, (const char *)cls);
    if (!pair) {
        pair = arena_alloc(2 * sizeof *pair);
        pair[0] = pair[1] = NULL;
        tc_map_put(&builtin_layouts, (const char *)cls, pair);
    }
    if (pair[soa])
        return pair[soa];
    TcLayout *l = new_layout(cls, soa ? "soa" : "aos");
    if (!soa) {
        add_cluster(l);
        for (size_t i = 0; i < cls->fields.len; i++)
            l->cluster_of[i] = 0;
    } else {
        for (size_t i = 0; i < cls->fields.len; i++) {
            add_cluster(l);
            l->cluster_of[i] = (int)i;
        }
        if (cls->fields.len == 0)
            add_cluster(l);
    }
    finish_layout(l);
    pair[soa] = l;
    return l;
}

/* Clusters of field names, from the source or from a flag. */
typedef struct NameCluster {
    VEC(const char *) names;
    VEC(Loc) locs;
} NameCluster;
typedef VEC(NameCluster) NameClusters;

/* Builds a layout of cls from clusters of names; reports each problem
 * with `report` (which knows where to say it), returns NULL if any. */
typedef void (*LayoutProblem)(void *ctx, Loc loc, const char *fmt, const char *a,
                              const char *b);

static TcLayout *layout_from_names(ClassDecl *cls, const char *name, NameClusters *cs,
                                   LayoutProblem problem, void *ctx, Loc whole)
{
    TcLayout *l = new_layout(cls, name);
    bool ok = true;
    for (size_t k = 0; k < cs->len; k++) {
        add_cluster(l);
        NameCluster *nc = &cs->items[k];
        for (size_t j = 0; j < nc->names.len; j++) {
            FieldDecl *fd = tc_find_field(cls, nc->names.items[j]);
            if (!fd) {
                problem(ctx, nc->locs.items[j], "class '%s' has no field '%s'", cls->name.text,
                        nc->names.items[j]);
                ok = false;
            } else if (l->cluster_of[fd->index] >= 0) {
                problem(ctx, nc->locs.items[j], "field '%s' of class '%s' is in two clusters",
                        fd->name.text, cls->name.text);
                ok = false;
            } else {
                l->cluster_of[fd->index] = (int)k;
            }
        }
    }
    for (size_t i = 0; i < cls->fields.len; i++)
        if (l->cluster_of[i] < 0) {
            problem(ctx, whole, "field '%s' of class '%s' is in no cluster",
                    cls->fields.items[i]->name.text, cls->name.text);
            ok = false;
        }
    if (!ok)
        return NULL;
    finish_layout(l);
    return l;
}

/* ---- layouts written in the source --------------------------------------------- */

static void silent_problem(void *ctx, Loc loc, const char *fmt, const char *a, const char *b)
{
    (void)ctx, (void)loc, (void)fmt, (void)a, (void)b;
}

static void source_problem(void *ctx, Loc loc, const char *fmt, const char *a, const char *b)
{
    const ClassDecl *cls = ctx;
    diag_error(loc, DIAG_E0400, fmt, a, b);
    diag_note(cls->name.loc, "class '%s' declared here", cls->name.text);
}

static NameClusters clusters_of_spec(const LayoutSpec *spec)
{
    NameClusters cs = {0};
    for (size_t k = 0; k < spec->clusters.len; k++) {
        NameCluster nc = {0};
        Cluster *c = spec->clusters.items[k];
        for (size_t j = 0; j < c->fields.len; j++) {
            VEC_PUSH(nc.names, c->fields.items[j].text);
            VEC_PUSH(nc.locs, c->fields.items[j].loc);
        }
        VEC_PUSH(cs, nc);
    }
    return cs;
}

static TcLayout *override_layout(Checker *c, const char *name, ClassDecl *cls);

/* A layout of a generic class (LANGUAGE.md §11) as it applies to one of
 * its instances: the same clusters of the same fields, whose sizes are
 * the instance's; made once per (layout, instance). */
static TcLayout *layout_for_instance(TcLayout *of, ClassDecl *inst)
{
    for (size_t i = 0; i < instance_layouts.len; i++)
        if (instance_layouts.items[i].of == of && instance_layouts.items[i].l->cls == inst)
            return instance_layouts.items[i].l;
    TcLayout *l;
    NameClusters cs = {0};
    for (size_t k = 0; k < of->clusters.len; k++) {
        NameCluster nc = {0};
        TcCluster *c = of->clusters.items[k];
        for (size_t j = 0; j < c->fields.len; j++) {
            VEC_PUSH(nc.names, c->fields.items[j]->name.text);
            VEC_PUSH(nc.locs, c->fields.items[j]->name.loc);
        }
        VEC_PUSH(cs, nc);
    }
    l = layout_from_names(inst, of->name, &cs, silent_problem, inst, LOC_NONE);
    if (l)
        VEC_PUSH(instance_layouts, ((InstanceLayout){of, l}));
    return l;
}

/* Declared layout ld as a layout of cls: ld's own when cls is its class,
 * its form for an instance when ld is declared for cls's generic class;
 * *other_class when ld is for another class (NULL then). */
static TcLayout *declared_layout_for(Checker *c, LayoutDecl *ld, ClassDecl *cls,
                                     bool *other_class)
{
    TopEntry *lc = tc_top(c, ld->class_name.text);
    *other_class = !lc || !lc->cls || (lc->cls != cls && !tc_is_instance_of(cls, lc->cls));
    if (*other_class)
        return NULL;
    TcLayout *l = tc_layout_of_decl(c, ld);
    return l && lc->cls != cls ? layout_for_instance(l, cls) : l;
}

/* The layout a written spec names for cls: aos, soa, a layout declared
 * for cls, or the clusters given; NULL after an E0400. */
static TcLayout *resolve_spec(Checker *c, const LayoutSpec *spec, ClassDecl *cls,
                              const char *name_if_literal, bool report)
{
    if (!spec)
        return tc_builtin_layout(cls, false);
    if (spec->name.text) {
        const char *n = spec->name.text;
        if (strcmp(n, "aos") == 0 || strcmp(n, "soa") == 0)
            return tc_builtin_layout(cls, n[0] == 's');
        TopEntry *top = tc_top(c, n);
        if (!top || !top->layout) {
            if (report) {
                diag_error(spec->name.loc, DIAG_E0400, "unknown layout '%s'", n);
                NameList cands = {0};
                VEC_PUSH(cands, intern_cstr("aos"));
                VEC_PUSH(cands, intern_cstr("soa"));
                tc_add_top_names(c, TOP_LAYOUTS, &cands);
                tc_suggest(n, spec->name.loc, &cands);
            }
            return NULL;
        }
        LayoutDecl *ld = top->layout;
        TopEntry *lc = tc_top(c, ld->class_name.text);
        if (!lc || !lc->cls)
            return NULL;    /* the layout's own class is unknown: reported there */
        bool other_class;
        TcLayout *l = declared_layout_for(c, ld, cls, &other_class);
        if (other_class) {
            if (report) {
                diag_error(spec->name.loc, DIAG_E0400, "layout '%s' is for class '%s', "
                           "not '%s'", n, ld->class_name.text, cls->name.text);
                diag_note(ld->name.loc, "'%s' declared here", n);
            }
            return NULL;
        }
        return l;
    }
    NameClusters cs = clusters_of_spec(spec);
    return layout_from_names(cls, name_if_literal, &cs, report ? source_problem : silent_problem,
                             cls, spec->loc);
}

/* The written text of a literal spec, as the report prints it. */
static const char *spec_text(const TcLayout *l);

TcLayout *tc_layout_of_decl(Checker *c, LayoutDecl *ld)
{
    TcLayout *l = tc_map_get(&layouts_by_decl, (const char *)ld);
    if (l)
        return l;
    TopEntry *top = tc_top(c, ld->class_name.text);
    if (!top || !top->cls)
        return NULL;
    l = override_layout(c, ld->name.text, top->cls);
    if (!l)
        l = resolve_spec(c, ld->spec, top->cls, ld->name.text, false);
    if (l && !l->name)
        l->name = ld->name.text;    /* an overriding literal */
    if (l)
        tc_map_put(&layouts_by_decl, (const char *)ld, l);
    return l;
}

// decl = "layout" name ":" class "=" layout
void tc_check_layout_decl(Checker *c, LayoutDecl *ld)
{
    TopEntry *top = tc_top(c, ld->class_name.text);
    if (!top || !top->cls) {
        diag_error(ld->class_name.loc, DIAG_E0101, "unknown class '%s'", ld->class_name.text);
        return;
    }
    if (top->cls->is_active) {
        diag_error(ld->class_name.loc, DIAG_E0400, "'%s' is an active class: actors do not "
                   "live in pools, so they have no layout", ld->class_name.text);
        return;
    }
    if (ld->spec && ld->spec->name.text) {
        if (resolve_spec(c, ld->spec, top->cls, NULL, true))    /* a name: check it */
            tc_layout_of_decl(c, ld);
        return;
    }
    if (resolve_spec(c, ld->spec, top->cls, ld->name.text, true))   /* its own mistakes */
        tc_layout_of_decl(c, ld);   /* and the layout in force, for the advisor */
}

TcLayout *tc_layout_of_decl_resolved(const LayoutDecl *ld)
{
    return tc_map_get(&layouts_by_decl, (const char *)ld);
}

/* ---- pools ----------------------------------------------------------------------- */

void tc_declare_pool(Checker *c, PoolDecl *pd)
{
    (void)c;
    if (tc_pool(pd))
        return;
    TcPool *p = ARENA_NEW(TcPool);
    p->decl = pd;
    Place *pl = ARENA_NEW(Place);
    pl->tag = PL_POOL;
    pl->name = pd->name.text;
    pl->pool = pd;
    p->place = pl;
    tc_map_put(&pools_by_decl, (const char *)pd, p);
    tc_map_put(&pools_by_place, (const char *)pl, p);
    /* source order, whatever order the checker meets them in */
    size_t at = all_pools.len;
    VEC_PUSH(all_pools, p);
    while (at > 0 && all_pools.items[at - 1]->decl->loc.start > pd->loc.start) {
        all_pools.items[at] = all_pools.items[at - 1];
        at--;
    }
    all_pools.items[at] = p;
}

// pool = name ":" type [ "layout" layout ] [ "on" place ]
void tc_check_pool(Checker *c, PoolDecl *pd, bool report)
{
    TcPool *p = tc_pool(pd);
    Type *t = tc_resolve_type(c, pd->type, report);
    p->node = pd->on ? tc_resolve_place(c, pd->on, report)
                     : pd->is_local ? tc_here(c) : tc_place_node(0);
    if (pd->on && report && (!tc_place_is_node(p->node) || p->node->tag == PL_UNKNOWN))
        diag_error(pd->on->loc, DIAG_E0401, "a pool is on a node: '%s' is not one",
                   tc_place_name(p->node));
    if (t->kind == TY_ERROR)
        return;
    if (t->kind != TY_CLASS) {
        if (report)
            diag_error(pd->type->loc, DIAG_E0401, "a pool holds objects of a class, not "
                       "'%s'", ty_name(t));
        return;
    }
    if (t->cls->is_active) {
        if (report) {
            diag_error(pd->type->loc, DIAG_E0401, "'%s' is an active class: actors do not "
                       "live in pools", t->cls->name.text);
            diag_note(t->cls->name.loc, "'%s' declared here", t->cls->name.text);
        }
        return;
    }
    if (!pd->type->has_places && t->nplaces == 1)
        t->places[0] = p->place;        /* `pool P: C` is `pool P: C<P>` */
    if (t->places[0] != p->place) {
        if (report) {
            diag_error(pd->type->loc, DIAG_E0401, "the objects of pool '%s' must live in it: "
                       "the type's first place must be '%s', not '%s'", pd->name.text,
                       pd->name.text, tc_place_name(t->places[0]));
            diag_note(LOC_NONE, "write 'pool %s: %s<%s, ...>'", pd->name.text,
                      t->cls->name.text, pd->name.text);
        }
        return;
    }
    p->elem = t;
    TcLayout *l = override_layout(c, pd->name.text, t->cls);
    if (!l)
        l = resolve_spec(c, pd->layout, t->cls, NULL, report);
    if (l && !l->name)
        l->name = spec_text(l);
    p->layout = l;
}

/* ---- --layout overrides ------------------------------------------------------------ */

typedef struct FlagCtx {
    const TcLayoutOverride *ov;     /* NULL: silent (an override checked already) */
    const char *name;               /* the NAME it overrides */
    bool failed;
} FlagCtx;

/* A problem with an override: at its place in a layout file (`loc`, else
 * the whole entry), without one for a flag. */
static void flag_problem(void *ctx, Loc loc, const char *fmt, const char *a, const char *b)
{
    FlagCtx *f = ctx;
    f->failed = true;
    if (!f->ov)
        return;
    char *msg = arena_printf(fmt, a, b);
    if (f->ov->at.file)
        diag_error(loc.file ? loc : f->ov->at, DIAG_E0402, "invalid layout for '%s': %s",
                   f->name, msg);
    else
        diag_error_noloc(DIAG_E0402, "invalid --layout override '%s': %s", f->ov->text, msg);
}

/* Where bytes [from, to) of an override's SPEC are in its layout file
 * (LOC_NONE for a flag). */
static Loc spec_loc(const FlagCtx *f, const char *spec, const char *from, const char *to)
{
    if (!f->ov || !f->ov->at.file)
        return LOC_NONE;
    uint32_t at = f->ov->spec_offset + (uint32_t)(from - spec);
    return (Loc){f->ov->at.file, at, at + (uint32_t)(to - from)};
}

static bool ident_char(int ch) { return isalnum(ch) || ch == '_'; }

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* SPEC, the value of override `ov` for NAME, as a layout of cls,
 * reporting E0402 (nothing when ov is NULL); NULL if bad. */
static TcLayout *parse_flag_spec(Checker *c, const TcLayoutOverride *ov, const char *name_of,
                                 const char *spec, ClassDecl *cls)
{
    FlagCtx ctx = {ov, name_of, false};
    const char *s = skip_space(spec);
    const char *end = spec + strlen(spec);
    if (ident_char((unsigned char)*s) && strncmp(s, "rec", 3) != 0) {
        const char *e = s;
        while (ident_char((unsigned char)*e))
            e++;
        if (*skip_space(e)) {
            flag_problem(&ctx, spec_loc(&ctx, spec, s, end), "'%s' is not a layout%s", spec, "");
            return NULL;
        }
        Loc at = spec_loc(&ctx, spec, s, e);
        const char *name = intern(s, (size_t)(e - s));
        if (strcmp(name, "aos") == 0 || strcmp(name, "soa") == 0)
            return tc_builtin_layout(cls, name[0] == 's');
        TopEntry *top = tc_top(c, name);
        if (!top || !top->layout) {
            flag_problem(&ctx, at, "unknown layout '%s'%s", name, "");
            return NULL;
        }
        bool other_class;
        TcLayout *l = declared_layout_for(c, top->layout, cls, &other_class);
        if (other_class) {
            flag_problem(&ctx, at, "layout '%s' is for another class than '%s'", name,
                         cls->name.text);
            return NULL;
        }
        return l;
    }
    /* rec{a, b} + rec{c} */
    NameClusters cs = {0};
    for (;;) {
        s = skip_space(s);
        if (strncmp(s, "rec", 3) != 0 || (s = skip_space(s + 3), *s != '{'))
            break;
        s++;
        NameCluster nc = {0};
        for (;;) {
            s = skip_space(s);
            const char *e = s;
            while (ident_char((unsigned char)*e))
                e++;
            if (e == s)
                break;
            VEC_PUSH(nc.names, intern(s, (size_t)(e - s)));
            VEC_PUSH(nc.locs, spec_loc(&ctx, spec, s, e));
            s = skip_space(e);
            if (*s != ',')
                break;
            s++;
        }
        if (*s != '}' || nc.names.len == 0)
            break;
        VEC_PUSH(cs, nc);
        s = skip_space(s + 1);
        if (*s == '\0')
            return layout_from_names(cls, NULL, &cs, flag_problem, &ctx,
                                     spec_loc(&ctx, spec, spec, end));
        if (*s != '+')
            break;
        s++;
    }
    flag_problem(&ctx, spec_loc(&ctx, spec, *s ? s : spec, *s ? s + 1 : end),
                 "'%s' is neither a layout name nor clusters like 'rec{x, y} + rec{z}'%s",
                 spec, "");
    return NULL;
}

/* The override for NAME, as a layout of cls, or NULL (none, or bad: the
 * check of the overrides reported it). */
static TcLayout *override_layout(Checker *c, const char *name, ClassDecl *cls)
{
    const char *spec = tc_map_get(&overrides, name);
    return spec ? parse_flag_spec(c, NULL, name, spec, cls) : NULL;   /* checked already */
}

/* The pool statements named `name` in every body of the program. */
typedef struct LocalPools {
    const char *name;
    PoolVec found;
} LocalPools;

static bool note_local_pool(AstWalk *w, Stmt *s)
{
    LocalPools *lp = w->ctx;
    if (s->kind == ST_POOL)
        for (size_t i = 0; i < s->u.pool.pools.len; i++)
            if (s->u.pool.pools.items[i]->name.text == lp->name)
                VEC_PUSH(lp->found, s->u.pool.pools.items[i]);
    return true;
}

static void find_local_pools(const Program *program, LocalPools *lp)
{
    AstWalk w = {.stmt = note_local_pool, .ctx = lp};
    for (size_t i = 0; i < program->decls.len; i++) {
        Decl *d = program->decls.items[i];
        if (d->kind == DECL_FUNC && d->u.func->body)
            ast_walk_stmt(&w, d->u.func->body);
        else if (d->kind == DECL_CLASS)
            for (size_t j = 0; j < d->u.cls->methods.len; j++)
                if (d->u.cls->methods.items[j]->body)
                    ast_walk_stmt(&w, d->u.cls->methods.items[j]->body);
    }
}

static ClassDecl *class_named(Checker *c, const char *name)
{
    TopEntry *ce = tc_top(c, name);
    return ce ? ce->cls : NULL;
}

// flag = "--layout" NAME "=" SPEC
void tc_apply_layout_overrides(Checker *c, const TcLayoutOverride *ovs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *text = ovs[i].text;
        const char *eq = strchr(text, '=');
        if (!eq || eq == text || !eq[1])
            continue;      /* the driver's message */
        const char *name = intern(text, (size_t)(eq - text));
        TopEntry *top = tc_top(c, name);
        /* the classes SPEC must be a layout of: the declaration's, or every
         * pool statement's of that name */
        VEC(ClassDecl *) classes = {0};
        LocalPools local = {.name = name};
        find_local_pools(c->program, &local);
        if (top && top->pool)
            VEC_PUSH(classes, class_named(c, top->pool->type->name.text));
        else if (top && top->layout)
            VEC_PUSH(classes, class_named(c, top->layout->class_name.text));
        for (size_t j = 0; j < local.found.len; j++)
            VEC_PUSH(classes, class_named(c, local.found.items[j]->type->name.text));
        if (classes.len == 0) {
            if (ovs[i].at.file)
                diag_error((Loc){ovs[i].at.file, ovs[i].at.start,
                                 ovs[i].at.start + (uint32_t)(eq - text)},
                           DIAG_E0402, "'%s' is not a pool or layout of the program", name);
            else
                diag_error_noloc(DIAG_E0402, "invalid --layout override '%s': '%s' is not a "
                                 "pool or layout of the program", text, name);
            continue;
        }
        bool valid = true;
        for (size_t j = 0; j < classes.len && valid; j++)
            if (classes.items[j])       /* else the declaration's own error */
                valid = parse_flag_spec(c, &ovs[i], name, eq + 1, classes.items[j]) != NULL;
        if (valid) {
            tc_map_put(&overrides, name, (void *)(eq + 1));
            tc_map_put(&override_entries, name, (void *)&ovs[i]);
        }
    }
}

/* ---- the report --------------------------------------------------------------------- */

static const char *cluster_text(const TcCluster *c)
{
    const char *s = "rec{";
    for (size_t i = 0; i < c->fields.len; i++)
        s = arena_printf("%s%s%s", s, i ? ", " : "", c->fields.items[i]->name.text);
    return arena_printf("%s}", s);
}

const char *tc_layout_spec_text(const TcLayout *l) { return spec_text(l); }

TcLayout *tc_split_layout(ClassDecl *cls, const bool *hot)
{
    NameClusters cs = {0};
    NameCluster first = {0}, second = {0};
    for (size_t i = 0; i < cls->fields.len; i++) {
        NameCluster *to = hot[i] ? &first : &second;
        VEC_PUSH(to->names, cls->fields.items[i]->name.text);
        VEC_PUSH(to->locs, LOC_NONE);
    }
    if (first.names.len == 0 || second.names.len == 0)
        return NULL;
    VEC_PUSH(cs, first);
    VEC_PUSH(cs, second);
    return layout_from_names(cls, NULL, &cs, silent_problem, cls, LOC_NONE);
}

static const char *spec_text(const TcLayout *l)
{
    const char *s = "";
    for (size_t k = 0; k < l->clusters.len; k++)
        s = arena_printf("%s%s%s", s, k ? " + " : "", cluster_text(l->clusters.items[k]));
    return s;
}

/* " (from FILE:LINE)" when a layout file set the pool's layout, directly
 * or through the layout declaration it names; "" otherwise, so that the
 * report stays exactly §6's without one. */
static const char *layout_origin(const TcPool *p)
{
    const TcLayoutOverride *ov = tc_map_get(&override_entries, p->decl->name.text);
    if (!ov && p->decl->layout && p->decl->layout->name.text)
        ov = tc_map_get(&override_entries, p->decl->layout->name.text);
    return ov && ov->origin ? arena_printf(" (from %s)", ov->origin) : "";
}

void tc_print_layouts(FILE *out)
{
    for (size_t i = 0; i < all_pools.len; i++) {
        TcPool *p = all_pools.items[i];
        if (!p->layout)
            continue;
        fprintf(out, "pool %s: %s layout %s%s\n", p->decl->name.text,
                p->layout->cls->name.text, spec_text(p->layout), layout_origin(p));
        for (size_t k = 0; k < p->layout->clusters.len; k++) {
            TcCluster *c = p->layout->clusters.items[k];
            fprintf(out, "  %s: %llu bytes per object\n", cluster_text(c),
                    (unsigned long long)c->size);
        }
    }
}
