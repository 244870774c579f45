/* bench/frontends.c -- gpusim-bench-frontends: every front end on the worst
** shapes of large but legal input we know of, about 10 MB each, timed.
** A front end must answer any 10 MB input in under 2 s (linear or n log n
** in its size): a shape over that is printed as SLOW and the exit status
** is 1. Inputs are generated in memory, never written to disk; each is
** parsed once (the time of one parse is what a user waits for).
** Shapes: the assembler (one kernel of branches fanning out to few
** labels, deep nests of loops, long chains of labels, 80,000 kernels),
** the PTX front end (many kernels, one long kernel of many registers,
** branches fanning out, many declared register ranges), the .npy reader
** (one large array, and a header padded to its limit),
** the workload loader (parameters defined through each other, many
** buffers, many variants, long argument lists), the machine-file loader
** (deep nesting and blank padding around the knobs).                     */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/asm.h"
#include "isa/load.h"
#include "sim/config.h"
#include "workloads/loader.h"
#include "workloads/npy.h"

#define TARGET_BYTES (10u << 20)
#define LIMIT_SECONDS 2.0

typedef struct {
    char  *s;
    size_t len, cap;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap ? 2 * t->cap : 1 << 20;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
}

/* Binary bytes (a .npy header holds NULs, which put's format would stop at). */
static void put_bytes(Text *t, const void *bytes, size_t n)
{
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap : 1u << 16;
        while (cap < t->len + n) cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            fprintf(stderr, "gpusim-bench-frontends: out of memory\n");
            exit(2);
        }
        t->s = s, t->cap = cap;
    }
    memcpy(t->s + t->len, bytes, n);
    t->len += n;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int slow;

static void report(const char *name, const Text *t, double s, bool ok, const Diag *d)
{
    bool over = s > LIMIT_SECONDS;
    slow |= over;
    printf("%-34s %6.1f MB %8.3f s  %s%s%s\n", name, t->len / 1048576.0, s, over ? "SLOW " : "",
           ok ? "accepted" : "refused: ", ok ? "" : d->message);
}

static void bench_asm(const char *name, const Text *t)
{
    Program p;
    Diag d;
    double t0 = seconds();
    bool ok = asm_parse(t->s, t->len, name, &p, &d);
    double s = seconds() - t0;
    if (ok) program_destroy(&p);
    report(name, t, s, ok, &d);
}

static void bench_ptx(const char *name, const Text *t)
{
    Program p;
    Diag d;
    double t0 = seconds();
    bool ok = program_parse(KFILE_PTX, t->s, t->len, name, &p, &d);
    double s = seconds() - t0;
    if (ok) program_destroy(&p);
    report(name, t, s, ok, &d);
}

static void bench_npy(const char *name, const Text *t)
{
    NpyArray a;
    Diag d;
    double t0 = seconds();
    bool ok = npy_parse(t->s, t->len, name, &a, &d);
    double s = seconds() - t0;
    if (ok) npy_free(&a);
    report(name, t, s, ok, &d);
}

static const char PTX_HEAD[] = ".version 8.0\n.target sm_90\n.address_size 64\n";

static void bench_workload(const char *name, const Text *t, const GpuConfig *c)
{
    Workload w;
    Diag d;
    double t0 = seconds();
    /* the kernel file is resolved next to the named path: the shipped kernels */
    bool ok = workload_parse(t->s, t->len, GPUSIM_SOURCE_DIR "/workloads/bench.json", c, NULL, 0, &w, &d);
    double s = seconds() - t0;
    if (ok) workload_destroy(&w);
    report(name, t, s, ok, &d);
}

static void bench_machine(const char *name, const Text *t)
{
    GpuConfig c;
    Diag d;
    double t0 = seconds();
    bool ok = config_parse(t->s, t->len, name, &c, &d);
    report(name, t, seconds() - t0, ok, &d);
}

