/* isa/opcodes.h -- opcode enum and info table, generated from isa/opcodes.def,
** plus the vocabularies its columns are written in: operand shapes, units,
** memory spaces, value types, modifier kinds, operand widths, the lowering
** of a PTX instruction to SASS, and the small modifier lists (comparison,
** shuffle mode, atomic operation). The mini ISA takes the first part of
** each list (CMP_MINI_COUNT, ATOM_MINI_COUNT, TYPE_MINI_COUNT); the PTX
** front end (isa/ptx.c) takes all of it. */
#ifndef GPUSIM_ISA_OPCODES_H
#define GPUSIM_ISA_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

/* Modifier lists: each name list is indexed by its enum. */
/* Comparisons: the six ordered ones of the mini ISA, then PTX's unordered
** float comparisons (true when either operand is NaN) and num/nan. */
typedef enum {
    CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN,
    CMP_COUNT
} CmpOp;
#define CMP_MINI_COUNT (CMP_GE + 1)
typedef enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_COUNT } ShflMode;
/* The operation of a half-precision row (OP_HALF_*: Instr.mod). */
typedef enum { HALF_ADD, HALF_SUB, HALF_MUL, HALF_MIN, HALF_MAX, HALF_FMA, HALF_NEG, HALF_ABS, HALF_OPS } HalfOp;
/* Atomic operations: the mini ISA's five, then PTX's bitwise and wrapping
** increment/decrement. */
typedef enum {
    ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS,
    ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_INC, ATOM_DEC,
    ATOM_COUNT
} AtomOp;
#define ATOM_MINI_COUNT (ATOM_CAS + 1)
extern const char *const CMP_NAMES[CMP_COUNT];
extern const char *const SHFL_NAMES[SHFL_COUNT];
extern const char *const ATOM_NAMES[ATOM_COUNT];

/* The atoms column: a set of AtomOp, one bit each. */
#define ATOM_BIT(op) (1u << ATOM_##op)
#define ATOMS_ALL    ((1u << ATOM_MINI_COUNT) - 1) /* the mini ISA's five       */
#define ATOMS_PTX    ((1u << ATOM_COUNT) - 1)      /* every AtomOp             */

typedef enum {
#define OP(name, mn, fmt, unit, space, type, flops, mods, atoms, flags, wide, lower, sem) OP_##name,
#define PTXALU OP
#include "isa/opcodes.def"
#undef PTXALU
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
    FMT_BAR,   /* [barrier id]                           */
    FMT_UNPACK,/* {d0, d1}, a                            */
    FMT_DABCD, /* d, a, b, c, e                          */
    FMT_TESTP, /* p, a                                   */
    FMT_D,     /* d                                      */
    FMT_A,     /* a                                      */
    FMT_ABCD,  /* a, b, c, d                             */
    FMT_TEX    /* {d0, d1, d2, d3}, [a, {b, c, d, e}]    */
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
    UNIT_FP64, /* FP64 add/mul/fma/compare/convert (PTX .f64)      */
    UNIT_COUNT
} OpUnit;

/* Memory an instruction addresses; the executor and the fault report pick
** the memory by it, never by the opcode. */
typedef enum {
    SPACE_NONE,
    SPACE_GLOBAL, /* the launch's buffers (isa/gmem.h)                  */
    SPACE_SHARED, /* the block's shared memory                          */
    SPACE_PARAM,  /* the kernel parameters (ld.param)                   */
    SPACE_GENERIC,/* PTX's generic space: shared inside the shared window,
                     local inside the local one, global elsewhere
                     (resolved per warp at execution)                   */
    SPACE_LOCAL   /* PTX's .local: each thread's own memory (its depot) */
} MemSpace;

/* The type an operation works in: signedness of min/max/compare/atomics,
** and whether immediates are read as floats (f32). A cvt's is its source
** type. Rows taking OPM_TYPE are b32 (a bit move): the type written in the
** source only decides how their immediates are read. */
typedef enum {
    TYPE_NONE, TYPE_B32, TYPE_U32, TYPE_S32, TYPE_F32,
    /* PTX only: 64-bit integers (a register pair), sub-word integers (in a
    ** 32-bit register, or in memory), doubles */
    TYPE_B64, TYPE_U64, TYPE_S64, TYPE_B8, TYPE_U8, TYPE_S8, TYPE_B16, TYPE_U16, TYPE_S16,
    TYPE_F64, /* IEEE binary64, in a register pair */
    TYPE_F16, TYPE_BF16, /* IEEE binary16 and bfloat16: the bits of a 16-bit value */
    TYPE_COUNT
} ValueType;
#define TYPE_MINI_COUNT (TYPE_F32 + 1)
extern const char *const TYPE_NAMES[TYPE_COUNT]; /* "", "b32", ... (without '.') */

