/* isa/program.h -- an assembled program, from the mini ISA (isa/asm.c) or
** from PTX (isa/ptx.c): kernels of decoded instructions. Value types with
** public bodies: the front ends fill them, the executor, the disassembler
** and the timing model read them. A 64-bit PTX value lives in two adjacent
** register rows (lo, hi); the PTX front end allocates rows to its virtual
** registers by liveness, so registers below are rows, not PTX names.
** Ownership: a Program owns everything it points to; program_destroy frees it. */
#ifndef GPUSIM_ISA_PROGRAM_H
#define GPUSIM_ISA_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/opcodes.h"

#define ISA_MAX_REGS     255 /* %r0..%r254, as nvcc's per-thread limit          */
#define ISA_MAX_PREDS    64  /* predicate rows a warp holds (PTX: allocated; at most 255) */
#define ASM_MAX_PREDS    8   /* the mini ISA's %p0..%p7                         */
#define PTX_MAX_ROWS     4096 /* register rows a PTX kernel may keep live at once */
#define ISA_MAX_PARAMS   64
#define ISA_MAX_PARAM_WORDS 1024 /* 32-bit words of the param space: CUDA's 4 KB of kernel parameters */
#define ISA_MAX_NAME     64
#define ISA_NO_GUARD     0xff
#define ISA_NO_RECONV    UINT32_MAX
/* PTX's generic space: shared memory appears at this base (as CUDA maps a
** window of the generic space onto the block's shared memory); everything
** else is global. Global buffers are never placed this high in practice
** (they start at GMEM_BASE and would need 4 GiB to reach it). */
#define ISA_SHARED_WINDOW 0xFF000000u
/* PTX's module-scope .global and .const variables (__device__, __constant__)
** are laid out from here when a file is parsed (ProgramVar.addr): who runs
** the program maps them there (gmem_map) or moves them (program_bind_vars). */
#define ISA_VAR_WINDOW    0xF0000000u
/* PTX's generic space: a thread's local memory (.local: per-thread arrays,
** spills) appears at this base; a local address is an offset in it. */
#define ISA_LOCAL_WINDOW  0xFE000000u
/* A PTX device function's address (mov of a .func, for an indirect call):
** the window's base + 16 x its index in the file; no memory lies there. */
#define ISA_CODE_WINDOW   0xFD000000u
#define ISA_MAX_LOCAL     (512u * 1024) /* bytes of .local per thread (PTX's limit) */
/* Where the timing model sees local memory (exec_local_address): a range of
** its own below the variables' window, which global buffers never reach. */
#define ISA_LOCAL_TIMING      0xC0000000u
#define ISA_LOCAL_TIMING_SIZE 0x30000000u
#define ISA_VAR_ALIGN     256u

typedef enum {
    SREG_TID_X, SREG_TID_Y, SREG_TID_Z,
    SREG_NTID_X, SREG_NTID_Y, SREG_NTID_Z,
    SREG_CTAID_X, SREG_CTAID_Y, SREG_CTAID_Z,
    SREG_NCTAID_X, SREG_NCTAID_Y, SREG_NCTAID_Z,
    SREG_LANEID, SREG_WARPID, SREG_SMID, SREG_NSMID, SREG_CLOCK,
    /* PTX only */
    SREG_LANEMASK_EQ, SREG_LANEMASK_LT, SREG_LANEMASK_LE, SREG_LANEMASK_GT, SREG_LANEMASK_GE,
    SREG_CLOCK64, SREG_GLOBALTIMER,
    SREG_ENVREG1, SREG_ENVREG2, /* the grid's workspace address, high and low
                                   word (cooperative groups' grid sync) */
    SREG_DYNAMIC_SMEM,          /* the launch's dynamic shared memory, bytes */
    SREG_RESERVED_BEGIN, SREG_RESERVED_END, SREG_RESERVED_CAP, /* the block's reserved shared */
    SREG_RESERVED_0, SREG_RESERVED_1,                          /* memory (ExecBlock.reserved_smem) */
    SREG_COUNT
} SpecialReg;
#define SREG_MINI_COUNT (SREG_CLOCK + 1)
extern const char *const SREG_NAMES[SREG_COUNT]; /* "tid.x", ... (without '%') */

