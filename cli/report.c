/* cli/report.c -- text, JSON and CSV reports of `gpusim run`.
** The explanations are general rules over a variant's stats (cli/explain.c,
** their thresholds in one place there); they, the table, --json and --csv all read the same
** KernelStats, derived once in the simulator (sim/derive.h); here they are
** only turned into percentages and compared between variants. Output is a pure function of the RunReport, so two
** runs of the same inputs print the same bytes (but for the host wall time). */
#include "cli/report.h"

#include "gpusim_version.h"

#include "base/hash.h"
#include "base/jsonstr.h"
#include "cli/explain.h"
#include "cli/srcview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- basics */

#define RULE_FLOPS_SHOWN   0.25  /* the table's FP32 columns: a variant's FLOP per
                                    DRAM byte at this share of the ridge point or more */

static const char *check_name(CheckState c)
{
    return c == CHECK_PASS ? "pass" : c == CHECK_FAIL ? "fail" : "none";
}

/* ---------------------------------------------------------------- text */

/* Characters (not bytes) in a UTF-8 string. */
static size_t width_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

static size_t width_of_n(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) w++;
    return w;
}

static void cell(FILE *out, const char *s, size_t width, bool left)
{
    size_t w = width_of(s);
    if (!left)
        for (size_t k = w; k < width; k++) fputc(' ', out);
    fputs(s, out);
    if (left)
        for (size_t k = w; k < width; k++) fputc(' ', out);
}

/* Prints text wrapped at `cols` from column `col` on, continuation lines
** indented by `indent`. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent, size_t cols)
{
    bool line_start = true;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\n') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ' ' && *e != '\n') e++;
        size_t wl = width_of_n(p, (size_t)(e - p));
        if (!line_start && col + 1 + wl > cols) {
            fputc('\n', out);
            for (size_t k = 0; k < indent; k++) fputc(' ', out);
            col = indent;
            line_start = true;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, (size_t)(e - p), out);
        col += wl;
        line_start = false;
        p = e;
    }
    fputc('\n', out);
}

#define REPORT_COLS 100 /* the text report's width: tables, sentences, header */
#define CELL (WL_MAX_VARIANT_NAME + 16) /* bytes of one table cell: a variant name fits */

enum { COL_VARIANT, COL_CHECK, COL_CYCLES, COL_TIME, COL_RATIO, COL_LD, COL_ST, COL_SMEM, COL_BRANCH, COL_OCC,
       COL_LIMITER, COL_WAVES, COL_DRAM, COL_BOUND, COL_GFLOPS, COL_AI, COL_ROOF, NCOLS };

/* The per-request columns say what they count: global loads and stores
** alone (atomics in neither), shared loads, stores and atomics together. */
static const char *const COL_HEAD[NCOLS] = { "variant", "check", "cycles", "time µs", "ratio", "ld sec/req", "st sec/req",
                                             "smem wf/req", "branch eff", "occupancy", "limiter", "waves",
                                             "DRAM GB/s", "bound", "GFLOP/s", "FLOP/B", "% of roof" };

/* The FP32 columns (the roofline point) explain something when a variant
** does enough arithmetic per DRAM byte to come near the ridge point. */
static bool flops_matter(const RunReport *r)
{
    for (uint32_t i = 0; i < r->nrows; i++) {
        const KernelStats *st = &r->rows[i].st;
        if (r->rows[i].ran && st->flops && st->arithmetic_intensity >= RULE_FLOPS_SHOWN * st->ridge_point)
            return true;
    }
    return false;
}

static void fill_cells(const RunReport *r, const RunRow *row, char cells[NCOLS][CELL])
{
    const KernelStats *st = &row->st;
    snprintf(cells[COL_VARIANT], CELL, "%s", row->v->name);
    snprintf(cells[COL_CHECK], CELL, "%s", row->ran ? check_name(row->check) : gpu_status_name(row->status));
    for (int k = COL_CYCLES; k < NCOLS; k++) snprintf(cells[k], CELL, "-");
    if (!row->ran) return;
    snprintf(cells[COL_CYCLES], CELL, "%llu", (unsigned long long)st->cycles);
    snprintf(cells[COL_TIME], CELL, st->time_us < 10 ? "%.2f" : "%.1f", st->time_us);
    if (row->ratio >= 0) snprintf(cells[COL_RATIO], CELL, "%.2f", row->ratio);
    const GlobalCounts *ld = &st->global[ACCESS_LOAD], *sto = &st->global[ACCESS_STORE];
    if (ld->requests) snprintf(cells[COL_LD], CELL, "%.1f", ld->sectors_per_request);
    if (sto->requests) snprintf(cells[COL_ST], CELL, "%.1f", sto->sectors_per_request);
    if (st->shared_requests) snprintf(cells[COL_SMEM], CELL, "%.1f", st->shared_wavefronts_per_request);
    snprintf(cells[COL_BRANCH], CELL, "%.0f%%", 100.0 * st->branch_efficiency);
    snprintf(cells[COL_OCC], CELL, "%.0f%%/%.0f%%", 100.0 * st->theoretical_occupancy, 100.0 * st->active_occupancy);
    snprintf(cells[COL_LIMITER], CELL, "%s",
             st->occ.limiter == OCC_SHARED_MEMORY ? "smem" : occupancy_limiter_name(st->occ.limiter));
    snprintf(cells[COL_WAVES], CELL, "%u", st->waves);
    snprintf(cells[COL_DRAM], CELL, "%.0f", st->dram_bandwidth_gbs);
    snprintf(cells[COL_BOUND], CELL, "%s", explain_bound_name(st));
    if (flops_matter(r)) {
        snprintf(cells[COL_GFLOPS], CELL, "%.0f", st->achieved_gflops);
        if (st->dram_bytes) snprintf(cells[COL_AI], CELL, "%.1f", st->arithmetic_intensity);
        if (st->roofline_gflops > 0)
            snprintf(cells[COL_ROOF], CELL, "%.0f%% %s", 100.0 * st->achieved_gflops / st->roofline_gflops,
                     st->dram_bytes && st->roofline_gflops < st->peak_gflops ? "mem" : "fp32");
    }
}

