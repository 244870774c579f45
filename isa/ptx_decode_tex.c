/* isa/ptx_decode_tex.c -- the decoders of texture and surface instructions
** on texture and surface objects (CUDA's cudaTextureObject_t and
** cudaSurfaceObject_t, 64-bit handles in registers):
**   tex{.level,.grad}.geom.v4.dtype.ctype  d, [h, c]{, lod | , dPdx, dPdy}
**   tld4.comp.2d.v4.dtype.f32              d, [h, c]
**   suld.b.geom{.v2,.v4}.btype.mode        d, [h, c]
**   sust.b.geom{.v2,.v4}.btype.mode        [h, c], b
** with geom 1d, 2d, 3d, a1d, a2d, and for tex and tld4 also cube and acube
** (a cube map sampled in a direction). tex becomes row tex (isa/exec_tex.c);
** suld and sust become surf.addr, which finds the element by the boundary
** mode (.trap, .clamp, .zero), and an ld.global or st.global of that
** address, so that the access is timed and deferred as any other. A
** texture without mipmaps is sampled at level 0 whatever tex.level or
** tex.grad ask, as CUDA does. Refused as not supported: texture
** references (.texref; CUDA 12 removed them), multisample
** textures, depth compare and texel offsets, sparse results (d|p),
** .f16x2 results, formatted stores (sust.p), sured, txq, suq. Semantics:
** the PTX ISA manual, "Texture Instructions" and "Surface Instructions". */
#include "isa/ptx_int.h"

#include <string.h>

#define TEX_MAX_PARTS 8
typedef struct {
    char     part[TEX_MAX_PARTS][16];
    uint32_t n;
} TexParts;

/* The opcode token's modifiers, each without its dot. */
static bool split(Ptx *P, const Tok *opt, TexParts *ps)
{
    char text[96];
    ptx_text(opt, text, sizeof text);
    ps->n = 0;
    for (char *p = strchr(text, '.'); p;) {
        char *e = strchr(p + 1, '.');
        size_t len = (size_t)((e ? e : text + strlen(text)) - (p + 1));
        if (ps->n == TEX_MAX_PARTS || len >= sizeof ps->part[0]) return ptx_unsupported(P, opt);
        memcpy(ps->part[ps->n], p + 1, len);
        ps->part[ps->n++][len] = 0;
        p = e;
    }
    return true;
}

bool ptx_is_tex_head(const char *head)
{
    return !strcmp(head, "tex") || !strcmp(head, "tld4") || !strcmp(head, "suld") || !strcmp(head, "sust");
}

bool ptx_read_tex_operands(Ptx *P, const Tok *opt, POp *ops, uint32_t *nops_out)
{
    char q[80], q2[80];
    uint32_t n = 0;
    while (!ptx_punct(&P->tok, ';')) {
        if (P->tok.kind == TK_EOF) return ptx_fail(P, &P->tok, "end of file in '%s': expected ';'", ptx_quote(opt, q, sizeof q));
        if (n + 2 > MAX_OPS) return ptx_fail(P, &P->tok, "too many operands for '%s'", ptx_quote(opt, q, sizeof q));
        if (ptx_punct(&P->tok, '[')) { /* [object, coordinates]: two operands */
            ptx_next(P);
            if (!ptx_parse_operand(P, &ops[n++])) return false;
            if (!ptx_expect(P, ',', "after the texture or surface in '[..]'")) return false;
            if (!ptx_parse_operand(P, &ops[n++])) return false;
            if (!ptx_expect(P, ']', "to close the texture or surface operand")) return false;
        } else if (!ptx_parse_operand(P, &ops[n++])) {
            return false;
        }
        if (ptx_punct(&P->tok, ',')) {
            ptx_next(P);
            if (ptx_punct(&P->tok, ';')) return ptx_fail(P, &P->tok, "expected an operand after ','");
        } else if (!ptx_punct(&P->tok, ';')) {
            return ptx_fail(P, &P->tok, "expected ',' or ';' after an operand of '%s', found '%s'", ptx_quote(opt, q, sizeof q),
                            ptx_quote(&P->tok, q2, sizeof q2));
        }
    }
    ptx_next(P); /* ';' */
    *nops_out = n;
    return true;
}

