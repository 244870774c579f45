/* isa/exec_printf.c -- device printf (PTX `call vprintf`), part of the exec
** module (isa/exec.h): a lane's format string and argument buffer read
** from the simulated memories, formatted as the CUDA C++ Programming Guide
** ("Formatted Output") describes it: the arguments packed one after the
** other, each at its own size's alignment (4 bytes for int, unsigned and
** char; 8 for long long, double -- a float is passed as one -- and
** pointers), conversions d i u o x X c f F e E g G a A s p with flags,
** width and precision, `%%`. The text goes to the block's sink with the
** cycle, SM and order it was printed at; exec_print_flush sorts the sinks
** of a launch by those, so the output is the same on any number of host
** threads. Limit: ExecPrint.limit bytes a sink (as the hardware's printf
** buffer, 1 MiB by default); lines past it are counted, not kept. */
#include "isa/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096 /* one printf's text (the rest is cut) */

void exec_print_init(ExecPrint *p, size_t limit)
{
    memset(p, 0, sizeof *p);
    p->limit = limit;
}

void exec_print_free(ExecPrint *p)
{
    free(p->text);
    free(p->recs);
    memset(p, 0, sizeof *p);
}

/* n bytes at generic address a as lane `lane` of warp w sees them: its local
** memory, its block's shared memory, or global memory. */
static bool read_bytes(const ExecBlock *b, const WarpExec *w, uint32_t lane, uint64_t a, void *dst, uint32_t n)
{
    if (a >= ISA_SHARED_WINDOW && a < (uint64_t)ISA_SHARED_WINDOW + b->smem_size) {
        if (a - ISA_SHARED_WINDOW + n > b->smem_size) return false;
        memcpy(dst, b->smem + (a - ISA_SHARED_WINDOW), n);
        return true;
    }
    if (a >= ISA_LOCAL_WINDOW && a < ISA_SHARED_WINDOW) {
        uint64_t off = a - ISA_LOCAL_WINDOW, size = b->kernel->local_bytes;
        if (!b->lmem || off + n > size) return false;
        memcpy(dst, b->lmem + ((size_t)w->warp_in_block * WARP_SIZE + lane) * size + off, n);
        return true;
    }
    const void *src = a >> 32 ? NULL : gmem_lookup(b->gmem, a, n);
    if (!src) return false;
    memcpy(dst, src, n);
    return true;
}

/* The NUL-terminated string at a (at most cap - 1 bytes); false when it
** cannot be read. */
static bool read_string(const ExecBlock *b, const WarpExec *w, uint32_t lane, uint64_t a, char *buf, size_t cap)
{
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        if (!read_bytes(b, w, lane, a + i, &buf[i], 1)) return false;
        if (!buf[i]) return true;
    }
    buf[i] = 0;
    return true;
}

static void put(char *out, size_t *len, const char *s, size_t n)
{
    if (*len + n >= LINE_MAX_BYTES) n = LINE_MAX_BYTES - 1 - *len;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = 0;
}

