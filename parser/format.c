/* format.c — one canonical layout of a Mosaic file (mosaicc --format, and
 * the language server's textDocument/formatting).
 *
 * The formatter works on tokens, not on the tree: comments, blank lines and
 * the programmer's line breaks are kept where they were, and nothing the
 * parser would read differently can come out of it.  What it decides:
 *
 *   - indentation: the lines inside a bracket — `{`, `(`, `[` — are two
 *     spaces further in than the line that opened it, however many it
 *     opened (gofmt's rule: `f(g(` indents its arguments once); a line
 *     that starts by closing one is back at that line's indentation; a
 *     line that continues the one before (which ended in an operator) is
 *     one step further in;
 *   - spacing within a line: one space after `,`, `;` and `:`, around
 *     `=`, the compound assignments, `==`, `!=`, `*`, `/`, `%`, `&`, `|`,
 *     `^`, between words, before `{` and around `}`, around a block
 *     comment; none inside `( )` and `[ ]`, around `.` and `!`, before
 *     `,`, `;`, `)` and `]` (after a block comment too), `:` and a
 *     call's `(` or an index's `[`;
 *   - blank lines: at most one in a row, none at the start or end; no
 *     trailing blanks after code; one newline at the end;
 *   - long lines: a line whose code runs past FMT_WIDTH columns is broken
 *     at a list that opens and closes on it (below).
 *
 * A comment's text is kept as it is; a `//` comment after code keeps its
 * distance from it (at least one space), so that comments aligned in a
 * column stay aligned.
 *
 * Where a space can change what the scanner reads, the formatter keeps
 * whether there was one: around `<` and `>` (a place list `C<p>` or a
 * comparison), `<<`, `>>`, `<=`, `>=`, `+` and `-` (binary or unary),
 * `..` and `?`, and after a keyword before `(`.
 *
 * Line breaks are the program's: a newline ends a statement in Mosaic
 * (LANGUAGE.md §1), so the formatter never joins lines, and it splits one
 * only where the scanner cannot end a statement.  That is the vertical
 * layout of a list, as gofmt, rustfmt and prettier print one:
 *
 *     let p = new Particle(            <- the line fits up to its opener
 *       position.x + velocity.x,       <- one item a line, one step in,
 *       position.y + velocity.y,          each with its comma
 *       mass,                          <- the last one too, since a newline
 *     )                                   after `mass` would end the statement
 *
 * The lists that may be laid out so are those that take a comma after
 * their last item in the grammar: the arguments of a call, of a send and
 * of `new C(...)`, the parameters of a `def`, an array literal and a map
 * literal.  Parentheses around an expression, an index, `new [T](n)`,
 * types, effect clauses and a cluster `rec{...}` are never broken, nor is
 * anything inside `<...>` (the scanner reads a place list only when its
 * `>` is on the same line).  The list broken is the outermost one that
 * holds the column where the code passes the limit: it opens within the
 * limit, so that the first line fits, and closes past it, so that the
 * excess is its items'.  A list of one item is broken only if the item
 * then fits on its line; otherwise the list inside that item that holds
 * the column is (`f(g(` ... `))`, the last argument hugging its call).
 * The lines this makes are laid out by the same rules, so an item still
 * too long breaks in turn.  Two refinements, from rustfmt: the parameters
 * of a signature alone on its line break whenever it is too long, since
 * the result and effects after them cannot; and an array of short
 * literals is laid out as a table, as many to a line as fit.
 *
 * A line stays as it is when no such list can help: a long string, a
 * chain of operators (a break after an operator is the programmer's), a
 * list in a block that opens and closes on the line (the block is what
 * makes it long), a list the programmer already broke (one that does not
 * close on the line).  The limit is on code: a `//` comment after it may
 * go past it, since moving it would take it away from where it was.  A
 * line broken so is a line the formatter leaves alone, which is what
 * makes formatting idempotent.  Each piece of a broken line is laid out
 * as the next run will lay out that line, from the same state — the
 * brackets open and the line before — so the two cannot disagree.
 *
 * A file that does not parse is not formatted (the caller checks first):
 * the rules assume well-formed tokens.  The tests check, on every program
 * of the tree, that the formatted text parses to the very same tree, at
 * FMT_WIDTH and at a width so narrow that nearly every list is broken.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

typedef enum TokKind { T_WORD, T_STRING, T_PUNCT, T_LINE_COMMENT, T_BLOCK_COMMENT,
                       T_NEWLINE } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *text;
    size_t len;
    bool space_before;      /* blanks before it on its line, in the input */
    int gap;                /* how many (a tab counts as one) */
    bool tight;             /* a `{` or `}` of a cluster `rec{x, y}` or of a map
                               literal `{k: v}`: spaced like `( )` */
    bool angle;             /* in a place list `C<p, q>` or the arguments of
                               `Fut<...>`, `Map<...>`, `<` and `>` included */
} Tok;

