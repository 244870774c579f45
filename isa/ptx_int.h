/* isa/ptx_int.h -- what the files of the PTX front end share (isa/ptx_lex.c:
** tokens and errors; isa/ptx.c: directives, kernels; isa/ptx_operands.c:
** an instruction's operands and modifiers; isa/ptx_decode.c: an
** instruction read, its decoder picked by head, the plain register rows and
** the builders below; isa/ptx_decode_ops.c: the other decoders;
** isa/ptx_lower.c: folds and load hoisting; isa/ptx_names.c: demangling;
** isa/ptx_func.c: device functions, inlined at their calls;
** isa/ptx_regalloc.c: register rows; isa/ptx_vars.c: module variables).
** Not for other modules: they include
** isa/ptx.h, and the build keeps this header off their include path. */
#ifndef GPUSIM_ISA_PTX_INT_H
#define GPUSIM_ISA_PTX_INT_H

#include "base/names.h"
#include "isa/lex.h"
#include "isa/ptx.h"

typedef enum { TK_EOF, TK_WORD, TK_DIR, TK_NUM, TK_STR, TK_PUNCT } TokKind;

typedef struct {
    TokKind     kind;
    const char *s;    /* into the input, len bytes (never NUL-terminated) */
    uint32_t    len;
    uint32_t    line, col;
} Tok;

#define PTX_LOC_SEEN 16

typedef struct {
    char     name[64];
    uint32_t count;   /* %name<count>; 0: a single register named name */
    uint8_t  cls;     /* VREG_*                                        */
    uint32_t depth;   /* braces open where it was declared (0: the body) */
    uint32_t gen;     /* a single register declared again in another block
                      ** with another type is another register: its index */
    bool     closed;  /* declared in a block that has ended: out of scope, so
                      ** its name means the body's register again (inline
                      ** asm's { .reg .u32 %r3; ... } shadows %r<N>'s %r3) */
} PtxRange;

typedef struct {
    char    *name;
    uint32_t align, size, offset; /* size 0: the extern (dynamic) array */
    uint32_t line;
    bool     module_scope;
    bool     local;   /* a .local array (each thread's own), not .shared */
} PtxSym;

typedef struct {
    uint32_t instr;
    char     name[ISA_MAX_NAME];
    uint32_t line, col;
} PtxRef;

/* A place in the input: the lexer's state there, to come back to. */
typedef struct {
    Lex      lx;
    Tok      tok;
    bool     in_comment;
    uint32_t comment_line, comment_col;
} PtxMark;

/* A device function's parameter or return value: a 32- or 64-bit scalar
** (array: a struct by value, which calls do not take yet). */
typedef struct {
    char    *name;
    uint8_t  cls;
    bool     array;  /* a struct by value: `.param .b8 name[bytes]`        */
    uint32_t bytes;
} PtxFuncParam;

#define PTX_FUNC_MAX_PARAMS 32
#define PTX_INLINE_MAX_DEPTH 40    /* device functions calling device functions */
#define PTX_INLINE_MAX_CALLS 4096  /* calls inlined into one kernel          */
#define PTX_RECURSION_CALLS 512    /* copies of a recursive function's deepest level */
#define PTX_INDIRECT_MAX 16        /* device functions one indirect call may reach */

/* A .func of the module (isa/ptx_func.c), read ahead of the kernels. */
typedef struct {
    char        *name;
    uint32_t     line;
    bool         has_body, has_ret;
    bool         address_taken; /* a mov reads its address: an indirect call may reach it */
    uint32_t     self_calls;    /* calls of itself in its body, +1 (0: not counted yet) */
    PtxFuncParam ret;
    PtxFuncParam params[PTX_FUNC_MAX_PARAMS];
    uint32_t     nparams;
    PtxMark      body;     /* just inside its '{'                          */
} PtxFunc;

/* Inside an inlined body: a parameter or return value's name, and the
** call's .param register it stands for. */
typedef struct {
    const char *name;
    uint32_t    v;
} PtxAlias;

/* A call's struct passed or returned by value (`.param .b8 name[bytes]`
** in the call's braces): its name is a register that holds nothing, and
** each field that st.param writes at an offset is a register of its own,
** which ld.param reads at the same offset and width (isa/ptx_func.c). */
typedef struct {
    uint32_t v, bytes;
} PtxAgg;

