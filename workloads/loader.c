/* workloads/loader.c -- reads and validates workload files (format:
** workloads/README.md) into a Workload: the schema, key by key.
** Validation order: top-level keys, params (evaluated, with --param
** overrides), the kernel file (assembled), buffers, variants. The first
** problem stops loading, reported at the offending JSON value.
** Beside it: jsonread.c parses and places errors in the source text,
** params.c evaluates parameters and every expression's variables, run.c
** runs and checks the variants of a loaded Workload. */
#include "workloads/loader.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/jsonpos.h"
#include "isa/asm.h"
#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/load.h"
#include "workloads/checks.h"
#include "workloads/cuda.h"
#include "workloads/expr.h"
#include "workloads/jsonread.h"
#include "workloads/npy.h"
#include "workloads/params.h"

/* ================================================================ loader state */

typedef struct {
    JsonReader       r;     /* the text, the path being read, the first error */
    Params           p;     /* parameters and the variables of expressions    */
    const GpuConfig *c;
    Workload        *w;
} Ld;

static void push_key(Ld *L, const char *key, uint32_t index) { jsonpos_push(&L->r.at, key, index); }
static void push_index(Ld *L, uint32_t index) { jsonpos_push(&L->r.at, NULL, index); }
static void pop(Ld *L) { jsonpos_pop(&L->r.at); }

/* The first error, at the value being read. */
__attribute__((format(printf, 2, 3))) static bool fail(Ld *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jsonread_failv(&L->r, JSONREAD_VALUE, 0, fmt, ap);
    va_end(ap);
    return false;
}

/* ================================================================ values */

/* A name at the current path: a string that is an identifier. */
static bool name_value(Ld *L, const cJSON *it, char out[WL_MAX_NAME], const char *what)
{
    if (!cJSON_IsString(it)) return fail(L, "expected %s name (a string), found %s", what, jsonread_type(it));
    if (!expr_is_name(it->valuestring))
        return fail(L, "%s name '%s' must be an identifier (letters, digits, '_'; not starting with a digit)", what,
                    it->valuestring);
    if (strlen(it->valuestring) >= WL_MAX_NAME)
        return fail(L, "%s name longer than %d characters", what, WL_MAX_NAME - 1);
    snprintf(out, WL_MAX_NAME, "%s", it->valuestring);
    return true;
}

