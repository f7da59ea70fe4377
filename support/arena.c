/* arena.c — the compiler's bump allocator and string interning.
 *
 * Memory comes from large zeroed blocks (calloc, so untouched pages cost
 * nothing); an allocation takes the next aligned bytes of the current block
 * or starts a new block.  A request larger than a quarter of a block gets a
 * block of its own, so one huge array does not waste the rest of a block.
 * Nothing is freed before arena_free_all, which the driver calls at exit.
 *
 * Interned strings live in the arena too; a separate open-addressing hash
 * table (malloc'd, doubled at half load) maps contents to the unique copy.
 * Strings are compared with their length, so they may contain NUL bytes.
 *
 * Out of memory is not recoverable in a compiler: print and exit 2.
 */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 MiB blocks: a few for a typical program, few enough mallocs to not
 * matter, small enough to not waste memory on tiny inputs. */
#define BLOCK_SIZE ((size_t)1 << 20)
/* Every allocation is aligned for any C type (max_align_t is 16 on x86-64). */
#define ALIGN ((size_t)16)

typedef struct Block {
    struct Block *next;
    size_t size;            /* usable bytes after the header */
    size_t used;
    _Alignas(16) unsigned char data[];
} Block;

static Block *blocks;       /* newest first; the current one is blocks */

static _Noreturn void out_of_memory(void)
{
    fputs("mosaicc: error: out of memory\n", stderr);
    exit(2);
}

static Block *new_block(size_t size)
{
    Block *b = calloc(1, sizeof(Block) + size);
    if (!b) out_of_memory();
    b->size = size;
    return b;
}

void *arena_alloc(size_t size)
{
    if (size == 0) size = 1;    /* distinct pointers for distinct requests */
    if (size > SIZE_MAX - ALIGN - sizeof(Block)) out_of_memory();
    size_t rounded = (size + ALIGN - 1) & ~(ALIGN - 1);

    if (rounded > BLOCK_SIZE / 4) {
        /* A big request gets its own block, linked behind the current one
         * so that the current block keeps serving small requests. */
        Block *b = new_block(rounded);
        b->used = rounded;
        if (blocks) {
            b->next = blocks->next;
            blocks->next = b;
        } else {
            blocks = b;
        }
        return b->data;
    }
    if (!blocks || blocks->size - blocks->used < rounded) {
        Block *b = new_block(BLOCK_SIZE);
        b->next = blocks;
        blocks = b;
    }
    void *p = blocks->data + blocks->used;
    blocks->used += rounded;
    return p;
}

char *arena_strndup(const char *s, size_t n)
{
    char *p = arena_alloc(n + 1);   /* zeroed: the NUL is already there */
    if (n) memcpy(p, s, n);
    return p;
}

char *arena_strdup(const char *s)
{
    return arena_strndup(s, strlen(s));
}

char *arena_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;   /* an encoding error: yield "" rather than crash */
    char *p = arena_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* ---- interning ----------------------------------------------------------- */

typedef struct InternEntry {
    const char *str;        /* NULL: empty slot */
    size_t len;
    uint32_t hash;
} InternEntry;

static InternEntry *table;
static size_t table_cap;    /* a power of two, or 0 before the first use */
static size_t table_count;

/* FNV-1a: simple, and good enough for identifiers. */
static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void grow_table(void)
{
    size_t cap = table_cap ? table_cap * 2 : 1024;
    InternEntry *t = calloc(cap, sizeof *t);
    if (!t) out_of_memory();
    for (size_t i = 0; i < table_cap; i++) {
        if (!table[i].str) continue;
        size_t j = table[i].hash & (cap - 1);
        while (t[j].str) j = (j + 1) & (cap - 1);
        t[j] = table[i];
    }
    free(table);
    table = t;
    table_cap = cap;
}

const char *intern(const char *s, size_t n)
{
    /* Keep the load at most one half so probe sequences stay short. */
    if ((table_count + 1) * 2 > table_cap) grow_table();
    uint32_t h = hash_bytes(s, n);
    size_t i = h & (table_cap - 1);
    while (table[i].str) {
        if (table[i].hash == h && table[i].len == n &&
            memcmp(table[i].str, s, n) == 0)
            return table[i].str;
        i = (i + 1) & (table_cap - 1);
    }
    table[i].str = arena_strndup(s, n);
    table[i].len = n;
    table[i].hash = h;
    table_count++;
    return table[i].str;
}

const char *intern_cstr(const char *s)
{
    return intern(s, strlen(s));
}

void arena_free_all(void)
{
    while (blocks) {
        Block *next = blocks->next;
        free(blocks);
        blocks = next;
    }
    free(table);
    table = NULL;
    table_cap = table_count = 0;
}
