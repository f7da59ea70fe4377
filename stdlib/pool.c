/* pool.c — pools (LANGUAGE.md §6): clusters that never move.
 *
 * A pool's objects are numbered from 1 in allocation order; a reference
 * is the number (mosaic_rt.h), so null is 0, `==` compares numbers, and a
 * reference fits a message slot, a future or an array element like a
 * pointer does.  Codegen turns a field access into one address computation
 * in the right cluster, specialised for the pool's layout.
 *
 * Each cluster is one contiguous range of address space reserved for
 * MOS_POOL_MAX_OBJECTS records when the pool is made (mmap with
 * MAP_NORESERVE: nothing is committed until touched, and fresh pages are
 * zero, which is every field's default but a string's).  So a cluster
 * grows without ever moving: an address computed once stays valid, in a
 * loop, in a callee, in another actor.  The price is address space, which
 * 64-bit machines have plenty of; `capacity` only tracks how much of each
 * cluster the collector has been told about.
 *
 * The collector: a cluster holding pointers (strings, objects, arrays,
 * futures, pool addresses) is a root for its first `capacity` records,
 * grown by doubling (one root set per cluster, replaced as it grows).  The
 * descriptor itself is a collected block: a top-level pool is held by the
 * program's global for ever; a pool made by a `pool` statement is held by
 * its function's frame, and by every place value that names it (hidden
 * arguments, message slots, stored places), so it lives as long as code
 * can reach its objects; its finaliser then unmaps the clusters.  Should
 * many such pools pile up unreached, a collection is forced before the
 * address space they hold grows past RT_POOL_RESERVE_LIMIT.
 *
 * Allocation may race (a top-level pool is shared by all actors): the
 * number is taken with one atomic increment; the rare allocation beyond
 * the capacity grows the roots under a lock before the object is used.
 */
#include "rt_internal.h"
#include "transport.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

#include <gc.h>

_Static_assert(offsetof(MosPool, size) == MOS_POOL_SIZE_OFFSET, "codegen reads size");
_Static_assert(offsetof(MosPool, node) == MOS_POOL_NODE_OFFSET, "codegen reads node");
_Static_assert(offsetof(MosPool, places) == MOS_POOL_PLACES_OFFSET, "codegen reads places");
_Static_assert(offsetof(MosPool, clusters) == MOS_POOL_CLUSTERS_OFFSET, "codegen reads bias");
_Static_assert(sizeof(MosPoolCluster) == MOS_POOL_CLUSTER_BYTES, "codegen strides clusters");
_Static_assert(offsetof(MosPoolCluster, bias) == 0, "codegen reads bias first");

/* Address space held by live pools above which unreached ones are
 * collected first: 32 TiB, a quarter of x86-64's user space. */
#define RT_POOL_RESERVE_LIMIT ((uint64_t)32 << 40)
/* First capacity the roots cover, in objects. */
#define RT_POOL_FIRST_CAPACITY 1024

/* One page and one cache line: consecutive clusters land in different
 * cache sets; RT_POOL_SKEWS of them before the pattern repeats. */
#define RT_POOL_SKEW (4096 + 64)
#define RT_POOL_SKEWS 61

static _Atomic uint64_t reserved;
static _Atomic unsigned skews;
static pthread_mutex_t grow_lock = PTHREAD_MUTEX_INITIALIZER;

static void unmap_clusters(void *obj, void *data)
{
    (void)data;
    MosPool *p = obj;
    for (int64_t k = 0; k < p->nclusters; k++) {
        MosPoolCluster *c = &p->clusters[k];
        size_t bytes = (size_t)c->stride * (size_t)MOS_POOL_MAX_OBJECTS +
                       (size_t)(c->start - (char *)c->map);
        if (c->pointers && p->capacity)
            GC_remove_roots(c->start, c->start + (size_t)c->stride * (size_t)p->capacity);
        munmap(c->map, bytes);
        atomic_fetch_sub(&reserved, bytes);
    }
}

