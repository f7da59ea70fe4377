/* nodes.c — the machine as the runtime sees it: nodes, workers, cores.
 *
 * LANGUAGE.md §5: the machine has nodes 0 … N-1, N = nodes(): the real
 * NUMA nodes, or MOSAIC_NODES=k virtual nodes that partition the cores (so
 * a one-socket machine can run and test multi-node programs).  The
 * runtime runs one worker per core (MOSAIC_THREADS=k overrides), each
 * belonging to one node; MOSAIC_PIN=1 pins each worker to its core.  This
 * file decides all of that once, on first use, and answers nodes() and
 * node_id().
 *
 * Cores: the CPUs this process may run on (sched_getaffinity, so taskset
 * and container CPU sets are honoured), at most the online CPUs
 * (sysconf).
 *
 * Real nodes: the nodes that hold at least one of those cores, numbered
 * densely 0 … N-1 in the system's order.  Memory-only nodes are left out:
 * an actor placed there would have no worker of its own.  With a single
 * such node, or when the kernel describes no nodes, N = 1.  MOSAIC_NODES=k
 * wins over the real topology.  The nodes come from the kernel's own
 * description, NODE_DIR: `online` lists the nodes and nodeK/cpulist the
 * cores of node K, both in its list notation ("0-3,8,10-11").  libnuma
 * reads the same files, and more, in a constructor at the start of every
 * program that links it; read here, they cost nothing until a program
 * first asks about nodes or starts its workers, and then are read once.
 *
 * Workers to nodes: with real nodes, the cores are listed node by node
 * and worker i takes core i*C/W of the C cores (W workers), so fewer
 * workers than cores spread evenly over the nodes; with virtual nodes,
 * worker i belongs to node i*N/W, contiguous blocks, every node getting a
 * worker when N <= W.  A node left without a worker (N > W) has its actors
 * run by all workers (sched.c).
 *
 * node_id() is the node of the actor whose message the calling thread is
 * running — its home, `here` inside it — and 0 in main.  That is the
 * worker's node, except when a worker steals an actor from another node
 * (or the actor's node has no worker): node_id() then still answers the
 * actor's home, because that is what the language's `here` means and
 * what the static effects assume (a remote-access count that reported
 * an actor's own fields as remote would contradict them).
 *
 * Not here: scheduling (sched.c), placing objects in memory.
 */
#include "rt_internal.h"
#include "transport.h"
#include "rt_actors.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcntl.h>

/* Far beyond any machine's node or core count: a larger value is a typo,
 * not a topology, and is ignored like any other invalid value. */
#define MAX_NODES 4096
#define MAX_WORKERS 4096
#define MAX_CPU_ID (1 << 20)

static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static RtTopology topo;

/* A whole number from 1 to max, or 0 (unset, empty or invalid). */
static int parse_count(const char *env, int max)
{
    if (!env || !*env)
        return 0;
    char *end;
    long long k = strtoll(env, &end, 10);
    return *end == '\0' && end != env && k >= 1 && k <= max ? (int)k : 0;
}

int rt_workers_asked(void)
{
    return parse_count(getenv("MOSAIC_THREADS"), MAX_WORKERS);
}

static int env_count(const char *name, int max)
{
    const char *env = getenv(name);
    int k = parse_count(env, max);
    if (k || !env || !*env)
        return k;
    char expected[48];
    snprintf(expected, sizeof expected, "a whole number from 1 to %d", max);
    rt_warn_env(name, env, expected);
    return 0;
}

/* The usable cores, ascending, into a malloc'd array; returns the count
 * (at least 1). */
static int usable_cpus(int **out)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        online = 1;
    int *cpus = malloc(sizeof(int) * (size_t)(online > CPU_SETSIZE
                                                  ? online : CPU_SETSIZE));
    int n = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpus && sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE && n < online; c++)
            if (CPU_ISSET(c, &set))
                cpus[n++] = c;
    }
    if (cpus && n == 0)
        for (int c = 0; c < online; c++)
            cpus[n++] = c;
    if (!cpus)
        rt_panicf(RT_NOWHERE, "out of memory: cannot list the cores");
    *out = cpus;
    return n;
}

