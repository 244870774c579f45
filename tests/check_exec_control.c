/* tests/check_exec_control.c -- the executor (isa/exec.h) where lanes meet:
** atomics under contention, every row's memory space, shuffles and
** ballots, faults, and the SIMT stack (divergence, reconvergence, loops,
** exits, barriers); check_exec has the lanes one by one. Each test drives
** one warp with exec_step on a small ExecBlock (tests/exec_rig.h).        */
#include "isa/exec.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/exec_rig.h"

/* ------------------------------------------------------------- atomics */

static const struct {
    const char *mn;
    AtomOp      op;
    int         kind; /* 0 u32, 1 s32, 2 f32 */
    bool        shared;
} atom_rows[] = {
    { "atom.global.add.u32", ATOM_ADD, 0, false },  { "atom.global.min.u32", ATOM_MIN, 0, false },
    { "atom.global.max.u32", ATOM_MAX, 0, false },  { "atom.global.exch.u32", ATOM_EXCH, 0, false },
    { "atom.global.cas.u32", ATOM_CAS, 0, false },  { "atom.global.add.s32", ATOM_ADD, 1, false },
    { "atom.global.min.s32", ATOM_MIN, 1, false },  { "atom.global.max.s32", ATOM_MAX, 1, false },
    { "atom.global.add.f32", ATOM_ADD, 2, false },  { "atom.global.exch.f32", ATOM_EXCH, 2, false },
    { "atom.shared.add.u32", ATOM_ADD, 0, true },   { "atom.shared.min.u32", ATOM_MIN, 0, true },
    { "atom.shared.max.u32", ATOM_MAX, 0, true },   { "atom.shared.exch.u32", ATOM_EXCH, 0, true },
    { "atom.shared.cas.u32", ATOM_CAS, 0, true },   { "atom.shared.add.s32", ATOM_ADD, 1, true },
    { "atom.shared.min.s32", ATOM_MIN, 1, true },   { "atom.shared.max.s32", ATOM_MAX, 1, true },
    { "atom.shared.add.f32", ATOM_ADD, 2, true },   { "atom.shared.exch.f32", ATOM_EXCH, 2, true },
};

/* The serial result: lanes in ascending order, each on the value the
** previous one left. */
static uint32_t atom_ref(AtomOp op, int kind, uint32_t old, uint32_t b, uint32_t c)
{
    switch (op) {
    case ATOM_ADD: return kind == 2 ? f2u(u2f(old) + u2f(b)) : old + b;
    case ATOM_MIN: return kind == 1 ? (I(b) < I(old) ? b : old) : (b < old ? b : old);
    case ATOM_MAX: return kind == 1 ? (I(b) > I(old) ? b : old) : (b > old ? b : old);
    case ATOM_EXCH: return b;
    case ATOM_CAS: return old == b ? c : old;
    default: return old;
    }
}

START_TEST(test_atomics)
{
    /* Three address patterns: all lanes on one word (full contention), four
    ** words (lane % 4), one word per lane; lanes with %p0 false sit out. */
    char src[512];
    snprintf(src, sizeof src,
             ".kernel t\n.param .ptr buf\n.shared pad 16\n.shared words 128\n"
             "    ld.param.u32 %%r0, [buf]\n"
             "    %s\n"
             "    @%%p0 %s %%r5, [%%r1%s], %%r2%s\n"
             "    exit\n",
             atom_rows[_i].shared ? "mov.u32 %r0, 0" : "add.u32 %r0, %r0, 0",
             atom_rows[_i].mn, atom_rows[_i].shared ? "+words" : "", atom_rows[_i].op == ATOM_CAS ? ", %r3" : "");
    const uint32_t init_u[4] = { 1000, 0x80000000u, 7, 0xfffffff0u };
    uint32_t swaps = 0;
    for (int pattern = 0; pattern < 3; pattern++) {
        Rig *r = rig_new(src, 32, 0);
        Diag d;
        uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
        r->params[0] = buf;
        uint32_t mem[32], b[32], c[32];
        for (uint32_t i = 0; i < 32; i++)
            mem[i] = atom_rows[_i].kind == 2 ? f2u(0.1f * (float)i - 1.0f) : init_u[i % 4] + i / 4;
        uint32_t *words = atom_rows[_i].shared ? (uint32_t *)(r->smem + 16) : host(r, buf, 128);
        memcpy(words, mem, sizeof mem);
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t word = pattern == 0 ? 0 : pattern == 1 ? l % 4 : l;
            r->regs[1][l] = (atom_rows[_i].shared ? 0 : buf) + 4 * word;
            if (atom_rows[_i].kind == 2) b[l] = f2u(0.3f * (float)l - 2.0f);
            else if (atom_rows[_i].kind == 1) b[l] = (uint32_t)((int32_t)(l * 37 % 50) - 25);
            else b[l] = l * 0x0800001u + 3;
            c[l] = 5000 + l;
            if (atom_rows[_i].op == ATOM_CAS) /* odd lanes expect the previous lane's swap, even the initial value */
                b[l] = (l % 2) ? 5000 + l - 1 : mem[pattern == 0 ? 0 : pattern == 1 ? l % 4 : l];
            r->regs[2][l] = b[l], r->regs[3][l] = c[l], r->regs[5][l] = 0xdeadbeefu;
        }
        r->w.pred[0] = 0xfbff7ffeu; /* lanes 0, 15 and 26 sit out */
        rig_run(r);
        uint32_t old[32];
        for (uint32_t l = 0; l < 32; l++) {
            if (!(r->w.pred[0] >> l & 1)) {
                old[l] = 0xdeadbeefu;
                continue;
            }
            uint32_t word = (r->regs[1][l] - (atom_rows[_i].shared ? 0 : buf)) / 4;
            old[l] = mem[word];
            mem[word] = atom_ref(atom_rows[_i].op, atom_rows[_i].kind, mem[word], b[l], c[l]);
            swaps += mem[word] != old[l];
        }

        for (uint32_t l = 0; l < 32; l++)
            ck_assert_msg(r->regs[5][l] == old[l], "%s pattern %d lane %u received 0x%08x, expected 0x%08x",
                          atom_rows[_i].mn, pattern, l, r->regs[5][l], old[l]);
        for (uint32_t i = 0; i < 32; i++)
            ck_assert_msg(words[i] == mem[i], "%s pattern %d word %u = 0x%08x, expected 0x%08x", atom_rows[_i].mn,
                          pattern, i, words[i], mem[i]);
        rig_free(r);
    }
    ck_assert_uint_gt(swaps, 1); /* the values do make the operation change memory */
}
END_TEST

