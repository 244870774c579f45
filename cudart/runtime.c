/* cudart/runtime.c -- the simulated device of a CUDA program (see
** cudart/runtime.h): options from the environment, modules loaded from
** their fatbinary's PTX on first use, launches timed on a GpuSession (or
** run functionally when the user times only some), the simulated clock. */
#define _GNU_SOURCE /* mmap's MAP_FIXED_NOREPLACE, for managed and pinned memory */
#include "cudart/runtime.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/hash.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "cli/variant.h"
#include "cudart/fatbin.h"
#include "isa/grid.h"
#include "isa/ptx.h"
#include "sim/derive.h"
#include "workloads/cuda.h"

#define MAX_FATBIN_ENTRIES 64

/* The process's runtime: the CUDA API has no handle (runtime.h). */
static Runtime       *the_runtime;
static pthread_once_t the_runtime_once = PTHREAD_ONCE_INIT;

/* The Chrome trace of the timed launches (GPUSIM_TRACE), open for the
** process; said and left off when the file cannot be written. */
static void open_trace(Runtime *rt)
{
    rt->trace_file = fopen(rt->trace_path, "w");
    if (rt->trace_file) rt->trace = trace_chrome_open(rt->trace_file, rt->cfg.clock_mhz);
    if (!rt->trace) {
        fprintf(stderr, "gpusim: cannot write the trace file '%s': %s; no trace\n", rt->trace_path,
                rt->trace_file ? "out of memory" : strerror(errno));
        if (rt->trace_file) fclose(rt->trace_file);
        rt->trace_file = NULL;
        return;
    }
    trace_chrome_sink(rt->trace, &rt->trace_sink);
}

static void close_trace(Runtime *rt)
{
    if (!rt->trace) return;
    bool ok = trace_chrome_close(rt->trace);
    rt->trace = NULL;
    if (!ok || ferror(rt->trace_file) | fclose(rt->trace_file))
        fprintf(stderr, "gpusim: writing the trace file '%s' failed: %s\n", rt->trace_path,
                ok ? strerror(errno) : "out of host memory");
    rt->trace_file = NULL;
}

static void at_exit(void)
{
    Runtime *rt = the_runtime;
    if (!rt) return;
    rt_lock(rt);
    rt_report(rt);
    close_trace(rt);
    rt_unlock(rt);
}

static uint32_t env_u32(const char *name, uint32_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v > UINT32_MAX) {
        fprintf(stderr, "gpusim: %s=%s is not a count; using %u\n", name, s, dflt);
        return dflt;
    }
    return (uint32_t)v;
}

/* The machine: GPUSIM_GPU (a preset or a file) and GPUSIM_SET, one K=V per line. */
static void load_machine(Runtime *rt)
{
    char *sets_text = getenv("GPUSIM_SET") ? strdup(getenv("GPUSIM_SET")) : NULL;
    char *sets[256];
    int nsets = 0;
    for (char *save = NULL, *tok = sets_text ? strtok_r(sets_text, "\n", &save) : NULL; tok && nsets < 256;
         tok = strtok_r(NULL, "\n", &save))
        sets[nsets++] = tok;
    Diag d = { 0 };
    const char *gpu = getenv("GPUSIM_GPU");
    if (cli_load_gpu(gpu && *gpu ? gpu : NULL, sets, nsets, &rt->cfg, &d)) {
        rt->ready = true;
    } else {
        diag_format(&d, rt->config_error, sizeof rt->config_error);
    }
    free(sets_text);
}