typedef struct {
    uint32_t agg, v;   /* the struct's name register; the field's register */
    uint32_t off, bytes;
} PtxField;

typedef struct {
    uint32_t v;     /* the virtual register        */
    int32_t  param; /* the kernel parameter's index */
} PtxParamAddr;

typedef struct {
    Lex         lx;        /* the current line                              */
    const char *end;       /* end of the whole input                        */
    const char *file;
    Diag       *d;
    bool        failed, in_comment;
    uint32_t    comment_line, comment_col; /* where the open block comment began */
    Tok         tok;       /* the current token                             */
    Program    *prog;
    Kernel     *k;         /* the kernel being parsed                       */
    uint32_t    kernels_cap, code_cap, label_cap;
    char        target[32];
    /* the kernel's names */
    PtxRange   *ranges;
    uint32_t    nranges, ranges_cap;
    uint32_t    range_base; /* the first range of the body being read (an
                               inlined function's follow its caller's) */
    NameIndex   range_ix;
    PtxSym     *syms;      /* the module's shared variables, then the kernel's */
    uint32_t    nsyms, syms_cap;
    NameIndex   sym_ix;
    /* module-scope .global / .const variables (__device__, __constant__)
    ** go to P->prog->vars; an instruction that names one is marked
    ** INSTR_VARREF when it is appended (varrefs: names seen since the last) */
    uint32_t    vars_cap, var_next; /* var_next: next free address in the window */
    uint32_t    varrefs;
    uint32_t    body_depth; /* braces open in the kernel body being read      */
    /* a call's .param declarations (in its braces): registers that st.param
    ** fills and ld.param reads, by virtual register */
    uint32_t   *callparams;
    uint32_t    ncallparams, callparams_cap;
    /* registers that hold a kernel parameter's address (mov.b64 %rd, param:
    ** CUB's structs by value), so that ld.param [%rd+d] reads that
    ** parameter; an entry goes when another instruction writes its register */
    PtxParamAddr *paddrs;
    uint32_t    npaddrs, paddrs_cap;
    uint32_t    carry_v;   /* the kernel's carry flag (CC.CF of add.cc, addc ...):
                              a virtual predicate, UINT32_MAX until first used */
    PtxAgg     *aggs;      /* those of them that are structs, and their fields */
    uint32_t    naggs, aggs_cap;
    PtxField   *fields;
    uint32_t    nfields, fields_cap;
    NameIndex   label_ix;
    NameIndex   kernel_ix; /* kernels by their .entry name, for 'defined twice' */
    char      **pnames;    /* parameter names as written                    */
    uint32_t    npnames, pnames_cap;
    PtxRef     *refs;
    uint32_t    nrefs, refs_cap;
    /* virtual registers: (range, index) -> id, and each one's class */
    uint64_t   *vmap_key;
    uint32_t   *vmap_val, vmap_cap, vmap_n;
    uint8_t    *vclass;
    uint32_t    nv, vclass_cap;
    uint32_t   *guard_v;   /* per instruction: the guard's virtual predicate */
    uint32_t    guard_cap;
    uint32_t   *uses;      /* peephole scratch                               */
    /* .loc in force, and whether an instruction is being read (its errors
    ** name the CUDA source line too) */
    uint16_t    loc_file;
    uint32_t    loc_line;
    uint16_t    loc_inl_file;  /* .loc's `inlined_at F L`: the call it was inlined into */
    uint32_t    loc_inl_line;  /*   (followed out to the outermost call)          */
    /* the last .loc lines that were themselves inlined, to follow a chain of
    ** inlining (a header function inlined into one inlined into the user's) */
    struct { uint16_t file, inl_file; uint32_t line, inl_line; } loc_seen[PTX_LOC_SEEN];
    uint32_t    loc_seen_next;
    bool        in_instr;
    bool        vector_open; /* inside an operand's {..}                    */
    /* device functions, and the calls of them being inlined */
    PtxFunc    *funcs;
    uint32_t    nfuncs, funcs_cap;
    uint32_t    inline_stack[PTX_INLINE_MAX_DEPTH]; /* the functions inlined, outermost first */
    uint32_t    inline_depth, inline_calls;
    PtxAlias   *aliases;   /* the open frames' parameters                   */
    uint32_t    naliases, aliases_cap, alias_base; /* base: the innermost frame's first */
    struct {               /* a call decoded, to inline once its ';' is read */
        bool     active;
        uint32_t func, ret_v, guard;
        bool     guard_neg;
        uint32_t args[PTX_FUNC_MAX_PARAMS];
        Tok      at;
    } call;
} Ptx;