/* Every load, store and atomic row reaches the memory its space column
** names, which its mnemonic names too, and a fault report points into a
** buffer only for global rows: address 0 is in the block's shared memory
** and in no global buffer, address 2 is misaligned in both. */
START_TEST(test_memory_space_of_every_row)
{
    uint32_t rows = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *info = &OP_INFO[op];
        if (info->space != SPACE_GLOBAL && info->space != SPACE_SHARED) continue;
        if (info->flags & OPF_PTX) continue; /* PTX rows: tests/check_ptx.c */
        bool global = info->space == SPACE_GLOBAL;
        ck_assert_msg((strstr(info->mnemonic, ".global") != NULL) == global &&
                          (strstr(info->mnemonic, ".shared") != NULL) == !global,
                      "%s: the mnemonic names another space than the row", info->mnemonic);
        Instr in = { .op = (uint8_t)op, .vec = 1, .type = (uint8_t)opcode_value_type((Opcode)op, TYPE_NONE),
                     .mod = (uint8_t)(info->atoms ? __builtin_ctz(info->atoms) : 0) };
        char mn[64], src[256];
        disasm_mnemonic(&in, mn, sizeof mn);
        for (uint32_t offset = 0; offset <= 2; offset += 2) {
            const char *form = info->format == FMT_LD ? "%s %%r1, [%%r2+%u]"
                             : info->format == FMT_ST ? "%s [%%r2+%u], %%r1" : "%s %%r1, [%%r2+%u], %%r3";
            char line[96];
            snprintf(line, sizeof line, form, mn, offset);
            snprintf(src, sizeof src, ".kernel t\n    %s\n    exit\n", line);
            Rig *r = rig_new(src, 32, 0);
            Diag d;
            uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
            ck_assert_uint_ne(buf, 0);
            if (offset == 0 && !global) {
                rig_step(r);
                ck_assert_uint_eq(r->out.width, 4);
            } else {
                ExecFault f = rig_fault(r);
                ck_assert_msg(f.kind == (offset ? FAULT_MISALIGNED : FAULT_GLOBAL_OOB), "%s: %s", line,
                              exec_fault_name(f.kind));
                char msg[1024];
                uint32_t ctaid[3] = { 0, 0, 0 }, ntid[3] = { 32, 1, 1 };
                grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &f, ctaid, ntid, 0, msg, sizeof msg);
                ck_assert_msg((strstr(msg, "before buffer 'buf'") != NULL) == global, "%s: %s", line, msg);
            }
            rig_free(r);
        }
        rows++;
    }
    ck_assert_uint_ge(rows, 10);
}
END_TEST

START_TEST(test_atomic_counter)
{
    /* The classic ticket counter: 32 lanes add 1 to one word and receive
    ** 0..31 in lane order; cas chains in lane order. */
    Rig *r = rig_new(".kernel t\n.shared ctr 8\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    atom.shared.add.u32 %r2, [ctr], 1\n"
                     "    add.u32 %r3, %r1, 1\n"
                     "    atom.shared.cas.u32 %r4, [ctr+4], %r1, %r3\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t ctr[2];
    memcpy(ctr, r->smem, 8);
    ck_assert_uint_eq(ctr[0], 32);
    ck_assert_uint_eq(ctr[1], 32);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[2][l], l);
        ck_assert_uint_eq(r->regs[4][l], l);
    }
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------- warp-level */

