/* isa/opcodes.h -- opcode enum and info table, generated from isa/opcodes.def,
** plus the small modifier lists (comparison, shuffle mode, atomic operation). */
#ifndef GPUSIM_ISA_OPCODES_H
#define GPUSIM_ISA_OPCODES_H

#include <stdint.h>

typedef enum {
#define OP(name, mn, fmt, unit, flags, sem) OP_##name,
#include "isa/opcodes.def"
#undef OP
    OP_COUNT
} Opcode;

/* Operand shapes. d/p = destination register/predicate, a/b/c = sources. */
typedef enum {
    FMT_NONE,  /* exit                                   */
    FMT_DA,    /* d, a                                   */
    FMT_DAB,   /* d, a, b                                */
    FMT_DABC,  /* d, a, b, c                             */
    FMT_SETP,  /* p, a, b                                */
    FMT_SELP,  /* d, a, b, p                             */
    FMT_PP,    /* p, q                                   */
    FMT_PPP,   /* p, q, r                                */
    FMT_PARAM, /* d, [param]                             */
    FMT_LD,    /* d | {d0, d1[, d2, d3]}, [a + imm]      */
    FMT_ST,    /* [a + imm], b | {b0, b1[, b2, b3]}      */
    FMT_ATOM,  /* d, [a + imm], b[, c]                   */
    FMT_SHFL,  /* d, a, b[, c[, membermask]]             */
    FMT_VOTE,  /* d, p                                   */
    FMT_L,     /* label                                  */
    FMT_BAR    /* [barrier id]                           */
} OpFormat;

/* Functional units: where the timing model sends an instruction. */
typedef enum {
    UNIT_ALU,  /* integer, logic, compare, convert, moves          */
    UNIT_FMA,  /* FP32 add/mul/fma, integer multiply               */
    UNIT_SFU,  /* transcendental approximations                    */
    UNIT_DIV,  /* multi-instruction sequences: int div/rem, fp div */
    UNIT_LSU,  /* global memory and global atomics                 */
    UNIT_MIO,  /* shared memory, shared atomics, shuffles          */
    UNIT_CTRL, /* branch, barrier, exit                            */
    UNIT_COUNT
} OpUnit;

enum {
    OPF_ANYTYPE     = 1u << 0, /* accepts any of .b32 .u32 .s32 .f32 (bit moves)       */
    OPF_FLOAT       = 1u << 1, /* immediates are floats                                */
    OPF_CMP         = 1u << 2, /* takes a comparison modifier                          */
    OPF_VEC         = 1u << 3, /* takes .v2 / .v4                                       */
    OPF_LOAD        = 1u << 4,
    OPF_STORE       = 1u << 5,
    OPF_ATOM        = 1u << 6, /* takes an atomic-operation modifier                   */
    OPF_SHFL        = 1u << 7, /* takes a shuffle mode                                 */
    OPF_BRANCH      = 1u << 8,
    OPF_BARRIER     = 1u << 9,
    OPF_EXIT        = 1u << 10,
    OPF_SPECIAL_SRC = 1u << 11,/* source may be a special register (%tid.x ...)       */
    OPF_IMAD        = 1u << 12 /* integer add that may also run on the FMA pipe as an
                                  IMAD (compilers balance the two pipes this way)     */
};

typedef struct {
    const char *mnemonic;
    OpFormat    format;
    OpUnit      unit;
    uint32_t    flags;
    const char *semantics;
} OpInfo;

extern const OpInfo OP_INFO[OP_COUNT];

/* Modifier lists: each name list is indexed by its enum. */
typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_COUNT } CmpOp;
typedef enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_COUNT } ShflMode;
typedef enum { ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS, ATOM_COUNT } AtomOp;
extern const char *const CMP_NAMES[CMP_COUNT];
extern const char *const SHFL_NAMES[SHFL_COUNT];
extern const char *const ATOM_NAMES[ATOM_COUNT];
extern const char *const UNIT_NAMES[UNIT_COUNT];

/* Opcode whose canonical mnemonic is exactly `mnemonic` (len bytes), or OP_COUNT. */
Opcode opcode_lookup(const char *mnemonic, uint32_t len);

#endif
