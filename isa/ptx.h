/* isa/ptx.h -- the PTX front end: text written by `nvcc -ptx` (or by hand)
** -> the same Program / Kernel / Instr form as the mini-ISA assembler, with
** every PTX instruction decoded onto a row of isa/opcodes.def and timed as
** the SASS it becomes (OpInfo.lower, plus the peepholes of isa/ptx.c).
** The subset, its costs and what is left out: docs/PTX.md.
** Registers: PTX's virtual registers (%r<5000>) get register rows by a
** liveness allocation (isa/ptx_regalloc.c), 64-bit values in adjacent
** pairs, so a warp's host memory follows what is live, not what is
** declared. Kernel names: Kernel.name is the bare function name when the
** .entry name demangles (Kernel.mangled keeps it as written, .signature
** the demangled form); program_match_kernel (isa/load.h) matches all three.
** Errors: file:line:col, what was found and what was expected; an
** instruction outside the subset says so by name. Never reads past `len`;
** time O(n log n) in the input size.                                       */
#ifndef GPUSIM_ISA_PTX_H
#define GPUSIM_ISA_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/program.h"

#define PTX_MAX_FILE_BYTES (64u << 20)

/* Parses text[0..len) as a PTX module. `file` names it in diagnostics and
** is copied. On success *out holds the program (program_destroy frees it);
** on failure *out is empty and d says why (the first error). */
bool ptx_parse(const char *text, size_t len, const char *file, Program *out, Diag *d);

/* The demangled form of an Itanium C++ name (malloc'd), or NULL when it
** does not demangle (a C name) or no demangler was built in. */
char *ptx_demangle(const char *mangled);

/* Whether this build demangles fully (libiberty); without it, only the
** bare function name of simple mangled names is recovered. */
bool ptx_can_demangle(void);

/* ---- internal to the PTX front end (isa/ptx.c, isa/ptx_regalloc.c) ---- */

/* Virtual register classes. */
enum { VREG_32 = 1, VREG_64 = 2, VREG_PRED = 3 };

/* Gives register rows to k's virtual registers. On entry every OPND_REG
** operand's index is a virtual register (neg = 1: its high word), every
** OPND_PRED's a virtual predicate, and guard_v[i] the guard's virtual
** predicate or UINT32_MAX; vclass[v] the class of each of the nv virtual
** registers (predicates included, one id space). On success operands hold
** rows and predicate slots, k->regs_used / preds_used / regs_estimated are
** set. False with d filled (at the kernel's line) when more rows or
** predicates are live at once than a warp holds. */
bool ptx_regalloc(Kernel *k, const uint32_t *guard_v, const uint8_t *vclass, uint32_t nv, const char *file, Diag *d);

#endif
