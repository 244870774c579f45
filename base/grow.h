/* base/grow.h -- the one growable-array step: room for `need` elements of
** `elem` bytes in *arr, whose capacity *cap doubles (from 16) as needed.
** Used by the front ends' tables (instructions, labels, symbols, ranges)
** and global memory's regions. Not for hash tables, which rehash. */
#ifndef GPUSIM_BASE_GROW_H
#define GPUSIM_BASE_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True with *arr holding at least `need` elements (the first *cap of
** before kept), or false, *arr and *cap untouched, when out of memory or
** the count would pass UINT32_MAX. */
bool grow_array(void **arr, uint32_t *cap, uint32_t need, size_t elem);

#endif
