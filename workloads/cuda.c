/* workloads/cuda.c -- nvcc and ptxas where installed (see cuda.h). The
** tools run as child processes (fork + execv, no shell), their output into
** a log file next to the cache entry. Hash: 64-bit FNV-1a. */
#define _XOPEN_SOURCE 700 /* realpath: the files of a manifest by their real paths */
#include "workloads/cuda.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/file.h"
#include "base/hash.h"

#define CUDA_MAX_SOURCE (16u << 20)
#define CUDA_MAX_ARGS   64

/* The first occurrence of needle (nl bytes) in hay[0..n), or NULL. */
static const char *find(const char *hay, size_t n, const char *needle, size_t nl)
{
    for (size_t i = 0; i + nl <= n; i++)
        if (memcmp(hay + i, needle, nl) == 0) return hay + i;
    return NULL;
}

static bool executable(const char *path)
{
    struct stat sb; /* a folder has its x bit too */
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

bool cuda_find_tool(const char *tool, char *buf, size_t cap)
{
    char var[32];
    snprintf(var, sizeof var, "GPUSIM_%s", strcmp(tool, "nvcc") == 0 ? "NVCC" : "PTXAS");
    const char *own = getenv(var); /* GPUSIM_NVCC / GPUSIM_PTXAS: this one, or none */
    if (own) return *own && (size_t)snprintf(buf, cap, "%s", own) < cap && executable(buf);
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n && (size_t)snprintf(buf, cap, "%.*s/%s", (int)n, path, tool) < cap && executable(buf)) return true;
        path = colon ? colon + 1 : NULL;
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home && (size_t)snprintf(buf, cap, "%s/bin/%s", home, tool) < cap && executable(buf)) return true;
    if ((size_t)snprintf(buf, cap, "/usr/local/cuda/bin/%s", tool) < cap && executable(buf)) return true;
    return false;
}

static bool mkdirs(const char *dir)
{
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) return false;
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(tmp, 0777) == 0 || errno == EEXIST;
}

bool cuda_cache_dir(char *buf, size_t cap, Diag *d)
{
    const char *own = getenv("GPUSIM_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (own && *own) n = snprintf(buf, cap, "%s", own);
    else if (xdg && *xdg) n = snprintf(buf, cap, "%s/gpusim", xdg);
    else if (home && *home) n = snprintf(buf, cap, "%s/.cache/gpusim", home);
    else n = snprintf(buf, cap, "/tmp/gpusim-cache");
    if (n < 0 || (size_t)n >= cap || !mkdirs(buf)) {
        diag_set(d, buf, 0, 0, "cannot make the cache folder (set GPUSIM_CACHE_DIR to another): %s", strerror(errno));
        return false;
    }
    return true;
}

/* Runs argv[0] with argv, stdout and stderr into log; returns its exit
** status (or -1 when it could not start or was killed). */
static int run_tool(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A fresh file "PREFIX.XXXXXX" made for this caller alone (mkstemp): runs
** of `--jobs` in one process compile the same kernel file at once, so a
** name built from the process id would be shared. */
static bool fresh_temp(char *path, size_t cap, const char *prefix)
{
    if (snprintf(path, cap, "%s.XXXXXX", prefix) >= (int)cap) return false;
    int fd = mkstemp(path);
    if (fd < 0) return false;
    fchmod(fd, 0644); /* the cached PTX is read like any compiler output */
    close(fd);
    return true;
}

/* The tool's --version output hashed (its identity in cache keys). */
static uint64_t tool_version(const char *tool, const char *dir, uint64_t h)
{
    char log[1200], prefix[1100];
    snprintf(prefix, sizeof prefix, "%s/version", dir);
    if (!fresh_temp(log, sizeof log, prefix)) return h;
    char *argv[] = { (char *)tool, (char *)"--version", NULL };
    run_tool(argv, log);
    char *text;
    size_t len;
    if (file_read(log, 1 << 16, &text, &len, NULL, 0) == FILE_READ_OK) {
        h = hash_fnv64(h, text, len);
        free(text);
    }
    unlink(log);
    return h;
}

/* ---- what nvcc read: a manifest beside each cache entry
** A cache entry's name keys what gpusim knows before compiling (the source,
** where it is, the flags, the working directory, nvcc's version). Every
** file nvcc read besides (headers through quotes, angle brackets or -I, the
** toolkit's own) is known only after: nvcc lists them (-MD -MF), and the
** entry's manifest, "HASH PATH" a line, records each with its content hash.
** The entry is used only when every file of its manifest still hashes the
** same, as ccache's direct mode does. */

#define MANIFEST_MAX (4u << 20)
#define DEP_FILE_MAX (64u << 20) /* a header larger than this is no header */

static bool hash_file(const char *path, uint64_t *h)
{
    char *text;
    size_t len;
    if (file_read(path, DEP_FILE_MAX, &text, &len, NULL, 0) != FILE_READ_OK) return false;
    *h = hash_fnv64(HASH_FNV64_OFFSET, text, len);
    free(text);
    return true;
}

bool cuda_manifest_fresh(const char *manifest)
{
    char *text;
    size_t len;
    if (file_read(manifest, MANIFEST_MAX, &text, &len, NULL, 0) != FILE_READ_OK) return false;
    bool fresh = len > 0;
    for (char *line = text; fresh && line < text + len;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (!nl) { /* ours are written whole: a cut line is someone else's */
            fresh = false;
            break;
        }
        *nl = 0;
        char *path;
        unsigned long long want = strtoull(line, &path, 16);
        uint64_t got;
        fresh = *path == ' ' && hash_file(path + 1, &got) && got == want;
        line = nl + 1;
    }
    free(text);
    return fresh;
}

/* The next path of a make rule's prerequisites (nvcc -MF): whitespace and
** backslash-newlines separate them, "\ " is a space within one. */
static bool next_dep(const char **p, const char *end, char *out, size_t cap)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r' ||
                        (**p == '\\' && *p + 1 < end && ((*p)[1] == '\n' || (*p)[1] == '\r'))))
        (*p)++;
    size_t n = 0;
    while (*p < end && **p != ' ' && **p != '\t' && **p != '\n' && **p != '\r') {
        if (**p == '\\' && *p + 1 < end && (*p)[1] == ' ') (*p)++;
        if (n + 1 < cap) out[n++] = **p;
        (*p)++;
    }
    out[n] = 0;
    return n > 0;
}

