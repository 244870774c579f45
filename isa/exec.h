/* isa/exec.h -- lane semantics: functional execution of one warp instruction
** under its active mask, and the per-warp SIMT reconvergence stack.
** No cycles here: the timing model calls exec_step when it issues an
** instruction and uses what ExecOut reports (mask, addresses, barrier, exit).
** Register storage: r[reg][lane], so one register of 32 lanes is contiguous
** and every lane loop is a straight vectorisable loop.                     */
#ifndef GPUSIM_ISA_EXEC_H
#define GPUSIM_ISA_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "isa/gmem.h"
#include "isa/program.h"

#define WARP_SIZE      32
#define SIMT_MAX_DEPTH 64 /* nesting of divergent branches (recursion inlined 24 deep
                             nests two a level); loops add none */


typedef struct {
    uint32_t pc;     /* next instruction of this path                      */
    uint32_t reconv; /* pc where this path rejoins the entry below it      */
    uint32_t mask;   /* lanes on this path                                 */
} SimtEntry;

/* Functional state of one warp. Registers are owned by the caller. */
typedef struct {
    /* what every step reads first, with the stack's bottom entry (a warp
    ** that has not diverged), on one host cache line */
    uint32_t (*r)[WARP_SIZE];        /* r[reg][lane]                          */
    uint32_t  depth;                 /* 0 once every lane has exited          */
    uint32_t  live;                  /* lanes that exist and have not exited  */
    uint32_t  warp_in_block;
    uint32_t  hw_warp;               /* %warpid: warp slot on its SM          */
    SimtEntry stack[SIMT_MAX_DEPTH];
    uint32_t  pred[ISA_MAX_PREDS];   /* one bit per lane                      */
    /* bar.red waiting at its barrier: the warp's share of the block's
    ** reduction (lanes taking part, how many of them hold the predicate),
    ** its kind (Instr.mod) and where the result goes (exec_red_apply) */
    uint32_t  red_lanes, red_count;
    uint8_t   red_mod;
    Operand   red_dst;
} WarpExec;

/* A source operand as a 32-lane row: a register row, or an immediate
** broadcast into tmp. */
static inline const uint32_t *exec_row(const WarpExec *w, const Operand *o, uint32_t tmp[WARP_SIZE])
{
    if (o->kind == OPND_REG) return w->r[o->index];
    for (int l = 0; l < WARP_SIZE; l++) tmp[l] = o->value;
    return tmp;
}

/* A predicate source's lane bits, !%p negated. */
static inline uint32_t exec_pred(const WarpExec *w, const Operand *o)
{
    uint32_t p = w->pred[o->index];
    return o->neg ? ~p : p;
}

/* Device printf's output (isa/exec_printf.c): one sink per SM (or per
** functional run), each text kept with the cycle, SM and order it was
** printed at. */
typedef struct ExecPrint ExecPrint;
typedef struct {
    uint64_t   clock;
    uint32_t   sm, seq;
    size_t     off, len;   /* its bytes in sink->text                    */
    ExecPrint *sink;
} ExecPrintRec;
struct ExecPrint {
    char         *text;
    size_t        len, cap, limit;  /* limit: bytes kept (the printf buffer) */
    ExecPrintRec *recs;
    size_t        nrecs, recs_cap;
    uint64_t      dropped;          /* printf calls past the limit          */
};
#define EXEC_PRINT_LIMIT ((size_t)1 << 20) /* CUDA's default printf FIFO: 1 MiB */

