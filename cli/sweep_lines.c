/* cli/sweep_lines.c -- reading a sweep's JSON lines back, checking shards
** before a merge, and the CSV form of a line (see sweep_lines.h). Lines are
** parsed with cJSON (case-sensitive getters, length-bounded parse); a file
** is read one line at a time, so only the identities of its lines stay in
** memory, never their text.                                              */
#include "cli/sweep_lines.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli/report.h"
#include "cli/sweep_spec.h"
#include "sim/stats.h"

/* ------------------------------------------------------------ reading */

static bool get_u64(const cJSON *o, const char *key, uint64_t *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble != floor(it->valuedouble) ||
        it->valuedouble >= 0x1p53)
        return false;
    *out = (uint64_t)it->valuedouble;
    return true;
}

bool sweep_line_ident(const cJSON *line, SweepLine *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(line)) {
        snprintf(why, cap, "not a JSON object");
        return false;
    }
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(line, "spec");
    if (!cJSON_IsString(spec) || strlen(spec->valuestring) != 16 ||
        strspn(spec->valuestring, "0123456789abcdef") != 16) {
        snprintf(why, cap, "no \"spec\" hash (16 hex digits): not a line of gpusim sweep");
        return false;
    }
    memcpy(out->spec, spec->valuestring, 17);
    uint64_t vi = 0, nv = 0;
    if (!get_u64(line, "point", &out->point) || !get_u64(line, "points", &out->points) ||
        !get_u64(line, "variant_index", &vi) || !get_u64(line, "variants", &nv) || out->point >= out->points ||
        out->points > SWEEP_MAX_POINTS || vi >= nv || nv > UINT32_MAX) {
        snprintf(why, cap, "\"point\", \"points\", \"variant_index\" or \"variants\" missing or out of range");
        return false;
    }
    out->variant = (uint32_t)vi;
    out->variants = (uint32_t)nv;
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(line, "status");
    out->ran = cJSON_IsString(status) && strcmp(status->valuestring, "ok") == 0 && get_u64(line, "cycles", &out->cycles);
    return true;
}

static bool push_line(SweepFile *f, size_t *cap, const SweepLine *l)
{
    if (f->n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        SweepLine *v = realloc(f->lines, c * sizeof *v);
        if (!v) return false;
        f->lines = v;
        *cap = c;
    }
    f->lines[f->n++] = *l;
    return true;
}

/* getline, but a line is read to at most SWEEP_MAX_LINE + 1 bytes: a longer
** one comes back at that length, without its end. */
static ssize_t read_line(char **buf, size_t *cap, FILE *in)
{
    size_t n = 0;
    int c;
    while (n <= SWEEP_MAX_LINE && (c = getc(in)) != EOF) {
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 4096;
            char *nb = realloc(*buf, nc);
            if (!nb) return -1;
            *buf = nb;
            *cap = nc;
        }
        (*buf)[n++] = (char)c;
        if (c == '\n') break;
    }
    if (n) (*buf)[n] = '\0';
    return n ? (ssize_t)n : -1;
}

