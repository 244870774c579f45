/* cli/srcview.c -- the per-instruction view (see srcview.h). Every figure
** comes from the launch's PcCounters through derive_pc (sim/derive.h), so
** the text view, --json and the visualizer quote the same numbers. Output
** is a pure function of the counters and the files.                      */
#include "cli/srcview.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/jsonstr.h"
#include "isa/disasm.h"
#include "sim/derive.h"

#define SRC_COLS       100     /* the text view's width                        */
#define SRC_INDENT     12      /* where the counters under a line start        */
#define SRC_FILE_LIMIT ((size_t)64 << 20)
#define SRC_STATES     3       /* warp states named under a line ...           */
#define SRC_STATE_MIN  0.05    /* ... when at least this share of its cycles   */

typedef struct {
    bool      tried, ok;
    char     *text;
    size_t    len;
    uint32_t  nlines;
    size_t   *start;           /* nlines + 1 offsets                           */
} SrcFile;

struct SrcListing {
    const Program *p;
    char          *kernel_file;
    uint32_t       nfiles;     /* 1 + p->nsrc_files                            */
    SrcFile       *files;
};

SrcListing *srcview_open(const Program *p, const char *kernel_file)
{
    SrcListing *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->p = p;
    l->nfiles = 1 + p->nsrc_files;
    l->files = calloc(l->nfiles, sizeof *l->files);
    l->kernel_file = strdup(kernel_file ? kernel_file : "");
    if (!l->files || !l->kernel_file) {
        srcview_close(l);
        return NULL;
    }
    return l;
}

void srcview_close(SrcListing *l)
{
    if (!l) return;
    for (uint32_t i = 0; l->files && i < l->nfiles; i++) {
        free(l->files[i].text);
        free(l->files[i].start);
    }
    free(l->files);
    free(l->kernel_file);
    free(l);
}

const char *srcview_file_name(const SrcListing *l, uint32_t f)
{
    if (f == 0) return l->kernel_file;
    return f <= l->p->nsrc_files && l->p->src_files[f - 1] ? l->p->src_files[f - 1] : "?";
}

static void load(SrcListing *l, uint32_t f)
{
    SrcFile *sf = &l->files[f];
    sf->tried = true;
    if (f > 0 && (f > l->p->nsrc_files || !l->p->src_files[f - 1])) return;
    const char *path = srcview_file_name(l, f);
    if (file_read(path, SRC_FILE_LIMIT, &sf->text, &sf->len, NULL, 0) != FILE_READ_OK) {
        /* nvcc writes a relative .file as it was given: relative to where it
        ** ran, which is often the PTX file's own folder */
        const char *slash = strrchr(l->kernel_file, '/');
        if (f == 0 || path[0] == '/' || !slash) return;
        size_t dn = (size_t)(slash - l->kernel_file) + 1, pn = strlen(path);
        char *joined = malloc(dn + pn + 1);
        if (!joined) return;
        memcpy(joined, l->kernel_file, dn);
        memcpy(joined + dn, path, pn + 1);
        FileReadStatus st = file_read(joined, SRC_FILE_LIMIT, &sf->text, &sf->len, NULL, 0);
        free(joined);
        if (st != FILE_READ_OK) return;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < sf->len; i++) n += sf->text[i] == '\n';
    if (sf->len && sf->text[sf->len - 1] != '\n') n++;
    sf->start = malloc(((size_t)n + 1) * sizeof *sf->start);
    if (!sf->start) return;
    uint32_t k = 0;
    sf->start[k++] = 0;
    for (size_t i = 0; i < sf->len && k <= n; i++)
        if (sf->text[i] == '\n') sf->start[k++] = i + 1;
    sf->start[n] = sf->len + (sf->len && sf->text[sf->len - 1] != '\n');
    sf->nlines = n;
    sf->ok = true;
}

const char *srcview_line(SrcListing *l, uint32_t f, uint32_t line, size_t *len)
{
    if (f >= l->nfiles) return NULL;
    if (!l->files[f].tried) load(l, f);
    const SrcFile *sf = &l->files[f];
    if (!sf->ok || line == 0 || line > sf->nlines) return NULL;
    size_t a = sf->start[line - 1], b = sf->start[line];
    while (b > a && (sf->text[b - 1] == '\n' || sf->text[b - 1] == '\r')) b--;
    *len = b - a;
    return sf->text + a;
}

/* ------------------------------------------------------------ counters */