/* A texture or surface object as kernels see it (the runtime's
** cudaCreateTextureObject, cudaCreateSurfaceObject): its handle, the
** 64-bit value a kernel holds, is its index in ExecTextures.v plus one. */
typedef enum { TEXO_NONE, TEXO_TEXTURE, TEXO_SURFACE } TexObjectKind;
/* Address modes, numbered as CUDA's cudaTextureAddressMode. */
typedef enum { TEXA_WRAP, TEXA_CLAMP, TEXA_MIRROR, TEXA_BORDER } TexAddressMode;
typedef enum { TEXC_UNSIGNED, TEXC_SIGNED, TEXC_FLOAT } TexChannelKind;
typedef struct {
    uint8_t  kind;              /* TexObjectKind (TEXO_NONE: destroyed)       */
    uint8_t  channels;          /* 1, 2 or 4, of channel_bytes each, packed  */
    uint8_t  channel_bytes;     /* 1, 2 or 4 (a 2-byte float is a half)       */
    uint8_t  channel_kind;      /* TexChannelKind                             */
    uint8_t  dims;              /* 1, 2 or 3 (a layered one's layers apart)   */
    bool     layered;
    bool     cubemap;           /* layered, six faces a cube map (+x -x +y -y
                                   +z -z), sampled by direction only          */
    bool     fetch_only;        /* a linear (1D buffer) resource: tex1Dfetch's
                                   integer texel index, zeros out of range   */
    bool     filter_linear;     /* else point sampling                        */
    bool     normalized_coords; /* coordinates in [0, 1) per dimension        */
    bool     read_normalized;   /* 8- and 16-bit integers read as [0, 1] or
                                   [-1, 1] floats (cudaReadModeNormalizedFloat) */
    uint8_t  address[3];        /* TexAddressMode per dimension               */
    uint32_t extent[3];         /* texels: width, height, depth (1 when absent) */
    uint32_t layers;            /* layered: how many (else 1)                 */
    uint64_t base;              /* device address of texel (0, 0, 0), layer 0 */
    uint64_t row_pitch;         /* bytes from one row to the next             */
    uint64_t slice_pitch;       /* bytes from one depth slice (or layer of a
                                   2D layered one) to the next                */
    float    border[4];         /* TEXA_BORDER's colour                       */
} ExecTexture;

/* The objects a launch can name, and two 16-byte areas of global memory
** for surface accesses out of bounds in .zero mode: loads read zeros from
** one, stores land in the other (which nothing reads). */
typedef struct {
    const ExecTexture *v;
    uint32_t           n;
    uint64_t           zero_page, discard_page;
} ExecTextures;

/* What one block shares: the kernel, memories and launch coordinates. */
typedef struct {
    const Kernel   *kernel;
    GlobalMem      *gmem;
    uint8_t        *smem;            /* the block's shared memory             */
    uint32_t        smem_size;       /* static + dynamic (+ reserved) bytes   */
    uint32_t        reserved_smem;   /* the last bytes of it the system keeps
                                        (sm.shared_reserved), when the kernel
                                        reads %reserved_smem_offset_*; else 0 */
    uint8_t        *lmem;            /* its threads' local memory: thread t's
                                        kernel->local_bytes at t * local_bytes
                                        (NULL when the kernel has none)      */
    const uint32_t *params;          /* the param space as 32-bit words: a
                                        parameter at byte offset o starts in
                                        word o / 4 (mini ISA: one word each) */
    uint32_t        ntid[3], nctaid[3], ctaid[3];
    uint32_t        smid, nsmid;
    uint64_t        grid_workspace;  /* %envreg1:%envreg2: a cooperative
                                        launch's zeroed words for grid.sync()
                                        (0: none, and grid.sync() traps)     */
    uint64_t        clock;           /* %clock: the caller's current cycle     */
    double          clock_mhz;       /* converts clock to %globaltimer's ns
                                        (0: one cycle a ns)                   */
    bool            defer_global;    /* global accesses are checked and their
                                        operands captured, not done: the caller
                                        applies them (exec_global_apply)      */
    ExecPrint      *print;           /* where device printf writes (NULL: its
                                        text is dropped)                      */
    uint64_t        heap;            /* the device heap's address (malloc and
                                        free: exec_heap_create; 0: none, and
                                        they fault)                           */
    const ExecTextures *textures;    /* texture and surface objects (NULL:
                                        none, and naming one faults)        */
} ExecBlock;

/* A 64-bit immediate: pooled in Kernel.consts, else held in the operand. */
static inline uint64_t exec_imm64(const Kernel *k, const Operand *o)
{
    return o->index < k->nconsts ? k->consts[o->index] : o->value;
}

