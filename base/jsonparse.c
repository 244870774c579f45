/* base/jsonparse.c -- see jsonparse.h. cJSON keeps no positions: an error's
** line:col comes from where cJSON stopped, or from base/jsonpos.h's scans. */
#include "base/jsonparse.h"

#include <stdlib.h>
#include <string.h>

#include "base/jsonpos.h"

static bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

/* A syntax error cJSON stopped at byte off: an unterminated string is
** reported where it opens (cJSON's own position is then the end of file).
** cJSON stops at, or just past, the offending character: on a blank (or
** the end), the error is the last visible character before it, unless the
** text ended inside a value (then where it stops being written). */
static void syntax_error(const char *text, size_t len, const char *file, size_t off, Diag *d)
{
    uint32_t line, col;
    size_t open = jsonpos_open_string(text, len);
    if (open < len && open <= off) {
        jsonpos_line_col(text, len, open, &line, &col);
        diag_set(d, file, line, col, "invalid JSON: unterminated string");
        return;
    }
    if (off >= len || is_blank(text[off])) {
        size_t p = off < len ? off : len;
        while (p > 0 && is_blank(text[p - 1])) p--;
        bool ended = off >= len && (p == 0 || (text[p - 1] != '}' && text[p - 1] != ']'));
        off = ended ? len : p > 0 ? p - 1 : off;
        if (ended) {
            jsonpos_line_col(text, len, p, &line, &col);
            diag_set(d, file, line, col, "invalid JSON: unexpected end of file");
            return;
        }
    }
    jsonpos_line_col(text, len, off, &line, &col);
    if (off >= len) {
        diag_set(d, file, line, col, "invalid JSON: unexpected end of file");
    } else {
        unsigned char ch = (unsigned char)text[off];
        if (ch >= 0x20 && ch < 0x7f)
            diag_set(d, file, line, col, "invalid JSON: unexpected '%c'", ch);
        else if (ch == 0)
            diag_set(d, file, line, col, "invalid JSON: unexpected NUL byte (not a JSON text file)");
        else
            diag_set(d, file, line, col, "invalid JSON: unexpected byte 0x%02x", ch);
    }
}

cJSON *jsonparse_text(const char *text, size_t len, const char *file, Diag *d)
{
    /* cJSON would stop at a NUL as if the text ended there */
    const char *nul = memchr(text, '\0', len);
    size_t nul_at = nul ? (size_t)(nul - text) : len;
    /* parsed with its terminator in view: a text that ends inside a value
    ** then stops cJSON at the terminator (given the exact length, it names
    ** the last byte instead, as if that byte were wrong) */
    char *copy = malloc(len + 1);
    if (!copy) {
        diag_set(d, file, 0, 0, "out of memory");
        return NULL;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, false);
    size_t end_off = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : len;
    free(copy);
    if (!root || nul) {
        size_t off = end_off;
        cJSON_Delete(root);
        if (off < nul_at && jsonpos_depth_at(text, len, off) >= JSONPOS_NESTING_LIMIT) {
            uint32_t line, col;
            jsonpos_line_col(text, len, off, &line, &col);
            diag_set(d, file, line, col, "JSON nested too deeply (limit %d levels)", JSONPOS_NESTING_LIMIT);
            return NULL;
        }
        syntax_error(text, len, file, off < nul_at ? off : nul_at, d);
        return NULL;
    }
    size_t bad = jsonpos_find_bad_utf8(text, len);
    if (bad < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, bad, &line, &col);
        diag_set(d, file, line, col, "byte 0x%02x is not UTF-8 text (JSON files are UTF-8)", (unsigned char)text[bad]);
        return NULL;
    }
    size_t nul_escape = jsonpos_find_nul_escape(text, len);
    if (nul_escape < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, nul_escape, &line, &col);
        diag_set(d, file, line, col, "\\u0000 (a NUL character) inside a string: it would cut the string short");
        return NULL;
    }
    /* anything but whitespace after the value */
    size_t tail = end_off;
    while (tail < len && strchr(" \t\r\n", text[tail])) tail++;
    if (tail < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, tail, &line, &col);
        diag_set(d, file, line, col, "invalid JSON: text after the end of the top-level value");
        return NULL;
    }
    return root;
}