/* Appends formatted text at *n in buf (cap bytes), two spaces before it
** unless it is the first. */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
    if (*n >= cap) return;
    if (*n) *n += (size_t)snprintf(buf + *n, cap - *n, "  ");
    if (*n >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
    va_end(ap);
    if (k > 0) *n += (size_t)k;
    if (*n > cap) *n = cap;
}

char *srcview_counters(const PcCounters *p, uint64_t kernel_warp_cycles, const Instr *in, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    if (!p->executed) {
        add(buf, cap, &n, "not executed");
        return buf;
    }
    PcFigures f;
    derive_pc(p, kernel_warp_cycles, &f);
    add(buf, cap, &n, "cyc %.1f%%", 100.0 * f.cycle_share);
    if ((!in || in->slots == 0) && p->warp_instructions == 0)
        add(buf, cap, &n, "free: executed %llu, no issue slot", (unsigned long long)p->executed);
    else
        add(buf, cap, &n, "inst %llu  thr %llu", (unsigned long long)p->warp_instructions,
            (unsigned long long)p->thread_instructions);
    if (p->global_requests) {
        if (f.sectors_per_request > 1.125 * f.ideal_sectors_per_request)
            add(buf, cap, &n, "sec/req %.1f (ideal %.1f)", f.sectors_per_request, f.ideal_sectors_per_request);
        else
            add(buf, cap, &n, "sec/req %.1f", f.sectors_per_request);
        if (p->l1_sector_accesses) add(buf, cap, &n, "L1 %.0f%%", 100.0 * f.l1_hit_rate);
        if (p->l2_sector_accesses) add(buf, cap, &n, "L2 %.0f%%", 100.0 * f.l2_hit_rate);
    }
    if (p->shared_requests)
        add(buf, cap, &n, "wf/req %.1f  bc/req %.1f", f.wavefronts_per_request, f.bank_conflicts_per_request);
    /* its warp cycles by state, the largest first (ties: the list's order) */
    bool used[STALL_REASONS] = { false };
    for (int shown = 0; shown < SRC_STATES && f.warp_cycles; shown++) {
        int best = -1;
        for (int k = 0; k < STALL_REASONS; k++)
            if (!used[k] && (best < 0 || p->stall[k] > p->stall[best])) best = k;
        if (best < 0 || f.stall_share[best] < SRC_STATE_MIN) break;
        used[best] = true;
        add(buf, cap, &n, "%s %.0f%%", STALL_NAMES[best], 100.0 * f.stall_share[best]);
    }
    return buf;
}

static uint64_t cycles_of(const PcCounters *p)
{
    uint64_t c = 0;
    for (int k = 0; k < STALL_REASONS; k++) c += p->stall[k];
    return c;
}

/* rank[i] of n counter sets: 1..SRCVIEW_TOP by cycles (ties: the lower index). */
static void rank_sets(const PcCounters *sets, uint32_t n, uint8_t *rank)
{
    memset(rank, 0, n);
    for (uint8_t r = 1; r <= SRCVIEW_TOP; r++) {
        int64_t best = -1;
        uint64_t bc = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c = cycles_of(&sets[i]);
            if (!rank[i] && c > bc) best = i, bc = c;
        }
        if (best < 0) break;
        rank[best] = r;
    }
}

void srcview_rank(const SrcKernel *sk, uint8_t *rank)
{
    rank_sets(sk->pcs, sk->k->ncode, rank);
}

void srcview_legend(FILE *out)
{
    fputs("\nper instruction, under its line (as Nsight Compute's Source page counts them): cyc = its share\n"
          "of the kernel's warp cycles, a warp's cycles counted at the instruction it waits to issue (a\n"
          "load's wait shows where its register is read); inst = warp instructions issued; thr = thread\n"
          "instructions; sec/req = 32-byte sectors per global request; L1, L2 = its sectors' hit rates;\n"
          "wf/req, bc/req = shared-memory wavefronts and bank conflicts per request; then the warp states\n"
          "of its cycles. #1 .. #5 mark the instructions (and source lines) with the most cycles.\n",
          out);
}

/* ------------------------------------------------------------ text */

/* Characters (not bytes) of s[0..n). */
static size_t width_n(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) w++;
    return w;
}

/* A line of the file with tabs expanded (stops of 8) after the gutter. */
static void put_file_line(FILE *out, const char *gutter, const char *s, size_t len)
{
    fputs(gutter, out);
    size_t col = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\t') {
            do fputc(' ', out);
            while (++col % 8);
        } else {
            fputc(s[i], out);
            if (((unsigned char)s[i] & 0xC0) != 0x80) col++;
        }
    }
    fputc('\n', out);
}

