/* cli/cmd_asm.c -- `gpusim asm FILE`: assemble (mini ISA) or read (PTX),
** report the first error as file:line:col, or print each kernel's
** resources and its disassembly with reconvergence points; for PTX each
** instruction as written with the SASS it is timed as (docs/PTX.md) and
** its .loc source line. `--opcodes` prints the mini ISA's instruction
** table, `--ptx-opcodes` the PTX subset with its lowering costs (the
** table docs/PTX.md repeats).                                            */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "isa/disasm.h"
#include "isa/load.h"
#include "isa/ptx.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: gpusim asm FILE.asm | FILE.ptx\n"
                 "       gpusim asm --opcodes | --ptx-opcodes\n\n"
                 "Assembles FILE.asm (mini-ISA, see isa/ISA.md) or reads FILE.ptx (nvcc -ptx output,\n"
                 "see docs/PTX.md). On success prints, per kernel, its parameters, registers per\n"
                 "thread, shared memory and the disassembly with each branch's reconvergence point\n"
                 "(immediate post-dominator); for PTX, each instruction as written with the SASS it\n"
                 "is timed as. On error prints file:line:col: error: ... and exits 2.\n"
                 "  --opcodes       list every mini-ISA instruction with its unit and semantics\n"
                 "  --ptx-opcodes   list the PTX subset with what each instruction costs\n");
}

static void print_opcodes(void)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (!(OP_INFO[i].flags & OPF_PTX))
            printf("%-22s %-5s %s\n", OP_INFO[i].mnemonic, UNIT_NAMES[OP_INFO[i].unit], OP_INFO[i].semantics);
}

/* "free", "1 alu", "10 fma, lat div": what one instruction is timed as. */
static const char *cost_text(uint32_t slots, uint32_t unit, uint32_t lat, char *buf, size_t cap)
{
    if (slots == 0) snprintf(buf, cap, "free");
    else if (lat == unit) snprintf(buf, cap, "%u %s", slots, UNIT_NAMES[unit]);
    else snprintf(buf, cap, "%u %s, lat %s", slots, UNIT_NAMES[unit], UNIT_NAMES[lat]);
    return buf;
}

/* The PTX subset as one markdown table row per opcode row (docs/PTX.md). */
static void print_ptx_opcodes(void)
{
    printf("| row | PTX | SASS it is timed as | semantics |\n| --- | --- | --- | --- |\n");
    for (int i = 0; i < OP_COUNT; i++) {
        const OpInfo *r = &OP_INFO[i];
        char c[48];
        printf("| `%s` | %s | %s | ", r->mnemonic, r->flags & OPF_PTX ? "PTX only" : "shared with the mini ISA",
               cost_text(r->lower.slots, r->lower.unit, r->lower.latency, c, sizeof c));
        for (const char *t = r->semantics; *t; t++) { /* '|' escaped, as in isa/ISA.md */
            if (*t == '|') putchar('\\');
            putchar(*t);
        }
        printf(" |\n");
    }
}

/* Where each line of text[0..len) begins: starts[l - 1] for line l, so a
** listing finds its source lines in constant time (*n lines). */
static size_t *line_starts(const char *text, size_t len, uint32_t *n)
{
    uint32_t lines = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p))) != NULL; p++) lines++;
    size_t *starts = malloc(lines * sizeof *starts);
    if (!starts) return NULL;
    uint32_t l = 0;
    starts[l++] = 0;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p))) != NULL; p++) starts[l++] = (size_t)(p + 1 - text);
    *n = lines;
    return starts;
}

/* The source line `line`, without its indentation. */
static void source_line(const char *text, size_t len, const size_t *starts, uint32_t nlines, uint32_t line, char *buf,
                        size_t cap)
{
    const char *p = line >= 1 && line <= nlines ? text + starts[line - 1] : text + len, *end = text + len;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    size_t n = 0; /* runs of blanks become one space */
    for (; p < end && *p != '\n' && *p != '\r' && n + 1 < cap; p++) {
        bool blank = *p == ' ' || *p == '\t';
        if (blank && n && buf[n - 1] == ' ') continue;
        buf[n++] = blank ? ' ' : *p;
    }
    while (n && buf[n - 1] == ' ') n--;
    buf[n] = 0;
}