static void make_runtime(void)
{
    Runtime *rt = calloc(1, sizeof *rt);
    if (!rt) return;
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rt->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    load_machine(rt);
    rt->program = getenv("GPUSIM_PROGRAM") ? getenv("GPUSIM_PROGRAM") : "the program";
    rt->report_path = getenv("GPUSIM_REPORT");
    rt->trace_path = getenv("GPUSIM_TRACE");
    if (rt->trace_path && !*rt->trace_path) rt->trace_path = NULL;
    rt->source = env_u32("GPUSIM_SOURCE", 0) != 0;
    rt_limits_default(rt);
    /* GPUSIM_THREADS unset or "auto": every core for a large launch (the
    ** result is the same), one for a small one (Launch.threads_auto) */
    const char *threads = getenv("GPUSIM_THREADS");
    rt->threads_auto = !threads || !*threads || strcmp(threads, "auto") == 0;
    rt->threads = rt->threads_auto ? jobs_auto_threads(1) : env_u32("GPUSIM_THREADS", 1);
    rt->threads_exact = env_u32("GPUSIM_THREADS_EXACT", 0) != 0;
    rt->max_launches = env_u32("GPUSIM_MAX_LAUNCHES", 0);
    rt->profiling = env_u32("GPUSIM_PROFILE_FROM_START", 1) != 0;
    const char *progress = getenv("GPUSIM_PROGRESS");
    rt->progress = progress && strcmp(progress, "auto") ? env_u32("GPUSIM_PROGRESS", 0) != 0 : isatty(STDERR_FILENO);
    rt->profile_range = !rt->profiling;
    const char *re = getenv("GPUSIM_KERNELS");
    if (re && *re) {
        int err = regcomp(&rt->kernels_regex, re, REG_EXTENDED | REG_NOSUB);
        if (err) {
            char msg[256];
            regerror(err, &rt->kernels_regex, msg, sizeof msg);
            fprintf(stderr, "gpusim: GPUSIM_KERNELS '%s' is not a regular expression (%s); timing every kernel\n",
                    re, msg);
        } else {
            rt->have_regex = true;
        }
    }
    if (rt->ready && rt->trace_path) open_trace(rt);
    if (rt->ready) {
        rt->gmem = gmem_create();
        rt->session = gpu_session_create(&rt->cfg);
        if (!rt->gmem || !rt->session) {
            rt->ready = false;
            snprintf(rt->config_error, sizeof rt->config_error, "out of host memory for the simulated device");
        }
    }
    the_runtime = rt;
    atexit(at_exit);
}

Runtime *rt_get(void)
{
    pthread_once(&the_runtime_once, make_runtime);
    return the_runtime;
}

void rt_lock(Runtime *rt) { pthread_mutex_lock(&rt->lock); }
void rt_unlock(Runtime *rt) { pthread_mutex_unlock(&rt->lock); }

/* ------------------------------------------------------------ registration */

RtModule *rt_register_module(Runtime *rt, const void *wrapper)
{
    if (!grow_array((void **)&rt->modules, &rt->modules_cap, rt->nmodules + 1, sizeof *rt->modules)) return NULL;
    RtModule *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->wrapper = wrapper;
    const char *slash = strrchr(rt->program, '/');
    snprintf(m->name, sizeof m->name, "%s#%u", slash ? slash + 1 : rt->program, rt->nmodules + 1);
    rt->modules[rt->nmodules++] = m;
    return m;
}

void rt_register_function(Runtime *rt, RtModule *m, const void *host_fun, const char *mangled)
{
    if (!m || !grow_array((void **)&rt->kernels, &rt->kernels_cap, rt->nkernels + 1, sizeof *rt->kernels)) return;
    RtKernel *k = calloc(1, sizeof *k);
    if (!k || !(k->mangled = strdup(mangled ? mangled : "?"))) {
        free(k);
        return;
    }
    k->host_fun = host_fun;
    k->module = m;
    rt->kernels[rt->nkernels++] = k;
}

void rt_register_var(Runtime *rt, RtModule *m, const void *host, const char *name, uint64_t size, bool constant)
{
    (void)rt;
    if (!m || !grow_array((void **)&m->vars, &m->vars_cap, m->nvars + 1, sizeof *m->vars)) return;
    RtVar *v = &m->vars[m->nvars];
    if (!(v->name = strdup(name ? name : "?"))) return;
    v->host = host;
    v->size = size;
    v->constant = constant;
    v->managed_slot = NULL;
    v->addr = 0;
    m->nvars++;
}

void rt_register_managed_var(Runtime *rt, RtModule *m, void **slot, const char *name, uint64_t size)
{
    uint32_t before = m ? m->nvars : 0;
    rt_register_var(rt, m, slot, name, size, false);
    if (m && m->nvars > before) m->vars[before].managed_slot = slot;
}

RtKernel *rt_find_kernel(Runtime *rt, const void *host_fun)
{
    for (uint32_t i = 0; i < rt->nkernels; i++)
        if (rt->kernels[i]->host_fun == host_fun) return rt->kernels[i];
    return NULL;
}

/* ----------------------------------------------------------------- loading */

/* The PTX saved in the cache folder, named by its content, so that fault
** reports, refusals and --source name a file the user can open. */
static void save_ptx(RtModule *m)
{
    char dir[DIAG_FILE_MAX - 64], path[DIAG_FILE_MAX];
    Diag d = { 0 };
    uint64_t h = hash_fnv64(HASH_FNV64_OFFSET, m->ptx, m->ptx_len);
    if (!cuda_cache_dir(dir, sizeof dir, &d)) return;
    snprintf(path, sizeof path, "%s/exec-%016llx.ptx", dir, (unsigned long long)h);
    if (access(path, R_OK) != 0) {
        char tmp[DIAG_FILE_MAX + 32];
        snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
        FILE *f = fopen(tmp, "wb");
        if (!f) return;
        bool ok = fwrite(m->ptx, 1, m->ptx_len, f) == m->ptx_len;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) {
            remove(tmp);
            return;
        }
    }
    snprintf(m->name, sizeof m->name, "%s", path);
}