/* ---------------------------------------------------- --source, per launch */

static void launch_title(const RunRow *row, uint32_t k, char *buf, size_t cap)
{
    const WlVariant *v = row->v;
    if (v->nlaunches > 1) snprintf(buf, cap, "%s, launch %u/%u (%s)", v->name, k + 1, v->nlaunches, v->launches[k].kernel->name);
    else snprintf(buf, cap, "%s", v->name);
}

static SrcKernel launch_view(const RunRow *row, uint32_t k, char *title, size_t cap)
{
    launch_title(row, k, title, cap);
    SrcKernel sk = { row->v->launches[k].kernel, row->launch_pcs[k], &row->launch_st[k], title,
                     !row->ran && k + 1 == row->nlaunches_run };
    return sk;
}

/* The views of every launch of every row that counted per instruction
** (RunRow.launch_pcs), after the legend: `gpusim run --source`. */
static void source_text(FILE *out, const RunReport *r)
{
    bool any = false;
    for (uint32_t i = 0; i < r->nrows; i++) any |= r->rows[i].launch_pcs && r->rows[i].nlaunches_run;
    if (!any) return;
    SrcListing *l = srcview_open(&r->w->program, r->w->kernel_file);
    if (!l) {
        fputs("\n(out of host memory for the source view)\n", out);
        return;
    }
    srcview_legend(out);
    for (uint32_t i = 0; i < r->nrows; i++) {
        const RunRow *row = &r->rows[i];
        for (uint32_t k = 0; row->launch_pcs && k < row->nlaunches_run; k++) {
            char title[WL_MAX_VARIANT_NAME + ISA_MAX_NAME + 64];
            SrcKernel sk = launch_view(row, k, title, sizeof title);
            if (!srcview_text(out, l, &sk)) fputs("(out of host memory for the source view)\n", out);
        }
    }
    srcview_close(l);
}

/* A row's "source" array for --json: one srcview_json object per launch. */
static void source_json(FILE *out, const RunReport *r, const RunRow *row)
{
    SrcListing *l = srcview_open(&r->w->program, r->w->kernel_file);
    fputc('[', out);
    for (uint32_t k = 0; l && k < row->nlaunches_run; k++) {
        char title[WL_MAX_VARIANT_NAME + ISA_MAX_NAME + 64];
        SrcKernel sk = launch_view(row, k, title, sizeof title);
        fprintf(out, "%s\n      ", k ? "," : "");
        srcview_json(out, l, &sk, "\n        ");
    }
    fputc(']', out);
    srcview_close(l);
}

/* The header: workload, parameters, machine, --set changes, description. */
static void text_header(FILE *out, const RunReport *r)
{
    const Workload *w = r->w;
    const GpuConfig *c = r->c;
    char head[1024];
    size_t hl = (size_t)snprintf(head, sizeof head, "workload %s", w->name);
    for (uint32_t i = 0; i < w->nparams && hl < sizeof head; i++)
        hl += (size_t)snprintf(head + hl, sizeof head - hl, "%s%s=%lld", i ? ", " : " (", w->params[i].name,
                               (long long)w->params[i].value);
    if (hl < sizeof head)
        snprintf(head + hl, sizeof head - hl, "%s on %s: %s, %u SMs, %.0f MHz", w->nparams ? ")" : "", c->name,
                 c->description, c->sm_count, c->clock_mhz);
    wrap(out, head, 0, 2, REPORT_COLS);
    for (size_t i = 0; i < r->nsets; i++) fprintf(out, "%s--set %s", i ? " " : "machine changed: ", r->sets[i]);
    if (r->nsets) fputc('\n', out);
    wrap(out, w->description, 0, 0, REPORT_COLS);
    fputc('\n', out);
}

