/* test_nodes.c — white-box tests of how stdlib/nodes.c reads the
 * machine's NUMA nodes from the kernel's lists (LANGUAGE.md §5: the real
 * nodes, numbered densely, memory-only nodes left out).
 *
 * A test machine has one node, so the real lists exercise none of the
 * interesting cases.  This test includes nodes.c itself and points its
 * reader at directories it writes under a temporary one, laid out as
 * /sys/devices/system/node is: `online`, and nodeK/cpulist.
 *
 * Output is TAP.
 */
#define _GNU_SOURCE 1
#ifndef GC_THREADS
#define GC_THREADS 1
#endif

#include "stdlib/nodes.c"
#include "tests/unit/tap.h"

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

static char root[] = "/tmp/mosaic-nodes-XXXXXX";
static int machines;

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A machine: `online`'s text, then for node 0, 1, … its cpulist (NULL: no
 * such file), ending with an empty string.  Returns its directory. */
static const char *machine(const char *online, const char *const *cpulists)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "%s/m%d", root, machines++);
    mkdir(dir, 0700);
    if (online)
        write_file(dir, "online", online);
    for (int k = 0; cpulists[k] && *cpulists[k] != '\0'; k++) {
        char node[512];
        snprintf(node, sizeof node, "%s/node%d", dir, k);
        mkdir(node, 0700);
        if (strcmp(cpulists[k], "-") != 0)
            write_file(node, "cpulist", cpulists[k]);
    }
    return dir;
}

/* "cpu:node cpu:node …" after reading dir with the usable cores 0 … n-1. */
static int layout(const char *dir, int n, char *out, size_t size)
{
    int cpus[64], node_of[64] = { 0 };
    for (int i = 0; i < n; i++)
        cpus[i] = i;
    int nodes = numa_nodes(dir, cpus, n, node_of);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%d:%d", i ? " " : "",
                                 cpus[i], nodes > 1 ? node_of[i] : 0);
    return nodes;
}

static void check(const char *name, const char *online, const char *const *lists, int n,
                  int want_nodes, const char *want_layout)
{
    char got[512];
    int nodes = layout(machine(online, lists), n, got, sizeof got);
    if (!TAP_OK(nodes == want_nodes, name))
        printf("# nodes: got %d, want %d\n", nodes, want_nodes);
    TAP_STR_EQ(got, want_layout, name);
}

static int remove_one(const char *path, const struct stat *st, int kind, struct FTW *at)
{
    (void)st, (void)kind, (void)at;
    return remove(path);
}

int main(void)
{
    if (!mkdtemp(root)) {
        printf("1..0 # SKIP cannot make a temporary directory\n");
        return 0;
    }
    TAP_PLAN(18);
    check("two nodes, contiguous", "0-1\n", (const char *[]){ "0-1\n", "2-3\n", "" }, 4,
          2, "0:0 1:0 2:1 3:1");
    check("two nodes, interleaved cores", "0-1\n", (const char *[]){ "0,2\n", "1,3\n", "" },
          4, 2, "0:0 2:0 1:1 3:1");
    check("a memory-only node is left out", "0-2\n",
          (const char *[]){ "0-1\n", "\n", "2-3\n", "" }, 4, 2, "0:0 1:0 2:1 3:1");
    check("an offline node, no cpulist", "0,2\n",
          (const char *[]){ "0\n", "-", "1\n", "" }, 2, 2, "0:0 1:1");
    check("one node", "0\n", (const char *[]){ "0-3\n", "" }, 4, 1, "0:0 1:0 2:0 3:0");
    check("no node lists at all", NULL, (const char *[]){ "" }, 2, 1, "0:0 1:0");
    check("a list that is not one", "0-x\n", (const char *[]){ "0\n", "1\n", "" }, 2, 1,
          "0:0 1:0");
    check("cores of another node not usable here", "0-1\n",
          (const char *[]){ "0-1\n", "2-3\n", "" }, 2, 1, "0:0 1:0");
    check("a core no list names goes to the first node", "0-1\n",
          (const char *[]){ "1\n", "2\n", "" }, 3, 2, "0:0 1:0 2:1");
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    return tap_done();
}
