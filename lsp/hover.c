/* hover.c — textDocument/hover and textDocument/definition.
 *
 * Both start from the ref under the cursor (analysis_ref_at): what the
 * checker resolved that name to.  A hover shows one line of Mosaic saying
 * what it is — a binding with its type, a field, a function's or method's
 * signature as written, a class's header — and, for functions and
 * methods, their effects as `mosaicc --effects` reports them (LANGUAGE.md
 * §5).  Effects are computed only for a program without errors; while
 * there are some, the hover shows the effects of the document's last
 * version that had none, and says so.  Types are shown
 * with their places (`Account<node(1)>`), and a member's type is the one
 * read through its receiver, as the checker typed that use.
 *
 * Signatures and headers are the source text itself, blanks collapsed:
 * the declaration as its author wrote it, declared effects and place
 * parameters included, rather than a rendering of the resolved types
 * that could differ from it.
 *
 * A definition is the name in the declaration the ref denotes; built-in
 * functions, methods and properties have none.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L    /* open_memstream under -std=c11 */
#endif
#include "lsp.h"
#include "typecheck/layouts.h"

#include <stdlib.h>
#include <string.h>

#include "rpc.h"
#include "support/arena.h"
#include "typecheck/types.h"
#include "typecheck/effects.h"

/* A line longer than this is cut: a hover is read at a glance. */
#define MAX_LINE 300

/* The source text [start, end) with each run of blanks and line breaks
 * made one space, without those at either end. */
const char *lsp_source(const Analysis *a, uint32_t start, uint32_t end)
{
    const char *text = src_text(a->file);
    size_t len = src_length(a->file);
    if (end > len)
        end = (uint32_t)len;
    char *out = arena_alloc(MAX_LINE + 4);
    size_t n = 0;
    bool blank = false;
    for (uint32_t i = start; i < end && n < MAX_LINE; i++) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            blank = n > 0;
            continue;
        }
        if (blank)
            out[n++] = ' ';
        blank = false;
        out[n++] = c;
    }
    if (n >= MAX_LINE)
        memcpy(out + n, "...", 4);
    return out;
}

const char *lsp_func_line(const Analysis *a, const FuncDecl *f)
{
    return lsp_source(a, f->loc.start, f->body ? f->body->loc.start : f->loc.end);
}

const char *lsp_class_line(const Analysis *a, const ClassDecl *k)
{
    const char *text = src_text(a->file);
    uint32_t end = k->name.loc.end;
    while (end < k->loc.end && text[end] != '{')
        end++;
    return lsp_source(a, k->loc.start, end);
}

const char *lsp_pool_line(const Analysis *a, const PoolDecl *p)
{
    return arena_printf("pool %s", lsp_source(a, p->loc.start, p->loc.end));
}

static bool known(const Type *t)
{
    return t && t->kind != TY_ERROR;
}

const char *lsp_field_line(const FieldDecl *f, const Type *t)
{
    const char *kw = f->is_var ? "var" : "val";
    return known(t) ? arena_printf("%s %s: %s", kw, f->name.text, ty_show(t))
                    : arena_printf("%s %s", kw, f->name.text);
}

const char *lsp_local_line(const Sym *sym, const Type *t)
{
    const char *kw = sym->kind == SYM_LET ? "let " : sym->kind == SYM_VAR ? "var " : "";
    return known(t) ? arena_printf("%s%s: %s", kw, sym->name, ty_show(t))
                    : arena_printf("%s%s", kw, sym->name);
}

/* f's line of the last effect report of doc without errors, "" if f
 * was not in it. */
static const char *last_effects(const Document *doc, const FuncDecl *f)
{
    const char *name = f->owner ? arena_printf("%s.%s: ", f->owner->name.text, f->name.text)
                                : arena_printf("%s: ", f->name.text);
    size_t n = strlen(name);
    for (const char *line = doc->last_effects; line && *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if ((size_t)(end - line) > n && strncmp(line, name, n) == 0)
            return arena_strndup(line + n, (size_t)(end - line) - n);
        line = *end ? end + 1 : end;
    }
    return "";
}