/* Element e of vector operand v (or v itself when it is no vector) as an operand. */
static POp element(const POp *v, uint32_t e)
{
    if (v->kind != PO_VEC) return *v;
    POp one;
    memset(&one, 0, sizeof one);
    one.tok = v->etok[e];
    one.param = one.var = -1;
    if (v->eimm[e]) {
        one.kind = PO_IMM;
        one.ival = v->eival[e];
        one.is_float = v->efloat[e];
        one.fval = v->efval[e];
    } else {
        one.kind = PO_REG;
        one.v = v->ev[e];
        one.cls = v->ecls[e];
    }
    return one;
}

static int geometry(const char *s)
{
    static const char *const NAMES[] = { [TEXG_1D] = "1d", [TEXG_2D] = "2d", [TEXG_3D] = "3d", [TEXG_A1D] = "a1d",
                                         [TEXG_A2D] = "a2d", [TEXG_CUBE] = "cube", [TEXG_ACUBE] = "acube" };
    for (int i = 0; i < (int)(sizeof NAMES / sizeof NAMES[0]); i++)
        if (!strcmp(s, NAMES[i])) return i;
    return -1;
}

/* Coordinates a geometry reads, and how many the vector holds (3d and a2d
** pad theirs to four). */
static uint32_t coordinates(TexGeom g, uint32_t *written)
{
    static const uint8_t USED[] = { [TEXG_1D] = 1, [TEXG_2D] = 2, [TEXG_3D] = 3, [TEXG_A1D] = 2, [TEXG_A2D] = 3,
                                    [TEXG_CUBE] = 3, [TEXG_ACUBE] = 4 };
    static const uint8_t WRITTEN[] = { [TEXG_1D] = 1, [TEXG_2D] = 2, [TEXG_3D] = 4, [TEXG_A1D] = 2, [TEXG_A2D] = 4,
                                       [TEXG_CUBE] = 4, [TEXG_ACUBE] = 4 };
    *written = WRITTEN[g];
    return USED[g];
}

/* The object operand: a 64-bit register; a name is a texture reference. */
static bool object_operand(Ptx *P, const POp *o, Instr *in)
{
    char q[80];
    if (o->kind == PO_WORD)
        return ptx_fail(P, &o->tok, "texture and surface references ('%s') are not supported: CUDA 12 removed them; "
                        "use a texture or surface object (cudaCreateTextureObject)", ptx_quote(&o->tok, q, sizeof q));
    in->iflags |= INSTR_ADDR64;
    return ptx_want_reg(P, o, VREG_64, &in->src[0], "the texture or surface object");
}

/* The coordinate vector c into src[1..]: for a1d and a2d the layer first,
** an integer; the others of type ct (.s32 or .f32). */
static bool coordinate_operands(Ptx *P, const Tok *opt, const POp *c, TexGeom geom, ValueType ct, Instr *in)
{
    char q[80];
    uint32_t written, used = coordinates(geom, &written);
    uint32_t have = c->kind == PO_VEC ? c->nelem : 1;
    if (have != written)
        return ptx_fail(P, &c->tok, "'%s' takes %u coordinate(s) in braces, found %u", ptx_quote(opt, q, sizeof q), written, have);
    bool layered = geom == TEXG_A1D || geom == TEXG_A2D || geom == TEXG_ACUBE;
    for (uint32_t e = 0; e < used; e++) {
        POp one = element(c, e);
        bool fl = ct == TYPE_F32 && !(layered && e == 0);
        if (one.kind == PO_REG && one.cls != VREG_32)
            return ptx_fail(P, &one.tok, "a coordinate is a 32-bit register, '%s' is %s", ptx_quote(&one.tok, q, sizeof q),
                            ptx_cls_name(one.cls));
        if (!ptx_want_src(P, &one, false, fl, &in->src[1 + e], "a coordinate")) return false;
    }
    in->nsrc = (uint8_t)(1 + used);
    return true;
}

