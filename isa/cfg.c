/* isa/cfg.c -- instruction-level CFG, exit reachability, and immediate
** post-dominators (Lengauer & Tarjan, "A Fast Algorithm for Finding
** Dominators in a Flowgraph", 1979, run on the reverse graph rooted at a
** virtual exit node: O(e log n) whatever the kernel's shape). Every
** traversal is iterative, so a million-instruction kernel cannot overflow
** the C stack.                                                   */
#include "isa/cfg.h"

#include <stdlib.h>
#include <string.h>

/* Successors of instruction i; n (= ncode) stands for the exit node.
** Returns how many (0..2); falling off the end yields successor n+1.
** For reconvergence (`for_ipdom`) a guarded exit only falls through: the
** lanes that leave are gone, the others go on, so an early `@%p exit`
** inside an if must not move the if's reconvergence point to the exit. */
static int successors(const Kernel *k, uint32_t i, uint32_t succ[2], bool for_ipdom)
{
    const Instr *in = &k->code[i];
    uint32_t n = k->ncode;
    bool guarded = in->guard != ISA_NO_GUARD;
    switch (in->op) {
    case OP_BRA:
    case OP_BRA_UNI:
        succ[0] = in->target;
        if (!guarded) return 1;
        succ[1] = i + 1 < n ? i + 1 : n + 1;
        return 2;
    case OP_EXIT:
        if (guarded && for_ipdom) {
            succ[0] = i + 1 < n ? i + 1 : n + 1;
            return 1;
        }
        succ[0] = n;
        if (!guarded) return 1;
        succ[1] = i + 1 < n ? i + 1 : n + 1;
        return 2;
    default:
        succ[0] = i + 1 < n ? i + 1 : n + 1;
        return 1;
    }
}

typedef struct {
    uint32_t *pred_start, *preds; /* CSR of predecessors, nodes 0..n (n = exit) */
    uint32_t *dfn;                /* preorder number on the reverse graph, or UINT32_MAX
                                     when the node cannot reach exit */
    uint32_t *idom;               /* immediate post-dominator, or UINT32_MAX */
} Graph;

static void graph_free(Graph *g)
{
    free(g->pred_start);
    free(g->preds);
    free(g->dfn);
    free(g->idom);
}

/* Lengauer-Tarjan's EVAL with path compression, written as a loop (a chain
** of a million instructions must not recurse a million deep): returns the
** node of smallest semidominator on the forest path above v, compressing it. */
static uint32_t lt_eval(uint32_t v, uint32_t *ancestor, uint32_t *label, const uint32_t *semi, uint32_t *stack)
{
    if (ancestor[v] == UINT32_MAX) return v;
    uint32_t sp = 0, x = v;
    while (ancestor[ancestor[x]] != UINT32_MAX) {
        stack[sp++] = x;
        x = ancestor[x];
    }
    while (sp) { /* from the top of the path down */
        x = stack[--sp];
        uint32_t a = ancestor[x];
        if (semi[label[a]] < semi[label[x]]) label[x] = label[a];
        ancestor[x] = ancestor[a];
    }
    return label[v];
}

