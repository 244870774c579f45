/* cli/cmd_exec.c -- `gpusim exec`: a CUDA program, unmodified, on the
** simulated GPU. The program runs natively with our libcudart.so.13
** (cudart/) loaded in place of NVIDIA's: gpusim checks the program and its
** options, builds a .cu first (nvcc -cudart=shared, cached), passes the
** options in the environment (cudart/runtime.h) and replaces itself with
** the program, whose output and exit status are then its own; the runtime
** prints the per-kernel report when the program exits. docs/CUDA.md.  */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/gpu.h"
#include "workloads/cuda.h"

#define CUDART_NAME "libcudart.so.13"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim exec [--gpu NAME|FILE] [--set key=value]... [--report FILE.json]\n"
            "                   [--source] [--trace FILE] [--threads N] [--kernels REGEX] [--max-launches N]\n"
            "                   [--profile-from-start on|off] [--progress on|off|auto] [--nvcc-flag FLAG]...\n"
            "                   [--] PROGRAM|FILE.cu [ARGS...]\n\n"
            "Runs a CUDA program as it is, its kernels on a simulated GPU: the host code runs\n"
            "natively with gpusim's CUDA runtime in place of NVIDIA's; every launch runs on the\n"
            "simulated device. The program's output and exit status are its own; when it exits,\n"
            "a row per kernel follows on stderr (launches, grid, block, registers, simulated\n"
            "time, occupancy and limiter, DRAM GB/s, top warp state, and why).\n"
            "  PROGRAM              built with 'nvcc -cudart shared' (nvcc's default, the static\n"
            "                       runtime, cannot be replaced: it is refused with what to do)\n"
            "  FILE.cu              built first with nvcc -O3 -cudart=shared -lineinfo -arch=sm_XX\n"
            "                       for the simulated GPU (cached, as workloads' .cu files are)\n"
            "  --gpu NAME|FILE      preset (see `gpusim gpus`) or machine file; default %s\n"
            "  --set key=value      change a knob of the machine (repeatable)\n"
            "  --report FILE.json   also write the report as JSON\n"
            "  --source             print each timed kernel's per-line view (as gpusim run --source)\n"
            "  --trace FILE         write a Chrome trace (Perfetto) of every timed launch, one after\n"
            "                       another, as gpusim run --trace does\n"
            "  --threads N          host threads per launch (results are the same for every N;\n"
            "                       default: the host's free cores for a launch of " GPU_AUTO_THREADS_MIN_BLOCKS_TEXT " blocks or\n"
            "                       more, one for a smaller one)\n"
            "  --kernels REGEX      time only the kernels whose name matches (POSIX extended);\n"
            "                       the others run functionally, results exact, marked not timed\n"
            "  --max-launches N     time at most the first N launches of each kernel\n"
            "  --profile-from-start on|off\n"
            "                       off: time only the launches between the program's\n"
            "                       cudaProfilerStart and cudaProfilerStop (default on: all)\n"
            "  --progress on|off|auto\n"
            "                       a line on stderr while a timed launch runs longer than a\n"
            "                       second (its blocks done), erased when it ends; auto (the\n"
            "                       default): when stderr is a terminal\n"
            "  --nvcc-flag FLAG     an extra nvcc flag when building FILE.cu (repeatable)\n"
            "Events (cudaEventElapsedTime) read the simulated clock: kernels move it by their\n"
            "simulated time; copies and memsets take none. Exit status: the program's, or 2\n"
            "when gpusim cannot start it.\n",
            CONFIG_DEFAULT_GPU);
}

/* Whether the `avail` bytes at p begin with prefix (exact: with its NUL). */
static bool starts(const uint8_t *p, size_t avail, const char *prefix, bool exact)
{
    size_t n = strlen(prefix) + (exact ? 1 : 0);
    return avail >= n && memcmp(p, prefix, n) == 0;
}

typedef enum { PROG_DYNAMIC_CUDART, PROG_STATIC_CUDART, PROG_OTHER } ProgramKind;