typedef struct Out {
    char *buf;
    size_t len, cap;
} Out;

static void put(Out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b)
            abort();        /* the compiler's one out-of-memory policy: stop */
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static bool is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The operators of more than one character, longest first. */
static const char *const long_ops[] = {"..", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=",
                                       "*=", "/=", "%="};

static size_t scan(const char *text, size_t len, Tok **out)
{
    size_t cap = 256, n = 0;
    Tok *toks = malloc(cap * sizeof *toks);
    int gap = 0;
    for (size_t i = 0; i < len;) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            gap++;
            i++;
            continue;
        }
        Tok t = {T_PUNCT, text + i, 1, gap > 0, gap, false, false};
        if (c == '\n') {
            t.kind = T_NEWLINE;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            t.kind = T_LINE_COMMENT;
            while (i + t.len < len && text[i + t.len] != '\n')
                t.len++;        /* its text as it is, trailing blanks too: they may
                                   be what it says (a test's expected line) */
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            t.kind = T_BLOCK_COMMENT;
            t.len = 2;
            while (i + t.len < len && !(text[i + t.len] == '*' && i + t.len + 1 < len &&
                                        text[i + t.len + 1] == '/'))
                t.len++;
            t.len = i + t.len + 2 <= len ? t.len + 2 : len - i;
        } else if (c == '"') {
            t.kind = T_STRING;
            while (i + t.len < len && text[i + t.len] != '"' && text[i + t.len] != '\n')
                t.len += text[i + t.len] == '\\' && i + t.len + 1 < len ? 2 : 1;
            if (i + t.len < len && text[i + t.len] == '"')
                t.len++;
        } else if (isdigit((unsigned char)c)) {
            t.kind = T_WORD;        /* a number: digits, `_`, hex, fraction, exponent */
            while (i + t.len < len) {
                char d = text[i + t.len];
                if (is_word_char(d) && !((d == 'e' || d == 'E') && i + t.len + 1 < len &&
                                         (text[i + t.len + 1] == '+' || text[i + t.len + 1] == '-')))
                    t.len++;
                else if ((d == 'e' || d == 'E') && i + t.len + 1 < len)
                    t.len += 2;     /* 1e+5, 6.02E-23 */
                else if (d == '.' && i + t.len + 1 < len &&
                         isdigit((unsigned char)text[i + t.len + 1]))
                    t.len++;
                else
                    break;
            }
        } else if (is_word_char(c)) {
            t.kind = T_WORD;
            while (i + t.len < len && is_word_char(text[i + t.len]))
                t.len++;
        } else {
            for (size_t k = 0; k < sizeof long_ops / sizeof *long_ops; k++)
                if (i + 1 < len && text[i] == long_ops[k][0] && text[i + 1] == long_ops[k][1]) {
                    t.len = 2;
                    break;
                }
        }
        if (n == cap) {
            cap *= 2;
            toks = realloc(toks, cap * sizeof *toks);
        }
        toks[n++] = t;
        i += t.len;
        gap = 0;
    }
    *out = toks;
    return n;
}

static bool is(const Tok *t, const char *s)
{
    return t && t->kind == T_PUNCT && t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}

static bool word_is(const Tok *t, const char *s)
{
    return t && t->kind == T_WORD && t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}