/* Places the module's variables in device memory with their initial
** values, and points the module's instructions at them. A module whose PTX
** was refused still places the variables the program registered (zeroed),
** so that the program may copy to and from them. */
static bool place_vars(Runtime *rt, RtModule *m)
{
    Program *p = &m->program;
    uint32_t *addr = calloc(p->nvars ? p->nvars : 1, sizeof *addr);
    if (!addr) return false;
    Diag d = { 0 };
    bool ok = true;
    for (uint32_t i = 0; ok && i < p->nvars; i++) {
        const ProgramVar *pv = &p->vars[i];
        RtVar *managed = NULL;
        for (uint32_t j = 0; j < m->nvars; j++)
            if (m->vars[j].managed_slot && strcmp(m->vars[j].name, pv->name) == 0) managed = &m->vars[j];
        if (managed) { /* host memory at its simulated address, as cudaMallocManaged's */
            addr[i] = rt_map_host(rt, pv->size, pv->name, false, 0);
            if (!addr[i]) diag_set(&d, NULL, 0, 0, "no room for __managed__ variable '%s' in the simulated 32-bit space that the host can map", pv->name);
            else *managed->managed_slot = (void *)(uintptr_t)addr[i];
        } else {
            addr[i] = gmem_alloc(rt->gmem, pv->size, pv->name, &d);
        }
        ok = addr[i] != 0;
        for (uint32_t j = 0; ok && j < m->nvars; j++)
            if (strcmp(m->vars[j].name, pv->name) == 0) {
                m->vars[j].addr = addr[i];
                if (m->vars[j].size > pv->size) m->vars[j].size = pv->size;
            }
    }
    if (ok) program_bind_vars(p, addr); /* first: an initializer may hold another variable's address */
    for (uint32_t i = 0; ok && i < p->nvars; i++)
        if (p->vars[i].init) memcpy(gmem_translate(rt->gmem, addr[i], p->vars[i].size), p->vars[i].init, p->vars[i].size);
    free(addr);
    for (uint32_t j = 0; ok && j < m->nvars; j++) {
        RtVar *v = &m->vars[j];
        if (v->addr || v->size == 0) continue;
        ok = (v->addr = gmem_alloc(rt->gmem, v->size, v->name, &d)) != 0;
    }
    if (!ok) snprintf(m->message, sizeof m->message, "%s", d.message);
    return ok;
}

static int load_module(Runtime *rt, RtModule *m)
{
    if (m->loaded) return RT_SUCCESS;
    if (m->failed) return m->load_error;
    FatbinEntry entries[MAX_FATBIN_ENTRIES];
    size_t n = 0;
    Diag d = { 0 };
    int err = RT_INVALID_PTX;
    if (fatbin_entries(m->wrapper, entries, MAX_FATBIN_ENTRIES, &n, &d)) {
        if (n > MAX_FATBIN_ENTRIES) n = MAX_FATBIN_ENTRIES;
        m->ptx = fatbin_pick_ptx(entries, n, rt->cfg.compute_capability, &m->ptx_len, &d);
        if (!m->ptx && strstr(d.message, "no kernel image")) err = RT_NO_KERNEL_IMAGE;
    }
    if (m->ptx) {
        save_ptx(m);
        if (ptx_parse(m->ptx, m->ptx_len, m->name, &m->program, &d)) {
            cuda_ptxas_regs(&m->program, m->ptx, m->ptx_len, rt->cfg.compute_capability);
            if (place_vars(rt, m)) {
                m->loaded = true;
                return RT_SUCCESS;
            }
            err = RT_MEMORY_ALLOCATION;
            m->failed = true;
            m->load_error = err;
            return err;
        }
    }
    diag_format(&d, m->message, sizeof m->message);
    m->failed = true;
    m->load_error = err;
    fprintf(stderr, "gpusim: %s: the program's device code cannot run on the simulated GPU:\n  %s\n", rt->program,
            m->message);
    return err;
}

int rt_load_module(Runtime *rt, RtModule *m)
{
    return load_module(rt, m);
}

