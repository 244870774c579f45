/* tests/check_exec_heap.c -- the device heap (isa/exec_heap.c): malloc and
** free as nvcc calls them, run functionally against a heap made by
** exec_heap_create. Lanes allocate in lane order, distinct 16-byte-aligned
** blocks; a freed block is the next one of its size; the heap answers NULL
** when it has no room and keeps its blocks from launch to launch; aligned
** requests are aligned; free of a stranger, twice, or with a damaged header
** faults; a launch with no heap faults at its first call. */
#include "isa/exec.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"

#define PTX_HEAD                                                                                       \
    ".version 8.0\n.target sm_90\n.address_size 64\n"                                                  \
    ".extern .func (.param .b64 func_retval0) malloc\n(\n.param .b64 malloc_param_0\n)\n;\n"          \
    ".extern .func free\n(\n.param .b64 free_param_0\n)\n;\n"                                          \
    ".extern .func (.param .b64 func_retval0) __cuda_syscall_aligned_malloc\n(\n.param .b64 a0,\n.param .b64 a1\n)\n;\n"

/* A kernel t(out, size, mode): each lane's address out[tid] of
** malloc(size) (mode 0), of __cuda_syscall_aligned_malloc(size, 4096)
** (mode 1); mode 2 frees out[tid] instead; mode 3 frees it twice. */
static const char KERNEL[] =
    PTX_HEAD
    ".visible .entry t(.param .u64 out, .param .u64 size, .param .u32 mode)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [size];\n  ld.param.u32 %r1, [mode];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra $plain;\n  setp.eq.s32 %p2, %r1, 1;\n  @%p2 bra $aligned;\n"
    "  ld.global.u64 %rd5, [%rd4];\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0+0], %rd5;\n  call.uni free, (param0);\n  }\n"
    "  setp.eq.s32 %p3, %r1, 2;\n  @%p3 bra $done;\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0+0], %rd5;\n  call.uni free, (param0);\n  }\n"
    "  bra.uni $done;\n"
    "$plain:\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0+0], %rd2;\n  .param .b64 retval0;\n"
    "  call.uni (retval0), malloc, (param0);\n  ld.param.b64 %rd6, [retval0+0];\n  }\n"
    "  st.global.u64 [%rd4], %rd6;\n  bra.uni $done;\n"
    "$aligned:\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0+0], %rd2;\n  .param .b64 param1;\n"
    "  st.param.b64 [param1+0], 4096;\n  .param .b64 retval0;\n"
    "  call.uni (retval0), __cuda_syscall_aligned_malloc, (param0, param1);\n  ld.param.b64 %rd6, [retval0+0];\n  }\n"
    "  st.global.u64 [%rd4], %rd6;\n"
    "$done:\n  ret;\n}\n";

typedef struct {
    Program   p;
    GlobalMem *g;
    uint32_t  out, heap;
    uint64_t  *addr; /* out's 32 words */
} Fixture;

