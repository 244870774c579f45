/* tests/check_grid.c -- the functional whole-grid runner (isa/grid.h):
** the workload kernels (transpose, divergence) and the examples of
** isa/ISA.md against C references, barrier deadlocks, fault reports, the
** instruction budget and launch checks.                                  */
#include "isa/grid.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/asm.h"
#include "isa/ptx.h"

#define TRANSPOSE_ASM  TESTS_DIR "/../workloads/kernels/transpose.asm"
#define DIVERGENCE_ASM TESTS_DIR "/../workloads/kernels/divergence.asm"
#define ISA_MD         TESTS_DIR "/../isa/ISA.md"

/* ------------------------------------------------------------------ helpers */

static void load_file(const char *path, Program *p)
{
    Diag d;
    bool ok = asm_parse_file(path, p, &d);
    ck_assert_msg(ok, "%s:%u:%u: %s", d.file, d.line, d.col, d.message);
}

static void load_text(const char *src, Program *p)
{
    Diag d;
    bool ok = asm_parse(src, strlen(src), "grid.asm", p, &d);
    ck_assert_msg(ok, "grid.asm:%u:%u: %s", d.line, d.col, d.message);
}

static const Kernel *kernel(const Program *p, const char *name)
{
    const Kernel *k = program_find_kernel(p, name);
    ck_assert_msg(k != NULL, "no kernel %s", name);
    return k;
}

static uint32_t alloc(GlobalMem *g, uint64_t bytes, const char *name)
{
    Diag d;
    uint32_t a = gmem_alloc(g, bytes, name, &d);
    ck_assert_msg(a != 0, "%s", d.message);
    return a;
}

static void *host(GlobalMem *g, uint32_t addr, uint32_t bytes)
{
    void *p = gmem_translate(g, addr, bytes);
    ck_assert_ptr_nonnull(p);
    return p;
}

static GridLaunch launch(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz,
                         const uint32_t *params)
{
    GridLaunch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = gx, L.grid[1] = gy, L.grid[2] = gz;
    L.block[0] = bx, L.block[1] = by, L.block[2] = bz;
    L.params = params;
    return L;
}

static void run_ok(const Kernel *k, GlobalMem *g, const GridLaunch *L, GridResult *r)
{
    bool ok = grid_run_functional(k, g, L, r);
    ck_assert_msg(ok, "kernel %s: status %d: %s", k->name, r->status, r->message);
    ck_assert_int_eq(r->status, GRID_OK);
}