int rt_load_kernel(Runtime *rt, RtKernel *k)
{
    if (k->kernel) return k->kernel->refused ? RT_INVALID_PTX : RT_SUCCESS;
    int err = load_module(rt, k->module);
    if (err != RT_SUCCESS) return err;
    char msg[256];
    k->kernel = program_match_kernel(&k->module->program, k->mangled, msg, sizeof msg);
    if (!k->kernel) {
        fprintf(stderr, "gpusim: %s: kernel %s is registered but not in its PTX: %s\n", rt->program, k->mangled, msg);
        return RT_INVALID_DEVICE_FUNCTION;
    }
    Diag d = { 0 };
    if (!kernel_runnable(&k->module->program, k->kernel, &d)) { /* said once: later launches fail alike */
        char why[DIAG_MESSAGE_MAX + DIAG_FILE_MAX];
        diag_format(&d, why, sizeof why);
        fprintf(stderr, "gpusim: %s: kernel %s cannot run on the simulated GPU (its launches fail with "
                "cudaErrorInvalidPtx):\n  %s\n", rt->program,
                k->kernel->signature ? k->kernel->signature : k->kernel->name, why);
        return RT_INVALID_PTX;
    }
    k->regs = kernel_regs_per_thread(k->kernel);
    return RT_SUCCESS;
}

RtVar *rt_find_var(Runtime *rt, const void *host, int *err)
{
    for (uint32_t i = 0; i < rt->nmodules; i++) {
        RtModule *m = rt->modules[i];
        for (uint32_t j = 0; j < m->nvars; j++) {
            const RtVar *v = &m->vars[j]; /* a __managed__ one is named by its address too: host code reaches it so */
            if (v->host != host && !(v->managed_slot && v->addr && (uintptr_t)host == v->addr)) continue;
            if (!m->vars[j].addr) {
                int e = load_module(rt, m);
                /* a module whose PTX the simulator refuses still holds its
                ** variables: the program may copy to and from them */
                if (e != RT_SUCCESS && !place_vars(rt, m)) {
                    *err = e;
                    return NULL;
                }
            }
            return &m->vars[j];
        }
    }
    *err = RT_INVALID_SYMBOL;
    return NULL;
}

/* ---------------------------------------------------------------- launches */

void *rt_device_ptr(Runtime *rt, uint64_t addr, uint64_t bytes)
{
    if (!rt->gmem || bytes > UINT32_MAX) return NULL;
    void *h = gmem_translate(rt->gmem, addr, bytes ? (uint32_t)bytes : 1);
    uint32_t base;
    uint64_t size;
    int tag = h && gmem_buffer_at(rt->gmem, addr, &base, &size) ? gmem_tag(rt->gmem, base) : 0;
    if (tag == RT_TAG_ARRAY || tag == RT_TAG_INTERNAL || tag == RT_TAG_GRAPH_IDLE) return NULL;
    return h;
}

static bool chosen_for_timing(const Runtime *rt, const RtKernel *k)
{
    if (!rt->profiling) return false; /* outside cudaProfilerStart/Stop, with --profile-from-start off */
    if (rt->max_launches && k->timed >= rt->max_launches) return false;
    if (!rt->have_regex) return true;
    const Kernel *kk = k->kernel;
    return regexec(&rt->kernels_regex, kk->name, 0, NULL, 0) == 0 ||
           (kk->signature && regexec(&rt->kernels_regex, kk->signature, 0, NULL, 0) == 0) ||
           regexec(&rt->kernels_regex, k->mangled, 0, NULL, 0) == 0;
}

/* A runaway kernel stops after many times the work a finishing one could
** do: gpusim run's rule, by the memory the program holds. */
static void budget(const Runtime *rt, const uint32_t grid[3], const uint32_t block[3], uint64_t *instr, uint64_t *cycles)
{
    double threads = (double)block[0] * block[1] * block[2];
    double warps = (double)grid[0] * grid[1] * grid[2] * ceil(threads / 32);
    variant_budget_for(warps, (double)gmem_bytes(rt->gmem) / 4, instr, cycles);
}

/* The error CUDA gives a launch that ended so: a fault by its kind (a
** failed assert, a trap, a misaligned or an illegal address). */
static int status_error(SimStatus s, FaultKind fault)
{
    switch (s) {
    case SIM_OK: return RT_SUCCESS;
    case SIM_FAULT:
        return fault == FAULT_ASSERT ? RT_ASSERT
               : fault == FAULT_TRAP || fault == FAULT_MBARRIER ? RT_LAUNCH_FAILURE
               : fault == FAULT_MISALIGNED ? RT_MISALIGNED_ADDRESS
               : fault == FAULT_BARRIER || fault == FAULT_BAD_CALL ? RT_ILLEGAL_INSTRUCTION
               : fault == FAULT_CALL_DEPTH ? RT_LAUNCH_FAILURE
                                           : RT_ILLEGAL_ADDRESS;
    case SIM_DEADLOCK: return RT_LAUNCH_FAILURE;
    case SIM_BUDGET: return RT_LAUNCH_TIMEOUT;
    case SIM_BAD_LAUNCH: return RT_LAUNCH_OUT_OF_RESOURCES;
    case SIM_INTERNAL: return RT_UNKNOWN;
    }
    return RT_UNKNOWN;
}

