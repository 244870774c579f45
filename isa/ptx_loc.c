/* isa/ptx_loc.c -- the PTX front end's source files: the .file table
** (nvcc writes it after the kernels, so it is also read ahead of the
** parse), which .loc lines and error messages name CUDA lines by, and the
** .loc lines themselves (with their chains of inlining). */
#include "isa/ptx_int.h"

#include <stdlib.h>
#include <string.h>

/* Follows the .loc's inlined_at out through the call sites seen inlined
** before it (nvcc writes the outer site's .loc first), to the user's line,
** and remembers this one for the .locs that follow. */
static void outermost_call(Ptx *P)
{
    uint16_t f = P->loc_inl_file;
    uint32_t l = P->loc_inl_line;
    for (int hops = 0; hops < PTX_LOC_SEEN; hops++) {
        uint32_t n = P->loc_seen_next < PTX_LOC_SEEN ? P->loc_seen_next : PTX_LOC_SEEN, i = 0;
        for (; i < n; i++) { /* the newest first */
            uint32_t k = (P->loc_seen_next - 1 - i) % PTX_LOC_SEEN;
            if (P->loc_seen[k].file == f && P->loc_seen[k].line == l) {
                f = P->loc_seen[k].inl_file, l = P->loc_seen[k].inl_line;
                break;
            }
        }
        if (i == n) break;
    }
    uint32_t k = P->loc_seen_next++ % PTX_LOC_SEEN;
    P->loc_seen[k].file = P->loc_file, P->loc_seen[k].line = P->loc_line;
    P->loc_seen[k].inl_file = f, P->loc_seen[k].inl_line = l;
    P->loc_inl_file = f, P->loc_inl_line = l;
}

/* .loc F L C[, function_name ..., inlined_at ...]: the source position of
** the instructions that follow. */
bool ptx_parse_loc(Ptx *P)
{
    uint32_t line = P->tok.line;
    ptx_next(P);
    int64_t f, l;
    if (!ptx_int(P, &P->tok, false, &f)) return false;
    ptx_next(P);
    if (!ptx_int(P, &P->tok, false, &l)) return false;
    P->loc_file = f > 0 && f <= 65535 ? (uint16_t)f : 0;
    P->loc_line = l > 0 && l <= UINT32_MAX ? (uint32_t)l : 0;
    P->loc_inl_file = 0, P->loc_inl_line = 0;
    /* the rest of the line: the column, and `inlined_at F L C`, which names
    ** the user's line when the code came from a header (messages say both) */
    while (P->tok.kind != TK_EOF && P->tok.line == line) {
        if (ptx_is(&P->tok, "inlined_at")) {
            ptx_next(P);
            int64_t inf, inl;
            if (P->tok.kind == TK_NUM && ptx_int(P, &P->tok, false, &inf)) {
                ptx_next(P);
                if (P->tok.kind == TK_NUM && ptx_int(P, &P->tok, false, &inl) && inf > 0 && inf <= 65535 && inl > 0 &&
                    inl <= UINT32_MAX)
                    P->loc_inl_file = (uint16_t)inf, P->loc_inl_line = (uint32_t)inl;
            }
            continue;
        }
        ptx_next(P);
    }
    if (P->loc_inl_line) outermost_call(P);
    return true;
}

/* .file N "name" [, mtime, size] */
bool ptx_parse_file_dir(Ptx *P)
{
    ptx_next(P);
    int64_t n;
    if (!ptx_int(P, &P->tok, false, &n)) return false;
    if (n < 1 || n > 65535) return ptx_fail(P, &P->tok, ".file number %lld out of range (1 .. 65535)", (long long)n);
    ptx_next(P);
    Tok st = P->tok;
    char q[80];
    if (st.kind != TK_STR || st.len < 2 || st.s[st.len - 1] != '"')
        return ptx_fail(P, &st, "expected a quoted file name after .file, found '%s'", ptx_quote(&st, q, sizeof q));
    ptx_next(P);
    while (ptx_punct(&P->tok, ',')) {
        ptx_next(P);
        ptx_next(P);
    }
    Program *pr = P->prog;
    if ((uint32_t)n > pr->nsrc_files) {
        char **nf = realloc(pr->src_files, (size_t)n * sizeof *nf);
        if (!nf) return ptx_fail(P, &st, "out of memory");
        for (uint32_t i = pr->nsrc_files; i < (uint32_t)n; i++) nf[i] = NULL;
        pr->src_files = nf;
        pr->nsrc_files = (uint32_t)n;
    }
    free(pr->src_files[n - 1]);
    Tok inner = st;
    inner.s++;
    inner.len -= 2;
    pr->src_files[n - 1] = strndup(inner.s, inner.len);
    if (!pr->src_files[n - 1]) return ptx_fail(P, &st, "out of memory");
    return true;
}

/* nvcc writes the .file table after the kernels: its entries are read
** first, so that an error inside a kernel can name the CUDA line (a line
** whose first word is .file, then a number and a quoted name; the real
** parse reads them again, with its checks). */
void ptx_prescan_files(Program *pr, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t')) s++;
        if (eol - s > 6 && !memcmp(s, ".file", 5) && (s[5] == ' ' || s[5] == '\t')) {
            char *num_end;
            long n = strtol(s + 5, &num_end, 10);
            const char *q = num_end < eol ? memchr(num_end, '"', (size_t)(eol - num_end)) : NULL;
            const char *q2 = q ? memchr(q + 1, '"', (size_t)(eol - q - 1)) : NULL;
            if (n >= 1 && n <= 65535 && q2) {
                if ((uint32_t)n > pr->nsrc_files) {
                    char **nf = realloc(pr->src_files, (size_t)n * sizeof *nf);
                    if (!nf) return;
                    for (uint32_t i = pr->nsrc_files; i < (uint32_t)n; i++) nf[i] = NULL;
                    pr->src_files = nf;
                    pr->nsrc_files = (uint32_t)n;
                }
                free(pr->src_files[n - 1]);
                pr->src_files[n - 1] = strndup(q + 1, (size_t)(q2 - q - 1));
            }
        }
        p = eol + 1;
    }
}