/* A lane mask as 32 words of all ones or zero, four lanes per 16-byte copy
** from a table: a blend by these words vectorises, a test of bit l of the
** mask per lane does not (without AVX2's per-lane shifts). */
extern const uint32_t EXEC_NIBBLE_LANES[16][4];
static inline void exec_lanes_from_mask(uint32_t m, uint32_t mw[WARP_SIZE])
{
    if (m == 0xffffffffu) { /* the common case: one fill */
        memset(mw, 0xff, WARP_SIZE * sizeof mw[0]);
        return;
    }
    for (int g = 0; g < WARP_SIZE / 4; g++) memcpy(&mw[4 * g], EXEC_NIBBLE_LANES[m >> (4 * g) & 15u], sizeof EXEC_NIBBLE_LANES[0]);
}

/* A 64-bit source's value in lane l: a register pair, or an immediate. */
/* A 64-bit timer register: %clock64 the cycle, %globaltimer its ns at
** the block's clock_mhz. */
static inline uint64_t exec_timer64(const ExecBlock *b, uint32_t sreg)
{
    if (sreg != SREG_GLOBALTIMER || b->clock_mhz <= 0) return b->clock;
    return (uint64_t)((double)b->clock * 1000.0 / b->clock_mhz);
}

static inline uint64_t exec_lane64(const ExecBlock *b, const WarpExec *w, const Operand *o, uint32_t l)
{
    return o->kind == OPND_REG ? (uint64_t)w->r[o->index + 1][l] << 32 | w->r[o->index][l] : exec_imm64(b->kernel, o);
}

typedef enum {
    FAULT_NONE,
    FAULT_GLOBAL_OOB,       /* global access outside every buffer            */
    FAULT_SHARED_OOB,       /* shared access beyond the block's allocation   */
    FAULT_MISALIGNED,       /* address not a multiple of the access size     */
    FAULT_UNIFORM_DIVERGED, /* bra.uni whose guard differed between lanes    */
    FAULT_STACK_OVERFLOW,   /* divergence nested deeper than SIMT_MAX_DEPTH  */
    FAULT_ADDR64,           /* a 64-bit address beyond the 32-bit simulated
                               space (nonzero high word): never truncated    */
    FAULT_GENERIC_MIXED,    /* a generic access whose lanes are partly in the
                               shared window and partly global (not modelled) */
    FAULT_LOCAL_OOB,        /* local access beyond the thread's .local bytes  */
    FAULT_TRAP,             /* trap (__trap()): the kernel stops on purpose   */
    FAULT_ASSERT,           /* a failed assert() (__assertfail)               */
    FAULT_BAD_FREE,         /* free() of an address malloc did not return, or
                               one already freed (addr)                       */
    FAULT_HEAP_DAMAGED,     /* the device heap's bookkeeping was overwritten  */
    FAULT_MBARRIER,         /* an mbarrier used as the PTX manual leaves
                               undefined (ExecFault.line: MbarMisuse)         */
    FAULT_BARRIER,          /* a named barrier outside 0..15 (ExecFault.line 0)
                               or a thread count that is no positive multiple
                               of 32 within the block (line 1); file: the value */
    FAULT_CALL_DEPTH,       /* a recursive call deeper than the front end
                               inlined (PTX_RECURSION_MAX levels)             */
    FAULT_BAD_CALL,         /* a call through a register holding no device
                               function's address                             */
    FAULT_BAD_TEXTURE,      /* a texture or surface instruction naming no live
                               object of its kind (addr: the handle)          */
    FAULT_SURFACE_OOB       /* a surface access out of bounds in .trap mode
                               (addr: the byte x coordinate; line: y; file: z
                               or the layer)                                  */
} FaultKind;

/* What was wrong with an mbarrier (FAULT_MBARRIER). */
typedef enum {
    MBAR_BAD_COUNT,     /* init with a count of 0 or above 2^20 - 1          */
    MBAR_UNINITIALISED, /* an arrival on a word that is no barrier           */
    MBAR_TOO_MANY,      /* more arrivals than the phase still needs           */
    MBAR_COMPLETES,     /* a .noComplete arrival that completes the phase    */
    MBAR_NOT_SHARED,    /* a generic address outside shared memory           */
    MBAR_TX_RANGE       /* a byte count past 2^20 - 1 either way             */
} MbarMisuse;