/* Shuffle cases: mode, b (or -1: b = 31 - lane from a register), segment
** width, and whether c comes from a register. */
static const struct {
    ShflMode mode;
    int      b;
    uint32_t width;
    bool     c_reg;
} shfl_rows[] = {
    { SHFL_IDX, 0, 32, false },   { SHFL_IDX, 5, 32, false },  { SHFL_IDX, 31, 32, false }, { SHFL_IDX, 37, 32, false },
    { SHFL_IDX, 3, 16, false },   { SHFL_IDX, 9, 8, false },   { SHFL_IDX, -1, 32, false }, { SHFL_IDX, -1, 4, true },
    { SHFL_UP, 1, 32, false },    { SHFL_UP, 5, 32, false },   { SHFL_UP, 16, 32, false },  { SHFL_UP, 1, 8, false },
    { SHFL_UP, 3, 4, true },      { SHFL_DOWN, 1, 32, false }, { SHFL_DOWN, 16, 32, false }, { SHFL_DOWN, 2, 4, false },
    { SHFL_DOWN, 7, 16, true },   { SHFL_BFLY, 1, 32, false }, { SHFL_BFLY, 16, 32, false }, { SHFL_BFLY, 31, 32, false },
    { SHFL_BFLY, 4, 8, false },   { SHFL_BFLY, 3, 4, true },   { SHFL_DOWN, 0, 32, false },  { SHFL_UP, 32, 32, false },
};

/* Source lane of lane l by segments of w lanes, as CUDA's __shfl_*_sync
** describe it; a source outside the segment means "keep your own". */
static uint32_t shfl_source(ShflMode m, uint32_t l, uint32_t b, uint32_t w)
{
    uint32_t start = l & ~(w - 1), end = start + w - 1;
    b &= 31;
    switch (m) {
    case SHFL_IDX: return start + b % w;
    case SHFL_UP: return l >= start + b ? l - b : l;
    case SHFL_DOWN: return l + b <= end ? l + b : l;
    case SHFL_BFLY: return (l ^ b) <= end ? (l ^ b) : l;
    default: return l;
    }
}

START_TEST(test_shfl)
{
    ShflMode m = shfl_rows[_i].mode;
    uint32_t w = shfl_rows[_i].width;
    uint32_t c = ((32 - w) << 8) | (m == SHFL_UP ? 0 : 31);
    char bop[16], cop[16], src[256];
    if (shfl_rows[_i].b < 0) snprintf(bop, sizeof bop, "%%r2");
    else snprintf(bop, sizeof bop, "%d", shfl_rows[_i].b);
    if (shfl_rows[_i].c_reg) snprintf(cop, sizeof cop, "%%r3");
    else snprintf(cop, sizeof cop, "%u", c);
    snprintf(src, sizeof src, ".kernel t\n    shfl.sync.%s.b32 %%r0, %%r1, %s, %s, 0xffffffff\n    exit\n",
             SHFL_NAMES[m], bop, cop);
    Rig *r = rig_new(src, 32, 0);
    for (uint32_t l = 0; l < 32; l++) r->regs[1][l] = 100 + l, r->regs[2][l] = 31 - l, r->regs[3][l] = c;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t b = shfl_rows[_i].b < 0 ? 31 - l : (uint32_t)shfl_rows[_i].b;
        uint32_t want = 100 + shfl_source(m, l, b, w);
        ck_assert_msg(r->regs[0][l] == want, "%s: lane %u got %u, expected %u", src + 14, l, r->regs[0][l], want);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_shfl_defaults_and_masks)
{
    /* c left out: the whole warp (up: clamp 0); under a guard the inactive
    ** lanes keep their destination but can still be read. */
    Rig *r = rig_new(".kernel t\n"
                     "    shfl.sync.up.b32 %r4, %r1, 1\n"
                     "    shfl.sync.down.b32 %r5, %r1, 1\n"
                     "    @%p0 shfl.sync.bfly.b32 %r6, %r1, 1\n"
                     "    shfl.sync.bfly.b32 %r7, %r1, 20, 0x101f\n" /* b >= w: PTX reads a lower segment */
                     "    exit\n", 32, 0);
    for (uint32_t l = 0; l < 32; l++) r->regs[1][l] = 100 + l, r->regs[6][l] = 7;
    r->w.pred[0] = 0x0000ffffu;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[4][l], 100 + (l ? l - 1 : 0));
        ck_assert_uint_eq(r->regs[5][l], 100 + (l < 31 ? l + 1 : 31));
        ck_assert_uint_eq(r->regs[6][l], l < 16 ? 100 + (l ^ 1) : 7);
        uint32_t j = l ^ 20, max_lane = (l & 16) | 15; /* PTX: j <= maxLane */
        ck_assert_uint_eq(r->regs[7][l], 100 + (j <= max_lane ? j : l));
    }
    ck_assert_uint_eq(r->regs[7][20], 100); /* lane 20 reads lane 0 */
    ck_assert_uint_eq(r->regs[7][4], 104);  /* lane 4 would read lane 16: above its segment, keeps its own */
    rig_free(r);
}
END_TEST

