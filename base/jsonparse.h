/* base/jsonparse.h -- the one front door of every JSON file gpusim reads
** (workloads, machine files, sweep lines): text to a cJSON tree, or a
** diagnostic at the file's line:col in one wording for all of them
** ("invalid JSON: unexpected ','", "invalid JSON: unterminated string",
** where the string opens). Beyond cJSON it refuses what cJSON would
** accept or misread: NUL bytes (cJSON stops there as if the text ended),
** bytes that are not UTF-8, \u0000 inside a string (it would cut the
** string short), text after the top-level value, and nesting past
** JSONPOS_NESTING_LIMIT (named as such, not as a syntax error). */
#ifndef GPUSIM_BASE_JSONPARSE_H
#define GPUSIM_BASE_JSONPARSE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/diag.h"

/* Parses text[0..len) (no terminator needed) of the file named `file`.
** Returns the tree (the caller cJSON_Deletes it), or NULL with *d set. */
cJSON *jsonparse_text(const char *text, size_t len, const char *file, Diag *d);

#endif
