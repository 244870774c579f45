/* workloads/run.c -- a loaded variant's run, before and after the caller
** simulates it (see run.h): the initial contents of buffers (zeros,
** constant, iota, and random from a counter-based splitmix64 stream, so any
** slice can be made alone), fresh buffers and kernel arguments, the checks'
** expected contents from the CPU references, and the comparison with what
** the kernel left, whole or, for elementwise references, piece by piece.
** Nothing here validates the file: workload_load already checked every
** size and signature, and dry-ran each reference. */
#include "workloads/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/reference.h"

/* ================================================================ initial contents */

uint64_t workload_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void workload_fill(const WlBuffer *b, void *dst) { workload_fill_range(b, 0, b->count, dst); }

void workload_fill_range(const WlBuffer *b, uint64_t first, uint64_t count, void *dst)
{
    const WlInit *in = &b->init;
    float *f = dst;
    uint32_t *u = dst;
    switch (in->kind) {
    case WL_INIT_ZEROS:
        memset(dst, 0, count * 4);
        return;
    case WL_INIT_CONSTANT:
        for (uint64_t j = 0; j < count; j++) {
            if (b->type == WL_F32) f[j] = (float)in->x0;
            else u[j] = (uint32_t)in->i0;
        }
        return;
    case WL_INIT_IOTA:
        for (uint64_t j = 0; j < count; j++) {
            uint64_t k = first + j;
            if (b->type == WL_F32) f[j] = (float)fma((double)k, in->x1, in->x0);
            else u[j] = (uint32_t)(in->i0 + (int64_t)k * in->i1);
        }
        return;
    case WL_INIT_NPY:
        memcpy(dst, (const uint32_t *)in->data + first, count * 4);
        return;
    case WL_INIT_RANDOM: {
        /* element k is output k+1 of splitmix64 seeded with seed: the state
        ** only advances by a constant, so any element can be made alone */
        uint64_t state = in->seed + first * 0x9E3779B97F4A7C15ull;
        for (uint64_t j = 0; j < count; j++) {
            uint64_t r = workload_splitmix64(&state);
            if (b->type == WL_F32) {
                double unit = (double)(r >> 40) * 0x1p-24; /* 24 random bits: [0, 1) */
                f[j] = (float)fma(in->x1 - in->x0, unit, in->x0);
            } else {
                uint64_t range = (uint64_t)(in->i1 - in->i0) + 1;
                u[j] = (uint32_t)(in->i0 + (int64_t)(r % range));
            }
        }
        return;
    }
    }
}

/* ================================================================ prepare */

void workload_run_free(WlRun *r)
{
    if (!r) return;
    gmem_destroy(r->gmem);
    free(r->addrs);
    free(r->params);
    for (uint32_t i = 0; i < r->nchecks; i++) free(r->expected[i]);
    free(r->expected);
    free(r->other);
    memset(r, 0, sizeof *r);
}