/* isa/ptx.c */
bool        ptx_fail(Ptx *P, const Tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *ptx_quote(const Tok *t, char *buf, size_t cap);
const char *ptx_text(const Tok *t, char *buf, size_t cap);
void        ptx_next(Ptx *P);
bool        ptx_is(const Tok *t, const char *word);
bool        ptx_punct(const Tok *t, char c);
bool        ptx_expect(Ptx *P, char c, const char *context);
/* Marks in free: no issue slot of its own (folded into a neighbour by
** ptxas, or a move the register allocation makes vanish). */
static inline void ptx_set_free(Instr *in)
{
    in->slots = 0;
    in->lunit = in->llat = UNIT_ALU;
    in->iflags |= INSTR_COSTED;
}
bool        ptx_int(Ptx *P, const Tok *t, bool neg, int64_t *out);
bool        ptx_grow(Ptx *P, void **arr, uint32_t *cap, uint32_t need, size_t elem);
char       *ptx_dup_tok(const Tok *t);                  /* malloc'd, NUL-terminated; NULL when out of memory */
const char *ptx_sym_name(const void *ctx, uint32_t id);  /* names_* callback of P->sym_ix */
/* VREG_32 for the 8- to 32-bit types (.f16 .bf16 included), VREG_64 for the
** 64-bit ones, VREG_PRED for .pred; 0 for anything else. */
uint8_t     ptx_type_class(const Tok *t);
bool        ptx_reg(Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls);
/* Whether word t (no '%') names a single declared register: inline asm's
** scoped `.reg .pred p;`, a call's `.param` (a register here). */
bool        ptx_named_reg(Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls);
const PtxSym *ptx_sym(const Ptx *P, const Tok *t);
/* `.global` / `.const` ...;: a module variable (isa/ptx_vars.c). */
bool ptx_parse_module_var(Ptx *P);
/* The module variable t names (its index in P->prog->vars), or -1. */
int ptx_var(const Ptx *P, const Tok *t);

int         ptx_param_index(const Ptx *P, const Tok *t);
uint32_t    ptx_label_find(const Ptx *P, const char *name, size_t len);

/* The statements of a body up to its closing brace (P->body_depth open). */
bool ptx_parse_body(Ptx *P, Kernel *k);

/* isa/ptx_loc.c: `.loc F L C[, function_name ..., inlined_at F L C]` (P->tok
** is .loc) into P's current position; `.file N "name"` into
** P->prog->src_files; and the same for every .file line of a whole text,
** read ahead of the parse. */
bool ptx_parse_loc(Ptx *P);
bool ptx_parse_file_dir(Ptx *P);
void ptx_prescan_files(Program *pr, const char *text, size_t len);
/* isa/ptx_decode.c */
bool ptx_instruction(Ptx *P);     /* one statement at P->tok, through its ';' */
/* Whether virtual register v is a call's .param (a body-scope declaration). */
bool ptx_is_callparam(const Ptx *P, uint32_t v);
/* isa/ptx_lower.c */
void ptx_lower_peepholes(Ptx *P); /* the kernel's lowering beyond the table   */
/* isa/ptx_names.c */
/* The bare function name of a kernel (from the demangled signature when
** there is one, else from the Itanium name itself); false for a C name. */
bool ptx_bare_name(const char *mangled, const char *signature, char *buf, size_t cap);

/* ---- one instruction's operands and modifiers (isa/ptx_operands.c) */

typedef enum { PO_NONE, PO_REG, PO_IMM, PO_SPECIAL, PO_WORD, PO_MEM, PO_VEC, PO_PIPE } PoKind;

typedef struct {
    PoKind   kind;
    Tok      tok;
    uint32_t v, v2;       /* PO_REG: virtual register; PO_PIPE: d and p       */
    uint8_t  cls, cls2;
    bool     neg;         /* !%p                                             */
    bool     sink;        /* PO_PIPE: _|p, the first destination discarded   */
    bool     is_float;    /* PO_IMM: a float literal (fbits)                 */
    int64_t  ival;
    double   fval;
    uint32_t special;
    /* PO_MEM: [reg | symbol | param | number, + displacement] */
    bool     has_reg;
    int      param;       /* parameter index, or -1                          */
    const PtxSym *sym;
    int      var;         /* module variable index, or -1 (PO_MEM, PO_WORD)  */
    int64_t  disp;
    /* PO_VEC */
    uint32_t nelem;
    uint32_t ev[4];
    uint8_t  ecls[4];
    bool     eimm[4], efloat[4];
    int64_t  eival[4];
    double   efval[4];
    Tok      etok[4];
} POp;

/* A numeric literal (integers, 0f/0d bit patterns, decimal floats) into o. */
bool ptx_parse_number(Ptx *P, const Tok *t, bool neg, POp *o);

#define MAX_OPS (2 + PTX_FUNC_MAX_PARAMS) /* a call: its return value, its name, its arguments */

/* Mods.space beyond the MemSpaces: none written, or a space the front end
** does not take yet. */
enum { MODS_NO_SPACE = -1, MODS_LOCAL = -2, MODS_CONST = -3 };

/* Mods.vote: the vote modes (ptx_parse_mods spells them). */
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT, VOTE_MODES };

