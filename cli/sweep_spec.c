/* cli/sweep_spec.c -- value lists, axes, point order, shards and the spec
** hash of a sweep (see sweep_spec.h). Numbers in value lists are read
** here, not by the knobs or the workload loader: a list item that is a
** number becomes its canonical decimal text, which both of those take;
** anything else (an expression, a policy name) is passed on as written and
** judged where it is used.                                               */
#include "cli/sweep_spec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "cli/cli.h"

/* ------------------------------------------------------------ numbers */

typedef struct {
    bool    integer; /* exact in i; else d */
    int64_t i;
    double  d;
} Num;

static double num_value(const Num *n) { return n->integer ? (double)n->i : n->d; }

/* Integers beyond 2^62 stay out of ranges, so a difference never overflows. */
#define INT_LIMIT 0x4000000000000000ll

/* Digits only, as an int64 (no sign). */
static bool digits_i64(const char *s, size_t len, int64_t *out)
{
    if (len == 0 || len > 19) return false;
    int64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9') return false;
        int d = s[k] - '0';
        if (v > (INT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* A number as sweep_values_parse reads them: [-+]digits, B^E, or a
** decimal / exponent form (integral values of those count as integers). */
static bool parse_num(const char *s, Num *out)
{
    size_t len = strlen(s);
    const char *caret = strchr(s, '^');
    if (caret) { /* B^E: both digits, exact */
        int64_t b, e;
        if (!digits_i64(s, (size_t)(caret - s), &b) || !digits_i64(caret + 1, strlen(caret + 1), &e)) return false;
        int64_t v = 1;
        if (b <= 1) { /* 0^E and 1^E need no loop (E may be 10^18) */
            v = b == 0 && e > 0 ? 0 : 1;
            *out = (Num){ true, v, (double)v };
            return true;
        }
        for (int64_t k = 0; k < e; k++) { /* b >= 2: at most 62 steps before it overflows */
            if (b != 0 && v > INT64_MAX / b) return false;
            v *= b;
        }
        *out = (Num){ true, v, (double)v };
        return true;
    }
    size_t sign = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    int64_t v;
    if (digits_i64(s + sign, len - sign, &v)) {
        *out = (Num){ true, s[0] == '-' ? -v : v, 0 };
        out->d = (double)out->i;
        return true;
    }
    double d;
    if (!cli_number_double(s, &d)) return false;
    if (d == floor(d) && fabs(d) < 0x1p53) *out = (Num){ true, (int64_t)d, d };
    else *out = (Num){ false, 0, d };
    return true;
}

/* The canonical text of a number: integers in decimal, others as the
** shortest form (at most 15 significant digits, so that START + k*STEP
** reads as a person would write it) that reads back as the same value. */
static char *num_text(const Num *n)
{
    char buf[64];
    if (n->integer) {
        snprintf(buf, sizeof buf, "%lld", (long long)n->i);
    } else {
        double v = strtod((snprintf(buf, sizeof buf, "%.15g", n->d), buf), NULL);
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, v);
            if (strtod(buf, NULL) == v) break;
        }
    }
    return strdup(buf);
}

/* ------------------------------------------------------------ value lists */

typedef struct {
    char   **v;
    uint32_t n, cap;
    bool     oom;
} List;

static void list_push(List *l, char *s)
{
    if (!s) {
        l->oom = true;
        return;
    }
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            free(s);
            l->oom = true;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
}

static void list_free(List *l)
{
    for (uint32_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

__attribute__((format(printf, 3, 4))) static bool refuse(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return false;
}

/* Expands one range item (it holds a ':') onto l. */
static bool expand_range(const char *item, List *l, char *why, size_t cap)
{
    char buf[256];
    if (strlen(item) >= sizeof buf) return refuse(why, cap, "range '%.40s...' is too long", item);
    strcpy(buf, item);
    char *part[3] = { buf, NULL, NULL };
    int nparts = 1;
    for (char *p = buf; *p; p++)
        if (*p == ':') {
            if (nparts == 3) return refuse(why, cap, "range '%s' has more than three parts (START:STOP:STEP)", item);
            *p = '\0';
            part[nparts++] = p + 1;
        }
    bool geometric = nparts == 3 && part[2][0] == '*';
    Num a, b, step = { true, 1, 1.0 };
    if (!parse_num(part[0], &a) || !parse_num(part[1], &b) ||
        (nparts == 3 && !parse_num(part[2] + (geometric ? 1 : 0), &step)))
        return refuse(why, cap, "range '%s': START, STOP and STEP must be numbers (STEP may be *F)", item);
    double lo = num_value(&a), hi = num_value(&b), st = num_value(&step);
    if (geometric) {
        if (!(st > 1)) return refuse(why, cap, "range '%s': the factor of a geometric range must be more than 1", item);
        if (!(lo > 0) || hi < lo)
            return refuse(why, cap, "range '%s': a geometric range goes up from a START above 0", item);
        double count = floor(log(hi / lo) / log(st) + 1e-9) + 1;
        if (count > SWEEP_MAX_POINTS)
            return refuse(why, cap, "range '%s' has %.0f values, more than 10^6", item, count);
        if (a.integer && step.integer) { /* exact: START * F^k */
            for (int64_t v = a.i; v <= b.i; v *= step.i) {
                Num n = { true, v, (double)v };
                list_push(l, num_text(&n));
                if (v > b.i / step.i) break;
            }
        } else {
            for (uint32_t k = 0; k < (uint32_t)count; k++) {
                Num n = { false, 0, lo * pow(st, k) };
                if (n.d == floor(n.d) && fabs(n.d) < 0x1p53) n = (Num){ true, (int64_t)n.d, n.d };
                list_push(l, num_text(&n));
            }
        }
        return true;
    }
    if (st == 0) return refuse(why, cap, "range '%s' has step 0", item);
    if ((hi - lo) * st < 0) return refuse(why, cap, "range '%s' never reaches %s: the step goes the other way", item, part[1]);
    double count = floor((hi - lo) / st + 1e-9) + 1;
    if (count > SWEEP_MAX_POINTS) return refuse(why, cap, "range '%s' has %.0f values, more than 10^6", item, count);
    if (a.integer && b.integer && step.integer) {
        if (llabs(a.i) >= INT_LIMIT || llabs(b.i) >= INT_LIMIT || llabs(step.i) >= INT_LIMIT)
            return refuse(why, cap, "range '%s': integer ends and steps stay within 2^62", item);
        uint64_t exact = (uint64_t)((b.i - a.i) / step.i) + 1;
        for (uint64_t k = 0; k < exact; k++) {
            Num n = { true, a.i + (int64_t)k * step.i, 0 };
            list_push(l, num_text(&n));
        }
    } else {
        for (uint32_t k = 0; k < (uint32_t)count; k++) {
            Num n = { false, 0, lo + (double)k * st };
            if (fabs(n.d) < 1e-12 * fabs(st)) n.d = 0; /* -0.1:0.1:0.1 passes through 0, not 1e-17 */
            if (n.d == floor(n.d) && fabs(n.d) < 0x1p53) n = (Num){ true, (int64_t)n.d, n.d };
            list_push(l, num_text(&n));
        }
    }
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool sweep_values_parse(const char *list, bool ranges, char ***values, uint32_t *n, char *why, size_t cap)
{
    List l = { 0 };
    if (!list || !*list) return refuse(why, cap, "no values (expected V1,V2,... or START:STOP:STEP)");
    const char *p = list;
    for (;;) {
        /* the next item: up to a comma outside parentheses */
        const char *e = p;
        int depth = 0;
        while (*e && !(*e == ',' && depth == 0)) {
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
            e++;
        }
        size_t len = (size_t)(e - p);
        if (len == 0) {
            list_free(&l);
            return refuse(why, cap, "empty value in '%s'", list);
        }
        char *item = strndup(p, len);
        if (!item) {
            list_free(&l);
            return refuse(why, cap, "out of memory");
        }
        Num num;
        bool ok = true;
        if (ranges && strchr(item, ':')) {
            ok = expand_range(item, &l, why, cap);
        } else if (ranges && parse_num(item, &num)) {
            list_push(&l, num_text(&num));
        } else if (ranges && strchr(item, '^')) {
            ok = refuse(why, cap, "'%s': B^E is a whole value of two integers (2^20)", item);
        } else {
            list_push(&l, strdup(item));
        }
        free(item);
        if (ok && l.n > SWEEP_MAX_POINTS) ok = refuse(why, cap, "'%s' has %u values, more than 10^6", list, l.n);
        if (ok && l.oom) ok = refuse(why, cap, "out of memory");
        if (!ok) {
            list_free(&l);
            return false;
        }
        if (!*e) break;
        p = e + 1;
    }
    if (l.n == 0) { /* a range can come out empty; an axis of no values is no sweep */
        list_free(&l);
        return refuse(why, cap, "'%s' gives no values", list);
    }
    /* a value twice would be one point run twice */
    char **sorted = malloc(l.n * sizeof *sorted);
    if (!sorted) {
        list_free(&l);
        return refuse(why, cap, "out of memory");
    }
    memcpy(sorted, l.v, l.n * sizeof *sorted);
    qsort(sorted, l.n, sizeof *sorted, cmp_str);
    for (uint32_t i = 1; i < l.n; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0) {
            refuse(why, cap, "value %s is given twice in '%s'", sorted[i], list);
            free(sorted);
            list_free(&l);
            return false;
        }
    free(sorted);
    *values = l.v;
    *n = l.n;
    return true;
}

/* ------------------------------------------------------------ the spec */

void sweep_spec_init(SweepSpec *s)
{
    memset(s, 0, sizeof *s);
    s->npoints = 1;
}

static void axis_free(SweepAxis *a)
{
    for (uint32_t i = 0; i < a->nvalues; i++) free(a->values[i]);
    free(a->values);
    free(a->key);
}

void sweep_spec_free(SweepSpec *s)
{
    for (uint32_t i = 0; i < s->naxes; i++) axis_free(&s->axes[i]);
    free(s->axes);
    sweep_spec_init(s);
}

const SweepAxis *sweep_spec_axis(const SweepSpec *s, const char *key)
{
    for (uint32_t i = 0; i < s->naxes; i++)
        if (strcmp(s->axes[i].key, key) == 0) return &s->axes[i];
    return NULL;
}

bool sweep_spec_add(SweepSpec *s, SweepAxisKind kind, const char *flag, const char *assignment, Diag *d)
{
    SweepAxis a = { kind, flag, NULL, NULL, 0 };
    const char *list;
    if (kind == AXIS_GPU) {
        a.key = strdup("gpu");
        list = assignment;
    } else {
        const char *eq = assignment ? strchr(assignment, '=') : NULL;
        if (!eq || eq == assignment) {
            diag_set(d, flag, 0, 0, "expected KEY=V1,V2,... or KEY=START:STOP:STEP, got '%s'",
                     assignment ? assignment : "");
            return false;
        }
        a.key = strndup(assignment, (size_t)(eq - assignment));
        list = eq + 1;
    }
    if (!a.key) {
        diag_set(d, flag, 0, 0, "out of memory");
        return false;
    }
    if (strcmp(flag, "--launch") == 0 && strcmp(a.key, "block") != 0) {
        diag_set(d, flag, 0, 0, "--launch takes block=V1,V2,... (a workload makes its block size sweepable as its "
                                "parameter 'block'), got '%s'", a.key);
        free(a.key);
        return false;
    }
    const SweepAxis *dup = sweep_spec_axis(s, a.key);
    if (dup) {
        diag_set(d, flag, 0, 0, "%s is given twice (%s and %s): give all its values in one list", a.key, dup->flag,
                 flag);
        free(a.key);
        return false;
    }
    char why[512];
    if (!sweep_values_parse(list, kind != AXIS_GPU, &a.values, &a.nvalues, why, sizeof why)) {
        diag_set(d, flag, 0, 0, "%s: %s", a.key, why);
        free(a.key);
        return false;
    }
    uint64_t points = s->npoints * a.nvalues;
    if (points > SWEEP_MAX_POINTS) {
        char dims[256] = "";
        for (uint32_t i = 0; i <= s->naxes; i++) {
            size_t len = strlen(dims);
            snprintf(dims + len, sizeof dims - len, "%s%u", i ? " x " : "", i < s->naxes ? s->axes[i].nvalues : a.nvalues);
        }
        diag_set(d, flag, 0, 0, "the sweep has %llu points (%s), more than 10^6", (unsigned long long)points, dims);
        axis_free(&a);
        return false;
    }
    SweepAxis *axes = realloc(s->axes, (s->naxes + 1) * sizeof *axes);
    if (!axes) {
        diag_set(d, flag, 0, 0, "out of memory");
        axis_free(&a);
        return false;
    }
    s->axes = axes;
    s->axes[s->naxes++] = a;
    s->npoints = points;
    return true;
}

void sweep_point_indices(const SweepSpec *s, uint64_t p, uint32_t *idx)
{
    for (uint32_t k = s->naxes; k-- > 0;) {
        idx[k] = (uint32_t)(p % s->axes[k].nvalues);
        p /= s->axes[k].nvalues;
    }
}

bool sweep_shard_parse(const char *text, uint32_t *index, uint32_t *count, Diag *d)
{
    const char *slash = text ? strchr(text, '/') : NULL;
    int64_t i, n;
    if (!slash || !digits_i64(text, (size_t)(slash - text), &i) || !digits_i64(slash + 1, strlen(slash + 1), &n)) {
        diag_set(d, "--shard", 0, 0, "expected I/N (shard I of N, 0 <= I < N), got '%s'", text ? text : "");
        return false;
    }
    if (n < 1 || n > SWEEP_MAX_POINTS) {
        diag_set(d, "--shard", 0, 0, "%s: N must be 1 to 10^6", text);
        return false;
    }
    if (i >= n) {
        diag_set(d, "--shard", 0, 0, "%s: shards are numbered 0 to %lld", text, (long long)n - 1);
        return false;
    }
    *index = (uint32_t)i;
    *count = (uint32_t)n;
    return true;
}

void sweep_spec_hash(const SweepSpec *s, const char *context, char out[17])
{
    static const char *const KIND[] = { "gpu", "set", "param" };
    uint64_t h = HASH_SWEEP_OFFSET;
    h = hash_fnv64(h, "gpusim-sweep-1\n", 15);
    for (uint32_t i = 0; i < s->naxes; i++) {
        const SweepAxis *a = &s->axes[i];
        h = hash_fnv64(h, KIND[a->kind], strlen(KIND[a->kind]));
        h = hash_fnv64(h, " ", 1);
        h = hash_fnv64(h, a->key, strlen(a->key));
        for (uint32_t k = 0; k < a->nvalues; k++) {
            h = hash_fnv64(h, k ? "," : "=", 1);
            h = hash_fnv64(h, a->values[k], strlen(a->values[k]));
        }
        h = hash_fnv64(h, "\n", 1);
    }
    if (context) h = hash_fnv64(h, context, strlen(context));
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}
