/* narrow.c — the formatter's line breaking tried on every list of real
 * programs, not only on the few lines of the tree that pass 100 columns.
 *
 *   tests/format/narrow WIDTH FILE...
 *
 * formats each file that parses with lines broken past WIDTH columns
 * (fmt_source_width, parser/format.c) and checks what a break must never
 * do: change what the parser reads — the formatted text must parse, to the
 * very same tree (ast_print, as `mosaicc --dump-ast`) — or give a text that
 * formatting would change again.  At a width of a few columns nearly every
 * list of arguments, parameters and literals is broken, nested ones too,
 * beside comments, place lists and strings: the cases a hand-written test
 * would miss.  It prints the files that fail, one a line, and exits with
 * status 1 if there is one; tests/driver/format.sh runs it on the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "parser/parser.h"

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The tree of a text, printed; NULL if the text does not parse. */
static char *tree_of(const char *path, const char *text, size_t len)
{
    int errors = diag_error_count();
    Program *program = parse_program(src_add(path, text, len));
    if (!program || diag_error_count() > errors)
        return NULL;
    char *tree = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&tree, &size);
    if (!out)
        abort();
    ast_print(out, program);
    fclose(out);
    return tree;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: narrow WIDTH FILE...\n");
        return 2;
    }
    int width = atoi(argv[1]);
    FILE *sink = fopen("/dev/null", "w");
    diag_set_stream(sink);
    diag_set_error_limit(0);
    int failed = 0, tried = 0;
    for (int i = 2; i < argc; i++) {
        size_t len = 0, len1 = 0, len2 = 0;
        char *text = slurp(argv[i], &len);
        char *tree = text ? tree_of(argv[i], text, len) : NULL;
        if (!tree) {            /* not a program: nothing to format */
            free(text);
            diag_reset();
            arena_free_all();
            continue;
        }
        tried++;
        char *once = fmt_source_width(text, len, width, &len1);
        char *tree1 = tree_of(argv[i], once, len1);
        char *twice = fmt_source_width(once, len1, width, &len2);
        if (!tree1 || strcmp(tree, tree1) != 0 || len1 != len2 || memcmp(once, twice, len1) != 0) {
            printf("%s%s\n", argv[i], !tree1 ? ": does not parse once formatted"
                                     : strcmp(tree, tree1) ? ": another tree once formatted"
                                                           : ": formatting it twice changes it");
            failed++;
        }
        free(twice);
        free(tree1);
        free(once);
        free(tree);
        free(text);
        diag_reset();
        arena_free_all();
    }
    fprintf(stderr, "narrow: %d programs formatted at width %d, %d failed\n", tried, width, failed);
    return failed ? 1 : 0;
}
