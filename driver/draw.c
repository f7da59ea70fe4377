/* draw.c — mosaicc --draw=topology|layouts: pictures of a program.
 *
 * Both drawings are written in Graphviz's DOT language.  With `-o F.dot`
 * the DOT itself is the output, and nothing else is needed; with `-o
 * F.svg` (or .png, .pdf: any format Graphviz's `dot -T` knows) the DOT is
 * piped to the `dot` program, which draws it.  We run `dot` rather than
 * link libgvc: the compiler then builds and works without Graphviz (only
 * the rendering needs it), the DOT stays a readable, testable artefact,
 * and a missing `dot` is one clear message instead of a link error.
 * Without -o the DOT goes to standard output.
 *
 * --draw=topology: the nodes the program names, as boxes (node(k) for
 * each literal k, node 0 holding `main`, and "?" for places nobody can
 * name statically), holding the actors started on them (one per
 * `new A<...>` of an active class, with its place arguments read at the
 * `new`) and the pools declared there; arrows from `main` and from each
 * actor to the places its effects (typecheck/effects.h, summaries that
 * include every callee) read, write or send to, labelled with the effect.
 * An actor's effects are written in its class's place parameters; they are
 * read through the `new`'s substitution, so `Worker<n>`'s `reads(n)`
 * started as `new Worker<node(1)>` is an arrow to node 1.  With
 * `--counts FILE` (the report a `--count-remote` run prints on standard
 * error, saved to FILE) the measured accesses and messages between nodes
 * are added as dashed arrows.
 *
 * --draw=layouts: each pool as a table of its clusters, in the order the
 * layout in force lists them (overrides applied), each cluster's fields
 * with their byte offsets and sizes in the cluster's record, as
 * `--layouts` reports them.
 *
 * The DOT is deterministic (source order, nodes by number) so that tests
 * compare it with golden files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"
#include "support/arena.h"
#include "typecheck/effects.h"
#include "typecheck/generics.h"
#include "typecheck/layouts.h"

/* ---- the topology --------------------------------------------------------------- */

/* A box: node(k) (k >= 0) or the unknown node (k = -1). */
typedef struct Box {
    int64_t node;
    bool has_main;
    VEC(const char *) items;    /* DOT statements inside the box */
} Box;

typedef struct Edge {
    const char *from, *to;
    unsigned kinds;
} Edge;

typedef struct Topology {
    VEC(Box) boxes;
    VEC(Edge) edges;
    VEC(const char *) actors;   /* DOT ids of the actors drawn, to number them */
} Topology;

static Box *box_of(Topology *t, int64_t node)
{
    for (size_t i = 0; i < t->boxes.len; i++)
        if (t->boxes.items[i].node == node)
            return &t->boxes.items[i];
    VEC_PUSH(t->boxes, ((Box){.node = node}));
    return &t->boxes.items[t->boxes.len - 1];
}

static const char *anchor_id(int64_t node)
{
    return node < 0 ? "\"node ?\"" : arena_printf("\"node %lld\"", (long long)node);
}

/* The node a place stands for, in code whose place parameters `s` maps
 * (NULL: none): k, or -1 when it cannot be named. */
static int64_t node_of_place(Place *p, const Subst *s)
{
    p = tc_subst_place(s, p);
    if (p->tag == PL_NODE)
        return p->node;
    if (p->tag == PL_POOL) {
        TcPool *pool = tc_pool_of_place(p);
        if (pool && pool->node && pool->node->tag == PL_NODE)
            return pool->node->node;
    }
    return -1;
}

/* The DOT id an effect on place p points at: a pool, or a node's box. */
static const char *target_of(Place *p, const Subst *s)
{
    Place *q = tc_subst_place(s, p);
    if (q->tag == PL_POOL && tc_pool_of_place(q))
        return arena_printf("\"pool %s\"", tc_pool_of_place(q)->decl->name.text);
    return anchor_id(node_of_place(q, s));
}

static void add_edge(Topology *t, const char *from, const char *to, unsigned kinds)
{
    for (size_t i = 0; i < t->edges.len; i++)
        if (strcmp(t->edges.items[i].from, from) == 0 && strcmp(t->edges.items[i].to, to) == 0) {
            t->edges.items[i].kinds |= kinds;
            return;
        }
    VEC_PUSH(t->edges, ((Edge){from, to, kinds}));
}