/* A variant's name: any text without control characters ("12.5%",
** "2*SMs+1"): it is only ever looked up whole (--variant NAME). */
static bool variant_name(Ld *L, const cJSON *it, char out[WL_MAX_VARIANT_NAME])
{
    if (!cJSON_IsString(it)) return fail(L, "expected a variant name (a string), found %s", jsonread_type(it));
    const unsigned char *s = (const unsigned char *)it->valuestring;
    if (!s[0]) return fail(L, "a variant name must not be empty");
    for (size_t k = 0; s[k]; k++)
        if (s[k] < 0x20 || s[k] == 0x7f)
            return fail(L, "variant name with a control character (byte 0x%02x at %zu): names are printed and typed", s[k], k);
    if (strlen(it->valuestring) >= WL_MAX_VARIANT_NAME)
        return fail(L, "variant name longer than %d bytes", WL_MAX_VARIANT_NAME - 1);
    snprintf(out, WL_MAX_VARIANT_NAME, "%s", it->valuestring);
    return true;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* ================================================================ kernels */

/* "nvcc_flags" (a string or an array of strings) into flags[] (malloc'd,
** at most 32), a path in them found next to the workload file as the
** kernel file is: the directory of -I DIR / -IDIR / --include-path=DIR /
** -isystem DIR, and the file of -include FILE. */
static bool nvcc_flags(Ld *L, const cJSON *root, char **flags, size_t *nflags)
{
    uint32_t ord;
    const cJSON *fl = jsonread_member(root, "nvcc_flags", &ord);
    if (!fl) return true;
    push_key(L, "nvcc_flags", ord);
    bool path_next = false; /* the flag before was -I, -isystem or -include alone */
    for (const cJSON *x = cJSON_IsArray(fl) ? fl->child : fl; x; x = cJSON_IsArray(fl) ? x->next : NULL) {
        if (!cJSON_IsString(x)) return fail(L, "expected a string or an array of strings (nvcc options), found %s", jsonread_type(x));
        if (*nflags == 32) return fail(L, "at most 32 nvcc options");
        const char *f = x->valuestring, *path = NULL;
        static const char *const JOINED[] = { "--include-path=", "-I" };
        size_t pre = 0;
        if (path_next) {
            path = f;
        } else {
            for (size_t k = 0; k < sizeof JOINED / sizeof JOINED[0] && !path; k++)
                if (!strncmp(f, JOINED[k], strlen(JOINED[k])) && f[strlen(JOINED[k])]) {
                    pre = strlen(JOINED[k]);
                    path = f + pre;
                }
        }
        path_next = !strcmp(f, "-I") || !strcmp(f, "-isystem") || !strcmp(f, "-include");
        char *sibling = path ? jsonread_sibling_path(&L->r, path) : NULL;
        char *out = NULL;
        if (path && sibling && (out = malloc(pre + strlen(sibling) + 1))) {
            memcpy(out, f, pre);
            strcpy(out + pre, sibling);
        } else if (!path) {
            out = dup_string(f);
        }
        free(sibling);
        if (!out) return fail(L, "out of memory");
        flags[(*nflags)++] = out;
    }
    pop(L);
    return true;
}

static bool load_kernels(Ld *L, const cJSON *root)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(root, "kernels", &ord);
    push_key(L, "kernels", ord);
    if (!cJSON_IsString(it) || !it->valuestring[0])
        return fail(L, "expected the path of a kernel file (a string), found %s", jsonread_type(it));
    char *full = jsonread_sibling_path(&L->r, it->valuestring);
    if (!full) return fail(L, "out of memory");
    L->w->kernel_file = full;
    char err[256], cu_file[1200] = ""; /* the .cu file, when the kernels are compiled */
    size_t len;
    char *src;
    KernelFileKind kind = program_file_kind(full, NULL, 0);
    if (kind == KFILE_CU) { /* compiled on the fly (workloads/cuda.h); its PTX is what runs */
        char *flags[32];
        size_t nflags = 0;
        if (!nvcc_flags(L, root, flags, &nflags)) {
            for (size_t i = 0; i < nflags; i++) free(flags[i]);
            return false;
        }
        char ptx_path[1200];
        bool compiled = cuda_compile(full, L->c->compute_capability, (const char *const *)flags, nflags, &src, &len,
                                     ptx_path, sizeof ptx_path, L->r.d);
        for (size_t i = 0; i < nflags; i++) free(flags[i]);
        if (!compiled) {
            L->r.failed = true; /* the compiler's messages stand as they are */
            return false;
        }
        snprintf(cu_file, sizeof cu_file, "%s", full);
        char *pp = dup_string(ptx_path);
        if (!pp) return fail(L, "out of memory");
        free(L->w->kernel_file);
        L->w->kernel_file = full = pp; /* faults name the PTX lines (each with its .cu line) */
        kind = KFILE_PTX;
    } else if (file_read(full, ASM_MAX_FILE_BYTES, &src, &len, err, sizeof err) != FILE_READ_OK) {
        return fail(L, "cannot read kernel file '%s': %s", full, err);
    }
    if (kind != KFILE_PTX) kind = program_file_kind(full, src, len);
    bool ok = program_parse(kind, src, len, full, &L->w->program, L->r.d);
    if (!ok && cu_file[0] && L->w->program.nkernels == 0 && strstr(L->r.d->message, "no kernel in file"))
        diag_set(L->r.d, cu_file, 0, 0, "no __global__ kernel in this file (nvcc's PTX of it has no .entry)");
    /* PTX: registers per thread from ptxas -v where installed (cached) */
    if (ok && kind == KFILE_PTX) cuda_ptxas_regs(&L->w->program, src, len, L->c->compute_capability);
    free(src);
    if (!ok) {
        L->r.failed = true; /* the assembler's file:line:col error stands as it is */
        return false;
    }
    pop(L);
    return true;
}

/* ================================================================ buffers */

/* Names for the buffer and variant indexes (base/names.h). */
static const char *buffer_name(const void *ctx, uint32_t id) { return ((const Workload *)ctx)->buffers[id].name; }
static const char *variant_name_of(const void *ctx, uint32_t id) { return ((const Workload *)ctx)->variants[id].name; }

/* An init value of an f32 buffer: a JSON number, or an integer
** expression (workloads/README.md, "Expressions") converted to float. */
static bool f32_number(Ld *L, const cJSON *it, double *out)
{
    if (cJSON_IsString(it)) {
        int64_t v;
        if (!params_int(&L->p, it, &v)) return false;
        *out = (double)v;
        return true;
    }
    if (!cJSON_IsNumber(it)) return fail(L, "expected a number or an integer expression, found %s", jsonread_type(it));
    if (!isfinite(it->valuedouble) || fabs(it->valuedouble) > FLT_MAX)
        return fail(L, "%g does not fit a 32-bit float", it->valuedouble);
    *out = it->valuedouble;
    return true;
}

static bool type_range(WlType t, int64_t *lo, int64_t *hi)
{
    *lo = t == WL_S32 ? INT32_MIN : 0;
    *hi = t == WL_S32 ? INT32_MAX : (int64_t)UINT32_MAX;
    return t != WL_F32;
}

static bool int_number(Ld *L, const cJSON *it, WlType t, int64_t *out)
{
    int64_t lo, hi;
    type_range(t, &lo, &hi);
    if (cJSON_IsString(it)) {
        if (!params_int(&L->p, it, out)) return false;
    } else {
        if (!cJSON_IsNumber(it)) return fail(L, "expected an integer or an expression, found %s", jsonread_type(it));
        if (!jsonread_integer(it, out))
            return fail(L, "expected an integer for a %s buffer, found %g", wl_type_name(t), it->valuedouble);
    }
    if (*out < lo || *out > hi)
        return fail(L, "%lld%s%s%s is outside the %s range %lld..%lld", (long long)*out, cJSON_IsString(it) ? " (from \"" : "",
                    cJSON_IsString(it) ? it->valuestring : "", cJSON_IsString(it) ? "\")" : "", wl_type_name(t),
                    (long long)lo, (long long)hi);
    return true;
}

