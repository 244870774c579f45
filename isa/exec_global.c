/* isa/exec_global.c -- global accesses done apart from their issue: what
** exec_step leaves to the caller when ExecBlock.defer_global is set (a launch
** on several host threads applies every SM's accesses at once, in a fixed
** order), and the atomic operations both share. The lane semantics are those
** of exec.c's cases: lanes in order, so the highest lane wins a same-address
** store and atomics on one address are serialised.                        */
#include "isa/exec.h"

#include <string.h>


uint32_t exec_atom_apply(AtomOp op, ValueType type, uint32_t old, uint32_t v, uint32_t cmpv)
{
    switch (op) {
    case ATOM_ADD: return type == TYPE_F32 ? bits_of_f32(bits_f32(old) + bits_f32(v)) : old + v;
    case ATOM_MIN: return type == TYPE_S32 ? ((int32_t)v < (int32_t)old ? v : old) : (v < old ? v : old);
    case ATOM_MAX: return type == TYPE_S32 ? ((int32_t)v > (int32_t)old ? v : old) : (v > old ? v : old);
    case ATOM_EXCH: return v;
    case ATOM_CAS: return old == cmpv ? v : old;
    case ATOM_AND: return old & v;
    case ATOM_OR: return old | v;
    case ATOM_XOR: return old ^ v;
    case ATOM_INC: return old >= v ? 0 : old + 1;
    case ATOM_DEC: return old == 0 || old > v ? v : old - 1;
    case ATOM_COUNT: break;
    }
    return old;
}

uint64_t exec_atom_apply64(AtomOp op, ValueType type, uint64_t old, uint64_t v, uint64_t cmpv)
{
    bool sign = type == TYPE_S64;
    switch (op) {
    case ATOM_ADD:
        if (type == TYPE_F64) {
            double x, y;
            memcpy(&x, &old, 8);
            memcpy(&y, &v, 8);
            x += y;
            memcpy(&old, &x, 8);
            return old;
        }
        return old + v;
    case ATOM_MIN: return sign ? ((int64_t)v < (int64_t)old ? v : old) : (v < old ? v : old);
    case ATOM_MAX: return sign ? ((int64_t)v > (int64_t)old ? v : old) : (v > old ? v : old);
    case ATOM_EXCH: return v;
    case ATOM_CAS: return old == cmpv ? v : old;
    case ATOM_AND: return old & v;
    case ATOM_OR: return old | v;
    case ATOM_XOR: return old ^ v;
    case ATOM_INC: case ATOM_DEC: case ATOM_COUNT: break; /* 32-bit only in PTX */
    }
    return old;
}

void exec_global_apply(const Kernel *k, uint32_t (*r)[WARP_SIZE], uint32_t pc, uint32_t mask,
                       uint8_t *const ptr[WARP_SIZE], const uint32_t data[4][WARP_SIZE])
{
    const Instr *in = &k->code[pc];
    const OpInfo *info = &OP_INFO[in->op];
    uint32_t n = in->op == OP_LD_GLOBAL_SUB || in->op == OP_ST_GLOBAL_SUB ? type_bytes((ValueType)in->type) : 4;
    switch ((Opcode)in->op) {
    case OP_LD_GLOBAL_SUB: {
        bool sign = type_signed((ValueType)in->type);
        for (uint32_t e = 0; r && e < in->vec; e++)
            for (int l = 0; l < WARP_SIZE; l++) {
                if (!(mask >> l & 1)) continue;
                const uint8_t *q = ptr[l] + n * e;
                uint32_t v = n == 1 ? q[0] : (uint32_t)q[0] | (uint32_t)q[1] << 8;
                if (sign) v = n == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
                r[in->dst[e].index][l] = v;
            }
        return;
    }
    case OP_ST_GLOBAL_SUB:
        for (uint32_t e = 0; e < in->vec; e++)
            for (int l = 0; l < WARP_SIZE; l++)
                if (mask >> l & 1) {
                    ptr[l][n * e] = (uint8_t)data[e][l];
                    if (n == 2) ptr[l][n * e + 1] = (uint8_t)(data[e][l] >> 8);
                }
        return;
    case OP_LD_GLOBAL:
    case OP_LD_GENERIC:
        for (uint32_t e = 0; r && e < in->vec; e++)
            for (int l = 0; l < WARP_SIZE; l++)
                if (mask >> l & 1) memcpy(&r[in->dst[e].index][l], ptr[l] + 4 * e, 4);
        return;
    case OP_ST_GLOBAL:
    case OP_ST_GENERIC:
        for (uint32_t e = 0; e < in->vec; e++)
            for (int l = 0; l < WARP_SIZE; l++)
                if (mask >> l & 1) memcpy(ptr[l] + 4 * e, &data[e][l], 4);
        return;
    case OP_ATOM_GLOBAL_U64:
    case OP_ATOM_GENERIC_U64: {
        ValueType t = (ValueType)in->type;
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!(mask >> l & 1)) continue;
            uint64_t old, v = (uint64_t)data[1][l] << 32 | data[0][l], c = (uint64_t)data[3][l] << 32 | data[2][l];
            memcpy(&old, ptr[l], 8);
            uint64_t nv = in->mod == ATOM_CAS ? exec_atom_apply64(ATOM_CAS, t, old, c, v)
                                              : exec_atom_apply64((AtomOp)in->mod, t, old, v, 0);
            memcpy(ptr[l], &nv, 8);
            if (r) r[in->dst[0].index][l] = (uint32_t)old, r[in->dst[0].index + 1][l] = (uint32_t)(old >> 32);
        }
        return;
    }
    case OP_ATOM_GLOBAL_U32:
    case OP_ATOM_GLOBAL_S32:
    case OP_ATOM_GLOBAL_F32:
    case OP_ATOM_GENERIC_U32:
    case OP_ATOM_GENERIC_S32:
    case OP_ATOM_GENERIC_F32:
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!(mask >> l & 1)) continue;
            uint32_t old;
            memcpy(&old, ptr[l], 4);
            uint32_t nv = in->mod == ATOM_CAS ? exec_atom_apply(ATOM_CAS, info->type, old, data[1][l], data[0][l])
                                              : exec_atom_apply((AtomOp)in->mod, info->type, old, data[0][l], 0);
            memcpy(ptr[l], &nv, 4);
            if (r) r[in->dst[0].index][l] = old;
        }
        return;
    case OP_ATOM_GLOBAL_HALF:
    case OP_ATOM_GENERIC_HALF:
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!(mask >> l & 1)) continue;
            uint32_t old = 0, width = 2u * in->sub;
            memcpy(&old, ptr[l], width);
            uint32_t nv = exec_half_atom(in, old, data[0][l], data[1][l]);
            memcpy(ptr[l], &nv, width);
            if (r) r[in->dst[0].index][l] = old;
        }
        return;
    default:
        return; /* not a global access: exec_step defers none */
    }
}
