/* workloads/npy.h -- NumPy .npy files of 4-byte elements, in and out: what
** a buffer's "npy" init and a check's "expect" read, and what `gpusim run
** --dump` writes. Format (NumPy's numpy.lib.format, versions 1.0 and 2.0):
** the magic "\x93NUMPY", two version bytes, a little-endian header length
** (2 bytes in 1.0, 4 in 2.0), a header that is a Python dict literal with
** exactly the keys 'descr', 'fortran_order' and 'shape', padded with
** spaces and ended by '\n', then the elements in C order.
** Accepted: descr '<f4', '<i4' or '<u4' (WL_F32, WL_S32, WL_U32),
** fortran_order False, a shape of non-negative integers whose product fits
** 64 bits, and exactly product * 4 bytes of data after the header. Refused,
** with the file named in the message: a wrong magic, another version, a
** truncated header or data, bytes after the data, big-endian or other
** dtypes (objects, structured arrays, 8-byte types), Fortran order, a
** shape that overflows, and any other key or syntax in the header.
** Written: version 1.0, a 1-D array (its header always fits 1.0).
** No NumPy or Python needed; pure but for the file calls.               */
#ifndef GPUSIM_WORKLOADS_NPY_H
#define GPUSIM_WORKLOADS_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "workloads/reference.h"

#define NPY_MAX_DIMS 32 /* as NumPy's own limit */

typedef struct {
    WlType   type;
    uint32_t ndim;
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t count;  /* elements: the product of the shape (1 for shape ()) */
    void    *data;   /* count * 4 bytes in host order, malloc'd; NULL when count is 0 */
} NpyArray;

/* Parses a whole .npy file held in bytes[0..len); `file` names it in
** errors ("FILE: error: not a .npy file: ..."). On success *out owns a copy
** of the data (npy_free frees it); on failure *out is empty and d is set. */
bool npy_parse(const void *bytes, size_t len, const char *file, NpyArray *out, Diag *d);

/* Reads and parses the file at path, refusing files over max_bytes. */
bool npy_read(const char *path, uint64_t max_bytes, NpyArray *out, Diag *d);

void npy_free(NpyArray *a);

/* The header of a 1-D array of count elements of type t: magic, version,
** length and the padded dict, so that the data starts at a multiple of 64.
** Writes at most cap bytes into buf and returns the header's length (a
** buffer of 128 bytes always suffices). */
size_t npy_header(WlType t, uint64_t count, uint8_t *buf, size_t cap);

/* Writes count elements of type t from data (host order) to path as a 1-D
** array. False with d set (naming path) when the file cannot be written. */
bool npy_write(const char *path, WlType t, const void *data, uint64_t count, Diag *d);

/* "<f4", "<i4", "<u4" (static strings). */
const char *npy_descr(WlType t);

#endif