/* Member `key` of obj as a value of the buffer's type: x (f32) or i (ints). */
static bool init_number(Ld *L, const cJSON *obj, const char *key, WlType t, double dflt, double *x, int64_t *i)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(obj, key, &ord);
    if (!it) {
        *x = dflt;
        *i = (int64_t)dflt;
        return true;
    }
    push_key(L, key, ord);
    bool ok = t == WL_F32 ? f32_number(L, it, x) : int_number(L, it, t, i);
    if (ok) pop(L);
    return ok;
}

/* {"npy": "data/x.npy"}: the file's elements, of the buffer's type and count. */
static bool load_npy_init(Ld *L, const cJSON *spec, WlBuffer *b)
{
    WlInit *in = &b->init;
    in->kind = WL_INIT_NPY;
    if (!cJSON_IsString(spec) || !spec->valuestring[0])
        return fail(L, "expected the path of a .npy file (a string), found %s",
                    cJSON_IsString(spec) ? "an empty string" : jsonread_type(spec));
    if (!(in->file = jsonread_sibling_path(&L->r, spec->valuestring))) return fail(L, "out of memory");
    NpyArray a;
    Diag d;
    if (!npy_read(in->file, WL_MAX_COUNT * 4 + (1u << 20), &a, &d)) return fail(L, "%s: %s", in->file, d.message);
    bool ok = false;
    if (a.type != b->type)
        fail(L, "%s holds %s elements, buffer '%s' is %s (%s)", in->file, npy_descr(a.type), b->name, wl_type_name(b->type),
             npy_descr(b->type));
    else if (a.count != b->count)
        fail(L, "%s holds %llu elements, buffer '%s' has count %llu", in->file, (unsigned long long)a.count, b->name,
             (unsigned long long)b->count);
    else
        in->data = a.data, a.data = NULL, ok = true;
    npy_free(&a);
    return ok;
}

static bool load_init(Ld *L, const cJSON *it, WlBuffer *b)
{
    WlInit *in = &b->init;
    memset(in, 0, sizeof *in);
    if (cJSON_IsString(it)) {
        if (strcmp(it->valuestring, "zeros") == 0) return true;
        return fail(L, "unknown init '%s': expected \"zeros\" or an object {\"constant\"|\"iota\"|\"random\": {...}}",
                    it->valuestring);
    }
    if (!cJSON_IsObject(it))
        return fail(L, "expected \"zeros\" or an object {\"constant\"|\"iota\"|\"random\"|\"npy\": ...}, found %s",
                    jsonread_type(it));
    static const char *const kinds[] = { "zeros", "constant", "iota", "random", "npy", NULL };
    if (!jsonread_check_keys(&L->r, it, kinds, NULL)) return false;
    if (!it->child || it->child->next)
        return fail(L, "expected exactly one of \"zeros\", \"constant\", \"iota\", \"random\", \"npy\"");
    const cJSON *spec = it->child;
    push_key(L, spec->string, 0);
    if (strcmp(spec->string, "npy") == 0) {
        if (!load_npy_init(L, spec, b)) return false;
        pop(L);
        return true;
    }
    if (!cJSON_IsObject(spec)) return fail(L, "expected an object, found %s", jsonread_type(spec));
    WlType t = b->type;
    if (strcmp(spec->string, "zeros") == 0) {
        if (!jsonread_check_keys(&L->r, spec, (const char *const[]){ NULL }, NULL)) return false;
        in->kind = WL_INIT_ZEROS;
    } else if (strcmp(spec->string, "constant") == 0) {
        in->kind = WL_INIT_CONSTANT;
        if (!jsonread_check_keys(&L->r, spec, (const char *const[]){ "value", NULL },
                                 (const char *const[]){ "value", NULL }) ||
            !init_number(L, spec, "value", t, 0, &in->x0, &in->i0))
            return false;
    } else if (strcmp(spec->string, "iota") == 0) {
        in->kind = WL_INIT_IOTA;
        if (!jsonread_check_keys(&L->r, spec, (const char *const[]){ "start", "step", NULL }, NULL) ||
            !init_number(L, spec, "start", t, 0, &in->x0, &in->i0) || !init_number(L, spec, "step", t == WL_U32 ? WL_S32 : t, 1, &in->x1, &in->i1))
            return false;
        if (t != WL_F32) {
            int64_t lo, hi, last;
            type_range(t, &lo, &hi);
            if (__builtin_mul_overflow(in->i1, (int64_t)(b->count - 1), &last) || __builtin_add_overflow(last, in->i0, &last) ||
                last < lo || last > hi)
                return fail(L, "iota leaves the %s range before element %llu (the last)", wl_type_name(t),
                            (unsigned long long)(b->count - 1));
        }
    } else {
        in->kind = WL_INIT_RANDOM;
        if (!jsonread_check_keys(&L->r, spec, (const char *const[]){ "seed", "min", "max", NULL }, NULL)) return false;
        uint32_t ord;
        const cJSON *seed = jsonread_member(spec, "seed", &ord);
        in->seed = 1;
        if (seed) {
            int64_t s;
            push_key(L, "seed", ord);
            if (cJSON_IsNumber(seed) && fabs(seed->valuedouble) >= 9007199254740992.0)
                return fail(L, "seed %.17g is not below 2^53: a JSON number that large may have been rounded "
                               "when it was read; give a smaller seed", seed->valuedouble);
            if (!cJSON_IsNumber(seed) || !jsonread_integer(seed, &s) || s < 0)
                return fail(L, "expected a non-negative integer seed (below 2^53), found %s", jsonread_type(seed));
            in->seed = (uint64_t)s;
            pop(L);
        }
        if (!init_number(L, spec, "min", t, 0, &in->x0, &in->i0) || !init_number(L, spec, "max", t, 1, &in->x1, &in->i1))
            return false;
        if (t == WL_F32 ? in->x0 > in->x1 : in->i0 > in->i1) return fail(L, "min is larger than max");
    }
    pop(L);
    return true;
}

