/* sim/cli/cli_common.c -- option handling shared by the subcommands: option
** values (--flag VALUE or --flag=VALUE), strict unsigned integers, and the
** machine a command runs on (--gpu, then each --set, then validation).
** Errors become Diags naming the flag or file they came from; printing and
** the exit status are the caller's business.                              */
#include "sim/cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

bool cli_parse_u32(const char *s, const char *flag, uint32_t *out, uint32_t lo, uint32_t hi, Diag *d)
{
    uint64_t v = 0;
    bool ok = s && s[0] != '\0';
    for (const char *p = s; ok && *p; p++) {
        ok = *p >= '0' && *p <= '9';
        if (ok) v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX) break; /* too many digits: out of range below */
    }
    if (!ok) {
        diag_set(d, flag, 0, 0, "expected an unsigned decimal integer in [%u, %u], got '%s'", lo, hi,
                 s ? s : "");
        return false;
    }
    if (v < lo || v > hi) {
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
