/* isa/load.c -- the front end by file kind, and kernel names (see load.h). */
#include "isa/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "isa/asm.h"
#include "isa/ptx.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

KernelFileKind program_file_kind(const char *path, const char *text, size_t len)
{
    if (path && ends_with(path, ".ptx")) return KFILE_PTX;
    if (path && ends_with(path, ".cu")) return KFILE_CU;
    if (path && ends_with(path, ".asm")) return KFILE_ASM;
    /* by content: the first directive after blanks and // comments */
    size_t i = 0;
    while (text && i < len) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
            i++;
        } else if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
            while (i < len && text[i] != '\n') i++;
        } else {
            break;
        }
    }
    if (text && i + 8 <= len && (memcmp(text + i, ".version", 8) == 0 || memcmp(text + i, ".target", 7) == 0)) return KFILE_PTX;
    return KFILE_ASM;
}

bool program_parse(KernelFileKind kind, const char *text, size_t len, const char *path, Program *out, Diag *d)
{
    if (kind == KFILE_PTX) return ptx_parse(text, len, path, out, d);
    if (kind == KFILE_CU) {
        memset(out, 0, sizeof *out);
        diag_set(d, path, 0, 0, "a .cu file must be compiled to PTX first (nvcc -ptx)");
        return false;
    }
    return asm_parse(text, len, path, out, d);
}

bool program_load_file(const char *path, Program *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    char *buf, why[256];
    size_t len;
    FileReadStatus st = file_read(path, PTX_MAX_FILE_BYTES, &buf, &len, why, sizeof why);
    if (st != FILE_READ_OK) {
        diag_set(d, path, 0, 0, st == FILE_READ_CANNOT_OPEN ? "cannot open: %s" : "%s", why);
        return false;
    }
    bool ok = program_parse(program_file_kind(path, buf, len), buf, len, path, out, d);
    free(buf);
    return ok;
}

const Kernel *program_match_kernel(const Program *p, const char *name, char *msg, size_t cap)
{
    const Kernel *hit = NULL;
    uint32_t bare = 0;
    for (uint32_t i = 0; i < p->nkernels; i++) { /* mangled and signatures are unique */
        const Kernel *k = &p->kernels[i];
        if ((k->mangled && strcmp(k->mangled, name) == 0) || (k->signature && strcmp(k->signature, name) == 0)) return k;
        if (strcmp(k->name, name) == 0) {
            hit = k;
            bare++;
        }
    }
    if (bare == 1) return hit;
    size_t len = 0;
    msg[0] = 0;
    if (bare > 1) {
        len += (size_t)snprintf(msg, cap, "kernel name '%s' is ambiguous: %u kernels have it; name one of", name, bare);
        for (uint32_t i = 0; i < p->nkernels && len < cap; i++) {
            const Kernel *k = &p->kernels[i];
            if (strcmp(k->name, name) == 0)
                len += (size_t)snprintf(msg + len, cap - len, " '%s'", k->signature ? k->signature : k->mangled);
        }
        return NULL;
    }
    len += (size_t)snprintf(msg, cap, "no kernel '%s'; the kernels are", name);
    for (uint32_t i = 0; i < p->nkernels && len < cap; i++)
        len += (size_t)snprintf(msg + len, cap - len, "%s %s", i ? "," : "", p->kernels[i].name);
    return NULL;
}
