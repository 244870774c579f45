/* viz/srcpanel.c -- the source overlay's lines (see srcpanel.h). */
#include "viz/srcpanel.h"

#include <stdio.h>
#include <string.h>

#include "isa/disasm.h"

/* A file line as text: its number, then the line with tabs expanded. */
static void file_line(SrcListing *l, uint32_t f, uint32_t line, char *buf, size_t cap)
{
    size_t len = 0, n;
    const char *s = l ? srcview_line(l, f, line, &len) : NULL;
    n = (size_t)snprintf(buf, cap, "%5u  ", line);
    if (!s) {
        snprintf(buf + n, cap - n, "(line not readable)");
        return;
    }
    for (size_t i = 0; i < len && n + 1 < cap; i++) {
        if (s[i] == '\t') {
            do buf[n++] = ' ';
            while (n + 1 < cap && (n - 7) % 8);
        } else {
            buf[n++] = s[i];
        }
    }
    buf[n] = '\0';
}

static size_t put(VsrcLine *out, size_t n, size_t max, VsrcKind kind, const char *text)
{
    if (n >= max) return n;
    out[n].kind = kind;
    size_t len = strlen(text) < sizeof out[n].text - 1 ? strlen(text) : sizeof out[n].text - 1;
    memcpy(out[n].text, text, len);
    out[n].text[len] = '\0';
    return n + 1;
}

size_t vsrc_lines(SrcListing *l, const Kernel *k, const PcCounters *pcs, uint64_t warp_cycles, uint32_t pc,
                  VsrcLine *out, size_t max)
{
    size_t n = 0;
    char buf[256];
    if (!k || pc >= k->ncode || !pcs) return put(out, n, max, VSRC_NOTE, "no instruction to show");
    const Instr *cur = &k->code[pc];
    if (cur->src_file && l) { /* PTX: the CUDA line first */
        size_t len = 0;
        const char *s = srcview_line(l, cur->src_file, cur->src_line, &len);
        const char *name = srcview_file_name(l, cur->src_file), *slash = strrchr(name, '/');
        int m = snprintf(buf, sizeof buf, "%s:%u  ", slash ? slash + 1 : name, cur->src_line);
        while (s && len && (*s == ' ' || *s == '\t')) s++, len--;
        if (s && m > 0 && (size_t)m < sizeof buf)
            snprintf(buf + m, sizeof buf - (size_t)m, "%.*s", (int)(len < 200 ? len : 200), s);
        n = put(out, n, max, VSRC_NOTE, buf);
    }
    /* the instructions around pc, each under its file line, until max lines */
    size_t room = max > n ? max - n : 0, before = room / 4;
    uint32_t first = pc > before / 2 ? pc - (uint32_t)(before / 2) : 0;
    uint32_t prev = first ? k->code[first - 1].line : 0;
    for (uint32_t p = first; p < k->ncode && n + 2 <= max; p++) {
        const Instr *in = &k->code[p];
        /* the file's lines between two instructions (comments, labels, .loc), a few */
        for (uint32_t ln = prev && in->line > prev + 3 ? in->line - 3 : prev + 1; l && prev && ln < in->line && n + 3 <= max;
             ln++) {
            file_line(l, 0, ln, buf, sizeof buf);
            n = put(out, n, max, VSRC_FILE, buf);
        }
        prev = in->line;
        if (l) file_line(l, 0, in->line, buf, sizeof buf);
        else disasm_instr(k, in, buf, sizeof buf);
        n = put(out, n, max, p == pc ? VSRC_CURRENT : VSRC_FILE, buf);
        char c[200];
        srcview_counters(&pcs[p], warp_cycles, in, c, sizeof c);
        snprintf(buf, sizeof buf, "       %s", c);
        n = put(out, n, max, VSRC_COUNTERS, buf);
    }
    return n;
}