typedef struct {
    ValueType types[3];
    uint32_t  ntypes;
    int       space;      /* MemSpace, or MODS_NO_SPACE, MODS_LOCAL, MODS_CONST */
    uint32_t  vec;
    int       cmp, boolop, rnd, shfl, vote, atom, testp, prmt;
    int       cache_level; /* prefetch's .L1 / .L2 (1, 2), 0 when absent */
    bool      sat, ftz, approx, full, wide, lo, hi, uni, sync, nc, to, l, r, wrap, clamp, aligned, f16, nan, shiftamt, any, all, cc, red, popc;
    bool      i16x2, relu, accumulate; /* .u16x2/.s16x2 (types[]: the element), .relu, a video op's .add */
    bool      satfinite;
    /* a load L1 does not serve: .cg or .cv, .volatile (l2_only), or a
    ** strong one (.relaxed, .acquire) of gpu or system scope (.gpu, .sys):
    ** L1 is not coherent between SMs */
    bool      l2_only, strong, wide_scope;
    bool      cache_hint; /* .L2::cache_hint: a policy operand follows the others */
    int       f8;         /* .e4m3x2 (1) or .e5m2x2 (2): a pair of 8-bit floats,
                             types[] holding TYPE_B16 where it stands; 0: none */
} Mods;

/* Parses the operand at P->tok into *o and moves past it. */
bool ptx_parse_operand(Ptx *P, POp *o);

/* Splits the opcode token t into its head ("ld") and modifiers, each kind
** at most once ("setp.lt.gt" is an error). */
bool ptx_parse_mods(Ptx *P, const Tok *t, char *head, size_t hcap, Mods *m);

/* ---- isa/ptx_decode.c: building an instruction (the decoders' tools). Each
** fails with P's error at the operand or the opcode and returns false. */

/* "'X' is not supported yet by the PTX front end" at t. */
bool ptx_unsupported(Ptx *P, const Tok *t);
/* A virtual register class's name for messages ("a predicate"). */
const char *ptx_cls_name(uint8_t c);
/* Operand o as a register of class `want` into *out (`what` names it). */
bool ptx_want_reg(Ptx *P, const POp *o, uint8_t want, Operand *out, const char *what);
/* Operand o as a source (register, immediate, symbol) of 64 bits when w64,
** a float literal allowed when is_float (an f64's when both: its bits
** pooled as a 64-bit constant). */
bool ptx_want_src(Ptx *P, const POp *o, bool w64, bool is_float, Operand *out, const char *what);
/* A fresh virtual register of class cls into *v: a temporary, or a result
** that nothing reads (red's old value, an unused return value). */
bool ptx_fresh_reg(Ptx *P, const Tok *at, uint8_t cls, uint32_t *v);
/* The instruction op has between lo and hi operands. */
bool ptx_nops(Ptx *P, const Tok *op, uint32_t have, uint32_t lo, uint32_t hi);
/* Appends *in to the kernel, guarded by virtual predicate g (UINT32_MAX: none). */
bool ptx_emit(Ptx *P, Instr *in, uint32_t g);
/* *in as row op in its register form: a destination and the row's sources. */
bool ptx_reg_form(Ptx *P, const Tok *opt, Opcode op, const POp *ops, uint32_t n, Instr *in);
/* Records label operand o of instruction `instr`, resolved at the kernel's end. */
bool ptx_add_ref(Ptx *P, const POp *o, uint32_t instr);