static bool keep_stats(RtKernel *k, const KernelStats *st)
{
    if (!grow_array((void **)&k->launch_st, &k->launch_st_cap, k->timed + 1, sizeof *k->launch_st)) return false;
    k->launch_st[k->timed++] = *st;
    return true;
}

/* A timed launch's progress line on stderr: drawn once the launch has run
** PROGRESS_AFTER_S seconds, redrawn at most every PROGRESS_EVERY_S, erased
** when it ends, so that it never stays among the program's own output. */
#define PROGRESS_AFTER_S 1.0
#define PROGRESS_EVERY_S 0.2
typedef struct {
    const char *program, *kernel;
    uint32_t    launch;
    double      t0, last;
    bool        shown;
} LaunchProgress;

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void on_progress(void *user, uint64_t done, uint64_t blocks)
{
    LaunchProgress *p = user;
    double now = wall_seconds();
    if (now - p->t0 < PROGRESS_AFTER_S || now - p->last < PROGRESS_EVERY_S) return;
    p->last = now;
    p->shown = true;
    fprintf(stderr, "\r\033[Kgpusim: %s: kernel %s, launch %u: %llu of %llu blocks (%.0f%%), %.0f s", p->program, p->kernel,
            p->launch, (unsigned long long)done, (unsigned long long)blocks, 100.0 * (double)done / (double)blocks, now - p->t0);
    fflush(stderr);
}

static int run_timed(Runtime *rt, RtKernel *k, Launch *L)
{
    if (rt->source && !k->pcs) {
        k->pcs = calloc(k->kernel->ncode ? k->kernel->ncode : 1, sizeof *k->pcs);
        if (!k->pcs) return RT_MEMORY_ALLOCATION;
    }
    L->pc_counters = k->pcs;
    L->threads = k->pcs || rt->trace ? 1 : rt->threads; /* a trace and the per-line view are one thread's */
    if (rt->trace) {
        char label[ISA_MAX_NAME + 32];
        snprintf(label, sizeof label, "%s #%u", k->kernel->name, k->launches + 1);
        trace_chrome_label(rt->trace, label);
    }
    L->threads_fit_host = !rt->threads_exact;
    L->threads_auto = rt->threads_auto;
    L->keep_dirty = true;
    L->max_warp_instructions = 0;
    budget(rt, L->grid, L->block, &L->max_warp_instructions, &L->max_cycles);
    SimResult *r = calloc(1, sizeof *r);
    if (!r) return RT_MEMORY_ALLOCATION;
    LaunchProgress prog = { rt->program, k->kernel->name, k->launches + 1, wall_seconds(), 0.0, false };
    if (rt->progress) {
        L->progress = on_progress;
        L->progress_user = &prog;
    }
    bool ok = gpu_session_simulate(rt->session, L, rt->trace ? &rt->trace_sink : NULL, r);
    if (prog.shown) fprintf(stderr, "\r\033[K");
    int err = status_error(r->status, r->fault);
    if (ok) {
        derive_stats(&rt->cfg, &r->stats);
        rt->clock += r->stats.cycles;
        if (!keep_stats(k, &r->stats)) err = RT_MEMORY_ALLOCATION;
    } else {
        fprintf(stderr, "gpusim: %s: launch %u of kernel %s: %s: %s\n", rt->program, k->launches + 1,
                k->kernel->signature ? k->kernel->signature : k->kernel->name, gpu_status_name(r->status), r->message);
        /* the session is left in that launch's state: start a new one */
        gpu_session_destroy(rt->session);
        rt->session = gpu_session_create(&rt->cfg);
    }
    free(r);
    return err;
}

