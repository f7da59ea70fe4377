/* format.c — one canonical layout of a Mosaic file (mosaicc --format, and
 * the language server's textDocument/formatting).
 *
 * The formatter works on tokens, not on the tree: comments, blank lines and
 * the programmer's line breaks are kept where they were, and nothing the
 * parser would read differently can come out of it.  What it decides:
 *
 *   - indentation: two spaces per bracket — `{`, `(`, `[` — still open at
 *     the start of the line, one fewer for a line that starts by closing
 *     one, one more for a line that continues the one before (which ended
 *     in an operator);
 *   - spacing within a line: one space after `,`, `;` and `:`, around
 *     `=`, the compound assignments, `==`, `!=`, `*`, `/`, `%`, `&`, `|`,
 *     `^`, between words, before `{` and around `}`, around a block
 *     comment; none inside `( )` and `[ ]`, around `.` and `!`, before
 *     `,`, `;`, `)` and `]` (after a block comment too), `:` and a
 *     call's `(` or an index's `[`;
 *   - blank lines: at most one in a row, none at the start or end; no
 *     trailing blanks after code; one newline at the end.
 *
 * A comment's text is kept as it is; a `//` comment after code keeps its
 * distance from it (at least one space), so that comments aligned in a
 * column stay aligned.
 *
 * Where a space can change what the scanner reads, the formatter keeps
 * whether there was one: around `<` and `>` (a place list `C<p>` or a
 * comparison), `<<`, `>>`, `<=`, `>=`, `+` and `-` (binary or unary),
 * `..` and `?`, and after a keyword before `(`.  It never joins or
 * splits lines: a newline ends a statement in Mosaic (LANGUAGE.md §1), so
 * line breaks are the program's.  Long lines are therefore not broken.
 *
 * A file that does not parse is not formatted (the caller checks first):
 * the rules assume well-formed tokens.  Formatting is idempotent, and the
 * tests check, on every program of the tree, that the formatted text
 * parses to the very same tree.
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
        Tok t = {T_PUNCT, text + i, 1, gap > 0, gap, false};
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
        if (t->kind == T_LINE_COMMENT || t->kind == T_BLOCK_COMMENT)
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

char *fmt_source(const char *text, size_t len, size_t *out_len)
{
    Tok *toks;
    size_t n = scan(text, len, &toks);
    mark_tight_braces(toks, n);
    Out o = {0};
    int depth = 0;
    bool continued = false;     /* the line before went on to this one */
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
            put(&o, "\n", 1);       /* at most one blank line */
        blank_run = 0;
        int indent = depth + (continued ? 1 : 0);
        if (closes(&toks[i]) && indent > 0)
            indent--;
        for (int k = 0; k < indent; k++)
            put(&o, "  ", 2);
        for (size_t k = i; k < j; k++) {
            /* a comment after code keeps its column's distance (aligned
             * comments stay aligned), at least one space */
            if (k > i && toks[k].kind == T_LINE_COMMENT)
                for (int g = 0; g < (toks[k].gap > 1 ? toks[k].gap : 1); g++)
                    put(&o, " ", 1);
            else if (k > i && space_between(&toks[k - 1], &toks[k]))
                put(&o, " ", 1);
            put(&o, toks[k].text, toks[k].len);
            if (opens(&toks[k]))
                depth++;
            else if (closes(&toks[k]) && depth > 0)
                depth--;
        }
        put(&o, "\n", 1);
        started = true;
        /* a line that ends in an operator goes on in the next, which is
         * indented one step more (one that ends in an opening bracket
         * already is, and a comma only separates the items of one) */
        const Tok *last = NULL;
        for (size_t k = i; k < j; k++)
            if (toks[k].kind != T_LINE_COMMENT && toks[k].kind != T_BLOCK_COMMENT)
                last = &toks[k];
        continued = last && ((last->kind == T_PUNCT && !opens(last) && !closes(last) &&
                              !is(last, ";") && !is(last, ",") && !is(last, ">") &&
                              !is(last, "?")) ||
                             word_is(last, "and") || word_is(last, "or") ||
                             word_is(last, "not"));
        i = j < n ? j + 1 : j;
        blank_run = 1;      /* the newline that ended this line */
    }
    free(toks);
    if (!o.buf)
        put(&o, "", 0);
    *out_len = o.len;
    return o.buf;
}