static bool load_buffers(Ld *L, const cJSON *root)
{
    Workload *w = L->w;
    uint32_t ord;
    const cJSON *arr = jsonread_member(root, "buffers", &ord);
    push_key(L, "buffers", ord);
    if (!cJSON_IsArray(arr)) return fail(L, "expected an array of buffers, found %s", jsonread_type(arr));
    uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
    w->buffers = calloc(n ? n : 1, sizeof *w->buffers);
    if (!w->buffers) return fail(L, "out of memory");
    uint64_t next = GMEM_BASE; /* the address space as gmem_alloc will lay it out */
    uint32_t i = 0;
    static const char *const keys[] = { "name", "type", "count", "init", NULL };
    static const char *const required[] = { "name", "type", "count", NULL };
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        push_index(L, i);
        w->nbuffers = i + 1; /* so that workload_destroy frees what a failed one holds */
        if (!cJSON_IsObject(it)) return fail(L, "expected a buffer object, found %s", jsonread_type(it));
        if (!jsonread_check_keys(&L->r, it, keys, required)) return false;
        WlBuffer *b = &w->buffers[i];
        uint32_t o;
        const cJSON *v = jsonread_member(it, "name", &o);
        push_key(L, "name", o);
        if (!name_value(L, v, b->name, "buffer")) return false;
        if (params_is_reserved(b->name))
            return fail(L, "buffer name '%s' is reserved (a machine value or a function)", b->name);
        if (params_find(&L->p, b->name) >= 0)
            return fail(L, "buffer name '%s' is also a parameter: args could not tell them apart", b->name);
        if (workload_find_buffer(w, b->name) >= 0) return fail(L, "duplicate buffer name '%s'", b->name);
        if (!names_add(&w->buffer_names, i, buffer_name, w)) return fail(L, "out of memory");
        pop(L);
        v = jsonread_member(it, "type", &o);
        push_key(L, "type", o);
        if (!cJSON_IsString(v))
            return fail(L, "expected an element type (\"f32\", \"u32\" or \"s32\"), found %s", jsonread_type(v));
        if (strcmp(v->valuestring, "f32") == 0) b->type = WL_F32;
        else if (strcmp(v->valuestring, "u32") == 0) b->type = WL_U32;
        else if (strcmp(v->valuestring, "s32") == 0) b->type = WL_S32;
        else return fail(L, "unknown element type '%s' (expected f32, u32 or s32)", v->valuestring);
        pop(L);
        v = jsonread_member(it, "count", &o);
        push_key(L, "count", o);
        int64_t count;
        if (!params_int(&L->p, v, &count)) return false;
        if (count < 1) return fail(L, "a buffer needs at least 1 element, got %lld", (long long)count);
        if ((uint64_t)count > WL_MAX_COUNT)
            return fail(L, "%lld elements is more than the %llu (2^30) a buffer may hold", (long long)count,
                        (unsigned long long)WL_MAX_COUNT);
        b->count = (uint64_t)count;
        uint64_t base = (next + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
        if (base + b->count * 4 > GMEM_LIMIT)
            return fail(L, "the buffers up to '%s' need %llu bytes, more than the simulated 4 GiB address space holds",
                        b->name, (unsigned long long)(base + b->count * 4 - GMEM_BASE));
        next = base + b->count * 4 + GMEM_GAP;
        pop(L);
        v = jsonread_member(it, "init", &o);
        if (v) {
            push_key(L, "init", o);
            if (!load_init(L, v, b)) return false;
            pop(L);
        } else {
            memset(&b->init, 0, sizeof b->init);
        }
        pop(L);
    }
    pop(L);
    return true;
}

/* ================================================================ variants */


/* grid or block: an integer, an expression, or an array of 1-3 of them. */
static bool load_dims(Ld *L, const cJSON *it, const char *what, const int64_t max[3], uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (!cJSON_IsArray(it)) {
        int64_t v;
        if (!params_int_in(&L->p, it, 1, max[0], what, &v)) return false;
        out[0] = (uint32_t)v;
        return true;
    }
    int n = cJSON_GetArraySize(it);
    if (n < 1 || n > 3) return fail(L, "expected 1 to 3 dimensions [x, y, z], found %d", n);
    static const char *const axis[] = { "x", "y", "z" };
    for (int k = 0; k < n; k++) {
        push_index(L, (uint32_t)k);
        char label[32];
        snprintf(label, sizeof label, "%s.%s", what, axis[k]);
        int64_t v;
        if (!params_int_in(&L->p, cJSON_GetArrayItem(it, k), 1, max[k], label, &v)) return false;
        out[k] = (uint32_t)v;
        pop(L);
    }
    return true;
}