bool workload_prepare(const Workload *w, const WlVariant *v, WlRun *r, Diag *d)
{
    memset(r, 0, sizeof *r);
    r->gmem = gmem_create();
    r->addrs = calloc(w->nbuffers ? w->nbuffers : 1, sizeof *r->addrs);
    r->expected = calloc(v->nchecks ? v->nchecks : 1, sizeof *r->expected);
    r->other = calloc(v->nchecks ? v->nchecks : 1, sizeof *r->other);
    r->params = calloc(v->nlaunches, sizeof *r->params);
    void **data = calloc(w->nbuffers ? w->nbuffers : 1, sizeof *data);
    if (!r->gmem || !r->addrs || !r->expected || !r->other || !r->params || !data) {
        diag_set(d, w->path, 0, 0, "out of host memory");
        free(data);
        workload_run_free(r);
        return false;
    }
    for (uint32_t i = 0; i < w->nbuffers; i++) {
        const WlBuffer *b = &w->buffers[i];
        r->addrs[i] = gmem_alloc(r->gmem, b->count * 4, b->name, d);
        if (!r->addrs[i]) {
            char m[sizeof d->message];
            snprintf(m, sizeof m, "%s", d->message);
            diag_set(d, w->path, 0, 0, "%s", m);
            free(data);
            workload_run_free(r);
            return false;
        }
        data[i] = gmem_translate(r->gmem, r->addrs[i], (uint32_t)(b->count * 4));
        workload_fill(b, data[i]);
    }
    for (uint32_t i = 0; i < w->program.nvars; i++) { /* PTX module variables, where the kernels look */
        const ProgramVar *pv = &w->program.vars[i];
        if (!gmem_alloc_at(r->gmem, pv->addr, pv->size, pv->name, d)) {
            char m[sizeof d->message];
            snprintf(m, sizeof m, "%s", d->message);
            diag_set(d, w->path, 0, 0, "%s", m);
            free(data);
            workload_run_free(r);
            return false;
        }
        if (pv->init) memcpy(gmem_translate(r->gmem, pv->addr, pv->size), pv->init, pv->size);
    }
    for (uint32_t k = 0; k < v->nlaunches; k++) {
        const WlLaunch *l = &v->launches[k];
        for (uint32_t i = 0; i < l->kernel->nparams; i++) { /* into the param space at each one's offset */
            const KernelParam *p = &l->kernel->params[i];
            uint64_t val = l->args[i].kind == REF_ARG_BUFFER ? r->addrs[l->args[i].buffer] : l->args[i].bits;
            uint32_t wd = p->offset / 4, sh = 8 * (p->offset % 4);
            if (p->size >= 4) r->params[k][wd] = (uint32_t)val;
            if (p->size == 8) r->params[k][wd + 1] = (uint32_t)(val >> 32);
            if (p->size < 4) {
                uint32_t mask = (p->size == 1 ? 0xffu : 0xffffu) << sh;
                r->params[k][wd] = (r->params[k][wd] & ~mask) | (((uint32_t)val << sh) & mask);
            }
        }
    }
    RefArg ra[ISA_MAX_PARAMS];
    for (uint32_t i = 0; i < v->nchecks; i++) {
        const WlCheck *ck = &v->checks[i];
        const WlBuffer *b = &w->buffers[ck->buffer];
        RefCall call = workload_ref_call(w, &v->launches[ck->launch], data, ra);
        r->nchecks = i + 1;
        if (ck->kind != WL_CHECK_REFERENCE || ck->ref->points) continue; /* not computed, or piecewise */
        r->expected[i] = malloc(b->count * 4);
        if (!r->expected[i]) {
            diag_set(d, w->path, 0, 0, "out of host memory for the expected contents of '%s'", b->name);
            free(data);
            workload_run_free(r);
            return false;
        }
        memcpy(r->expected[i], data[ck->buffer], b->count * 4);
        char msg[256] = "";
        if (!ck->ref->fn(&call, r->expected[i], msg, sizeof msg)) {
            diag_set(d, w->path, 0, 0, "variant '%s': reference '%s': %s", v->name, ck->ref->name, msg);
            free(data);
            workload_run_free(r);
            return false;
        }
    }
    free(data);
    return true;
}

/* ================================================================ compare */

/* Compares got[0..count) with exp[0..count), elements first.. of c's buffer,
** adding to *out's mismatch count and first mismatch. */
static void compare_range(const WlCheck *c, WlType type, const void *got, const void *exp, uint64_t first,
                          uint64_t count, WlCheckResult *out)
{
    for (uint64_t j = 0; j < count; j++) {
        double e, g;
        bool ok;
        if (type == WL_F32) {
            float fe, fg;
            memcpy(&fe, (const char *)exp + j * 4, 4);
            memcpy(&fg, (const char *)got + j * 4, 4);
            e = fe;
            g = fg;
            ok = (isnan(fe) && isnan(fg)) || fe == fg || fabs(g - e) <= c->atol + c->rtol * fabs(e);
        } else {
            uint32_t ue, ug;
            memcpy(&ue, (const char *)exp + j * 4, 4);
            memcpy(&ug, (const char *)got + j * 4, 4);
            e = type == WL_S32 ? (double)(int32_t)ue : (double)ue;
            g = type == WL_S32 ? (double)(int32_t)ug : (double)ug;
            ok = fabs(g - e) <= c->atol;
        }
        if (!ok) {
            if (out->mismatches == 0) {
                out->first_bad = first + j;
                out->expected = e;
                out->got = g;
            }
            out->mismatches++;
        }
    }
}