/* The table's cells: a row per variant (cells), a line per launch under a
** variant of several launches (sub), each column's width, whether it is
** shown, and whether it is the same in every variant that ran. */
typedef struct {
    char (*cells)[NCOLS][CELL];
    char (*sub)[NCOLS][CELL];
    size_t   width[NCOLS];
    bool     show[NCOLS], same[NCOLS];
    uint32_t first_ran;
} Table;

static bool table_fill(const RunReport *r, Table *t)
{
    memset(t, 0, sizeof *t);
    t->cells = calloc(r->nrows ? r->nrows : 1, sizeof *t->cells);
    uint32_t nsub = 0;
    for (uint32_t i = 0; i < r->nrows; i++) nsub += r->rows[i].ran && r->rows[i].v->nlaunches > 1 ? r->rows[i].v->nlaunches : 0;
    t->sub = calloc(nsub ? nsub : 1, sizeof *t->sub);
    if (!t->cells || !t->sub) return false;
    /* columns with nothing to show in any row are left out */
    for (int k = 0; k < NCOLS; k++) {
        t->width[k] = width_of(COL_HEAD[k]);
        t->show[k] = k <= COL_RATIO;
    }
    for (uint32_t i = 0, j = 0; i < r->nrows; i++) {
        const RunRow *row = &r->rows[i];
        fill_cells(r, row, t->cells[i]);
        for (int k = 0; k < NCOLS; k++) {
            if (strcmp(t->cells[i][k], "-") != 0) t->show[k] = true;
            if (width_of(t->cells[i][k]) > t->width[k]) t->width[k] = width_of(t->cells[i][k]);
        }
        for (uint32_t l = 0; row->ran && row->v->nlaunches > 1 && l < row->v->nlaunches; l++, j++) {
            RunRow one = *row;
            one.st = row->launch_st[l];
            one.ratio = -1;
            fill_cells(r, &one, t->sub[j]);
            snprintf(t->sub[j][COL_VARIANT], CELL, "  #%u %s", l + 1, row->v->launches[l].kernel->name);
            snprintf(t->sub[j][COL_CHECK], CELL, " ");
            for (int k = 0; k < NCOLS; k++)
                if (width_of(t->sub[j][k]) > t->width[k]) t->width[k] = width_of(t->sub[j][k]);
        }
    }
    /* with several variants, a metric equal in all of them explains no
    ** difference: it moves to one line under the table */
    uint32_t ran = 0;
    for (uint32_t i = r->nrows; i-- > 0;)
        if (r->rows[i].ran) {
            ran++;
            t->first_ran = i;
        }
    if (ran > 1)
        for (int k = COL_LD; k < NCOLS; k++) {
            t->same[k] = t->show[k];
            for (uint32_t i = 0; i < r->nrows && t->same[k]; i++)
                if (r->rows[i].ran) t->same[k] = strcmp(t->cells[i][k], t->cells[t->first_ran][k]) == 0;
        }
    return true;
}

/* The columns in blocks of at most REPORT_COLS characters, each block led
** by the variant column (a wide table of many metrics stays readable on a
** terminal or a projector: no line wraps), then the metrics equal in every
** variant, wrapped as the sentences are. */
static void table_print(FILE *out, const RunReport *r, const Table *t)
{
    int order[NCOLS], nvis = 0;
    for (int k = COL_VARIANT + 1; k < NCOLS; k++)
        if (t->show[k] && !t->same[k]) order[nvis++] = k;
    for (int from = 0; from < nvis || from == 0;) {
        int to = from;
        size_t used = t->width[COL_VARIANT];
        while (to < nvis && (to == from || used + 2 + t->width[order[to]] <= REPORT_COLS)) used += 2 + t->width[order[to++]];
        if (from) fputc('\n', out);
        cell(out, COL_HEAD[COL_VARIANT], t->width[COL_VARIANT], true);
        for (int q = from; q < to; q++) {
            fputs("  ", out);
            cell(out, COL_HEAD[order[q]], t->width[order[q]], order[q] <= COL_CHECK);
        }
        fputc('\n', out);
        for (uint32_t i = 0, j = 0; i < r->nrows; i++) {
            const RunRow *row = &r->rows[i];
            uint32_t nl = row->ran && row->v->nlaunches > 1 ? row->v->nlaunches : 0;
            for (uint32_t l = 0; l <= nl; l++) {
                if (l && nl == 0) break;
                char (*line)[CELL] = l == 0 ? t->cells[i] : t->sub[j++];
                cell(out, line[COL_VARIANT], t->width[COL_VARIANT], true);
                for (int q = from; q < to; q++) {
                    fputs("  ", out);
                    cell(out, line[order[q]], t->width[order[q]], order[q] <= COL_CHECK);
                }
                fputc('\n', out);
            }
        }
        if (to == from) break;
        from = to;
    }
    char same_line[NCOLS * (CELL + 32)];
    size_t sl = 0;
    bool first = true;
    for (int k = 0; k < NCOLS; k++) {
        if (!t->same[k]) continue;
        sl += (size_t)snprintf(same_line + sl, sizeof same_line - sl, "%s%s %s", first ? "same in every variant: " : ", ",
                               COL_HEAD[k], t->cells[t->first_ran][k]);
        first = false;
    }
    if (!first) wrap(out, same_line, 0, 2, REPORT_COLS);
}