/* The effects of f, run as `from`, as arrows, read through s. */
static void add_effects(Topology *t, const char *from, const FuncDecl *f, const Subst *s)
{
    Place *p;
    unsigned kinds;
    size_t n = eff_summary(f, 0, &p, &kinds);
    for (size_t i = 0; i < n; i++) {
        eff_summary(f, i, &p, &kinds);
        add_edge(t, from, target_of(p, s), kinds);
    }
}

typedef struct ActorSearch {
    Topology *t;
} ActorSearch;

/* `new A<...>` of an active class: the actor, in its box, and the arrows
 * of its methods. */
static bool find_actor(AstWalk *w, Expr *e)
{
    if (e->kind != EX_NEW || !e->u.new_obj.cls || !e->u.new_obj.cls->is_active)
        return true;
    Topology *t = ((ActorSearch *)w->ctx)->t;
    ClassDecl *k = e->u.new_obj.cls;
    const Subst *s = e->u.new_obj.subst;
    int64_t node = node_of_place(ty_home(e->type), NULL);
    const char *id = arena_printf("\"%s %zu\"", k->name.text, t->actors.len + 1);
    VEC_PUSH(t->actors, id);
    Box *b = box_of(t, node);
    VEC_PUSH(b->items, arena_printf("%s [label=\"active %s\"]", id, ty_show(e->type)));
    for (size_t i = 0; i < k->methods.len; i++)
        if (!tc_is_generic_func(k->methods.items[i]))
            add_effects(t, id, k->methods.items[i], s);
    return true;
}

static const char *kinds_label(unsigned kinds)
{
    const char *s = "";
    if (kinds & EFF_READ) s = "reads";
    if (kinds & EFF_WRITE) s = arena_printf("%s%swrites", s, *s ? ", " : "");
    if (kinds & EFF_SEND) s = arena_printf("%s%ssends", s, *s ? ", " : "");
    return s;
}

static int by_node(const void *a, const void *b)
{
    int64_t x = ((const Box *)a)->node, y = ((const Box *)b)->node;
    if (x < 0) x = INT64_MAX;   /* "?" last */
    if (y < 0) y = INT64_MAX;
    return x < y ? -1 : x > y;
}

/* Measured counts (--counts FILE): "from node A to node B: R reads, W writes"
 * and "sent from node A to node B: M messages, N bytes" lines, as dashed
 * arrows between the nodes' boxes; other lines are skipped. */
static bool add_counts(Topology *t, FILE *out, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mosaicc: error: cannot read counts file '%s': %s\n", path,
                strerror(errno));
        return false;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        long long a, b, x, y;
        const char *label = NULL;
        if (sscanf(line, " from node %lld to node %lld: %lld reads, %lld writes", &a, &b, &x,
                   &y) == 4)
            label = arena_printf("measured: %lld reads, %lld writes", x, y);
        else if (sscanf(line, " sent from node %lld to node %lld: %lld messages, %lld bytes",
                        &a, &b, &x, &y) == 4)
            label = arena_printf("measured: %lld messages, %lld bytes", x, y);
        if (!label)
            continue;
        box_of(t, a);
        box_of(t, b);
        fprintf(out, "  %s -> %s [style=dashed, color=gray40, fontcolor=gray40, label=\"%s\"];\n",
                anchor_id(a), anchor_id(b), label);
    }
    fclose(f);
    return true;
}

