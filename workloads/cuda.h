/* workloads/cuda.h -- the CUDA toolkit, where it is installed: a workload's
** .cu kernel file compiled on the fly with `nvcc -O3 -ptx -lineinfo
** -arch=sm_XX [nvcc_flags]`, and the registers per thread that `ptxas -v`
** gives each kernel, both cached by content in $GPUSIM_CACHE_DIR, else
** $XDG_CACHE_HOME/gpusim, else ~/.cache/gpusim (cache files are written
** under a temporary name and renamed, so none is ever half written).
** Keys: the .cu bytes, its real path and the working directory, the
** command line, and the tool's --version output; then every file nvcc read
** (its -MD list, kept beside the entry with each file's hash) must hash as
** it did, or the entry is compiled again.
** nvcc and ptxas are $GPUSIM_NVCC and $GPUSIM_PTXAS when set (an empty or
** wrong path: not installed), else found on PATH, in $CUDA_HOME/bin, or in
** /usr/local/cuda/bin. The compiler's messages come back unchanged in the
** Diag (cut to fit, with the log's path when longer). Library code: it
** runs the tools but prints nothing.                                    */
#ifndef GPUSIM_WORKLOADS_CUDA_H
#define GPUSIM_WORKLOADS_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/program.h"

/* Path of tool ("nvcc", "ptxas") into buf, or false when not installed. */
bool cuda_find_tool(const char *tool, char *buf, size_t cap);

/* The cache folder (made if missing) into buf; false with d set when it
** cannot be made. */
bool cuda_cache_dir(char *buf, size_t cap, Diag *d);

/* Compiles the .cu file at path for sm_<sm> with the extra flags; on
** success *ptx holds the PTX text (malloc'd, *len bytes) and ptx_path
** (cap bytes) the cached file. False with d set: no nvcc (what to install,
** and that .ptx files need none), or the compiler's own errors. */
bool cuda_compile(const char *path, uint32_t sm, const char *const *flags, size_t nflags, char **ptx, size_t *len,
                  char *ptx_path, size_t cap, Diag *d);

/* Builds the .cu program at path with `nvcc -O3 -cudart=shared -lineinfo
** -arch=sm_<sm> [flags]` into the cache (same keys as cuda_compile), for
** gpusim exec; exe_path (cap bytes) names the cached executable. False with
** d set: no nvcc, or the compiler's own errors. */
bool cuda_build_program(const char *path, uint32_t sm, const char *const *flags, size_t nflags, char *exe_path,
                        size_t cap, Diag *d);

/* A cache entry's manifest (what cuda_compile keeps beside it): writes the
** manifest of the files a make rule (nvcc -MD's depfile) lists after its
** target's colon, each by its real path with its content hash; false when
** one cannot be read or the manifest cannot be written. */
bool cuda_manifest_write(const char *depfile, const char *manifest);

/* Whether every file of the manifest still hashes as it did (false for a
** manifest that is missing, empty or cut). */
bool cuda_manifest_fresh(const char *manifest);

/* Sets regs_declared of every kernel of p from `ptxas -v` on the PTX text
** (for sm_<sm>, or the module's own .target when ptxas refuses that).
** Returns the number of kernels it set (0 when ptxas is not installed or
** fails: the caller falls back to the workload's regs or the estimate). */
uint32_t cuda_ptxas_regs(Program *p, const char *ptx, size_t len, uint32_t sm);

#endif