static bool load_args(Ld *L, const cJSON *arr, WlLaunch *v)
{
    const Kernel *k = v->kernel;
    const Workload *w = L->w;
    if (!cJSON_IsArray(arr)) return fail(L, "expected an array of kernel arguments, found %s", jsonread_type(arr));
    uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
    if (n != k->nparams) {
        char list[512] = "";
        size_t len = 0;
        for (uint32_t i = 0; i < k->nparams; i++) len = diag_join(list, sizeof list, len, k->params[i].name);
        if (k->signature)
            return fail(L, "kernel %s takes %u parameter%s, got %u argument%s", k->signature, k->nparams,
                        k->nparams == 1 ? "" : "s", n, n == 1 ? "" : "s");
        return fail(L, "kernel '%s' takes %u parameters (%s), got %u arguments", k->name, k->nparams, list, n);
    }
    v->args = calloc(n ? n : 1, sizeof *v->args);
    if (!v->args) return fail(L, "out of memory");
    uint32_t i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        push_index(L, i);
        const KernelParam *p = &k->params[i];
        char plabel[256];
        const char *pname = kernel_param_label(k, i, plabel, sizeof plabel), *kname = kernel_label(k);
        const char *ptype = p->is_ptr ? "ptr" : p->type == TYPE_F32 ? "f32" : p->type == TYPE_S32 ? "s32" : "u32";
        if (k->ptx) ptype = TYPE_NAMES[p->type];
        WlArg *a = &v->args[i];
        int b = cJSON_IsString(it) ? workload_find_buffer(w, it->valuestring) : -1;
        /* a mini-ISA .ptr takes a buffer; a PTX .u64 a buffer's address or an
        ** integer (a size_t, a null pointer: 0) */
        bool ptx_integer = k->ptx && p->size == 8 && b < 0;
        if (p->is_array)
            return fail(L, "%s of kernel '%s' is a struct passed by value (%u bytes): a workload cannot give one "
                        "yet (gpusim exec runs the program that launches it)", pname, kname, p->size);
        if ((p->is_ptr && !ptx_integer) || (p->size == 8 && b >= 0)) {
            if (b < 0) {
                if (cJSON_IsString(it))
                    return fail(L, "%s of kernel '%s' is .ptr: expected a buffer name, found '%s' (no such buffer)",
                                pname, kname, it->valuestring);
                return fail(L, "%s of kernel '%s' is .ptr: expected a buffer name, found %s", pname, kname,
                            jsonread_type(it));
            }
            a->kind = REF_ARG_BUFFER;
            a->buffer = (uint32_t)b;
        } else if (b >= 0) {
            return fail(L, "'%s' is a buffer but %s of kernel '%s' is .%s", it->valuestring, pname, kname,
                        ptype);
        } else if (p->type == TYPE_F64) { /* a PTX double: any finite JSON number, or an integer expression */
            double d;
            if (cJSON_IsNumber(it)) d = it->valuedouble;
            else if (params_int(&L->p, it, &a->i)) d = (double)a->i;
            else return false;
            if (!isfinite(d)) return fail(L, "%s of kernel '%s' is .f64: expected a finite number", pname, kname);
            a->kind = REF_ARG_FLOAT;
            a->f = fabs(d) > FLT_MAX ? (d > 0 ? INFINITY : -INFINITY) : (float)d; /* C reference functions take floats */
            memcpy(&a->bits, &d, 8);
        } else if (cJSON_IsNumber(it) && !jsonread_integer(it, &a->i)) {
            if (p->type != TYPE_F32 && it->valuedouble == floor(it->valuedouble) && fabs(it->valuedouble) < 1e300)
                return fail(L, "%s of kernel '%s' is .%s: %.0f is past 2^53, where a JSON number no longer "
                            "holds every integer exactly", pname, kname, ptype, it->valuedouble);
            if (p->type != TYPE_F32)
                return fail(L, "%s of kernel '%s' is .%s: expected an integer, found %g", pname, kname,
                            ptype, it->valuedouble);
            if (!isfinite(it->valuedouble) || fabs(it->valuedouble) > FLT_MAX)
                return fail(L, "%g does not fit a 32-bit float", it->valuedouble);
            a->kind = REF_ARG_FLOAT;
            a->f = (float)it->valuedouble;
            { uint32_t fb; memcpy(&fb, &a->f, 4); a->bits = fb; }
        } else {
            if (!params_int(&L->p, it, &a->i)) return false;
            if (p->type == TYPE_F32) {
                a->kind = REF_ARG_FLOAT;
                a->f = (float)a->i;
                { uint32_t fb; memcpy(&fb, &a->f, 4); a->bits = fb; }
            } else {
                int64_t lo = p->type == TYPE_S32 ? INT32_MIN : 0, hi = p->type == TYPE_S32 ? INT32_MAX : (int64_t)UINT32_MAX;
                if (p->size != 4) { /* PTX's other widths */
                    uint32_t bitsz = 8 * p->size;
                    /* 64 bits: the ends are INT64_MIN/MAX themselves (negating
                    ** 2^63 as an int64_t overflows) */
                    int64_t smax = bitsz == 64 ? INT64_MAX : (int64_t)(1ull << (bitsz - 1)) - 1;
                    lo = type_signed(p->type) ? -smax - 1 : 0;
                    hi = bitsz == 64 ? INT64_MAX : type_signed(p->type) ? smax : (int64_t)((1ull << bitsz) - 1);
                }
                if (a->i < lo || a->i > hi)
                    return fail(L, "%lld does not fit %s (.%s, %lld..%lld)", (long long)a->i, pname, ptype,
                                (long long)lo, (long long)hi);
                a->kind = REF_ARG_INT;
                a->bits = (uint64_t)a->i;
            }
        }
        pop(L);
    }
    return true;
}