START_TEST(test_warp_sum)
{
    /* The reduction of isa/ISA.md: after offsets 16..1 lane 0 holds the sum. */
    Rig *r = rig_new(".kernel t\n"
                     "    shfl.sync.down.b32 %r8, %r7, 16\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 8\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 4\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 2\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 1\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.idx.b32 %r9, %r7, 0\n    exit\n", 32, 0);
    uint32_t sum = 0;
    for (uint32_t l = 0; l < 32; l++) r->regs[7][l] = l * l + 3, sum += l * l + 3;
    rig_run(r);
    ck_assert_uint_eq(r->regs[7][0], sum);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], sum); /* broadcast */
    rig_free(r);
}
END_TEST

START_TEST(test_vote_ballot)
{
    Rig *r = rig_new(".kernel t\n"
                     "    vote.sync.ballot.b32 %r1, %p0\n"
                     "    vote.sync.ballot.b32 %r2, !%p0\n"
                     "    @%p1 vote.sync.ballot.b32 %r3, %p0\n"
                     "    @%p1 bra ODD\n"
                     "    vote.sync.ballot.b32 %r4, %p0\n" /* inside a divergent path */
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    vote.sync.ballot.b32 %r4, %p0\n"
                     "JOIN:\n"
                     "    exit\n", 32, 0);
    uint32_t p0 = 0x12345678u, p1 = 0xaaaaaaaau;
    r->w.pred[0] = p0, r->w.pred[1] = p1;
    for (uint32_t l = 0; l < 32; l++) r->regs[3][l] = 9;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[1][l], p0);
        ck_assert_uint_eq(r->regs[2][l], ~p0);
        ck_assert_uint_eq(r->regs[3][l], (p1 >> l & 1) ? (p0 & p1) : 9);
        ck_assert_uint_eq(r->regs[4][l], (p1 >> l & 1) ? (p0 & p1) : (p0 & ~p1));
    }
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------- faults */

START_TEST(test_fault_global_oob)
{
    /* Lanes read buf[lane + 2] of a 32-word buffer: lane 30 is the first
    ** past the end; the report names the nearest buffer and the offset. */
    Rig *r = rig_new(".kernel t\n.param .ptr buf\n"
                     "    ld.param.u32 %r0, [buf]\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    shl.b32 %r1, %r1, 2\n"
                     "    add.u32 %r1, %r1, %r0\n"
                     "    @%p0 ld.global.u32 %r2, [%r1+8]\n"
                     "    exit\n", 32, 0);
    Diag d;
    uint32_t a = gmem_alloc(r->gmem, 64, "a", &d);
    uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
    ck_assert_uint_eq(a, GMEM_BASE);
    ck_assert_uint_ge(buf, a + 64 + GMEM_GAP);
    r->params[0] = buf;
    r->w.pred[0] = 0x3fffffffu; /* lanes 30 and 31 inactive: no fault */
    rig_run(r);
    rig_restart(r);
    r->w.pred[0] = ALL;
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_GLOBAL_OOB);
    ck_assert_uint_eq(f.pc, 4);
    ck_assert_uint_eq(f.lane, 30);
    ck_assert_uint_eq(f.addr, buf + 128);
    ck_assert_uint_eq(f.size, 4);
    char msg[1024];
    uint32_t ctaid[3] = { 2, 0, 0 }, ntid[3] = { 64, 1, 1 };
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &f, ctaid, ntid, 1, msg, sizeof msg);
    char expect[1024];
    snprintf(expect, sizeof expect,
             "t.asm:7:5: out-of-bounds global access of 4 bytes at address 0x%x (0 bytes after the end of buffer "
             "'buf' of 128 bytes at 0x%x)\n"
             "    in kernel 't' at pc 4: @%%p0 ld.global.u32 %%r2, [%%r1+8]\n"
             "    by thread (62,0,0) of block (2,0,0) (warp 1, lane 30)",
             buf + 128, buf);
    ck_assert_str_eq(msg, expect);
    /* before a buffer, between two, and the null page */
    ExecFault g = f;
    g.addr = buf - 8;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "(8 bytes before buffer 'buf' of 128 bytes") != NULL, "%s", msg);
    g.addr = a + 64 + 4;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "(4 bytes after the end of buffer 'a' of 64 bytes") != NULL, "%s", msg);
    g.addr = 0;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "at address 0x0 (65536 bytes before buffer 'a'") != NULL, "%s", msg);
    rig_free(r);
}
END_TEST

