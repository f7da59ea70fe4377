/* advisor.c — the layout advisor: after the pools of `mosaicc --layouts`,
 * one entry per loop over a pool.
 *
 * For each `for o in P` (P a pool, or a `pool C` parameter, then once per
 * pool passed to it) it lists the fields the loop reads and writes
 * through o — directly, or in the methods it calls on o, followed through
 * their calls on `this`; o escaping anywhere else (an argument, a stored
 * value) counts as touching every field — and the bytes per object the
 * loop moves under the layout in force, under `aos`, under `soa` and under
 * every layout declared for the class, marking the cheapest.  The cost
 * model is the memory traffic of streaming the clusters: a cluster with a
 * field the loop reads costs its record size once (it is read in), a
 * cluster with a field it writes once more (it is written back); an
 * untouched cluster costs nothing.  Finally, what LLVM's loop vectoriser
 * said about the loop at the chosen -O, from its remarks (the driver
 * compiles the program with debug locations to get them).
 */
#include <string.h>

#include "layouts.h"
#include "check.h"

typedef VEC(TcPool *) PoolList;
typedef VEC(const TcLayout *) LayoutList;

/* What a loop does to the fields of its objects. */
typedef struct Touch {
    ClassDecl *cls;
    bool *reads, *writes;
} Touch;

static Touch new_touch(ClassDecl *cls)
{
    Touch t = {cls, arena_alloc(cls->fields.len + 1), arena_alloc(cls->fields.len + 1)};
    memset(t.reads, 0, cls->fields.len + 1);
    memset(t.writes, 0, cls->fields.len + 1);
    return t;
}

static void touch_all(Touch *t)
{
    for (size_t i = 0; i < t->cls->fields.len; i++)
        t->reads[i] = t->writes[i] = true;
}

/* The object being followed: a loop variable, or `this` in a method. */
typedef struct Subject {
    const Sym *var;         /* NULL: `this` */
    Touch *t;
    VEC(const FuncDecl *) stack;    /* methods being followed (recursion) */
} Subject;

static bool is_subject(const Subject *s, const Expr *e)
{
    if (!e)
        return false;
    if (!s->var)
        return e->kind == EX_THIS;
    return e->kind == EX_NAME && e->u.name.res == RES_LOCAL && e->u.name.sym == s->var;
}

static void follow_method(Subject *s, FuncDecl *m);
static void touch_stmt(Subject *s, const Stmt *st);

static void touch_expr(Subject *s, const Expr *e, bool write, bool read)
{
    if (!e)
        return;
    switch (e->kind) {
    case EX_NAME:
        if (!s->var && e->u.name.res == RES_FIELD) {    /* a bare field of this */
            s->t->reads[e->u.name.field->index] |= read;
            s->t->writes[e->u.name.field->index] |= write;
        } else if (is_subject(s, e)) {
            touch_all(s->t);        /* escapes: anything may happen to it */
        }
        return;
    case EX_THIS:
        if (!s->var)
            touch_all(s->t);
        return;
    case EX_FIELD:
        if (is_subject(s, e->u.field.object) && e->u.field.res == RES_FIELD) {
            s->t->reads[e->u.field.decl->index] |= read;
            s->t->writes[e->u.field.decl->index] |= write;
            return;
        }
        touch_expr(s, e->u.field.object, false, true);
        return;
    case EX_METHOD_CALL:
        if (is_subject(s, e->u.method_call.object) && e->u.method_call.func)
            follow_method(s, e->u.method_call.func);
        else
            touch_expr(s, e->u.method_call.object, false, true);
        for (size_t i = 0; i < e->u.method_call.args.len; i++)
            touch_expr(s, e->u.method_call.args.items[i], false, true);
        return;
    case EX_CALL:
        if (!s->var && e->u.call.res == RES_METHOD)
            follow_method(s, e->u.call.func);
        for (size_t i = 0; i < e->u.call.args.len; i++)
            touch_expr(s, e->u.call.args.items[i], false, true);
        return;
    case EX_BINARY:
        /* identity comparisons of the subject touch nothing */
        if ((e->u.binary.op == BIN_EQ || e->u.binary.op == BIN_NE)) {
            if (!is_subject(s, e->u.binary.left))
                touch_expr(s, e->u.binary.left, false, true);
            if (!is_subject(s, e->u.binary.right))
                touch_expr(s, e->u.binary.right, false, true);
            return;
        }
        touch_expr(s, e->u.binary.left, false, true);
        touch_expr(s, e->u.binary.right, false, true);
        return;
    case EX_UNARY:
        touch_expr(s, e->u.unary.operand, false, true);
        return;
    case EX_GET:
        touch_expr(s, e->u.get.future, false, true);
        return;
    case EX_SEND:
        touch_expr(s, e->u.method_call.object, false, true);
        for (size_t i = 0; i < e->u.method_call.args.len; i++)
            touch_expr(s, e->u.method_call.args.items[i], false, true);
        return;
    case EX_INDEX:
        touch_expr(s, e->u.index.object, false, true);
        touch_expr(s, e->u.index.index, false, true);
        return;
    case EX_NEW:
        for (size_t i = 0; i < e->u.new_obj.args.len; i++)
            touch_expr(s, e->u.new_obj.args.items[i], false, true);
        return;
    case EX_NEW_ARRAY:
        touch_expr(s, e->u.new_array.length, false, true);
        return;
    case EX_ARRAY_LIT:
        for (size_t i = 0; i < e->u.array_lit.elems.len; i++)
            touch_expr(s, e->u.array_lit.elems.items[i], false, true);
        return;
    default:
        return;
    }
}