MosPool *mos_pool_new(const MosPoolShape *shape, int64_t node)
{
#ifdef MOS_DISTRIBUTED
    if (rt_tp_self() >= 0 && node != rt_tp_self() && rt_tp_nodes() > 1)
        return rt_tp_pool_new(shape, node);     /* made on its node (transport.h) */
#endif
    uint64_t want = 0;
    for (int64_t k = 0; k < shape->nclusters; k++)
        want += (uint64_t)shape->strides[k] * (uint64_t)MOS_POOL_MAX_OBJECTS;
    if (atomic_load(&reserved) + want > RT_POOL_RESERVE_LIMIT) {
        GC_gcollect();              /* finalisers free pools nobody reaches */
        GC_invoke_finalizers();
    }
    size_t bytes = sizeof(MosPool) + (size_t)shape->nclusters * sizeof(MosPoolCluster);
    MosPool *p = GC_MALLOC(bytes);
    int64_t *places = GC_MALLOC(sizeof(int64_t) * (size_t)(shape->nplaces + 1));
    if (!p || !places)
        rt_panicf(RT_NOWHERE, "out of memory: cannot make pool '%s'", shape->name);
    p->node = node;
    p->nclusters = shape->nclusters;
    p->name = shape->name;
    p->places = places;
    for (int64_t k = 0; k < shape->nclusters; k++) {
        MosPoolCluster *c = &p->clusters[k];
        /* The kernel places big reservations a power of two apart, so the
         * clusters would all start at the same address modulo the cache's
         * size, and the fields of one object would evict each other.  Each
         * cluster starts a different number of RT_POOL_SKEW bytes in. */
        size_t skew = RT_POOL_SKEW * (size_t)(atomic_fetch_add(&skews, 1) % RT_POOL_SKEWS);
        size_t reserve = (size_t)shape->strides[k] * (size_t)MOS_POOL_MAX_OBJECTS + skew;
        void *m = mmap(NULL, reserve, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            rt_panicf(RT_NOWHERE, "out of memory: cannot reserve pool '%s'", shape->name);
        atomic_fetch_add(&reserved, reserve);
        c->map = m;
        c->start = (char *)m + skew;
        c->stride = shape->strides[k];
        c->bias = c->start - c->stride;
        c->pointers = shape->pointers[k];
    }
    GC_REGISTER_FINALIZER_NO_ORDER(p, unmap_clusters, NULL, NULL, NULL);
    return p;
}

/* Makes the roots cover object number n (under grow_lock). */
static void cover(MosPool *p, int64_t n, const char *where)
{
    int64_t cap = p->capacity ? p->capacity : RT_POOL_FIRST_CAPACITY / 2;
    while (cap < n)
        cap *= 2;
    if (cap > MOS_POOL_MAX_OBJECTS)
        cap = MOS_POOL_MAX_OBJECTS;
    if (n > cap)
        rt_panicf(where, "out of memory: pool '%s' is full (%lld objects)", p->name,
                  (long long)MOS_POOL_MAX_OBJECTS);
    for (int64_t k = 0; k < p->nclusters; k++) {
        MosPoolCluster *c = &p->clusters[k];
        if (!c->pointers)
            continue;
        if (p->capacity)
            GC_remove_roots(c->start, c->start + (size_t)c->stride * (size_t)p->capacity);
        GC_add_roots(c->start, c->start + (size_t)c->stride * (size_t)cap);
    }
    atomic_store((_Atomic int64_t *)&p->capacity, cap);
}

int64_t mos_pool_alloc(MosPool *p, const char *where)
{
#ifdef MOS_DISTRIBUTED
    if (RT_IS_REMOTE(p))
        return rt_tp_pool_alloc(p, where);
#endif
    int64_t n = atomic_fetch_add((_Atomic int64_t *)&p->size, 1) + 1;
    if (n > atomic_load((_Atomic int64_t *)&p->capacity)) {
        pthread_mutex_lock(&grow_lock);
        if (n > p->capacity)
            cover(p, n, where);
        pthread_mutex_unlock(&grow_lock);
    }
    return n;
}