/* The ```asm blocks of isa/ISA.md, concatenated into one program text. */
static char *isa_md_program(void)
{
    FILE *f = fopen(ISA_MD, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *md = malloc((size_t)n + 1), *out = malloc((size_t)n + 1);
    ck_assert(fread(md, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    md[n] = 0;
    size_t len = 0;
    for (const char *p = strstr(md, "\n```asm\n"); p; p = strstr(p, "\n```asm\n")) {
        p += 8;
        const char *end = strstr(p, "\n```");
        ck_assert_ptr_nonnull(end);
        memcpy(out + len, p, (size_t)(end - p) + 1);
        len += (size_t)(end - p) + 1;
        p = end;
    }
    out[len] = 0;
    free(md);
    return out;
}

/* ------------------------------------------------------------ workloads */

static const char *const TRANSPOSE_KERNELS[] = { "transpose_naive", "transpose_tiled", "transpose_tiled_padded", "copy" };
static const uint32_t TRANSPOSE_N[] = { 64, 70 };

START_TEST(test_transpose)
{
    const char *name = TRANSPOSE_KERNELS[_i % 4];
    uint32_t n = TRANSPOSE_N[_i / 4], tiles = (n + 31) / 32;
    Program p;
    load_file(TRANSPOSE_ASM, &p);
    const Kernel *k = kernel(&p, name);
    GlobalMem *g = gmem_create();
    uint32_t in = alloc(g, (uint64_t)n * n * 4, "in"), out = alloc(g, (uint64_t)n * n * 4, "out");
    float *pin = host(g, in, n * n * 4), *pout = host(g, out, n * n * 4);
    for (uint32_t i = 0; i < n * n; i++) pin[i] = 0.5f * (float)i + 1.0f;
    uint32_t params[3] = { in, out, n };
    GridLaunch L = launch(tiles, tiles, 1, 32, 32, 1, params);
    GridResult r;
    run_ok(k, g, &L, &r);
    bool copy = strcmp(name, "copy") == 0;
    for (uint32_t row = 0; row < n; row++)
        for (uint32_t col = 0; col < n; col++) {
            float want = copy ? pin[row * n + col] : pin[col * n + row];
            if (pout[row * n + col] != want)
                ck_abort_msg("%s n=%u: out[%u][%u] = %g, expected %g", name, n, row, col, (double)pout[row * n + col],
                             (double)want);
        }
    ck_assert_uint_gt(r.warp_instructions, 0);
    ck_assert_uint_le(r.thread_instructions, r.warp_instructions * 32);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

START_TEST(test_divergence)
{
    /* x = tid; iters times x = fmaf(x, c, 0.5), c = 0.998 for odd lanes
    ** (divergent) or odd warps (uniform), else 0.999; bit-exact. */
    bool divergent = _i == 0;
    enum { BLOCKS = 4, THREADS = 256, ITERS = 100 };
    Program p;
    load_file(DIVERGENCE_ASM, &p);
    const Kernel *k = kernel(&p, divergent ? "divergent" : "uniform");
    GlobalMem *g = gmem_create();
    uint32_t out = alloc(g, BLOCKS * THREADS * 4, "out");
    uint32_t params[2] = { out, ITERS };
    GridLaunch L = launch(BLOCKS, 1, 1, THREADS, 1, 1, params);
    GridResult r;
    run_ok(k, g, &L, &r);
    const float *o = host(g, out, BLOCKS * THREADS * 4);
    for (uint32_t i = 0; i < BLOCKS * THREADS; i++) {
        uint32_t t = i % THREADS;
        bool odd = divergent ? (t % 2) : ((t / 32) % 2);
        float x = (float)t, c = odd ? 0.998f : 0.999f;
        for (int it = 0; it < ITERS; it++) x = fmaf(x, c, 0.5f);
        uint32_t got, want;
        memcpy(&got, &o[i], 4);
        memcpy(&want, &x, 4);
        if (got != want) ck_abort_msg("out[%u] = %.9g, expected %.9g", i, (double)o[i], (double)x);
    }
    /* Issue counts. Each path: a guard (setp, bra) and a rotated loop of 4
    ** instructions per trip (fma, add, setp, bra); the even path also jumps
    ** over the odd one. Divergent warps run both paths one after the other
    ** (11 + (2 + 4I) + (2 + 4I + 1) + 4 per warp, each under half the
    ** lanes); uniform warps one path (12 + 2 + 4I + 4, plus 1 for even warps).
    ** Thread instructions count the lanes whose guard held: the guards and
    ** the first branch hold only in their taking lanes, the loop branch on
    ** every trip but the last. */
    uint64_t warps = BLOCKS * THREADS / 32, I = ITERS;
    if (divergent) {
        ck_assert_uint_eq(r.warp_instructions, warps * (11 + (2 + 4 * I) + (2 + 4 * I + 1) + 4));
        ck_assert_uint_eq(r.thread_instructions, warps * (32 * 10 + 16 + 16 * 4 * I + 16 * (4 * I + 1) + 32 * 4));
    } else {
        ck_assert_uint_eq(r.warp_instructions, warps * (12 + 2 + 4 * I + 4) + warps / 2);
        ck_assert_uint_eq(r.thread_instructions, warps * 32 * (16 + 4 * I));
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* ------------------------------------------------------- ISA.md examples */

static uint32_t collatz_steps(uint32_t n)
{
    uint32_t s = 0;
    while (n > 1) n = (n % 2) ? 3 * n + 1 : n / 2, s++;
    return s;
}

START_TEST(test_example_collatz)
{
    char *src = isa_md_program();
    Program p;
    load_text(src, &p);
    const Kernel *k = kernel(&p, "collatz");
    enum { COUNT = 1000 };
    GlobalMem *g = gmem_create();
    uint32_t steps = alloc(g, COUNT * 4, "steps");
    uint32_t params[2] = { steps, COUNT };
    GridLaunch L = launch(4, 1, 1, 256, 1, 1, params); /* 1024 threads: the last 24 leave at once */
    GridResult r;
    run_ok(k, g, &L, &r);
    const uint32_t *s = host(g, steps, COUNT * 4);
    for (uint32_t i = 0; i < COUNT; i++) ck_assert_uint_eq(s[i], collatz_steps(i + 1));
    /* divergence: fewer active lanes than issue slots */
    ck_assert_uint_lt(r.thread_instructions, r.warp_instructions * 32 / 2);
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
}
END_TEST

START_TEST(test_example_reverse_block)
{
    char *src = isa_md_program();
    Program p;
    load_text(src, &p);
    const Kernel *k = kernel(&p, "reverse_block");
    enum { BLOCKS = 3, THREADS = 96 };
    GlobalMem *g = gmem_create();
    uint32_t data = alloc(g, BLOCKS * THREADS * 4, "data");
    float *d = host(g, data, BLOCKS * THREADS * 4);
    for (uint32_t i = 0; i < BLOCKS * THREADS; i++) d[i] = (float)i;
    uint32_t params[1] = { data };
    GridLaunch L = launch(BLOCKS, 1, 1, THREADS, 1, 1, params);
    L.dynamic_smem = THREADS * 4;
    GridResult r;
    run_ok(k, g, &L, &r);
    for (uint32_t b = 0; b < BLOCKS; b++)
        for (uint32_t t = 0; t < THREADS; t++) ck_assert_float_eq(d[b * THREADS + t], (float)(b * THREADS + THREADS - 1 - t));
    /* one word too little dynamic shared memory: the last thread faults */
    L.dynamic_smem = THREADS * 4 - 4;
    ck_assert(!grid_run_functional(k, g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    ck_assert_msg(strstr(r.message, "out-of-bounds shared access of 4 bytes at address 0x17c") != NULL, "%s", r.message);
    ck_assert_msg(strstr(r.message, "by thread (95,0,0) of block (0,0,0) (warp 2, lane 31)") != NULL, "%s", r.message);
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
}
END_TEST

START_TEST(test_example_warp_sum)
{
    char *src = isa_md_program();
    Program p;
    load_text(src, &p);
    const Kernel *k = kernel(&p, "warp_sum");
    enum { BLOCKS = 2, THREADS = 128, WARPS = BLOCKS * THREADS / 32 };
    GlobalMem *g = gmem_create();
    uint32_t in = alloc(g, BLOCKS * THREADS * 4, "in"), sums = alloc(g, WARPS * 4, "sums");
    float *pin = host(g, in, BLOCKS * THREADS * 4);
    for (uint32_t i = 0; i < BLOCKS * THREADS; i++) pin[i] = (float)((int)(i * 7 % 17) - 8);
    uint32_t params[2] = { in, sums };
    GridLaunch L = launch(BLOCKS, 1, 1, THREADS, 1, 1, params);
    GridResult r;
    run_ok(k, g, &L, &r);
    const float *s = host(g, sums, WARPS * 4);
    for (uint32_t w = 0; w < WARPS; w++) {
        float want = 0;
        for (uint32_t l = 0; l < 32; l++) want += pin[32 * w + l];
        ck_assert_float_eq(s[w], want);
    }
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
}
END_TEST

/* ---------------------------------------------------------- grid shape */

START_TEST(test_grid_coordinates)
{
    /* A 3x2x2 grid of 4x2x1 blocks writes every coordinate it sees. */
    Program p;
    load_text(".kernel coords\n.param .ptr out\n"
              "    ld.param.u32 %r0, [out]\n"
              "    mov.u32 %r1, %ctaid.x\n    mov.u32 %r2, %ctaid.y\n    mov.u32 %r3, %ctaid.z\n"
              "    mov.u32 %r4, %nctaid.x\n    mov.u32 %r5, %nctaid.y\n"
              "    mad.lo.u32 %r6, %r3, %r5, %r2\n"
              "    mad.lo.u32 %r6, %r6, %r4, %r1\n"     /* linear block */
              "    mov.u32 %r7, %tid.x\n    mov.u32 %r8, %tid.y\n    mov.u32 %r9, %ntid.x\n"
              "    mad.lo.u32 %r10, %r8, %r9, %r7\n"     /* linear thread */
              "    shl.b32 %r11, %r6, 3\n"
              "    add.u32 %r11, %r11, %r10\n"
              "    shl.b32 %r11, %r11, 4\n"
              "    add.u32 %r11, %r11, %r0\n"
              "    mov.u32 %r12, %nsmid\n"
              "    mov.u32 %r13, %warpid\n"
              "    st.global.v4.u32 [%r11], {%r6, %r10, %r12, %r13}\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t out = alloc(g, 12 * 8 * 16, "out");
    uint32_t params[1] = { out };
    GridLaunch L = launch(3, 2, 2, 4, 2, 1, params);
    L.nsm = 132;
    GridResult r;
    run_ok(&p.kernels[0], g, &L, &r);
    const uint32_t *o = host(g, out, 12 * 8 * 16);
    for (uint32_t b = 0; b < 12; b++)
        for (uint32_t t = 0; t < 8; t++) {
            const uint32_t *e = o + 4 * (b * 8 + t);
            ck_assert_uint_eq(e[0], b);
            ck_assert_uint_eq(e[1], t);
            ck_assert_uint_eq(e[2], 132);
            ck_assert_uint_eq(e[3], 0);
        }
    ck_assert_uint_eq(r.warp_instructions, 12 * 20);
    ck_assert_uint_eq(r.thread_instructions, 12 * 20 * 8);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

START_TEST(test_shared_memory_per_block)
{
    /* Each block starts with zeroed shared memory, whatever the previous
    ** block left there. */
    Program p;
    load_text(".kernel k\n.param .ptr out\n.shared s 64\n"
              "    ld.param.u32 %r0, [out]\n"
              "    mov.u32 %r1, %ctaid.x\n"
              "    mov.u32 %r2, %tid.x\n"
              "    shl.b32 %r3, %r2, 2\n"
              "    ld.shared.u32 %r4, [%r3+s]\n"
              "    bar.sync 0\n"
              "    add.u32 %r5, %r1, 1\n"
              "    st.shared.u32 [%r3+s], %r5\n"
              "    mad.lo.u32 %r6, %r1, 16, %r2\n"
              "    shl.b32 %r6, %r6, 2\n"
              "    add.u32 %r6, %r6, %r0\n"
              "    st.global.u32 [%r6], %r4\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t out = alloc(g, 5 * 16 * 4, "out");
    uint32_t *o = host(g, out, 5 * 16 * 4);
    for (uint32_t i = 0; i < 80; i++) o[i] = 0xffffffffu;
    uint32_t params[1] = { out };
    GridLaunch L = launch(5, 1, 1, 16, 1, 1, params);
    GridResult r;
    run_ok(&p.kernels[0], g, &L, &r);
    for (uint32_t i = 0; i < 80; i++) ck_assert_uint_eq(o[i], 0);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

START_TEST(test_barrier_orders_warps)
{
    /* Warp 1 reads what warp 0 wrote before the barrier, in a block of 40
    ** threads whose second warp has 8 lanes. */
    Program p;
    load_text(".kernel k\n.param .ptr out\n.shared s 256\n"
              "    ld.param.u32 %r0, [out]\n"
              "    mov.u32 %r1, %tid.x\n"
              "    shl.b32 %r2, %r1, 2\n"
              "    mul.lo.u32 %r3, %r1, %r1\n"
              "    st.shared.u32 [%r2+s], %r3\n"
              "    bar.sync 0\n"
              "    sub.u32 %r4, 39, %r1\n"
              "    shl.b32 %r4, %r4, 2\n"
              "    ld.shared.u32 %r5, [%r4+s]\n"
              "    add.u32 %r2, %r2, %r0\n"
              "    st.global.u32 [%r2], %r5\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t out = alloc(g, 40 * 4, "out");
    uint32_t params[1] = { out };
    GridLaunch L = launch(1, 1, 1, 40, 1, 1, params);
    GridResult r;
    run_ok(&p.kernels[0], g, &L, &r);
    const uint32_t *o = host(g, out, 160);
    for (uint32_t t = 0; t < 40; t++) ck_assert_uint_eq(o[t], (39 - t) * (39 - t));
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* ----------------------------------------------------------- BadInput */

START_TEST(test_exited_warps_do_not_hold_the_barrier)
{
    /* Threads 32..63 return early; warp 0's barrier then waits for no one
    ** (exited warps no longer count, as exited lanes do not) and its
    ** threads see what they wrote before it. */
    Program p;
    load_text(".kernel early_return\n"
              ".param .ptr out\n"
              "    ld.param.u32 %r5, [out]\n"
              "    mov.u32 %r0, %tid.x\n"
              "    setp.ge.u32 %p0, %r0, 32\n"
              "    @%p0 exit\n"
              "    shl.b32 %r1, %r0, 2\n"
              "    st.shared.u32 [%r1], %r0\n"
              "    bar.sync 0\n"
              "    xor.b32 %r2, %r1, 4\n"
              "    ld.shared.u32 %r3, [%r2]\n"
              "    add.u32 %r4, %r1, %r5\n"
              "    st.global.u32 [%r4], %r3\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t params[1] = { alloc(g, 64 * 4, "out") };
    GridLaunch L = launch(2, 1, 1, 64, 1, 1, params);
    L.dynamic_smem = 32 * 4;
    GridResult r;
    run_ok(&p.kernels[0], g, &L, &r);
    const uint32_t *out = host(g, params[0], 32 * 4);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(out[l], l ^ 1);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Named barriers on the functional path: barrier 2 of 64 threads opens
** for warps 0-1 while warp 2 runs on; one that asks for 96 threads of
** which the third exited never opens, a deadlock rather than a hang. */
static const char *NAMED =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry named(.param .u64 out)\n{\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n  .reg .pred %%p<2>;\n"
    "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n  setp.ge.u32 %%p1, %%r1, 64;\n  @%%p1 bra DONE;\n"
    "  bar.sync 2, %s;\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r1;\n"
    "DONE:\n  ret;\n}\n";

START_TEST(test_named_barrier_functional)
{
    for (int deadlock = 0; deadlock < 2; deadlock++) {
        char src[1024];
        snprintf(src, sizeof src, NAMED, deadlock ? "96" : "64");
        Program p;
        Diag d;
        ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "%s", d.message);
        GlobalMem *g = gmem_create();
        uint32_t params[2] = { alloc(g, 64 * 4, "out"), 0 };
        GridLaunch L = launch(1, 1, 1, 96, 1, 1, params);
        L.kernel_file = "t.ptx";
        GridResult r;
        bool ok = grid_run_functional(&p.kernels[0], g, &L, &r);
        if (!deadlock) {
            ck_assert_msg(ok, "%s", r.message);
            const uint32_t *out = host(g, params[0], 64 * 4);
            for (uint32_t t = 0; t < 64; t++) ck_assert_uint_eq(out[t], t);
        } else {
            ck_assert(!ok);
            ck_assert_int_eq(r.status, GRID_DEADLOCK);
            /* named at the barrier's own line (13), not the line after it */
            ck_assert_msg(strstr(r.message, "t.ptx:13: barrier deadlock at 'bar.sync 2, 96' in kernel 'named', block (0,0,0): "
                                            "barrier 2 waits for 3 warp(s), 2 arrived"), "%s", r.message);
        }
        gmem_destroy(g);
        program_destroy(&p);
    }
}
END_TEST

START_TEST(test_deadlock_divergent_barrier)
{
    Program p;
    load_text(".kernel divergent_barrier\n"
              "    mov.u32 %r0, %tid.x\n"
              "    and.b32 %r1, %r0, 1\n"
              "    setp.eq.u32 %p0, %r1, 1\n"
              "    @%p0 bra SKIP\n"
              "    bar.sync 0\n"
              "SKIP:\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    GridLaunch L = launch(1, 1, 1, 64, 1, 1, NULL);
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_DEADLOCK);
    ck_assert_str_eq(r.message, "barrier deadlock in kernel 'divergent_barrier': warp 0 of block (0,0,0) reached "
                                "bar.sync at line 6 with lanes 0x55555555 while its live lanes are 0xffffffff "
                                "(divergent barrier)");
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* What a message about a .cu kernel leads with (a fault here): the CUDA line and its
** text (trimmed), or the file and line alone when the file cannot be
** read, nothing without a .loc; and the parameters by the signature. */
START_TEST(test_cuda_line_and_signature)
{
    char path[] = "/tmp/check_ptx_cuXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    static const char cu[] = "// first\n\t  out[i] = in[i] * 2;   \n";
    ck_assert_int_eq(write(fd, cu, sizeof cu - 1), (ssize_t)(sizeof cu - 1));
    close(fd);
    char src[1024];
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"%s\"\n.file 2 \"/no/such/file.cu\"\n"
             ".visible .entry _Z1kPKfPfi(.param .u64 a, .param .u64 b, .param .u32 c)\n{\n"
             ".loc 1 2 5\n  st.global.u32 [0], 1;\n.loc 2 9 1\n  ret;\n}\n",
             path);
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "%s", d.message);
    const Kernel *k = &p.kernels[0];
    char buf[256], want[300];
    ck_assert(kernel_cuda_line(k, 0, buf, sizeof buf));
    snprintf(want, sizeof want, "%s:2: out[i] = in[i] * 2;", path);
    ck_assert_str_eq(buf, want);
    ck_assert(kernel_cuda_line(k, 1, buf, sizeof buf));
    ck_assert_str_eq(buf, "/no/such/file.cu:9");
    /* a fault of the kernel leads with it, then the PTX line */
    GlobalMem *g = gmem_create();
    uint32_t args[4] = { 0, 0, 0, 0 };
    GridLaunch L = launch(1, 1, 1, 32, 1, 1, args);
    GridResult r;
    ck_assert(!grid_run_functional(k, g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    snprintf(want, sizeof want, "%s:2: out[i] = in[i] * 2;\n    ", path);
    ck_assert_msg(!strncmp(r.message, want, strlen(want)) && strstr(r.message, ":9:3: out-of-bounds global access"), "%s",
                  r.message);
    gmem_destroy(g);
    ck_assert(!kernel_cuda_line(k, 99, buf, sizeof buf));
    ck_assert_str_eq(buf, "");
    if (ptx_can_demangle()) {
        ck_assert_str_eq(kernel_label(k), "k(float const*, float*, int)");
        ck_assert_str_eq(kernel_param_label(k, 0, buf, sizeof buf), "parameter 1 (float const*)");
        ck_assert_str_eq(kernel_param_label(k, 2, buf, sizeof buf), "parameter 3 (int)");
    }
    program_destroy(&p);
    unlink(path);
    /* a signature whose list does not have one type per parameter, or none:
    ** the parameters by name; template arguments' commas do not count */
    Kernel t = { 0 };
    KernelParam params[2] = { { .name = "p0" }, { .name = "p1" } };
    snprintf(t.name, sizeof t.name, "t");
    t.params = params, t.nparams = 2;
    ck_assert_str_eq(kernel_param_label(&t, 1, buf, sizeof buf), "parameter 'p1'");
    t.signature = "t(pair<int, float>, int*)";
    ck_assert_str_eq(kernel_param_label(&t, 0, buf, sizeof buf), "parameter 1 (pair<int, float>)");
    ck_assert_str_eq(kernel_param_label(&t, 1, buf, sizeof buf), "parameter 2 (int*)");
    t.signature = "t(int)";
    ck_assert_str_eq(kernel_param_label(&t, 0, buf, sizeof buf), "parameter 'p0'");
    ck_assert_str_eq(kernel_label(&t), "t(int)");
}
END_TEST

START_TEST(test_fault_report)
{
    /* out[i] = i for i <= n: thread n writes one word past the buffer. */
    Program p;
    load_text(".kernel off_by_one\n.param .ptr out\n.param .u32 n\n"
              "    ld.param.u32 %r0, [out]\n"
              "    ld.param.u32 %r1, [n]\n"
              "    mov.u32 %r2, %ctaid.x\n"
              "    mov.u32 %r3, %ntid.x\n"
              "    mov.u32 %r4, %tid.x\n"
              "    mad.lo.u32 %r5, %r2, %r3, %r4\n"
              "    setp.gt.u32 %p0, %r5, %r1\n"
              "    @%p0 exit\n"
              "    shl.b32 %r6, %r5, 2\n"
              "    add.u32 %r6, %r6, %r0\n"
              "    st.global.u32 [%r6], %r5\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t out = alloc(g, 100 * 4, "out");
    uint32_t params[2] = { out, 100 };
    GridLaunch L = launch(4, 1, 1, 64, 1, 1, params);
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    char expect[512];
    snprintf(expect, sizeof expect,
             ":14:5: out-of-bounds global access of 4 bytes at address 0x%x (0 bytes after the end of buffer 'out' "
             "of 400 bytes at 0x%x)\n"
             "    in kernel 'off_by_one' at pc 10: st.global.u32 [%%r6], %%r5\n"
             "    by thread (36,0,0) of block (1,0,0) (warp 1, lane 4)",
             out + 400, out);
    ck_assert_msg(strstr(r.message, expect) != NULL, "%s", r.message);
    /* everything issued before the fault was done; the faulting store wrote
    ** nothing, not even for its lanes in bounds (96..99) */
    const uint32_t *o = host(g, out, 400);
    for (uint32_t i = 0; i < 100; i++) ck_assert_uint_eq(o[i], i < 96 ? i : 0);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST


/* Faults that are not memory accesses say what happened, not "0 bytes at
** address 0x0". */
START_TEST(test_fault_report_not_memory)
{
    Program p;
    load_text(".kernel split\n"
              "    mov.u32 %r0, %laneid\n"
              "    setp.lt.u32 %p0, %r0, 5\n"
              "    @%p0 bra.uni DONE\n"
              "DONE:\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    GridLaunch L = launch(1, 1, 1, 32, 1, 1, NULL);
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    ck_assert_msg(strstr(r.message, ":4:5: bra.uni taken by only some lanes: a branch promised warp-uniform (bra.uni) "
                                    "was taken by lane 0 but not by every active lane\n") != NULL, "%s", r.message);
    ck_assert_msg(strstr(r.message, "bytes at address") == NULL, "%s", r.message);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

START_TEST(test_budget_endless_loop)
{
    /* Spins until a flag is set, which never happens: the CFG has a way
    ** out, so only the instruction budget stops it. */
    Program p;
    load_text(".kernel spin\n.param .ptr flag\n"
              "    ld.param.u32 %r0, [flag]\n"
              "WAIT:\n"
              "    ld.global.u32 %r1, [%r0]\n"
              "    setp.eq.u32 %p0, %r1, 0\n"
              "    @%p0 bra WAIT\n"
              "    exit\n", &p);
    GlobalMem *g = gmem_create();
    uint32_t flag = alloc(g, 4, "flag");
    uint32_t params[1] = { flag };
    GridLaunch L = launch(1, 1, 1, 32, 1, 1, params);
    L.max_warp_instructions = 10000;
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_BUDGET);
    ck_assert_uint_eq(r.warp_instructions, 10000);
    /* 1 + 3 * 3333 instructions done: the next is pc 1 again */
    ck_assert_str_eq(r.message, "kernel 'spin' stopped after 10000 warp instructions (budget): block (0,0,0) warp 0 "
                                "was at pc 1 (line 5); is there an endless loop?");
    /* with the flag set, the same kernel ends well inside the budget */
    *(uint32_t *)host(g, flag, 4) = 1;
    run_ok(&p.kernels[0], g, &L, &r);
    ck_assert_uint_eq(r.warp_instructions, 5);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

START_TEST(test_budget_exact)
{
    /* 2 blocks of 2 warps, 3 instructions each: 12 warp instructions. A
    ** budget of 12 suffices; 11 does not. */
    Program p;
    load_text(".kernel k\n    mov.u32 %r0, 1\n    add.u32 %r0, %r0, 1\n    exit\n", &p);
    GlobalMem *g = gmem_create();
    GridLaunch L = launch(2, 1, 1, 64, 1, 1, NULL);
    GridResult r;
    L.max_warp_instructions = 12;
    run_ok(&p.kernels[0], g, &L, &r);
    ck_assert_uint_eq(r.warp_instructions, 12);
    L.max_warp_instructions = 11;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_BUDGET);
    ck_assert_uint_eq(r.warp_instructions, 11);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

static const struct {
    uint32_t    grid[3], block[3];
    const char *message;
} bad_launches[] = {
    { { 1, 1, 1 }, { 1025, 1, 1 }, "block of 1025 threads; at most 1024 threads per block" },
    { { 1, 1, 1 }, { 32, 32, 2 }, "block of 2048 threads; at most 1024 threads per block" },
    { { 0, 1, 1 }, { 32, 1, 1 }, "grid and block dimensions must be at least 1 (grid 0x1x1, block 32x1x1)" },
    { { 1, 1, 1 }, { 32, 0, 1 }, "grid and block dimensions must be at least 1 (grid 1x1x1, block 32x0x1)" },
    { { 1, 1, 1 }, { 1, 1, 65 }, "block z of 65; at most 64" },
    { { 1, 65536, 1 }, { 32, 1, 1 }, "grid y of 65536; at most 65535" },
    { { 1, 1, 70000 }, { 32, 1, 1 }, "grid z of 70000; at most 65535" },
    { { 2147483648u, 1, 1 }, { 32, 1, 1 }, "grid x of 2147483648; at most 2147483647" },
    { { 2147483647u, 3, 1 }, { 32, 1, 1 }, "grid of 6442450941 blocks; at most 2^32-1" },
};

/* gmem_free unmaps a buffer (its addresses fault) and the lowest gap that
** fits is reused; addresses of the buffers left do not move. */
START_TEST(test_gmem_free_and_reuse)
{
    GlobalMem *g = gmem_create();
    Diag d = { 0 };
    uint32_t a = gmem_alloc(g, 1000, "a", &d), b = gmem_alloc(g, 4096, "b", &d), c = gmem_alloc(g, 16, "c", &d);
    ck_assert_uint_eq(a, GMEM_BASE);
    ck_assert_uint_gt(b, a + 1000);
    ck_assert(gmem_translate(g, b, 4) != NULL);
    ck_assert(!gmem_free(g, b + 4)); /* not a buffer's start */
    ck_assert(gmem_free(g, b));
    ck_assert(gmem_translate(g, b, 4) == NULL);
    ck_assert(!gmem_free(g, b)); /* twice */
    uint32_t base;
    uint64_t size;
    ck_assert(!gmem_buffer_at(g, b, &base, &size));
    ck_assert(gmem_buffer_at(g, c + 8, &base, &size));
    ck_assert_uint_eq(base, c);
    ck_assert_uint_eq(size, 16);
    uint32_t small = gmem_alloc(g, 512, "small", &d); /* fits in b's gap */
    ck_assert_uint_eq(small, b);
    uint32_t big = gmem_alloc(g, 8192, "big", &d); /* does not: after c */
    ck_assert_uint_gt(big, c);
    ck_assert(gmem_translate(g, c, 16) != NULL);
    ck_assert_uint_eq(gmem_bytes(g), 1000 + 16 + 512 + 8192);
    gmem_destroy(g);
}
END_TEST

/* Memory the caller owns, seen at a simulated address of its choosing
** (cudaHostRegister): reads and writes reach the caller's bytes, freeing the
** buffer leaves them alone, and it keeps other buffers at their distance. */
/* Tags: kept with the buffer that starts at an address, 0 when made,
** moved with it as buffers come and go; none elsewhere. */
START_TEST(test_gmem_tags)
{
    GlobalMem *g = gmem_create();
    Diag d = { 0 };
    ck_assert_int_eq(gmem_tag(g, GMEM_BASE), -1);
    uint32_t a = gmem_alloc(g, 100, "a", &d), b = gmem_alloc(g, 100, "b", &d);
    ck_assert_int_eq(gmem_tag(g, a), 0);
    ck_assert(gmem_set_tag(g, b, 1));
    ck_assert(!gmem_set_tag(g, b + 4, 1)); /* inside, not the start */
    ck_assert_int_eq(gmem_tag(g, b + 4), -1);
    ck_assert(gmem_free(g, a));
    uint32_t c = gmem_alloc(g, 100, "c", &d); /* in a's place, before b */
    ck_assert_int_eq(gmem_tag(g, c), 0);
    ck_assert_int_eq(gmem_tag(g, b), 1);
    gmem_destroy(g);
}
END_TEST

START_TEST(test_gmem_adopt_at)
{
    GlobalMem *g = gmem_create();
    Diag d = { 0 };
    uint32_t *mine = malloc(64 * sizeof *mine);
    for (uint32_t i = 0; i < 64; i++) mine[i] = i;
    uint32_t at = (uint32_t)gmem_free_space(g, 256, GMEM_BASE);
    ck_assert_uint_eq(gmem_adopt_at(g, at, mine, 256, "registered", &d), at);
    ck_assert_ptr_eq(gmem_translate(g, at + 40, 4), &mine[10]);
    *(uint32_t *)gmem_translate(g, at + 4, 4) = 77;
    ck_assert_uint_eq(mine[1], 77);
    ck_assert(gmem_translate(g, at + 256, 4) == NULL); /* past its end */
    ck_assert_uint_eq(gmem_adopt_at(g, at + 128, mine, 16, "overlapping", &d), 0);
    ck_assert(strstr(d.message, "overlaps another buffer") != NULL);
    uint32_t next = gmem_alloc(g, 16, "next", &d);
    ck_assert_uint_ge(next, at + 256 + GMEM_GAP);
    ck_assert(gmem_free(g, at));
    ck_assert_uint_eq(mine[63], 63); /* not freed with the buffer */
    gmem_destroy(g);
    free(mine);
}
END_TEST

START_TEST(test_bad_launch)
{
    Program p;
    load_text(".kernel k\n    exit\n", &p);
    GlobalMem *g = gmem_create();
    GridLaunch L = launch(bad_launches[_i].grid[0], bad_launches[_i].grid[1], bad_launches[_i].grid[2],
                          bad_launches[_i].block[0], bad_launches[_i].block[1], bad_launches[_i].block[2], NULL);
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_BAD_LAUNCH);
    ck_assert_str_eq(r.message, bad_launches[_i].message);
    ck_assert_uint_eq(r.warp_instructions, 0);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

static Suite *grid_suite(void)
{
    Suite *s = suite_create("grid");
    TCase *core = tcase_create("Core");
    tcase_set_timeout(core, 60);
    tcase_add_loop_test(core, test_transpose, 0, 8);
    tcase_add_loop_test(core, test_divergence, 0, 2);
    tcase_add_test(core, test_grid_coordinates);
    tcase_add_test(core, test_gmem_free_and_reuse);
    tcase_add_test(core, test_gmem_adopt_at);
    tcase_add_test(core, test_gmem_tags);
    tcase_add_test(core, test_shared_memory_per_block);
    tcase_add_test(core, test_barrier_orders_warps);
    suite_add_tcase(s, core);

    TCase *examples = tcase_create("IsaMdExamples");
    tcase_add_test(examples, test_example_collatz);
    tcase_add_test(examples, test_example_reverse_block);
    tcase_add_test(examples, test_example_warp_sum);
    suite_add_tcase(s, examples);

    TCase *bad = tcase_create("BadInput");
    tcase_add_test(bad, test_deadlock_divergent_barrier);
    tcase_add_test(bad, test_named_barrier_functional);
    tcase_add_test(bad, test_exited_warps_do_not_hold_the_barrier);
    tcase_add_test(bad, test_fault_report);
    tcase_add_test(bad, test_cuda_line_and_signature);
    tcase_add_test(bad, test_fault_report_not_memory);
    tcase_add_test(bad, test_budget_endless_loop);
    tcase_add_test(bad, test_budget_exact);
    tcase_add_loop_test(bad, test_bad_launch, 0, (int)(sizeof bad_launches / sizeof bad_launches[0]));
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(grid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