static int run_untimed(Runtime *rt, RtKernel *k, const Launch *L)
{
    GridLaunch g = { .dynamic_smem = L->dynamic_smem, .shared_reserved = rt->cfg.shared_reserved, .params = L->params, .nsm = rt->cfg.sm_count,
                     .printf_out = L->printf_out, .printf_limit = L->printf_limit, .kernel_file = L->kernel_file,
                     .heap = L->heap, .textures = L->textures };
    memcpy(g.grid, L->grid, sizeof g.grid);
    memcpy(g.block, L->block, sizeof g.block);
    uint64_t cycles;
    budget(rt, L->grid, L->block, &g.max_warp_instructions, &cycles);
    GridResult r;
    if (grid_run_functional(k->kernel, rt->gmem, &g, &r)) {
        /* the clock moves by the kernel's mean timed launch, when it has one */
        uint64_t sum = 0;
        for (uint32_t i = 0; i < k->timed; i++) sum += k->launch_st[i].cycles;
        uint64_t estimate = k->timed ? sum / k->timed : 0;
        k->untimed_cycles_estimate += estimate;
        rt->clock += estimate;
        return RT_SUCCESS;
    }
    static const SimStatus as_sim[] = { SIM_OK, SIM_FAULT, SIM_DEADLOCK, SIM_BUDGET, SIM_BAD_LAUNCH };
    SimStatus s = as_sim[r.status];
    fprintf(stderr, "gpusim: %s: launch %u of kernel %s (not timed): %s: %s\n", rt->program, k->launches + 1,
            k->kernel->signature ? k->kernel->signature : k->kernel->name, gpu_status_name(s), r.message);
    return status_error(s, r.fault);
}

uint32_t rt_dynamic_smem_max(const Runtime *rt, const RtKernel *k)
{
    if (k->dynamic_smem_set) return k->dynamic_smem_max;
    uint32_t fixed = k->kernel->static_smem;
    return rt->cfg.shared_per_block > fixed ? rt->cfg.shared_per_block - fixed : 0;
}

/* The words cooperative groups' grid.sync() counts arrivals in, zeroed for
** a new cooperative launch (allocated at the first; 0 when out of memory). */
static uint64_t grid_workspace(Runtime *rt)
{
    if (!rt->grid_workspace) {
        Diag d = { 0 };
        rt->grid_workspace = gmem_alloc(rt->gmem, GRID_WORKSPACE_BYTES, "cooperative launch workspace", &d);
        if (!rt->grid_workspace) return 0;
        gmem_set_tag(rt->gmem, rt->grid_workspace, RT_TAG_INTERNAL);
    }
    memset(gmem_translate(rt->gmem, rt->grid_workspace, GRID_WORKSPACE_BYTES), 0, GRID_WORKSPACE_BYTES);
    return rt->grid_workspace;
}

/* Whether a launch's 64-bit parameters point into pinned host memory: its
** accesses there are timed as device memory's, which the report says. */
static bool passes_pinned(const Runtime *rt, const Kernel *k, const uint32_t *params)
{
    for (uint32_t i = 0; i < k->nparams; i++) {
        if (k->params[i].size != 8) continue;
        uint64_t v;
        memcpy(&v, (const uint8_t *)params + k->params[i].offset, sizeof v);
        const RtMapping *m = v && v <= UINT32_MAX ? rt_mapping_of(rt, (const void *)(uintptr_t)v) : NULL;
        if (m && m->pinned) return true;
        for (uint32_t j = 0; j < rt->nhandles; j++) { /* cudaHostRegister's, mapped at an address of their own */
            const RtHandle *h = &rt->handles[j];
            if (h->kind == RT_HANDLE_REGISTERED && h->device && v >= h->device && v - h->device < h->bytes) return true;
        }
    }
    return false;
}