static inline ValueType ptx_last_type(const Mods *m) { return m->ntypes ? m->types[m->ntypes - 1] : TYPE_NONE; }
static inline bool ptx_is32(ValueType t) { return t == TYPE_B32 || t == TYPE_U32 || t == TYPE_S32 || t == TYPE_F32; }
/* 64-bit values: a register pair (integers and f64). */
static inline bool ptx_is64(ValueType t) { return t == TYPE_B64 || t == TYPE_U64 || t == TYPE_S64 || t == TYPE_F64; }
static inline bool ptx_is_float(ValueType t) { return t == TYPE_F32 || t == TYPE_F64; }
static inline bool ptx_issub(ValueType t) { return type_bytes(t) == 1 || type_bytes(t) == 2; }

/* ---- isa/ptx_decode_ops.c: one decoder per instruction head, from the
** instruction's name (opt), head, modifiers and operands into *in, guard g. */
#define PTX_DECODER(name)                                                                                   \
    bool name(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, \
              uint32_t g)
PTX_DECODER(ptx_decode_ldst);       /* ld, ldu, st                  */
PTX_DECODER(ptx_decode_atom);       /* atom, red                    */
PTX_DECODER(ptx_decode_cvt);
PTX_DECODER(ptx_decode_setp);
PTX_DECODER(ptx_decode_mov);
PTX_DECODER(ptx_decode_cvta);
PTX_DECODER(ptx_decode_selp);
PTX_DECODER(ptx_decode_flow);       /* bra, ret, exit               */
PTX_DECODER(ptx_decode_bar);        /* bar, barrier, bar.warp.sync  */
PTX_DECODER(ptx_decode_membar);     /* membar, fence                */
PTX_DECODER(ptx_decode_prefetch);   /* prefetch, prefetchu          */
PTX_DECODER(ptx_decode_shfl);
PTX_DECODER(ptx_decode_vote);
PTX_DECODER(ptx_decode_activemask);
PTX_DECODER(ptx_decode_redux);
PTX_DECODER(ptx_decode_testp);
PTX_DECODER(ptx_decode_prmt);
PTX_DECODER(ptx_decode_shf);
PTX_DECODER(ptx_decode_slct);
PTX_DECODER(ptx_decode_match);      /* match.any.sync               */
PTX_DECODER(ptx_decode_dp4a);
PTX_DECODER(ptx_decode_nanosleep);
PTX_DECODER(ptx_decode_carry);
PTX_DECODER(ptx_decode_cvt_half2);
PTX_DECODER(ptx_decode_cvt_f8);
PTX_DECODER(ptx_decode_isspacep);
PTX_DECODER(ptx_decode_griddep);
PTX_DECODER(ptx_decode_l2_hint);
PTX_DECODER(ptx_decode_createpolicy);
PTX_DECODER(ptx_decode_elect);
PTX_DECODER(ptx_decode_bitfield_mode);
PTX_DECODER(ptx_decode_call);       /* call: vprintf only           */
/* The memory operand o of an access of `space` into in->src[0] + in->offset
** (a symbol's or variable's address folded in; INSTR_ADDR64 for a 64-bit
** register). */
bool ptx_mem_operand(Ptx *P, const POp *o, MemSpace space, Instr *in);

/* isa/ptx_decode_async.c: cp.async (the copies, commit_group, wait_group,
** wait_all, mbarrier.arrive) and mbarrier (init, inval, arrive,
** arrive_drop, test_wait, try_wait, pending_count). */
PTX_DECODER(ptx_decode_cp);
PTX_DECODER(ptx_decode_mbarrier);
/* isa/ptx_decode_tex.c: tex, tld4, suld, sust on texture and surface
** objects. Their heads; their operands, `[object, coordinates]` read as two
** (after the instruction's modifiers, through its ';'). */
bool ptx_is_tex_head(const char *head);
bool ptx_read_tex_operands(Ptx *P, const Tok *opt, POp *ops, uint32_t *nops_out);
PTX_DECODER(ptx_decode_tex);

/* isa/ptx_decode_simd.c: SIMD within a register: packed 16-bit integer
** add/sub/min/max (.u16x2 .s16x2, .relu), min/max.relu.s32, and the video
** instructions vadd vsub vabsdiff vmin vmax (2 and 4 elements). */
PTX_DECODER(ptx_decode_simd16);
PTX_DECODER(ptx_decode_video);

