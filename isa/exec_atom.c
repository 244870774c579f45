/* isa/exec_atom.c -- the atomic operations (atom, red) on global, shared
** and generic addresses: 32-bit, 64-bit, and half precision (add on .f16,
** .bf16 and their x2 pairs). The lanes are applied one after another in
** lane order, each receiving the value before its own operation; a global
** access under several host threads is left to exec_global_apply, with its
** operands in out->data. Part of the exec module (isa/exec.h). */
#include "isa/exec.h"

#include <string.h>

static bool atom32(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    const OpInfo *info = &OP_INFO[in->op];
    uint8_t *ptr[WARP_SIZE];
    if (!exec_mem_lanes(b, w, in, m, 4, out, ptr)) return false;
    uint32_t tb[WARP_SIZE], tc[WARP_SIZE];
    const uint32_t *B = exec_row(w, &in->src[1], tb);
    const uint32_t *C = in->mod == ATOM_CAS ? exec_row(w, &in->src[2], tc) : tb;
    uint32_t *D = w->r[in->dst[0].index];
    if (out->deferred) {
        memcpy(out->data[0], B, sizeof out->data[0]);
        memcpy(out->data[1], C, sizeof out->data[1]);
        return true;
    }
    for (int l = 0; l < WARP_SIZE; l++) { /* serialised in lane order */
        if (!(m >> l & 1)) continue;
        uint32_t old;
        memcpy(&old, ptr[l], 4);
        uint32_t nv = in->mod == ATOM_CAS ? exec_atom_apply(ATOM_CAS, info->type, old, C[l], B[l])
                                          : exec_atom_apply((AtomOp)in->mod, info->type, old, B[l], 0);
        memcpy(ptr[l], &nv, 4);
        D[l] = old;
    }
    return true;
}

static bool atom64(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    uint8_t *ptr[WARP_SIZE];
    if (!exec_mem_lanes(b, w, in, m, 8, out, ptr)) return false;
    ValueType t = (ValueType)in->type;
    const Operand *ob = &in->src[1], *oc = &in->src[2];
    uint32_t *Dlo = w->r[in->dst[0].index], *Dhi = w->r[in->dst[0].index + 1];
    for (int l = 0; l < WARP_SIZE; l++) { /* serialised in lane order */
        if (!(m >> l & 1)) continue;
        uint64_t old, v, c = 0;
        v = exec_lane64(b, w, ob, (uint32_t)l);
        if (in->mod == ATOM_CAS) c = exec_lane64(b, w, oc, (uint32_t)l);
        if (out->deferred) {
            out->data[0][l] = (uint32_t)v, out->data[1][l] = (uint32_t)(v >> 32);
            out->data[2][l] = (uint32_t)c, out->data[3][l] = (uint32_t)(c >> 32);
            continue;
        }
        memcpy(&old, ptr[l], 8);
        uint64_t nv = in->mod == ATOM_CAS ? exec_atom_apply64(ATOM_CAS, t, old, c, v)
                                          : exec_atom_apply64((AtomOp)in->mod, t, old, v, 0);
        memcpy(ptr[l], &nv, 8);
        Dlo[l] = (uint32_t)old;
        Dhi[l] = (uint32_t)(old >> 32);
    }
    return true;
}

/* atom.add.noftz on .f16/.bf16 (2 bytes) and their x2 pairs (4): each half
** added in its type, rounded once to nearest even; atom.cas.b16. */
static bool atom_half(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    const uint32_t width = 2u * in->sub;
    uint8_t *ptr[WARP_SIZE];
    if (!exec_mem_lanes(b, w, in, m, width, out, ptr)) return false;
    uint32_t tb[WARP_SIZE], tc[WARP_SIZE];
    const uint32_t *B = exec_row(w, &in->src[1], tb);
    const uint32_t *C = in->mod == ATOM_CAS ? exec_row(w, &in->src[2], tc) : B;
    if (out->deferred) {
        memcpy(out->data[0], B, sizeof out->data[0]);
        memcpy(out->data[1], C, sizeof out->data[1]);
        return true;
    }
    uint32_t *D = w->r[in->dst[0].index];
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint32_t old = 0;
        memcpy(&old, ptr[l], width);
        uint32_t nv = exec_half_atom(in, old, B[l], C[l]);
        memcpy(ptr[l], &nv, width);
        D[l] = old;
    }
    return true;
}

bool exec_atomic(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    switch ((Opcode)in->op) {
    case OP_ATOM_GLOBAL_U64:
    case OP_ATOM_SHARED_U64:
    case OP_ATOM_GENERIC_U64: return atom64(b, w, in, m, out);
    case OP_ATOM_GLOBAL_HALF:
    case OP_ATOM_SHARED_HALF:
    case OP_ATOM_GENERIC_HALF: return atom_half(b, w, in, m, out);
    default: return atom32(b, w, in, m, out);
    }
}