static bool draw_topology(FILE *out, const Program *program, const DriverOptions *o)
{
    Topology t = {0};
    box_of(&t, 0)->has_main = true;
    FuncDecl *main_func = tc_main_function(program);
    for (size_t i = 0; i < tc_pool_count(); i++) {
        TcPool *p = tc_pool_at(i);
        if (!p->decl || p->decl->is_local || !p->elem)
            continue;
        Box *b = box_of(&t, p->node && p->node->tag == PL_NODE ? p->node->node : -1);
        VEC_PUSH(b->items, arena_printf("\"pool %s\" [label=\"pool %s: %s\", shape=cylinder]",
                                        p->decl->name.text, p->decl->name.text,
                                        p->elem->cls->name.text));
    }
    ActorSearch as = {&t};
    AstWalk w = {find_actor, NULL, NULL, &as};
    for (size_t d = 0; d < program->decls.len; d++) {
        Decl *dd = program->decls.items[d];
        if (dd->kind == DECL_FUNC && !tc_is_generic_func(dd->u.func))
            ast_walk_stmt(&w, dd->u.func->body);
        else if (dd->kind == DECL_CLASS && !tc_is_generic_class(dd->u.cls))
            for (size_t j = 0; j < dd->u.cls->methods.len; j++)
                if (!tc_is_generic_func(dd->u.cls->methods.items[j]))
                    ast_walk_stmt(&w, dd->u.cls->methods.items[j]->body);
    }
    if (main_func)
        add_effects(&t, "main", main_func, NULL);
    /* every box an arrow points at exists */
    for (size_t i = 0; i < t.edges.len; i++)
        if (strncmp(t.edges.items[i].to, "\"node ", 6) == 0) {
            const char *k = t.edges.items[i].to + 6;
            box_of(&t, *k == '?' ? -1 : strtoll(k, NULL, 10));
        }
    char *counts_dot = NULL;
    size_t counts_len = 0;
    FILE *counts = NULL;
    if (o->draw_counts) {
        counts = open_memstream(&counts_dot, &counts_len);
        if (!counts || !add_counts(&t, counts, o->draw_counts)) {
            if (counts)
                fclose(counts);
            free(counts_dot);
            return false;
        }
        fclose(counts);
    }
    qsort(t.boxes.items, t.boxes.len, sizeof *t.boxes.items, by_node);

    fprintf(out, "// the topology of %s (mosaicc --draw=topology)\n", o->input);
    fputs("digraph topology {\n"
          "  rankdir=LR;\n"
          "  graph [fontname=\"Helvetica\"];\n"
          "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
          "  edge [fontname=\"Helvetica\", fontsize=10];\n", out);
    for (size_t i = 0; i < t.boxes.len; i++) {
        Box *b = &t.boxes.items[i];
        if (b->node < 0)
            fprintf(out, "  subgraph \"cluster_unknown\" {\n    label=\"? (a node not "
                         "known statically)\";\n    style=dashed;\n");
        else
            fprintf(out, "  subgraph \"cluster_node%lld\" {\n    label=\"node(%lld)\";\n",
                    (long long)b->node, (long long)b->node);
        fprintf(out, "    %s [label=\"objects on %s\", shape=plaintext];\n", anchor_id(b->node),
                b->node < 0 ? "?" : arena_printf("node(%lld)", (long long)b->node));
        if (b->has_main)
            fputs("    \"main\" [label=\"main\"];\n", out);
        for (size_t j = 0; j < b->items.len; j++)
            fprintf(out, "    %s;\n", b->items.items[j]);
        fputs("  }\n", out);
    }
    for (size_t i = 0; i < t.edges.len; i++) {
        Edge *e = &t.edges.items[i];
        fprintf(out, "  %s -> %s [label=\"%s\"%s];\n", e->from[0] == '"' ? e->from
                : arena_printf("\"%s\"", e->from), e->to, kinds_label(e->kinds),
                e->kinds == EFF_SEND ? ", style=bold" : "");
    }
    if (counts_dot)
        fputs(counts_dot, out);
    free(counts_dot);
    fputs("}\n", out);
    return true;
}

/* ---- the layouts ------------------------------------------------------------------ */