static bool is_keyword(const Tok *t)
{
    static const char *const kws[] = {"active", "and", "break", "class", "continue", "def",
        "else", "false", "for", "get", "here", "if", "in", "layout", "let", "local", "new",
        "node", "not", "null", "or", "pool", "reads", "rec", "return", "sends", "this", "true",
        "unit", "val", "var", "while", "writes"};
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (word_is(t, kws[i]))
            return true;
    return false;
}

static bool one_of(const Tok *t, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is(t, set[i]))
            return true;
    return false;
}

static const char *const spaced_ops[] = {"=", "==", "!=", "+=", "-=", "*=", "/=", "%=",
                                         "*", "/", "%", "&", "|", "^"};
/* a space around these may change the scanner's reading: kept as it was */
static const char *const touchy_ops[] = {"<", ">", "<=", ">=", "<<", ">>", "+", "-", "..",
                                         "?"};
#define N(a) (sizeof a / sizeof *a)

/* Is there a space between a and b on one line? */
static bool space_between(const Tok *a, const Tok *b)
{
    bool was = b->space_before;
    if (b->kind == T_LINE_COMMENT || b->kind == T_BLOCK_COMMENT)
        return true;
    if (a->kind == T_BLOCK_COMMENT)     /* a comma or closer sticks to it, as to code */
        return !is(b, ",") && !is(b, ";") && !is(b, ")") && !is(b, "]");
    if (one_of(a, touchy_ops, N(touchy_ops)) || one_of(b, touchy_ops, N(touchy_ops)))
        return was;
    if (is(a, "(") || is(a, "[") || is(b, ")") || is(b, "]") || is(b, ",") || is(b, ";") ||
        is(b, ":"))
        return false;
    if (is(a, ",") || is(a, ";") || is(a, ":"))
        return true;
    if (is(a, ".") || is(b, ".") || is(a, "!") || is(b, "!"))
        return false;
    if (is(b, "(") || is(b, "["))
        return is_keyword(a) ? was : !(a->kind == T_WORD || is(a, ")") || is(a, "]") ||
                                       is(a, ">"));
    if (is(a, "{") && is(b, "}"))
        return was;
    if ((is(a, "{") && a->tight) || (is(b, "}") && b->tight))
        return false;
    if (is(b, "{") && b->tight)
        return !word_is(a, "rec") && a->kind != T_PUNCT ? true : !word_is(a, "rec") && was;
    if (is(b, "{") || is(a, "{") || is(b, "}") || is(a, "}"))
        return true;
    if (one_of(a, spaced_ops, N(spaced_ops)) || one_of(b, spaced_ops, N(spaced_ops)))
        return true;
    if (a->kind == T_WORD && b->kind == T_WORD)
        return true;
    return was;
}

static bool opens(const Tok *t) { return is(t, "{") || is(t, "(") || is(t, "["); }
static bool closes(const Tok *t) { return is(t, "}") || is(t, ")") || is(t, "]"); }
static bool is_comment(const Tok *t)
{
    return t->kind == T_LINE_COMMENT || t->kind == T_BLOCK_COMMENT;
}

/* Where an operand is expected, `{` opens a map literal (the scanner's
 * rule, lexer/scan.l); after `rec`, a cluster.  Both are marked tight, with
 * the `}` that closes them. */
static void mark_tight_braces(Tok *toks, size_t n)
{
    size_t stack_cap = 64, depth = 0;
    size_t *stack = malloc(stack_cap * sizeof *stack);
    const Tok *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        Tok *t = &toks[i];
        if (is_comment(t))
            continue;
        if (is(t, "{")) {
            bool operand = prev && ((prev->kind == T_PUNCT && !is(prev, ")") && !is(prev, "]") &&
                                     !is(prev, "}") && !is(prev, ">")) ||
                                    word_is(prev, "return") || word_is(prev, "in") ||
                                    word_is(prev, "rec"));
            t->tight = operand;
            if (depth == stack_cap)
                stack = realloc(stack, (stack_cap *= 2) * sizeof *stack);
            stack[depth++] = i;
        } else if (is(t, "}") && depth > 0) {
            t->tight = toks[stack[--depth]].tight;
        }
        if (t->kind != T_NEWLINE)
            prev = t;
    }
    free(stack);
}

