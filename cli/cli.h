/* cli/cli.h -- the gpusim command line: one function per subcommand.
** Each returns the process exit status: 0 ok, 1 a check failed (or a kernel
** faulted), 2 bad input.                                                    */
#ifndef GPUSIM_CLI_CLI_H
#define GPUSIM_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/config.h"
#include "workloads/loader.h"

enum { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_BAD_INPUT = 2 };

int cmd_run(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_gpus(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_exec(int argc, char **argv);

/* ---- shared option handling (cli/cli_common.c) ---- */

/* True when arg is -h or --help. */
bool cli_is_help(const char *arg);

/* True when argv[*i] is the option flag, written "--flag VALUE" or
** "--flag=VALUE". *value then points at the value inside argv (advancing *i
** past a separate value), or is NULL when a separate value is missing.
** False, *i and *value untouched, for any other argument. */
bool cli_option(int argc, char **argv, int *i, const char *flag, const char **value);

/* Prints "gpusim CMD: error: MESSAGE" (printf-style, newline added) to
** stderr and returns EXIT_BAD_INPUT, for usage errors that have no Diag. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Numbers from the command line, without a message (the caller words it).
** cli_number_u64: digits only, within 64 bits; with allow_exponent also a
** whole number in exponent form (2e9). cli_number_double: a finite number in
** plain decimal or exponent notation (no hex, inf or nan). */
bool cli_number_u64(const char *s, bool allow_exponent, uint64_t *out);
bool cli_number_double(const char *s, double *out);

/* Strict unsigned decimal: s must be digits only (no sign, blanks, hex or
** suffix) with a value in [lo, hi]. On success stores it in *out; otherwise
** returns false and fills d with file = flag (e.g. "--block") and a message
** giving the range and what was found. */
bool cli_parse_u32(const char *s, const char *flag, uint32_t *out, uint32_t lo, uint32_t hi, Diag *d);

/* True when paths a and b name one existing file (for refusing to write an
** output over an input). */
bool cli_same_file(const char *a, const char *b);

/* Flushes stdout; on a write error (a full disk, a closed pipe) says so on
** stderr as "gpusim CMD: error: writing the output failed: ..." and returns
** false: the caller exits 2. Every command calls it before it returns. */
bool cli_flush_stdout(const char *cmd);

/* Whether a launch's --threads are fitted to the cores the host has free
** (Launch.threads_fit_host): yes, unless GPUSIM_THREADS_EXACT is set to a
** number other than 0 (the tests, which must run the threads they ask for). */
bool cli_threads_fit_host(void);

/* Seconds on the monotonic clock (for elapsed times and progress lines). */
double cli_now_seconds(void);

/* s seconds as a progress line shows them: "0:42", "1:02:05". */
void cli_clock_text(double s, char *buf, size_t cap);

/* The machine a command runs on: config_load(gpu, or CONFIG_DEFAULT_GPU when
** gpu is NULL), then config_set for each of sets[0..nsets) in order (each
** "key=value", as given to --set), then config_validate. On success fills
** *out. On the first error returns false, leaves *out unchanged and fills d:
** file = the machine file with line:col where known, "--gpu" for an unknown
** preset name, or "--set" for a bad override or one that makes the machine
** inconsistent. Never prints. */
bool cli_load_gpu(const char *gpu, char **sets, int nsets, GpuConfig *out, Diag *d);

/* The variants a command runs (`--variant NAME`, repeatable; none given:
** all) into selected[w->nvariants]: those named and those their same_as
** checks compare with (workload_select). A name the workload does not have
** is reported on stderr as `gpusim CMD: error: FILE has no variant 'X'
** (it has: ...); did you mean 'Y'?` and returns false. */
bool cli_select_variants(const char *cmd, const char *file, const Workload *w, const char *const *names, size_t n,
                         bool *selected);

#endif
