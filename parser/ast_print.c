/* ast_print.c — the AST as an S-expression, for `mosaicc --dump-ast`.
 *
 * A debugging view of what the parser built, stable enough for tests to
 * compare: declarations, members and statements each start a line,
 * indented two spaces per level; expressions, types and places are written
 * inline.  Shapes:
 *
 *   (def NAME [<p q>] ((x TYPE) ...) RESULT [(effects ...)] BLOCK)
 *   (class NAME [<p q>] [active] MEMBER...)   (var|val NAME TYPE [INIT])
 *   (layout NAME CLASS SPEC)   (pool NAME TYPE [(layout SPEC)] [(on PLACE)])
 *   (block STMT...)  (let|var NAME TYPE|_ [INIT])  (= TARGET VALUE)  (+= ...)
 *   (if C THEN [ELSE])  (while C BODY)  (for X (range A B) BODY)
 *   (for X (in E) BODY)  (return [E])  (break)  (continue)
 *   (+ A B)  (- A)  (not A)  (get E)  (. E F)  (call F ARG...)
 *   (mcall E M ARG...)  (send E M ARG...)  (index E I)  (array E...)
 *   (new TYPE)  (new TYPE (ARG...))  (new-array TYPE N)
 *
 * Literals print as written in Mosaic (strings re-escaped, floats with 17
 * significant digits); a too-large integer literal prints with a `!too-big`
 * mark.  Nothing the checker adds is printed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"

const char *ast_binary_op_text(BinaryOp op)
{
    switch (op) {
    case BIN_OR: return "or";
    case BIN_AND: return "and";
    case BIN_EQ: return "==";
    case BIN_NE: return "!=";
    case BIN_LT: return "<";
    case BIN_LE: return "<=";
    case BIN_GT: return ">";
    case BIN_GE: return ">=";
    case BIN_BITOR: return "|";
    case BIN_BITXOR: return "^";
    case BIN_BITAND: return "&";
    case BIN_SHL: return "<<";
    case BIN_SHR: return ">>";
    case BIN_ADD: return "+";
    case BIN_SUB: return "-";
    case BIN_MUL: return "*";
    case BIN_DIV: return "/";
    case BIN_REM: return "%";
    }
    return "?";
}

const char *ast_unary_op_text(UnaryOp op)
{
    switch (op) {
    case UN_NEG: return "-";
    case UN_NOT: return "not";
    }
    return "?";
}

static void print_expr(FILE *out, const Expr *e);
static void print_stmt(FILE *out, const Stmt *s, int depth);

static void indent(FILE *out, int depth)
{
    fprintf(out, "\n%*s", depth * 2, "");
}

static void print_place(FILE *out, const PlaceExpr *p)
{
    switch (p->kind) {
    case PLACE_HERE: fputs("here", out); break;
    case PLACE_NAME: fputs(p->name, out); break;
    case PLACE_NODE:
        if (p->node_expr) {
            fputs("node(", out);
            print_expr(out, p->node_expr);
            fputc(')', out);
        } else {
            fprintf(out, "node(%" PRId64 ")", p->node);
        }
        break;
    case PLACE_UNKNOWN: fputs("?", out); break;
    }
}

static void print_places(FILE *out, const PlaceVec *v)
{
    fputc('<', out);
    for (size_t i = 0; i < v->len; i++) {
        if (i)
            fputs(", ", out);
        print_place(out, v->items[i]);
    }
    fputc('>', out);
}

static void print_type(FILE *out, const TypeExpr *t)
{
    if (!t) {
        fputs("_", out);
        return;
    }
    switch (t->kind) {
    case TE_NAMED:
        fputs(t->name.text, out);
        if (t->has_targs) {
            fputc('[', out);
            for (size_t i = 0; i < t->targs.len; i++) {
                if (i)
                    fputs(", ", out);
                print_type(out, t->targs.items[i]);
            }
            fputc(']', out);
        }
        if (t->has_places)
            print_places(out, &t->places);
        break;
    case TE_UNIT:
        fputs("unit", out);
        break;
    case TE_ARRAY:
        fputc('[', out);
        print_type(out, t->elem);
        fputc(']', out);
        if (t->has_places)
            print_places(out, &t->places);
        break;
    case TE_FUT:
        fputs("Fut<", out);
        print_type(out, t->elem);
        fputc('>', out);
        break;
    case TE_MAP:
        fputs("Map<", out);
        print_type(out, t->key);
        fputs(", ", out);
        print_type(out, t->elem);
        fputc('>', out);
        if (t->has_places)
            print_places(out, &t->places);
        break;
    case TE_POOL:
        fprintf(out, "pool %s", t->name.text);
        break;
    }
}

static void print_string(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        case '\\': fputs("\\\\", out); break;
        case '"': fputs("\\\"", out); break;
        case '\0': fputs("\\0", out); break;
        default:
            if (c < 0x20 || c == 0x7F)
                fprintf(out, "\\u{%x}", c);
            else
                fputc(c, out);
        }
    }
    fputc('"', out);
}

static void print_args(FILE *out, const ExprVec *args)
{
    for (size_t i = 0; i < args->len; i++) {
        fputc(' ', out);
        print_expr(out, args->items[i]);
    }
}

static void print_expr(FILE *out, const Expr *e)
{
    switch (e->kind) {
    case EX_INT:
        if (e->u.int_lit.too_big)
            fprintf(out, "%" PRIu64 "!too-big", e->u.int_lit.value);
        else
            fprintf(out, "%" PRId64, (int64_t)e->u.int_lit.value);
        break;
    case EX_FLOAT: {
        /* "1.0", not "1": a float must not read as an int in the dump. */
        char buf[40];
        snprintf(buf, sizeof buf, "%.17g", e->u.float_lit);
        fputs(buf, out);
        if (!strpbrk(buf, ".einf"))
            fputs(".0", out);
        break;
    }
    case EX_STRING:
        print_string(out, e->u.string_lit.bytes, e->u.string_lit.len);
        break;
    case EX_BOOL:
        fputs(e->u.bool_lit ? "true" : "false", out);
        break;
    case EX_NULL: fputs("null", out); break;
    case EX_THIS: fputs("this", out); break;
    case EX_HERE: fputs("here", out); break;
    case EX_NAME: fputs(e->u.name.text, out); break;
    case EX_UNARY:
        fprintf(out, "(%s ", ast_unary_op_text(e->u.unary.op));
        print_expr(out, e->u.unary.operand);
        fputc(')', out);
        break;
    case EX_BINARY:
        fprintf(out, "(%s ", ast_binary_op_text(e->u.binary.op));
        print_expr(out, e->u.binary.left);
        fputc(' ', out);
        print_expr(out, e->u.binary.right);
        fputc(')', out);
        break;
    case EX_GET:
        fputs("(get ", out);
        print_expr(out, e->u.get.future);
        fputc(')', out);
        break;
    case EX_FIELD:
        fputs("(. ", out);
        print_expr(out, e->u.field.object);
        fprintf(out, " %s)", e->u.field.field.text);
        break;
    case EX_CALL:
        fputs("(call ", out);
        print_expr(out, e->u.call.callee);
        print_args(out, &e->u.call.args);
        fputc(')', out);
        break;
    case EX_METHOD_CALL:
    case EX_SEND:
        fputs(e->kind == EX_SEND ? "(send " : "(mcall ", out);
        print_expr(out, e->u.method_call.object);
        fprintf(out, " %s", e->u.method_call.method.text);
        print_args(out, &e->u.method_call.args);
        fputc(')', out);
        break;
    case EX_INDEX:
        fputs("(index ", out);
        print_expr(out, e->u.index.object);
        fputc(' ', out);
        print_expr(out, e->u.index.index);
        fputc(')', out);
        break;
    case EX_NEW:
        fputs("(new ", out);
        print_type(out, e->u.new_obj.class_type);
        if (e->u.new_obj.has_parens) {
            fputs(" (", out);
            for (size_t i = 0; i < e->u.new_obj.args.len; i++) {
                if (i)
                    fputc(' ', out);
                print_expr(out, e->u.new_obj.args.items[i]);
            }
            fputc(')', out);
        }
        fputc(')', out);
        break;
    case EX_NEW_ARRAY:
        fputs("(new-array ", out);
        print_type(out, e->u.new_array.elem);
        fputc(' ', out);
        print_expr(out, e->u.new_array.length);
        fputc(')', out);
        break;
    case EX_ARRAY_LIT:
        fputs("(array", out);
        print_args(out, &e->u.array_lit.elems);
        fputc(')', out);
        break;
    case EX_NEW_MAP:
        fputs("(new-map ", out);
        print_type(out, e->u.new_map.map_type);
        fputc(')', out);
        break;
    case EX_MAP_LIT:
        fputs("(map", out);
        for (size_t i = 0; i < e->u.map_lit.keys.len; i++) {
            fputs(" (", out);
            print_expr(out, e->u.map_lit.keys.items[i]);
            fputc(' ', out);
            print_expr(out, e->u.map_lit.values.items[i]);
            fputc(')', out);
        }
        fputc(')', out);
        break;
    }
}

