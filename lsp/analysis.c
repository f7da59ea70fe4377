/* analysis.c — one run of the front end on a document (analysis.h).
 *
 * Diagnostics arrive through diag's listener as they are reported, each
 * note after its error; they are copied into malloc'd records, since the
 * next run frees the arena and diag's files.  Printing goes to /dev/null:
 * the protocol owns standard output, and standard error is the editor's
 * log, not the place for every keystroke's errors.  The error limit is
 * off (past it diag would exit, ending the session); the first
 * ANALYSIS_MAX_ERRORS errors are kept instead.
 *
 * The refs are the checker's record plus the top-level declarations of
 * the tree (functions, classes, fields, methods, pools), which the
 * checker does not record since the AST holds them, sorted by where
 * their names start: names do not overlap, so the one under a cursor is
 * found by binary search.
 */
#include "analysis.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "parser/parser.h"
#include "typecheck/types.h"
#include "typecheck/effects.h"
#include "typecheck/generics.h"


static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(lsp_xrealloc(NULL, n), s, n);
}

/* ---- diagnostics ---------------------------------------------------------- */

typedef struct Collector {
    Analysis *a;
    bool keep;              /* keep what is reported now */
    bool dropped;           /* the last error was not kept: nor its notes */
} Collector;

static void collect(void *ctx, bool is_note, DiagCode code, Loc loc, const char *message)
{
    Collector *c = ctx;
    Analysis *a = c->a;
    if (!c->keep)
        return;
    if (is_note) {
        if (c->dropped || a->ndiags == 0)
            return;
        AnalysisDiag *d = &a->diags[a->ndiags - 1];
        AnalysisNote *notes = realloc(d->notes, (d->nnotes + 1) * sizeof *notes);
        if (!notes)
            return;
        d->notes = notes;
        d->notes[d->nnotes++] = (AnalysisNote){loc, xstrdup(message)};
        return;
    }
    if (a->ndiags == ANALYSIS_MAX_ERRORS) {
        a->truncated = true;
        c->dropped = true;
        return;
    }
    c->dropped = false;
    if (a->ndiags == 0)
        a->diags = lsp_xrealloc(NULL, ANALYSIS_MAX_ERRORS * sizeof *a->diags);
    a->diags[a->ndiags++] = (AnalysisDiag){loc, code, xstrdup(message), NULL, 0};
}

void analysis_clear(Analysis *a)
{
    for (size_t i = 0; i < a->ndiags; i++) {
        for (size_t j = 0; j < a->diags[i].nnotes; j++)
            free(a->diags[i].notes[j].message);
        free(a->diags[i].notes);
        free(a->diags[i].message);
    }
    free(a->diags);
    memset(a, 0, sizeof *a);
}

/* ---- the index ------------------------------------------------------------ */

typedef VEC(TcRef) RefVec;

static void add_decl(RefVec *v, TcRefKind kind, Name name, Type *type, void *decl)
{
    if (!name.text || name.loc.file == 0)
        return;
    TcRef r = {.span = name.loc, .kind = kind, .is_decl = true, .type = type, .builtin = -1};
    switch (kind) {
    case TC_REF_FIELD: r.field = decl; break;
    case TC_REF_FUNC:
    case TC_REF_METHOD: r.func = decl; break;
    case TC_REF_CLASS: r.cls = decl; break;
    case TC_REF_POOL: r.pool = decl; break;
    default: break;
    }
    VEC_PUSH(*v, r);
}

static void add_declarations(RefVec *v, const Program *p)
{
    for (size_t i = 0; i < p->decls.len; i++) {
        Decl *d = p->decls.items[i];
        if (!d)
            continue;
        switch (d->kind) {
        case DECL_FUNC:
            if (d->u.func && !tc_is_instance_func(d->u.func))
                add_decl(v, TC_REF_FUNC, d->u.func->name, NULL, d->u.func);
            break;
        case DECL_CLASS: {
            ClassDecl *k = d->u.cls;
            if (!k || tc_is_instance_class(k))     /* instances: the generic's */
                break;
            add_decl(v, TC_REF_CLASS, k->name, NULL, k);
            for (size_t j = 0; j < k->fields.len; j++)
                if (k->fields.items[j])
                    add_decl(v, TC_REF_FIELD, k->fields.items[j]->name,
                             k->fields.items[j]->field_type, k->fields.items[j]);
            for (size_t j = 0; j < k->methods.len; j++)
                if (k->methods.items[j] && !tc_is_instance_func(k->methods.items[j]))
                    add_decl(v, TC_REF_METHOD, k->methods.items[j]->name, NULL,
                             k->methods.items[j]);
            break;
        }
        case DECL_POOL:
            if (d->u.pool)
                add_decl(v, TC_REF_POOL, d->u.pool->name, NULL, d->u.pool);
            break;
        case DECL_LAYOUT:
            break;
        }
    }
}

