/* isa/cfg.h -- control-flow analysis of one kernel.
** Nodes are instructions (kernels are small and flat; no basic-block pass is
** needed for correctness). Each instruction has at most two successors: the
** next instruction and a branch target; `exit` leads to a virtual exit node.
** Reconvergence point of a branch = its immediate post-dominator, computed
** with Lengauer and Tarjan's dominator algorithm on the reverse graph
** (linear memory, O(e log n) time on any shape of kernel).                 */
#ifndef GPUSIM_ISA_CFG_H
#define GPUSIM_ISA_CFG_H

#include <stdbool.h>

#include "base/diag.h"
#include "isa/program.h"

/* Checks that no instruction falls off the end of the kernel and that every
** instruction can reach an exit (else it is an inescapable loop), then sets
** Instr.reconv of every branch (k->ncode when its paths meet only at exit).
** `file` is used in diagnostics. Returns false with d filled on error. */
bool cfg_analyze(Kernel *k, const char *file, Diag *d);

/* Immediate post-dominator of every instruction (k->ncode = the exit node)
** into ipdom[0..ncode). For tests and tools; cfg_analyze must have passed. */
bool cfg_post_dominators(const Kernel *k, uint32_t *ipdom);

#endif
