/* tests/check_opcodes.c -- the opcode table (isa/opcodes.def) and its
** manual: the columns of each row against each other (memory space,
** atomics, flops, types, modifiers), and isa/ISA.md against the table
** (every mnemonic documented with the row's semantics, the flop counts,
** every `asm` code block assembles at the offsets it states).            */
#include "isa/asm.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "tests/asm_helpers.h"

#define ISA_MD TESTS_DIR "/../isa/ISA.md"

/* ------------------------------------------------------------------ ISA.md */

/* Every opcode has a row "| `mnemonic` | ... | unit | semantics |" whose
** unit and semantics are those of isa/opcodes.def ('|' escaped as '\|'). */
START_TEST(test_isa_md_lists_every_mnemonic)
{
    char *md = read_text(ISA_MD, NULL);
    for (int op = 0; op < OP_COUNT; op++) {
        if (OP_INFO[op].flags & OPF_PTX) continue; /* docs/PTX.md lists them (tests/check_ptx.c) */
        char key[64];
        snprintf(key, sizeof key, "\n| `%s` |", OP_INFO[op].mnemonic);
        const char *row = strstr(md, key);
        ck_assert_msg(row != NULL, "isa/ISA.md has no table row for %s", OP_INFO[op].mnemonic);
        row++;
        const char *eol = strchr(row, '\n');
        size_t n = eol ? (size_t)(eol - row) : strlen(row);
        char line[1024], plain[1024];
        ck_assert_uint_lt(n, sizeof line);
        memcpy(line, row, n);
        line[n] = 0;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!(line[i] == '\\' && line[i + 1] == '|')) plain[m++] = line[i];
        plain[m] = 0;
        char unit[32];
        snprintf(unit, sizeof unit, "| %s |", UNIT_NAMES[OP_INFO[op].unit]);
        ck_assert_msg(strstr(line, unit) != NULL, "ISA.md row of %s does not name unit %s", OP_INFO[op].mnemonic,
                      UNIT_NAMES[OP_INFO[op].unit]);
        ck_assert_msg(strstr(plain, OP_INFO[op].semantics) != NULL,
                      "ISA.md row of %s does not carry the semantics of opcodes.def: \"%s\"", OP_INFO[op].mnemonic,
                      OP_INFO[op].semantics);
    }
    free(md);
}
END_TEST

/* The FP32 work that ISA.md states is the flops column: "1 for `add.f32`
** `sub.f32` `mul.f32`; 2 for `fma.rn.f32` `mad.f32`; none for the others". */
START_TEST(test_isa_md_states_flops)
{
    char *md = read_text(ISA_MD, NULL);
    for (char *c = md; *c; c++)
        if (*c == '\n') *c = ' ';
    char want[512] = "";
    size_t len = 0;
    for (uint32_t f = 1; f <= 2; f++) {
        len += (size_t)snprintf(want + len, sizeof want - len, "%u for", f);
        for (int op = 0; op < OP_COUNT; op++)
            if (OP_INFO[op].flops == f) len += (size_t)snprintf(want + len, sizeof want - len, " `%s`", OP_INFO[op].mnemonic);
        len += (size_t)snprintf(want + len, sizeof want - len, "; ");
    }
    snprintf(want + len, sizeof want - len, "none for the others");
    ck_assert_msg(strstr(md, want) != NULL, "isa/ISA.md does not say \"%s\"", want);
    free(md);
}
END_TEST

/* Each ```asm block of ISA.md, preceded by as many newlines as lines before
** it, so that errors name the line of ISA.md. */
static uint32_t md_asm_blocks(const char *md, char **blocks, uint32_t cap)
{
    uint32_t n = 0, line = 1;
    const char *p = md;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len == 6 && memcmp(p, "```asm", 6) == 0 && n < cap) {
            const char *body = eol ? eol + 1 : p + len;
            const char *end = strstr(body, "\n```");
            ck_assert_msg(end != NULL, "unclosed ```asm block at ISA.md:%u", line);
            size_t blen = (size_t)(end - body) + 1;
            char *b = malloc(line + blen + 1);
            ck_assert_ptr_nonnull(b);
            memset(b, '\n', line);
            memcpy(b + line, body, blen);
            b[line + blen] = 0;
            blocks[n++] = b;
        }
        if (!eol) break;
        p = eol + 1;
        line++;
    }
    return n;
}