/* An instruction made in place of, or beside, `from` keeps its place: PTX
** line and column, and the CUDA line with the call it was inlined at. */
static inline void ptx_copy_place(Instr *to, const Instr *from)
{
    to->line = from->line, to->col = from->col;
    to->src_file = from->src_file, to->src_line = from->src_line;
    to->call_file = from->call_file, to->call_line = from->call_line;
}

/* isa/ptx_decode16.c: 16-bit integer arithmetic on the 32-bit rows. */
bool ptx_is16(ValueType t); /* .s16 .u16 .b16 */
PTX_DECODER(ptx_decode_int16);
/* Whether head with modifiers m is half-precision arithmetic (.f16 .bf16,
** and the x2 pairs: Mods.f16), and its decoder onto the OP_HALF_* rows. */
bool ptx_is_half_arith(const char *head, const Mods *m);
PTX_DECODER(ptx_decode_half);
/* Operand o of a 16-bit operation read as type t into *out: a register
** extended into a fresh one (a free cvt placed and guarded as `like`, guard
** g), an immediate cut to 16 bits and extended; others as they are. */
bool ptx_extend16(Ptx *P, const Instr *like, const POp *o, ValueType t, POp *out, uint32_t g);
/* Emits d = cvt.to.from s, an integer extension (free: 0 slots), at the
** place and under the guard of instruction `like` (guard g). */
bool ptx_emit_extend(Ptx *P, const Instr *like, uint32_t d, uint32_t s, ValueType to, ValueType from, uint32_t g);
/* isa/ptx_decode.c: the row of a plain arithmetic instruction, or OP_COUNT. */
Opcode ptx_arith_row(const char *head, const Mods *m);

/* isa/ptx_func.c: device functions. */
void ptx_mark(const Ptx *P, PtxMark *m);
void ptx_seek(Ptx *P, const PtxMark *m);
/* Reads every .func header of the input ahead of the parse (P at its
** first token; left there). Errors are left for the parse to meet. */
void ptx_func_prescan(Ptx *P);
/* A .func at the top level (P->tok), read again and passed over. */
bool ptx_func_skip(Ptx *P);
/* The call of a device function in ops (read_call's form) under guard g:
** checked, and left in P->call for ptx_func_inline. */
bool ptx_func_call(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, uint32_t g, bool guard_neg);
/* A call through a register (ops[1]: `call (ret), %rd, (args), prototype;`,
** CUDA's function pointers): every device function of the file whose
** address is taken and that takes these arguments is inlined under the
** guard that the register holds its address, and a trap under none. in:
** the call's instruction (its place). */
bool ptx_func_call_indirect(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, const Instr *in, uint32_t g);
/* A device function's address (ISA_CODE_WINDOW) when t names one. */
bool ptx_func_address(const Ptx *P, const Tok *t, uint32_t *addr);
/* A runtime call's return value (printf's, malloc's) as dst: the register
** the call names, or a fresh one of class cls when it takes none. */
bool ptx_call_result(Ptx *P, const Tok *opt, const POp *ret, uint8_t cls, Operand *dst);
/* Whether the call's callee t is the device heap's malloc, free or
** __cuda_syscall_aligned_malloc (declared, not defined, in the file), and
** that call made one MALLOC or FREE instruction from in. */
bool ptx_func_is_heap(const Ptx *P, const Tok *t);
bool ptx_func_heap_call(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, Instr *in, uint32_t g);
/* Inlines P->call's function at the current instruction. */
bool ptx_func_inline(Ptx *P);
/* The register an inlined body's parameter name t stands for. */
bool ptx_func_alias(const Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls);
/* A call's parameter declared: a struct of `bytes` (again: its fields
** start anew), or a scalar (bytes 0). */
bool ptx_func_agg_open(Ptx *P, uint32_t v, uint32_t bytes);
bool ptx_func_is_agg(const Ptx *P, uint32_t v);
/* st.param / ld.param of a struct parameter's field(s) at addr: moves into
** or out of the fields' registers, free. */
bool ptx_func_agg_move(Ptx *P, const Tok *opt, const Mods *m, bool store, const POp *addr, const POp *val, Instr *in,
                       uint32_t g);
/* The label an inlined body's `ret` branches to. */
extern const char PTX_RET_LABEL[];
void ptx_funcs_free(Ptx *P);


#endif
