/* isa/cfg.c -- instruction-level CFG, exit reachability, and immediate
** post-dominators (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
** Algorithm", run on the reverse graph rooted at a virtual exit node).
** Every traversal is iterative, so a million-instruction kernel cannot
** overflow the C stack.                                                   */
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
    uint32_t *po;                 /* postorder number on the reverse graph, or UINT32_MAX */
    uint32_t *idom;
} Graph;

static void graph_free(Graph *g)
{
    free(g->pred_start);
    free(g->preds);
    free(g->po);
    free(g->idom);
}

/* Builds predecessors and the post-dominator tree. Returns false only on
** allocation failure. Nodes that cannot reach exit keep po = UINT32_MAX. */
static bool graph_build(const Kernel *k, Graph *g, bool for_ipdom)
{
    uint32_t n = k->ncode, nodes = n + 1;
    memset(g, 0, sizeof *g);
    g->pred_start = calloc((size_t)nodes + 1, sizeof(uint32_t));
    g->preds = malloc((size_t)2 * n * sizeof(uint32_t) + sizeof(uint32_t));
    g->po = malloc((size_t)nodes * sizeof(uint32_t));
    g->idom = malloc((size_t)nodes * sizeof(uint32_t));
    uint32_t *order = malloc((size_t)nodes * sizeof(uint32_t));
    uint32_t *stack = malloc((size_t)nodes * sizeof(uint32_t));
    uint32_t *next_edge = malloc((size_t)nodes * sizeof(uint32_t));
    if (!g->pred_start || !g->preds || !g->po || !g->idom || !order || !stack || !next_edge) {
        free(order), free(stack), free(next_edge);
        graph_free(g);
        return false;
    }
    uint32_t succ[2];
    for (uint32_t i = 0; i < n; i++) {
        int c = successors(k, i, succ, for_ipdom);
        for (int j = 0; j < c; j++)
            if (succ[j] <= n) g->pred_start[succ[j] + 1]++;
    }
    for (uint32_t v = 0; v < nodes; v++) g->pred_start[v + 1] += g->pred_start[v];
    memcpy(next_edge, g->pred_start, (size_t)nodes * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++) {
        int c = successors(k, i, succ, for_ipdom);
        for (int j = 0; j < c; j++)
            if (succ[j] <= n) g->preds[next_edge[succ[j]]++] = i;
    }

    /* Postorder of the reverse graph from the exit node (iterative DFS). */
    for (uint32_t v = 0; v < nodes; v++) g->po[v] = UINT32_MAX, g->idom[v] = UINT32_MAX;
    memcpy(next_edge, g->pred_start, (size_t)nodes * sizeof(uint32_t));
    uint32_t *visited = g->idom; /* borrowed as a mark array during the DFS */
    uint32_t sp = 0, count = 0;
    stack[sp++] = n;
    visited[n] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next_edge[v] < g->pred_start[v + 1]) {
            uint32_t w = g->preds[next_edge[v]++];
            if (visited[w] == UINT32_MAX) {
                visited[w] = 1;
                stack[sp++] = w;
            }
        } else {
            g->po[v] = count;
            order[count++] = v;
            sp--;
        }
    }
    for (uint32_t v = 0; v < nodes; v++) g->idom[v] = UINT32_MAX;
    g->idom[n] = n;
    bool changed = true;
    while (changed) {
        changed = false;
        /* reverse postorder, skipping the root (last in postorder) */
        for (uint32_t oi = count - 1; oi-- > 0;) {
            uint32_t v = order[oi];
            uint32_t nc = successors(k, v, succ, for_ipdom), new_idom = UINT32_MAX;
            for (uint32_t j = 0; j < nc; j++) {
                uint32_t s = succ[j];
                if (s > n || g->idom[s] == UINT32_MAX) continue;
                if (new_idom == UINT32_MAX) {
                    new_idom = s;
                    continue;
                }
                uint32_t b1 = s, b2 = new_idom;
                while (b1 != b2) {
                    while (g->po[b1] < g->po[b2]) b1 = g->idom[b1];
                    while (g->po[b2] < g->po[b1]) b2 = g->idom[b2];
                }
                new_idom = b1;
            }
            if (new_idom != g->idom[v]) {
                g->idom[v] = new_idom;
                changed = true;
            }
        }
    }
    free(order);
    free(stack);
    free(next_edge);
    return true;
}

bool cfg_post_dominators(const Kernel *k, uint32_t *ipdom)
{
    Graph g;
    if (!graph_build(k, &g, true)) return false;
    for (uint32_t i = 0; i < k->ncode; i++) ipdom[i] = g.idom[i] == UINT32_MAX ? k->ncode : g.idom[i];
    graph_free(&g);
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
        if (!reach[i] || g->po[i] != UINT32_MAX) continue;
        if (first == UINT32_MAX) first = i;
        const Instr *in = &k->code[i];
        if ((in->op == OP_BRA || in->op == OP_BRA_UNI) && in->target <= i && g->po[in->target] == UINT32_MAX) {
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
        if (in->op == OP_BRA || in->op == OP_BRA_UNI)
            in->reconv = rg.idom[i] == UINT32_MAX ? n : rg.idom[i];
    }
    free(reach);
    free(stack);
    graph_free(&g);
    graph_free(&rg);
    return ok;
}
