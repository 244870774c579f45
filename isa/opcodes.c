/* isa/opcodes.c -- the info table generated from isa/opcodes.def, and the
** lookups the front ends make in it. */
#include "isa/opcodes.h"

#include <string.h>

const OpInfo OP_INFO[OP_COUNT] = {
#define OP(name, mn, fmt, unit, space, type, flops, mods, atoms, flags, sem) \
    { mn, fmt, unit, space, type, flops, mods, atoms, flags, sem },
#include "isa/opcodes.def"
#undef OP
};

const char *const CMP_NAMES[CMP_COUNT] = { "eq", "ne", "lt", "le", "gt", "ge" };
const char *const SHFL_NAMES[SHFL_COUNT] = { "idx", "up", "down", "bfly" };
const char *const ATOM_NAMES[ATOM_COUNT] = { "add", "min", "max", "exch", "cas" };
const char *const TYPE_NAMES[TYPE_COUNT] = { "", "b32", "u32", "s32", "f32" };
const char *const UNIT_NAMES[UNIT_COUNT] = { "alu", "fma", "sfu", "div", "lsu", "mio", "ctrl" };

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