typedef struct {
    FaultKind kind;
    uint32_t  pc, lane, size;
    uint64_t  addr;        /* FAULT_ASSERT: the message's generic address     */
    uint64_t  file, func;  /* FAULT_ASSERT: where the assert() stands, as      */
    uint32_t  line;        /*   generic addresses of strings, and the line;
                              FAULT_MBARRIER: line the MbarMisuse, file the
                              count the lane gave                            */
} ExecFault;

typedef struct {
    uint32_t  pc;          /* the instruction executed                          */
    uint32_t  active;      /* lanes it was issued for (top of the SIMT stack)   */
    uint32_t  exec_mask;   /* active lanes whose guard predicate held           */
    uint32_t  width;       /* memory instructions: bytes per lane (1 .. 16)     */
    uint8_t   space;       /* memory instructions: the MemSpace accessed (a
                              generic access resolved to shared or global)   */
    uint64_t  addr[WARP_SIZE]; /* memory instructions: byte address per lane
                              (global address, or offset in shared memory;
                              local memory: where the hardware's interleaved
                              layout puts it, exec_local_address)           */
    bool      at_barrier;  /* bar.sync, bar.red: hold the warp until barrier
                              barrier_id completes; bar.arrive: count it there */
    bool      barrier_arrive;  /* ... bar.arrive: counted, the warp goes on    */
    bool      barrier_partial; /* ... reached with some live lanes elsewhere   */
    uint8_t   barrier_id;      /* ... 0 .. EXEC_BARRIERS - 1                   */
    uint16_t  barrier_warps;   /* ... the warps that complete it (its thread
                                  count / 32); 0: every live warp of the block */
    bool      diverged;    /* a branch split the warp                          */
    bool      yielded;     /* a barrier reached by part of the warp gave way
                              to the path beside it: nothing executed, and
                              nothing to count or time                      */
    bool      exited;      /* no live lane remains                             */
    uint32_t  sleep_ns;    /* nanosleep: the longest its active lanes asked for */
    uint32_t  async_reads; /* cp.async: the lanes that read global memory (a
                              zero-fill reads nothing), the shared offset each
                              active lane writes at data[0][l]; cp.async.bulk: the
                              active lanes, each lane's copy at addr[l] of
                              data[0][l] bytes completing on the mbarrier
                              at shared offset data[1][l]                 */
    bool      deferred;    /* a global access left to exec_global_apply, with
                              the host address of each active lane's bytes: */
    uint8_t  *ptr[WARP_SIZE];
    uint32_t  data[4][WARP_SIZE]; /* ... with what it writes: store values (one
                              row per vector element), atomic operands (b, then
                              c; 64-bit: b low, b high, c low, c high)         */
    ExecFault fault;
} ExecOut;

/* Resets w for warp `warp_in_block` of a block of `block_threads` threads
** (lanes past the block's end never live). regs has nregs rows, zeroed. */
void exec_warp_init(WarpExec *w, uint32_t (*regs)[WARP_SIZE], uint32_t nregs,
                    uint32_t warp_in_block, uint32_t block_threads, uint32_t hw_warp);

/* Executes the instruction at the warp's current pc for its active lanes,
** updates registers, memories, predicates and the SIMT stack, and describes
** what happened in *out. Returns false on a fault (out->fault; the warp's
** state is then unspecified). Requires w->depth > 0. */
bool exec_step(const ExecBlock *b, WarpExec *w, ExecOut *out);

/* Does the global access that exec_step deferred (out->deferred) of the
** instruction at pc, on the bytes at ptr (ExecOut.ptr, for the lanes in
** mask; the buffers must not have moved since): loads read them into the
** warp's registers r, stores write data, atomics read-modify-write with data
** as operands and return the old values into r. r may be NULL (the warp has
** gone: only the memory effect counts). Global memory's contents are then as
** if exec_step had done the access. */
void exec_global_apply(const Kernel *k, uint32_t (*r)[WARP_SIZE], uint32_t pc, uint32_t mask,
                       uint8_t *const ptr[WARP_SIZE], const uint32_t data[4][WARP_SIZE]);

