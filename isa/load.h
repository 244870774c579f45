/* isa/load.h -- one entry point for kernel files, whatever their front
** end: the mini ISA (isa/asm.h) or PTX (isa/ptx.h), picked by the file's
** extension (.asm, .ptx) or, for any other name, by its content (a PTX
** module starts with .version / .target after its comments). And the one
** way to find a kernel by the name a user gives: exact (the mini ISA's
** names, PTX's bare function names), mangled, or demangled signature. */
#ifndef GPUSIM_ISA_LOAD_H
#define GPUSIM_ISA_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "isa/program.h"

typedef enum { KFILE_ASM, KFILE_PTX, KFILE_CU } KernelFileKind;

/* The front end for path (by extension), else by content text[0..len). */
KernelFileKind program_file_kind(const char *path, const char *text, size_t len);

/* Parses text[0..len) with the front end of `kind` (KFILE_CU is refused:
** compile it first, workloads/cuda.h). */
bool program_parse(KernelFileKind kind, const char *text, size_t len, const char *path, Program *out, Diag *d);

/* Reads and parses the file at path. */
bool program_load_file(const char *path, Program *out, Diag *d);

/* The kernel a user means by `name`: its exact name, mangled name or
** demangled signature; a bare name shared by several PTX kernels
** (overloads, templates) is ambiguous. Returns it, or NULL with msg
** (cap bytes) saying why: not found (listing the kernels) or ambiguous
** (listing the candidates' signatures). */
const Kernel *program_match_kernel(const Program *p, const char *name, char *msg, size_t cap);

#endif
