/* fuzz/fuzz_fatbin.c -- libFuzzer harness for the fatbinary reader of our
** CUDA runtime (cudart/fatbin.h): the input is a fatbinary as nvcc embeds
** it. Oracle beyond "no crash, no leak, no read past the input": every
** entry fatbin_parse returns lies inside the input, and the PTX picked for
** each device is NUL-terminated at the length it reports. Seeds:
** fuzz/corpus/fatbin (the fatbinaries of small programs, stored and
** ZSTD-compressed, one with two PTX targets).                          */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FatbinEntry e[16];
    size_t n;
    Diag d;
    if (!fatbin_parse(data, size, e, 16, &n, &d)) return 0;
    if (n > 16) n = 16;
    for (size_t i = 0; i < n; i++)
        if (e[i].payload < data || e[i].payload + e[i].payload_bytes > data + size) {
            fprintf(stderr, "entry %zu lies outside the input\n", i);
            abort();
        }
    static const uint32_t sms[] = { 70, 80, 90, 100 };
    for (size_t s = 0; s < sizeof sms / sizeof sms[0]; s++) {
        size_t len = 0;
        char *ptx = fatbin_pick_ptx(e, n, sms[s], &len, &d);
        if (ptx && ptx[len] != '\0') {
            fprintf(stderr, "the PTX is not terminated at its length\n");
            abort();
        }
        free(ptx);
    }
    return 0;
}