/* The assembler: a branch fan-out, nested loops, labels, many kernels. */
static void asm_cases(Text *t)
{
    t->len = 0;
    put(t, ".kernel fan\n");
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, "B%u: @%%p0 bra E%u\n", i, i % 64);
    for (unsigned i = 0; i < 64; i++) put(t, "E%u: add.u32 %%r1, %%r1, %u\n", i, i);
    put(t, "    exit\n");
    bench_asm("asm: branch fan-out", t);

    t->len = 0;
    unsigned loops = TARGET_BYTES / 48;
    put(t, ".kernel nest\n");
    for (unsigned i = 0; i < loops; i++) put(t, "L%u: add.u32 %%r1, %%r1, 1\n", i);
    for (unsigned i = loops; i-- > 0;) put(t, "C%u: @%%p0 bra L%u\n", i, i);
    put(t, "    exit\n");
    bench_asm("asm: nested loops", t);

    t->len = 0;
    put(t, ".kernel chain\n");
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, "label_number_%u:\n", i);
    put(t, "    exit\n");
    bench_asm("asm: labels on one instruction", t);

    t->len = 0;
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, ".kernel k%u\n.param .u32 a\n    exit\n", i);
    bench_asm("asm: many kernels", t);

}

/* The PTX front end: many kernels, one long kernel, a fan-out, register ranges. */
static void ptx_cases(Text *t)
{
    t->len = 0;
    put(t, "%s", PTX_HEAD);
    for (unsigned i = 0; t->len < TARGET_BYTES; i++)
        put(t, ".visible .entry k%u(\n\t.param .u32 k%u_param_0\n)\n{\n\tret;\n}\n", i, i);
    bench_ptx("ptx: many kernels", t);

    t->len = 0;
    put(t, "%s.visible .entry long(\n\t.param .u64 long_param_0\n)\n{\n\t.reg .b32 %%r<60000>;\n", PTX_HEAD);
    for (unsigned i = 1; t->len < TARGET_BYTES; i++) put(t, "\tadd.s32 %%r%u, %%r%u, %u;\n", i % 59999 + 1, (i * 7) % 59999 + 1, i);
    put(t, "\tret;\n}\n");
    bench_ptx("ptx: one long kernel, many registers", t);

    t->len = 0;
    put(t, "%s.visible .entry fan(\n\t.param .u64 fan_param_0\n)\n{\n\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<4>;\n", PTX_HEAD);
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, "$B%u:\n\t@%%p1 bra $E%u;\n", i, i % 64);
    for (unsigned i = 0; i < 64; i++) put(t, "$E%u:\n\tadd.s32 %%r1, %%r1, %u;\n", i, i);
    put(t, "\tret;\n}\n");
    bench_ptx("ptx: branch fan-out", t);

    t->len = 0;
    put(t, "%s.visible .entry decls(\n\t.param .u64 decls_param_0\n)\n{\n", PTX_HEAD);
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, "\t.reg .b32 %%v%u_<4>;\n", i);
    put(t, "\tret;\n}\n");
    bench_ptx("ptx: many register ranges", t);

}

/* The .npy reader: one large array. */
static void npy_cases(Text *t)
{
    t->len = 0;
    uint64_t count = TARGET_BYTES / 4;
    uint8_t npy_head[256];
    size_t hl = npy_header(WL_F32, count, npy_head, sizeof npy_head);
    static const uint8_t one[4] = { 0x00, 0x00, 0x80, 0x3f }; /* 1.0f, little-endian */
    put_bytes(t, npy_head, hl);
    for (uint64_t i = 0; i < count; i++) put_bytes(t, one, sizeof one);
    bench_npy("npy: one large array", t);

}