/* pc the warp will execute next (top of its stack); requires depth > 0. */
static inline uint32_t exec_pc(const WarpExec *w) { return w->stack[w->depth - 1].pc; }

/* The address the timing model sees for byte `offset` of lane `lane`'s
** local memory in an access of `width` bytes, warp `hw_warp` of SM `smid`:
** as the hardware lays local memory out, a word offset of the 32 lanes of a
** warp is one contiguous run (so a warp's spill of one register is one
** coalesced 128-byte access), in a window of its own (ISA_LOCAL_TIMING). */
uint64_t exec_local_address(uint32_t smid, uint32_t hw_warp, uint32_t local_bytes, uint32_t offset, uint32_t lane,
                            uint32_t width);

/* A sink of `limit` bytes, and its release. */
void exec_print_init(ExecPrint *p, size_t limit);
void exec_print_free(ExecPrint *p);
/* Writes the text of n sinks to out (NULL: nowhere) in the order it was
** printed (cycle, then SM, then order on the SM), a line saying how many
** printf calls were dropped if any, and empties them. The number of texts. */
uint64_t exec_print_flush(ExecPrint *sinks, uint32_t n, FILE *out);

/* A device heap of `bytes` (cudaLimitMallocHeapSize) allocated in gmem, for
** ExecBlock.heap: its address, 0 (and d) when gmem has no room. It keeps
** what malloc handed out from launch to launch (isa/exec_heap.c). */
uint32_t exec_heap_create(GlobalMem *gmem, uint64_t bytes, Diag *d);
#define EXEC_HEAP_DEFAULT_BYTES ((uint64_t)8 << 20) /* CUDA's default: 8 MiB */

/* One-line name of a fault kind ("out-of-bounds global access", ...). */
const char *exec_fault_name(FaultKind k);

/* Internal to the exec module (isa/exec_ptx.c): the register rows of the
** PTX-only opcodes (64-bit integers, cvt, bit fields, votes ...) for the
** lanes in m. exec_step calls it; it cannot fault. */
void exec_ptx_alu(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m);

/* Internal to the exec module: the per-lane addresses of memory instruction
** in (checked for alignment to width) and the host pointers of its bytes in
** the space its row names, a generic one resolved (isa/exec.c); and the
** atomic rows, executed (isa/exec_atom.c). False and out->fault on a fault. */
bool exec_mem_lanes(const ExecBlock *b, const WarpExec *w, const Instr *in, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE]);
bool exec_atomic(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);
/* The same for any address operand: o + disp (addr64: o is a 64-bit register
** pair or immediate) in `space`. */
bool exec_mem_at(const ExecBlock *b, const WarpExec *w, const Operand *o, int32_t disp, bool addr64, MemSpace space, uint32_t m,
                 uint32_t width, ExecOut *out, uint8_t *ptr[WARP_SIZE]);
/* (isa/exec_async.c) cp.async's copy, cp.async.mbarrier.arrive and the
** mbarrier rows, for the lanes in m. */
bool exec_async(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);
/* The phase parity (0 or 1) of the mbarrier at shared offset `at` of block
** b, or -1 when no 8 bytes of the block's shared memory are there. */
int exec_mbar_phase(const ExecBlock *b, uint64_t at);
/* (isa/exec_tex.c) tex and tld4 for the lanes in m: each lane's texels
** read, filtered and converted into its four destinations; out->addr the
** first texel each read, out->async_reads the lanes that read memory. */
bool exec_texture(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);
/* (isa/exec_tex.c) surf.addr for the lanes in m: the element's address. */
bool exec_surface_address(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);
/* (isa/exec_heap.c) malloc and free for the lanes in m, in lane order. */
bool exec_heap(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);
/* (isa/exec_ptx.c) old + v for `elems` (1 or 2) halves of type t (.f16 or
** .bf16), each rounded once to nearest even: atom.add.noftz's update. */
uint32_t exec_half_add(uint32_t old, uint32_t v, ValueType t, uint32_t elems);
/* A 2- or 4-byte atomic of the half rows on old: the half add (b the
** operand), or atom.cas.b16 (b the value compared, c the new one). */
uint32_t exec_half_atom(const Instr *in, uint32_t old, uint32_t b, uint32_t c);