static void setup_heap(Fixture *f, uint64_t heap_bytes)
{
    Diag d;
    ck_assert_msg(ptx_parse(KERNEL, strlen(KERNEL), "t.ptx", &f->p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    ck_assert_msg(kernel_runnable(&f->p, &f->p.kernels[0], &d), "%s", d.message);
    ck_assert(kernel_uses_heap(&f->p.kernels[0]));
    f->g = gmem_create();
    f->out = gmem_alloc(f->g, 32 * 8, "out", &d);
    f->heap = heap_bytes ? exec_heap_create(f->g, heap_bytes, &d) : 0;
    ck_assert(f->out && (f->heap || !heap_bytes));
    f->addr = gmem_translate(f->g, f->out, 32 * 8);
}

static void teardown_heap(Fixture *f)
{
    gmem_destroy(f->g);
    program_destroy(&f->p);
}

/* Runs t for `lanes` threads; the result's status. */
static GridStatus run(Fixture *f, uint32_t lanes, uint64_t size, uint32_t mode, GridResult *r)
{
    uint32_t params[ISA_MAX_PARAM_WORDS] = { f->out, 0, (uint32_t)size, (uint32_t)(size >> 32), mode };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { lanes, 1, 1 }, .params = params, .nsm = 1, .heap = f->heap };
    grid_run_functional(&f->p.kernels[0], f->g, &L, r);
    return r->status;
}

START_TEST(test_lanes_get_distinct_blocks_in_lane_order)
{
    Fixture f;
    setup_heap(&f, 1 << 20);
    GridResult r;
    ck_assert_int_eq(run(&f, 32, 100, 0, &r), GRID_OK);
    for (int l = 0; l < 32; l++) {
        ck_assert_uint_ne(f.addr[l], 0);
        ck_assert_uint_eq(f.addr[l] % 16, 0);
        ck_assert_uint_gt(f.addr[l], f.heap);
        ck_assert_uint_lt(f.addr[l] + 100, (uint64_t)f.heap + (1 << 20));
        if (l) ck_assert_uint_ge(f.addr[l], f.addr[l - 1] + 100); /* lane order, no overlap */
    }
    uint64_t first[32];
    memcpy(first, f.addr, sizeof first);
    ck_assert_int_eq(run(&f, 32, 0, 2, &r), GRID_OK); /* free all */
    ck_assert_int_eq(run(&f, 32, 112, 0, &r), GRID_OK); /* the same class (112 bytes): the freed blocks again */
    for (int l = 0; l < 32; l++) {
        bool reused = false;
        for (int k = 0; k < 32; k++) reused |= f.addr[l] == first[k];
        ck_assert_msg(reused, "lane %d got 0x%llx, not a freed block", l, (unsigned long long)f.addr[l]);
    }
    teardown_heap(&f);
}
END_TEST

START_TEST(test_full_heap_answers_null)
{
    Fixture f;
    setup_heap(&f, 64 << 10);
    GridResult r;
    ck_assert_int_eq(run(&f, 32, 4096, 0, &r), GRID_OK); /* 4 KiB blocks: the first 14 or so fit in 64 KiB */
    uint32_t got = 0;
    for (int l = 0; l < 32; l++) got += f.addr[l] != 0;
    ck_assert_uint_gt(got, 10);
    ck_assert_uint_lt(got, 16);
    for (int l = (int)got; l < 32; l++) ck_assert_uint_eq(f.addr[l], 0); /* the ones past the end, in lane order */
    ck_assert_int_eq(run(&f, 1, (uint64_t)1 << 40, 0, &r), GRID_OK);
    ck_assert_uint_eq(f.addr[0], 0);
    teardown_heap(&f);
}
END_TEST

START_TEST(test_aligned_requests)
{
    Fixture f;
    setup_heap(&f, 1 << 20);
    GridResult r;
    ck_assert_int_eq(run(&f, 8, 100, 1, &r), GRID_OK);
    for (int l = 0; l < 8; l++) {
        ck_assert_uint_ne(f.addr[l], 0);
        ck_assert_uint_eq(f.addr[l] % 4096, 0);
    }
    ck_assert_int_eq(run(&f, 8, 0, 2, &r), GRID_OK); /* free takes the aligned address */
    teardown_heap(&f);
}
END_TEST

START_TEST(test_bad_frees_fault)
{
    Fixture f;
    setup_heap(&f, 1 << 20);
    GridResult r;
    ck_assert_int_eq(run(&f, 1, 64, 0, &r), GRID_OK);
    ck_assert_int_eq(run(&f, 1, 0, 3, &r), GRID_FAULT); /* twice */
    ck_assert_int_eq(r.fault, FAULT_BAD_FREE);
    ck_assert_msg(strstr(r.message, "invalid free of device heap memory: free(0x"), "%s", r.message);
    f.addr[0] = f.out; /* not the heap's */
    ck_assert_int_eq(run(&f, 1, 0, 2, &r), GRID_FAULT);
    ck_assert_int_eq(r.fault, FAULT_BAD_FREE);
    f.addr[0] = 0; /* free(NULL): nothing */
    ck_assert_int_eq(run(&f, 1, 0, 2, &r), GRID_OK);
    ck_assert_int_eq(run(&f, 1, 64, 0, &r), GRID_OK);
    memset(gmem_translate(f.g, f.addr[0] - 16, 16), 0x5a, 16); /* a stray store over its header */
    ck_assert_int_eq(run(&f, 1, 0, 2, &r), GRID_FAULT);
    ck_assert_int_eq(r.fault, FAULT_BAD_FREE);
    memset(gmem_translate(f.g, f.heap, 8), 0, 8); /* ... over the heap's own */
    ck_assert_int_eq(run(&f, 1, 64, 0, &r), GRID_FAULT);
    ck_assert_int_eq(r.fault, FAULT_HEAP_DAMAGED);
    teardown_heap(&f);
}
END_TEST

START_TEST(test_no_heap_faults)
{
    Fixture f;
    setup_heap(&f, 0);
    GridResult r;
    ck_assert_int_eq(run(&f, 1, 64, 0, &r), GRID_FAULT);
    ck_assert_int_eq(r.fault, FAULT_HEAP_DAMAGED);
    teardown_heap(&f);
}
END_TEST

Suite *heap_suite(void)
{
    Suite *s = suite_create("exec_heap");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_lanes_get_distinct_blocks_in_lane_order);
    tcase_add_test(c, test_full_heap_answers_null);
    tcase_add_test(c, test_aligned_requests);
    tcase_add_test(c, test_bad_frees_fault);
    tcase_add_test(c, test_no_heap_faults);
    suite_add_tcase(s, c);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(heap_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