int rt_launch(Runtime *rt, RtKernel *k, const uint32_t grid[3], const uint32_t block[3], void **args, bool cooperative,
              uint64_t dynamic_smem)
{
    if (k->launches && (memcmp(k->grid, grid, sizeof k->grid) || memcmp(k->block, block, sizeof k->block)))
        k->shapes_vary = true;
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    int err = rt_load_kernel(rt, k);
    if (err != RT_SUCCESS) {
        k->launches++, k->failed++;
        return err;
    }
    char msg[256];
    if (!grid_check_launch(grid, block, msg, sizeof msg)) {
        fprintf(stderr, "gpusim: %s: kernel %s: invalid launch: %s\n", rt->program, k->kernel->name, msg);
        return RT_INVALID_CONFIGURATION;
    }
    if (dynamic_smem > rt_dynamic_smem_max(rt, k)) {
        fprintf(stderr,
                "gpusim: %s: kernel %s: invalid launch: %llu bytes of dynamic shared memory; at most %u%s\n",
                rt->program, k->kernel->name, (unsigned long long)dynamic_smem, rt_dynamic_smem_max(rt, k),
                k->dynamic_smem_set ? " (its cudaFuncAttributeMaxDynamicSharedMemorySize)"
                                    : " without cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)");
        return RT_INVALID_VALUE;
    }
    const Kernel *kk = k->kernel;
    uint32_t params[ISA_MAX_PARAM_WORDS] = { 0 };
    for (uint32_t i = 0; i < kk->nparams; i++) {
        const KernelParam *p = &kk->params[i];
        if (!args || !args[i] || p->offset + p->size > sizeof params) return RT_INVALID_VALUE;
        memcpy((uint8_t *)params + p->offset, args[i], p->size);
    }
    k->zero_copy += passes_pinned(rt, kk, params);
    Launch L = { .kernel = kk, .kernel_file = k->module->name, .gmem = rt->gmem, .dynamic_smem = (uint32_t)dynamic_smem,
                 .regs_per_thread = k->regs, .params = params, .printf_out = stdout }; /* device printf: the program's stdout */
    memcpy(L.grid, grid, sizeof L.grid);
    memcpy(L.block, block, sizeof L.block);
    if (cooperative && !(L.grid_workspace = grid_workspace(rt))) return RT_MEMORY_ALLOCATION;
    if (kernel_uses_heap(kk) && !rt->heap) {
        Diag d = { 0 };
        if (!(rt->heap = exec_heap_create(rt->gmem, rt->heap_bytes, &d))) return RT_MEMORY_ALLOCATION;
        gmem_set_tag(rt->gmem, rt->heap, RT_TAG_INTERNAL); /* no runtime call may use device malloc's memory (CUDA's rule) */
    }
    L.heap = rt->heap;
    if (rt->ntextures) { /* the objects as they are now: a launch cannot change them */
        rt->texture_table.v = rt->textures;
        rt->texture_table.n = rt->ntextures;
        L.textures = &rt->texture_table;
    }
    L.printf_limit = rt->printf_bytes;
    rt->printf_used |= kernel_has_op(kk, OP_PRINTF);
    /* a cooperative launch's blocks may wait for each other (grid.sync()):
    ** they run together, as only the timed path runs them */
    err = cooperative || chosen_for_timing(rt, k) ? run_timed(rt, k, &L) : run_untimed(rt, k, &L);
    k->launches++;
    if (err != RT_SUCCESS) k->failed++;
    return err;
}

/* ------------------------------------------ host pages at simulated addresses */

#define PAGE 4096u

uint32_t rt_map_host(Runtime *rt, uint64_t bytes, const char *name, bool pinned, unsigned flags)
{
    uint64_t len = (bytes + PAGE - 1) / PAGE * PAGE, from = GMEM_BASE;
    if (!grow_array((void **)&rt->mappings, &rt->mappings_cap, rt->nmappings + 1, sizeof *rt->mappings)) return 0;
    for (int tries = 0; tries < 64; tries++) {
        uint64_t a = gmem_free_space(rt->gmem, len, from);
        if (a == UINT64_MAX) return 0;
        uint64_t paged = (a + PAGE - 1) / PAGE * PAGE;
        if (paged != a) {
            from = paged;
            continue;
        }
        void *p = mmap((void *)(uintptr_t)a, (size_t)len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED || p != (void *)(uintptr_t)a) { /* taken by the process: try higher */
            if (p != MAP_FAILED) munmap(p, (size_t)len);
            from = a + (16u << 20);
            continue;
        }
        Diag d = { 0 };
        if (!gmem_adopt(rt->gmem, p, bytes, name, &d)) {
            munmap(p, (size_t)len);
            return 0;
        }
        rt->mappings[rt->nmappings++] = (RtMapping){ (uint32_t)a, bytes, len, pinned, flags };
        return (uint32_t)a;
    }
    return 0;
}

const RtMapping *rt_mapping_of(const Runtime *rt, const void *p)
{
    for (uint32_t i = 0; i < rt->nmappings; i++)
        if ((uintptr_t)p >= rt->mappings[i].addr && (uintptr_t)p - rt->mappings[i].addr < rt->mappings[i].bytes)
            return &rt->mappings[i];
    return NULL;
}