START_TEST(test_fault_shared_oob)
{
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.eq.u32 %p0, %r1, 5\n"
                     "    ld.shared.u32 %r2, [252]\n"
                     "    @%p0 ld.shared.v2.u32 {%r2, %r3}, [248]\n"
                     "    @%p0 st.shared.v2.u32 [252], {%r2, %r3}\n"
                     "    exit\n", 32, 0);
    r->b.smem_size = 256;
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED); /* 252 is not 8-byte aligned: checked first */
    ck_assert_uint_eq(f.pc, 4);
    rig_free(r);
    r = rig_new(".kernel t\n"
                "    mov.u32 %r1, %laneid\n"
                "    shl.b32 %r1, %r1, 3\n"
                "    ld.shared.v2.u32 {%r2, %r3}, [%r1+8]\n"
                "    exit\n", 32, 0);
    r->b.smem_size = 256;
    f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_SHARED_OOB);
    ck_assert_uint_eq(f.lane, 31);
    ck_assert_uint_eq(f.addr, 256);
    ck_assert_uint_eq(f.size, 8);
    char msg[1024];
    uint32_t ctaid[3] = { 0, 0, 0 }, ntid[3] = { 32, 1, 1 };
    grid_describe_fault(r->b.kernel, "s.asm", r->gmem, &f, ctaid, ntid, 0, msg, sizeof msg);
    const char *head = "s.asm:4:5: out-of-bounds shared access of 8 bytes at address 0x100\n";
    ck_assert_msg(strncmp(msg, head, strlen(head)) == 0, "%s", msg);
    rig_free(r);
}
END_TEST

static const struct {
    const char *access;
    uint32_t    offset, size;
} misaligned[] = {
    { "ld.global.v4.f32 {%r4, %r5, %r6, %r7}, [%r1+8]", 8, 16 },
    { "st.global.v2.f32 [%r1+4], {%r4, %r5}", 4, 8 },
    { "ld.global.u32 %r4, [%r1+2]", 2, 4 },
    { "atom.global.add.u32 %r4, [%r1+1], 1", 1, 4 },
};

START_TEST(test_fault_misaligned)
{
    char src[256];
    snprintf(src, sizeof src, ".kernel t\n.param .ptr buf\n    ld.param.u32 %%r1, [buf]\n    %s\n    exit\n",
             misaligned[_i].access);
    Rig *r = rig_new(src, 32, 0);
    Diag d;
    r->params[0] = gmem_alloc(r->gmem, 256, "buf", &d);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED);
    ck_assert_uint_eq(f.lane, 0);
    ck_assert_uint_eq(f.addr, r->params[0] + misaligned[_i].offset);
    ck_assert_uint_eq(f.size, misaligned[_i].size);
    ck_assert_str_eq(exec_fault_name(f.kind), "misaligned access");
    rig_free(r);
}
END_TEST

/* A full warp whose one misaligned lane is not the first: the fault names
** that lane (every lane's low bits are tested together first). */
START_TEST(test_fault_misaligned_names_the_lane)
{
    Rig *r = rig_new(".kernel t\n.param .ptr buf\n"
                     "    ld.param.u32 %r2, [buf]\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.eq.u32 %p0, %r1, 7\n"
                     "    shl.b32 %r1, %r1, 2\n"
                     "    @%p0 add.u32 %r1, %r1, 2\n"
                     "    add.u32 %r1, %r1, %r2\n"
                     "    ld.global.u32 %r4, [%r1]\n"
                     "    exit\n", 32, 0);
    Diag d;
    r->params[0] = gmem_alloc(r->gmem, 256, "buf", &d);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED);
    ck_assert_uint_eq(f.pc, 6);
    ck_assert_uint_eq(f.lane, 7);
    ck_assert_uint_eq(f.addr, r->params[0] + 30);
    rig_free(r);
}
END_TEST

START_TEST(test_fault_uniform_diverged)
{
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.ge.u32 %p0, %r1, 100\n"
                     "    @%p0 bra.uni SKIP\n"     /* no lane: falls through */
                     "    setp.lt.u32 %p0, %r1, 100\n"
                     "    @%p0 bra.uni SKIP\n"     /* every lane: jumps */
                     "    mov.u32 %r9, 1\n"
                     "SKIP:\n"
                     "    and.b32 %r2, %r1, 1\n"
                     "    setp.eq.u32 %p1, %r2, 1\n"
                     "    @%p1 bra.uni END\n"     /* odd lanes only: fault */
                     "END:\n"
                     "    exit\n", 32, 0);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_UNIFORM_DIVERGED);
    ck_assert_uint_eq(f.pc, 8);
    ck_assert_uint_eq(f.lane, 1);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], 0);
    rig_free(r);
}
END_TEST