bool cuda_manifest_write(const char *depfile, const char *manifest)
{
    char *text;
    size_t len;
    if (file_read(depfile, MANIFEST_MAX, &text, &len, NULL, 0) != FILE_READ_OK) return false;
    const char *p = strstr(text, ": "), *end = text + len;
    char tmp[1300];
    FILE *f = p && fresh_temp(tmp, sizeof tmp, manifest) ? fopen(tmp, "w") : NULL;
    bool ok = f != NULL;
    char dep[4096], real[PATH_MAX];
    for (p = p ? p + 1 : end; ok && next_dep(&p, end, dep, sizeof dep);) {
        uint64_t h;
        ok = realpath(dep, real) && hash_file(real, &h) && fprintf(f, "%016llx %s\n", (unsigned long long)h, real) > 0;
    }
    free(text);
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp, manifest) == 0) return true;
    if (f) unlink(tmp);
    return false;
}

/* The log's text as a Diag message (cut to fit, with the log's path). */
/* The compiler's log into d; true when all of it fit (the log file may go),
** false when d points at the log for the rest. */
static bool log_to_diag(Diag *d, const char *file, const char *log, const char *head)
{
    char *text = NULL;
    size_t len = 0;
    file_read(log, 1 << 20, &text, &len, NULL, 0);
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) len--;
    size_t room = sizeof d->message - strlen(head) - strlen(log) - 64;
    bool whole = len <= room;
    if (whole) diag_set(d, file, 0, 0, "%s\n%.*s", head, (int)len, text ? text : "");
    else diag_set(d, file, 0, 0, "%s\n%.*s\n... (the whole output: %s)", head, (int)room, text, log);
    free(text);
    return whole;
}

/* What compile_cached makes of a .cu file. */
typedef enum { BUILD_PTX, BUILD_PROGRAM } BuildKind;