/* The counters, wrapped at SRC_COLS, after a gutter of SRC_INDENT
** columns that holds the rank mark ("  #1"). */
static void put_counters(FILE *out, uint8_t rank, const char *text)
{
    char mark[16] = "";
    if (rank) snprintf(mark, sizeof mark, "  #%u", rank);
    fputs(mark, out);
    size_t col = strlen(mark);
    for (; col < SRC_INDENT; col++) fputc(' ', out);
    const char *p = text;
    bool first = true;
    while (*p) {
        /* items are separated by two spaces; wrap between items */
        const char *e = strstr(p, "  ");
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t w = width_n(p, n);
        if (!first && col + 2 + w > SRC_COLS) {
            fputc('\n', out);
            for (col = 0; col < SRC_INDENT; col++) fputc(' ', out);
        } else if (!first) {
            fputs("  ", out);
            col += 2;
        }
        fwrite(p, 1, n, out);
        col += w;
        first = false;
        p += n;
        while (*p == ' ') p++;
    }
    fputc('\n', out);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A PTX ".loc F L C" line: F and L. */
static bool parse_loc(const char *s, size_t len, uint32_t *f, uint32_t *line)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    if (len - i < 5 || strncmp(s + i, ".loc", 4) != 0 || (s[i + 4] != ' ' && s[i + 4] != '\t')) return false;
    char buf[64];
    size_t n = len - i - 4 < sizeof buf - 1 ? len - i - 4 : sizeof buf - 1;
    memcpy(buf, s + i + 4, n);
    buf[n] = '\0';
    unsigned a, b;
    if (sscanf(buf, "%u %u", &a, &b) != 2) return false;
    *f = a;
    *line = b;
    return true;
}

/* The CUDA source line that a .loc names, as a header in the listing. */
static void put_loc(FILE *out, SrcListing *l, uint32_t f, uint32_t line)
{
    size_t n = 0;
    const char *s = srcview_line(l, f, line, &n);
    while (s && n && (*s == ' ' || *s == '\t')) s++, n--;
    fprintf(out, "        [%s:%u]%s", base_name(srcview_file_name(l, f)), line, s ? " " : "");
    if (s) fwrite(s, 1, n, out);
    fputc('\n', out);
}

/* The lines of a source file that instructions map to, with their summed
** counters: one entry per (file, line), sorted. */
typedef struct {
    uint32_t   file, line;
    PcCounters c;
} SrcLine;