/* tex and tld4 into row tex. */
static bool decode_sample(Ptx *P, const Tok *opt, bool gather, const TexParts *ps, const POp *ops, uint32_t n, Instr *in,
                          uint32_t g)
{
    char q[80];
    uint32_t i = 0, extra = 0;
    int comp = 0;
    if (gather) {
        static const char *const COMP[] = { "r", "g", "b", "a" };
        for (comp = 0; comp < 4 && (i >= ps->n || strcmp(ps->part[i], COMP[comp])); comp++) {}
        if (comp == 4) return ptx_unsupported(P, opt);
        i++;
    } else if (i < ps->n && (!strcmp(ps->part[i], "level") || !strcmp(ps->part[i], "grad"))) {
        extra = ps->part[i][0] == 'l' ? 1 : 2; /* a level of detail, or two gradients: level 0 without mipmaps */
        i++;
    } else if (i < ps->n && !strcmp(ps->part[i], "base")) {
        i++;
    }
    int geom = i < ps->n ? geometry(ps->part[i]) : -1;
    if (geom < 0 || (gather && geom != TEXG_2D) || ps->n != i + 4 || strcmp(ps->part[i + 1], "v4")) return ptx_unsupported(P, opt);
    const char *dt = ps->part[i + 2], *ct = ps->part[i + 3];
    ValueType dtype = !strcmp(dt, "f32") ? TYPE_F32 : !strcmp(dt, "s32") ? TYPE_S32 : !strcmp(dt, "u32") ? TYPE_U32 : TYPE_NONE;
    ValueType ctype = !strcmp(ct, "f32") ? TYPE_F32 : !strcmp(ct, "s32") ? TYPE_S32 : TYPE_NONE;
    if (!dtype || !ctype || (gather && ctype != TYPE_F32)) return ptx_unsupported(P, opt);
    if (n != 3 + extra) {
        if (n > 3 + extra && n <= 5 + extra)
            return ptx_fail(P, &ops[3 + extra].tok, "a texel offset or depth compare in '%s' is not supported yet by the "
                            "PTX front end", ptx_quote(opt, q, sizeof q));
        return ptx_nops(P, opt, n, 3 + extra, 3 + extra);
    }
    const POp *d = &ops[0];
    if (d->kind == PO_PIPE) return ptx_fail(P, &d->tok, "a texture fetch's residency predicate (d|p) is not supported yet by the PTX front end");
    if (d->kind != PO_VEC || d->nelem != 4)
        return ptx_fail(P, &d->tok, "'%s' writes a vector of four registers {d0, d1, d2, d3}", ptx_quote(opt, q, sizeof q));
    for (uint32_t e = 0; e < 4; e++) {
        POp one = element(d, e);
        if (!ptx_want_reg(P, &one, VREG_32, &in->dst[e], "a destination")) return false;
    }
    Operand ignored; /* the level of detail and gradients: read, then not used */
    for (uint32_t e = 0; e < extra; e++) {
        const POp *x = &ops[3 + e];
        for (uint32_t k = 0; k < (x->kind == PO_VEC ? x->nelem : 1); k++) {
            POp one = element(x, k);
            if (!ptx_want_src(P, &one, false, true, &ignored, extra == 1 ? "the level of detail" : "a gradient")) return false;
        }
    }
    in->op = OP_TEX;
    in->ndst = 4;
    in->vec = 4;
    in->sub = (uint8_t)geom;
    in->type = (uint8_t)dtype;
    in->stype = (uint8_t)ctype;
    in->mod = (uint8_t)(gather ? 1 + comp : 0);
    return object_operand(P, &ops[1], in) && coordinate_operands(P, opt, &ops[2], (TexGeom)geom, ctype, in) && ptx_emit(P, in, g);
}

