/* frontend.c — the front end as a fuzz target, and the replay of inputs.
 *
 * One input is one Mosaic source: scanned, parsed, checked and analysed
 * for effects exactly as `mosaicc --check` does, its diagnostics thrown
 * away; then every table is forgotten so that the next input starts from
 * nothing (diag_reset, tc_reset, eff_reset, arena_free_all).  A crash, a
 * hang or a sanitizer report on an input is a bug of the front end.
 *
 * Built two ways from this one file:
 *   - with -DMOS_LIBFUZZER and clang's -fsanitize=fuzzer (`make fuzz`):
 *     the libFuzzer target, to run with the seed corpus and dictionary of
 *     tests/fuzz/ (see tests/fuzz/README.md);
 *   - without (`make check`): a program that replays the files it is given
 *     — the corpus and every crash input ever found, tests/fuzz/crashes/ —
 *     and says so in TAP, one test per file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "parser/parser.h"
#include "typecheck/types.h"
#include "typecheck/effects.h"

static FILE *sink;

static void run_one(const uint8_t *data, size_t size)
{
    if (!sink)
        sink = fopen("/dev/null", "w");
    diag_set_stream(sink);
    diag_set_error_limit(0);    /* the limit exits; a fuzzer must not */
    uint32_t file = src_add("fuzz.mos", (const char *)data, size);
    Program *program = parse_program(file);
    if (program && diag_error_count() == 0 && tc_check_program(program, NULL, 0) &&
        eff_analyse(program) && diag_error_count() == 0)
        tc_warn_program(program);
    eff_reset();
    tc_reset();
    diag_reset();
    arena_free_all();
}

#ifdef MOS_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_one(data, size);
    return 0;
}
#else
/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    printf("1..%d\n", argc - 1);
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        uint8_t *data = slurp(argv[i], &len);
        if (!data) {
            printf("not ok %d - %s: cannot read it\n", i, argv[i]);
            continue;
        }
        run_one(data, len);     /* a crash ends the run: the test fails */
        free(data);
        printf("ok %d - %s\n", i, argv[i]);
        fflush(stdout);
    }
    return 0;
}
#endif