#define NODE_DIR "/sys/devices/system/node"

/* A list in the kernel's notation, "0-3,8,10-11", read from path into
 * [first, last] pairs: calls each(first, last, ctx) for every range.
 * Returns 0, or -1 when the file cannot be read or is not such a list. */
static int read_ranges(const char *path, void (*each)(int first, int last, void *ctx),
                       void *ctx)
{
    char text[4096];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    const char *p = text;
    while (*p && *p != '\n') {
        char *end;
        long first = strtol(p, &end, 10), last = first;
        if (end == p || first < 0 || first >= MAX_CPU_ID)
            return -1;
        p = end;
        if (*p == '-') {
            last = strtol(p + 1, &end, 10);
            if (end == p + 1 || last < first || last >= MAX_CPU_ID)
                return -1;
            p = end;
        }
        each((int)first, (int)last, ctx);
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return -1;
    }
    return 0;
}

/* What reading the node lists fills in: the highest node number seen
 * (-1 for none), and for a node's cores, the node of each usable core. */
typedef struct {
    int max_node;
    int node;               /* the node whose cpulist is being read */
    const int *cpus;        /* the usable cores, ascending */
    int ncpus;
    int *raw;               /* raw[i]: the node of cpus[i], or -1 */
} NodeScan;

static void note_nodes(int first, int last, void *ctx)
{
    NodeScan *scan = ctx;
    (void)first;
    if (last > scan->max_node)
        scan->max_node = last < MAX_NODES ? last : MAX_NODES - 1;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void note_cores(int first, int last, void *ctx)
{
    NodeScan *scan = ctx;
    for (int c = first; c <= last; c++) {
        const int *at = bsearch(&c, scan->cpus, (size_t)scan->ncpus, sizeof(int),
                                compare_ints);
        if (at)
            scan->raw[at - scan->cpus] = scan->node;
    }
}

/* The node of each of the n usable cores (ascending), by the kernel's
 * lists under dir, into raw; returns the highest node number + 1, or 0
 * when dir describes no nodes (a kernel without NUMA support). */
static int cpu_nodes_from(const char *dir, const int *cpus, int n, int *raw)
{
    char path[256];
    NodeScan scan = { .max_node = -1, .cpus = cpus, .ncpus = n, .raw = raw };
    snprintf(path, sizeof path, "%s/online", dir);
    if (read_ranges(path, note_nodes, &scan) != 0 || scan.max_node < 0)
        return 0;
    for (int i = 0; i < n; i++)
        raw[i] = -1;
    for (scan.node = 0; scan.node <= scan.max_node; scan.node++) {
        snprintf(path, sizeof path, "%s/node%d/cpulist", dir, scan.node);
        read_ranges(path, note_cores, &scan);   /* offline or memory-only: none */
    }
    for (int i = 0; i < n; i++)
        if (raw[i] < 0)
            raw[i] = 0;     /* a core the kernel places nowhere: the first node */
    return scan.max_node + 1;
}

/* Sorts cpus node by node and writes each one's dense node number into
 * node_of; returns the number of nodes (1 when the machine has one). */
static int numa_nodes(const char *dir, int *cpus, int n, int *node_of)
{
    int *raw = malloc(sizeof(int) * (size_t)n);
    int max = raw ? cpu_nodes_from(dir, cpus, n, raw) : 0;
    int *dense = max > 1 ? malloc(sizeof(int) * (size_t)max) : NULL;
    int *sorted = dense ? malloc(sizeof(int) * (size_t)n) : NULL;
    if (!sorted) {
        free(dense), free(raw);
        return 1;
    }
    for (int i = 0; i < max; i++)
        dense[i] = -1;
    for (int i = 0; i < n; i++)
        dense[raw[i]] = 0;
    int count = 0;
    for (int i = 0; i < max; i++)
        if (dense[i] == 0)
            dense[i] = count++;
    if (count > 1) {
        int k = 0;
        for (int d = 0; d < count; d++)
            for (int i = 0; i < n; i++)
                if (dense[raw[i]] == d) {
                    sorted[k] = cpus[i];
                    node_of[k++] = d;
                }
        memcpy(cpus, sorted, sizeof(int) * (size_t)n);
    }
    free(dense), free(raw), free(sorted);
    return count > 1 ? count : 1;
}

/* Under MPI, the ranks that mpirun started on this machine share its
 * cores (OMPI_COMM_WORLD_LOCAL_SIZE of them): each takes its part, at
 * least one, so that ranks oversubscribing a machine do not each start a
 * worker per core and fight over them. */
static int cores_per_rank(int ncpus)
{
    int local = env_count("OMPI_COMM_WORLD_LOCAL_SIZE", MAX_WORKERS);
    int n = local > 1 ? ncpus / local : ncpus;
    return n > 0 ? n : 1;
}

static void topology_setup(void)
{
    int *cpus;
    int ncpus = usable_cpus(&cpus);
    int *cpu_node = calloc((size_t)ncpus, sizeof(int));
    if (!cpu_node)
        rt_panicf(RT_NOWHERE, "out of memory: cannot list the cores");

    /* under MPI the ranks are the nodes, and MOSAIC_NODES is ignored */
    int fixed_nodes = rt_tp_nodes();
    int virtual_nodes = fixed_nodes ? 0 : env_count("MOSAIC_NODES", MAX_NODES);
    int nodes = fixed_nodes ? fixed_nodes : virtual_nodes;
    if (!nodes) {
        nodes = numa_nodes(NODE_DIR, cpus, ncpus, cpu_node);
        topo.numa = nodes > 1;
    }

    int workers = env_count("MOSAIC_THREADS", MAX_WORKERS);
    if (!workers)
        workers = fixed_nodes ? cores_per_rank(ncpus) : ncpus;

    topo.nodes = nodes;
    topo.workers = workers;
    topo.worker_node = malloc(sizeof(int) * (size_t)workers);
    topo.worker_cpu = malloc(sizeof(int) * (size_t)workers);
    if (!topo.worker_node || !topo.worker_cpu)
        rt_panicf(RT_NOWHERE, "out of memory: cannot plan the workers");
    for (int i = 0; i < workers; i++) {
        if (topo.numa) {
            int c = workers <= ncpus
                        ? (int)((int64_t)i * ncpus / workers) : i % ncpus;
            topo.worker_cpu[i] = cpus[c];
            topo.worker_node[i] = cpu_node[c];
        } else if (fixed_nodes) {
            /* every worker of this process serves its node, the rank */
            topo.worker_cpu[i] = cpus[i % ncpus];
            topo.worker_node[i] = rt_tp_self() > 0 ? rt_tp_self() : 0;
        } else {
            topo.worker_cpu[i] = cpus[i % ncpus];
            topo.worker_node[i] = (int)((int64_t)i * nodes / workers);
        }
    }
    const char *pin = getenv("MOSAIC_PIN");
    topo.pin = pin && strcmp(pin, "1") == 0;
    if (pin && *pin && strcmp(pin, "1") != 0 && strcmp(pin, "0") != 0)
        rt_warn_env("MOSAIC_PIN", pin, "1 (pin the workers) or 0");
    free(cpus);
    free(cpu_node);
}

const RtTopology *rt_topology(void)
{
    pthread_once(&topo_once, topology_setup);
    return &topo;
}

int64_t mos_nodes(void)
{
    return rt_topology()->nodes;
}

int64_t mos_node_of(int64_t k)
{
    int64_t n = rt_topology()->nodes;
    int64_t r = k % n;
    return r < 0 ? r + n : r;
}

int64_t mos_node_id(void)
{
    return mos_here_node;   /* set by the scheduler with rt_current_actor */
}