/* A why-sentence's clauses ("; " between them), at most MAX_CLAUSES. */
#define MAX_CLAUSES 24
#define SENTENCE    2048
typedef struct {
    char        text[SENTENCE];
    const char *clause[MAX_CLAUSES];
    int         n;
} Clauses;

static void split_clauses(Clauses *c)
{
    c->n = 0;
    for (char *p = c->text; p && c->n < MAX_CLAUSES;) {
        c->clause[c->n++] = p;
        char *semi = strstr(p, "; ");
        if (semi) *semi = '\0';
        p = semi ? semi + 2 : NULL;
    }
}

static bool has_clause(const Clauses *c, const char *text)
{
    for (int k = 1; k < c->n; k++) /* the first, the limit that binds, is each variant's own */
        if (!strcmp(c->clause[k], text)) return true;
    return false;
}

/* Whether text is one of the clauses of f marked common. */
static bool in_common(const Clauses *f, const bool common[MAX_CLAUSES], const char *text)
{
    for (int k = 1; k < f->n; k++)
        if (common[k] && !strcmp(f->clause[k], text)) return true;
    return false;
}

/* "why:", each variant's sentence (cli/explain.h); a clause that every
** variant's sentence has (beyond the limit that binds and its "also"s) is
** said once, as "every variant:", instead of on each line; then the
** problems. */
static void text_why(FILE *out, const RunReport *r)
{
    fputs("\nwhy:\n", out);
    size_t nw = 0;
    for (uint32_t i = 0; i < r->nrows; i++)
        if (width_of(r->rows[i].v->name) > nw) nw = width_of(r->rows[i].v->name);
    Clauses *cs = calloc(r->nrows ? r->nrows : 1, sizeof *cs);
    if (!cs) return;
    uint32_t ran = 0, first = 0;
    for (uint32_t i = 0; i < r->nrows; i++) {
        explain_row(r, i, cs[i].text, sizeof cs[i].text);
        split_clauses(&cs[i]);
        if (r->rows[i].ran && !ran++) first = i;
    }
    bool common[MAX_CLAUSES] = { false };
    char shared[SENTENCE] = "";
    for (int k = 1; ran > 1 && k < cs[first].n; k++) {
        common[k] = strncmp(cs[first].clause[k], "also ", 5) != 0; /* the binding limit's own: stays with it */
        for (uint32_t i = 0; i < r->nrows && common[k]; i++)
            if (r->rows[i].ran && !has_clause(&cs[i], cs[first].clause[k])) common[k] = false;
        if (common[k])
            snprintf(shared + strlen(shared), sizeof shared - strlen(shared), "%s%s", *shared ? "; " : "",
                     cs[first].clause[k]);
    }
    for (uint32_t i = 0; i < r->nrows; i++) {
        char sentence[SENTENCE] = "";
        for (int k = 0; k < cs[i].n; k++)
            if (k == 0 || !r->rows[i].ran || !in_common(&cs[first], common, cs[i].clause[k]))
                snprintf(sentence + strlen(sentence), sizeof sentence - strlen(sentence), "%s%s", k ? "; " : "",
                         cs[i].clause[k]);
        fprintf(out, "  %s:", r->rows[i].v->name);
        for (size_t k = width_of(r->rows[i].v->name); k < nw; k++) fputc(' ', out);
        fputc(' ', out);
        wrap(out, sentence, nw + 4, nw + 4, REPORT_COLS);
    }
    if (*shared) {
        fputs("  every variant: ", out);
        wrap(out, shared, 17, 17, REPORT_COLS);
    }
    free(cs);
    bool errors = false;
    for (uint32_t i = 0; i < r->nrows; i++)
        if (r->rows[i].error) {
            if (!errors) fputs("\nproblems:\n", out);
            errors = true;
            fprintf(out, "  %s: %s\n", r->rows[i].v->name, r->rows[i].error);
        }
}

