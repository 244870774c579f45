/* cli/cmd_asm.c -- `gpusim asm FILE`: assemble, report the first error
** as file:line:col, or print each kernel's resources and its disassembly
** with reconvergence points. `--opcodes` prints the instruction table.   */
#include <stdio.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: gpusim asm FILE.asm\n"
                 "       gpusim asm --opcodes\n\n"
                 "Assembles FILE.asm (mini-ISA, see isa/ISA.md). On success prints, per kernel,\n"
                 "its parameters, registers per thread, shared memory and the disassembly with\n"
                 "each branch's reconvergence point (immediate post-dominator). On error prints\n"
                 "file:line:col: error: ... and exits 2.\n"
                 "  --opcodes   list every instruction with its unit and semantics\n");
}

static void print_opcodes(void)
{
    for (int i = 0; i < OP_COUNT; i++)
        printf("%-22s %-5s %s\n", OP_INFO[i].mnemonic, UNIT_NAMES[OP_INFO[i].unit], OP_INFO[i].semantics);
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
    if (!asm_parse_file(path, &prog, &d)) {
        diag_print(stderr, &d);
        return EXIT_BAD_INPUT;
    }
    for (uint32_t i = 0; i < prog.nkernels; i++) {
        const Kernel *k = &prog.kernels[i];
        if (i) printf("\n");
        printf("// kernel %s: %u instructions, %u registers per thread%s, %u predicates, "
               "%u bytes static shared memory%s\n",
               k->name, k->ncode, kernel_regs_per_thread(k), k->regs_declared ? " (declared with .regs)" : "",
               k->preds_used, k->static_smem,
               k->nshared && k->shared[k->nshared - 1].size == 0 ? " + dynamic" : "");
        if (k->regs_declared) printf("// the code itself uses %u registers\n", k->regs_used);
        disasm_kernel(stdout, k, true);
    }
    program_destroy(&prog);
    return EXIT_OK;
}