static void print_ptx_kernel(const Program *prog, const Kernel *k, const char *text, size_t len, const size_t *starts,
                             uint32_t nlines)
{
    uint64_t slots = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) slots += k->code[pc].slots;
    printf("// kernel %s: %u PTX instructions timed as %llu SASS instructions, %u virtual registers in %u register rows, "
           "%u predicate slots, %u bytes static shared memory\n",
           k->name, k->ncode, (unsigned long long)slots, k->vregs, k->regs_used, k->preds_used, k->static_smem);
    printf("// .entry %s\n", k->mangled);
    if (k->signature) printf("// %s\n", k->signature);
    else if (!ptx_can_demangle()) printf("// (demangling unavailable in this build: install libiberty-dev)\n");
    printf("// registers per thread for occupancy: a variant's \"regs\", else ptxas -v's count where the CUDA toolkit is "
           "installed, else %u (estimated)\n", k->regs_estimated);
    for (uint32_t i = 0; i < k->nparams; i++)
        printf("//   param %-10s .%-4s %s offset %u, %u bytes\n", k->params[i].name, TYPE_NAMES[k->params[i].type],
               k->params[i].is_ptr ? "pointer" : "value  ", k->params[i].offset, k->params[i].size);
    uint32_t li = 0, last_line = 0;
    char buf[256], c[48];
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        for (; li < k->nlabels && k->labels[li].pc <= pc; li++)
            if (k->labels[li].pc == pc) printf("%s:\n", k->labels[li].name);
        const Instr *in = &k->code[pc];
        if (in->line == last_line) { /* the second half of a split instruction */
            snprintf(buf, sizeof buf, "  (%s)", OP_INFO[in->op].mnemonic);
        } else {
            source_line(text, len, starts, nlines, in->line, buf, sizeof buf);
        }
        last_line = in->line;
        char line[512];
        int n = snprintf(line, sizeof line, "    %-52s // %4u  %-16s", buf, pc, cost_text(in->slots, in->lunit, in->llat, c, sizeof c));
        if (n > 0 && (in->op == OP_BRA || in->op == OP_BRA_UNI) && in->guard != ISA_NO_GUARD && (size_t)n < sizeof line) {
            const char *l = in->reconv >= k->ncode ? NULL : kernel_label_at(k, in->reconv);
            if (in->reconv >= k->ncode) n += snprintf(line + n, sizeof line - (size_t)n, "  reconverge: at exit");
            else n += snprintf(line + n, sizeof line - (size_t)n, "  reconverge: pc %u%s%s", in->reconv, l ? " " : "", l ? l : "");
        }
        if (n > 0 && (size_t)n < sizeof line && in->src_file && in->src_file <= prog->nsrc_files &&
            prog->src_files[in->src_file - 1]) {
            const char *f = prog->src_files[in->src_file - 1], *slash = strrchr(f, '/');
            n += snprintf(line + n, sizeof line - (size_t)n, "  %s:%u", slash ? slash + 1 : f, in->src_line);
        }
        size_t e = strlen(line);
        while (e && line[e - 1] == ' ') line[--e] = 0;
        puts(line);
    }
}

int cmd_asm(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        } else if (strcmp(argv[i], "--opcodes") == 0) {
            print_opcodes();
            return EXIT_OK;
        } else if (strcmp(argv[i], "--ptx-opcodes") == 0) {
            print_ptx_opcodes();
            return EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gpusim asm: error: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_BAD_INPUT;
        } else if (path) {
            fprintf(stderr, "gpusim asm: error: one file at a time ('%s' and '%s')\n", path, argv[i]);
            return EXIT_BAD_INPUT;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    Program prog;
    Diag d;
    char *text, why[256];
    size_t len;
    FileReadStatus st = file_read(path, PTX_MAX_FILE_BYTES, &text, &len, why, sizeof why);
    if (st != FILE_READ_OK) {
        diag_set(&d, path, 0, 0, st == FILE_READ_CANNOT_OPEN ? "cannot open: %s" : "%s", why);
        diag_print(stderr, &d);
        return EXIT_BAD_INPUT;
    }
    KernelFileKind kind = program_file_kind(path, text, len);
    if (kind == KFILE_CU) {
        fprintf(stderr, "gpusim asm: error: '%s' is CUDA C: compile it first (nvcc -O3 -ptx -arch=sm_90 %s), or name it "
                        "in a workload, which compiles it\n", path, path);
        free(text);
        return EXIT_BAD_INPUT;
    }
    if (!program_parse(kind, text, len, path, &prog, &d)) {
        diag_print(stderr, &d);
        free(text);
        return EXIT_BAD_INPUT;
    }
    uint32_t nlines = 0;
    size_t *starts = kind == KFILE_PTX ? line_starts(text, len, &nlines) : NULL;
    if (kind == KFILE_PTX && !starts) {
        fprintf(stderr, "gpusim asm: out of memory\n");
        program_destroy(&prog);
        free(text);
        return EXIT_BAD_INPUT;
    }
    /* kernels the PTX front end refused: their errors first, and exit 2 */
    int rc = EXIT_OK;
    for (uint32_t i = 0; i < prog.nkernels; i++) {
        Diag d;
        if (!kernel_runnable(&prog, &prog.kernels[i], &d)) {
            diag_print(stderr, &d);
            rc = EXIT_BAD_INPUT;
        }
    }
    for (uint32_t i = 0; i < prog.nkernels; i++) {
        const Kernel *k = &prog.kernels[i];
        if (i) printf("\n");
        if (k->refused) {
            printf("// kernel %s: refused (see the error above)\n", k->name);
            continue;
        }
        if (k->ptx) {
            print_ptx_kernel(&prog, k, text, len, starts, nlines);
            continue;
        }
        printf("// kernel %s: %u instructions, %u registers per thread%s, %u predicates, "
               "%u bytes static shared memory%s\n",
               k->name, k->ncode, kernel_regs_per_thread(k), k->regs_declared ? " (declared with .regs)" : "",
               k->preds_used, k->static_smem,
               k->nshared && k->shared[k->nshared - 1].size == 0 ? " + dynamic" : "");
        if (k->regs_declared) printf("// the code itself uses %u registers\n", k->regs_used);
        disasm_kernel(stdout, k, true);
    }
    free(starts);
    program_destroy(&prog);
    free(text);
    return rc;
}