/* PTX kernels: SASS-equivalent counts, and registers that were estimated. */
static void text_ptx_notes(FILE *out, const RunReport *r)
{
    bool ptx_note = false;
    for (uint32_t i = 0; i < r->nrows; i++) {
        const WlVariant *v = r->rows[i].v;
        for (uint32_t l = 0; l < v->nlaunches; l++) {
            const WlLaunch *ln = &v->launches[l];
            if (!ln->kernel || !ln->kernel->ptx) continue;
            if (!ptx_note) fputs("\nPTX kernels (timed as the SASS they become, docs/PTX.md):\n", out);
            ptx_note = true;
            char who[sizeof v->name + sizeof ln->kernel->name + 32];
            if (v->nlaunches > 1) snprintf(who, sizeof who, "%s, launch %u (%s)", v->name, l + 1, ln->kernel->name);
            else snprintf(who, sizeof who, "%s", v->name);
            const KernelStats *st = v->nlaunches > 1 && r->rows[i].launch_st && l < r->rows[i].nlaunches_run
                                        ? &r->rows[i].launch_st[l]
                                        : &r->rows[i].st;
            fprintf(out,
                    "  %s: %llu PTX instructions, counted as %llu SASS warp instructions; registers per thread %u%s\n",
                    who, (unsigned long long)st->ptx_instructions, (unsigned long long)st->warp_instructions,
                    ln->regs ? ln->regs : kernel_regs_per_thread(ln->kernel),
                    ln->regs ? " (the variant's \"regs\")" : ln->kernel->regs_declared ? " (ptxas -v)"
                                                           : " (estimated: no ptxas, no \"regs\")");
        }
    }
}

void report_text(FILE *out, const RunReport *r)
{
    text_header(out, r);
    Table t;
    bool filled = table_fill(r, &t);
    if (filled) table_print(out, r, &t);
    free(t.cells);
    free(t.sub);
    if (!filled) return;
    text_why(out, r);
    text_ptx_notes(out, r);
    source_text(out, r); /* --source */
    fprintf(out, "\nsimulated %llu warp instructions in %.2f s (%.2f M/s)\n", (unsigned long long)r->warp_instructions,
            r->wall_seconds, r->wall_seconds > 0 ? (double)r->warp_instructions / r->wall_seconds / 1e6 : 0.0);
}

/* ---------------------------------------------------------------- JSON */



/* The stats object's fields, in the order of the issue's list: the JSON
** keys and the CSV columns both come from this one table. */
typedef enum { F_U64, F_DBL, F_STR } FieldKind;

typedef struct {
    const char *name;
    FieldKind   kind;
    uint64_t    u;
    double      d;
    const char *s;
} Field;