/* Bytes of a value of type t in memory (4 for the 32-bit ones, 0 for none). */
uint32_t type_bytes(ValueType t);
/* Signed integer types (s8 s16 s32 s64). */
static inline bool type_signed(ValueType t) { return t == TYPE_S32 || t == TYPE_S64 || t == TYPE_S8 || t == TYPE_S16; }

/* Modifier kinds: which dotted modifiers the assembler accepts on a row.
** Opcodes whose mnemonics share a head ("ld", "atom") form one family; a
** part after the head is read as a modifier of a kind the family takes. */
enum {
    OPM_TYPE = 1u << 0, /* any of .b32 .u32 .s32 .f32 (bit moves), .b32 if left out */
    OPM_CMP  = 1u << 1, /* a comparison, required: .eq .ne .lt .le .gt .ge        */
    OPM_SHFL = 1u << 2, /* a shuffle mode, required: .idx .up .down .bfly         */
    OPM_ATOM = 1u << 3, /* an atomic operation of the row's atoms set, required   */
    OPM_VEC  = 1u << 4  /* an optional vector width .v2 / .v4                     */
};

enum {
    OPF_LOAD        = 1u << 0,
    OPF_STORE       = 1u << 1,
    OPF_ATOM        = 1u << 2, /* read-modify-write: lanes on one word are serialised  */
    OPF_BRANCH      = 1u << 3,
    OPF_BARRIER     = 1u << 4,
    OPF_EXIT        = 1u << 5,
    OPF_SPECIAL_SRC = 1u << 6, /* source may be a special register (%tid.x ...)       */
    OPF_IMAD        = 1u << 7, /* integer add that may also run on the FMA pipe as an
                                  IMAD (compilers balance the two pipes this way)     */
    OPF_PTX         = 1u << 8, /* PTX only: the mini-ISA assembler does not take it   */
    OPF_UNIFORM     = 1u << 9, /* has a uniform-datapath form (UIADD3, ULOP3, USHF,
                                  UIMAD, UMOV, ULDC, USEL): runs there when its
                                  sources are warp-uniform (isa/uniform.h)          */
    OPF_ROUND       = 1u << 10,/* takes the rounding written (.rn .rz .rm .rp) in
                                  Instr.sub; RND_NONE: to nearest                   */
    OPF_ORDERED     = 1u << 11 /* no load is hoisted above it (isa/ptx_lower.c): a
                                  fence, a warp's exchange, a stop, a call that
                                  changes memory (malloc, free)                    */
};

/* The wide column: which operands are 64-bit register pairs (lo row r,
** hi row r + 1) or 64-bit immediates. */
enum { W_D = 1u << 0, W_A = 1u << 1, W_B = 1u << 2, W_C = 1u << 3 };
#define W_ALL (W_D | W_A | W_B | W_C)

/* The lower column: what ptxas turns one PTX instruction of the row into,
** as the timing model issues it: `slots` SASS instructions (0: folded into
** the operands of others, such as ld.param or cvta.to.global; 1; or a
** sequence) on pipe `unit`, the result ready `latency` unit's latency after
** the last one (for a sequence: the whole chain's, e.g. UNIT_DIV's lat.div).
** The mini ISA ignores it: a mini-ISA instruction is already one SASS
** instruction on the row's unit. Figures and sources: sim/presets/SOURCES.md
** ("PTX lowering"). */
typedef struct {
    uint8_t slots;
    uint8_t unit;    /* OpUnit                                            */
    uint8_t latency; /* OpUnit whose latency the result takes             */
} OpLower;

/* One row of isa/opcodes.def (its header says what each column means). */
typedef struct {
    const char *mnemonic;
    OpFormat    format;
    OpUnit      unit;
    MemSpace    space;
    ValueType   type;
    uint32_t    flops;  /* FP32 operations per active lane, for the roofline    */
    uint32_t    mods;   /* OPM_* modifier kinds                                 */
    uint32_t    atoms;  /* AtomOp allowed, ATOM_BIT each; 0 for non-atomics     */
    uint32_t    flags;  /* OPF_*                                                */
    uint32_t    wide;   /* W_* operands that are 64-bit                         */
    OpLower     lower;  /* PTX: the SASS it becomes                             */
    const char *semantics;
} OpInfo;

extern const OpInfo OP_INFO[OP_COUNT];
extern const char *const UNIT_NAMES[UNIT_COUNT];

/* Opcode whose canonical mnemonic is exactly `mnemonic` (len bytes), or OP_COUNT. */
Opcode opcode_lookup(const char *mnemonic, uint32_t len);

/* OPM_* kinds taken by any opcode whose mnemonic starts with `head` (len
** bytes, the part before the first '.'); 0 for an unknown head. */
uint32_t opcode_head_mods(const char *head, uint32_t len);

/* The type an instruction of row `op` works in, given the type written in
** its source (TYPE_NONE when none was). */
static inline ValueType opcode_value_type(Opcode op, ValueType written)
{
    return (OP_INFO[op].mods & OPM_TYPE) && written != TYPE_NONE ? written : OP_INFO[op].type;
}

#endif