/* suld.b and sust.b: surf.addr into a fresh register, then the access. */
static bool decode_surface(Ptx *P, const Tok *opt, bool store, const TexParts *ps, const POp *ops, uint32_t n, Instr *in,
                           uint32_t g)
{
    char q[80];
    if (ps->n < 4 || strcmp(ps->part[0], "b")) return ptx_unsupported(P, opt); /* sust.p: formatted */
    int geom = geometry(ps->part[1]);
    if (geom == TEXG_CUBE || geom == TEXG_ACUBE) return ptx_unsupported(P, opt); /* surfaces name a face as a layer */
    uint32_t i = 2, vec = 1;
    if (!strcmp(ps->part[i], "v2") || !strcmp(ps->part[i], "v4")) vec = (uint32_t)(ps->part[i++][1] - '0');
    if (geom < 0 || ps->n != i + 2) return ptx_unsupported(P, opt);
    const char *bt = ps->part[i], *mode = ps->part[i + 1];
    ValueType t = !strcmp(bt, "b8") ? TYPE_B8 : !strcmp(bt, "b16") ? TYPE_B16 : !strcmp(bt, "b32") ? TYPE_B32
                : !strcmp(bt, "b64") ? TYPE_B64 : TYPE_NONE;
    int boundary = !strcmp(mode, "trap") ? SURF_TRAP : !strcmp(mode, "clamp") ? SURF_CLAMP : !strcmp(mode, "zero") ? SURF_ZERO : -1;
    if (!t || boundary < 0 || vec * type_bytes(t) > 16) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 3, 3)) return false;
    const POp *obj = &ops[store ? 0 : 1], *coords = &ops[store ? 1 : 2], *val = &ops[store ? 2 : 0];
    Instr a = *in; /* surf.addr: the element's address, of the access's guard */
    a.op = OP_SURF_ADDR;
    a.sub = (uint8_t)geom;
    a.mod = (uint8_t)(boundary | (store ? SURF_STORE : 0));
    a.offset = (int32_t)(vec * type_bytes(t));
    a.type = TYPE_NONE;
    a.ndst = 1;
    uint32_t addr;
    if (!ptx_fresh_reg(P, opt, VREG_64, &addr)) return false;
    POp ad = { .kind = PO_REG, .tok = *opt, .v = addr, .cls = VREG_64, .param = -1, .var = -1 };
    if (!ptx_want_reg(P, &ad, VREG_64, &a.dst[0], "the address")) return false;
    if (!object_operand(P, obj, &a) || !coordinate_operands(P, opt, coords, (TexGeom)geom, TYPE_S32, &a)) return false;
    if (!ptx_emit(P, &a, g)) return false;
    /* the access: ld.global / st.global of the address, as the values say */
    POp ops2[2];
    POp mem = { .kind = PO_MEM, .tok = *opt, .v = addr, .cls = VREG_64, .has_reg = true, .param = -1, .var = -1 };
    ops2[store ? 0 : 1] = mem;
    ops2[store ? 1 : 0] = val->kind == PO_VEC && val->nelem == 1 ? element(val, 0) : *val; /* {%r1}: one register */
    Mods m;
    memset(&m, 0, sizeof m);
    m.space = SPACE_GLOBAL;
    m.vec = vec;
    m.types[0] = t;
    m.ntypes = 1;
    m.cmp = m.boolop = m.shfl = m.vote = m.atom = m.testp = m.prmt = -1;
    m.rnd = RND_NONE;
    Instr acc = *in;
    if (val->kind == PO_VEC ? val->nelem != vec : vec != 1 && val->kind != PO_VEC)
        return ptx_fail(P, &val->tok, "'%s' moves %u element(s): expected %s", ptx_quote(opt, q, sizeof q), vec,
                        vec > 1 ? "a vector {..} of that many" : "one register");
    return ptx_decode_ldst(P, opt, store ? "st" : "ld", &m, ops2, 2, &acc, g);
}

bool ptx_decode_tex(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)m;
    TexParts ps;
    if (!split(P, opt, &ps)) return false;
    if (head[0] == 't') return decode_sample(P, opt, head[1] == 'l', &ps, ops, n, in, g);
    return decode_surface(P, opt, head[1] == 'u' && head[2] == 's', &ps, ops, n, in, g);
}
