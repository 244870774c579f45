/* isa/ptx_names.c -- kernel names: the demangled signature of an Itanium
** C++ name (Debian's libiberty, cplus_demangle, where built in) and the
** bare function name a workload may give (from the signature, or read off
** the mangled name itself when there is no demangler). */
#include "isa/ptx_int.h"

#ifdef GPUSIM_HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif
#include <ctype.h>
#include <string.h>


bool ptx_bare_name(const char *mangled, const char *signature, char *buf, size_t cap)
{
    if (signature) {
        /* "ns::f<int>(float*, int)" or "void f<4>(...)": the last name before
        ** the top-level '(', without template arguments or a return type */
        const char *s = signature, *paren = NULL;
        int depth = 0;
        for (const char *c = s; *c; c++) {
            if (*c == '<') depth++;
            else if (*c == '>') depth--;
            else if (*c == '(' && depth == 0) {
                if (!strncmp(c, "(anonymous namespace)", 21)) {
                    c += 20;
                    continue;
                }
                paren = c;
                break;
            }
        }
        if (paren) {
            const char *e = paren;
            if (e > s && e[-1] == '>') { /* drop template arguments */
                int dd = 0;
                while (e > s) {
                    e--;
                    if (*e == '>') dd++;
                    else if (*e == '<' && --dd == 0) break;
                }
            }
            const char *b = e;
            while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_' || b[-1] == '~')) b--;
            size_t n = (size_t)(e - b);
            if (n && n < cap) {
                memcpy(buf, b, n);
                buf[n] = 0;
                return true;
            }
        }
    }
    /* _Z<len><name>... or _ZN<len><name>...<len><name>E...: the last name */
    if (strncmp(mangled, "_Z", 2) != 0) return false;
    const char *p = mangled + 2, *best = NULL;
    size_t bestn = 0;
    bool nested = *p == 'N';
    if (nested) p++;
    do {
        while (*p && !isdigit((unsigned char)*p) && nested && *p != 'E') p++; /* qualifiers, template args skipped */
        if (!isdigit((unsigned char)*p)) break;
        size_t n = 0;
        while (isdigit((unsigned char)*p) && n < 100000) n = n * 10 + (size_t)(*p++ - '0');
        if (strlen(p) < n) return false;
        best = p;
        bestn = n;
        p += n;
    } while (nested && *p && *p != 'E');
    if (!best || bestn == 0 || bestn >= cap) return false;
    memcpy(buf, best, bestn);
    buf[bestn] = 0;
    return true;
}

char *ptx_demangle(const char *mangled)
{
#ifdef GPUSIM_HAVE_LIBIBERTY
    if (strncmp(mangled, "_Z", 2) != 0) return NULL;
    return cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI);
#else
    (void)mangled;
    return NULL;
#endif
}

bool ptx_can_demangle(void)
{
#ifdef GPUSIM_HAVE_LIBIBERTY
    return true;
#else
    return false;
#endif
}