typedef enum { OPND_NONE, OPND_REG, OPND_PRED, OPND_IMM, OPND_SPECIAL } OperandKind;

typedef struct {
    uint8_t  kind;   /* OperandKind                                          */
    uint8_t  neg;    /* predicate source written !%p                         */
    uint16_t index;  /* register / predicate / special register number;
                        a 64-bit immediate: its index in Kernel.consts    */
    uint32_t value;  /* OPND_IMM: the 32-bit pattern (float bits for floats);
                        of a 64-bit immediate, the low word                 */
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
    /* The SASS this instruction stands for, as the timing model issues it
    ** (OpInfo.lower for PTX, with the front end's peepholes; 1 on the row's
    ** unit for the mini ISA). */
    uint8_t  slots;     /* issue slots: 0 = free (executes with the warp's
                           next instruction), 1, or a sequence              */
    uint8_t  lunit;     /* OpUnit of those slots                             */
    uint8_t  llat;      /* OpUnit whose latency the result takes             */
    uint8_t  iflags;    /* INSTR_*                                           */
    uint8_t  stype;     /* cvt: the source ValueType (type: the destination's) */
    uint8_t  sub;       /* cvt: CvtRound; testp: TestpKind; prmt: PrmtMode;
                           shf: 1 = clamp                                    */
    uint16_t src_file;  /* .loc: index into Program.src_files + 1, 0 = none */
    uint16_t call_file; /* code inlined from a header: the user's line it was */
    uint32_t src_line;  /* .loc: line in that file                          */
    uint32_t call_line; /*   inlined at (.loc's inlined_at, followed out), 0 = none */
} Instr;

/* Why an OP_TRAP stops the kernel (its Instr.sub): the kernel's own trap,
** or one the PTX front end puts where a call cannot be made. */
typedef enum { TRAP_USER, TRAP_CALL_DEPTH, TRAP_BAD_CALL } TrapWhy;
#define PTX_RECURSION_MAX 24 /* levels of one recursive device function inlined */

/* The geometry of a texture or surface instruction (OP_TEX, OP_SURF_ADDR:
** Instr.sub) and what it reads its coordinates as: a1d is {layer, x}, a2d
** {layer, x, y, -}, 3d {x, y, z, -}; a cube map (tex only) is sampled in a
** direction, cube {x, y, z, -}, acube {cube map, x, y, z}. */
typedef enum { TEXG_1D, TEXG_2D, TEXG_3D, TEXG_A1D, TEXG_A2D, TEXG_CUBE, TEXG_ACUBE } TexGeom;
/* A surface access out of bounds (OP_SURF_ADDR: Instr.mod & 3): faults,
** is clamped to the edge, or reads zeros and writes nothing; Instr.mod & 4:
** the access is a store. */
typedef enum { SURF_TRAP, SURF_CLAMP, SURF_ZERO } SurfBoundary;
#define SURF_STORE 4

enum {
    INSTR_ADDR64 = 1u << 0, /* the address base src[0] is a 64-bit register pair */
    INSTR_SAT    = 1u << 1, /* cvt.sat                                          */
    INSTR_VARREF = 1u << 2, /* an immediate source is a module variable's address */
    /* PTX: bits 3-5 hold i + 1 when source i is the first whose value is only
    ** ever a kernel parameter (a folded ld.param's), ptxas's constant-bank
    ** operand; 0 when none is (isa/ptx_lower.c) */
    INSTR_PARAM_SRC_SHIFT = 3,
    INSTR_PARAM_SRC_MASK  = 7u << 3,
    /* PTX: the decoder set slots, lunit and llat itself (slots 0: a free
    ** instruction, whose unit fields are UNIT_ALU, 0, like unset ones) */
    INSTR_COSTED = 1u << 6,
    /* PTX: a global load that L1 does not serve (ld .cg, .cv, .volatile,
    ** .relaxed/.acquire at .gpu or .sys scope): it goes to L2, as SASS's
    ** LDG.E.STRONG.GPU/.SYS and the .cg form do, neither hitting nor
    ** filling L1 */
    INSTR_L2_ONLY = 1u << 7
};