/* "effects: `reads(m) writes(m)`", from this analysis or, while the
 * program has errors, from the last version that had none. */
static const char *effects_of(const Analysis *a, const Document *doc, const FuncDecl *f)
{
    if (!a->effects) {
        const char *last = last_effects(doc, f);
        return *last ? arena_printf("effects: `%s` (when the program last had no errors)", last)
                     : "effects: not known while the program has errors";
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    bool ok = eff_print_function(m, f);
    fclose(m);
    const char *s = ok ? arena_printf("effects: `%s`", buf) : NULL;
    free(buf);
    return s;
}

/* ---- hover ------------------------------------------------------------------ */

typedef struct Hover {
    const char *code;       /* a line of Mosaic, or NULL */
    const char *lines[3];   /* then lines of prose (Markdown-safe) */
    size_t nlines;
} Hover;

static void say(Hover *h, const char *line)
{
    if (line && h->nlines < sizeof h->lines / sizeof h->lines[0])
        h->lines[h->nlines++] = line;
}

static void describe_func(const Analysis *a, const Document *doc, Hover *h,
                          const FuncDecl *f)
{
    h->code = lsp_func_line(a, f);
    if (f->owner)
        say(h, arena_printf("method of %s `%s`", f->owner->is_active ? "actor" : "class",
                            f->owner->name.text));
    say(h, effects_of(a, doc, f));
}

static const char *property_of(const Type *receiver)
{
    switch (receiver ? receiver->kind : TY_ERROR) {
    case TY_STRING: return "the number of bytes of the string";
    case TY_ARRAY: return "the number of elements of the array";
    case TY_MAP: return "the number of entries of the map";
    case TY_POOL: return "the number of objects of the pool";
    default: return NULL;
    }
}

/* What to say about r; false if nothing. */
static bool describe(const Analysis *a, const Document *doc, const TcRef *r, Hover *h)
{
    switch (r->kind) {
    case TC_REF_NONE:
        return false;
    case TC_REF_LOCAL:
        if (!r->sym)
            return false;
        h->code = lsp_local_line(r->sym, r->type);
        say(h, r->sym->kind == SYM_PARAM ? "parameter"
               : r->sym->kind == SYM_LOOP ? "loop variable" : NULL);
        return true;
    case TC_REF_FIELD:
        if (!r->field)
            return false;
        h->code = lsp_field_line(r->field, r->type ? r->type : r->field->field_type);
        if (r->field->owner)
            say(h, arena_printf("field of %s `%s`", r->field->owner->is_active ? "actor" : "class",
                                r->field->owner->name.text));
        return true;
    case TC_REF_METHOD:
    case TC_REF_FUNC:
        if (!r->func)
            return false;
        describe_func(a, doc, h, r->func);
        return true;
    case TC_REF_CLASS:
        if (!r->cls)
            return false;
        h->code = lsp_class_line(a, r->cls);
        say(h, arena_printf("%zu field%s, %zu method%s", r->cls->fields.len,
                            r->cls->fields.len == 1 ? "" : "s", r->cls->methods.len,
                            r->cls->methods.len == 1 ? "" : "s"));
        return true;
    case TC_REF_POOL: {
        if (!r->pool)
            return false;
        h->code = lsp_pool_line(a, r->pool);
        /* the layout in force (overrides applied) and what each cluster holds */
        const TcPool *p = tc_pool(r->pool);
        if (p && p->layout) {
            const char *sizes = "";
            for (size_t k = 0; k < p->layout->clusters.len; k++)
                sizes = arena_printf("%s%s%llu", sizes, k ? " + " : "",
                                     (unsigned long long)p->layout->clusters.items[k]->size);
            say(h, arena_printf("layout in force: `%s` (%s bytes per object)",
                                tc_layout_spec_text(p->layout), sizes));
        }
        return true;
    }
    case TC_REF_BUILTIN:
        if (r->builtin < 0 || r->builtin >= BI_COUNT)
            return false;
        say(h, tc_builtin_signature(r->builtin, r->receiver));
        if (known(r->type))
            say(h, arena_printf("here: `%s`", ty_show(r->type)));
        return true;
    case TC_REF_PROPERTY:
        h->code = arena_printf("%s: int", lsp_source(a, r->span.start, r->span.end));
        say(h, property_of(r->receiver));
        return true;
    case TC_REF_THIS:
        if (!known(r->type))
            return false;
        h->code = arena_printf("this: %s", ty_show(r->type));
        return true;
    }
    return false;
}

/* The hover's text, in Markdown or plain. */
static char *render(const Hover *h, bool markdown)
{
    size_t len = (h->code ? strlen(h->code) : 0) + 32;
    for (size_t i = 0; i < h->nlines; i++)
        len += strlen(h->lines[i]) + 4;
    char *out = malloc(len);
    if (!out)
        return NULL;
    size_t n = 0;
    if (h->code)
        n += (size_t)snprintf(out + n, len - n, markdown ? "```mosaic\n%s\n```\n" : "%s\n",
                              h->code);
    for (size_t i = 0; i < h->nlines; i++) {
        const char *line = h->lines[i];
        if (!markdown) {
            /* the prose without its Markdown quotes */
            for (; *line && n + 2 < len; line++)
                if (*line != '`')
                    out[n++] = *line;
            out[n++] = '\n';
            out[n] = '\0';
        } else {
            n += (size_t)snprintf(out + n, len - n, "%s%s\n", i ? "\n" : "", line);
        }
    }
    while (n > 0 && out[n - 1] == '\n')
        out[--n] = '\0';
    return out;
}

json_object *lsp_hover(Server *s, Document *doc, uint32_t offset)
{
    const Analysis *a = server_analysis(s, doc);
    const TcRef *r = analysis_ref_at(a, offset);
    Hover h = {0};
    if (!r || !describe(a, doc, r, &h))
        return NULL;
    char *text = render(&h, s->markdown);
    if (!text)
        return NULL;
    json_object *contents = json_object_new_object();
    json_object_object_add(contents, "kind",
                           json_object_new_string(s->markdown ? "markdown" : "plaintext"));
    json_object_object_add(contents, "value", rpc_new_string(text));
    free(text);
    json_object *result = json_object_new_object();
    json_object_object_add(result, "contents", contents);
    json_object_object_add(result, "range", lsp_range(doc, r->span));
    return result;
}

/* ---- definition ------------------------------------------------------------- */

Loc lsp_declaration_of(const TcRef *r)
{
    switch (r->kind) {
    case TC_REF_LOCAL:
        return r->sym ? r->sym->loc : LOC_NONE;
    case TC_REF_FIELD:
        return r->field ? r->field->name.loc : LOC_NONE;
    case TC_REF_METHOD:
    case TC_REF_FUNC:
        return r->func ? r->func->name.loc : LOC_NONE;
    case TC_REF_CLASS:
        return r->cls ? r->cls->name.loc : LOC_NONE;
    case TC_REF_POOL:
        return r->pool ? r->pool->name.loc : LOC_NONE;
    case TC_REF_THIS:
        return known(r->type) && r->type->cls ? r->type->cls->name.loc : LOC_NONE;
    case TC_REF_NONE:
    case TC_REF_BUILTIN:
    case TC_REF_PROPERTY:
        break;
    }
    return LOC_NONE;
}

json_object *lsp_definition(Server *s, Document *doc, uint32_t offset)
{
    const Analysis *a = server_analysis(s, doc);
    const TcRef *r = analysis_ref_at(a, offset);
    if (!r)
        return NULL;
    Loc at = lsp_declaration_of(r);
    if (at.file != a->file)
        return NULL;
    return lsp_location(doc, at);
}