static void print_layout_spec(FILE *out, const LayoutSpec *spec)
{
    if (spec->name.text) {
        fputs(spec->name.text, out);
        return;
    }
    for (size_t i = 0; i < spec->clusters.len; i++) {
        const Cluster *c = spec->clusters.items[i];
        fputs(i ? " (rec" : "(rec", out);
        for (size_t j = 0; j < c->fields.len; j++)
            fprintf(out, " %s", c->fields.items[j].text);
        fputc(')', out);
    }
}

static void print_pool(FILE *out, const PoolDecl *p)
{
    fprintf(out, "(pool %s ", p->name.text);
    print_type(out, p->type);
    if (p->layout) {
        fputs(" (layout ", out);
        print_layout_spec(out, p->layout);
        fputc(')', out);
    }
    if (p->on) {
        fputs(" (on ", out);
        print_place(out, p->on);
        fputc(')', out);
    }
    fputc(')', out);
}

static void print_block_items(FILE *out, const Stmt *block, int depth)
{
    for (size_t i = 0; i < block->u.block.stmts.len; i++)
        print_stmt(out, block->u.block.stmts.items[i], depth);
}

static void print_stmt(FILE *out, const Stmt *s, int depth)
{
    indent(out, depth);
    switch (s->kind) {
    case ST_LET:
        fprintf(out, "(%s %s ", s->u.let.is_var ? "var" : "let", s->u.let.name.text);
        print_type(out, s->u.let.type);
        if (s->u.let.init) {
            fputc(' ', out);
            print_expr(out, s->u.let.init);
        }
        fputc(')', out);
        break;
    case ST_ASSIGN:
        if (s->u.assign.compound)
            fprintf(out, "(%s= ", ast_binary_op_text(s->u.assign.op));
        else
            fputs("(= ", out);
        print_expr(out, s->u.assign.target);
        fputc(' ', out);
        print_expr(out, s->u.assign.value);
        fputc(')', out);
        break;
    case ST_EXPR:
        print_expr(out, s->u.expr.expr);
        break;
    case ST_IF:
        fputs("(if ", out);
        print_expr(out, s->u.if_.cond);
        print_stmt(out, s->u.if_.then_block, depth + 1);
        if (s->u.if_.else_stmt)
            print_stmt(out, s->u.if_.else_stmt, depth + 1);
        fputc(')', out);
        break;
    case ST_WHILE:
        fputs("(while ", out);
        print_expr(out, s->u.while_.cond);
        print_stmt(out, s->u.while_.body, depth + 1);
        fputc(')', out);
        break;
    case ST_FOR_RANGE:
        fprintf(out, "(for %s (range ", s->u.for_range.var.text);
        print_expr(out, s->u.for_range.from);
        fputc(' ', out);
        print_expr(out, s->u.for_range.to);
        fputc(')', out);
        print_stmt(out, s->u.for_range.body, depth + 1);
        fputc(')', out);
        break;
    case ST_FOR_IN:
        fprintf(out, "(for %s (in ", s->u.for_in.var.text);
        print_expr(out, s->u.for_in.iterable);
        fputc(')', out);
        print_stmt(out, s->u.for_in.body, depth + 1);
        fputc(')', out);
        break;
    case ST_BREAK:
        fputs("(break)", out);
        break;
    case ST_CONTINUE:
        fputs("(continue)", out);
        break;
    case ST_RETURN:
        fputs("(return", out);
        if (s->u.ret.value) {
            fputc(' ', out);
            print_expr(out, s->u.ret.value);
        }
        fputc(')', out);
        break;
    case ST_BLOCK:
        fputs("(block", out);
        print_block_items(out, s, depth + 1);
        fputc(')', out);
        break;
    case ST_POOL:
        fputs("(pools", out);
        for (size_t i = 0; i < s->u.pool.pools.len; i++) {
            indent(out, depth + 1);
            print_pool(out, s->u.pool.pools.items[i]);
        }
        fputc(')', out);
        break;
    }
}

