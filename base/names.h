/* base/names.h -- an index from names to small ids, for the front ends'
** "defined twice?" and "which one is it?" questions (labels, kernels, JSON
** keys), so that a file of a million names is checked in linear time
** instead of comparing each name with every earlier one.
** The names stay in the caller's own arrays (which may move as they grow):
** the index keeps ids, and asks `name_of(ctx, id)` for a name when it needs
** one. Open addressing with FNV-1a; the table doubles at half full.       */
#ifndef GPUSIM_BASE_NAMES_H
#define GPUSIM_BASE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NAMES_NONE UINT32_MAX

typedef const char *(*NameOf)(const void *ctx, uint32_t id);

typedef struct {
    uint32_t *slot; /* id + 1, or 0 for an empty slot */
    uint32_t  cap;  /* a power of two, or 0          */
    uint32_t  n;
} NameIndex;

/* The id whose name is name[0..len), or NAMES_NONE. */
uint32_t names_find(const NameIndex *ix, const char *name, size_t len, NameOf name_of, const void *ctx);

/* Adds id (whose name must not be in the index yet). False when the host is
** out of memory (the index is then unchanged). */
bool names_add(NameIndex *ix, uint32_t id, NameOf name_of, const void *ctx);

/* Empties the index, keeping its table for reuse. */
void names_clear(NameIndex *ix);

void names_free(NameIndex *ix);

#endif