/* Builds predecessors and the post-dominator tree: the dominator tree of
** the reverse graph rooted at the exit node, by Lengauer and Tarjan's
** algorithm (simple version, O(e log n) on any shape: deep nests of loops
** and wide fan-outs included). Returns false only on allocation failure. */
static bool graph_build(const Kernel *k, Graph *g, bool for_ipdom)
{
    uint32_t n = k->ncode, nodes = n + 1;
    memset(g, 0, sizeof *g);
    g->pred_start = calloc((size_t)nodes + 1, sizeof(uint32_t));
    g->preds = malloc((size_t)2 * n * sizeof(uint32_t) + sizeof(uint32_t));
    g->dfn = malloc((size_t)nodes * sizeof(uint32_t));
    g->idom = malloc((size_t)nodes * sizeof(uint32_t));
    /* scratch: preorder -> node, DFS parent, semidominator (a preorder
    ** number), forest ancestor and label, bucket lists, and a stack */
    uint32_t *scratch = malloc((size_t)nodes * 8 * sizeof(uint32_t));
    if (!g->pred_start || !g->preds || !g->dfn || !g->idom || !scratch) {
        free(scratch);
        graph_free(g);
        return false;
    }
    uint32_t *vertex = scratch, *parent = vertex + nodes, *semi = parent + nodes, *ancestor = semi + nodes,
             *label = ancestor + nodes, *bucket = label + nodes, *bucket_next = bucket + nodes,
             *stack = bucket_next + nodes;
    uint32_t succ[2];
    for (uint32_t i = 0; i < n; i++) {
        int c = successors(k, i, succ, for_ipdom);
        for (int j = 0; j < c; j++)
            if (succ[j] <= n) g->pred_start[succ[j] + 1]++;
    }
    for (uint32_t v = 0; v < nodes; v++) g->pred_start[v + 1] += g->pred_start[v];
    uint32_t *next_edge = label; /* borrowed while the predecessors are filled and during the DFS */
    memcpy(next_edge, g->pred_start, (size_t)nodes * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++) {
        int c = successors(k, i, succ, for_ipdom);
        for (int j = 0; j < c; j++)
            if (succ[j] <= n) g->preds[next_edge[succ[j]]++] = i;
    }

    /* Preorder of the reverse graph from the exit node (iterative DFS: the
    ** reverse graph's edges are the CFG's predecessor lists). */
    for (uint32_t v = 0; v < nodes; v++) g->dfn[v] = UINT32_MAX, g->idom[v] = UINT32_MAX;
    memcpy(next_edge, g->pred_start, (size_t)nodes * sizeof(uint32_t));
    uint32_t sp = 0, count = 0;
    stack[sp++] = n;
    g->dfn[n] = count;
    vertex[count++] = n;
    parent[n] = UINT32_MAX;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next_edge[v] < g->pred_start[v + 1]) {
            uint32_t w = g->preds[next_edge[v]++];
            if (g->dfn[w] == UINT32_MAX) {
                g->dfn[w] = count;
                vertex[count++] = w;
                parent[w] = v;
                stack[sp++] = w;
            }
        } else {
            sp--;
        }
    }
    for (uint32_t v = 0; v < nodes; v++) {
        semi[v] = g->dfn[v];
        ancestor[v] = UINT32_MAX;
        label[v] = v;
        bucket[v] = UINT32_MAX;
    }
    /* Semidominators in reverse preorder; each node's predecessors in the
    ** reverse graph are its CFG successors (exit's only reached ones count). */
    for (uint32_t i = count; i-- > 1;) {
        uint32_t w = vertex[i];
        int c = w < n ? successors(k, w, succ, for_ipdom) : 0;
        for (int j = 0; j < c; j++) {
            uint32_t v = succ[j];
            if (v > n || g->dfn[v] == UINT32_MAX) continue;
            uint32_t u = lt_eval(v, ancestor, label, semi, stack);
            if (semi[u] < semi[w]) semi[w] = semi[u];
        }
        uint32_t sd = vertex[semi[w]];
        bucket_next[w] = bucket[sd];
        bucket[sd] = w;
        uint32_t p = parent[w];
        ancestor[w] = p; /* LINK */
        for (uint32_t v = bucket[p]; v != UINT32_MAX; v = bucket_next[v]) {
            uint32_t u = lt_eval(v, ancestor, label, semi, stack);
            g->idom[v] = semi[u] < semi[v] ? u : p;
        }
        bucket[p] = UINT32_MAX;
    }
    for (uint32_t i = 1; i < count; i++) {
        uint32_t w = vertex[i];
        if (g->idom[w] != vertex[semi[w]]) g->idom[w] = g->idom[g->idom[w]];
    }
    g->idom[n] = n;
    free(scratch);
    return true;
}

/* Instruction i's immediate post-dominator from the reconvergence graph rg,
** or, when i cannot reach an exit there (a loop whose only way out is a
** guarded exit, which rg lets fall through: nvcc -G's top-tested loops
** that end in `ret`), from the real graph g; k->ncode for the exit. */
static uint32_t ipdom_of(const Graph *g, const Graph *rg, uint32_t i, uint32_t n)
{
    uint32_t ip = rg->dfn[i] != UINT32_MAX ? rg->idom[i] : g->idom[i];
    return ip == UINT32_MAX ? n : ip;
}