static bool is_ident(const Tok *t)
{
    return t->kind == T_WORD && !isdigit((unsigned char)t->text[0]);
}

static bool has_angle_char(const Tok *t)
{
    return memchr(t->text, '<', t->len) || memchr(t->text, '>', t->len);
}

/* place list = '<' term { ',' term } '>' ; term = name | '?' | node(e), all
 * on one line, as the scanner's trailing context PLIST (lexer/scan.l):
 * `node(e)` may hold one level of parentheses and no angle bracket.  The
 * index of the closing `>` (or of the `>=` the scanner splits), or 0. */
static size_t place_list_end(const Tok *toks, size_t n, size_t lt)
{
    size_t k = lt + 1;
    for (;;) {
        if (k >= n)
            return 0;
        if (word_is(&toks[k], "node") && k + 1 < n && is(&toks[k + 1], "(")) {
            int parens = 0;
            for (k++; k < n; k++) {
                if (toks[k].kind == T_NEWLINE || has_angle_char(&toks[k]))
                    return 0;
                if (is(&toks[k], "(") && ++parens > 2)
                    return 0;
                if (is(&toks[k], ")") && --parens == 0)
                    break;
            }
            if (k >= n)
                return 0;
        } else if (!is_ident(&toks[k]) && !is(&toks[k], "?")) {
            return 0;
        }
        k++;
        if (k < n && (is(&toks[k], ">") || is(&toks[k], ">=")))
            return k;
        if (k >= n || !is(&toks[k], ","))
            return 0;
        k++;
    }
}

/* Marks the tokens the scanner reads as a place list or as the arguments
 * of `Fut<...>` and `Map<...>` (which end with the line, if not before):
 * breaking a line inside one would change what it reads, and a `(` after
 * one's `>` opens a list of arguments, not an expression. */
static void mark_angles(Tok *toks, size_t n)
{
    const Tok *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        Tok *t = &toks[i];
        if (t->kind == T_NEWLINE) {
            prev = NULL;
            continue;
        }
        if (is(t, "<") && !t->angle) {
            size_t end = 0;
            if (prev && (word_is(prev, "Fut") || word_is(prev, "Map"))) {
                int depth = 0;
                for (end = i; end < n && toks[end].kind != T_NEWLINE; end++) {
                    depth += is(&toks[end], "<") ? 1 : is(&toks[end], ">") ? -1 :
                             is(&toks[end], ">>") ? -2 : 0;
                    if (depth <= 0)
                        break;
                }
                if (end == n || toks[end].kind == T_NEWLINE)
                    end--;
            } else {
                end = place_list_end(toks, n, i);
            }
            for (size_t k = i; end && k <= end; k++)
                toks[k].angle = true;
        }
        if (!is_comment(t))
            prev = t;
    }
}

/* ---- laying out lines ----------------------------------------------------- */

/* The limit on a line's code, in columns (code points).  100, rustfmt's
 * max_width: the tree's programs, written without a limit, pass it on a
 * few lines in a thousand, most of them with one call's arguments or one
 * array literal, so the breaks it makes are few and each one helps. */
enum { FMT_WIDTH = 100 };

/* A bracket still open, as the layout goes down the file. */
typedef struct Open {
    char kind;              /* '(', '[' or '{' */
    bool list;              /* it opens a list that takes a comma after its last
                               item: arguments, parameters, an array or map literal */
    int inner;              /* the indentation of the lines inside it, in steps */
} Open;

typedef struct Layout {
    Out out;
    int width;
    Open *open;
    size_t nopen, open_cap;
    bool continued;         /* the line before went on to this one */
    Tok last;               /* the last token of code of the line before */
    bool has_last;
} Layout;

/* What the layout knows of the line being laid out, token by token. */
typedef struct Line {
    const Tok *toks;
    size_t n;
    int indent;             /* in steps of two spaces */
    size_t *match;          /* for an opener closed on the line, its closer; else n */
    bool *list;             /* for an opener, whether it opens a list (Open.list) */
    int *inner;             /* for an opener, its Open.inner */
    int *end_col;           /* the column just after each token */
} Line;