bool rt_unmap_host(Runtime *rt, uint32_t addr, bool pinned)
{
    for (uint32_t i = 0; i < rt->nmappings; i++) {
        if (rt->mappings[i].addr != addr || rt->mappings[i].pinned != pinned) continue;
        gmem_free(rt->gmem, addr);
        munmap((void *)(uintptr_t)addr, (size_t)rt->mappings[i].len);
        rt->mappings[i] = rt->mappings[--rt->nmappings];
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------- handles */

bool rt_handle_add_host(Runtime *rt, void *ptr, RtHandleKind kind, size_t bytes, void (*destroy)(void *ptr))
{
    if (!grow_array((void **)&rt->handles, &rt->handles_cap, rt->nhandles + 1, sizeof *rt->handles)) return false;
    rt->handles[rt->nhandles++] = (RtHandle){ ptr, kind, destroy, bytes, 0 };
    return true;
}

bool rt_handle_add_owned(Runtime *rt, void *ptr, RtHandleKind kind, void (*destroy)(void *ptr))
{
    return rt_handle_add_host(rt, ptr, kind, 0, destroy);
}

const RtHandle *rt_handle_inside(const Runtime *rt, const void *p, RtHandleKind kind)
{
    for (uint32_t i = 0; i < rt->nhandles; i++) {
        const RtHandle *h = &rt->handles[i];
        if (h->kind == kind && (uintptr_t)p >= (uintptr_t)h->ptr && (uintptr_t)p - (uintptr_t)h->ptr < h->bytes) return h;
    }
    return NULL;
}

bool rt_handle_add(Runtime *rt, void *ptr, RtHandleKind kind) { return rt_handle_add_owned(rt, ptr, kind, NULL); }

static int32_t handle_index(const Runtime *rt, const void *ptr, RtHandleKind kind)
{
    for (uint32_t i = rt->nhandles; i-- > 0;) /* the newest first: they go soonest */
        if (rt->handles[i].ptr == ptr && rt->handles[i].kind == kind) return (int32_t)i;
    return -1;
}

bool rt_handle_live(const Runtime *rt, const void *ptr, RtHandleKind kind)
{
    return ptr && handle_index(rt, ptr, kind) >= 0;
}

bool rt_handle_remove(Runtime *rt, const void *ptr, RtHandleKind kind)
{
    int32_t i = ptr ? handle_index(rt, ptr, kind) : -1;
    if (i < 0) return false;
    rt->handles[i] = rt->handles[--rt->nhandles];
    return true;
}

/* ------------------------------------------------------------------- misc */

void rt_missing(Runtime *rt, const char *name)
{
    for (uint32_t i = 0; i < rt->nmissing; i++)
        if (strcmp(rt->missing[i].name, name) == 0) {
            rt->missing[i].calls++;
            return;
        }
    if (!grow_array((void **)&rt->missing, &rt->missing_cap, rt->nmissing + 1, sizeof *rt->missing)) return;
    rt->missing[rt->nmissing++] = (RtMissing){ name, 1 };
}

void rt_limits_default(Runtime *rt)
{
    rt->heap = 0;
    rt->printf_used = false;
    rt->heap_bytes = EXEC_HEAP_DEFAULT_BYTES;
    rt->printf_bytes = EXEC_PRINT_LIMIT;
    rt->stack_bytes = 1024; /* CUDA's default per thread */
    rt_pool_init(&rt->default_pool);
    rt->current_pool = &rt->default_pool;
    rt->npool_allocs = 0;
}

void rt_pool_init(RtPool *p)
{
    *p = (RtPool){ .reuse = { 1, 1, 1 } };
}

void rt_reset(Runtime *rt)
{
    if (!rt->ready) return;
    while (rt->nmappings) rt_unmap_host(rt, rt->mappings[0].addr, rt->mappings[0].pinned);
    for (uint32_t i = 0; i < rt->nhandles; i++) { /* streams, events, pinned memory, graphs */
        if (rt->handles[i].destroy) rt->handles[i].destroy(rt->handles[i].ptr);
        else free(rt->handles[i].ptr);
    }
    rt->nhandles = 0;
    rt_textures_reset(rt);
    free(rt->default_stream_attrs);
    rt->default_stream_attrs = NULL;
    gmem_destroy(rt->gmem);
    gpu_session_destroy(rt->session);
    rt->gmem = gmem_create();
    rt->grid_workspace = 0;
    rt_limits_default(rt);
    rt->session = gpu_session_create(&rt->cfg);
    rt->sticky = RT_SUCCESS;
    for (uint32_t i = 0; i < rt->nmodules; i++)
        for (uint32_t j = 0; j < rt->modules[i]->nvars; j++) rt->modules[i]->vars[j].addr = 0;
    /* loaded modules keep their programs; their variables are placed again,
    ** with their initial values, when next used */
    for (uint32_t i = 0; i < rt->nmodules; i++)
        if (rt->modules[i]->loaded && !place_vars(rt, rt->modules[i])) rt->modules[i]->loaded = false;
}

double rt_cycles_to_ms(const Runtime *rt, uint64_t cycles)
{
    return (double)cycles / (rt->cfg.clock_mhz * 1e3);
}
