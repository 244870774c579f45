/* base/jsonpos.c -- source positions in JSON text (see jsonpos.h). */
#include "base/jsonpos.h"

#include <stdio.h>
#include <string.h>

void jsonpos_push(JsonPath *p, const char *key, uint32_t index)
{
    if (p->n >= 0 && p->n < JSONPOS_MAX_DEPTH) p->step[p->n] = (JsonStep){ key, index };
    p->n++;
}

void jsonpos_format(const JsonPath *p, char *buf, size_t cap)
{
    size_t len = 0;
    int n = p->n < JSONPOS_MAX_DEPTH ? p->n : JSONPOS_MAX_DEPTH;
    if (cap) buf[0] = '\0';
    for (int i = 0; i < n && len < cap; i++) {
        int w = p->step[i].key ? snprintf(buf + len, cap - len, "%s%s", i ? "." : "", p->step[i].key)
                               : snprintf(buf + len, cap - len, "[%u]", p->step[i].index);
        if (w < 0) break;
        len += (size_t)w;
    }
}

/* ---- a minimal scanner over JSON text that a parser has already accepted */

typedef struct {
    const char *s;
    size_t      len, i;
} Scan;

static void sc_ws(Scan *c)
{
    while (c->i < c->len && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r'))
        c->i++;
}

static bool sc_string(Scan *c)
{
    if (c->i >= c->len || c->s[c->i] != '"') return false;
    for (c->i++; c->i < c->len; c->i++) {
        if (c->s[c->i] == '\\') c->i++;
        else if (c->s[c->i] == '"') {
            c->i++;
            return true;
        }
    }
    return false;
}

/* Skips one value. Nesting is bounded by the parser that accepted the text
** (cJSON: 1000), so the recursion is too. */
static bool sc_value(Scan *c, int depth)
{
    if (depth > 1000) return false;
    sc_ws(c);
    if (c->i >= c->len) return false;
    char ch = c->s[c->i];
    if (ch == '"') return sc_string(c);
    if (ch == '{' || ch == '[') {
        char close = ch == '{' ? '}' : ']';
        c->i++;
        sc_ws(c);
        if (c->i < c->len && c->s[c->i] == close) {
            c->i++;
            return true;
        }
        for (;;) {
            if (ch == '{') {
                sc_ws(c);
                if (!sc_string(c)) return false;
                sc_ws(c);
                if (c->i >= c->len || c->s[c->i] != ':') return false;
                c->i++;
            }
            if (!sc_value(c, depth + 1)) return false;
            sc_ws(c);
            if (c->i >= c->len) return false;
            if (c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (c->s[c->i] == close) {
                c->i++;
                return true;
            }
            return false;
        }
    }
    /* number, true, false, null */
    while (c->i < c->len && !strchr(",]} \t\r\n", c->s[c->i])) c->i++;
    return true;
}

bool jsonpos_locate(const char *text, size_t len, const JsonPath *p, bool want_key, size_t *off)
{
    Scan c = { text, len, 0 };
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) c.i = 3;
    sc_ws(&c);
    int n = p->n < JSONPOS_MAX_DEPTH ? p->n : JSONPOS_MAX_DEPTH;
    for (int k = 0; k < n; k++) {
        if (c.i >= len) return false;
        char open = text[c.i];
        bool obj = open == '{';
        if (!obj && open != '[') return false;
        c.i++;
        for (uint32_t m = 0;; m++) {
            sc_ws(&c);
            if (c.i >= len || text[c.i] == '}' || text[c.i] == ']') return false;
            size_t key_at = c.i;
            if (obj) {
                if (!sc_string(&c)) return false;
                sc_ws(&c);
                if (c.i >= len || text[c.i] != ':') return false;
                c.i++;
                sc_ws(&c);
            }
            if (m == p->step[k].index) {
                if (obj && want_key && k == n - 1) {
                    *off = key_at;
                    return true;
                }
                break;
            }
            if (!sc_value(&c, 0)) return false;
            sc_ws(&c);
            if (c.i >= len || text[c.i] != ',') return false;
            c.i++;
        }
    }
    *off = c.i;
    return true;
}

size_t jsonpos_string_offset(const char *text, size_t len, size_t off, size_t k)
{
    size_t i = off + 1, decoded = 0;
    while (i < len && text[i] != '"' && decoded < k) {
        if (text[i] == '\\' && i + 1 < len) {
            i += text[i + 1] == 'u' ? 6 : 2;
            decoded++; /* approximate: an escaped character counts as one */
        } else {
            i++;
            decoded++;
        }
    }
    return i;
}

void jsonpos_line_col(const char *text, size_t len, size_t off, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1, c = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

size_t jsonpos_open_string(const char *text, size_t len)
{
    bool in = false;
    size_t at = len;
    for (size_t i = 0; i < len; i++) {
        if (in && text[i] == '\\') i++;
        else if (text[i] == '"') {
            in = !in;
            at = i;
        }
    }
    return in ? at : len;
}

size_t jsonpos_find_nul_escape(const char *text, size_t len)
{
    bool in = false;
    for (size_t i = 0; i < len; i++) {
        if (!in) {
            in = text[i] == '"';
        } else if (text[i] == '"') {
            in = false;
        } else if (text[i] == '\\' && i + 1 < len) {
            if (text[i + 1] == 'u' && i + 6 <= len && memcmp(text + i + 2, "0000", 4) == 0) return i;
            i++; /* the escaped character (a quote or a backslash among them) */
        }
    }
    return len;
}

unsigned jsonpos_depth_at(const char *text, size_t len, size_t off)
{
    unsigned depth = 0;
    bool in = false;
    for (size_t i = 0; i < off && i < len; i++) {
        char c = text[i];
        if (in) {
            if (c == '\\') i++;
            else if (c == '"') in = false;
        } else if (c == '"') {
            in = true;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return depth;
}

size_t jsonpos_find_bad_utf8(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) n = 1;
        else if (c == 0xE0) n = 2, lo = 0xA0;
        else if (c == 0xED) n = 2, hi = 0x9F;          /* no UTF-16 surrogates */
        else if (c >= 0xE1 && c <= 0xEF) n = 2;
        else if (c == 0xF0) n = 3, lo = 0x90;
        else if (c >= 0xF1 && c <= 0xF3) n = 3;
        else if (c == 0xF4) n = 3, hi = 0x8F;          /* nothing past U+10FFFF */
        else return i;
        if (i + n >= len) return i; /* cut short by the end of the text */
        if (s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k <= n; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
        i += n + 1;
    }
    return len;
}