START_TEST(test_deepest_divergence_fits)
{
    /* Nested divergent ifs, each splitting off one more lane: the stack
    ** grows by two entries per level; a warp's 32 lanes can split 31
    ** times, which SIMT_MAX_DEPTH holds (FAULT_STACK_OVERFLOW stays a
    ** guard). */
    char *src = malloc(16384);
    size_t n = (size_t)sprintf(src, ".kernel t\n    mov.u32 %%r1, %%laneid\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)sprintf(src + n, "    setp.gt.u32 %%p0, %%r1, %d\n    @%%p0 bra IN%d\n    add.u32 %%r2, %%r2, 1\nIN%d:\n",
                             i, i, i);
    n += (size_t)sprintf(src + n, "    add.u32 %%r3, %%r3, 1\n");
    for (int i = 0; i < 20; i++) n += (size_t)sprintf(src + n, "    add.u32 %%r4, %%r4, %d\n", i);
    sprintf(src + n, "    exit\n");
    /* 20 ifs in a row, each reconverging before the next: the stack stays
    ** shallow however many there are. */
    Rig *r = rig_new(src, 32, 0);
    rig_run(r);
    ck_assert_uint_le(r->max_depth, 3);
    rig_free(r);

    /* 31 if/else nested in the taken side, closing in reverse order. */
    n = (size_t)sprintf(src, ".kernel t\n    mov.u32 %%r1, %%laneid\n");
    for (int i = 0; i < 31; i++)
        n += (size_t)sprintf(src + n, "    setp.gt.u32 %%p0, %%r1, %d\n    @%%p0 bra IN%d\n    add.u32 %%r2, %%r2, 1\n"
                                      "    bra OUT%d\nIN%d:\n", i, i, i, i);
    for (int i = 31; i-- > 0;) n += (size_t)sprintf(src + n, "OUT%d:\n    add.u32 %%r4, %%r4, %d\n", i, i);
    sprintf(src + n, "    exit\n");
    r = rig_new(src, 32, 0);
    rig_run(r);
    ck_assert_uint_gt(r->max_depth, 31);
    ck_assert_uint_le(r->max_depth, SIMT_MAX_DEPTH);
    ck_assert_str_eq(exec_fault_name(FAULT_STACK_OVERFLOW), "divergence nested too deeply");
    rig_free(r);
    free(src);
}
END_TEST

/* ------------------------------------------------------------ SIMT stack */

static const char *const EVEN_ODD =
    ".kernel t\n"
    "    mov.u32 %r0, %laneid\n"
    "    and.b32 %r1, %r0, 1\n"
    "    setp.eq.u32 %p0, %r1, 1\n"
    "    @%p0 bra ODD\n"
    "EVEN:\n"
    "    mov.u32 %r2, 10\n"
    "    add.u32 %r2, %r2, %r0\n"
    "    bra JOIN\n"
    "ODD:\n"
    "    mov.u32 %r2, 20\n"
    "JOIN:\n"
    "    add.u32 %r3, %r2, 1\n"
    "    exit\n";

START_TEST(test_simt_even_odd)
{
    Rig *r = rig_new(EVEN_ODD, 32, 0);
    uint32_t issued = rig_run(r);
    uint32_t even = label_pc(r, "EVEN"), odd = label_pc(r, "ODD"), join = label_pc(r, "JOIN"), masks;
    ck_assert_uint_eq(r->b.kernel->code[3].reconv, join);
    /* both paths issued, each once, under complementary masks */
    ck_assert_uint_eq(issues_at(r, even, &masks), 1);
    ck_assert_uint_eq(masks, 0x55555555u);
    ck_assert_uint_eq(issues_at(r, odd, &masks), 1);
    ck_assert_uint_eq(masks, 0xaaaaaaaau);
    ck_assert_uint_eq(issues_at(r, join, &masks), 1);
    ck_assert_uint_eq(masks, ALL);
    ck_assert_uint_eq(issued, 4 + 3 + 1 + 2);
    /* the taken path runs first */
    ck_assert_uint_eq(r->trace[4].pc, odd);
    ck_assert_uint_eq(r->trace[5].pc, even);
    ck_assert_uint_eq(r->max_depth, 3);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[3][l], (l & 1) ? 21 : 11 + l);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_diverged_flag)
{
    Rig *r = rig_new(EVEN_ODD, 32, 0);
    for (int i = 0; i < 3; i++) rig_step(r);
    ck_assert(!r->out.diverged);
    rig_step(r);
    ck_assert(r->out.diverged);
    ck_assert_uint_eq(r->out.exec_mask, 0xaaaaaaaau);
    ck_assert_uint_eq(exec_pc(&r->w), label_pc(r, "ODD"));
    rig_free(r);
}
END_TEST

/* The even/odd kernel with a condition every lane agrees on. */
static const char *const UNIFORM_CMP[] = { "lt", "gt" };