/* Whether an ELF file needs libcudart.so.* or carries device code without
** it (NVIDIA's static runtime linked in). Anything else (a script, a
** 32-bit file) is PROG_OTHER: run as it is. */
static ProgramKind program_kind(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return PROG_OTHER;
    struct stat st;
    ProgramKind kind = PROG_OTHER;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        return kind;
    }
    size_t size = (size_t)st.st_size;
    const uint8_t *f = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED) return kind;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff >= size ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
        eh->e_shstrndx >= eh->e_shnum)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    bool fatbin = false, needs_cudart = false;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (names->sh_offset < size && sh[i].sh_name < size - names->sh_offset &&
            starts(f + names->sh_offset + sh[i].sh_name, size - names->sh_offset - sh[i].sh_name, ".nv_fatbin", true))
            fatbin = true;
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh->e_shnum || sh[i].sh_offset >= size ||
            sh[i].sh_size > size - sh[i].sh_offset)
            continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (str->sh_offset >= size || str->sh_size > size - str->sh_offset) continue;
        const Elf64_Dyn *dyn = (const Elf64_Dyn *)(f + sh[i].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *dyn && dyn[k].d_tag != DT_NULL; k++)
            if (dyn[k].d_tag == DT_NEEDED && dyn[k].d_un.d_val < str->sh_size &&
                starts(f + str->sh_offset + dyn[k].d_un.d_val, str->sh_size - dyn[k].d_un.d_val, "libcudart.so", false))
                needs_cudart = true;
    }
    kind = needs_cudart ? PROG_DYNAMIC_CUDART : fatbin ? PROG_STATIC_CUDART : PROG_OTHER;
done:
    munmap((void *)f, size);
    return kind;
}

