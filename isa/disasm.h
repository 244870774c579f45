/* isa/disasm.h -- assembly text from decoded instructions. The output of
** disasm_kernel assembles back to the same program (tested over every
** opcode), with annotations written as comments.                          */
#ifndef GPUSIM_ISA_DISASM_H
#define GPUSIM_ISA_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "isa/program.h"

/* One instruction, guard included, no label and no newline, into buf
** (always NUL-terminated). Returns the length it needed. */
size_t disasm_instr(const Kernel *k, const Instr *in, char *buf, size_t cap);

/* The full mnemonic with its modifiers, e.g. "setp.lt.s32", "ld.global.v4.f32". */
void disasm_mnemonic(const Instr *in, char *buf, size_t cap);

/* A whole kernel: directives, labels and instructions. With `annotate`,
** each line carries its pc and each branch its reconvergence point, as
** comments. */
void disasm_kernel(FILE *out, const Kernel *k, bool annotate);

#endif