/* Rounding of a cvt (PTX): to f32 (.rn .rz .rm .rp) or to an integral
** value (.rni .rzi .rmi .rpi). */
typedef enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI } CvtRound;
typedef enum { TESTP_FINITE, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL, TESTP_SUBNORMAL } TestpKind;
typedef enum { PRMT_DEFAULT, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 } PrmtMode;

typedef struct {
    char      name[ISA_MAX_NAME];
    ValueType type;     /* .u32 .s32 .f32 or .ptr (stored as TYPE_B32); PTX:
                           .u64 .s64 .b64 (a pointer, or a 64-bit integer),
                           .b32 and the sub-word types, .f64; a byte array's
                           element type                                      */
    bool      is_ptr;
    bool      is_array; /* PTX `.param .align A .b8 name[N]`: a struct passed
                           by value, N bytes read with ld.param at offsets  */
    uint32_t  offset;   /* bytes into the param space (mini ISA: 4 * index)  */
    uint32_t  size;     /* bytes: 4, 8 (PTX .u64 ...), 1 or 2; an array's N  */
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
    KernelParam *params;             /* nparams of them (at most ISA_MAX_PARAMS;
                                        allocated: a file of many kernels stays small) */
    uint32_t     nparams;
    Label       *labels;
    uint32_t     nlabels;
    SharedSymbol *shared;
    uint32_t     nshared;
    uint32_t     static_smem;        /* bytes of .shared arrays with a size    */
    uint32_t     dynamic_smem_offset;/* where extern shared memory begins      */
    uint32_t     regs_used;          /* highest %r index + 1 (PTX: register
                                        rows after allocation)                 */
    uint32_t     regs_declared;      /* .regs override, 0 if none              */
    uint32_t     preds_used;
    /* PTX kernels only */
    bool         ptx;                /* from the PTX front end                 */
    char        *mangled;            /* the .entry name as written (name is the
                                        bare function name when it demangles) */
    char        *signature;          /* the demangled signature, or NULL       */
    uint64_t    *consts;             /* 64-bit immediates (Operand.index)      */
    uint32_t     nconsts;
    uint32_t     param_bytes;        /* size of the param space                */
    uint32_t     local_bytes;        /* .local bytes per thread (the depot)    */
    uint32_t     vregs;              /* virtual registers declared (.reg)      */
    char        *refused;            /* PTX: why the front end cannot run this
                                        kernel (its first error, at
                                        refused_line:col of refused_file,
                                        the CUDA file its .loc names, or of
                                        the PTX when that is NULL); NULL
                                        when it can. A refused kernel has no
                                        code: see kernel_runnable          */
    char        *refused_file;
    uint32_t     refused_line, refused_col;
    char *const *src_files;          /* the Program's .file table (for fault
                                        reports' CUDA lines), or NULL       */
    uint32_t     nsrc_files;
    uint32_t     regs_estimated;     /* registers per thread estimated from the
                                        rows live at once, for occupancy when
                                        neither ptxas nor the workload says   */
} Kernel;

/* A module-scope .global or .const variable of a PTX file. */
typedef struct {
    char     *name;
    bool      constant;  /* .const (__constant__), else .global (__device__) */
    bool      managed;   /* .attribute(.managed): __managed__, host-visible  */
    uint32_t  size, align;
    uint32_t  addr;      /* where the instructions that name it point       */
    uint8_t  *init;      /* size bytes of initial value, or NULL (zeros)    */
    uint32_t *relocs;    /* byte offsets in init of 64-bit addresses of
                            variables (`generic(v)`, `v + 4`), which
                            program_bind_vars moves with them              */
    uint32_t  nrelocs;
    uint32_t  line;      /* of its declaration                              */
} ProgramVar;