START_TEST(test_simt_uniform_branch)
{
    /* All lanes agree: no split, the other path is never issued. */
    char src[512];
    snprintf(src, sizeof src,
             ".kernel t\n"
             "    mov.u32 %%r0, %%laneid\n"
             "    setp.%s.u32 %%p0, %%r0, 32\n" /* lt: every lane; gt: none */
             "    @%%p0 bra ODD\n"
             "EVEN:\n"
             "    mov.u32 %%r2, 10\n"
             "    bra JOIN\n"
             "ODD:\n"
             "    mov.u32 %%r2, 20\n"
             "JOIN:\n"
             "    exit\n", UNIFORM_CMP[_i]);
    Rig *r = rig_new(src, 32, 0);
    uint32_t issued = rig_run(r);
    bool taken = _i == 0;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "ODD"), NULL), taken);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EVEN"), NULL), !taken);
    ck_assert_uint_eq(r->max_depth, 1);
    ck_assert_uint_eq(issued, taken ? 5 : 6);
    for (uint32_t i = 0; i < r->nsteps; i++) ck_assert_uint_eq(r->trace[i].active, ALL);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[2][l], taken ? 20 : 10);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_nested)
{
    /* if (bit0) { if (bit1) A else B } else { if (bit2) C } ; join */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.ne.u32 %p0, %r1, 0\n"
                     "    and.b32 %r1, %r0, 2\n"
                     "    setp.ne.u32 %p1, %r1, 0\n"
                     "    and.b32 %r1, %r0, 4\n"
                     "    setp.ne.u32 %p2, %r1, 0\n"
                     "    @!%p0 bra ELSE0\n"
                     "    @!%p1 bra B\n"
                     "A:  mov.u32 %r2, 1\n"
                     "    bra J1\n"
                     "B:  mov.u32 %r2, 2\n"
                     "J1: add.u32 %r2, %r2, 10\n"
                     "    bra J0\n"
                     "ELSE0:\n"
                     "    @!%p2 bra J0\n"
                     "C:  mov.u32 %r2, 3\n"
                     "J0: add.u32 %r3, %r2, 100\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "A"), &m), 1);
    ck_assert_uint_eq(m, 0x88888888u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "B"), &m), 1);
    ck_assert_uint_eq(m, 0x22222222u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "J1"), &m), 1);
    ck_assert_uint_eq(m, 0xaaaaaaaau);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "C"), &m), 1);
    ck_assert_uint_eq(m, 0x50505050u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "J0"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 5);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = (l & 1) ? ((l & 2) ? 111 : 112) : ((l & 4) ? 103 : 100);
        ck_assert_uint_eq(r->regs[3][l], want);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_divergent_loop)
{
    /* Lane i loops i times: results right, the body issued 31 times under
    ** shrinking masks, and the stack stays flat. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    mov.u32 %r1, 0\n"
                     "    mov.u32 %r2, 0\n"
                     "TOP:\n"
                     "    setp.ge.u32 %p0, %r1, %r0\n"
                     "    @%p0 bra DONE\n"
                     "BODY:\n"
                     "    add.u32 %r2, %r2, %r1\n"
                     "    add.u32 %r1, %r1, 1\n"
                     "    bra TOP\n"
                     "DONE:\n"
                     "    add.u32 %r3, %r1, 1000\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "BODY"), NULL), 31);
    uint32_t t = 0;
    for (uint32_t i = 0; i < r->nsteps; i++)
        if (r->trace[i].pc == label_pc(r, "BODY")) {
            ck_assert_uint_eq(r->trace[i].exec_mask, ALL << (t + 1)); /* lanes > t still loop */
            t++;
        }
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "DONE"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 2);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[1][l], l);
        ck_assert_uint_eq(r->regs[2][l], l * (l ? l - 1 : 0) / 2); /* 0 + 1 + ... + (l - 1) */
        ck_assert_uint_eq(r->regs[3][l], l + 1000);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_do_while_loop)
{
    /* The back edge itself diverges: lane i runs the body i + 1 times. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "BODY:\n"
                     "    add.u32 %r2, %r2, 1\n"
                     "    add.u32 %r1, %r1, 1\n"
                     "    setp.le.u32 %p0, %r1, %r0\n"
                     "    @%p0 bra BODY\n"
                     "AFTER:\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "BODY"), NULL), 32);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "AFTER"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 2);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[2][l], l + 1);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_exit_in_divergence)
{
    /* Inside the odd path, lanes 1 mod 4 exit under a guard; lanes 3 mod 4
    ** go on; exited lanes keep their registers as they were when they left.
    ** A guarded exit only removes lanes, so the paths still reconverge at
    ** JOIN and run it once, together. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.eq.u32 %p0, %r1, 1\n"
                     "    and.b32 %r1, %r0, 3\n"
                     "    setp.eq.u32 %p1, %r1, 1\n"
                     "    @%p0 bra ODD\n"
                     "    mov.u32 %r2, 2\n"
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    mov.u32 %r2, 1\n"
                     "EX: @%p1 exit\n"
                     "    add.u32 %r2, %r2, 4\n"
                     "JOIN:\n"
                     "    add.u32 %r3, %r2, 100\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EX"), &m), 1);
    ck_assert_uint_eq(m, 0x22222222u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EX") + 1, &m), 1);
    ck_assert_uint_eq(m, 0x88888888u);
    ck_assert_uint_eq(r->b.kernel->code[5].reconv, label_pc(r, "JOIN"));
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN"), &m), 1);
    ck_assert_uint_eq(m, ~0x22222222u);
    ck_assert_uint_eq(r->w.live, 0);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t r2 = (l & 1) ? ((l & 3) == 1 ? 1 : 5) : 2;
        ck_assert_uint_eq(r->regs[2][l], r2);
        ck_assert_uint_eq(r->regs[3][l], (l & 3) == 1 ? 0 : r2 + 100);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_path_exits)
{
    /* A whole path exits (the odd lanes); the even path still reaches the
    ** join, alone. Then a guarded exit of all remaining lanes ends the warp. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.eq.u32 %p0, %r1, 1\n"
                     "    @%p0 bra ODD\n"
                     "    mov.u32 %r2, 2\n"
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    exit\n"
                     "JOIN:\n"
                     "    setp.lt.u32 %p1, %r0, 64\n"
                     "    @%p1 exit\n"
                     "    mov.u32 %r9, 9\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN"), &m), 1);
    ck_assert_uint_eq(m, 0x55555555u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN") + 2, NULL), 0);
    ck_assert_uint_eq(r->trace[r->nsteps - 1].pc, label_pc(r, "JOIN") + 1);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], 0);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_branch_none_taken)
{
    Rig *r = rig_new(".kernel t\n    @%p0 bra SKIP\n    mov.u32 %r1, 1\nSKIP:\n    exit\n", 32, 0);
    rig_step(r);
    ck_assert(!r->out.diverged);
    ck_assert_uint_eq(r->out.exec_mask, 0);
    ck_assert_uint_eq(exec_pc(&r->w), 1);
    rig_run(r);
    ck_assert_uint_eq(r->regs[1][31], 1);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_barrier)
{
    /* bar.sync with every live lane: a plain barrier. Inside a divergent
    ** path: flagged partial. After some lanes exited, the rest are all the
    ** live lanes: not partial. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    bar.sync 0\n"
                     "    setp.lt.u32 %p0, %r0, 8\n"
                     "    @%p0 bra LOW\n"
                     "    bar.sync 0\n"
                     "LOW:\n"
                     "    @%p0 exit\n"
                     "    bar.sync\n"
                     "    exit\n", 32, 0);
    rig_step(r);
    rig_step(r);
    ck_assert(r->out.at_barrier);
    ck_assert(!r->out.barrier_partial);
    rig_step(r);
    ck_assert(!r->out.at_barrier);
    rig_step(r); /* diverges; the target is the reconvergence point, so only */
    ck_assert(r->out.diverged); /* the fall-through path is pushed       */
    rig_step(r); /* lanes 8..31 reach the bar.sync without lanes 0..7 */
    ck_assert_uint_eq(r->out.pc, 4);
    ck_assert(r->out.at_barrier);
    ck_assert(r->out.barrier_partial);
    ck_assert_uint_eq(r->out.active, 0xffffff00u);
    rig_step(r); /* LOW, reconverged: lanes 0..7 exit */
    ck_assert_uint_eq(r->out.active, ALL);
    ck_assert_uint_eq(r->out.exec_mask, 0xffu);
    rig_step(r);
    ck_assert_uint_eq(r->out.pc, 6);
    ck_assert(r->out.at_barrier);
    ck_assert(!r->out.barrier_partial); /* lanes 0..7 exited: the rest are all live lanes */
    ck_assert_uint_eq(r->out.active, 0xffffff00u);
    rig_step(r);
    ck_assert(r->out.exited);
    rig_free(r);
}
END_TEST