/* Our libcudart.so.13: $GPUSIM_CUDART, else beside this gpusim (the build
** tree's cudart/), else the installed lib/gpusim/. */
static bool find_cudart(char *buf, size_t cap)
{
    const char *env = getenv("GPUSIM_CUDART");
    if (env && *env) {
        snprintf(buf, cap, "%s", env);
        return access(buf, R_OK) == 0;
    }
    char self[2048];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return false;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return false;
    *slash = '\0';
    snprintf(buf, cap, "%s/cudart/%s", self, CUDART_NAME);
    if (access(buf, R_OK) == 0) return true;
    snprintf(buf, cap, "%s/../lib/gpusim/%s", self, CUDART_NAME);
    return access(buf, R_OK) == 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* VAR=value, or VAR=value:old when it is set (a path list). */
static bool prepend_env(const char *var, const char *value, char sep)
{
    const char *old = getenv(var);
    if (!old || !*old) return setenv(var, value, 1) == 0;
    size_t n = strlen(value) + strlen(old) + 2;
    char *v = malloc(n);
    if (!v) return false;
    snprintf(v, n, "%s%c%s", value, sep, old);
    bool ok = setenv(var, v, 1) == 0;
    free(v);
    return ok;
}

static bool append_env(const char *var, const char *value, char sep)
{
    const char *old = getenv(var);
    if (!old || !*old) return setenv(var, value, 1) == 0;
    size_t n = strlen(value) + strlen(old) + 2;
    char *v = malloc(n);
    if (!v) return false;
    snprintf(v, n, "%s%c%s", old, sep, value);
    bool ok = setenv(var, v, 1) == 0;
    free(v);
    return ok;
}

#define MAX_SETS  256
#define MAX_FLAGS 64

/* What the command line asks of the runtime. */
typedef struct {
    const char *gpu, *report, *kernels, *trace;
    char       *sets[MAX_SETS];
    int         nsets;
    bool        source, from_start;
    const char *progress; /* "1", "0" or "auto" (GPUSIM_PROGRESS) */
    uint32_t    threads, max_launches;
} ExecOptions;

/* --trace FILE: not an input of the run, and a file that can be written
** (the runtime writes it; an error there would come only at the end). */
static bool trace_writable(const char *trace, const char *given, const char *program)
{
    if (cli_same_file(trace, given) || cli_same_file(trace, program)) {
        cli_error("exec", "--trace %s is the program (%s): refusing to overwrite it", trace, given);
        return false;
    }
    FILE *f = fopen(trace, "w");
    if (!f) {
        cli_error("exec", "cannot write trace file '%s': %s", trace, strerror(errno));
        return false;
    }
    fclose(f);
    return true;
}

/* The environment the runtime reads (cudart/runtime.h, docs/CUDA.md), our
** library first on the library path and preloaded. */
static bool set_program_env(const ExecOptions *o, const char *program, const char *cudart)
{
    char num[32], dir[4096];
    const char *slash = strrchr(cudart, '/');
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - cudart), cudart);
    size_t cap = 1;
    for (int s = 0; s < o->nsets; s++) cap += strlen(o->sets[s]) + 1;
    char *setlist = malloc(cap);
    if (!setlist) return false;
    size_t len = 0;
    setlist[0] = '\0';
    for (int s = 0; s < o->nsets; s++) len += (size_t)snprintf(setlist + len, cap - len, "%s%s", s ? "\n" : "", o->sets[s]);
    bool ok = setenv("GPUSIM_GPU", o->gpu ? o->gpu : CONFIG_DEFAULT_GPU, 1) == 0 && setenv("GPUSIM_SET", setlist, 1) == 0 &&
              setenv("GPUSIM_PROGRAM", program, 1) == 0 &&
              setenv("GPUSIM_KERNELS", o->kernels ? o->kernels : "", 1) == 0 &&
              setenv("GPUSIM_REPORT", o->report ? o->report : "", 1) == 0 &&
              setenv("GPUSIM_TRACE", o->trace ? o->trace : "", 1) == 0 &&
              setenv("GPUSIM_SOURCE", o->source ? "1" : "0", 1) == 0 &&
              setenv("GPUSIM_PROFILE_FROM_START", o->from_start ? "1" : "0", 1) == 0 &&
              setenv("GPUSIM_PROGRESS", o->progress, 1) == 0;
    free(setlist);
    snprintf(num, sizeof num, "%u", o->threads);
    ok = ok && setenv("GPUSIM_THREADS", o->threads ? num : "auto", 1) == 0;
    snprintf(num, sizeof num, "%u", o->max_launches);
    ok = ok && setenv("GPUSIM_MAX_LAUNCHES", num, 1) == 0;
    /* ours first on the library path, and preloaded, so that a program's
    ** RPATH to NVIDIA's runtime cannot win; after any preload already set */
    ok = ok && prepend_env("LD_LIBRARY_PATH", dir, ':') && append_env("LD_PRELOAD", cudart, ':');
#ifdef GPUSIM_PRELOAD_FIRST
    /* this build's runtime is sanitized: the sanitizer's library goes first */
    ok = ok && prepend_env("LD_PRELOAD", GPUSIM_PRELOAD_FIRST, ':');
#endif
    return ok;
}

