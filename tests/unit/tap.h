/* tap.h — the smallest TAP producer, for the C unit tests in tests/unit.
 *
 *   int main(void) {
 *       TAP_PLAN(2);
 *       TAP_OK(1 + 1 == 2, "addition");
 *       TAP_STR_EQ(got, "want", "formatting");
 *       return tap_done();
 *   }
 *
 * Output is TAP version 12 as automake's tap-driver.sh reads it: the plan,
 * one "ok N - name" or "not ok N - name" per check, and "# " lines that
 * say what went wrong.  Header-only and static, so every test program
 * includes it without linking anything.
 */
#ifndef MOSAIC_TAP_H
#define MOSAIC_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

#define TAP_PLAN(n) printf("1..%d\n", (n))

static inline int tap_ok(int cond, const char *name, const char *file, int line)
{
    tap_count++;
    printf("%sok %d - %s\n", cond ? "" : "not ", tap_count, name);
    if (!cond) {
        printf("# failed at %s:%d\n", file, line);
        tap_failed++;
    }
    fflush(stdout);
    return cond;
}

/* Prints each line of s as a "# " diagnostic. */
static inline void tap_diag_text(const char *label, const char *s)
{
    printf("# %s:\n", label);
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        int n = nl ? (int)(nl - s) : (int)strlen(s);
        printf("#   |%.*s|\n", n, s);
        s += n + (nl ? 1 : 0);
    }
}

static inline int tap_str_eq(const char *got, const char *want, const char *name,
                             const char *file, int line)
{
    int same = got && want && strcmp(got, want) == 0;
    if (!tap_ok(same, name, file, line)) {
        tap_diag_text("expected", want ? want : "(null)");
        tap_diag_text("got", got ? got : "(null)");
    }
    return same;
}

#define TAP_OK(cond, name) tap_ok(!!(cond), (name), __FILE__, __LINE__)
#define TAP_STR_EQ(got, want, name) tap_str_eq((got), (want), (name), __FILE__, __LINE__)

/* The exit status for main: 0 when every check passed. */
static inline int tap_done(void)
{
    return tap_failed ? 1 : 0;
}

#endif
