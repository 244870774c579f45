/* cli/cli_common.c -- option handling shared by the subcommands: option
** values (--flag VALUE or --flag=VALUE), strict unsigned integers, and the
** machine a command runs on (--gpu, then each --set, then validation).
** Errors become Diags naming the flag or file they came from; printing and
** the exit status are the caller's business.                              */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

bool cli_option(int argc, char **argv, int *i, const char *flag, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(flag);
    if (strncmp(arg, flag, n) != 0) return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0') return false;
    if (*i + 1 < argc) {
        *value = argv[++*i];
    } else {
        *value = NULL;
    }
    return true;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    fprintf(stderr, "gpusim %s: error: ", cmd);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_BAD_INPUT;
}

bool cli_number_u64(const char *s, bool allow_exponent, uint64_t *out)
{
    if (!s || s[0] < '0' || s[0] > '9') return false;
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t digit = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10) return false;
        v = v * 10 + digit;
    }
    if (*p == '\0') {
        *out = v;
        return true;
    }
    if (!allow_exponent) return false;
    double d;
    /* 2e9, 1.5e3: only when the value is a whole number that fits */
    if (!cli_number_double(s, &d) || d < 0 || d >= 0x1p64 || d != (double)(uint64_t)d) return false;
    *out = (uint64_t)d;
    return true;
}

bool cli_number_double(const char *s, double *out)
{
    if (!s || !*s) return false;
    for (const char *p = s; *p; p++) /* plain decimal: strtod alone would take hex, inf and nan */
        if (!strchr("0123456789+-.eE", *p)) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool cli_parse_u32(const char *s, const char *flag, uint32_t *out, uint32_t lo, uint32_t hi, Diag *d)
{
    uint64_t v = 0;
    bool digits = s && s[0] != '\0' && strspn(s, "0123456789") == strlen(s);
    if (!digits) {
        diag_set(d, flag, 0, 0, "expected an unsigned decimal integer in [%u, %u], got '%s'", lo, hi,
                 s ? s : "");
        return false;
    }
    if (!cli_number_u64(s, false, &v) || v < lo || v > hi) { /* too many digits is out of range too */
        diag_set(d, flag, 0, 0, "%s is out of range [%u, %u]", s, lo, hi);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool cli_load_gpu(const char *gpu, char **sets, int nsets, GpuConfig *out, Diag *d)
{
    GpuConfig c;
    if (!config_load(gpu ? gpu : CONFIG_DEFAULT_GPU, &c, d)) {
        if (d && d->file[0] == '\0') snprintf(d->file, sizeof d->file, "--gpu");
        return false;
    }
    for (int i = 0; i < nsets; i++)
        if (!config_set(&c, sets[i], d)) return false;
    if (!config_validate(&c, d)) {
        /* the preset or file passed on its own, so an override broke it */
        if (d) snprintf(d->file, sizeof d->file, "--set");
        return false;
    }
    *out = c;
    return true;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool cli_flush_stdout(const char *cmd)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return true;
    int err = errno;
    cli_error(cmd, "writing the output failed: %s", err ? strerror(err) : "write error");
    return false;
}

bool cli_select_variants(const char *cmd, const char *file, const Workload *w, const char *const *names, size_t n,
                         bool *selected)
{
    bool *chosen = calloc(w->nvariants ? w->nvariants : 1, sizeof *chosen);
    if (!chosen) {
        cli_error(cmd, "out of host memory");
        return false;
    }
    for (uint32_t i = 0; i < w->nvariants; i++) chosen[i] = n == 0;
    for (size_t k = 0; k < n; k++) {
        const WlVariant *v = workload_find_variant(w, names[k]);
        if (v) {
            chosen[v - w->variants] = true;
            continue;
        }
        fprintf(stderr, "gpusim %s: error: %s has no variant '%s' (it has:", cmd, file, names[k]);
        DiagNear near = diag_near_start(names[k], 2, true);
        for (uint32_t i = 0; i < w->nvariants; i++) {
            fprintf(stderr, "%s %s", i ? "," : "", w->variants[i].name);
            diag_near_offer(&near, w->variants[i].name);
        }
        fprintf(stderr, ")");
        if (near.best) fprintf(stderr, "; did you mean '%s'?", near.best);
        fprintf(stderr, "\n");
        free(chosen);
        return false;
    }
    workload_select(w, chosen, selected);
    free(chosen);
    return true;
}

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_clock_text(double s, char *buf, size_t cap)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, cap, "%ld:%02ld", t / 60, t % 60);
}

bool cli_threads_fit_host(void)
{
    const char *e = getenv("GPUSIM_THREADS_EXACT");
    return !e || !*e || strcmp(e, "0") == 0;
}