START_TEST(test_isa_md_examples_assemble)
{
    char *md = read_text(ISA_MD, NULL);
    char *blocks[32];
    uint32_t n = md_asm_blocks(md, blocks, 32);
    ck_assert_uint_ge(n, 4);
    bool have[3] = { false };
    for (uint32_t i = 0; i < n; i++) {
        Program p;
        Diag d;
        bool ok = asm_parse(blocks[i], strlen(blocks[i]), "isa/ISA.md", &p, &d);
        ck_assert_msg(ok, "isa/ISA.md:%u:%u: %s", d.line, d.col, d.message);
        have[0] |= program_find_kernel(&p, "collatz") != NULL;
        have[1] |= program_find_kernel(&p, "reverse_block") != NULL;
        have[2] |= program_find_kernel(&p, "warp_sum") != NULL;
        assert_round_trip(&p, true);
        program_destroy(&p);
        free(blocks[i]);
    }
    ck_assert_msg(have[0] && have[1] && have[2], "an example kernel is missing from isa/ISA.md");
    free(md);
}
END_TEST

START_TEST(test_isa_md_example_offsets)
{
    /* The shared-memory offsets that ISA.md states in its comments. */
    char *md = read_text(ISA_MD, NULL);
    char *blocks[32];
    uint32_t n = md_asm_blocks(md, blocks, 32);
    bool found = false;
    for (uint32_t i = 0; i < n; i++) {
        Program p;
        Diag d;
        ck_assert(asm_parse(blocks[i], strlen(blocks[i]), "isa/ISA.md", &p, &d));
        const Kernel *k = program_find_kernel(&p, "offsets");
        if (k) {
            found = true;
            ck_assert_uint_eq(k->shared[1].offset, 16);
            ck_assert_uint_eq(k->static_smem, 20);
            ck_assert_uint_eq(k->dynamic_smem_offset, 32);
            ck_assert_uint_eq(k->code[0].src[0].value, 16);
            ck_assert_uint_eq(k->code[1].src[0].value, 32);
        }
        program_destroy(&p);
        free(blocks[i]);
    }
    ck_assert(found);
    free(md);
}
END_TEST

/* ------------------------------------------------------------------ Table */

/* The columns of isa/opcodes.def are read instead of the opcodes' order or
** spelling (the executor maps memory by space, the assembler parses the
** modifiers that mods names, the roofline counts flops): a row whose
** columns disagree with each other runs wrong without any other test
** noticing. */

/* The type named by the last .b32/.u32/.s32/.f32 part of a mnemonic. */
static ValueType mnemonic_type(const char *mn)
{
    ValueType t = TYPE_NONE;
    for (const char *p = strchr(mn, '.'); p; p = strchr(p + 1, '.'))
        for (int i = TYPE_B32; i < TYPE_COUNT; i++) {
            size_t n = strlen(TYPE_NAMES[i]);
            if (strncmp(p + 1, TYPE_NAMES[i], n) == 0 && (p[1 + n] == '.' || p[1 + n] == 0)) t = (ValueType)i;
        }
    return t;
}

START_TEST(test_table_memory_space)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        bool addressed = r->space == SPACE_GLOBAL || r->space == SPACE_SHARED || r->space == SPACE_GENERIC || r->space == SPACE_LOCAL;
        uint32_t access = r->flags & (OPF_LOAD | OPF_STORE | OPF_ATOM);
        ck_assert_msg(addressed == (access != 0), "%s: space %d, but load/store/atomic flags 0x%x", r->mnemonic,
                      r->space, access);
        if (addressed) {
            ck_assert_msg(access == OPF_LOAD || access == OPF_STORE || access == (OPF_LOAD | OPF_STORE | OPF_ATOM),
                          "%s: a load, a store, or an atomic that loads and stores (flags 0x%x)", r->mnemonic, access);
            /* a texture fetch addresses its texels by an object and coordinates */
            OpFormat want = access == OPF_LOAD ? (op == OP_TEX ? FMT_TEX : FMT_LD) : access == OPF_STORE ? FMT_ST : FMT_ATOM;
            ck_assert_msg(r->format == want, "%s: flags 0x%x, but format %d", r->mnemonic, access, r->format);
            /* the timing model sends global requests to the LSU, shared ones to the MIO */
            ck_assert_msg(r->unit == (r->space == SPACE_SHARED ? UNIT_MIO : UNIT_LSU), "%s: unit %s", r->mnemonic,
                          UNIT_NAMES[r->unit]);
        }
        ck_assert_msg((r->space == SPACE_PARAM) == (r->format == FMT_PARAM), "%s: space %d, format %d", r->mnemonic,
                      r->space, r->format);
    }
}
END_TEST

