/* sim/smem.c -- shared-memory bank conflict model (see smem.h for the model,
** its sources and what it leaves out).
** Per phase, each bank remembers the first word asked of it; further words
** of a bank go through a 64-slot open-addressing set on the stack (a phase
** asks for at most 32 words, so it is never more than half full). Linear
** in the active lanes, also for a 32-way conflict.                          */
#include "sim/smem.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#define WORDSET_SLOTS 64 /* 2 x the most words one phase can ask for */

typedef struct {
    uint64_t used; /* bit i: keys[i] holds a word */
    uint32_t keys[WORDSET_SLOTS];
} WordSet;

/* Adds w; true when it was not there yet. */
static int wordset_add(WordSet *s, uint32_t w)
{
    unsigned h = (unsigned)((w * 0x9E3779B1u) >> 26); /* Fibonacci hash to 6 bits */
    while (s->used >> h & 1u) {
        if (s->keys[h] == w) return 0;
        h = (h + 1) & (WORDSET_SLOTS - 1);
    }
    s->used |= (uint64_t)1 << h;
    s->keys[h] = w;
    return 1;
}

/* One phase in progress. Most requests are conflict-free or broadcasts:
** each bank's first word settles them. Only a different word in a busy bank
** (a real conflict) needs the set of words seen. */
typedef struct {
    uint32_t busy;                   /* banks asked for a word in this phase */
    unsigned worst;                  /* largest per_bank so far              */
    uint32_t first_word[SMEM_BANKS]; /* valid where busy                     */
    uint8_t per_bank[SMEM_BANKS];    /* distinct words; valid where busy     */
    WordSet extra;                   /* words after the first of their bank  */
} Phase;

static inline void phase_add(Phase *ph, uint32_t w, uint32_t bank_words[SMEM_BANKS])
{
    const unsigned b = w % SMEM_BANKS;
    if (!(ph->busy >> b & 1u)) {
        ph->busy |= 1u << b;
        ph->first_word[b] = w;
        ph->per_bank[b] = 1;
        bank_words[b]++;
    } else if (ph->first_word[b] != w && wordset_add(&ph->extra, w)) {
        if (++ph->per_bank[b] > ph->worst) ph->worst = ph->per_bank[b];
        bank_words[b]++;
    } /* else: a word already asked for, served by broadcast */
}

void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, SmemOp op, SmemResult *out)
{
    assert(width == 4 || width == 8 || width == 16);
    memset(out, 0, sizeof *out);
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
                out->bank_words[(addr[first] / SMEM_BANK_BYTES + k) % SMEM_BANKS]++;
            out->wavefronts = out->phases = width / 8;
            return;
        }
    }

    /* A wide access is split so that each phase moves at most 128 bytes,
    ** which is what the 32 x 4-byte banks deliver in one wavefront. */
    const unsigned words_per_lane = width / SMEM_BANK_BYTES;
    const unsigned lanes = 32 / words_per_lane;
    const uint32_t phase_mask = (uint32_t)((1ull << lanes) - 1u);
    for (unsigned p = 0; p < words_per_lane; p++) {
        const unsigned first = p * lanes;
        const uint32_t pmask = (mask >> first) & phase_mask;
        if (!pmask) continue; /* an idle phase is skipped, not issued */
        Phase ph;
        ph.busy = 0;
        ph.worst = 1;
        ph.extra.used = 0;
        for (unsigned l = 0; l < lanes; l++) {
            if (!(pmask >> l & 1u)) continue;
            const uint32_t w0 = addr[first + l] / SMEM_BANK_BYTES;
            phase_add(&ph, w0, out->bank_words);
            if (words_per_lane >= 2) {
                phase_add(&ph, w0 + 1, out->bank_words);
                if (words_per_lane == 4) {
                    phase_add(&ph, w0 + 2, out->bank_words);
                    phase_add(&ph, w0 + 3, out->bank_words);
                }
            }
        }
        out->wavefronts += ph.worst;
        out->phases++;
    }
}