static const char *const operand_ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "..", "==",
    "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"};

/* After prev an operand is expected: a `[` there opens an array literal and
 * a `{` a map literal (the scanner's lex_opens_map, lexer/scan.l).  The
 * `<` and `>` of a place list are not operators. */
static bool operand_after(const Tok *prev)
{
    if (!prev)
        return false;
    if (prev->kind == T_WORD)
        return word_is(prev, "return") || word_is(prev, "in") || word_is(prev, "and") ||
               word_is(prev, "or") || word_is(prev, "not");
    return !prev->angle && (is(prev, "(") || is(prev, "[") || is(prev, ",") || is(prev, ":") ||
                            (is(prev, "{") && prev->tight) ||
                            one_of(prev, operand_ops, N(operand_ops)));
}

/* Does the opener at line position k open a list that takes a comma after
 * its last item, and so may be laid out one item a line?  prev is the
 * token of code before it (of the line before, at the start of a line),
 * enclosing the innermost bracket open around it (NULL at top level). */
static bool opens_list(const Line *l, size_t k, const Tok *prev, const Open *enclosing)
{
    const Tok *t = &l->toks[k];
    if (t->angle || !prev)
        return false;
    if (is(t, "(")) {
        if (k == 0 || prev != &l->toks[k - 1])      /* a `(` that starts a line,
                                                       or after a comment */
            return false;
        if (prev->kind == T_WORD)   /* a call, `new C(`, `def f(`, `m.get(`; not a
                                       keyword's `if (`, `node(`, `reads(` */
            return is_ident(prev) && (!is_keyword(prev) ||
                                      (word_is(prev, "get") && k >= 2 && is(&l->toks[k - 2], ".")));
        if (is(prev, ")") || (is(prev, ">") && prev->angle))
            return true;            /* f(x)(y), new C<p>(, def f<p>( */
        if (is(prev, "]")) {        /* a[i](x), new Stack[int](, def f[T](; not new [T](n) */
            for (size_t j = 0; j + 1 < k; j++)
                if (l->match[j] == k - 1)
                    return !(j > 0 && word_is(&l->toks[j - 1], "new"));
            return false;
        }
        return false;               /* parentheses around an expression */
    }
    if (is(t, "[")) {
        if (!operand_after(prev))   /* an index, a type's `Stack[int]`, `new [T]` */
            return false;
        if (is(prev, ":"))          /* a type (`x: [int]`), but in a map literal */
            return enclosing && enclosing->kind == '{' && enclosing->list;
        /* `Pair[int, [string]]`: a type inside a type's brackets */
        return !(enclosing && enclosing->kind == '[' && !enclosing->list);
    }
    return t->tight && operand_after(prev);     /* a map literal, not a block */
}

/* For each opener of the line, whether it opens a list and how far in the
 * lines inside it go; for each opener closed on the line, its closer.
 * Brackets opened on one line indent what they hold once, one step past
 * the line; but once the line has closed a bracket of the lines before,
 * what it opens is one step past the line that opened that one:
 *
 *     def mix(a: int,
 *       b: int): string {      <- `{` opens in the class body again
 *       return ...
 */
static void analyse_line(const Layout *L, Line *l)
{
    size_t *stack = malloc((l->n + 1) * sizeof *stack), depth = 0;
    size_t outer = L->nopen;    /* the brackets of lines before still open */
    int level = l->indent;
    const Tok *prev = L->has_last ? &L->last : NULL;
    for (size_t k = 0; k < l->n; k++) {
        const Tok *t = &l->toks[k];
        l->match[k] = l->n;
        l->list[k] = false;
        l->inner[k] = 0;
        if (opens(t)) {
            Open enclosing = {0};
            if (depth > 0)
                enclosing = (Open){l->toks[stack[depth - 1]].text[0], l->list[stack[depth - 1]], 0};
            else if (outer > 0)
                enclosing = L->open[outer - 1];
            l->list[k] = opens_list(l, k, prev, depth > 0 || outer > 0 ? &enclosing : NULL);
            l->inner[k] = level + 1;
            stack[depth++] = k;
        } else if (closes(t)) {
            if (depth > 0)
                l->match[stack[--depth]] = k;
            else if (outer > 0)
                level = L->open[--outer].inner - 1;
        }
        if (!is_comment(t))
            prev = t;
    }
    free(stack);
}