START_TEST(test_table_atomics)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        bool atomic = (r->flags & OPF_ATOM) != 0;
        ck_assert_msg(atomic == (r->atoms != 0), "%s: an atomic allows some operation, and only an atomic", r->mnemonic);
        ck_assert_msg(atomic == ((r->mods & OPM_ATOM) != 0), "%s: an atomic takes an operation, and only an atomic",
                      r->mnemonic);
        ck_assert_msg(atomic == (r->format == FMT_ATOM), "%s: format %d", r->mnemonic, r->format);
        bool ptx = r->flags & OPF_PTX;
        ck_assert_msg((r->atoms & ~(ptx ? ATOMS_PTX : ATOMS_ALL)) == 0, "%s: atoms 0x%x beyond AtomOp", r->mnemonic, r->atoms);
        if (!atomic) continue;
        ck_assert_msg(r->type == TYPE_U32 || r->type == TYPE_S32 || r->type == TYPE_F32 ||
                          (ptx && (r->type == TYPE_U64 || r->type == TYPE_F16)),
                      "%s: type %s", r->mnemonic, TYPE_NAMES[r->type]);
        /* A semantics line that lists the operations ("OP: add exch") lists
        ** the atoms column, so that isa/ISA.md says what the assembler takes. */
        const char *list = strstr(r->semantics, "(OP: ");
        if (!list) continue;
        uint32_t named = 0;
        for (const char *w = list + 5; *w && *w != ';' && *w != ')';) {
            size_t n = strcspn(w, " ;)");
            bool known = false;
            for (int k = 0; k < ATOM_COUNT; k++)
                if (strlen(ATOM_NAMES[k]) == n && strncmp(w, ATOM_NAMES[k], n) == 0) named |= 1u << k, known = true;
            ck_assert_msg(known, "%s: '%.*s' in the semantics is no atomic operation", r->mnemonic, (int)n, w);
            w += n;
            while (*w == ' ') w++;
        }
        ck_assert_msg(named == r->atoms, "%s: the semantics list 0x%x, the atoms column 0x%x", r->mnemonic, named,
                      r->atoms);
    }
}
END_TEST

START_TEST(test_table_flops)
{
    static const struct {
        const char *mn;
        uint32_t    flops;
    } known[] = {
        { "add.f32", 1 },         { "sub.f32", 1 }, { "mul.f32", 1 },    { "fma.rn.f32", 2 },
        { "mad.f32", 2 },         { "min.f32", 0 }, { "div.rn.f32", 0 }, { "sqrt.approx.f32", 0 },
        { "atom.global.f32", 0 }, { "add.u32", 0 }, { "mad.lo.u32", 0 },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        Opcode op = opcode_lookup(known[i].mn, (uint32_t)strlen(known[i].mn));
        ck_assert_msg(op != OP_COUNT, "no opcode %s", known[i].mn);
        ck_assert_msg(OP_INFO[op].flops == known[i].flops, "%s: %u flops per lane, expected %u", known[i].mn,
                      OP_INFO[op].flops, known[i].flops);
    }
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        if (!r->flops) continue;
        ck_assert_msg(r->flops <= 2, "%s: %u flops per lane; a fused multiply-add is the most", r->mnemonic, r->flops);
        ck_assert_msg(r->type == TYPE_F32 && r->unit == UNIT_FMA, "%s: FP32 work is f32 on the FMA pipe", r->mnemonic);
    }
}
END_TEST

START_TEST(test_table_types)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        ck_assert_msg(!(r->flags & OPF_ROUND) || r->type == TYPE_F32 || r->type == TYPE_F64,
                      "%s: takes a rounding mode, so works in f32 or f64", r->mnemonic);
        ValueType spelled = mnemonic_type(r->mnemonic);
        if (r->mods & OPM_TYPE) {
            ck_assert_msg(spelled == TYPE_NONE, "%s: takes a written type, so its mnemonic names none", r->mnemonic);
            ck_assert_msg(r->type == TYPE_B32, "%s: a row taking a written type moves bits (b32)", r->mnemonic);
        } else {
            ck_assert_msg(r->type == spelled, "%s: type column %s, the mnemonic says %s", r->mnemonic,
                          TYPE_NAMES[r->type], TYPE_NAMES[spelled]);
        }
        if (r->mods & (OPM_CMP | OPM_ATOM)) { /* the disassembler writes these modifiers before the type */
            const char *dot = strrchr(r->mnemonic, '.');
            ck_assert_msg(dot && strcmp(dot + 1, TYPE_NAMES[r->type]) == 0, "%s: ends in its type", r->mnemonic);
        }
    }
}
END_TEST