bool sweep_file_read(const char *path, bool missing_ok, SweepFile *f, SweepLineFn each, void *user, Diag *d)
{
    memset(f, 0, sizeof *f);
    FILE *in = fopen(path, "rb");
    if (!in) {
        if (missing_ok && errno == ENOENT) return true;
        diag_set(d, path, 0, 0, "cannot open: %s", strerror(errno));
        return false;
    }
    /* Shards are read twice (checked, then merged) and --out is read back
    ** before it is appended to: a pipe or a device cannot be, and one such as
    ** /dev/zero never ends a line. */
    struct stat sb;
    if (fstat(fileno(in), &sb) == 0 && !S_ISREG(sb.st_mode)) {
        diag_set(d, path, 0, 0, "not a regular file: a sweep's lines are read back from it (shards to merge them, "
                 "--out to resume)");
        fclose(in);
        return false;
    }
    char *buf = NULL;
    size_t bufcap = 0, cap = 0;
    uint64_t offset = 0;
    uint32_t lineno = 0;
    bool ok = true;
    ssize_t len;
    while (ok && (len = read_line(&buf, &bufcap, in)) > 0) {
        lineno++;
        if (len > SWEEP_MAX_LINE) {
            diag_set(d, path, lineno, 0, "a line longer than %d bytes: not a line of gpusim sweep", SWEEP_MAX_LINE);
            ok = false;
            break;
        }
        if (buf[len - 1] != '\n') { /* the last line, cut short */
            f->torn = true;
            break;
        }
        const char *end = NULL;
        cJSON *obj = cJSON_ParseWithLengthOpts(buf, (size_t)len, &end, 0);
        SweepLine l;
        char why[256];
        if (!obj) {
            diag_set(d, path, lineno, 0, "not a JSON object (a line of gpusim sweep is one)");
            ok = false;
        } else if (!sweep_line_ident(obj, &l, why, sizeof why)) {
            diag_set(d, path, lineno, 0, "%s", why);
            ok = false;
        } else {
            l.offset = offset;
            l.length = (uint32_t)len;
            if (!push_line(f, &cap, &l)) {
                diag_set(d, path, lineno, 0, "out of memory");
                ok = false;
            } else if (each) {
                each(user, obj);
            }
        }
        cJSON_Delete(obj);
        offset += (uint64_t)len;
    }
    if (ok && ferror(in)) {
        diag_set(d, path, lineno, 0, "read error: %s", strerror(errno));
        ok = false;
    }
    f->whole_bytes = offset;
    free(buf);
    fclose(in);
    if (!ok) sweep_file_free(f);
    return ok;
}

void sweep_file_free(SweepFile *f)
{
    free(f->lines);
    memset(f, 0, sizeof *f);
}

/* ------------------------------------------------------------ merging */

typedef struct {
    uint64_t run; /* point x variants + variant */
    SweepRef ref;
} Keyed;

/* by run, then by file and line: of two copies of a run, the later is named */
static int keyed_cmp(const void *a, const void *b)
{
    const Keyed *x = a, *y = b;
    if (x->run != y->run) return x->run < y->run ? -1 : 1;
    if (x->ref.file != y->ref.file) return x->ref.file < y->ref.file ? -1 : 1;
    return x->ref.line < y->ref.line ? -1 : x->ref.line > y->ref.line;
}