static int columns(const Tok *t)
{
    int c = 0;
    for (size_t i = 0; i < t->len; i++)
        c += ((unsigned char)t->text[i] & 0xC0) != 0x80;    /* code points, not bytes */
    return c;
}

/* How many blanks go between toks[k - 1] and toks[k] on one line. */
static int blanks_before(const Tok *toks, size_t k)
{
    if (k == 0)
        return 0;
    if (toks[k].kind == T_LINE_COMMENT)     /* aligned comments stay aligned */
        return toks[k].gap > 1 ? toks[k].gap : 1;
    return space_between(&toks[k - 1], &toks[k]) ? 1 : 0;
}

static void measure_line(Line *l)
{
    int col = 2 * l->indent;
    for (size_t k = 0; k < l->n; k++) {
        col += blanks_before(l->toks, k) + columns(&l->toks[k]);
        l->end_col[k] = col;
    }
}

static int start_col(const Line *l, size_t k) { return l->end_col[k] - columns(&l->toks[k]); }

/* The items of the list opened at k: where each starts (after the opener
 * or a comma of the list); returns how many, counting only items with
 * code in them. */
static size_t list_items(const Line *l, size_t k, size_t *starts)
{
    size_t count = 0, depth = 0;
    bool code = false;
    size_t start = k + 1;
    for (size_t j = k + 1; j <= l->match[k]; j++) {
        const Tok *t = &l->toks[j];
        bool at_comma = depth == 0 && is(t, ",") && !t->angle;
        if (j == l->match[k] || at_comma) {
            if (code) {
                if (starts)
                    starts[count] = start;
                count++;
            }
            start = j + 1;
            code = false;
            continue;
        }
        if (opens(t))
            depth++;
        else if (closes(t))
            depth--;
        if (!is_comment(t))
            code = true;
    }
    return count;
}

/* Would the one item of the list opened at k fit on a line of its own? */
static bool single_item_fits(const Line *l, size_t k, int width)
{
    size_t close = l->match[k], last_code = close - 1;
    while (is_comment(&l->toks[last_code]))
        last_code--;
    int item = l->end_col[close - 1] - start_col(l, k + 1) + (is(&l->toks[last_code], ",") ? 0 : 1);
    return 2 * l->inner[k] + item <= width;
}

/* Is the opener at k the parameter list of a signature alone on its line,
 * `def f[T]<p>(...): R effects {` with the body on the lines after?  What
 * follows it — result, effects — cannot be broken, so the parameters are
 * whenever the line is too long, as rustfmt lays out a long `fn`. */
static bool is_signature_params(const Line *l, size_t k)
{
    size_t last = l->n - 1;
    while (last > 0 && is_comment(&l->toks[last]))
        last--;
    if (!word_is(&l->toks[0], "def") || !is(&l->toks[last], "{") || l->match[last] < l->n)
        return false;
    for (size_t j = 1; j < k; j++)
        if (is(&l->toks[j], "("))
            return false;               /* not the first parenthesis of the line */
    return is(&l->toks[k], "(");
}

/* The list to break on a line too long, among the tokens from..to: the
 * outermost list that holds the column where the code passes the limit —
 * it opens within the limit, so that the first line fits, and closes past
 * it, so that the excess is its items' (or it is a signature's
 * parameters) — if it has two items or more or its one item then fits on
 * a line; else the list found so inside that item.  A list in a block
 * opened on the line is not looked for: such a line is long because of
 * its block.  The opener's position, or l->n when no list will do. */
