/* fuzz/fuzz_sweep.c -- libFuzzer harness for what `gpusim sweep` reads: its
** value lists and axes (cli/sweep_spec.c) and the JSON lines of a shard
** file read back for a resume or a merge (cli/sweep_lines.c). The first
** byte picks the part:
**   even: the rest is lines `K KEY=LIST`, K one of g s p l (--gpu, --set,
**         --param, --launch), and one `--shard I/N`; every accepted spec
**         must have npoints = the product of its lists' lengths (at most
**         SWEEP_MAX_POINTS: 4096 in the fuzz build, 10^6 in gpusim),
**         and every point's indices must lie inside its lists;
**   odd:  the rest is up to three shard files separated by NUL bytes, read
**         as a merge reads them; an accepted merge must name every run of
**         the sweep once, in sweep order, each a line of its files.
** The files go through memfd_create, so the harness touches no disk.     */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/sweep_lines.h"
#include "cli/sweep_spec.h"

static void spec_part(const char *text)
{
    SweepSpec s;
    sweep_spec_init(&s);
    char *copy = strdup(text);
    if (!copy) return;
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        Diag d;
        if (!strncmp(line, "--shard ", 8)) {
            uint32_t i = 0, n = 0;
            if (sweep_shard_parse(line + 8, &i, &n, &d) && (n == 0 || i >= n || n > SWEEP_MAX_POINTS)) abort();
            continue;
        }
        if (strlen(line) < 2 || line[1] != ' ') continue;
        const char *flag = line[0] == 'g' ? "--gpu" : line[0] == 's' ? "--set" : line[0] == 'p' ? "--param" : "--launch";
        SweepAxisKind kind = line[0] == 'g' ? AXIS_GPU : line[0] == 's' ? AXIS_SET : AXIS_PARAM;
        uint64_t before = s.npoints;
        uint32_t naxes = s.naxes;
        if (!sweep_spec_add(&s, kind, flag, line + 2, &d)) {
            if (s.npoints != before || s.naxes != naxes) abort(); /* refused: unchanged */
        }
    }
    free(copy);
    uint64_t product = 1;
    for (uint32_t k = 0; k < s.naxes; k++) {
        if (s.axes[k].nvalues == 0) abort();
        product *= s.axes[k].nvalues;
    }
    if (product != s.npoints || s.npoints > SWEEP_MAX_POINTS) abort();
    uint32_t idx[64];
    if (s.naxes <= 64)
        for (uint64_t p = 0; p < s.npoints && p < 64; p++) {
            sweep_point_indices(&s, s.npoints - 1 - p, idx);
            for (uint32_t k = 0; k < s.naxes; k++)
                if (idx[k] >= s.axes[k].nvalues) abort();
        }
    sweep_spec_free(&s);
}

static void merge_part(const uint8_t *data, size_t size)
{
    SweepFile files[3];
    char names[3][64];
    const char *pnames[3];
    int fds[3];
    size_t nfiles = 0, start = 0;
    bool ok = true;
    while (nfiles < 3 && start <= size) {
        const uint8_t *nul = memchr(data + start, 0, size - start);
        size_t end = nul ? (size_t)(nul - data) : size;
        int fd = memfd_create("shard", 0);
        if (fd < 0) break;
        if (end > start && write(fd, data + start, end - start) != (ssize_t)(end - start)) {
            close(fd);
            break;
        }
        snprintf(names[nfiles], sizeof names[nfiles], "/proc/self/fd/%d", fd);
        pnames[nfiles] = names[nfiles];
        Diag d;
        if (!sweep_file_read(names[nfiles], false, &files[nfiles], NULL, NULL, &d)) {
            close(fd);
            ok = false;
            break;
        }
        fds[nfiles++] = fd;
        start = end + 1;
        if (!nul) break;
    }
    if (ok && nfiles) {
        SweepRef *order = NULL;
        uint64_t nruns = 0;
        Diag d;
        if (sweep_merge_order(files, pnames, nfiles, &order, &nruns, &d)) {
            for (uint64_t r = 0; r < nruns; r++) {
                if (order[r].file >= nfiles || order[r].line >= files[order[r].file].n) abort();
                const SweepLine *l = &files[order[r].file].lines[order[r].line];
                if (l->point * l->variants + l->variant != r) abort(); /* sweep order, every run once */
            }
            free(order);
        }
    }
    for (size_t i = 0; i < nfiles; i++) {
        sweep_file_free(&files[i]);
        close(fds[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 16) return 0;
    if (data[0] % 2 == 0) {
        char *text = malloc(size);
        if (!text) return 0;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        spec_part(text);
        free(text);
    } else {
        merge_part(data + 1, size - 1);
    }
    return 0;
}