/* Compiles path with nvcc into the cache (out_path: the cached file),
** unless the cache holds it already under the same key. */
static bool compile_cached(const char *path, uint32_t sm, BuildKind kind, const char *const *flags, size_t nflags,
                           char *out_path, size_t cap, Diag *d)
{
    char nvcc[1024], dir[1024];
    if (!cuda_find_tool("nvcc", nvcc, sizeof nvcc)) {
        const char *own = getenv("GPUSIM_NVCC");
        if (own && *own)
            diag_set(d, path, 0, 0,
                     "GPUSIM_NVCC names '%s', which is not an executable file: point it at nvcc, or unset it to look "
                     "on PATH",
                     own);
        else if (kind == BUILD_PTX)
            diag_set(d, path, 0, 0,
                     "compiling a .cu kernel file needs the CUDA toolkit's nvcc (not found on PATH, in $CUDA_HOME/bin "
                     "or /usr/local/cuda/bin): install the CUDA toolkit, or compile it elsewhere with 'nvcc -O3 -ptx "
                     "-arch=sm_%u' and name the .ptx file, which needs no toolkit",
                     sm);
        else
            diag_set(d, path, 0, 0,
                     "building a .cu program needs the CUDA toolkit's nvcc (not found on PATH, in $CUDA_HOME/bin or "
                     "/usr/local/cuda/bin): install the CUDA toolkit, or build it elsewhere with 'nvcc -cudart shared "
                     "-arch=sm_%u' and give gpusim exec the program",
                     sm);
        return false;
    }
    if (!cuda_cache_dir(dir, sizeof dir, d)) return false;
    char *src;
    size_t slen;
    char why[256];
    if (file_read(path, CUDA_MAX_SOURCE, &src, &slen, why, sizeof why) != FILE_READ_OK) {
        diag_set(d, path, 0, 0, "cannot read %s: %s", kind == BUILD_PTX ? "kernel file" : "the CUDA source", why);
        return false;
    }
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%u", sm);
    if (nflags > CUDA_MAX_ARGS - 14) nflags = CUDA_MAX_ARGS - 14;
    uint64_t h = HASH_FNV64_OFFSET;
    h = hash_fnv64(h, src, slen);
    /* where it is and where nvcc runs: quoted includes and relative -I
    ** paths resolve from them */
    char where[PATH_MAX];
    if (realpath(path, where)) h = hash_fnv64(h, where, strlen(where) + 1);
    if (getcwd(where, sizeof where)) h = hash_fnv64(h, where, strlen(where) + 1);
    h = hash_fnv64(h, arch, strlen(arch));
    for (size_t i = 0; i < nflags; i++) h = hash_fnv64(h, flags[i], strlen(flags[i]) + 1);
    if (kind == BUILD_PROGRAM) h = hash_fnv64(h, "-cudart shared", 15);
    h = tool_version(nvcc, dir, h);
    free(src);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 3 && strcmp(base + bl - 3, ".cu") == 0) bl -= 3;
    if (bl > 100) bl = 100;
    snprintf(out_path, cap, "%s/%.*s-%016llx%s", dir, (int)bl, base, (unsigned long long)h,
             kind == BUILD_PTX ? ".ptx" : ".exe");
    char manifest[1300];
    snprintf(manifest, sizeof manifest, "%s.deps", out_path);
    if (access(out_path, R_OK) == 0 && cuda_manifest_fresh(manifest)) return true; /* cached */
    char tmp[1300] = "", log[1300] = "", deps[1300] = "", prefix[1300];
    snprintf(prefix, sizeof prefix, "%s.log", out_path);
    bool made = fresh_temp(tmp, sizeof tmp, out_path) && fresh_temp(log, sizeof log, prefix);
    snprintf(prefix, sizeof prefix, "%s.d", out_path);
    if (!made || !fresh_temp(deps, sizeof deps, prefix)) {
        if (*tmp) unlink(tmp);
        if (*log) unlink(log);
        diag_set(d, out_path, 0, 0, "cannot write the cache: %s", strerror(errno));
        return false;
    }
    char *argv[CUDA_MAX_ARGS];
    size_t a = 0;
    argv[a++] = nvcc;
    argv[a++] = (char *)"-O3";
    argv[a++] = (char *)(kind == BUILD_PTX ? "-ptx" : "-cudart=shared");
    argv[a++] = (char *)"-lineinfo";
    argv[a++] = (char *)"-MD";
    argv[a++] = (char *)"-MF";
    argv[a++] = deps;
    argv[a++] = arch;
    for (size_t i = 0; i < nflags; i++) argv[a++] = (char *)flags[i];
    argv[a++] = (char *)path;
    argv[a++] = (char *)"-o";
    argv[a++] = tmp;
    argv[a] = NULL;
    int rc = run_tool(argv, log);
    if (rc != 0) {
        unlink(tmp);
        unlink(deps);
        char head[256];
        snprintf(head, sizeof head, "nvcc failed (exit %d) compiling it; its messages:", rc);
        if (log_to_diag(d, path, log, head)) unlink(log);
        return false;
    }
    unlink(log);
    /* the entry first, its manifest after: a reader between the two finds
    ** the old manifest, which no longer matches, and compiles again */
    if (rename(tmp, out_path) != 0) {
        unlink(tmp);
        unlink(deps);
        diag_set(d, out_path, 0, 0, "cannot write the cache: %s", strerror(errno));
        return false;
    }
    if (!cuda_manifest_write(deps, manifest)) unlink(manifest); /* this run has its output; the next compiles again */
    unlink(deps);
    return true;
}

