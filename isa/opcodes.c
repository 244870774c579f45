/* isa/opcodes.c -- the info table generated from isa/opcodes.def, and the
** lookups the front ends make in it. */
#include "isa/opcodes.h"

#include <string.h>

const OpInfo OP_INFO[OP_COUNT] = {
#define LOW(n, unit, lat) { n, UNIT_##unit, UNIT_##lat }
#define OP(name, mn, fmt, unit, space, type, flops, mods, atoms, flags, wide, lower, sem) \
    { mn, fmt, unit, space, type, flops, mods, atoms, flags, wide, lower, sem },
#define PTXALU OP
#include "isa/opcodes.def"
#undef PTXALU
#undef OP
#undef LOW
};

const char *const CMP_NAMES[CMP_COUNT] = { "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                           "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
const char *const SHFL_NAMES[SHFL_COUNT] = { "idx", "up", "down", "bfly" };
const char *const ATOM_NAMES[ATOM_COUNT] = { "add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec" };
const char *const TYPE_NAMES[TYPE_COUNT] = { "",   "b32", "u32", "s32", "f32", "b64", "u64", "s64",
                                             "b8", "u8",  "s8",  "b16", "u16", "s16", "f64", "f16", "bf16" };

uint32_t type_bytes(ValueType t)
{
    switch (t) {
    case TYPE_B8: case TYPE_U8: case TYPE_S8: return 1;
    case TYPE_B16: case TYPE_U16: case TYPE_S16: case TYPE_F16: case TYPE_BF16: return 2;
    case TYPE_B32: case TYPE_U32: case TYPE_S32: case TYPE_F32: return 4;
    case TYPE_B64: case TYPE_U64: case TYPE_S64: case TYPE_F64: return 8;
    case TYPE_NONE: case TYPE_COUNT: break;
    }
    return 0;
}
const char *const UNIT_NAMES[UNIT_COUNT] = { "alu", "fma", "sfu", "div", "lsu", "mio", "ctrl", "fp64" };

Opcode opcode_lookup(const char *mnemonic, uint32_t len)
{
    /* ~80 entries, looked up once per source line: a linear scan is enough. */
    for (int i = 0; i < OP_COUNT; i++) {
        const char *m = OP_INFO[i].mnemonic;
        if (strlen(m) == len && memcmp(m, mnemonic, len) == 0) return (Opcode)i;
    }
    return OP_COUNT;
}

uint32_t opcode_head_mods(const char *head, uint32_t len)
{
    uint32_t mods = 0;
    for (int i = 0; i < OP_COUNT; i++) {
        const char *m = OP_INFO[i].mnemonic;
        if (strncmp(m, head, len) == 0 && (m[len] == '.' || m[len] == 0)) mods |= OP_INFO[i].mods;
    }
    return mods;
}
