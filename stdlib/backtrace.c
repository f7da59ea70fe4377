/* backtrace.c — the Mosaic frames printed after a runtime error.
 *
 * A program compiled with -g links its frames into a chain per thread
 * (mosaic_rt.h, codegen/frames.c); after the message of a runtime error,
 * panic.c has the chain printed here, innermost first, one line a frame:
 *
 *     r_oob.mos:2:10: runtime error: index out of bounds: index 5, length 3
 *       at get_at (r_oob.mos:2)
 *       at main (r_oob.mos:5)
 *
 * The innermost frame is the code that failed, so its line is the one the
 * message names (the `where` codegen passed); the others show the line of
 * the call they are in.  A program compiled without -g has no chain and
 * prints the message alone, exactly as before.  (An environment variable
 * to ask for the chain, as RUST_BACKTRACE does, would have nothing to
 * print without -g, and -g is already the asking.)
 *
 * A chain may be very long — a recursion that overflowed the stack has
 * millions of frames — so beyond BT_HEAD + BT_TAIL frames only the
 * innermost BT_HEAD and the outermost BT_TAIL are printed, with the
 * number left out between them.
 *
 * Frames may be somewhere else than where they were linked: the frames of
 * an actor's turn that waits in `get` are copied aside (sched.c), so the
 * deadlock report reads them through a function that maps a frame's
 * address to where its bytes are now.
 *
 * Everything here is async-signal-safe (a fixed buffer, write(2)), so the
 * fault handler's stack overflow gets its frames too.
 */
#include "rt_internal.h"

#include <stddef.h>
#include <unistd.h>

__thread MosFrame *mos_frame_top;

_Static_assert(offsetof(MosFrame, prev) == 0 && offsetof(MosFrame, function) == 8 &&
                   offsetof(MosFrame, line) == 16 && sizeof(MosFrame) == 24,
               "codegen/frames.c builds MosFrame as {ptr, ptr, i64}");

/* Frames printed of a long chain: the innermost and the outermost. */
#define BT_HEAD 10
#define BT_TAIL 4

/* Frames counted at most (a chain longer than any stack can hold is a
 * broken one, not a reason to loop forever in a dying program). */
#define BT_COUNT_MAX ((int64_t)1 << 28)

/* One line of output at most this long (the name is cut). */
#define BT_LINE_MAX 512

static const MosFrame *readable(const MosFrame *fr, RtFrameReader read, void *ctx)
{
    return fr && read ? read(fr, ctx) : fr;
}

/* The LINE of "FILE:LINE:COL", or 0. */
static int64_t line_of(const char *where)
{
    if (!where)
        return 0;
    const char *last = NULL, *before = NULL;
    for (const char *p = where; *p; p++)
        if (*p == ':') {
            before = last;
            last = p;
        }
    if (!before)
        return 0;
    int64_t line = 0;
    for (const char *p = before + 1; p < last; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        line = line * 10 + (*p - '0');
    }
    return line;
}

static void append(char *buf, size_t *len, const char *s)
{
    while (*s && *len < BT_LINE_MAX - 2)
        buf[(*len)++] = *s++;
}

/* "INDENTat NAME (FILE:LINE)\n" */
static void write_frame(int fd, const char *indent, const MosFrame *fr, int64_t line)
{
    char buf[BT_LINE_MAX];
    char digits[RT_INT_BUF];
    size_t len = 0;
    const MosFunction *fn = fr->function;
    append(buf, &len, indent);
    append(buf, &len, "at ");
    append(buf, &len, fn && fn->name ? fn->name : "?");
    append(buf, &len, " (");
    append(buf, &len, fn && fn->file ? fn->file : "?");
    append(buf, &len, ":");
    rt_format_int(line, digits);
    append(buf, &len, digits);
    append(buf, &len, ")");
    buf[len++] = '\n';
    rt_write_all(fd, buf, len);
}

void rt_backtrace_write(int fd, const MosFrame *top, const char *where, RtFrameReader read,
                        void *ctx, const char *indent)
{
    int64_t n = 0;
    for (const MosFrame *fr = readable(top, read, ctx); fr && n < BT_COUNT_MAX;
         fr = readable(fr->prev, read, ctx))
        n++;
    int64_t i = 0;
    for (const MosFrame *fr = readable(top, read, ctx); fr && i < n;
         fr = readable(fr->prev, read, ctx), i++) {
        if (n > BT_HEAD + BT_TAIL && i == BT_HEAD) {
            char buf[BT_LINE_MAX], digits[RT_INT_BUF];
            size_t len = 0;
            append(buf, &len, indent);
            append(buf, &len, "... ");
            rt_format_int(n - BT_HEAD - BT_TAIL, digits);
            append(buf, &len, digits);
            append(buf, &len, " more frames ...");
            buf[len++] = '\n';
            rt_write_all(fd, buf, len);
        }
        if (n > BT_HEAD + BT_TAIL && i >= BT_HEAD && i < n - BT_TAIL)
            continue;
        int64_t line = fr->line;
        if (i == 0 && line_of(where) > 0)
            line = line_of(where);
        write_frame(fd, indent, fr, line);
    }
}