RefCall workload_ref_call(const Workload *w, const WlLaunch *v, void *const *data, RefArg ra[ISA_MAX_PARAMS])
{
    for (uint32_t i = 0; i < v->kernel->nparams; i++) {
        const WlArg *a = &v->args[i];
        memset(&ra[i], 0, sizeof ra[i]);
        ra[i].kind = a->kind;
        if (a->kind == REF_ARG_BUFFER) {
            ra[i].type = w->buffers[a->buffer].type;
            ra[i].count = w->buffers[a->buffer].count;
            ra[i].data = data ? data[a->buffer] : NULL;
        }
        ra[i].i = a->i;
        ra[i].f = a->f;
    }
    return (RefCall){ ra, v->kernel->nparams, { v->grid[0], v->grid[1], v->grid[2] },
                      { v->block[0], v->block[1], v->block[2] } };
}

/* One launch: kernel, block, dynamic_smem, regs (its occupancy), then
** grid and args, which may use the occupancy; from `it`, the variant
** itself (one-launch form) or an element of its "launches". */
static bool load_launch(Ld *L, const cJSON *it, WlLaunch *l)
{
    Workload *w = L->w;
    const GpuConfig *c = L->c;
    uint32_t o;
    const cJSON *f;
    f = jsonread_member(it, "kernel", &o);
    push_key(L, "kernel", o);
    if (!cJSON_IsString(f)) return fail(L, "expected a kernel name, found %s", jsonread_type(f));
    char why[1024];
    l->kernel = program_match_kernel(&w->program, f->valuestring, why, sizeof why);
    if (!l->kernel && strncmp(why, "kernel name", 11) == 0) return fail(L, "%s", why); /* an ambiguous PTX name */
    if (!l->kernel) {
        char list[512] = "";
        size_t len = 0;
        for (uint32_t k = 0; k < w->program.nkernels; k++) len = diag_join(list, sizeof list, len, w->program.kernels[k].name);
        return fail(L, "no kernel '%s' in %s (it has: %s)", f->valuestring, w->kernel_file, list);
    }
    if (!kernel_runnable(&w->program, l->kernel, L->r.d)) {
        L->r.failed = true; /* the PTX front end's file:line:col error stands as it is */
        return false;
    }
    pop(L);

    /* block, dynamic_smem, regs: they decide the occupancy */
    f = jsonread_member(it, "block", &o);
    push_key(L, "block", o);
    const int64_t block_max[3] = { 1024, 1024, 64 };
    if (!load_dims(L, f, "block", block_max, l->block)) return false;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (threads > c->max_threads_per_block)
        return fail(L, "a block of %llu threads is more than %s allows (%u threads per block)", (unsigned long long)threads,
                    c->name, c->max_threads_per_block);
    pop(L);
    int64_t x = 0;
    uint32_t smem_ord = 0;
    bool has_smem = false;
    if ((f = jsonread_member(it, "dynamic_smem", &o))) {
        has_smem = true;
        smem_ord = o;
        push_key(L, "dynamic_smem", o);
        if (!params_int_in(&L->p, f, 0, UINT32_MAX, "dynamic_smem", &x)) return false;
        l->dynamic_smem = (uint32_t)x;
        uint64_t total = (uint64_t)l->kernel->dynamic_smem_offset + l->dynamic_smem;
        if (total > c->shared_per_block_optin)
            return fail(L, "%llu bytes of shared memory per block (%u static + %u dynamic) is more than %s allows (%u)",
                        (unsigned long long)total, l->kernel->dynamic_smem_offset, l->dynamic_smem, c->name,
                        c->shared_per_block_optin);
        pop(L);
    }
    if ((f = jsonread_member(it, "regs", &o))) {
        push_key(L, "regs", o);
        if (!params_int_in(&L->p, f, 0, c->max_regs_per_thread, "regs", &x)) return false;
        l->regs = (uint32_t)x;
        pop(L);
    }
    uint32_t regs = l->regs ? l->regs : kernel_regs_per_thread(l->kernel);
    Diag od;
    if (!occupancy_compute(c, (uint32_t)threads, regs, l->kernel->dynamic_smem_offset, l->dynamic_smem, &l->occ, &od) ||
        l->occ.blocks_per_sm == 0) {
        if (has_smem) push_key(L, "dynamic_smem", smem_ord);
        return fail(L, "kernel '%s' cannot launch on %s with %llu threads, %u registers per thread and %u bytes of "
                       "shared memory per block: %s",
                    l->kernel->name, c->name, (unsigned long long)threads, regs,
                    l->kernel->dynamic_smem_offset + l->dynamic_smem, od.message[0] ? od.message : "no block fits on an SM");
    }

    /* grid and args may use the occupancy */
    params_set_launch(&L->p, l->occ.blocks_per_sm, (int64_t)threads);
    f = jsonread_member(it, "grid", &o);
    push_key(L, "grid", o);
    const int64_t grid_max[3] = { INT32_MAX, 65535, 65535 };
    if (!load_dims(L, f, "grid", grid_max, l->grid)) return false;
    char msg[256];
    if (!grid_check_launch(l->grid, l->block, msg, sizeof msg)) return fail(L, "%s", msg);
    pop(L);
    f = jsonread_member(it, "args", &o);
    push_key(L, "args", o);
    if (!load_args(L, f, l)) return false;
    pop(L);
    params_clear_launch(&L->p);
    return true;
}

