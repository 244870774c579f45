/* sim/smem.c -- shared-memory bank conflict model (see smem.h for the model,
** its sources and what it leaves out).
** Per phase, each bank remembers the first word asked of it; further words
** of a bank go through an open-addressing set on the stack of twice as many
** slots as there are banks (a phase asks for at most one word per bank per
** lane group, so it is never more than half full). Linear in the active
** lanes, also for a 32-way conflict. The loop is one always-inlined
** function instantiated per bank count: with the count a constant, the bank
** of a word is a mask and the set's size is fixed, as they were when the
** count was a compile-time 32.                                              */
#include "sim/smem.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#define WORDSET_MAX_SLOTS (2 * SMEM_MAX_BANKS) /* 2 x the most words one phase can ask for */

typedef struct {
    uint64_t used[WORDSET_MAX_SLOTS / 64]; /* bit i of the set: keys[i] holds a word */
    uint32_t keys[WORDSET_MAX_SLOTS];
} WordSet;

/* Adds w to a set of `slots` slots (a power of two, 2^bits); true when it was
** not there yet. */
static inline __attribute__((always_inline)) int wordset_add(WordSet *s, uint32_t w, const unsigned bits)
{
    const unsigned slots = 1u << bits;
    unsigned h = (unsigned)((w * 0x9E3779B1u) >> (32 - bits)); /* Fibonacci hash */
    while (s->used[h >> 6] >> (h & 63) & 1u) {
        if (s->keys[h] == w) return 0;
        h = (h + 1) & (slots - 1);
    }
    s->used[h >> 6] |= (uint64_t)1 << (h & 63);
    s->keys[h] = w;
    return 1;
}

/* One phase in progress. Most requests are conflict-free or broadcasts:
** each bank's first word settles them. Only a different word in a busy bank
** (a real conflict) needs the set of words seen. */
typedef struct {
    uint64_t busy;                       /* banks asked for a word in this phase */
    unsigned worst;                      /* largest per_bank so far              */
    uint32_t first_word[SMEM_MAX_BANKS]; /* valid where busy                     */
    uint8_t  per_bank[SMEM_MAX_BANKS];   /* distinct words; valid where busy     */
    WordSet  extra;                      /* words after the first of their bank  */
} Phase;

static inline __attribute__((always_inline)) void phase_add(Phase *ph, uint32_t w, uint32_t *bank_words,
                                                            const unsigned banks, const unsigned set_bits)
{
    const unsigned b = w & (banks - 1); /* banks is a power of two */
    if (!(ph->busy >> b & 1u)) {
        ph->busy |= (uint64_t)1 << b;
        ph->first_word[b] = w;
        ph->per_bank[b] = 1;
        bank_words[b]++;
    } else if (ph->first_word[b] != w && wordset_add(&ph->extra, w, set_bits)) {
        if (++ph->per_bank[b] > ph->worst) ph->worst = ph->per_bank[b];
        bank_words[b]++;
    } /* else: a word already asked for, served by broadcast */
}

/* The two commonest requests, counted at once (the same counts as the
** phase loop, which tests/check_smem.c holds them to): every lane on
** consecutive addresses (each phase then asks each bank for one word at
** most: one wavefront a phase), and every active lane on one word of a
** request of one phase (a broadcast, or one write). False: neither. */
static inline __attribute__((always_inline)) bool fast_path(const uint32_t addr[32], uint32_t mask, unsigned width,
                                                            const unsigned banks, unsigned phases, SmemResult *out)
{
    const uint32_t a0 = addr[0];
    if (mask == UINT32_MAX) {
        /* lanes 1, 16 and 31 first: most other requests fail here, cheaply */
        const uint32_t word_mask = ~(uint32_t)(SMEM_BANK_BYTES - 1);
        bool may_be_linear = addr[1] == a0 + width && addr[16] == a0 + 16 * width && addr[31] == a0 + 31 * width;
        bool may_be_one = !((addr[1] ^ a0) & word_mask) && !((addr[16] ^ a0) & word_mask) && !((addr[31] ^ a0) & word_mask);
        if (!may_be_linear && !may_be_one) return false;
        uint32_t apart = 0, other_word = 0;
        for (unsigned l = 0; l < 32; l++) {
            apart |= addr[l] ^ (a0 + l * width);
            other_word |= (addr[l] ^ a0) & ~(uint32_t)(SMEM_BANK_BYTES - 1);
        }
        if (!apart) {
            const unsigned words = 32 * width / SMEM_BANK_BYTES;
            if (words % banks == 0)
                for (unsigned b = 0; b < banks; b++) out->bank_words[b] = words / banks;
            else
                for (unsigned i = 0; i < words; i++) out->bank_words[(a0 / SMEM_BANK_BYTES + i) & (banks - 1)]++;
            out->wavefronts = out->phases = phases;
            return true;
        }
        if (other_word) return false;
    }
    if (width != SMEM_BANK_BYTES || phases != 1) return false;
    const uint32_t first = addr[__builtin_ctz(mask)]; /* every active lane on its word? */
    for (uint32_t m = mask == UINT32_MAX ? 0 : mask; m; m &= m - 1)
        if ((addr[__builtin_ctz(m)] ^ first) & ~(uint32_t)(SMEM_BANK_BYTES - 1)) return false;
    out->bank_words[first / SMEM_BANK_BYTES & (banks - 1)] = 1;
    out->wavefronts = out->phases = 1;
    return true;
}

