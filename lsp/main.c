/* main.c — mosaic-lsp: the Mosaic language server, for editors.
 *
 *   mosaic-lsp [--stdio]
 *
 * Speaks the Language Server Protocol on standard input and output until
 * the client says `exit` (docs/editors.md, docs/mosaic-lsp.1).  `--stdio`
 * is accepted and means what happens anyway, since clients such as VS
 * Code's pass it.  Standard error is for the server's own trouble only.
 *
 * The session runs on a thread with a deep stack, as mosaicc's phases do
 * (driver/main.c): the front end recurses once per nesting level of an
 * expression, up to AST_MAX_EXPR_DEPTH.  A client that goes away makes
 * writes fail, which ends the session; SIGPIPE is ignored for that.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "lsp.h"
#include "support/arena.h"
#include "support/big_stack.h"

/* Room for AST_MAX_EXPR_DEPTH levels with a wide margin, as mosaicc
 * has; pages are committed only as they are used. */
#define SESSION_STACK_SIZE ((size_t)512 << 20)

static const char usage[] =
    "usage: mosaic-lsp [--stdio]\n"
    "The Mosaic language server: speaks the Language Server Protocol on\n"
    "standard input and output (docs/editors.md).\n";

typedef struct Session {
    int status;
} Session;

static void *session(void *arg)
{
    Session *s = arg;
    s->status = lsp_serve(stdin, stdout);
    return NULL;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stdio") == 0)
            continue;
        if (strcmp(argv[i], "--version") == 0) {
            printf("mosaic-lsp %s\n", PACKAGE_VERSION);
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        fprintf(stderr, "mosaic-lsp: unknown option '%s'\n%s", argv[i], usage);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    Session s = {1};
    run_on_big_stack(session, &s, SESSION_STACK_SIZE);
    diag_reset();
    arena_free_all();
    return s.status;
}
