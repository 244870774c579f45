/* isa/asm.h -- the assembler: mini-ISA text -> Program.
** Syntax reference: isa/ISA.md. Every error names file:line:col, the text
** found and what was expected; the first error stops assembly. Never reads
** past `len`, so any byte sequence is safe input.                           */
#ifndef GPUSIM_ISA_ASM_H
#define GPUSIM_ISA_ASM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "isa/program.h"

/* Assembles text[0..len). `file` names the source in diagnostics and is
** copied. On success *out holds the program (free with program_destroy) and
** true is returned; on failure *out is empty, d says why, false is returned.
** Each kernel also gets its CFG analysed (reconvergence points, exit
** reachability: see isa/cfg.h). */
bool asm_parse(const char *text, size_t len, const char *file, Program *out, Diag *d);

/* Reads and assembles the file at path (at most ASM_MAX_FILE_BYTES). */
#define ASM_MAX_FILE_BYTES (64u << 20)
bool asm_parse_file(const char *path, Program *out, Diag *d);

#endif