/* Internal to the exec module (isa/exec_bits.c): one lane of PTX's bit-field
** and byte operations. pos/len/start/width as the instructions take them;
** clamp: .clamp (counts capped at 32) rather than .wrap (counts mod 32). */
uint32_t exec_bfe(uint32_t a, uint32_t pos, uint32_t len, bool sign);
uint32_t exec_bfi(uint32_t a, uint32_t b, uint32_t pos, uint32_t len);
uint64_t exec_bfi64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len);
uint32_t exec_bfind(uint64_t a, uint32_t n, bool sign, bool shiftamt);
uint32_t exec_dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed);
uint32_t exec_dp2a(uint32_t a, uint32_t b, uint32_t c, bool hi, bool a_signed, bool b_signed);
uint32_t exec_brev(uint32_t a);
uint32_t exec_fns(uint32_t mask, uint32_t base, int32_t offset);
/* redux.sync's result over the lanes of `group` (row REDUX_ADD, or REDUX_OP
** whose AtomOp is mod), a every lane's source. */
uint32_t exec_redux(Opcode op, ValueType type, uint8_t mod, const uint32_t a[WARP_SIZE], uint32_t group);
uint32_t exec_prmt(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode);
uint32_t exec_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp);
uint32_t exec_bmsk(uint32_t start, uint32_t width, bool clamp);
uint32_t exec_szext(uint32_t a, uint32_t bits, bool clamp, bool sign);
/* SIMD within a register (encodings: isa/ptx_decode_simd.c). */
uint32_t exec_simd16(uint32_t a, uint32_t b, uint32_t op, bool sign, bool relu);
uint32_t exec_video(uint32_t a, uint32_t b, uint32_t c, uint32_t op, uint32_t sub);

/* Internal to the exec module (isa/exec_round.c): IEEE results in rounding
** direction r (.rz .rm .rp; RND_RN or RND_NONE: to nearest). exec_f32_dir
** rounds the exact value s + e (e: s's exact error, or only its sign) to
** f32; exec_sum_f32_dir rounds p + c, two doubles. */
float exec_f32_dir(double s, double e, CvtRound r);
float exec_sum_f32_dir(double p, double c, CvtRound r);
float exec_div_f32_dir(float a, float b, CvtRound r);
float exec_sqrt_f32_dir(float a, CvtRound r);
double exec_add_f64(double a, double b, CvtRound r);
double exec_mul_f64(double a, double b, CvtRound r);
double exec_div_f64(double a, double b, CvtRound r);
double exec_sqrt_f64(double a, CvtRound r);
double exec_fma_f64(double a, double b, double c, CvtRound r);

/* Internal to the exec module (isa/exec_small.c): the 16-bit floats
** (binary16: 10 fraction bits, exponents -14..15; bfloat16: 7, -126..127)
** as a value, and a value rounded to one in direction r, overflowing to
** infinity or the largest finite value as the mode says, a NaN the
** canonical 0x7fff; and one lane of the 8-bit float pair conversions
** (OP_CVT_F8X2_F32, OP_CVT_F8X2_F16X2, OP_CVT_F16X2_F8X2; a, b: its sources). */
double exec_small_value(uint32_t bits, ValueType t);
uint32_t exec_small_bits(long double x, CvtRound r, ValueType t);
uint32_t exec_f8_lane(const Instr *in, uint32_t a, uint32_t b);

/* bar.red's reduction over a block: when its barrier opens, the caller adds
** every waiting warp's share into a zeroed ExecRed (exec_red_add), then gives
** each warp the result (exec_red_apply; a warp with no bar.red waiting is
** left alone). */
typedef struct {
    uint32_t lanes, count;
} ExecRed;
void exec_red_add(ExecRed *t, const WarpExec *w);
void exec_red_apply(const ExecRed *t, WarpExec *w);

/* Internal to the exec module (isa/exec_barrier.c): bar.red's arrival, the
** lanes in m bringing their predicate. */
void exec_bar_red(WarpExec *w, const Instr *in, uint32_t m);