/* Elements per piece of an elementwise check: a few MiB of scratch per
** buffer argument, whatever the buffers' size. */
#define COMPARE_PIECE (1u << 18)

/* An elementwise check, piece by piece: each buffer argument's initial
** contents are made again for the piece, the reference computes the piece,
** and it is compared with what the kernel left. False when out of memory. */
static bool compare_pointwise(const Workload *w, const WlVariant *var, const WlCheck *c, const WlRun *r,
                              WlCheckResult *out)
{
    const WlLaunch *v = &var->launches[c->launch];
    const WlBuffer *ob = &w->buffers[c->buffer];
    const uint8_t *got = gmem_translate(r->gmem, r->addrs[c->buffer], (uint32_t)(ob->count * 4));
    uint64_t piece = ob->count < COMPARE_PIECE ? ob->count : COMPARE_PIECE;
    void *scratch[ISA_MAX_PARAMS] = { 0 };
    void *exp = malloc(piece * 4 + 4);
    bool ok = exp != NULL;
    for (uint32_t i = 0; ok && i < v->kernel->nparams; i++)
        if (v->args[i].kind == REF_ARG_BUFFER) ok = (scratch[i] = malloc(piece * 4 + 4)) != NULL;
    RefArg ra[ISA_MAX_PARAMS];
    RefCall call = workload_ref_call(w, v, NULL, ra);
    for (uint64_t first = 0; ok && first < ob->count; first += piece) {
        uint64_t count = ob->count - first < piece ? ob->count - first : piece;
        for (uint32_t i = 0; i < v->kernel->nparams; i++) {
            if (v->args[i].kind != REF_ARG_BUFFER) continue;
            const WlBuffer *ib = &w->buffers[v->args[i].buffer];
            /* an argument shorter than the output: the reference reads only
            ** elements below its n, which the size checks bound by it */
            uint64_t have = ib->count > first ? ib->count - first : 0;
            workload_fill_range(ib, first, have < count ? have : count, scratch[i]);
            ra[i].data = scratch[i];
        }
        workload_fill_range(ob, first, count, exp);
        c->ref->points(&call, first, count, exp);
        compare_range(c, ob->type, got + first * 4, exp, first, count, out);
    }
    for (uint32_t i = 0; i < v->kernel->nparams; i++) free(scratch[i]);
    free(exp);
    return ok;
}

void workload_compare(const Workload *w, const WlVariant *v, uint32_t ck, const WlRun *r, WlCheckResult *out)
{
    const WlCheck *c = &v->checks[ck];
    const WlBuffer *b = &w->buffers[c->buffer];
    memset(out, 0, sizeof *out);
    const void *got = gmem_translate(r->gmem, r->addrs[c->buffer], (uint32_t)(b->count * 4));
    char what[WL_MAX_VARIANT_NAME + 64];
    if (c->kind == WL_CHECK_SAME_AS) {
        const char *other = w->variants[c->variant].name;
        snprintf(what, sizeof what, "same as '%s'", other);
        if (!r->other[ck]) {
            snprintf(out->text, sizeof out->text, "%s is not known: variant '%s' did not finish", b->name, other);
            return;
        }
        compare_range(c, b->type, got, r->other[ck], 0, b->count, out);
    } else if (c->kind == WL_CHECK_EXPECT) {
        snprintf(what, sizeof what, "expected in %s", c->file);
        compare_range(c, b->type, got, c->expect, 0, b->count, out);
    } else if (!r->expected[ck]) {
        snprintf(what, sizeof what, "reference '%s'", c->ref->name);
        if (!compare_pointwise(w, v, c, r, out)) {
            snprintf(out->text, sizeof out->text, "out of host memory for checking '%s'", b->name);
            return;
        }
    } else {
        snprintf(what, sizeof what, "reference '%s'", c->ref->name);
        compare_range(c, b->type, got, r->expected[ck], 0, b->count, out);
    }
    out->pass = out->mismatches == 0;
    if (out->pass)
        snprintf(out->text, sizeof out->text, "pass");
    else
        snprintf(out->text, sizeof out->text, "%s[%llu]: expected %.9g, got %.9g (%llu of %llu elements differ, %s)",
                 b->name, (unsigned long long)out->first_bad, out->expected, out->got,
                 (unsigned long long)out->mismatches, (unsigned long long)b->count, what);
}