static size_t pick_list(const Line *l, size_t from, size_t to, int width)
{
    for (size_t k = from; k < to; k++) {
        if (l->match[k] >= to)          /* not an opener, or not closed here */
            continue;
        if (is(&l->toks[k], "{") && !l->toks[k].tight) {
            k = l->match[k];            /* a block */
            continue;
        }
        if (!l->list[k])
            continue;                   /* parentheses, an index: look inside */
        if (l->end_col[k] > width)
            break;                      /* any list from here on opens too late */
        if (l->end_col[l->match[k]] <= width && !is_signature_params(l, k)) {
            k = l->match[k];            /* the excess comes after it */
            continue;
        }
        size_t items = list_items(l, k, NULL);
        if (items > 1 || (items == 1 && single_item_fits(l, k, width)))
            return k;
        return items == 1 ? pick_list(l, k + 1, l->match[k], width) : l->n;
    }
    return l->n;
}

static void push_open(Layout *L, Open o)
{
    if (L->nopen == L->open_cap) {
        L->open_cap = L->open_cap ? 2 * L->open_cap : 64;
        L->open = realloc(L->open, L->open_cap * sizeof *L->open);
        if (!L->open)
            abort();
    }
    L->open[L->nopen++] = o;
}

/* Writes the line as it is and moves the layout past it. */
static void emit_line(Layout *L, const Line *l)
{
    for (int k = 0; k < l->indent; k++)
        put(&L->out, "  ", 2);
    for (size_t k = 0; k < l->n; k++) {
        for (int b = blanks_before(l->toks, k); b > 0; b--)
            put(&L->out, " ", 1);
        put(&L->out, l->toks[k].text, l->toks[k].len);
        if (opens(&l->toks[k]))
            push_open(L, (Open){l->toks[k].text[0], l->list[k], l->inner[k]});
        else if (closes(&l->toks[k]) && L->nopen > 0)
            L->nopen--;
    }
    put(&L->out, "\n", 1);
    /* a line that ends in an operator goes on in the next, which is
     * indented one step more (one that ends in an opening bracket
     * already is, and a comma only separates the items of one) */
    const Tok *last = NULL;
    for (size_t k = 0; k < l->n; k++)
        if (!is_comment(&l->toks[k]))
            last = &l->toks[k];
    L->continued = last && ((last->kind == T_PUNCT && !opens(last) && !closes(last) &&
                             !is(last, ";") && !is(last, ",") && !is(last, ">") &&
                             !is(last, "?")) ||
                            word_is(last, "and") || word_is(last, "or") ||
                            word_is(last, "not"));
    if (last) {
        L->last = *last;
        L->has_last = true;
    }
}

static const Tok newline_tok = {T_NEWLINE, "\n", 1, false, 0, false, false};
static const Tok comma_tok = {T_PUNCT, ",", 1, false, 0, false, false};

static void lay_line(Layout *L, const Tok *toks, size_t n);

/* rustfmt's short_array_element_width_threshold: an array literal whose
 * elements are all literals or names this narrow (`-1`, `0xff`, `"ab"`)
 * is laid out as many to a line as fit, a table rather than a column. */
enum { SHORT_ELEMENT = 10 };

/* Is the item toks[from..to) (its comma included, if any) a literal or a
 * name, possibly negated, of SHORT_ELEMENT columns or fewer? */
static bool is_short_element(const Line *l, size_t from, size_t to)
{
    if (to > from && is(&l->toks[to - 1], ","))
        to--;
    if (to > from + 1 && (is(&l->toks[from], "-") || is(&l->toks[from], "+")))
        from++;
    return to == from + 1 && l->toks[from].kind != T_PUNCT && !is_comment(&l->toks[from]) &&
           l->end_col[to - 1] - start_col(l, from) <= SHORT_ELEMENT;
}

/* Lays out the line with the list opened at k one item a line (an array
 * of short elements: as many a line as fit): the tokens up to the opener,
 * each item with its comma (one added after the last item's code if it
 * has none), then the closer and what follows it, each piece as a line of
 * its own. */