/* A method called on the subject: what it does to `this` is done to it. */
static void follow_method(Subject *s, FuncDecl *m)
{
    if (!m || !m->body)
        return;
    for (size_t i = 0; i < s->stack.len; i++)
        if (s->stack.items[i] == m)
            return;     /* recursion: already being followed */
    Subject inner = {NULL, s->t, s->stack};
    VEC_PUSH(inner.stack, m);
    touch_stmt(&inner, m->body);
}

static void touch_stmt(Subject *s, const Stmt *st)
{
    if (!st)
        return;
    switch (st->kind) {
    case ST_LET:
        touch_expr(s, st->u.let.init, false, true);
        return;
    case ST_ASSIGN:
        touch_expr(s, st->u.assign.target, true, st->u.assign.compound);
        touch_expr(s, st->u.assign.value, false, true);
        return;
    case ST_EXPR:
        touch_expr(s, st->u.expr.expr, false, true);
        return;
    case ST_IF:
        touch_expr(s, st->u.if_.cond, false, true);
        touch_stmt(s, st->u.if_.then_block);
        touch_stmt(s, st->u.if_.else_stmt);
        return;
    case ST_WHILE:
        touch_expr(s, st->u.while_.cond, false, true);
        touch_stmt(s, st->u.while_.body);
        return;
    case ST_FOR_RANGE:
        touch_expr(s, st->u.for_range.from, false, true);
        touch_expr(s, st->u.for_range.to, false, true);
        touch_stmt(s, st->u.for_range.body);
        return;
    case ST_FOR_IN:
        touch_expr(s, st->u.for_in.iterable, false, true);
        touch_stmt(s, st->u.for_in.body);
        return;
    case ST_RETURN:
        touch_expr(s, st->u.ret.value, false, true);
        return;
    case ST_BLOCK:
        for (size_t i = 0; i < st->u.block.stmts.len; i++)
            touch_stmt(s, st->u.block.stmts.items[i]);
        return;
    default:
        return;
    }
}

/* ---- the report ------------------------------------------------------------ */

static uint64_t bytes_moved(const TcLayout *l, const Touch *t)
{
    uint64_t total = 0;
    for (size_t k = 0; k < l->clusters.len; k++) {
        const TcCluster *c = l->clusters.items[k];
        bool r = false, w = false;
        for (size_t i = 0; i < c->fields.len; i++) {
            r |= t->reads[c->fields.items[i]->index];
            w |= t->writes[c->fields.items[i]->index];
        }
        total += (r ? c->size : 0) + (w ? c->size : 0);
    }
    return total;
}

static void print_fields(FILE *out, const Touch *t, const bool *which, const char *what)
{
    fprintf(out, "%s", what);
    bool any = false;
    for (size_t i = 0; i < t->cls->fields.len; i++)
        if (which[i]) {
            fprintf(out, "%s%s", any ? ", " : " ", t->cls->fields.items[i]->name.text);
            any = true;
        }
    if (!any)
        fputs(" nothing", out);
}