static Suite *exec_control_suite(void)
{
    Suite *s = suite_create("exec_control");
    TCase *mem = tcase_create("Atomics");
    tcase_add_loop_test(mem, test_atomics, 0, (int)(sizeof atom_rows / sizeof atom_rows[0]));
    tcase_add_test(mem, test_atomic_counter);
    tcase_add_test(mem, test_memory_space_of_every_row);
    suite_add_tcase(s, mem);

    TCase *warp = tcase_create("Warp");
    tcase_add_loop_test(warp, test_shfl, 0, (int)(sizeof shfl_rows / sizeof shfl_rows[0]));
    tcase_add_test(warp, test_shfl_defaults_and_masks);
    tcase_add_test(warp, test_warp_sum);
    tcase_add_test(warp, test_vote_ballot);
    suite_add_tcase(s, warp);

    TCase *faults = tcase_create("Faults");
    tcase_add_test(faults, test_fault_global_oob);
    tcase_add_test(faults, test_fault_shared_oob);
    tcase_add_loop_test(faults, test_fault_misaligned, 0, (int)(sizeof misaligned / sizeof misaligned[0]));
    tcase_add_test(faults, test_fault_misaligned_names_the_lane);
    tcase_add_test(faults, test_fault_uniform_diverged);
    tcase_add_test(faults, test_deepest_divergence_fits);
    suite_add_tcase(s, faults);

    TCase *simt = tcase_create("Simt");
    tcase_add_test(simt, test_simt_even_odd);
    tcase_add_test(simt, test_simt_diverged_flag);
    tcase_add_loop_test(simt, test_simt_uniform_branch, 0, 2);
    tcase_add_test(simt, test_simt_nested);
    tcase_add_test(simt, test_simt_divergent_loop);
    tcase_add_test(simt, test_simt_do_while_loop);
    tcase_add_test(simt, test_simt_exit_in_divergence);
    tcase_add_test(simt, test_simt_path_exits);
    tcase_add_test(simt, test_simt_branch_none_taken);
    tcase_add_test(simt, test_simt_barrier);
    suite_add_tcase(s, simt);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(exec_control_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