static void break_list(Layout *L, const Line *l, size_t k)
{
    size_t close = l->match[k];
    size_t *starts = malloc((close - k + 2) * sizeof *starts);
    size_t items = list_items(l, k, starts);
    starts[items] = close;
    bool table = is(&l->toks[k], "[");
    for (size_t i = 0; i < items && table; i++)
        table = is_short_element(l, starts[i], starts[i + 1]);
    Tok *out = malloc((l->n + 2 * items + 3) * sizeof *out);
    size_t m = 0;
    int col = 0;                /* where the row of a table has come to */
    for (size_t j = 0; j <= k; j++)
        out[m++] = l->toks[j];
    for (size_t i = 0; i < items; i++) {
        size_t end = starts[i + 1], last_code = starts[i];
        for (size_t j = starts[i]; j < end; j++)
            if (!is_comment(&l->toks[j]))
                last_code = j;
        bool add_comma = i + 1 == items && !is(&l->toks[last_code], ",");
        int item = l->end_col[end - 1] - start_col(l, starts[i]) + (add_comma ? 1 : 0);
        if (!table || i == 0 || col + 1 + item > L->width) {
            out[m++] = newline_tok;
            col = 2 * l->inner[k] + item;
        } else {
            col += 1 + item;
        }
        for (size_t j = starts[i]; j < end; j++) {
            out[m++] = l->toks[j];
            if (add_comma && j == last_code)
                out[m++] = comma_tok;
        }
    }
    out[m++] = newline_tok;
    for (size_t j = close; j < l->n; j++)
        out[m++] = l->toks[j];
    for (size_t from = 0, j = 0; j <= m; j++)
        if (j == m || out[j].kind == T_NEWLINE) {
            lay_line(L, out + from, j - from);
            from = j + 1;
        }
    free(out);
    free(starts);
}

/* Lays out one line of the input (or a piece of one already broken): at
 * its indentation, broken at a list if its code is too long. */
static void lay_line(Layout *L, const Tok *toks, size_t n)
{
    Line l = {toks, n, 0, malloc(n * sizeof *l.match), malloc(n * sizeof *l.list),
              malloc(n * sizeof *l.inner), malloc(n * sizeof *l.end_col)};
    l.indent = (L->nopen > 0 ? L->open[L->nopen - 1].inner : 0) + (L->continued ? 1 : 0);
    if (closes(&toks[0]) && l.indent > 0)
        l.indent--;
    analyse_line(L, &l);
    measure_line(&l);
    size_t code_end = n;        /* a `//` comment after the code may go past the limit */
    if (toks[n - 1].kind == T_LINE_COMMENT)
        code_end--;
    bool multiline_comment = false;     /* it ends a statement: never broken */
    for (size_t k = 0; k < n; k++)
        if (toks[k].kind == T_BLOCK_COMMENT && memchr(toks[k].text, '\n', toks[k].len))
            multiline_comment = true;
    size_t pick = n;
    if (code_end > 0 && l.end_col[code_end - 1] > L->width && !multiline_comment)
        pick = pick_list(&l, 0, code_end, L->width);
    if (pick < n)
        break_list(L, &l, pick);
    else
        emit_line(L, &l);
    free(l.match);
    free(l.list);
    free(l.inner);
    free(l.end_col);
}

char *fmt_source_width(const char *text, size_t len, int width, size_t *out_len)
{
    Tok *toks;
    size_t n = scan(text, len, &toks);
    mark_tight_braces(toks, n);
    mark_angles(toks, n);
    Layout L = {.width = width};
    int blank_run = 0;
    bool started = false;
    for (size_t i = 0; i < n;) {
        if (toks[i].kind == T_NEWLINE) {    /* an empty line */
            blank_run++;
            i++;
            continue;
        }
        /* a line: tokens i..j */
        size_t j = i;
        while (j < n && toks[j].kind != T_NEWLINE)
            j++;
        if (started && blank_run > 1)
            put(&L.out, "\n", 1);       /* at most one blank line */
        lay_line(&L, &toks[i], j - i);
        started = true;
        i = j < n ? j + 1 : j;
        blank_run = 1;      /* the newline that ended this line */
    }
    free(toks);
    free(L.open);
    if (!L.out.buf)
        put(&L.out, "", 0);
    *out_len = L.out.len;
    return L.out.buf;
}

char *fmt_source(const char *text, size_t len, size_t *out_len)
{
    return fmt_source_width(text, len, FMT_WIDTH, out_len);
}