static void print_names(FILE *out, const NameVec *v)
{
    if (!v->len)
        return;
    fputs(" <", out);
    for (size_t i = 0; i < v->len; i++)
        fprintf(out, i ? " %s" : "%s", v->items[i].text);
    fputc('>', out);
}

static void print_effect_clause(FILE *out, const char *kw, const PlaceVec *v)
{
    if (!v->len)
        return;
    fprintf(out, " (%s", kw);
    for (size_t i = 0; i < v->len; i++) {
        fputc(' ', out);
        print_place(out, v->items[i]);
    }
    fputc(')', out);
}

/* [T, U] after a generic declaration's name; nothing for the others. */
static void print_type_params(FILE *out, const NameVec *names)
{
    if (!names->len)
        return;
    fputc('[', out);
    for (size_t i = 0; i < names->len; i++)
        fprintf(out, i ? " %s" : "%s", names->items[i].text);
    fputc(']', out);
}

static void print_func(FILE *out, const FuncDecl *f, int depth)
{
    indent(out, depth);
    fprintf(out, "(def %s", f->name.text);
    print_type_params(out, &f->type_params);
    print_names(out, &f->place_params);
    fputs(" (", out);
    for (size_t i = 0; i < f->params.len; i++) {
        const Param *p = f->params.items[i];
        fprintf(out, i ? " (%s " : "(%s ", p->name.text);
        print_type(out, p->type);
        fputc(')', out);
    }
    fputs(") ", out);
    if (f->result)
        print_type(out, f->result);
    else
        fputs("unit", out);
    if (f->effects) {
        fputs(" (effects", out);
        if (f->effects->is_local)
            fputs(" local", out);
        print_effect_clause(out, "reads", &f->effects->reads);
        print_effect_clause(out, "writes", &f->effects->writes);
        print_effect_clause(out, "sends", &f->effects->sends);
        fputc(')', out);
    }
    print_stmt(out, f->body, depth + 1);
    fputc(')', out);
}