bool cuda_compile(const char *path, uint32_t sm, const char *const *flags, size_t nflags, char **ptx, size_t *len,
                  char *ptx_path, size_t cap, Diag *d)
{
    *ptx = NULL;
    if (!compile_cached(path, sm, BUILD_PTX, flags, nflags, ptx_path, cap, d)) return false;
    char why[256];
    if (file_read(ptx_path, 64u << 20, ptx, len, why, sizeof why) != FILE_READ_OK) {
        diag_set(d, ptx_path, 0, 0, "cannot read the compiled PTX: %s", why);
        return false;
    }
    return true;
}

bool cuda_build_program(const char *path, uint32_t sm, const char *const *flags, size_t nflags, char *exe_path,
                        size_t cap, Diag *d)
{
    return compile_cached(path, sm, BUILD_PROGRAM, flags, nflags, exe_path, cap, d);
}

static void apply_ptxas(Program *p, const char *text, size_t len, uint32_t *set)
{
    const Kernel *cur = NULL;
    for (const char *q = text; q && q < text + len;) {
        const char *nl = memchr(q, '\n', (size_t)(text + len - q));
        size_t n = nl ? (size_t)(nl - q) : (size_t)(text + len - q);
        const char *f = find(q, n, "entry function '", 16);
        if (f) {
            f += 16;
            const char *e = memchr(f, '\'', (size_t)(q + n - f));
            cur = NULL;
            for (uint32_t i = 0; e && i < p->nkernels; i++)
                if (p->kernels[i].mangled && strlen(p->kernels[i].mangled) == (size_t)(e - f) &&
                    memcmp(p->kernels[i].mangled, f, (size_t)(e - f)) == 0)
                    cur = &p->kernels[i];
        }
        const char *u = find(q, n, "Used ", 5);
        if (u && cur && find(q, n, "registers", 9)) {
            unsigned r = (unsigned)strtoul(u + 5, NULL, 10);
            if (r >= 1 && r <= ISA_MAX_REGS) {
                ((Kernel *)cur)->regs_declared = r;
                (*set)++;
            }
            cur = NULL;
        }
        q = nl ? nl + 1 : NULL;
    }
}

uint32_t cuda_ptxas_regs(Program *p, const char *ptx, size_t len, uint32_t sm)
{
    char ptxas[1024], dir[1024];
    Diag d;
    if (!cuda_find_tool("ptxas", ptxas, sizeof ptxas) || !cuda_cache_dir(dir, sizeof dir, &d)) return 0;
    uint32_t target = sm;
    const char *t = find(ptx, len, ".target sm_", 11);
    if (t) {
        uint32_t own = (uint32_t)strtoul(t + 11, NULL, 10);
        if (own > target) target = own; /* ptxas refuses a PTX target above -arch */
    }
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%u", target);
    uint64_t h = hash_fnv64(HASH_FNV64_OFFSET, ptx, len);
    h = hash_fnv64(h, arch, strlen(arch));
    h = tool_version(ptxas, dir, h);
    char cached[1100];
    snprintf(cached, sizeof cached, "%s/ptxas-%016llx.txt", dir, (unsigned long long)h);
    uint32_t set = 0;
    char *text;
    size_t n;
    if (file_read(cached, 1 << 22, &text, &n, NULL, 0) != FILE_READ_OK) {
        char in[1300], tmp[1300], prefix[1200];
        snprintf(prefix, sizeof prefix, "%s/ptxas-%016llx.in", dir, (unsigned long long)h);
        if (!fresh_temp(in, sizeof in, prefix)) return 0;
        if (!fresh_temp(tmp, sizeof tmp, cached)) {
            unlink(in);
            return 0;
        }
        FILE *f = fopen(in, "wb");
        if (!f) {
            unlink(in);
            unlink(tmp);
            return 0;
        }
        bool wrote = fwrite(ptx, 1, len, f) == len;
        fclose(f);
        char *argv[] = { ptxas, (char *)"-v", arch, in, (char *)"-o", (char *)"/dev/null", NULL };
        int rc = wrote ? run_tool(argv, tmp) : -1;
        unlink(in);
        if (rc != 0 || rename(tmp, cached) != 0) {
            unlink(tmp);
            return 0;
        }
        if (file_read(cached, 1 << 22, &text, &n, NULL, 0) != FILE_READ_OK) return 0;
    }
    apply_ptxas(p, text, n, &set);
    free(text);
    return set;
}
