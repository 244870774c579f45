/* isa/uniform.h -- which instructions of a kernel compute a warp-uniform
** integer value, as ptxas finds them for the uniform datapath that sm_75 and
** later have beside the 32-lane pipes (UIADD3, ULOP3, USHF, UIMAD, UMOV,
** ULDC, USEL: one value per warp, in uniform registers). A loop counter
** that starts at a constant and steps by a parameter is one: the loops of
** the H200's SASS count on UIADD3 (validate/results/h200/sass.txt), so the
** counter takes no slot of the integer pipe.
** Uniform sources: immediates, parameters, %ntid, %ctaid, %nctaid, %warpid,
** %smid, %nsmid, and registers every definition of which is uniform. A
** definition is not uniform when a source or its guard is not, when its row
** is a load, an atomic, a shuffle or a vote, or when it lies on a divergent
** path (between a branch on a non-uniform predicate and its reconvergence
** point) and the register is read off that path. A predicate is uniform on
** the same terms. Flow-insensitive (one answer per register row) and so
** conservative where a row is reused. Pure: the kernel is only read.     */
#ifndef GPUSIM_ISA_UNIFORM_H
#define GPUSIM_ISA_UNIFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/program.h"

/* out[pc] = 1 when instruction pc is a row with a uniform-datapath form
** (OPF_UNIFORM) writing a uniform register from uniform sources, else 0;
** out holds k->ncode entries. cfg_analyze must have set the reconvergence
** points. Returns false when out of memory (out then all 0). */
bool uniform_analyze(const Kernel *k, uint8_t *out);

#endif