static void print_class(FILE *out, const ClassDecl *c, int depth)
{
    indent(out, depth);
    fprintf(out, "(class %s", c->name.text);
    print_type_params(out, &c->type_params);
    print_names(out, &c->place_params);
    if (c->is_active)
        fputs(" active", out);
    for (size_t i = 0; i < c->fields.len; i++) {
        const FieldDecl *f = c->fields.items[i];
        indent(out, depth + 1);
        fprintf(out, "(%s %s ", f->is_var ? "var" : "val", f->name.text);
        print_type(out, f->type);
        if (f->init) {
            fputc(' ', out);
            print_expr(out, f->init);
        }
        fputc(')', out);
    }
    for (size_t i = 0; i < c->methods.len; i++)
        print_func(out, c->methods.items[i], depth + 1);
    fputc(')', out);
}

void ast_print(FILE *out, const Program *program)
{
    fputs("(program", out);
    for (size_t i = 0; i < program->decls.len; i++) {
        const Decl *d = program->decls.items[i];
        switch (d->kind) {
        case DECL_FUNC:
            print_func(out, d->u.func, 1);
            break;
        case DECL_CLASS:
            print_class(out, d->u.cls, 1);
            break;
        case DECL_LAYOUT:
            indent(out, 1);
            fprintf(out, "(layout %s %s ", d->u.layout->name.text,
                    d->u.layout->class_name.text);
            print_layout_spec(out, d->u.layout->spec);
            fputc(')', out);
            break;
        case DECL_POOL:
            indent(out, 1);
            print_pool(out, d->u.pool);
            break;
        }
    }
    fputs(")\n", out);
}
