/* layout_file.c — layout files: layout experiments kept beside a program.
 *
 * `mosaicc --layout-file FILE` reads layout overrides from FILE, one per
 * line, in the syntax of `--layout`:
 *
 *     # the hot fields of a particle step together
 *     ps = rec{x, y, vx, vy} + rec{mass, id}
 *     qs = soa
 *
 * A `#` starts a comment to the end of its line; blank lines are skipped;
 * blanks around NAME, `=` and SPEC do not matter.  Each line becomes one
 * TcLayoutOverride (typecheck/types.h) carrying its place in the file, so
 * that the checker reports a bad override (E0402) at the file's own line
 * and column with a caret, as it does for source code: the file is
 * registered with the diagnostics module as a source of its own.  The
 * overrides of a file count as if given as `--layout` flags where
 * `--layout-file` stands on the command line, so a later flag or file wins
 * over an earlier one for the same NAME.
 *
 * What is here: reading, splitting into lines, the line's own syntax
 * (NAME = SPEC).  What is not: whether NAME names a pool or layout and
 * SPEC a layout of its class, which only the checker knows.  A file that
 * cannot be read is bad input (status 2), like a missing source file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "support/arena.h"
#include "support/diag.h"

/* A layout file is small; one larger than this is a mistake (a program
 * or a binary passed by accident), refused rather than read. */
#define MAX_LAYOUT_FILE_BYTES (1u << 20)

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mosaicc: error: cannot read layout file '%s': %s\n", path,
                strerror(errno));
        return NULL;
    }
    char *buf = malloc(MAX_LAYOUT_FILE_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_LAYOUT_FILE_BYTES + 1, f) : 0;
    int err = ferror(f) ? errno : 0;
    fclose(f);
    const char *why = !buf ? "out of memory" : err ? strerror(err)
                    : n > MAX_LAYOUT_FILE_BYTES ? "file too large (a layout file is at most 1 MiB)"
                    : NULL;
    if (why) {
        fprintf(stderr, "mosaicc: error: cannot read layout file '%s': %s\n", path, why);
        free(buf);
        return NULL;
    }
    char *text = arena_strndup(buf, n);
    free(buf);
    *len = n;
    return text;
}

static bool is_ident_start(int ch) { return isalpha(ch) || ch == '_'; }
static bool is_ident(int ch) { return isalnum(ch) || ch == '_'; }

/* line = [ NAME "=" SPEC ] [ "#" comment ]: one override into out, or an
 * E0402 at the line's mistake. */
static void read_line(uint32_t file, const char *text, size_t start, size_t end, int lineno,
                      const char *path, LayoutOverrideVec *out)
{
    const char *hash = memchr(text + start, '#', end - start);
    if (hash)
        end = (size_t)(hash - text);
    while (start < end && isspace((unsigned char)text[start]))
        start++;
    while (end > start && isspace((unsigned char)text[end - 1]))
        end--;
    if (start == end)
        return;                         /* blank, or a comment alone */
    size_t name_end = start;
    if (is_ident_start((unsigned char)text[start]))
        while (name_end < end && is_ident((unsigned char)text[name_end]))
            name_end++;
    size_t eq = name_end;
    while (eq < end && isspace((unsigned char)text[eq]))
        eq++;
    if (name_end == start || eq == end || text[eq] != '=') {
        size_t bad = name_end == start ? start : eq;
        diag_error((Loc){file, (uint32_t)bad, (uint32_t)(bad < end ? bad + 1 : bad)},
                   DIAG_E0402, "expected 'NAME = SPEC' (a pool or layout, '=', then a "
                   "layout such as 'soa' or 'rec{x, y} + rec{z}')");
        return;
    }
    size_t spec = eq + 1;
    while (spec < end && isspace((unsigned char)text[spec]))
        spec++;
    if (spec == end) {
        diag_error((Loc){file, (uint32_t)eq, (uint32_t)eq + 1}, DIAG_E0402,
                   "expected a layout after '=' for '%.*s'", (int)(name_end - start),
                   text + start);
        return;
    }
    TcLayoutOverride ov = {
        .text = arena_printf("%.*s=%.*s", (int)(name_end - start), text + start,
                             (int)(end - spec), text + spec),
        .at = {file, (uint32_t)start, (uint32_t)end},
        .spec_offset = (uint32_t)spec,
        .origin = arena_printf("%s:%d", path, lineno),
    };
    VEC_PUSH(*out, ov);
}

bool driver_read_layout_file(const char *path, LayoutOverrideVec *out)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text)
        return false;
    uint32_t file = src_add(path, text, len);
    int lineno = 1;
    for (size_t start = 0; start < len; lineno++) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len;
        read_line(file, text, start, end, lineno, path, out);
        start = end + 1;
    }
    return true;
}
