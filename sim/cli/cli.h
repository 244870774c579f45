/* sim/cli/cli.h -- the gpusim command line: one function per subcommand.
** Each returns the process exit status: 0 ok, 1 a check failed (or a kernel
** faulted), 2 bad input.                                                    */
#ifndef GPUSIM_SIM_CLI_CLI_H
#define GPUSIM_SIM_CLI_CLI_H

#include <stdbool.h>

enum { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_BAD_INPUT = 2 };

int cmd_asm(int argc, char **argv);

/* True when argv[i] is -h or --help. */
bool cli_is_help(const char *arg);

#endif
