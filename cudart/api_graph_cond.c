/* cudart/api_graph_cond.c -- conditional graph nodes (CUDA 12.4's if,
** while and switch). A conditional handle is a word of device memory the
** runtime makes (its address is the handle); a kernel's
** cudaGraphSetConditional(handle, value) is a store of value to it (the PTX
** front end reads the call so, isa/ptx_decode_ops.c), and a launch of the
** handle's graph first sets it to its default value when the handle was
** made with cudaGraphCondAssignDefault. A conditional node owns its body
** graphs, which the program fills through phGraph_out (by hand, or by
** cudaStreamBeginCaptureToGraph); when the node runs, the word decides: an
** if runs body 0 when it is not 0 (else body 1, when there is one), a
** while runs body 0 as long as it is not 0 (read again after each run), a
** switch runs body n when it is n. As CUDA's, such a graph cannot be
** cloned or be a child graph, and cudaGraphExecUpdate does not take it. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags)
{
    ENTER(rt);
    if (!pHandle_out || !graph_live(rt, graph) || (flags & ~(unsigned)cudaGraphCondAssignDefault))
        return api_leave(rt, cudaErrorInvalidValue);
    if (!grow_array((void **)&graph->conds, &graph->conds_cap, graph->nconds + 1, sizeof *graph->conds))
        return api_leave(rt, cudaErrorMemoryAllocation);
    Diag d;
    uint32_t addr = gmem_alloc(rt->gmem, sizeof(unsigned), "a graph's conditional handle", &d);
    if (!addr) return api_leave(rt, cudaErrorMemoryAllocation);
    gmem_set_tag(rt->gmem, addr, RT_TAG_INTERNAL); /* kernels reach it through the handle alone */
    memcpy(gmem_lookup(rt->gmem, addr, sizeof defaultLaunchValue), &defaultLaunchValue, sizeof defaultLaunchValue);
    graph->conds[graph->nconds++] = (GraphCond){ addr, defaultLaunchValue, flags & cudaGraphCondAssignDefault };
    *pHandle_out = addr;
    return api_leave(rt, cudaSuccess);
}

/* Whether handle h was made for g or a graph g lies in (a body's node's graph, up). */
static bool handle_of(const struct CUgraph_st *g, cudaGraphConditionalHandle h)
{
    for (; g; g = g->owner ? g->owner->graph : NULL)
        for (uint32_t i = 0; i < g->nconds; i++)
            if (g->conds[i].addr == h) return true;
    return false;
}

void graph_cond_free(struct CUgraphNode_st *node)
{
    for (uint32_t i = 0; node->u.cond.body && i < node->u.cond.size; i++)
        if (node->u.cond.body[i]) graph_free(node->u.cond.body[i]);
    free(node->u.cond.body);
    node->u.cond.body = NULL;
}

cudaError_t api_graph_add_cond(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                               struct cudaConditionalNodeParams *p)
{
    ENTER(rt);
    if (!pNode || !graph_deps_valid(rt, graph, deps, n)) return api_leave(rt, cudaErrorInvalidValue);
    bool size_ok = p->type == cudaGraphCondTypeIf       ? p->size == 1 || p->size == 2
                   : p->type == cudaGraphCondTypeWhile  ? p->size == 1
                   : p->type == cudaGraphCondTypeSwitch ? p->size > 0 && p->size <= 1u << 16
                                                        : false;
    if (!size_ok) return api_leave(rt, cudaErrorInvalidValue);
    if (p->handle > UINT32_MAX || !handle_of(graph, p->handle)) {
        WHY(rt, "cudaGraphAddNode: the conditional handle was not made for this graph or one it lies in");
        return api_leave(rt, cudaErrorInvalidValue);
    }
    struct CUgraph_st **body = calloc(p->size, sizeof *body);
    struct CUgraphNode_st *node = body ? node_add(graph, NODE_COND, deps, n) : NULL;
    if (!node) {
        free(body);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    node->u.cond.handle = (uint32_t)p->handle;
    node->u.cond.type = p->type;
    node->u.cond.size = p->size;
    node->u.cond.body = body;
    for (uint32_t i = 0; i < p->size; i++) {
        body[i] = calloc(1, sizeof *body[i]);
        if (!body[i]) { /* the node goes again, with what it made */
            graph_cond_free(node);
            graph->n--;
            free(node->deps);
            free(node);
            return api_leave(rt, cudaErrorMemoryAllocation);
        }
        body[i]->owner = node;
        body[i]->serial = ++rt->graph_serials;
    }
    graph->cond_nodes++;
    p->phGraph_out = body;
    *pNode = node;
    return api_leave(rt, cudaSuccess);
}

bool graph_cond_order(struct CUgraphNode_st *copy, bool *cycle)
{
    uint32_t size = copy->u.cond.size;
    copy->u.cond.exec = calloc(size, sizeof *copy->u.cond.exec);
    if (!copy->u.cond.exec) return false;
    for (uint32_t i = 0; i < size; i++) {
        copy->u.cond.exec[i] = calloc(1, sizeof *copy->u.cond.exec[i]);
        if (!copy->u.cond.exec[i] || !graph_order(copy->u.cond.body[i], copy->u.cond.exec[i], cycle)) return false;
    }
    return true;
}

void graph_cond_exec_free(struct CUgraphNode_st *copy)
{
    for (uint32_t i = 0; copy->u.cond.exec && i < copy->u.cond.size; i++)
        if (copy->u.cond.exec[i]) exec_free(copy->u.cond.exec[i]);
    free(copy->u.cond.exec);
    copy->u.cond.exec = NULL;
}

void graph_conds_start(Runtime *rt, const struct CUgraphExec_st *x)
{
    for (uint32_t i = 0; i < x->nconds; i++)
        if (x->conds[i].reset) memcpy(gmem_lookup(rt->gmem, x->conds[i].addr, 4), &x->conds[i].initial, 4);
}

/* The condition word's value now, or false when the device has none (reset). */
static bool condition(uint32_t addr, unsigned *v)
{
    cudaError_t e;
    Runtime *rt = api_enter(&e);
    if (!rt) return false;
    const void *p = gmem_lookup(rt->gmem, addr, sizeof *v);
    if (p) memcpy(v, p, sizeof *v);
    api_leave(rt, cudaSuccess);
    return p != NULL;
}

cudaError_t graph_cond_run(const struct CUgraphNode_st *node, cudaStream_t stream,
                           cudaError_t (*run_exec)(const struct CUgraphExec_st *, cudaStream_t))
{
    unsigned v;
    if (!condition(node->u.cond.handle, &v)) return api_fail(cudaErrorInvalidValue);
    switch (node->u.cond.type) {
    case cudaGraphCondTypeIf:
        if (v) return run_exec(node->u.cond.exec[0], stream);
        return node->u.cond.size == 2 ? run_exec(node->u.cond.exec[1], stream) : cudaSuccess;
    case cudaGraphCondTypeWhile:
        while (v) {
            cudaError_t e = run_exec(node->u.cond.exec[0], stream);
            if (e) return e;
            if (!condition(node->u.cond.handle, &v)) return api_fail(cudaErrorInvalidValue);
        }
        return cudaSuccess;
    default:
        return v < node->u.cond.size ? run_exec(node->u.cond.exec[v], stream) : cudaSuccess;
    }
}