/* Internal to the exec module (isa/exec_barrier.c): a bar.sync, bar.red or
** bar.arrive reached by the lanes in `active`: out's barrier fields, or a
** FAULT_BARRIER for a barrier or a thread count the block cannot have.
** When only some of the warp's live lanes are there and the path that
** diverged beside this one is elsewhere (not at a barrier), that path goes
** first (the two swap on the SIMT stack, the barrier not yet reached:
** out->at_barrier false, out->yielded true): its lanes may exit (`if (i >= n) return;` in a
** debug build) or come to the barrier too, as on a GPU. */
bool exec_barrier_at(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t active, ExecOut *out);

/* A block's 16 named barriers (bar.sync a{, b}), as the one that counts
** their arrivals keeps them (sim/blocks.c, isa/grid.c): the warps arrived
** in the current phase, and the warps that complete it (the phase's first
** arrival's thread count / 32; 0: every live warp of the block). */
#define EXEC_BARRIERS 16
typedef struct {
    uint16_t arrived[EXEC_BARRIERS];
    uint16_t expected[EXEC_BARRIERS];
} ExecBarriers;

/* Counts the arrival `out` reports (out->at_barrier) at its barrier;
** `running` is the block's live warps. True when that completes the
** barrier, whose count then starts over. */
bool exec_barrier_arrive(ExecBarriers *bars, const ExecOut *out, uint32_t running);

/* After a warp of the block exited (`running` live warps left): the
** whole-block barrier every remaining warp has now reached, its count
** started over; -1 when there is none. */
int exec_barrier_after_exit(ExecBarriers *bars, uint32_t running);

/* Internal to the exec module (isa/exec_fault.c): trap or __assertfail for
** the lanes in m. With a lane in m, false and a fault of the lowest one in
** out->fault (the kernel stops); with none, true and nothing happens. */
bool exec_trap(const WarpExec *w, const Instr *in, uint32_t m, ExecOut *out);

/* The line CUDA prints for a failed assert() (f->kind FAULT_ASSERT):
** "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `MESSAGE`
** failed.", its strings read from gmem ('?' where they cannot be). */
void exec_assert_text(const GlobalMem *gmem, const ExecFault *f, const uint32_t ctaid[3], const uint32_t tid[3],
                      char *buf, size_t cap);

/* Internal to the exec module (isa/exec_global.c): an atomic operation's new
** value from the old one, the operand v and CAS's compare value. */
uint32_t exec_atom_apply(AtomOp op, ValueType type, uint32_t old, uint32_t v, uint32_t cmpv);
/* The 64-bit form: type s64 compares signed, f64 adds as binary64 (round
** to nearest even), others are unsigned bits. */
uint64_t exec_atom_apply64(AtomOp op, ValueType type, uint64_t old, uint64_t v, uint64_t cmpv);

/* Internal to the exec module (isa/exec_printf.c): lane `lane`'s printf of
** the format at generic address fmt with the argument buffer at args, into
** b->print; the characters it printed, or -1 when the format cannot be read. */
int32_t exec_printf(const ExecBlock *b, const WarpExec *w, uint32_t lane, uint64_t fmt, uint64_t args);

/* Internal to the exec module (isa/exec_local.c): the host pointers of a
** local access (lane l of warp w: its thread's bytes at out->addr[l]), its
** addresses rewritten for the timing model (exec_local_address); false and
** out->fault on an access past the kernel's local_bytes. */
bool exec_map_local(const ExecBlock *b, const WarpExec *w, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE]);

/* Internal to the exec module (isa/exec_mem.c): the host pointers of an
** access in `space` (a generic one resolved to its space first, out->space
** set) for the lanes in m at out->addr; *whole (unless NULL): every lane
** active, each lane's bytes following the previous lane's. False and
** out->fault when a lane is outside its memory. */
bool exec_map_space(const ExecBlock *b, const WarpExec *w, MemSpace space, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE], bool *whole);

/* (isa/exec_fault.c) Sets out->fault: kind k at lane, address and size, at
** out->pc. Returns false, for `return exec_fault_at(...)`. */
bool exec_fault_at(ExecOut *out, FaultKind k, uint32_t lane, uint64_t addr, uint32_t size);

#endif