/* By start, then in the order recorded (qsort is not stable). */
typedef struct Indexed {
    const TcRef *ref;
    size_t order;
} Indexed;

static int by_start(const void *x, const void *y)
{
    const Indexed *a = x, *b = y;
    if (a->ref->span.start != b->ref->span.start)
        return a->ref->span.start < b->ref->span.start ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static void build_index(Analysis *a)
{
    RefVec all = {0};
    for (size_t i = 0; i < a->record.refs.len; i++)
        if (a->record.refs.items[i].span.file == a->file)
            VEC_PUSH(all, a->record.refs.items[i]);
    add_declarations(&all, a->program);
    Indexed *ix = lsp_xrealloc(NULL, all.len * sizeof *ix);
    for (size_t i = 0; i < all.len; i++)
        ix[i] = (Indexed){&all.items[i], i};
    qsort(ix, all.len, sizeof *ix, by_start);
    a->refs = arena_alloc(all.len * sizeof *a->refs);
    for (size_t i = 0; i < all.len; i++)
        a->refs[i] = *ix[i].ref;
    a->nrefs = all.len;
    free(ix);
}

/* ---- running -------------------------------------------------------------- */

static FILE *sink;

void analysis_run(Analysis *a, const char *path, const char *text, size_t len,
                  bool keep_diags)
{
    analysis_clear(a);
    eff_reset();
    tc_reset();
    diag_reset();
    arena_free_all();
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (sink)
        diag_set_stream(sink);
    diag_set_error_limit(0);
    Collector col = {a, keep_diags, false};
    diag_set_listener(collect, &col);

    /* A byte-order mark says nothing (mosaicc drops it): blanked here,
     * not cut, so that offsets stay the document's. */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        char *copy = lsp_xrealloc(NULL, len);
        memcpy(copy, text, len);
        memset(copy, ' ', 3);
        a->file = src_add(path, copy, len);
        free(copy);
    } else {
        a->file = src_add(path, text, len);
    }
    a->program = parse_program(a->file);
    a->syntax_errors = diag_error_count() > 0;
    if (a->syntax_errors)
        col.keep = false;
    tc_record_start(&a->record);
    bool ok = a->program && tc_check_program(a->program, NULL, 0);
    tc_record_stop();
    if (ok && !a->syntax_errors) {
        eff_analyse(a->program);    /* its own errors (E0302) are kept */
        a->effects = true;
        if (diag_error_count() == 0)
            tc_warn_program(a->program);    /* as mosaicc: only without errors */
    }
    diag_set_listener(NULL, NULL);
    if (a->program)
        build_index(a);
    a->live = true;
}

/* ---- queries -------------------------------------------------------------- */

/* The index of the last ref starting at or before offset, or -1. */
static ptrdiff_t last_at_or_before(const Analysis *a, uint32_t offset)
{
    size_t lo = 0, hi = a->nrefs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->refs[mid].span.start <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

const TcRef *analysis_ref_at(const Analysis *a, uint32_t offset)
{
    if (!a->live)
        return NULL;
    ptrdiff_t i = last_at_or_before(a, offset);
    if (i < 0 || offset > a->refs[i].span.end)
        return NULL;
    /* of several refs of one name, the first that says what it is */
    uint32_t start = a->refs[i].span.start;
    while (i > 0 && a->refs[i - 1].span.start == start)
        i--;
    const TcRef *best = &a->refs[i];
    for (; (size_t)i < a->nrefs && a->refs[i].span.start == start; i++)
        if (best->kind == TC_REF_NONE && a->refs[i].kind != TC_REF_NONE)
            best = &a->refs[i];
    return best;
}

const TcRef *analysis_member_at(const Analysis *a, uint32_t offset)
{
    if (!a->live)
        return NULL;
    for (ptrdiff_t i = last_at_or_before(a, offset); i >= 0 && a->refs[i].span.start == offset;
         i--)
        if (a->refs[i].receiver)
            return &a->refs[i];
    return NULL;
}

const TcScopeLink *analysis_scope_at(const Analysis *a, uint32_t offset)
{
    if (!a->live)
        return NULL;
    /* points are in source order: the last one before the offset */
    size_t lo = 0, hi = a->record.points.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->record.points.items[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? a->record.points.items[lo - 1].visible : NULL;
}

ClassDecl *analysis_class_at(const Analysis *a, uint32_t offset)
{
    if (!a->live || !a->program)
        return NULL;
    for (size_t i = 0; i < a->program->decls.len; i++) {
        Decl *d = a->program->decls.items[i];
        if (d && d->kind == DECL_CLASS && d->u.cls && !tc_is_instance_class(d->u.cls) &&
            d->u.cls->loc.start <= offset &&
            offset < d->u.cls->loc.end)
            return d->u.cls;
    }
    return NULL;
}
