/* base/file.c -- capped whole-file reads (see file.h). */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FileReadStatus refuse(FileReadStatus st, char *why, size_t cap, const char *fmt, const char *arg, size_t n)
{
    if (why && cap) {
        if (st == FILE_READ_TOO_LARGE) {
            if (n >= (1u << 20) && n % (1u << 20) == 0) snprintf(why, cap, "file larger than %zu MiB", n >> 20);
            else snprintf(why, cap, "file larger than %zu bytes", n);
        } else {
            snprintf(why, cap, fmt, arg);
        }
    }
    return st;
}

FileReadStatus file_read(const char *path, size_t limit, char **text, size_t *len, char *why, size_t cap)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return refuse(FILE_READ_CANNOT_OPEN, why, cap, "%s", strerror(errno), 0);
    /* Grow by doubling; one byte past the limit is read to tell "exactly the
    ** limit" (accepted) from "more" (refused). */
    size_t n = 0, sz = limit < (1u << 16) ? limit + 1 : (1u << 16);
    char *buf = malloc(sz + 1);
    FileReadStatus st = buf ? FILE_READ_OK : FILE_READ_NO_MEMORY;
    while (st == FILE_READ_OK) {
        size_t got = fread(buf + n, 1, sz - n, f);
        n += got;
        if (n > limit) {
            st = FILE_READ_TOO_LARGE;
            break;
        }
        if (n < sz) break; /* end of file or an error, told apart below */
        size_t nsz = sz * 2 > limit + 1 ? limit + 1 : sz * 2;
        char *nb = realloc(buf, nsz + 1);
        if (!nb) {
            st = FILE_READ_NO_MEMORY;
            break;
        }
        buf = nb;
        sz = nsz;
    }
    int err = errno;
    if (st == FILE_READ_OK && ferror(f)) st = FILE_READ_ERROR;
    fclose(f);
    if (st != FILE_READ_OK) {
        free(buf);
        if (st == FILE_READ_TOO_LARGE) return refuse(st, why, cap, NULL, NULL, limit);
        if (st == FILE_READ_ERROR) return refuse(st, why, cap, "read error: %s", strerror(err), 0);
        return refuse(st, why, cap, "%s", "out of memory", 0);
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return FILE_READ_OK;
}