static int cmp_line(const void *a, const void *b)
{
    const SrcLine *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The (file, line) sums of sk's instructions that carry a .loc; *n of them
** (malloc'd; NULL with *n = 0 when none or out of memory). */
static SrcLine *source_lines(const SrcKernel *sk, uint32_t *n)
{
    const Kernel *k = sk->k;
    *n = 0;
    SrcLine *v = calloc(k->ncode ? k->ncode : 1, sizeof *v);
    if (!v) return NULL;
    uint32_t m = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        if (!in->src_file || !in->src_line) continue;
        uint32_t i = 0;
        while (i < m && !(v[i].file == in->src_file && v[i].line == in->src_line)) i++;
        if (i == m) {
            v[m].file = in->src_file;
            v[m].line = in->src_line;
            m++;
        }
        derive_pc_add(&v[i].c, &sk->pcs[pc]);
    }
    if (!m) {
        free(v);
        return NULL;
    }
    qsort(v, m, sizeof *v, cmp_line);
    *n = m;
    return v;
}

/* The hottest few, on one wrapped paragraph. */
static void put_hottest(FILE *out, const SrcListing *l, const SrcKernel *sk, const uint8_t *rank)
{
    char buf[1024];
    size_t n = 0;
    buf[0] = '\0';
    for (uint8_t r = 1; r <= SRCVIEW_TOP; r++)
        for (uint32_t pc = 0; pc < sk->k->ncode; pc++) {
            if (rank[pc] != r) continue;
            char mn[48];
            disasm_mnemonic(&sk->k->code[pc], mn, sizeof mn);
            PcFigures f;
            derive_pc(&sk->pcs[pc], sk->st->stall_cycles, &f);
            const Instr *in = &sk->k->code[pc];
            char cu[96] = "";
            if (in->src_file && in->src_line)
                snprintf(cu, sizeof cu, " (%s:%u)", base_name(srcview_file_name(l, in->src_file)), in->src_line);
            add(buf, sizeof buf, &n, "#%u line %u %s%s %.1f%%", r, in->line, mn, cu, 100.0 * f.cycle_share);
        }
    fprintf(out, "  %llu warp cycles; the most at:\n", (unsigned long long)sk->st->stall_cycles);
    put_counters(out, 0, n ? buf : "none (nothing executed)");
}

bool srcview_text(FILE *out, SrcListing *l, const SrcKernel *sk)
{
    const Kernel *k = sk->k;
    uint8_t *rank = malloc(k->ncode ? k->ncode : 1);
    uint32_t *order = malloc(((size_t)k->ncode + 1) * sizeof *order); /* pcs by line */
    if (!rank || !order) {
        free(rank);
        free(order);
        return false;
    }
    srcview_rank(sk, rank);
    fprintf(out, "\nsource of %s: kernel %s, %s%s\n", sk->title, k->name, srcview_file_name(l, 0),
            sk->stopped ? " (the launch stopped: counts until then)" : "");
    put_hottest(out, l, sk, rank);
    /* the instructions in line order (a PTX kernel's hoisted loads are out
    ** of it), stably by pc */
    uint32_t first = k->line ? k->line : 1, last = first;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        order[pc] = pc;
        if (k->code[pc].line > last) last = k->code[pc].line;
    }
    for (uint32_t i = 1; i < k->ncode; i++)
        for (uint32_t j = i; j > 0 && k->code[order[j - 1]].line > k->code[order[j]].line; j--) {
            uint32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    fputc('\n', out);
    size_t len;
    if (!srcview_line(l, 0, first, &len))
        fprintf(out, "  (%s cannot be read: the instructions are shown disassembled)\n", srcview_file_name(l, 0));
    uint32_t next = 0; /* into order */
    char counters[512], gutter[16], dis[192];
    for (uint32_t line = first; line <= last; line++) {
        const char *s = srcview_line(l, 0, line, &len);
        uint32_t lf, ll;
        if (s && k->ptx && parse_loc(s, len, &lf, &ll)) {
            put_loc(out, l, lf, ll);
        } else if (s) {
            snprintf(gutter, sizeof gutter, "%6u  ", line);
            put_file_line(out, gutter, s, len);
        }
        for (; next < k->ncode && k->code[order[next]].line <= line; next++) {
            uint32_t pc = order[next];
            if (!s) { /* the file is gone or changed: the instruction as read */
                disasm_instr(k, &k->code[pc], dis, sizeof dis);
                fprintf(out, "%6u  %s\n", k->code[pc].line, dis);
            }
            put_counters(out, rank[pc], srcview_counters(&sk->pcs[pc], sk->st->stall_cycles, &k->code[pc], counters,
                                                         sizeof counters));
        }
    }
    /* PTX: the CUDA source, line by line, each line's instructions summed */
    uint32_t nl;
    SrcLine *lines = source_lines(sk, &nl);
    if (lines) {
        PcCounters *sets = malloc(nl * sizeof *sets);
        uint8_t *lr = malloc(nl);
        if (sets && lr) {
            for (uint32_t i = 0; i < nl; i++) sets[i] = lines[i].c;
            rank_sets(sets, nl, lr);
            uint32_t cur = UINT32_MAX;
            for (uint32_t i = 0; i < nl; i++) {
                if (lines[i].file != cur) {
                    cur = lines[i].file;
                    fprintf(out, "\n  by line of %s (the PTX instructions of each line summed):\n",
                            srcview_file_name(l, cur));
                }
                const char *s = srcview_line(l, cur, lines[i].line, &len);
                snprintf(gutter, sizeof gutter, "%6u  ", lines[i].line);
                if (s) put_file_line(out, gutter, s, len);
                else fprintf(out, "%s(line not readable)\n", gutter);
                put_counters(out, lr[i], srcview_counters(&lines[i].c, sk->st->stall_cycles, NULL, counters,
                                                          sizeof counters));
            }
        }
        free(sets);
        free(lr);
        free(lines);
    }
    free(rank);
    free(order);
    return true;
}

/* ------------------------------------------------------------ JSON */

static void json_counters(FILE *out, const PcCounters *p, uint64_t kernel_cycles)
{
    PcFigures f;
    derive_pc(p, kernel_cycles, &f);
    fprintf(out, "\"executed\": %llu, \"warp_instructions\": %llu, \"thread_instructions\": %llu, \"warp_cycles\": %llu, "
                 "\"cycle_share\": ",
            (unsigned long long)p->executed, (unsigned long long)p->warp_instructions,
            (unsigned long long)p->thread_instructions, (unsigned long long)f.warp_cycles);
    jsonstr_number(out, f.cycle_share);
    fprintf(out, ", \"global_requests\": %llu, \"sectors_per_request\": ", (unsigned long long)p->global_requests);
    jsonstr_number(out, f.sectors_per_request);
    fputs(", \"ideal_sectors_per_request\": ", out);
    jsonstr_number(out, f.ideal_sectors_per_request);
    fputs(", \"l1_hit_rate\": ", out);
    jsonstr_number(out, f.l1_hit_rate);
    fputs(", \"l2_hit_rate\": ", out);
    jsonstr_number(out, f.l2_hit_rate);
    fprintf(out, ", \"shared_requests\": %llu, \"wavefronts_per_request\": ", (unsigned long long)p->shared_requests);
    jsonstr_number(out, f.wavefronts_per_request);
    fputs(", \"ideal_wavefronts_per_request\": ", out);
    jsonstr_number(out, f.ideal_wavefronts_per_request);
    fputs(", \"bank_conflicts_per_request\": ", out);
    jsonstr_number(out, f.bank_conflicts_per_request);
    fputs(", \"stalls\": {", out);
    for (int k = 0; k < STALL_REASONS; k++)
        fprintf(out, "%s\"%s\": %llu", k ? ", " : "", STALL_NAMES[k], (unsigned long long)p->stall[k]);
    fputc('}', out);
}

/* "line_text": the file's line, or null. */
static void json_line_text(FILE *out, SrcListing *l, uint32_t f, uint32_t line)
{
    size_t len;
    const char *s = srcview_line(l, f, line, &len);
    fputs("\"line_text\": ", out);
    if (!s) {
        fputs("null", out);
        return;
    }
    char *t = malloc(len + 1);
    if (!t) {
        fputs("null", out);
        return;
    }
    memcpy(t, s, len);
    t[len] = '\0';
    jsonstr_write(out, t);
    free(t);
}

void srcview_json(FILE *out, SrcListing *l, const SrcKernel *sk, const char *indent)
{
    const Kernel *k = sk->k;
    uint8_t *rank = malloc(k->ncode ? k->ncode : 1);
    if (rank) srcview_rank(sk, rank);
    fputs("{\"kernel\": ", out);
    jsonstr_write(out, k->name);
    fputs(", \"file\": ", out);
    jsonstr_write(out, srcview_file_name(l, 0));
    fprintf(out, ", \"warp_cycles\": %llu, \"instructions\": [", (unsigned long long)sk->st->stall_cycles);
    char dis[192];
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        fprintf(out, "%s%s{\"pc\": %u, \"line\": %u, \"asm\": ", pc ? "," : "", indent, pc, in->line);
        disasm_instr(k, in, dis, sizeof dis);
        jsonstr_write(out, dis);
        fputs(", ", out);
        json_line_text(out, l, 0, in->line);
        if (in->src_file) {
            fputs(", \"source_file\": ", out);
            jsonstr_write(out, srcview_file_name(l, in->src_file));
            fprintf(out, ", \"source_line\": %u", in->src_line);
        }
        fprintf(out, ", \"rank\": %u, ", rank ? rank[pc] : 0);
        json_counters(out, &sk->pcs[pc], sk->st->stall_cycles);
        fputc('}', out);
    }
    fputc(']', out);
    uint32_t nl;
    SrcLine *lines = source_lines(sk, &nl);
    if (lines) {
        PcCounters *sets = malloc(nl * sizeof *sets);
        uint8_t *lr = calloc(nl, 1);
        if (sets && lr) {
            for (uint32_t i = 0; i < nl; i++) sets[i] = lines[i].c;
            rank_sets(sets, nl, lr);
        }
        fputs(", \"source_lines\": [", out);
        for (uint32_t i = 0; i < nl; i++) {
            fprintf(out, "%s%s{\"source_file\": ", i ? "," : "", indent);
            jsonstr_write(out, srcview_file_name(l, lines[i].file));
            fprintf(out, ", \"source_line\": %u, ", lines[i].line);
            json_line_text(out, l, lines[i].file, lines[i].line);
            fprintf(out, ", \"rank\": %u, ", lr ? lr[i] : 0);
            json_counters(out, &lines[i].c, sk->st->stall_cycles);
            fputc('}', out);
        }
        fputc(']', out);
        free(sets);
        free(lr);
        free(lines);
    }
    fputc('}', out);
    free(rank);
}
