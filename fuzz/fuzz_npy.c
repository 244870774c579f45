/* fuzz/fuzz_npy.c -- libFuzzer harness for the .npy reader
** (workloads/npy.h): the input is a whole .npy file. Oracle beyond "no
** crash, no leak": an array that parses must come back byte for byte when
** it is written again as a 1-D array of the same elements and parsed (the
** writer's header and the reader agree), with the same type and count.
** Seeds: fuzz/corpus/npy (valid files of each dtype and version, and the
** refusals the Check suite pins).                                        */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NpyArray a;
    Diag d;
    if (!npy_parse(data, size, "fuzz.npy", &a, &d)) return 0;
    if (a.count <= (1u << 20)) {
        uint8_t head[128];
        size_t h = npy_header(a.type, a.count, head, sizeof head);
        size_t n = h + (size_t)a.count * 4;
        uint8_t *file = malloc(n ? n : 1);
        if (file) {
            memcpy(file, head, h);
            if (a.count) memcpy(file + h, a.data, (size_t)a.count * 4);
            NpyArray b;
            if (!npy_parse(file, n, "again.npy", &b, &d)) {
                fprintf(stderr, "a written .npy does not parse: %s\n", d.message);
                abort();
            }
            if (b.type != a.type || b.count != a.count || (a.count && memcmp(a.data, b.data, (size_t)a.count * 4))) {
                fprintf(stderr, "a .npy round trip changed the array\n");
                abort();
            }
            npy_free(&b);
            free(file);
        }
    }
    npy_free(&a);
    return 0;
}