static bool load_variant(Ld *L, const cJSON *it, uint32_t index, WlVariant *v)
{
    Workload *w = L->w;
    static const char *const keys[] = { "name", "description", "kernel", "grid", "block", "args",
                                        "dynamic_smem", "regs", "checks", "launches", NULL };
    static const char *const one[] = { "name", "kernel", "grid", "block", "args", NULL };
    static const char *const launch_keys[] = { "kernel", "grid", "block", "args", "dynamic_smem", "regs", NULL };
    if (!cJSON_IsObject(it)) return fail(L, "expected a variant object, found %s", jsonread_type(it));
    uint32_t o;
    const cJSON *seq = jsonread_member(it, "launches", &o);
    if (!jsonread_check_keys(&L->r, it, keys, seq ? (const char *const[]){ "name", NULL } : one)) return false;
    const cJSON *f = jsonread_member(it, "name", &o);
    push_key(L, "name", o);
    if (!variant_name(L, f, v->name)) return false;
    if (workload_find_variant(w, v->name)) return fail(L, "duplicate variant name '%s'", v->name);
    if (!names_add(&w->variant_names, index, variant_name_of, w)) return fail(L, "out of memory");
    pop(L);
    if ((f = jsonread_member(it, "description", &o))) {
        push_key(L, "description", o);
        if (!cJSON_IsString(f)) return fail(L, "expected a string, found %s", jsonread_type(f));
        if (!(v->description = dup_string(f->valuestring))) return fail(L, "out of memory");
        pop(L);
    }
    if (!seq) {
        if (!(v->launches = calloc(1, sizeof *v->launches))) return fail(L, "out of memory");
        v->nlaunches = 1;
        if (!load_launch(L, it, &v->launches[0])) return false;
    } else {
        for (const char *const *k = launch_keys; *k; k++)
            if (jsonread_member(it, *k, &o)) {
                push_key(L, *k, o);
                return jsonread_fail_key(&L->r, "'%s' belongs in each of \"launches\" (a variant has either "
                                                 "kernel, grid, block and args, or launches)", *k);
            }
        jsonread_member(it, "launches", &o);
        push_key(L, "launches", o);
        if (!cJSON_IsArray(seq) || !seq->child)
            return fail(L, "expected an array of launches {kernel, grid, block, args, ...}, found %s",
                        cJSON_IsArray(seq) ? "an empty array" : jsonread_type(seq));
        uint32_t n = (uint32_t)cJSON_GetArraySize(seq), i = 0;
        if (!(v->launches = calloc(n, sizeof *v->launches))) return fail(L, "out of memory");
        for (const cJSON *e = seq->child; e; e = e->next, i++) {
            push_index(L, i);
            v->nlaunches = i + 1;
            if (!cJSON_IsObject(e)) return fail(L, "expected a launch object, found %s", jsonread_type(e));
            if (!jsonread_check_keys(&L->r, e, launch_keys, (const char *const[]){ "kernel", "grid", "block", "args", NULL }) ||
                !load_launch(L, e, &v->launches[i]))
                return false;
            pop(L);
        }
        pop(L);
    }
    if ((f = jsonread_member(it, "checks", &o))) {
        push_key(L, "checks", o);
        if (!checks_load(&L->r, w, v, f)) return false;
        pop(L);
    }
    return true;
}

static bool load_variants(Ld *L, const cJSON *root)
{
    Workload *w = L->w;
    uint32_t ord;
    const cJSON *arr = jsonread_member(root, "variants", &ord);
    push_key(L, "variants", ord);
    if (!cJSON_IsArray(arr)) return fail(L, "expected an array of variants, found %s", jsonread_type(arr));
    uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
    if (n == 0) return fail(L, "a workload needs at least one variant");
    w->variants = calloc(n, sizeof *w->variants);
    if (!w->variants) return fail(L, "out of memory");
    uint32_t i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        push_index(L, i);
        w->nvariants = i + 1;
        if (!load_variant(L, it, i, &w->variants[i])) return false;
        pop(L);
    }
    pop(L);
    return checks_link(&L->r, w, arr, ord);
}

