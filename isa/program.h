/* isa/program.h -- an assembled mini-ISA program: kernels of decoded
** instructions. Value types with public bodies: the assembler fills them, the
** executor, the disassembler and the timing model read them.
** Ownership: a Program owns everything it points to; program_destroy frees it. */
#ifndef GPUSIM_ISA_PROGRAM_H
#define GPUSIM_ISA_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/opcodes.h"

#define ISA_MAX_REGS     255 /* %r0..%r254, as nvcc's per-thread limit          */
#define ISA_MAX_PREDS    8   /* %p0..%p7                                        */
#define ISA_MAX_PARAMS   32
#define ISA_MAX_NAME     64
#define ISA_NO_GUARD     0xff
#define ISA_NO_RECONV    UINT32_MAX

typedef enum {
    SREG_TID_X, SREG_TID_Y, SREG_TID_Z,
    SREG_NTID_X, SREG_NTID_Y, SREG_NTID_Z,
    SREG_CTAID_X, SREG_CTAID_Y, SREG_CTAID_Z,
    SREG_NCTAID_X, SREG_NCTAID_Y, SREG_NCTAID_Z,
    SREG_LANEID, SREG_WARPID, SREG_SMID, SREG_NSMID, SREG_CLOCK,
    SREG_COUNT
} SpecialReg;
extern const char *const SREG_NAMES[SREG_COUNT]; /* "tid.x", ... (without '%') */

typedef enum { OPND_NONE, OPND_REG, OPND_PRED, OPND_IMM, OPND_SPECIAL } OperandKind;

typedef struct {
    uint8_t  kind;   /* OperandKind                                          */
    uint8_t  neg;    /* predicate source written !%p                         */
    uint16_t index;  /* register / predicate / special register number       */
    uint32_t value;  /* OPND_IMM: the 32-bit pattern (float bits for floats) */
} Operand;

typedef struct {
    uint8_t  op;        /* Opcode                                              */
    uint8_t  guard;     /* predicate index, or ISA_NO_GUARD                    */
    uint8_t  guard_neg; /* @!%p                                                */
    uint8_t  mod;       /* CmpOp / ShflMode / AtomOp, as the opcode takes      */
    uint8_t  vec;       /* elements per lane for memory ops: 1, 2 or 4         */
    uint8_t  type;      /* ValueType of the type suffix written (OPM_TYPE rows:
                           .b32 if left out), TYPE_NONE if none                */
    uint8_t  ndst, nsrc;
    Operand  dst[4];    /* d / p, or d0..d3 of a vector load                   */
    Operand  src[5];    /* sources; memory ops: src[0] = address base         */
    int32_t  offset;    /* memory ops: byte displacement added to src[0]       */
    uint32_t target;    /* branches: target pc                                 */
    uint32_t reconv;    /* branches: immediate post-dominator pc, or ncode when
                           paths only meet at exit                             */
    uint32_t line, col; /* source position                                     */
} Instr;

typedef struct {
    char      name[ISA_MAX_NAME];
    ValueType type;     /* .u32 .s32 .f32 or .ptr (stored as TYPE_B32)          */
    bool      is_ptr;
} KernelParam;

typedef struct {
    char     name[ISA_MAX_NAME];
    uint32_t pc;
} Label;

typedef struct {
    char     name[ISA_MAX_NAME];
    uint32_t offset, size; /* size 0: the dynamic (extern) array            */
} SharedSymbol;

typedef struct {
    char         name[ISA_MAX_NAME];
    uint32_t     line;               /* line of the .kernel directive          */
    Instr       *code;
    uint32_t     ncode;
    KernelParam  params[ISA_MAX_PARAMS];
    uint32_t     nparams;
    Label       *labels;
    uint32_t     nlabels;
    SharedSymbol *shared;
    uint32_t     nshared;
    uint32_t     static_smem;        /* bytes of .shared arrays with a size    */
    uint32_t     dynamic_smem_offset;/* where extern shared memory begins      */
    uint32_t     regs_used;          /* highest %r index + 1                   */
    uint32_t     regs_declared;      /* .regs override, 0 if none              */
    uint32_t     preds_used;
} Kernel;

typedef struct {
    char    *file;       /* name used in diagnostics                        */
    Kernel  *kernels;
    uint32_t nkernels;
} Program;

void program_destroy(Program *p);

/* Kernel named `name`, or NULL. */
const Kernel *program_find_kernel(const Program *p, const char *name);

/* Registers per thread the occupancy calculator should use: the .regs
** override when given, else the registers the code touches (at least 1). */
uint32_t kernel_regs_per_thread(const Kernel *k);

/* Label at pc, or NULL (for printing). */
const char *kernel_label_at(const Kernel *k, uint32_t pc);

#endif