int cmd_exec(int argc, char **argv)
{
    ExecOptions o = { .from_start = true, .progress = "auto" }; /* threads 0: the default (auto) */
    const char *value;
    const char *flags[MAX_FLAGS];
    size_t nflags = 0;
    Diag d = { 0 };
    int i = 1;
    for (; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (argv[i][0] != '-') break;
        if (cli_option(argc, argv, &i, "--gpu", &value)) {
            o.gpu = value;
        } else if (cli_option(argc, argv, &i, "--set", &value)) {
            if (o.nsets == MAX_SETS) return cli_error("exec", "more than %d --set options", MAX_SETS);
            o.sets[o.nsets++] = (char *)value;
        } else if (cli_option(argc, argv, &i, "--report", &value)) {
            o.report = value;
        } else if (cli_option(argc, argv, &i, "--trace", &value)) {
            o.trace = value;
        } else if (cli_option(argc, argv, &i, "--kernels", &value)) {
            o.kernels = value;
        } else if (cli_option(argc, argv, &i, "--nvcc-flag", &value)) {
            if (nflags == MAX_FLAGS) return cli_error("exec", "more than %d --nvcc-flag options", MAX_FLAGS);
            flags[nflags++] = value;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (!cli_parse_u32(value, "--threads", &o.threads, 1, GPU_MAX_THREADS, &d))
                return cli_error("exec", "%s", d.message);
        } else if (cli_option(argc, argv, &i, "--max-launches", &value)) {
            if (!cli_parse_u32(value, "--max-launches", &o.max_launches, 1, UINT32_MAX, &d))
                return cli_error("exec", "%s", d.message);
        } else if (cli_option(argc, argv, &i, "--profile-from-start", &value)) {
            if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
                return cli_error("exec", "--profile-from-start takes on or off, not '%s'", value);
            o.from_start = strcmp(value, "on") == 0;
        } else if (cli_option(argc, argv, &i, "--progress", &value)) {
            if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0 && strcmp(value, "auto") != 0)
                return cli_error("exec", "--progress takes on, off or auto, not '%s'", value);
            o.progress = value[1] == 'n' ? "1" : value[1] == 'f' ? "0" : "auto";
        } else if (strcmp(argv[i], "--source") == 0) {
            o.source = true;
        } else {
            fprintf(stderr, "gpusim exec: error: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_BAD_INPUT;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "gpusim exec: error: no program to run\n");
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    GpuConfig cfg;
    if (!cli_load_gpu(o.gpu, o.sets, o.nsets, &cfg, &d)) {
        diag_print(stderr, &d);
        return EXIT_BAD_INPUT;
    }
    if (o.kernels) {
        regex_t re;
        int err = regcomp(&re, o.kernels, REG_EXTENDED | REG_NOSUB);
        if (err) {
            char msg[256];
            regerror(err, &re, msg, sizeof msg);
            return cli_error("exec", "--kernels '%s' is not a regular expression: %s", o.kernels, msg);
        }
        regfree(&re);
    }
    char cudart[4096];
    if (!find_cudart(cudart, sizeof cudart))
        return cli_error("exec", "gpusim's CUDA runtime (%s) is not built: configure gpusim on a machine with the CUDA "
                                 "toolkit's headers and libzstd-dev (Debian), then build again", CUDART_NAME);
    char **prog_argv = argv + i;
    char built[4096];
    if (ends_with(prog_argv[0], ".cu")) {
        if (!cuda_build_program(prog_argv[0], cfg.compute_capability, flags, nflags, built, sizeof built, &d)) {
            diag_print(stderr, &d);
            return EXIT_BAD_INPUT;
        }
    } else if (nflags) {
        return cli_error("exec", "--nvcc-flag applies to a .cu file, and %s is not one", prog_argv[0]);
    }
    const char *path = ends_with(prog_argv[0], ".cu") ? built : prog_argv[0];
    if (!strchr(path, '/')) /* as a shell would: a bare name is looked up on PATH */
        path = prog_argv[0];
    else if (access(path, X_OK) != 0)
        return cli_error("exec", "%s: %s", path, access(path, F_OK) == 0 ? "not executable" : "no such file");
    if (program_kind(path) == PROG_STATIC_CUDART)
        return cli_error("exec",
                         "%s has NVIDIA's CUDA runtime linked in statically (nvcc's default), which gpusim cannot "
                         "replace: rebuild it with 'nvcc -cudart shared ...', or give gpusim exec the .cu file",
                         path);
    if (o.trace && o.report && (!strcmp(o.trace, o.report) || cli_same_file(o.trace, o.report)))
        return cli_error("exec", "--trace and --report name one file (%s): give each its own", o.trace);
    if (o.trace && !trace_writable(o.trace, prog_argv[0], path)) return EXIT_BAD_INPUT;
    if (!set_program_env(&o, prog_argv[0], cudart))
        return cli_error("exec", "cannot set the program's environment (out of memory)");
    fflush(stdout);
    if (path == built) prog_argv[0] = built;
    if (strchr(path, '/')) execv(path, prog_argv);
    else execvp(path, prog_argv);
    return cli_error("exec", "cannot run %s: %s", path, strerror(errno));
}