/* The layouts to compare: in force first, then aos, soa, the declared. */
static void candidates(const TcPool *p, LayoutList *out,
                       const TcLayout *(*declared)(void *, size_t), void *ctx, size_t ndeclared)
{
    const TcLayout *all[3 + ndeclared];
    size_t n = 0;
    all[n++] = p->layout;
    all[n++] = tc_builtin_layout(p->layout->cls, false);
    all[n++] = tc_builtin_layout(p->layout->cls, true);
    for (size_t i = 0; i < ndeclared; i++)
        all[n++] = declared(ctx, i);
    for (size_t i = 0; i < n; i++) {
        bool seen = !all[i] || all[i]->cls != p->layout->cls;
        for (size_t j = 0; j < out->len && !seen; j++)
            seen = out->items[j] == all[i];
        if (!seen)
            VEC_PUSH(*out, all[i]);
    }
}

/* What a walk over the program's pool loops does with each (loop, pool):
 * the report prints it, the tuner adds it up. */
typedef struct LoopVisitor LoopVisitor;
struct LoopVisitor {
    void (*visit)(LoopVisitor *v, const Stmt *loop, const TcPool *p, const char *via);
    const Program *program;
};

typedef struct Advice {
    LoopVisitor v;          /* first: the walk's context is the visitor */
    FILE *out;
    int opt_level;
    TcVectorNote note;
    void *note_ctx;
} Advice;

static const TcLayout *declared_layout(void *ctx, size_t i)
{
    const Program *p = ctx;
    size_t k = 0;
    for (size_t d = 0; d < p->decls.len; d++)
        if (p->decls.items[d]->kind == DECL_LAYOUT && k++ == i)
            return tc_layout_of_decl_resolved(p->decls.items[d]->u.layout);
    return NULL;
}

/* What loop does to the fields of p's objects. */
static Touch loop_touch(const Stmt *loop, const TcPool *p)
{
    Touch t = new_touch(p->layout->cls);
    Subject s = {loop->u.for_in.sym, &t, {0}};
    touch_stmt(&s, loop->u.for_in.body);
    return t;
}

static size_t declared_count(const Program *program)
{
    size_t n = 0;
    for (size_t d = 0; d < program->decls.len; d++)
        n += program->decls.items[d]->kind == DECL_LAYOUT;
    return n;
}

/* The names the loop's body calls, in order, each once: "'sqrt', 'f'". */
typedef struct Calls {
    const char *names;
} Calls;

static bool note_call(AstWalk *w, Expr *e)
{
    Calls *c = w->ctx;
    const char *name = e->kind == EX_CALL && e->u.call.callee ? e->u.call.callee->u.name.text
                     : e->kind == EX_METHOD_CALL ? e->u.method_call.method.text : NULL;
    if (name && !strstr(c->names, arena_printf("'%s'", name)))
        c->names = arena_printf("%s%s'%s'", c->names, *c->names ? ", " : "", name);
    return true;
}

/* LLVM's reasons for not vectorising a loop, in words about the loop as
 * written (the remark after "loop not vectorized: "); the remark itself
 * when it is not one of these. */
static const char *why_not_vectorised(const char *note, const Stmt *loop)
{
    const char *r = strncmp(note, "no (", 4) == 0 ? note + 4 : "";
    size_t n = strlen(r);
    const char *raw = n && r[n - 1] == ')' ? arena_printf("%.*s", (int)(n - 1), r) : r;
    if (!*raw)
        return "the vectoriser gave no reason";
    if (strstr(raw, "call instruction cannot be vectorized")) {
        Calls c = {""};
        AstWalk w = {note_call, NULL, NULL, &c};
        ast_walk_stmt(&w, loop->u.for_in.body);
        return *c.names ? arena_printf("the loop calls %s, which has no vector form", c.names)
                        : "the loop calls a function that has no vector form";
    }
    if (strstr(raw, "reorder floating-point"))
        return "it adds up floats, and another order could change the result: Mosaic keeps "
               "float arithmetic in source order";
    if (strstr(raw, "unsafe dependent memory"))
        return "it writes memory that another iteration may read, as far as LLVM can tell: "
               "it cannot prove that two clusters, or an array and a cluster, do not overlap";
    if (strstr(raw, "cannot identify array bounds"))
        return "an element is read or written through an index the compiler cannot bound";
    if (strstr(raw, "could not determine number of loop iterations"))
        return "the number of iterations is not known when the loop starts";
    if (strstr(raw, "control flow"))
        return "the body branches or may leave the loop early (a check that can fail, a "
               "break, a return)";
    if (strstr(raw, "reduction is used outside") || strstr(raw, "could not be identified"))
        return "a value carried from one iteration to the next is not a plain sum, "
               "product, minimum or maximum";
    if (strstr(raw, "instruction cannot be vectorized"))
        return "an operation in the body has no vector form (an allocation, a call into "
               "the runtime, a check that can fail)";
    if (strstr(raw, "vectorization is not beneficial") || strstr(raw, "not beneficial"))
        return "the vectoriser judged it not worth it for this loop";
    return arena_printf("the vectoriser says: %s", raw);
}