/* The description's claims, once the variants they name are loaded. */
static bool load_claims(Ld *L, const cJSON *root)
{
    uint32_t ord;
    const cJSON *arr = jsonread_member(root, "claims", &ord);
    if (!arr) return true;
    push_key(L, "claims", ord);
    if (!claims_load(&L->r, L->w, arr, &L->w->claims, &L->w->nclaims)) return false;
    pop(L);
    return true;
}

/* ================================================================ entry points */

static bool string_member(Ld *L, const cJSON *root, const char *key, char **out)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(root, key, &ord);
    push_key(L, key, ord);
    if (!cJSON_IsString(it)) return fail(L, "expected a string, found %s", jsonread_type(it));
    if (!(*out = dup_string(it->valuestring))) return fail(L, "out of memory");
    pop(L);
    return true;
}

bool workload_parse(const char *text, size_t len, const char *path, const GpuConfig *c, const char *const *overrides,
                    size_t noverrides, Workload *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    if (!path) path = "<workload>";
    Ld L;
    memset(&L, 0, sizeof L);
    cJSON *root = jsonread_parse(&L.r, text, len, path, d);
    if (!root) return false;
    L.c = c;
    L.w = out;
    params_init(&L.p, &L.r, c, out);
    bool ok = false;
    if (!(out->path = dup_string(path))) {
        diag_set(d, path, 0, 0, "out of memory");
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        fail(&L, "expected a JSON object at the top level, found %s", jsonread_type(root));
        goto done;
    }
    static const char *const keys[] = { "$schema", "name", "description", "params", "kernels", "nvcc_flags", "buffers", "variants", "claims", NULL };
    static const char *const required[] = { "name", "description", "kernels", "buffers", "variants", NULL };
    if (!jsonread_check_keys(&L.r, root, keys, required)) goto done;
    uint32_t ord;
    const cJSON *schema = jsonread_member(root, "$schema", &ord);
    if (schema && !cJSON_IsString(schema)) {
        push_key(&L, "$schema", ord);
        fail(&L, "expected a string, found %s", jsonread_type(schema));
        goto done;
    }
    ok = string_member(&L, root, "name", &out->name) && string_member(&L, root, "description", &out->description) &&
         params_load(&L.p, root, overrides, noverrides) && load_kernels(&L, root) && load_buffers(&L, root) &&
         load_variants(&L, root) && load_claims(&L, root);
done:
    cJSON_Delete(root);
    params_free(&L.p);
    if (!ok) workload_destroy(out);
    return ok;
}

bool workload_load(const char *path, const GpuConfig *c, const char *const *overrides, size_t noverrides,
                   Workload *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    char err[256];
    size_t len;
    char *text;
    if (file_read(path, WL_MAX_FILE_BYTES, &text, &len, err, sizeof err) != FILE_READ_OK) {
        diag_set(d, path, 0, 0, "cannot read workload file: %s", err);
        return false;
    }
    bool ok = workload_parse(text, len, path, c, overrides, noverrides, out, d);
    free(text);
    return ok;
}

void workload_destroy(Workload *w)
{
    if (!w) return;
    for (uint32_t i = 0; i < w->nvariants; i++) {
        free(w->variants[i].description);
        for (uint32_t k = 0; k < w->variants[i].nlaunches; k++) free(w->variants[i].launches[k].args);
        free(w->variants[i].launches);
        checks_free(&w->variants[i]);
        free(w->variants[i].checks);
    }
    free(w->variants);
    free(w->order);
    for (uint32_t i = 0; i < w->nbuffers; i++) {
        free(w->buffers[i].init.data);
        free(w->buffers[i].init.file);
    }
    free(w->buffers);
    program_destroy(&w->program);
    names_free(&w->buffer_names);
    names_free(&w->variant_names);
    free(w->kernel_file);
    free(w->params);
    claims_free(w->claims, w->nclaims);
    free(w->description);
    free(w->name);
    free(w->path);
    memset(w, 0, sizeof *w);
}

const WlVariant *workload_find_variant(const Workload *w, const char *name)
{
    uint32_t i = names_find(&w->variant_names, name, strlen(name), variant_name_of, w);
    return i == NAMES_NONE ? NULL : &w->variants[i];
}

int workload_find_buffer(const Workload *w, const char *name)
{
    uint32_t i = names_find(&w->buffer_names, name, strlen(name), buffer_name, w);
    return i == NAMES_NONE ? -1 : (int)i;
}

void workload_select(const Workload *w, const bool *chosen, bool *run)
{
    /* in run order every target comes before the variants comparing with
    ** it: one backward pass carries the choice down every chain */
    for (uint32_t i = 0; i < w->nvariants; i++) run[i] = chosen[i];
    for (uint32_t k = w->nvariants; k-- > 0;) {
        const WlVariant *v = &w->variants[w->order[k]];
        if (!run[w->order[k]]) continue;
        for (uint32_t c = 0; c < v->nchecks; c++)
            if (v->checks[c].kind == WL_CHECK_SAME_AS) run[v->checks[c].variant] = true;
    }
}