/* set_bits = log2(2 * banks) */
static inline __attribute__((always_inline)) void analyze(const uint32_t addr[32], uint32_t mask, unsigned width,
                                                          SmemOp op, const unsigned banks, const unsigned set_bits,
                                                          SmemResult *out)
{
    out->wavefronts = 0;
    out->phases = 0;
    memset(out->bank_words, 0, banks * sizeof out->bank_words[0]);
    if (mask == 0) return;

    if (op == SMEM_READ && width > SMEM_BANK_BYTES) {
        /* Every active lane on one address: the data path broadcasts 8 bytes
        ** a wavefront to all lanes at once (measured: 8 B -> 1, 16 B -> 2). */
        unsigned first = 0;
        while (!(mask >> first & 1u)) first++;
        bool uniform = true;
        for (unsigned l = first + 1; l < 32 && uniform; l++) uniform = !(mask >> l & 1u) || addr[l] == addr[first];
        if (uniform) {
            for (unsigned k = 0; k < width / SMEM_BANK_BYTES; k++)
                out->bank_words[(addr[first] / SMEM_BANK_BYTES + k) % banks]++;
            out->wavefronts = out->phases = width / 8;
            return;
        }
    }

    /* A request is split so that each phase moves at most what the banks
    ** deliver in one wavefront: banks x 4 bytes (128 with 32 banks). */
    const unsigned words_per_lane = width / SMEM_BANK_BYTES;
    const unsigned fit = banks / words_per_lane;
    const unsigned lanes = fit < 32 ? fit : 32;
    const unsigned phases = 32 / lanes;
    if (fast_path(addr, mask, width, banks, phases, out)) return;
    const uint32_t phase_mask = (uint32_t)((1ull << lanes) - 1u);
    for (unsigned p = 0; p < phases; p++) {
        const unsigned first = p * lanes;
        const uint32_t pmask = (mask >> first) & phase_mask;
        if (!pmask) continue; /* an idle phase is skipped, not issued */
        Phase ph;
        ph.busy = 0;
        ph.worst = 1;
        memset(ph.extra.used, 0, ((1u << set_bits) + 63) / 64 * sizeof ph.extra.used[0]);
        for (unsigned l = 0; l < lanes; l++) {
            if (!(pmask >> l & 1u)) continue;
            const uint32_t w0 = addr[first + l] / SMEM_BANK_BYTES;
            phase_add(&ph, w0, out->bank_words, banks, set_bits);
            if (words_per_lane >= 2) {
                phase_add(&ph, w0 + 1, out->bank_words, banks, set_bits);
                if (words_per_lane == 4) {
                    phase_add(&ph, w0 + 2, out->bank_words, banks, set_bits);
                    phase_add(&ph, w0 + 3, out->bank_words, banks, set_bits);
                }
            }
        }
        out->wavefronts += ph.worst;
        out->phases++;
    }
}

void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, SmemOp op, unsigned banks, SmemResult *out)
{
    assert(width == 1 || width == 2 || width == 4 || width == 8 || width == 16);
    assert(smem_banks_valid(banks));
    /* the banks serve 4-byte words: a byte or a half-word is its word's */
    if (width < SMEM_BANK_BYTES) width = SMEM_BANK_BYTES;
    switch (banks) {
    case 16: analyze(addr, mask, width, op, 16, 5, out); break;
    case 64: analyze(addr, mask, width, op, 64, 7, out); break;
    default: analyze(addr, mask, width, op, 32, 6, out); break;
    }
}