static void advise_loop(LoopVisitor *v, const Stmt *loop, const TcPool *p, const char *via)
{
    Advice *a = (Advice *)v;
    int line = 0, col = 0;
    src_line_col(loop->loc.file, loop->loc.start, &line, &col);
    Touch t = loop_touch(loop, p);
    fprintf(a->out, "loop %s:%d: for %s in %s%s:", src_path(loop->loc.file), line,
            loop->u.for_in.var.text, p->decl->name.text, via);
    print_fields(a->out, &t, t.reads, " reads");
    print_fields(a->out, &t, t.writes, "; writes");
    fputc('\n', a->out);
    LayoutList ls = {0};
    candidates(p, &ls, declared_layout, (void *)v->program, declared_count(v->program));
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < ls.len; i++) {
        uint64_t b = bytes_moved(ls.items[i], &t);
        if (b < best)
            best = b;
    }
    for (size_t i = 0; i < ls.len; i++) {
        uint64_t b = bytes_moved(ls.items[i], &t);
        fprintf(a->out, "  layout %s: %llu bytes per object%s%s\n", ls.items[i]->name,
                (unsigned long long)b, i == 0 ? " (in force)" : "",
                b == best ? " (cheapest)" : "");
    }
    const char *note = a->note ? a->note(a->note_ctx, line) : NULL;
    if (!note)
        note = a->opt_level < 2 ? "no (the loop vectoriser runs from -O2 on)"
                                : "no (the vectoriser said nothing about this loop)";
    else if (strncmp(note, "no", 2) == 0)
        note = arena_printf("no (%s)", why_not_vectorised(note, loop));
    fprintf(a->out, "  vectorised at -O%d: %s\n", a->opt_level, note);
}

/* The pools passed to parameter `param` of f, found by a walk of every
 * body (PoolSearch is the walk's context). */
typedef struct PoolSearch {
    const FuncDecl *f;
    size_t param;
    PoolList pools;
} PoolSearch;

static bool find_pool_args(AstWalk *w, Expr *e)
{
    PoolSearch *ps = w->ctx;
    const ExprVec *args = e->kind == EX_CALL ? &e->u.call.args
                        : e->kind == EX_METHOD_CALL || e->kind == EX_SEND ? &e->u.method_call.args
                                                                          : NULL;
    const FuncDecl *callee = e->kind == EX_CALL ? e->u.call.func
                           : args ? e->u.method_call.func : NULL;
    if (args && callee == ps->f && ps->param < args->len) {
        const Expr *a = args->items[ps->param];
        TcPool *p = a->type ? tc_pool_of_place(ty_home(a->type)) : NULL;
        bool seen = !p || !p->layout;
        for (size_t i = 0; i < ps->pools.len && !seen; i++)
            seen = ps->pools.items[i] == p;
        if (!seen)
            VEC_PUSH(ps->pools, p);
    }
    return true;
}

/* Every body of the program, walked by w. */
static void walk_program(const Program *prog, AstWalk *w)
{
    for (size_t d = 0; d < prog->decls.len; d++) {
        Decl *dd = prog->decls.items[d];
        /* generic code as compiled: its instances' loops, not its own */
        if (dd->kind == DECL_FUNC && !tc_is_generic_func(dd->u.func))
            ast_walk_stmt(w, dd->u.func->body);
        else if (dd->kind == DECL_CLASS && !tc_is_generic_class(dd->u.cls))
            for (size_t j = 0; j < dd->u.cls->methods.len; j++)
                if (!tc_is_generic_func(dd->u.cls->methods.items[j]))
                    ast_walk_stmt(w, dd->u.cls->methods.items[j]->body);
    }
}

