/* base/names.c -- see names.h. */
#include "base/names.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

static uint32_t *slot_of(const NameIndex *ix, const char *name, size_t len, NameOf name_of, const void *ctx)
{
    uint32_t i = hash_fnv32(HASH_FNV32_OFFSET, name, len) & (ix->cap - 1);
    for (;;) {
        uint32_t e = ix->slot[i];
        if (!e) return &ix->slot[i];
        const char *s = name_of(ctx, e - 1);
        if (strncmp(s, name, len) == 0 && s[len] == '\0') return &ix->slot[i];
        i = (i + 1) & (ix->cap - 1);
    }
}

uint32_t names_find(const NameIndex *ix, const char *name, size_t len, NameOf name_of, const void *ctx)
{
    if (!ix->cap) return NAMES_NONE;
    uint32_t e = *slot_of(ix, name, len, name_of, ctx);
    return e ? e - 1 : NAMES_NONE;
}

bool names_add(NameIndex *ix, uint32_t id, NameOf name_of, const void *ctx)
{
    if (2 * (ix->n + 1) > ix->cap) {
        if (ix->cap > UINT32_MAX / 4) return false;
        uint32_t ncap = ix->cap ? ix->cap * 2 : 64;
        uint32_t *ns = calloc(ncap, sizeof *ns);
        if (!ns) return false;
        NameIndex grown = { ns, ncap, 0 };
        for (uint32_t i = 0; i < ix->cap; i++)
            if (ix->slot[i]) {
                const char *s = name_of(ctx, ix->slot[i] - 1);
                *slot_of(&grown, s, strlen(s), name_of, ctx) = ix->slot[i];
            }
        grown.n = ix->n;
        free(ix->slot);
        *ix = grown;
    }
    const char *s = name_of(ctx, id);
    *slot_of(ix, s, strlen(s), name_of, ctx) = id + 1;
    ix->n++;
    return true;
}

void names_clear(NameIndex *ix)
{
    if (ix->slot) memset(ix->slot, 0, (size_t)ix->cap * sizeof *ix->slot);
    ix->n = 0;
}

void names_free(NameIndex *ix)
{
    free(ix->slot);
    ix->slot = NULL;
    ix->cap = ix->n = 0;
}