bool sweep_merge_order(const SweepFile *files, const char *const *names, size_t nfiles, SweepRef **order,
                       uint64_t *nruns, Diag *d)
{
    const SweepLine *first = NULL;
    size_t first_file = 0;
    for (size_t i = 0; i < nfiles; i++) {
        if (files[i].torn) {
            diag_set(d, names[i], (uint32_t)files[i].n + 1, 0,
                     "the last line is cut short (a shard killed while writing it): run that shard again with "
                     "the same command and --out to finish it");
            return false;
        }
        if (!first && files[i].n) {
            first = &files[i].lines[0];
            first_file = i;
        }
    }
    if (!first) {
        diag_set(d, "--merge", 0, 0, "no runs in the %zu file%s: nothing to merge", nfiles, nfiles == 1 ? "" : "s");
        return false;
    }
    for (size_t i = 0; i < nfiles; i++)
        for (size_t k = 0; k < files[i].n; k++) {
            const SweepLine *l = &files[i].lines[k];
            if (strcmp(l->spec, first->spec) != 0) {
                diag_set(d, names[i], (uint32_t)k + 1, 0,
                         "a run of another sweep (spec %s; %s is of spec %s): shards merge only with shards of "
                         "the same command",
                         l->spec, names[first_file], first->spec);
                return false;
            }
            if (l->points != first->points || l->variants != first->variants) {
                diag_set(d, names[i], (uint32_t)k + 1, 0,
                         "%llu points x %u variants, where %s has %llu x %u (the same spec hash: a damaged file?)",
                         (unsigned long long)l->points, l->variants, names[first_file],
                         (unsigned long long)first->points, first->variants);
                return false;
            }
        }
    /* sorted by run, the lines of a complete merge are the sweep's runs in
    ** order; memory follows the lines given, never the count a line claims */
    uint64_t n = first->points * first->variants; /* <= 10^6 x 2^32: no overflow */
    size_t total = 0;
    for (size_t i = 0; i < nfiles; i++) total += files[i].n;
    Keyed *k = malloc(total * sizeof *k);
    SweepRef *o = malloc(total * sizeof *o);
    if (!k || !o) {
        free(k);
        free(o);
        diag_set(d, "--merge", 0, 0, "out of memory for %zu runs", total);
        return false;
    }
    size_t m = 0;
    for (size_t i = 0; i < nfiles; i++)
        for (size_t j = 0; j < files[i].n; j++, m++)
            k[m] = (Keyed){ files[i].lines[j].point * first->variants + files[i].lines[j].variant, { (uint32_t)i, j } };
    qsort(k, total, sizeof *k, keyed_cmp);
    for (size_t j = 1; j < total; j++)
        if (k[j].run == k[j - 1].run) {
            const SweepLine *l = &files[k[j].ref.file].lines[k[j].ref.line];
            diag_set(d, names[k[j].ref.file], (uint32_t)k[j].ref.line + 1, 0,
                     "point %llu, variant %u is there twice (also %s:%zu)", (unsigned long long)l->point, l->variant,
                     names[k[j - 1].ref.file], k[j - 1].ref.line + 1);
            free(k);
            free(o);
            return false;
        }
    if (total < n) {
        uint64_t first_missing = 0;
        while (first_missing < total && k[first_missing].run == first_missing) first_missing++;
        diag_set(d, "--merge", 0, 0,
                 "%llu of %llu runs are missing, the first point %llu, variant %llu: a shard not given, or "
                 "not finished (run it again with the same command and --out)",
                 (unsigned long long)(n - total), (unsigned long long)n,
                 (unsigned long long)(first_missing / first->variants),
                 (unsigned long long)(first_missing % first->variants));
        free(k);
        free(o);
        return false;
    }
    for (size_t j = 0; j < total; j++) o[j] = k[j].ref; /* distinct runs below n, as many as n: all of them */
    free(k);
    *order = o;
    *nruns = n;
    return true;
}

/* ------------------------------------------------------------ CSV */

