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
 * Real nodes (libnuma, when configure found it: HAVE_NUMA): the nodes
 * that hold at least one of those cores, numbered densely 0 … N-1 in the
 * system's order.  Memory-only nodes are left out: an actor placed there
 * would have no worker of its own.  With a single such node, or without
 * libnuma, or when numa_available() says the kernel has no NUMA support,
 * N = 1.  MOSAIC_NODES=k wins over the real topology.
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
#include "rt_actors.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_NUMA
#include <numa.h>
#endif

/* Far beyond any machine's node or core count: a larger value is a typo,
 * not a topology, and is ignored like any other invalid value. */
#define MAX_NODES 4096
#define MAX_WORKERS 4096

static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static RtTopology topo;

/* A positive decimal integer up to max from the environment, else 0 (a
 * value that is not one is said on stderr, then ignored). */
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

#ifdef HAVE_NUMA
/* Sorts cpus node by node and writes each one's dense node number into
 * node_of; returns the number of nodes (1 when NUMA is not usable). */
static int numa_nodes(int *cpus, int n, int *node_of)
{
    if (numa_available() < 0 || numa_max_node() < 1)
        return 1;
    int max = numa_max_node() + 1;
    int *dense = malloc(sizeof(int) * (size_t)max);
    int *raw = malloc(sizeof(int) * (size_t)n);
    int *sorted = malloc(sizeof(int) * (size_t)n);
    if (!dense || !raw || !sorted) {
        free(dense), free(raw), free(sorted);
        return 1;
    }
    for (int i = 0; i < max; i++)
        dense[i] = -1;
    for (int i = 0; i < n; i++) {
        int node = numa_node_of_cpu(cpus[i]);
        raw[i] = node >= 0 && node < max ? node : 0;
        dense[raw[i]] = 0;
    }
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
#endif

static void topology_setup(void)
{
    int *cpus;
    int ncpus = usable_cpus(&cpus);
    int *cpu_node = calloc((size_t)ncpus, sizeof(int));
    if (!cpu_node)
        rt_panicf(RT_NOWHERE, "out of memory: cannot list the cores");

    int virtual_nodes = env_count("MOSAIC_NODES", MAX_NODES);
    int nodes = 1;
#ifdef HAVE_NUMA
    if (!virtual_nodes) {
        nodes = numa_nodes(cpus, ncpus, cpu_node);
        topo.numa = nodes > 1;
    }
#endif
    if (virtual_nodes)
        nodes = virtual_nodes;

    int workers = env_count("MOSAIC_THREADS", MAX_WORKERS);
    if (!workers)
        workers = ncpus;

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
