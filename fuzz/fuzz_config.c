/* fuzz/fuzz_config.c -- libFuzzer harness for the machine description:
** config_parse (a GPU preset or --gpu FILE.json), config_set (--set
** key=value) and config_validate.
** Input: the bytes before the first NUL are a machine JSON text; the bytes
** after it are --set assignments, one per line (at most 16). The
** assignments are applied to the parsed machine when it parsed and, in any
** case, to the a100 preset; each machine is then validated.
** Oracle beyond "no crash, no leak": a machine that validates must survive
** config_to_json -> config_parse -> config_to_json unchanged, as
** sim/config.h promises; a difference aborts, so the fuzzer reports it.   */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"

#define FUZZ_MAX_SETS 16 /* more lines add time, not coverage: each is parsed alone */

static void roundtrip(const GpuConfig *c)
{
    Diag d;
    if (!config_validate(c, &d)) return;
    char *a = config_to_json(c);
    if (!a) return;
    GpuConfig back;
    if (!config_parse(a, strlen(a), "roundtrip.json", &back, &d)) {
        fprintf(stderr, "config_to_json output does not load: %s:%u:%u: %s\n%s\n", d.file, d.line, d.col,
                d.message, a);
        abort();
    }
    char *b = config_to_json(&back);
    if (b && strcmp(a, b) != 0) {
        fprintf(stderr, "config round trip changed the machine\n--- first ---\n%s\n--- second ---\n%s\n", a, b);
        abort();
    }
    free(a);
    free(b);
}

static void apply_sets(GpuConfig *c, const char *sets, size_t len)
{
    char line[512];
    size_t i = 0;
    for (int n = 0; i < len && n < FUZZ_MAX_SETS; n++) {
        size_t j = i;
        while (j < len && sets[j] != '\n' && sets[j] != '\0') j++;
        size_t m = j - i < sizeof line - 1 ? j - i : sizeof line - 1;
        memcpy(line, sets + i, m);
        line[m] = '\0';
        Diag d;
        config_set(c, line, &d);
        i = j + 1;
    }
    roundtrip(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t json_len = nul ? (size_t)(nul - text) : size;
    const char *sets = nul ? nul + 1 : text + size;
    size_t sets_len = size - json_len - (nul ? 1 : 0);

    GpuConfig c;
    Diag d;
    if (config_parse(text, json_len, "fuzz.json", &c, &d)) {
        roundtrip(&c);
        apply_sets(&c, sets, sets_len);
    }
    /* the preset parsed once: parsing it again per input was most of the time */
    static GpuConfig a100;
    static int have_a100 = -1;
    if (have_a100 < 0) have_a100 = config_load("a100", &a100, &d);
    if (sets_len && have_a100) {
        c = a100;
        apply_sets(&c, sets, sets_len);
    }
    return 0;
}