bool cfg_post_dominators(const Kernel *k, uint32_t *ipdom)
{
    Graph g, rg;
    if (!graph_build(k, &g, false)) return false;
    if (!graph_build(k, &rg, true)) {
        graph_free(&g);
        return false;
    }
    for (uint32_t i = 0; i < k->ncode; i++) ipdom[i] = ipdom_of(&g, &rg, i, k->ncode);
    graph_free(&g);
    graph_free(&rg);
    return true;
}

/* When a reachable instruction cannot reach an exit, reports where the
** student should look: the branch that closes the endless loop (the first
** backward branch that jumps into instructions with no way out), else the
** first such instruction. Returns true when it reported. */
static bool report_endless_loop(const Kernel *k, const char *file, const Graph *g, const uint8_t *reach, Diag *d)
{
    uint32_t n = k->ncode, first = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (!reach[i] || g->dfn[i] != UINT32_MAX) continue;
        if (first == UINT32_MAX) first = i;
        const Instr *in = &k->code[i];
        if ((in->op == OP_BRA || in->op == OP_BRA_UNI) && in->target <= i && g->dfn[in->target] == UINT32_MAX) {
            diag_set(d, file, in->line, in->col,
                     "this branch closes a loop that never reaches 'exit' in kernel '%s' (the loop starts at "
                     "line %u): it is an endless loop",
                     k->name, k->code[in->target].line);
            return true;
        }
    }
    if (first == UINT32_MAX) return false;
    diag_set(d, file, k->code[first].line, k->code[first].col,
             "no path from this instruction reaches 'exit' in kernel '%s': it is an endless loop", k->name);
    return true;
}

bool cfg_analyze(Kernel *k, const char *file, Diag *d)
{
    uint32_t n = k->ncode, succ[2];
    for (uint32_t i = 0; i < n; i++) {
        int c = successors(k, i, succ, false);
        for (int j = 0; j < c; j++)
            if (succ[j] == n + 1) {
                diag_set(d, file, k->code[i].line, k->code[i].col,
                         "control can fall off the end of kernel '%s' after this instruction; "
                         "expected an unconditional 'exit' or 'bra' last", k->name);
                return false;
            }
    }
    /* Two graphs: the real one (can every instruction reach an exit?) and
    ** the one for reconvergence (guarded exits fall through). */
    Graph g, rg;
    if (!graph_build(k, &g, false)) {
        diag_set(d, file, k->line, 1, "out of memory analysing kernel '%s'", k->name);
        return false;
    }
    if (!graph_build(k, &rg, true)) {
        graph_free(&g);
        diag_set(d, file, k->line, 1, "out of memory analysing kernel '%s'", k->name);
        return false;
    }
    /* Instructions reachable from the entry must be able to reach an exit. */
    uint8_t *reach = calloc(n, 1);
    uint32_t *stack = malloc((size_t)n * sizeof(uint32_t));
    bool ok = reach && stack;
    if (!ok) diag_set(d, file, k->line, 1, "out of memory analysing kernel '%s'", k->name);
    uint32_t sp = 0;
    if (ok) {
        stack[sp++] = 0;
        reach[0] = 1;
    }
    while (ok && sp) {
        uint32_t v = stack[--sp];
        int c = successors(k, v, succ, false);
        for (int j = 0; j < c; j++)
            if (succ[j] < n && !reach[succ[j]]) {
                reach[succ[j]] = 1;
                stack[sp++] = succ[j];
            }
    }
    if (ok) ok = !report_endless_loop(k, file, &g, reach, d);
    for (uint32_t i = 0; ok && i < n; i++) {
        Instr *in = &k->code[i];
        if (in->op == OP_BRA || in->op == OP_BRA_UNI) in->reconv = ipdom_of(&g, &rg, i, n);
    }
    free(reach);
    free(stack);
    graph_free(&g);
    graph_free(&rg);
    return ok;
}
