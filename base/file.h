/* base/file.h -- a whole input file read into memory, with a size cap, for
** every front end that parses a file (kernels, machines, workloads, results).
** Never prints; the caller words the error for its own kind of file.       */
#ifndef GPUSIM_BASE_FILE_H
#define GPUSIM_BASE_FILE_H

#include <stddef.h>

typedef enum {
    FILE_READ_OK,
    FILE_READ_CANNOT_OPEN, /* why: strerror of the failed open               */
    FILE_READ_TOO_LARGE,   /* why: "file larger than N MiB"                  */
    FILE_READ_ERROR,       /* why: "read error: ..."                         */
    FILE_READ_NO_MEMORY    /* why: "out of memory"                           */
} FileReadStatus;

/* Reads path into a malloc'd buffer *text of *len bytes plus a NUL (so that
** text-oriented parsers may rely on it; the content may hold NULs of its
** own). A file of up to `limit` bytes is read; one byte more is refused.
** On any status but FILE_READ_OK, *text is NULL and why (cap bytes, if not
** NULL) says what went wrong in a few words. */
FileReadStatus file_read(const char *path, size_t limit, char **text, size_t *len, char *why, size_t cap);

#endif