typedef struct {
    char    *file;       /* name used in diagnostics                        */
    Kernel  *kernels;
    uint32_t nkernels;
    char   **src_files;  /* PTX .file table (for .loc), or NULL             */
    uint32_t nsrc_files;
    ProgramVar *vars;    /* PTX: module-scope variables, in ISA_VAR_WINDOW  */
    uint32_t nvars;
} Program;

void program_destroy(Program *p);

/* A new zeroed parameter at k->params[k->nparams] (the caller counts it), or
** NULL when out of memory. */
KernelParam *program_add_param(Kernel *k);

/* Moves the variables to addr[0..nvars): every instruction that names one
** (INSTR_VARREF), at an offset into it, and every initializer that holds
** the address of one (ProgramVar.relocs), then points at the new place. */
void program_bind_vars(Program *p, const uint32_t *addr);

/* True when k can run; false with d set (file, line, column and the
** front end's message) when its PTX was refused. */
bool kernel_runnable(const Program *p, const Kernel *k, Diag *d);

/* Kernel named `name`, or NULL. */
const Kernel *program_find_kernel(const Program *p, const char *name);

/* Registers per thread the occupancy calculator should use: the .regs
** override (PTX: ptxas -v's count) when given, else the registers the code
** touches (at least 1; PTX: Kernel.regs_estimated). */
uint32_t kernel_regs_per_thread(const Kernel *k);

/* Whether k has an instruction of opcode op; whether it calls malloc or
** free (the device heap: Launch.heap). */
bool kernel_has_op(const Kernel *k, uint32_t op);
bool kernel_uses_heap(const Kernel *k);
/* Rows timed by sim/async.c as well: cp.async, its commit and wait, the
** arrival an mbarrier tracks copies by, and the mbarrier waits. */
static inline bool kernel_op_is_async(Opcode op)
{
    return op == OP_CP_ASYNC || op == OP_CP_ASYNC_COMMIT || op == OP_CP_ASYNC_WAIT || op == OP_CP_ASYNC_MBAR ||
           op == OP_CP_ASYNC_BULK || op == OP_MBAR_TEST;
}
/* Whether k makes asynchronous copies (cp.async): such a launch runs on one
** host thread (sim/par.c). */
bool kernel_uses_async_copies(const Kernel *k);
/* Whether k reads the reserved shared memory's registers
** (%reserved_smem_offset_*: cooperative groups' tiles of more than a warp). */
bool kernel_reads_reserved_smem(const Kernel *k);
/* Whether k has a barrier only some of the block meets at: bar.arrive, or
** a bar.sync / bar.red with a thread count. */
bool kernel_has_partial_barriers(const Kernel *k);

/* Label at pc, or NULL (for printing). */
const char *kernel_label_at(const Kernel *k, uint32_t pc);

/* The CUDA line nvcc's .loc gives the instruction at pc, as a message
** leads with it: "saxpy.cu:4: y[i] = a * x[i] + y[i];" (the line's text,
** trimmed and cut at 100 characters, when the file can be read; else
** "saxpy.cu:4"); for code inlined from a header, the user's line it was
** inlined at, then " (in HEADER:LINE, inlined here)". False, and buf "",
** when the instruction has none (the mini ISA, PTX without -lineinfo). */
bool kernel_cuda_line(const Kernel *k, uint32_t pc, char *buf, size_t cap);

/* A kernel as a user knows it: a PTX kernel from a .cu by its demangled
** signature ("saxpy(float const*, float*, float, unsigned int)"), else by
** name. */
const char *kernel_label(const Kernel *k);

/* Parameter i as a message names it: with a signature whose list has one
** type per parameter, "parameter 2 (float*)"; else PTX's or the mini
** ISA's name, "parameter 'param_1'". Returns buf. */
const char *kernel_param_label(const Kernel *k, uint32_t i, char *buf, size_t cap);

#endif