/* Today's keys first (kept one release as aliases of the Nsight Compute
** names that follow), then Nsight Compute's metric names in its units
** (`.pct` in percent, `.ratio` a plain ratio, `.per_second` per second),
** then gpusim's own: what ncu has no single metric for (the roofline point,
** the SMs' block launchers). workloads/README.md documents each key.
** Each row: U (a count), D (a figure) or S (a word), its key, and its value
** read from `st` and the locals of stat_fields. */
#define STAT_FIELDS(U, D, S)                                                                            \
    U("warp_instructions", st->warp_instructions)                                                       \
    D("ipc", st->ipc)                                                                                   \
    D("theoretical_occupancy", st->theoretical_occupancy)                                               \
    D("achieved_occupancy", st->achieved_occupancy)                                                     \
    S("occupancy_limiter", occupancy_limiter_name(st->occ.limiter))                                     \
    U("blocks_per_sm", st->occ.blocks_per_sm)                                                           \
    U("waves", st->waves)                                                                               \
    D("branch_efficiency", st->branch_efficiency)                                                       \
    U("gld_requests", ld->requests)                                                                     \
    U("gld_sectors", ld->sectors)                                                                       \
    U("gst_requests", sto->requests)                                                                    \
    U("gst_sectors", sto->sectors)                                                                      \
    U("lld_requests", lld->requests)                                                                    \
    U("lld_sectors", lld->sectors)                                                                      \
    U("lst_requests", lst->requests)                                                                    \
    U("lst_sectors", lst->sectors)                                                                      \
    U("shared_requests", st->shared_requests)                                                           \
    U("shared_wavefronts", st->shared_wavefronts)                                                       \
    U("shared_ideal_wavefronts", st->shared_ideal_wavefronts)                                           \
    U("shared_bank_conflicts", st->shared_bank_conflicts)                                               \
    U("shared_atomic_serial_cycles", st->shared[ACCESS_ATOMIC].serial_cycles)                           \
    U("global_atomic_serial_cycles", st->l2_atomic_wait_cycles)                                         \
    D("l2_hit_rate", st->l2_hit_rate)                                                                   \
    U("dram_bytes", st->dram_bytes)                                                                     \
    D("dram_bandwidth_gbs", st->dram_bandwidth_gbs)                                                     \
    /* Nsight Compute's names */                                                                        \
    U("smsp__inst_executed.sum", st->warp_instructions)                                                 \
    U("smsp__thread_inst_executed.sum", st->active_lanes)                                               \
    U("smsp__thread_inst_executed_pred_on.sum", st->thread_instructions)                                \
    D("smsp__thread_inst_executed_per_inst_executed.ratio", 32.0 * st->branch_efficiency)               \
    D("sm__inst_executed.avg.per_cycle_active", st->ipc)                                                \
    D("sm__maximum_warps_per_active_cycle_pct", pct(st->theoretical_occupancy))                         \
    D("sm__warps_active.avg.pct_of_peak_sustained_active", pct(st->active_occupancy))                   \
    D("launch__waves_per_multiprocessor", st->waves_per_sm)                                             \
    U("smsp__sass_inst_executed_op_branch.sum", st->branches)                                           \
    U("smsp__sass_branch_targets_threads_divergent.sum", st->divergent_branches)                        \
    U("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ld->requests)                                  \
    U("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", ld->sectors)                                    \
    D("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", ld->sectors_per_request)  \
    U("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", sto->requests)                                 \
    U("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", sto->sectors)                                   \
    D("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", sto->sectors_per_request) \
    U("l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", lld->requests)                                  \
    U("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", lld->sectors)                                    \
    U("l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", lst->requests)                                  \
    U("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", lst->sectors)                                    \
    U("smsp__inst_executed_op_shared_ld.sum", sld->requests)                                            \
    U("smsp__inst_executed_op_shared_st.sum", sst->requests)                                            \
    U("smsp__inst_executed_op_shared_atom.sum", st->shared[ACCESS_ATOMIC].requests)                     \
    U("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", st->shared_wavefronts)                          \
    U("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", sld->wavefronts)                          \
    U("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", sst->wavefronts)                          \
    U("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", st->shared_bank_conflicts)                  \
    D("l1tex__t_sector_hit_rate.pct", pct(st->l1_hit_rate))                                             \
    D("lts__t_sector_hit_rate.pct", pct(st->l2_hit_rate))                                               \
    U("dram__bytes_read.sum", st->dram_read_bytes)                                                      \
    U("dram__bytes_write.sum", st->dram_write_bytes)                                                    \
    U("dram__bytes.sum", st->dram_bytes)                                                                \
    D("dram__bytes.sum.per_second", 1e9 * st->dram_bandwidth_gbs)                                       \
    /* each unit's share of its peak, and the one that binds (cli/explain.c) */                        \
    D(LIMIT_NCU[LIMIT_DRAM], pct(st->throughput[LIMIT_DRAM]))                                           \
    D(LIMIT_NCU[LIMIT_L2], pct(st->throughput[LIMIT_L2]))                                               \
    D(LIMIT_NCU[LIMIT_L1], pct(st->throughput[LIMIT_L1]))                                               \
    D(LIMIT_NCU[LIMIT_SHARED], pct(st->throughput[LIMIT_SHARED]))                                       \
    D(LIMIT_NCU[LIMIT_ISSUE], pct(st->throughput[LIMIT_ISSUE]))                                         \
    D(LIMIT_NCU[LIMIT_FMA], pct(st->throughput[LIMIT_FMA]))                                             \
    D(LIMIT_NCU[LIMIT_ALU], pct(st->throughput[LIMIT_ALU]))                                             \
    D(LIMIT_NCU[LIMIT_XU], pct(st->throughput[LIMIT_XU]))                                               \
    D(LIMIT_NCU[LIMIT_FP64], pct(st->throughput[LIMIT_FP64]))                                           \
    S("bound", explain_bound_name(st))                                                                  \
    /* gpusim's own: the roofline point (FP32, the one precision the                                    \
    ** mini ISA computes in), the SMs' block launchers */                                               \
    U("fp32_flop", st->flops)                                                                           \
    D("fp32_flop_per_second", 1e9 * st->achieved_gflops)                                                \
    D("fp32_peak_flop_per_second", 1e9 * st->peak_gflops)                                               \
    D("arithmetic_intensity", st->arithmetic_intensity)                                                 \
    S("roofline_bound", st->dram_bytes && st->roofline_gflops < st->peak_gflops ? "memory" : "compute") \
    D("roofline_bound_flop_per_second", 1e9 * st->roofline_gflops)                                      \
    D("roofline_pct", pct(of_bound))                                                                    \
    U("launch_queue_cycles", st->launch_queue_cycles)                                                   \
    U("launch_wait_warp_cycles", st->launch_wait_warp_cycles)

#define FIELD_ONE(name, value) +1
enum { NSTAT_FIELDS = 0 STAT_FIELDS(FIELD_ONE, FIELD_ONE, FIELD_ONE) };

#define NCU_STALL_PREFIX "smsp__pcsamp_warps_issue_stalled_"

static double pct(double share) { return 100.0 * share; }

static void stat_fields(const KernelStats *st, Field f[NSTAT_FIELDS])
{
    const GlobalCounts *ld = &st->global[ACCESS_LOAD], *sto = &st->global[ACCESS_STORE];
    const GlobalCounts *lld = &st->local[ACCESS_LOAD], *lst = &st->local[ACCESS_STORE];
    const SharedCounts *sld = &st->shared[ACCESS_LOAD], *sst = &st->shared[ACCESS_STORE];
    double of_bound = st->roofline_gflops > 0 ? st->achieved_gflops / st->roofline_gflops : 0;
#define FIELD_U64(name, value) { name, F_U64, value, 0, NULL },
#define FIELD_DBL(name, value) { name, F_DBL, 0, value, NULL },
#define FIELD_STR(name, value) { name, F_STR, 0, 0, value },
    Field t[NSTAT_FIELDS] = { STAT_FIELDS(FIELD_U64, FIELD_DBL, FIELD_STR) };
    memcpy(f, t, sizeof t);
}

bool report_metric(const KernelStats *st, const char *name, double *out)
{
    if (strcmp(name, "cycles") == 0) return *out = (double)st->cycles, true;
    if (strcmp(name, "time_us") == 0) return *out = st->time_us, true;
    if (strncmp(name, NCU_STALL_PREFIX, strlen(NCU_STALL_PREFIX)) == 0)
        for (int k = 0; k < STALL_REASONS; k++)
            if (strcmp(name + strlen(NCU_STALL_PREFIX), STALL_NAMES[k]) == 0) return *out = (double)st->stall[k], true;
    Field f[NSTAT_FIELDS];
    stat_fields(st, f);
    for (int k = 0; k < NSTAT_FIELDS; k++)
        if (strcmp(f[k].name, name) == 0) {
            if (f[k].kind == F_STR) return false;
            *out = f[k].kind == F_U64 ? (double)f[k].u : f[k].d;
            return true;
        }
    return false;
}

static void field_value(FILE *out, const Field *f, bool json)
{
    if (f->kind == F_U64) fprintf(out, "%llu", (unsigned long long)f->u);
    else if (f->kind == F_DBL) jsonstr_number(out, f->d);
    else if (json) jsonstr_write(out, f->s);
    else fputs(f->s, out);
}

/* {"warp_instructions": ..., "stall_reasons": {...}}; `indent` goes
** before "stall_reasons". */
static void json_stats(FILE *out, const KernelStats *st, const char *indent)
{
    fputc('{', out);
    Field f[NSTAT_FIELDS];
    stat_fields(st, f);
    for (int k = 0; k < NSTAT_FIELDS; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", f[k].name);
        field_value(out, &f[k], true);
    }
    /* the stall reasons as ncu's PC sampling counts them, with every cycle
    ** of every launched warp sampled: warp-cycles */
    for (int k = 0; k < STALL_REASONS; k++)
        fprintf(out, ", \"%s%s\": %llu", NCU_STALL_PREFIX, STALL_NAMES[k], (unsigned long long)st->stall[k]);
    fprintf(out, ",%s\"stall_reasons\": {", indent);
    for (int k = 0; k < STALL_REASONS; k++) {
        fprintf(out, "%s\"%s\": ", k ? ", " : "", STALL_NAMES[k]);
        jsonstr_number(out, st->stall_share[k]);
    }
    fputs("}}", out);
}

void report_json_stats(FILE *out, const KernelStats *st, bool one_line)
{
    json_stats(out, st, one_line ? " " : "\n       ");
}

uint64_t report_config_hash(const GpuConfig *c)
{
    char *cfg = config_to_json(c);
    uint64_t h = cfg ? hash_fnv64(HASH_SWEEP_OFFSET, cfg, strlen(cfg)) : HASH_SWEEP_OFFSET;
    free(cfg);
    return h;
}

void report_json(FILE *out, const RunReport *r)
{
    fputs("{\n  \"workload\": ", out);
    jsonstr_write(out, r->w->name);
    fputs(",\n  \"gpu\": ", out);
    jsonstr_write(out, r->c->name);
    /* Enough to reproduce the run from the command line alone: the version,
    ** the machine (a hash of its full JSON: `gpusim gpus NAME --set ...`),
    ** the workload's parameters and its buffers' random seeds. */
    fputs(",\n  \"gpusim_version\": ", out);
    jsonstr_write(out, GPUSIM_VERSION);
    fprintf(out, ",\n  \"config_fnv1a\": \"%016llx\",\n  \"params\": {", (unsigned long long)report_config_hash(r->c));
    for (uint32_t i = 0; i < r->w->nparams; i++)
        fprintf(out, "%s\"%s\": %lld", i ? ", " : "", r->w->params[i].name, (long long)r->w->params[i].value);
    fputs("},\n  \"seeds\": {", out);
    bool first = true;
    for (uint32_t i = 0; i < r->w->nbuffers; i++)
        if (r->w->buffers[i].init.kind == WL_INIT_RANDOM) {
            fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", r->w->buffers[i].name,
                    (unsigned long long)r->w->buffers[i].init.seed);
            first = false;
        }
    fprintf(out, "},\n  \"sim\": {\"wall_seconds\": ");
    jsonstr_number(out, r->wall_seconds);
    fprintf(out, ", \"warp_instructions\": %llu, \"warp_insts_per_sec\": ", (unsigned long long)r->warp_instructions);
    jsonstr_number(out, r->wall_seconds > 0 ? (double)r->warp_instructions / r->wall_seconds : 0.0);
    fputs("},\n  \"variants\": [", out);
    for (uint32_t i = 0; i < r->nrows; i++) {
        const RunRow *row = &r->rows[i];
        const KernelStats *st = &row->st;
        fputs(i ? ",\n    {" : "\n    {", out);
        fputs("\"name\": ", out);
        jsonstr_write(out, row->v->name);
        fputs(", \"check\": ", out);
        jsonstr_write(out, check_name(row->check));
        if (row->error) {
            fputs(", \"error\": ", out);
            jsonstr_write(out, row->error);
        }
        if (!row->ran) {
            fputs(", \"status\": ", out);
            jsonstr_write(out, gpu_status_name(row->status));
            fputs(", \"cycles\": null, \"time_us\": null, \"ratio\": null, \"stats\": null}", out);
            continue;
        }
        fprintf(out, ", \"cycles\": %llu, \"time_us\": ", (unsigned long long)st->cycles);
        jsonstr_number(out, st->time_us);
        fputs(", \"ratio\": ", out);
        if (row->ratio >= 0) jsonstr_number(out, row->ratio);
        else fputs("null", out);
        fputs(",\n     \"stats\": ", out);
        json_stats(out, st, "\n       ");
        if (row->v->nlaunches > 1) {
            /* each launch's own figures; the ones above are their sum */
            fputs(",\n     \"launches\": [", out);
            for (uint32_t k = 0; k < row->v->nlaunches; k++) {
                const KernelStats *ls = &row->launch_st[k];
                fputs(k ? ",\n      {\"kernel\": " : "\n      {\"kernel\": ", out);
                jsonstr_write(out, row->v->launches[k].kernel->name);
                fprintf(out, ", \"cycles\": %llu, \"time_us\": ", (unsigned long long)ls->cycles);
                jsonstr_number(out, ls->time_us);
                fputs(",\n       \"stats\": ", out);
                json_stats(out, ls, "\n        ");
                fputc('}', out);
            }
            fputs("]", out);
        }
        if (row->launch_pcs) { /* --source */
            fputs(",\n     \"source\": ", out);
            source_json(out, r, row);
        }
        fputs("}", out);
    }
    fputs("\n  ]\n}\n", out);
}