/* Formats fmt with the argument buffer at args into out; the length. */
static size_t format(const ExecBlock *b, const WarpExec *w, uint32_t lane, const char *fmt, uint64_t args, char *out)
{
    size_t len = 0;
    uint64_t at = 0; /* bytes of the argument buffer used */
    out[0] = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            put(out, &len, p, n);
            p += n;
            continue;
        }
        if (p[1] == '%') {
            put(out, &len, "%", 1);
            p += 2;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        const char *s = p++;
        while (*p && strchr("-+ #0", *p)) p++;
        while (*p >= '0' && *p <= '9') p++;
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9') p++;
        }
        const char *len_at = p;
        while (*p && strchr("hlLzjt", *p)) p++;
        char conv = *p;
        if (!conv || !strchr("diouxXcfFeEgGaAsp", conv)) { /* not a conversion: printed as written */
            put(out, &len, s, (size_t)(p - s));
            continue;
        }
        p++;
        bool wide_int = false;
        for (const char *l = len_at; l < p - 1; l++) wide_int |= *l == 'l' || *l == 'z' || *l == 'j' || *l == 't';
        uint32_t size = strchr("diouxXc", conv) && !wide_int ? 4 : 8;
        at = (at + size - 1) / size * size;
        uint64_t raw = 0;
        bool have = args && read_bytes(b, w, lane, args + at, &raw, size);
        at += size;
        /* the spec with the host's length for the value passed */
        char spec[64], text[512];
        size_t head = (size_t)(len_at - s) < 48 ? (size_t)(len_at - s) : 48;
        memcpy(spec, s, head);
        spec[head] = 0;
        if (strchr("diouxX", conv)) strcat(spec, size == 8 ? "ll" : "");
        size_t sl = strlen(spec);
        spec[sl] = conv;
        spec[sl + 1] = 0;
        int n;
        if (!have) n = snprintf(text, sizeof text, "<bad argument>");
        else if (strchr("di", conv)) n = size == 8 ? snprintf(text, sizeof text, spec, (long long)raw) : snprintf(text, sizeof text, spec, (int)(uint32_t)raw);
        else if (strchr("ouxX", conv)) n = size == 8 ? snprintf(text, sizeof text, spec, (unsigned long long)raw) : snprintf(text, sizeof text, spec, (unsigned)raw);
        else if (conv == 'c') n = snprintf(text, sizeof text, spec, (int)(uint32_t)raw);
        else if (conv == 'p') n = snprintf(text, sizeof text, "0x%llx", (unsigned long long)raw);
        else if (conv == 's') {
            char str[1024];
            if (!raw) n = snprintf(text, sizeof text, spec, "(null)");
            else if (!read_string(b, w, lane, raw, str, sizeof str)) n = snprintf(text, sizeof text, "<bad string>");
            else n = snprintf(text, sizeof text, spec, str);
        } else {
            double d;
            memcpy(&d, &raw, 8);
            n = snprintf(text, sizeof text, spec, d);
        }
        if (n > 0) put(out, &len, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    }
    return len;
}

int32_t exec_printf(const ExecBlock *b, const WarpExec *w, uint32_t lane, uint64_t fmt_addr, uint64_t args)
{
    char fmt[LINE_MAX_BYTES], out[LINE_MAX_BYTES];
    if (!read_string(b, w, lane, fmt_addr, fmt, sizeof fmt)) return -1;
    size_t n = format(b, w, lane, fmt, args, out);
    ExecPrint *p = b->print;
    if (!p) return (int32_t)n;
    if (p->len + n > p->limit) {
        p->dropped++;
        return (int32_t)n;
    }
    if (p->len + n > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 4096;
        while (cap < p->len + n) cap *= 2;
        char *t = realloc(p->text, cap);
        if (!t) {
            p->dropped++;
            return (int32_t)n;
        }
        p->text = t, p->cap = cap;
    }
    if (p->nrecs == p->recs_cap) {
        size_t cap = p->recs_cap ? p->recs_cap * 2 : 64;
        ExecPrintRec *r = realloc(p->recs, cap * sizeof *r);
        if (!r) {
            p->dropped++;
            return (int32_t)n;
        }
        p->recs = r, p->recs_cap = cap;
    }
    memcpy(p->text + p->len, out, n);
    p->recs[p->nrecs] = (ExecPrintRec){ b->clock, b->smid, (uint32_t)p->nrecs, p->len, n, p };
    p->nrecs++;
    p->len += n;
    return (int32_t)n;
}

static int rec_order(const void *x, const void *y)
{
    const ExecPrintRec *a = x, *b = y;
    if (a->clock != b->clock) return a->clock < b->clock ? -1 : 1;
    if (a->sm != b->sm) return a->sm < b->sm ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

uint64_t exec_print_flush(ExecPrint *sinks, uint32_t n, FILE *out)
{
    size_t total = 0;
    uint64_t dropped = 0;
    for (uint32_t i = 0; i < n; i++) total += sinks[i].nrecs, dropped += sinks[i].dropped;
    ExecPrintRec *all = total ? malloc(total * sizeof *all) : NULL;
    size_t k = 0;
    for (uint32_t i = 0; all && i < n; i++)
        for (size_t j = 0; j < sinks[i].nrecs; j++) all[k++] = sinks[i].recs[j];
    if (all) qsort(all, total, sizeof *all, rec_order);
    for (size_t i = 0; out && all && i < total; i++) fwrite(all[i].sink->text + all[i].off, 1, all[i].len, out);
    if (out && dropped)
        fprintf(out, "[gpusim: %llu printf calls dropped: the printf buffer (%zu bytes per SM) was full]\n",
                (unsigned long long)dropped, sinks[0].limit);
    if (out) fflush(out);
    free(all);
    for (uint32_t i = 0; i < n; i++) sinks[i].len = sinks[i].nrecs = 0, sinks[i].dropped = 0;
    return total;
}