static bool visit_stmt(AstWalk *w, Stmt *st)
{
    LoopVisitor *a = w->ctx;
    if (st->kind != ST_FOR_IN)
        return true;
    const Type *t = st->u.for_in.iterable->type;
    if (!t || t->kind != TY_POOL)
        return true;
    Place *at = ty_home(t);
    TcPool *p = tc_pool_of_place(at);
    if (p && p->layout) {
        a->visit(a, st, p, "");
    } else if (at->tag == PL_PARAM && at->func) {
        /* a `pool C` parameter: once per pool passed to it */
        PoolSearch ps = {at->func, 0, {0}};
        for (size_t i = 0; i < at->func->params.len; i++)
            if (tc_place_pool_param(at->func, i) == at)
                ps.param = i;
        AstWalk search = {find_pool_args, NULL, NULL, &ps};
        walk_program(a->program, &search);
        for (size_t i = 0; i < ps.pools.len; i++)
            a->visit(a, st, ps.pools.items[i],
                     arena_printf(" (parameter %s)", tc_place_name(at)));
    }
    return true;
}

void tc_print_layout_advice(FILE *out, const Program *program, int opt_level,
                            TcVectorNote note, void *note_ctx)
{
    Advice a = {{advise_loop, program}, out, opt_level, note, note_ctx};
    AstWalk w = {NULL, NULL, visit_stmt, &a.v};
    walk_program(program, &w);
}

/* ---- the tuner's candidates ------------------------------------------------ */

typedef struct Tuning {
    LoopVisitor v;
    TcTunePools *out;
    VEC(VEC(Touch)) touches;        /* per entry of out: each loop's */
} Tuning;

static void tune_loop(LoopVisitor *v, const Stmt *loop, const TcPool *p, const char *via)
{
    (void)via;
    Tuning *tu = (Tuning *)v;
    size_t i = 0;
    while (i < tu->out->len && tu->out->items[i].pool != p)
        i++;
    if (i == tu->out->len) {
        VEC_PUSH(*tu->out, ((TcTunePool){.pool = p}));
        VEC_PUSH(tu->touches, ((typeof(tu->touches.items[0])){0}));
    }
    tu->out->items[i].nloops++;
    VEC_PUSH(tu->touches.items[i], loop_touch(loop, p));
}

static void add_candidate(TcTunePool *tp, const TcLayout *l, const char *spec,
                          const char *what, const Touch *touches, size_t n)
{
    if (!l)
        return;
    const char *text = tc_layout_spec_text(l);
    for (size_t i = 0; i < tp->cands.len; i++)
        if (strcmp(tc_layout_spec_text(tp->cands.items[i].layout), text) == 0)
            return;     /* the same clusters under another name */
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += bytes_moved(l, &touches[i]);
    VEC_PUSH(tp->cands, ((TcTuneCandidate){spec, what, l, bytes}));
}

void tc_tune_candidates(const Program *program, TcTunePools *out)
{
    Tuning tu = {{tune_loop, program}, out, {0}};
    AstWalk w = {NULL, NULL, visit_stmt, &tu.v};
    walk_program(program, &w);
    for (size_t i = 0; i < out->len; i++) {
        TcTunePool *tp = &out->items[i];
        const TcLayout *now = tp->pool->layout;
        ClassDecl *cls = now->cls;
        const Touch *ts = tu.touches.items[i].items;
        size_t n = tu.touches.items[i].len;
        add_candidate(tp, now, now->name ? now->name : tc_layout_spec_text(now), "in force",
                      ts, n);
        add_candidate(tp, tc_builtin_layout(cls, false), "aos", "aos", ts, n);
        add_candidate(tp, tc_builtin_layout(cls, true), "soa", "soa", ts, n);
        for (size_t k = 0; k < declared_count(program); k++) {
            const TcLayout *l = declared_layout((void *)program, k);
            if (l && l->cls == cls)
                add_candidate(tp, l, l->name, "declared", ts, n);
        }
        /* hot: what any loop over the pool reads or writes */
        bool *hot = arena_alloc(cls->fields.len + 1);
        for (size_t f = 0; f < cls->fields.len; f++) {
            hot[f] = false;
            for (size_t k = 0; k < n; k++)
                hot[f] |= ts[k].reads[f] || ts[k].writes[f];
        }
        TcLayout *split = tc_split_layout(cls, hot);
        if (split)
            add_candidate(tp, split, tc_layout_spec_text(split), "hot/cold", ts, n);
    }
}
