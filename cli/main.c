/* cli/main.c -- `gpusim`: dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "gpusim_version.h"
#include "cli/cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Command;

static const Command COMMANDS[] = {
    { "exec", cmd_exec, "run a CUDA program as it is, its kernels on a simulated GPU; report each kernel" },
    { "run", cmd_run, "run a workload's variants on a simulated GPU: check, compare, explain" },
    { "asm", cmd_asm, "assemble a kernel file; print registers, shared memory, disassembly, reconvergence" },
    { "occupancy", cmd_occupancy, "blocks per SM, occupancy and the limiting resource of a launch (CUDA's rules)" },
    { "compare", cmd_compare, "simulate what gpusim-validate measured on a GPU and compare, variant by variant" },
    { "gpus", cmd_gpus, "list the GPU presets, or print one machine (with --set overrides) as JSON" },
    { "sweep", cmd_sweep, "simulate every point of a design space on every core; resume, shard, merge, plot" },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: gpusim <command> [options]\n"
                 "       gpusim --version | --help\n\n"
                 "A cycle-approximate SIMT GPU simulator.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(out, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\n'gpusim <command> --help' describes one command.\n"
                 "Exit status: 0 ok, 1 a check failed or a kernel faulted, 2 bad input or an output\n"
                 "that could not be written.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return cli_flush_stdout("--help") ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gpusim %s\n", GPUSIM_VERSION);
        return cli_flush_stdout("--version") ? EXIT_OK : EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0) {
            int rc = COMMANDS[i].run(argc - 1, argv + 1);
            /* every command's output: a full disk or a closed pipe is an error, not a silent exit 0 */
            return cli_flush_stdout(COMMANDS[i].name) ? rc : EXIT_BAD_INPUT;
        }
    fprintf(stderr, "gpusim: error: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
