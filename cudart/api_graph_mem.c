/* cudart/api_graph_mem.c -- graph memory: allocation and free nodes
** (cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode, and cudaMallocAsync /
** cudaFreeAsync captured), their allocations and the device's graph-memory
** figures. As in CUDA, an allocation's address is fixed when its node is
** made and stays the same at every launch; the memory is allocated when
** the node runs and freed by a free node (of its graph or another), by
** cudaFree or cudaFreeAsync, or by the next launch of a graph instantiated
** with cudaGraphInstantiateFlagAutoFreeOnLaunch. Between those, host copies
** reach it; outside them they do not (a kernel that touches it then has
** undefined behaviour in CUDA; here it reads the buffer the address keeps).
** A graph with such nodes cannot be cloned, put in a child node, lose a
** node, or have two executable graphs at once (CUDA's rules). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

/* ------------------------------------------------------------ allocations */

static void figures_add(uint64_t *now, uint64_t *high, int64_t bytes)
{
    *now = (uint64_t)((int64_t)*now + bytes);
    if (*now > *high) *high = *now;
}

RtGraphAlloc *graph_mem_alloc(Runtime *rt, const struct cudaMemAllocNodeParams *p, int *err)
{
    *err = cudaErrorInvalidValue;
    if (!p || p->bytesize == 0 || p->poolProps.allocType != cudaMemAllocationTypePinned ||
        p->poolProps.handleTypes != cudaMemHandleTypeNone || (p->accessDescCount && !p->accessDescs))
        return NULL;
    if (p->poolProps.location.type != cudaMemLocationTypeDevice) {
        WHY(rt, "cudaGraphAddMemAllocNode: an allocation in host memory is not implemented");
        *err = rt_api_missing("cudaGraphAddMemAllocNode of host memory");
        return NULL;
    }
    if (p->poolProps.location.id != 0 || p->accessDescCount > 1) { /* one device */
        *err = cudaErrorInvalidDevice;
        return NULL;
    }
    for (size_t i = 0; i < p->accessDescCount; i++)
        if (p->accessDescs[i].location.type != cudaMemLocationTypeDevice || p->accessDescs[i].location.id != 0) {
            *err = cudaErrorInvalidDevice;
            return NULL;
        } else if (p->accessDescs[i].flags != cudaMemAccessFlagsProtReadWrite) {
            return NULL; /* the owning device always reads and writes */
        }
    RtGraphAlloc *a = calloc(1, sizeof *a);
    if (!a || !grow_array((void **)&rt->graph_allocs, &rt->graph_allocs_cap, rt->ngraph_allocs + 1,
                          sizeof *rt->graph_allocs)) {
        free(a);
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    Diag d;
    char name[48];
    snprintf(name, sizeof name, "graph allocation %u", rt->ngraph_allocs + 1);
    uint32_t addr = p->bytesize <= DEVICE_BYTES ? gmem_alloc(rt->gmem, p->bytesize, name, &d) : 0;
    if (!addr) {
        free(a);
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    gmem_set_tag(rt->gmem, addr, RT_TAG_GRAPH_IDLE);
    *a = (RtGraphAlloc){ .rt = rt, .addr = addr, .bytes = p->bytesize, .params = *p };
    if (p->accessDescCount) a->access[0] = p->accessDescs[0];
    a->params.accessDescs = p->accessDescCount ? a->access : NULL;
    a->params.dptr = (void *)(uintptr_t)addr;
    rt->graph_allocs[rt->ngraph_allocs++] = a;
    figures_add(&rt->graph_reserved, &rt->graph_reserved_high, (int64_t)a->bytes);
    return a;
}

RtGraphAlloc *graph_mem_find(const Runtime *rt, uint32_t addr)
{
    for (uint32_t i = 0; i < rt->ngraph_allocs; i++)
        if (rt->graph_allocs[i]->addr == addr) return rt->graph_allocs[i];
    return NULL;
}

/* Gives a's buffer and record back: nothing names it, nothing allocated it. */
static void forget(RtGraphAlloc *a)
{
    Runtime *rt = a->rt;
    gmem_free(rt->gmem, a->addr);
    figures_add(&rt->graph_reserved, &rt->graph_reserved_high, -(int64_t)a->bytes);
    for (uint32_t i = 0; i < rt->ngraph_allocs; i++)
        if (rt->graph_allocs[i] == a) {
            rt->graph_allocs[i] = rt->graph_allocs[--rt->ngraph_allocs];
            break;
        }
    free(a);
}

void graph_mem_ref(RtGraphAlloc *a)
{
    a->refs++;
}

void graph_mem_unref(RtGraphAlloc *a)
{
    if (--a->refs == 0 && !a->live) forget(a);
}

/* a is allocated (its node ran) or freed. */
static void set_live(RtGraphAlloc *a, bool live)
{
    Runtime *rt = a->rt;
    a->live = live;
    gmem_set_tag(rt->gmem, a->addr, live ? RT_TAG_GRAPH_LIVE : RT_TAG_GRAPH_IDLE);
    figures_add(&rt->graph_used, &rt->graph_used_high, live ? (int64_t)a->bytes : -(int64_t)a->bytes);
}

bool api_graph_mem_free(Runtime *rt, uint32_t addr)
{
    RtGraphAlloc *a = gmem_tag(rt->gmem, addr) == RT_TAG_GRAPH_LIVE ? graph_mem_find(rt, addr) : NULL;
    if (!a) return false;
    set_live(a, false);
    if (a->refs == 0) forget(a);
    return true;
}

void api_graph_mem_reset(Runtime *rt)
{
    for (uint32_t i = 0; i < rt->ngraph_allocs; i++) free(rt->graph_allocs[i]); /* their buffers went with gmem */
    rt->ngraph_allocs = 0;
    rt->graph_used = rt->graph_used_high = rt->graph_reserved = rt->graph_reserved_high = 0;
}

/* ------------------------------------------------------------------ launch */

/* x's allocation nodes, at its top level: child graphs hold none. */
int graph_mem_launch(Runtime *rt, const struct CUgraphExec_st *x)
{
    for (uint32_t i = 0; i < x->n; i++) {
        const struct CUgraphNode_st *c = &x->order[i];
        if (c->kind != NODE_MEM_ALLOC || !c->u.mem->live) continue;
        if (!(x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) {
            WHY(rt, "cudaGraphLaunch: the graph's allocation at %p from its last launch is not freed yet (free it, or "
                "instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)", c->u.mem->params.dptr);
            return cudaErrorInvalidValue;
        }
    }
    for (uint32_t i = 0; i < x->n; i++)
        if (x->order[i].kind == NODE_MEM_ALLOC && x->order[i].u.mem->live) set_live(x->order[i].u.mem, false);
    return cudaSuccess;
}

int graph_mem_run(Runtime *rt, const struct CUgraphNode_st *node)
{
    RtGraphAlloc *a = node->u.mem;
    if (node->kind == NODE_MEM_ALLOC) {
        if (a->live) { /* another graph's launch allocated it and did not free it */
            WHY(rt, "a graph's allocation node: the allocation at %p is still allocated", a->params.dptr);
            return cudaErrorInvalidValue;
        }
        set_live(a, true);
        return cudaSuccess;
    }
    if (!a->live) {
        WHY(rt, "a graph's free node: the allocation at %p is not allocated (its allocation node has not run, or it "
            "was freed already)", a->params.dptr);
        return cudaErrorInvalidValue;
    }
    set_live(a, false);
    return cudaSuccess;
}

/* ------------------------------------------------------------------- nodes */

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams)
{
    ENTER(rt);
    if (!pGraphNode || !nodeParams || !graph_deps_valid(rt, graph, pDependencies, numDependencies))
        return api_leave(rt, cudaErrorInvalidValue);
    if (graph->owner) return api_leave(rt, cudaErrorNotSupported); /* a child graph holds none */
    int err;
    RtGraphAlloc *a = graph_mem_alloc(rt, nodeParams, &err);
    if (!a) return api_leave(rt, err);
    struct CUgraphNode_st *node = node_add(graph, NODE_MEM_ALLOC, pDependencies, numDependencies);
    if (!node) {
        graph_mem_ref(a);
        graph_mem_unref(a);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    graph_mem_ref(a);
    node->u.mem = a;
    graph->mem_nodes++;
    nodeParams->dptr = a->params.dptr;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                    size_t numDependencies, void *dptr)
{
    ENTER(rt);
    if (!pGraphNode || !graph_deps_valid(rt, graph, pDependencies, numDependencies)) return api_leave(rt, cudaErrorInvalidValue);
    if (graph->owner) return api_leave(rt, cudaErrorNotSupported);
    RtGraphAlloc *a = (uintptr_t)dptr <= UINT32_MAX ? graph_mem_find(rt, (uint32_t)(uintptr_t)dptr) : NULL;
    if (!a || a->has_free_node) {
        WHY(rt, "cudaGraphAddMemFreeNode(%p): %s", dptr,
            a ? "a free node for this allocation exists already" : "not an address an allocation node gave");
        return api_leave(rt, cudaErrorInvalidValue);
    }
    struct CUgraphNode_st *node = node_add(graph, NODE_MEM_FREE, pDependencies, numDependencies);
    if (!node) return api_leave(rt, cudaErrorMemoryAllocation);
    graph_mem_ref(a);
    a->has_free_node = true;
    node->u.mem = a;
    graph->mem_nodes++;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    ENTER(rt);
    if (!params_out || !node_live(rt, node) || node->kind != NODE_MEM_ALLOC) return api_leave(rt, cudaErrorInvalidValue);
    *params_out = node->u.mem->params;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    ENTER(rt);
    if (!dptr_out || !node_live(rt, node) || node->kind != NODE_MEM_FREE) return api_leave(rt, cudaErrorInvalidValue);
    *(void **)dptr_out = node->u.mem->params.dptr;
    return api_leave(rt, cudaSuccess);
}

/* ----------------------------------------------------- the device's figures */

/* Memory a graph's allocation holds is held until nothing names it (its
** graphs and executable graphs destroyed) and it is freed: nothing else is
** cached, so there is nothing to trim. */
cudaError_t cudaDeviceGraphMemTrim(int device)
{
    ENTER(rt);
    return api_leave(rt, device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    ENTER(rt);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    uint64_t v;
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = rt->graph_used; break;
    case cudaGraphMemAttrUsedMemHigh: v = rt->graph_used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = rt->graph_reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = rt->graph_reserved_high; break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    memcpy(value, &v, sizeof v);
    return api_leave(rt, cudaSuccess);
}

/* Only the high watermarks, only to 0 (CUDA's rule): they restart from the
** current figures. */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    ENTER(rt);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    uint64_t v;
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    memcpy(&v, value, sizeof v);
    if (v != 0) return api_leave(rt, cudaErrorInvalidValue);
    if (attr == cudaGraphMemAttrUsedMemHigh) rt->graph_used_high = rt->graph_used;
    else if (attr == cudaGraphMemAttrReservedMemHigh) rt->graph_reserved_high = rt->graph_reserved;
    else return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, cudaSuccess);
}