static bool draw_layouts(FILE *out, const DriverOptions *o)
{
    fprintf(out, "// the layouts of %s (mosaicc --draw=layouts)\n", o->input);
    fputs("digraph layouts {\n"
          "  rankdir=TB;\n"
          "  node [shape=plaintext, fontname=\"Helvetica\"];\n", out);
    for (size_t i = 0; i < tc_pool_count(); i++) {
        TcPool *p = tc_pool_at(i);
        if (!p->layout)
            continue;
        const TcLayout *l = p->layout;
        fprintf(out, "  \"pool %s\" [label=<\n"
                     "    <TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
                     "CELLPADDING=\"4\">\n"
                     "      <TR><TD COLSPAN=\"3\" BGCOLOR=\"lightgray\"><B>pool %s: %s</B>"
                     "<BR/>layout %s</TD></TR>\n",
                p->decl->name.text, p->decl->name.text, l->cls->name.text,
                l->name ? l->name : "");
        for (size_t k = 0; k < l->clusters.len; k++) {
            const TcCluster *c = l->clusters.items[k];
            fprintf(out, "      <TR><TD COLSPAN=\"3\" BGCOLOR=\"lightblue\">cluster %zu: "
                         "%llu bytes per object</TD></TR>\n",
                    k + 1, (unsigned long long)c->size);
            fputs("      <TR><TD><I>field</I></TD><TD><I>offset</I></TD>"
                  "<TD><I>bytes</I></TD></TR>\n", out);
            for (size_t j = 0; j < c->fields.len; j++)
                fprintf(out, "      <TR><TD ALIGN=\"LEFT\">%s</TD><TD>%llu</TD><TD>%llu</TD>"
                             "</TR>\n",
                        c->fields.items[j]->name.text, (unsigned long long)c->offsets.items[j],
                        (unsigned long long)tc_field_size(c->fields.items[j]));
        }
        fputs("    </TABLE>>];\n", out);
    }
    fputs("}\n", out);
    return true;
}

/* ---- output -------------------------------------------------------------------------- */

/* The format a file name asks for: "dot" for .dot/.gv, else its extension. */
static const char *format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/') || !dot[1])
        return NULL;
    return strcmp(dot + 1, "gv") == 0 ? "dot" : dot + 1;
}

static bool have_dot(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    for (const char *p = path; *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *cand = arena_printf("%.*s/dot", (int)n, n ? p : ".");
        if (access(cand, X_OK) == 0)
            return true;
        p += n + (end ? 1 : 0);
    }
    return false;
}

int driver_draw(const DriverOptions *o, const Program *program)
{
    bool topology = strcmp(o->draw, "topology") == 0;
    const char *format = o->output ? format_of(o->output) : "dot";
    if (!format) {
        fprintf(stderr, "mosaicc: error: --draw: cannot tell the picture's format from '%s': "
                "name it .svg, .png, .pdf or .dot\n", o->output);
        return 2;
    }
    bool render = strcmp(format, "dot") != 0;
    if (render && !have_dot()) {
        fprintf(stderr, "mosaicc: error: --draw: Graphviz's 'dot' is not installed, so '%s' "
                "cannot be drawn; install Graphviz (apt-get install graphviz), or write the "
                "DOT itself with -o %.*s.dot\n", o->output,
                (int)(strlen(o->output) - strlen(format) - 1), o->output);
        return 2;
    }
    char *dot_text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&dot_text, &len);
    if (!mem)
        return 2;
    bool ok = topology ? draw_topology(mem, program, o) : draw_layouts(mem, o);
    fclose(mem);
    if (!ok) {
        free(dot_text);
        return 2;
    }
    int status = 0;
    if (!render) {
        FILE *f = o->output && strcmp(o->output, "-") != 0 ? fopen(o->output, "w") : stdout;
        if (!f || fwrite(dot_text, 1, len, f) != len || (f != stdout && fclose(f) != 0)) {
            fprintf(stderr, "mosaicc: error: cannot write '%s': %s\n",
                    o->output ? o->output : "standard output", strerror(errno));
            status = 2;
        }
    } else {
        /* dot -T<format> -o OUTPUT, the DOT on its standard input */
        const char *cmd = arena_printf("dot -T'%s' -o '%s'", format, o->output);
        if (strchr(format, '\'') || strchr(o->output, '\'')) {
            fprintf(stderr, "mosaicc: error: --draw: a file name with a quote: '%s'\n",
                    o->output);
            free(dot_text);
            return 2;
        }
        FILE *p = popen(cmd, "w");
        if (!p) {
            fprintf(stderr, "mosaicc: error: --draw: cannot run dot: %s\n", strerror(errno));
            free(dot_text);
            return 2;
        }
        fwrite(dot_text, 1, len, p);
        int st = pclose(p);
        if (st != 0) {
            fprintf(stderr, "mosaicc: error: --draw: dot failed (status %d) drawing '%s'\n",
                    WIFEXITED(st) ? WEXITSTATUS(st) : st, o->output);
            unlink(o->output);
            status = 2;
        }
    }
    free(dot_text);
    return status;
}
