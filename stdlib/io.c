/* io.c — standard input, files, standard error and exit (LANGUAGE.md §8).
 *
 * Standard input goes through one buffer behind one mutex, so that
 * read_line, eof and read_all are atomic: when several actors read at
 * once, each gets whole lines, none split between two callers.  A line
 * ends at "\n" (a "\r" before it goes too); the last line needs no
 * terminator; at the end of input read_line is "".  eof waits for input
 * when the buffer is empty, since only a read can tell.  A read that fails
 * (not the end of input: an error) is the runtime error "i/o error".  A
 * reading actor holds its worker while it waits for input, like any
 * system call.
 *
 * read_file and write_file work on whole files, with the path and the
 * system's reason in their "i/o error: cannot read 'PATH': REASON".  A
 * path with a NUL byte names no file.
 *
 * eprint and eprintln write to standard error, unbuffered, each call one
 * write(2); standard output is flushed first, so that the two streams come
 * out in program order when they go to the same place.  exit(code) ends
 * the program from any thread: standard output flushed, status code & 255.
 *
 * Not here: standard output (print.c), runtime errors (panic.c).
 */
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read size: one system call per 64 KiB of input at most. */
#define IN_CHUNK ((size_t)64 * 1024)

static pthread_mutex_t in_lock = PTHREAD_MUTEX_INITIALIZER;
/* malloc'd: bytes only, nothing for the collector to scan. */
static char *in_buf;
static size_t in_start, in_end, in_cap;
static int in_done;     /* the end of input was read */

/* Reads more input after what is buffered; 0 at the end of input.
 * Caller holds in_lock. */
static int fill_locked(void)
{
    if (in_done)
        return 0;
    if (in_start > 0 && in_start == in_end)
        in_start = in_end = 0;
    if (in_cap - in_end < IN_CHUNK) {
        if (in_start > 0) {     /* slide what is left to the front */
            memmove(in_buf, in_buf + in_start, in_end - in_start);
            in_end -= in_start;
            in_start = 0;
        }
        if (in_cap - in_end < IN_CHUNK) {
            size_t cap = in_cap ? 2 * in_cap : 2 * IN_CHUNK;
            char *grown = realloc(in_buf, cap);
            if (!grown)
                rt_panicf(RT_NOWHERE, "out of memory: reading standard input");
            in_buf = grown;
            in_cap = cap;
        }
    }
    for (;;) {
        ssize_t n = read(STDIN_FILENO, in_buf + in_end, in_cap - in_end);
        if (n > 0) {
            in_end += (size_t)n;
            return 1;
        }
        if (n == 0) {
            in_done = 1;
            return 0;
        }
        if (errno != EINTR)
            rt_panicf(RT_NOWHERE, "i/o error: cannot read standard input: %s",
                      strerror(errno));
    }
}

/* Takes bytes [in_start, in_start + n) out of the buffer as a string,
 * and `skip` more bytes after them. */
static MosString *take_locked(size_t n, size_t skip)
{
    if (n + skip == 0)
        return rt_empty_string();
    MosString *s = rt_string_new(in_buf + in_start, (int64_t)n);
    in_start += n + skip;
    return s;
}

MosString *mos_read_line(void)
{
    pthread_mutex_lock(&in_lock);
    size_t scanned = 0;     /* bytes known to hold no newline */
    char *nl = NULL;
    for (;;) {
        size_t avail = in_end - in_start;
        if (avail > scanned &&
            (nl = memchr(in_buf + in_start + scanned, '\n', avail - scanned)))
            break;
        scanned = avail;
        if (!fill_locked())
            break;
    }
    MosString *line;
    if (nl) {
        size_t n = (size_t)(nl - (in_buf + in_start));
        size_t cr = n > 0 && in_buf[in_start + n - 1] == '\r';
        line = take_locked(n - cr, 1 + cr);
    } else {
        line = take_locked(in_end - in_start, 0);   /* the last line, or "" */
    }
    pthread_mutex_unlock(&in_lock);
    return line;
}

int32_t mos_eof(void)
{
    pthread_mutex_lock(&in_lock);
    int at_end = in_start == in_end && !fill_locked();
    pthread_mutex_unlock(&in_lock);
    return at_end;
}

MosString *mos_read_all(void)
{
    pthread_mutex_lock(&in_lock);
    while (fill_locked())
        ;
    MosString *s = take_locked(in_end - in_start, 0);
    pthread_mutex_unlock(&in_lock);
    return s;
}

/* ---- files ------------------------------------------------------------- */

static _Noreturn void file_error(const char *where, const char *verb,
                                 const MosString *path, const char *reason)
{
    rt_panicf(where, "i/o error: cannot %s '%s': %s", verb,
              rt_string_cstr(path), reason);
}

/* The path as a C string; a NUL inside it names no file. */
static const char *c_path(const char *where, const char *verb,
                          const MosString *path)
{
    if (memchr(path->bytes, '\0', (size_t)path->length))
        file_error(where, verb, path, "the path contains a NUL byte");
    return rt_string_cstr(path);
}

MosString *mos_read_file(MosString *path, const char *where)
{
    int fd = open(c_path(where, "read", path), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        file_error(where, "read", path, strerror(errno));
    /* Read into a malloc'd buffer of growing size: files in /proc say
     * they are empty, pipes say nothing; a directory fails its first read
     * (EISDIR). */
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : IN_CHUNK;
    size_t len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            rt_panicf(where, "out of memory: reading '%s'",
                      rt_string_cstr(path));
        if (len == cap) {
            char *grown = realloc(buf, 2 * cap);
            if (!grown)
                free(buf);
            buf = grown;
            cap *= 2;
            continue;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n > 0) {
            len += (size_t)n;
            continue;
        }
        if (n == 0)
            break;
        if (errno == EINTR)
            continue;
        int err = errno;
        free(buf);
        close(fd);
        file_error(where, "read", path, strerror(err));
    }
    close(fd);
    MosString *s = rt_string_new(buf, (int64_t)len);
    free(buf);
    return s;
}

void mos_write_file(MosString *path, MosString *s, const char *where)
{
    int fd = open(c_path(where, "write", path),
                  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        file_error(where, "write", path, strerror(errno));
    int err = rt_write_all(fd, s->bytes, (size_t)s->length);
    if (err) {
        close(fd);
        file_error(where, "write", path, strerror(err));
    }
    if (close(fd) != 0)     /* NFS and full disks report here */
        file_error(where, "write", path, strerror(errno));
}

/* ---- standard error and exit -------------------------------------------- */

static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

void mos_eprint(MosString *s, int32_t newline)
{
    rt_print_flush();
    size_t n = (size_t)s->length;
    char *line = malloc(n + 1);
    if (!line)
        rt_panicf(RT_NOWHERE, "out of memory: writing to standard error");
    memcpy(line, s->bytes, n);
    if (newline)
        line[n++] = '\n';
    pthread_mutex_lock(&err_lock);
    (void)rt_write_all(STDERR_FILENO, line, n);   /* nowhere left to report a failure */
    pthread_mutex_unlock(&err_lock);
    free(line);
}

_Noreturn void mos_exit(int64_t code)
{
    rt_exit((int)(code & 255));
}