/* ---------------------------------------------------------------- CSV */

static void csv_string(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void report_csv(FILE *out, const RunReport *r)
{
    Field f[NSTAT_FIELDS];
    KernelStats zero;
    memset(&zero, 0, sizeof zero);
    stat_fields(&zero, f);
    fputs("workload,gpu,variant,check,status,cycles,time_us,ratio", out);
    for (int k = 0; k < NSTAT_FIELDS; k++) fprintf(out, ",%s", f[k].name);
    for (int k = 0; k < STALL_REASONS; k++) fprintf(out, ",%s%s", NCU_STALL_PREFIX, STALL_NAMES[k]);
    for (int k = 0; k < STALL_REASONS; k++) fprintf(out, ",stall_%s", STALL_NAMES[k]);
    fputs(",error\n", out);
    for (uint32_t i = 0; i < r->nrows; i++) {
        const RunRow *row = &r->rows[i];
        const KernelStats *st = &row->st;
        csv_string(out, r->w->name);
        fputc(',', out);
        csv_string(out, r->c->name);
        fputc(',', out);
        csv_string(out, row->v->name);
        fprintf(out, ",%s,%s", check_name(row->check), gpu_status_name(row->status));
        if (row->ran) {
            fprintf(out, ",%llu,", (unsigned long long)st->cycles);
            jsonstr_number(out, st->time_us);
            fputc(',', out);
            if (row->ratio >= 0) jsonstr_number(out, row->ratio);
            stat_fields(st, f);
            for (int k = 0; k < NSTAT_FIELDS; k++) {
                fputc(',', out);
                field_value(out, &f[k], false);
            }
            for (int k = 0; k < STALL_REASONS; k++) fprintf(out, ",%llu", (unsigned long long)st->stall[k]);
            for (int k = 0; k < STALL_REASONS; k++) {
                fputc(',', out);
                jsonstr_number(out, st->stall_share[k]);
            }
        } else {
            for (int k = 0; k < 3 + NSTAT_FIELDS + 2 * STALL_REASONS; k++) fputc(',', out);
        }
        fputc(',', out);
        if (row->error) csv_string(out, row->error);
        fputc('\n', out);
    }
}

/* ---------------------------------------------------------------- pieces */

void report_csv_field(FILE *out, const char *s) { csv_string(out, s); }
const char *report_check_name(CheckState c) { return check_name(c); }
size_t report_stat_count(void) { return NSTAT_FIELDS; }

const char *report_stat_name(size_t i)
{
    if (i >= NSTAT_FIELDS) return NULL;
    KernelStats zero;
    memset(&zero, 0, sizeof zero);
    Field f[NSTAT_FIELDS];
    stat_fields(&zero, f);
    return f[i].name; /* static strings */
}