START_TEST(test_table_modifiers)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        ck_assert_msg(((r->mods & OPM_CMP) != 0) == (r->format == FMT_SETP), "%s: comparison and format", r->mnemonic);
        ck_assert_msg(((r->mods & OPM_SHFL) != 0) == (r->format == FMT_SHFL), "%s: shuffle mode and format",
                      r->mnemonic);
        ck_assert_msg(!(r->mods & OPM_VEC) || r->format == FMT_LD || r->format == FMT_ST,
                      "%s: only loads and stores take a vector width", r->mnemonic);
        /* A part of the canonical spelling that its family reads as a
        ** modifier could never be written. */
        const char *head_end = strchr(r->mnemonic, '.');
        if (!head_end) continue;
        uint32_t kinds = opcode_head_mods(r->mnemonic, (uint32_t)(head_end - r->mnemonic));
        ck_assert_msg((kinds & r->mods) == r->mods, "%s: its family takes what it takes", r->mnemonic);
        for (const char *p = head_end; p; p = strchr(p + 1, '.')) {
            size_t n = strcspn(p + 1, ".");
            for (int i = 0; i < CMP_COUNT; i++)
                ck_assert_msg(!(kinds & OPM_CMP) || strlen(CMP_NAMES[i]) != n || strncmp(p + 1, CMP_NAMES[i], n) != 0,
                              "%s: '.%s' reads as a comparison", r->mnemonic, CMP_NAMES[i]);
            for (int i = 0; i < SHFL_COUNT; i++)
                ck_assert_msg(!(kinds & OPM_SHFL) || strlen(SHFL_NAMES[i]) != n ||
                                  strncmp(p + 1, SHFL_NAMES[i], n) != 0,
                              "%s: '.%s' reads as a shuffle mode", r->mnemonic, SHFL_NAMES[i]);
            for (int i = 0; i < ATOM_COUNT; i++)
                ck_assert_msg(!(kinds & OPM_ATOM) || strlen(ATOM_NAMES[i]) != n ||
                                  strncmp(p + 1, ATOM_NAMES[i], n) != 0,
                              "%s: '.%s' reads as an atomic operation", r->mnemonic, ATOM_NAMES[i]);
            ck_assert_msg(!(kinds & OPM_VEC) || !(n == 2 && p[1] == 'v'), "%s: reads as a vector width", r->mnemonic);
        }
    }
}
END_TEST

/* An atomic operation its type does not allow is refused with the list of
** what each type allows, built from the atoms column. */
START_TEST(test_atom_refusal)
{
    char msg[sizeof ((Diag *)0)->message + 64];
    const char *src = ".kernel k\n    atom.global.f32.min %r1, [%r2], 1.0\n    exit\n";
    first_error(src, strlen(src), msg, sizeof msg);
    ck_assert_str_eq(msg, "2:5: error: 'atom.global.f32.min': .min is not available for this type "
                          "(f32: add exch; s32: add min max; u32: all)");
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *r = &OP_INFO[op];
        for (int k = 0; k < ATOM_MINI_COUNT && r->atoms && !(r->flags & OPF_PTX); k++) {
            if (r->atoms >> k & 1) continue;
            Instr in = { .op = (uint8_t)op, .mod = (uint8_t)k, .vec = 1, .type = (uint8_t)r->type };
            char mn[64], text[160];
            disasm_mnemonic(&in, mn, sizeof mn);
            snprintf(text, sizeof text, ".kernel k\n    %s %%r1, [%%r2], 1\n    exit\n", mn);
            first_error(text, strlen(text), msg, sizeof msg);
            char want[96];
            snprintf(want, sizeof want, ": .%s is not available for this type (", ATOM_NAMES[k]);
            ck_assert_msg(strstr(msg, want) != NULL, "%s", msg);
            snprintf(want, sizeof want, "%s: ", TYPE_NAMES[r->type]);
            const char *allowed = strstr(msg, want);
            ck_assert_msg(allowed != NULL, "%s: the message names no %s", msg, TYPE_NAMES[r->type]);
            allowed += strlen(want);
            for (int j = 0; j < ATOM_COUNT; j++) {
                if (!(r->atoms >> j & 1)) continue;
                size_t n = strlen(ATOM_NAMES[j]);
                ck_assert_msg(strncmp(allowed, ATOM_NAMES[j], n) == 0, "%s: %s allows %s", msg, TYPE_NAMES[r->type],
                              ATOM_NAMES[j]);
                allowed += n + (allowed[n] == ' ');
            }
        }
    }
}
END_TEST

static Suite *opcodes_suite(void)
{
    Suite *s = suite_create("opcodes");
    TCase *doc = tcase_create("IsaMd");
    tcase_add_test(doc, test_isa_md_lists_every_mnemonic);
    tcase_add_test(doc, test_isa_md_states_flops);
    tcase_add_test(doc, test_isa_md_examples_assemble);
    tcase_add_test(doc, test_isa_md_example_offsets);
    suite_add_tcase(s, doc);

    TCase *table = tcase_create("Table");
    tcase_add_test(table, test_table_memory_space);
    tcase_add_test(table, test_table_atomics);
    tcase_add_test(table, test_table_flops);
    tcase_add_test(table, test_table_types);
    tcase_add_test(table, test_table_modifiers);
    tcase_add_test(table, test_atom_refusal);
    suite_add_tcase(s, table);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(opcodes_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
