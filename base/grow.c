/* base/grow.c -- see grow.h. */
#include "base/grow.h"

#include <stdlib.h>

bool grow_array(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > UINT32_MAX / 2) return false;
        ncap *= 2;
    }
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n) return false;
    *arr = n;
    *cap = ncap;
    return true;
}