void sweep_number_text(double v, char *buf, size_t cap)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    if (v == floor(v) && fabs(v) < 0x1p53) {
        snprintf(buf, cap, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static char **keys_of(const cJSON *obj, size_t *n)
{
    *n = (size_t)cJSON_GetArraySize(obj);
    char **keys = calloc(*n ? *n : 1, sizeof *keys);
    if (!keys) return NULL;
    size_t i = 0;
    for (const cJSON *it = obj ? obj->child : NULL; it && i < *n; it = it->next) keys[i++] = strdup(it->string);
    return keys;
}

bool sweep_csv_columns_of(const cJSON *line, SweepCsvColumns *cols)
{
    memset(cols, 0, sizeof *cols);
    cols->set_keys = keys_of(cJSON_GetObjectItemCaseSensitive(line, "set"), &cols->nset);
    cols->param_keys = keys_of(cJSON_GetObjectItemCaseSensitive(line, "param"), &cols->nparam);
    bool ok = cols->set_keys && cols->param_keys;
    for (size_t i = 0; ok && i < cols->nset; i++) ok = cols->set_keys[i] != NULL;
    for (size_t i = 0; ok && i < cols->nparam; i++) ok = cols->param_keys[i] != NULL;
    if (!ok) sweep_csv_columns_free(cols);
    return ok;
}

void sweep_csv_columns_free(SweepCsvColumns *cols)
{
    for (size_t i = 0; cols->set_keys && i < cols->nset; i++) free(cols->set_keys[i]);
    for (size_t i = 0; cols->param_keys && i < cols->nparam; i++) free(cols->param_keys[i]);
    free(cols->set_keys);
    free(cols->param_keys);
    memset(cols, 0, sizeof *cols);
}

static const char *const CSV_HEAD[] = { "spec", "point", "variant", "workload", "gpu", "config_fnv1a" };
static const char *const CSV_OUTCOME[] = { "check", "status", "cycles", "time_us", "ratio" };
#define NHEAD (sizeof CSV_HEAD / sizeof CSV_HEAD[0])
#define NOUTCOME (sizeof CSV_OUTCOME / sizeof CSV_OUTCOME[0])

void sweep_csv_header(FILE *out, const SweepCsvColumns *cols)
{
    for (size_t i = 0; i < NHEAD; i++) fprintf(out, "%s%s", i ? "," : "", CSV_HEAD[i]);
    for (size_t i = 0; i < cols->nset; i++) {
        fputc(',', out);
        report_csv_field(out, cols->set_keys[i]);
    }
    for (size_t i = 0; i < cols->nparam; i++) {
        fputc(',', out);
        report_csv_field(out, cols->param_keys[i]);
    }
    for (size_t i = 0; i < NOUTCOME; i++) fprintf(out, ",%s", CSV_OUTCOME[i]);
    for (size_t i = 0; i < report_stat_count(); i++) fprintf(out, ",%s", report_stat_name(i));
    for (int k = 0; k < STALL_REASONS; k++) fprintf(out, ",stall_%s", STALL_NAMES[k]);
    fputs(",error\n", out);
}

/* One cell: a string as a CSV field, a number as sweep_number_text, null
** or a missing value as nothing. */
static void cell(FILE *out, const cJSON *it)
{
    fputc(',', out);
    if (cJSON_IsString(it)) {
        report_csv_field(out, it->valuestring);
    } else if (cJSON_IsNumber(it)) {
        char buf[64];
        sweep_number_text(it->valuedouble, buf, sizeof buf);
        fputs(buf, out);
    } else if (cJSON_IsBool(it)) {
        fputs(cJSON_IsTrue(it) ? "true" : "false", out);
    }
}

void sweep_csv_row(FILE *out, const cJSON *line, const SweepCsvColumns *cols)
{
    for (size_t i = 0; i < NHEAD; i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(line, CSV_HEAD[i]);
        if (i > 0) cell(out, it);
        else if (cJSON_IsString(it)) report_csv_field(out, it->valuestring); /* no comma before the first */
    }
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(line, "set");
    const cJSON *param = cJSON_GetObjectItemCaseSensitive(line, "param");
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(line, "params");
    for (size_t i = 0; i < cols->nset; i++) cell(out, cJSON_GetObjectItemCaseSensitive(set, cols->set_keys[i]));
    for (size_t i = 0; i < cols->nparam; i++) { /* the value the workload ran with (8*sm_count evaluated) */
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(final, cols->param_keys[i]);
        cell(out, v ? v : cJSON_GetObjectItemCaseSensitive(param, cols->param_keys[i]));
    }
    for (size_t i = 0; i < NOUTCOME; i++) cell(out, cJSON_GetObjectItemCaseSensitive(line, CSV_OUTCOME[i]));
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(line, "stats");
    for (size_t i = 0; i < report_stat_count(); i++)
        cell(out, cJSON_GetObjectItemCaseSensitive(stats, report_stat_name(i)));
    const cJSON *stalls = cJSON_GetObjectItemCaseSensitive(stats, "stall_reasons");
    for (int k = 0; k < STALL_REASONS; k++) cell(out, cJSON_GetObjectItemCaseSensitive(stalls, STALL_NAMES[k]));
    cell(out, cJSON_GetObjectItemCaseSensitive(line, "error"));
    fputc('\n', out);
}