/* The workload loader: chained parameters, many buffers and variants, one long expression. */
static void workload_cases(Text *t, const GpuConfig *c)
{
    const char *head = "{\"name\": \"bench\", \"description\": \"bench\", \"kernels\": \"kernels/vecadd.asm\",\n";
    const char *one_variant = "\"variants\": [{\"name\": \"v\", \"kernel\": \"vecadd_scalar\", \"grid\": 1, \"block\": 32, "
                              "\"args\": [\"a\", \"b\", \"c\", 1]}]}\n";
    const char *three_buffers = "{\"name\": \"a\", \"type\": \"f32\", \"count\": 32}, {\"name\": \"b\", \"type\": "
                                "\"f32\", \"count\": 32}, {\"name\": \"c\", \"type\": \"f32\", \"count\": 32}";
    t->len = 0;
    put(t, "%s\"params\": {\"p0\": 1", head);
    for (unsigned i = 1; t->len < TARGET_BYTES; i++) put(t, ", \"p%u\": \"p%u + 1\"", i, i - 1);
    put(t, "},\n\"buffers\": [%s],\n%s", three_buffers, one_variant);
    bench_workload("workload: chained params", t, c);

    t->len = 0;
    put(t, "%s\"buffers\": [%s", head, three_buffers);
    for (unsigned i = 0; t->len < TARGET_BYTES; i++) put(t, ", {\"name\": \"x%u\", \"type\": \"u32\", \"count\": 1}", i);
    put(t, "],\n%s", one_variant);
    bench_workload("workload: many buffers", t, c);

    t->len = 0;
    put(t, "%s\"buffers\": [%s],\n\"variants\": [", head, three_buffers);
    for (unsigned i = 0; t->len < TARGET_BYTES; i++)
        put(t, "%s{\"name\": \"v%u\", \"kernel\": \"vecadd_scalar\", \"grid\": 1, \"block\": 32, \"args\": [\"a\", \"b\", \"c\", 1]}",
            i ? ", " : "", i);
    put(t, "]}\n");
    bench_workload("workload: many variants", t, c);

    t->len = 0;
    put(t, "%s\"params\": {\"n\": 1}, \"buffers\": [%s],\n\"variants\": [{\"name\": \"v\", \"kernel\": \"vecadd_scalar\", "
            "\"grid\": \"1", head, three_buffers);
    while (t->len < TARGET_BYTES) put(t, "+n-n");
    put(t, "\", \"block\": 32, \"args\": [\"a\", \"b\", \"c\", 1]}]}\n");
    bench_workload("workload: one long expression", t, c);

}

/* The machine-file loader: blank padding, deep nesting. */
static void machine_cases(Text *t, const GpuConfig *c)
{
    char *preset = config_to_json(c);
    t->len = 0;
    for (size_t i = 0; preset && preset[i]; i++) {
        put(t, "%c", preset[i]);
        if (preset[i] == '\n') for (int k = 0; k < 200; k++) put(t, " \n"); /* between members only */
    }
    while (t->len < TARGET_BYTES) put(t, " \n\t");
    bench_machine("machine: blank padding", t);
    t->len = 0;
    put(t, "{\"name\": \"deep\", \"x\": [");
    while (t->len < TARGET_BYTES - 4096) {
        for (int k = 0; k < 990; k++) put(t, "[");
        for (int k = 0; k < 990; k++) put(t, "]");
        put(t, ",");
    }
    put(t, "0]}");
    bench_machine("machine: deep nesting (unknown key)", t);
    free(preset);
}

int main(void)
{
    Text t = { 0 };
    GpuConfig c;
    Diag d;
    if (!config_load("a100", &c, &d)) {
        fprintf(stderr, "%s\n", d.message);
        return 2;
    }
    asm_cases(&t);
    ptx_cases(&t);
    npy_cases(&t);
    workload_cases(&t, &c);
    machine_cases(&t, &c);
    free(t.s);
    printf(slow ? "a front end took over %.0f s on a 10 MB input\n" : "every front end under %.0f s\n", LIMIT_SECONDS);
    return slow ? 1 : 0;
}
