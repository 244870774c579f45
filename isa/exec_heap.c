/* isa/exec_heap.c -- the device heap: malloc and free called in a kernel
** (PTX `call malloc`, `call free`, `call __cuda_syscall_aligned_malloc`),
** part of the exec module (isa/exec.h).
**
** The heap is one buffer of global memory (cudaLimitMallocHeapSize bytes,
** 8 MiB by default, as CUDA's), and everything the allocator knows lives in
** it: a header at its start, then the blocks. So it persists from launch to
** launch with the memory, as CUDA's does (a pointer one kernel mallocs
** another may free), and the simulator keeps no state of its own.
**
** Blocks come in size classes: multiples of 16 bytes up to 1 KiB, then four
** classes per power of two (above 1 KiB a request is rounded up by less
** than 25%). A block is 16 bytes of
** header and its class's bytes; malloc takes the class's most recently freed
** block, or cuts a new one off the untouched end, and returns NULL when the
** heap has no room (as CUDA does). free puts the block back on its class's
** list. Freed blocks are not merged, so the heap can refuse a large request
** while holding freed small blocks: a program that mallocs and frees blocks
** of one size (the usual kind) sees none of it.
**
** The lanes of a warp call in lane order. free of an address malloc did not
** return, or of one already freed, is a fault (FAULT_BAD_FREE), as
** compute-sanitizer reports it; a header a stray store overwrote is
** FAULT_HEAP_DAMAGED. */
#include "isa/exec.h"

#include <string.h>

#define HEAP_MAGIC    0x48504147u /* the heap header's first word          */
#define BLOCK_USED    0x4d414c43u /* a block's state: handed out by malloc */
#define BLOCK_FREE    0x46524545u /* ... on its class's free list          */
#define BLOCK_ALIGNED 0x414c474eu /* an aligned block's second header      */
#define SMALL_CLASSES 64u         /* 16, 32 .. 1024 bytes                  */
#define CLASSES       (SMALL_CLASSES + 4u * 23u) /* ... up to 4 GiB        */
#define BLOCK_HEADER  16u

/* The heap's header, at its first byte. */
typedef struct {
    uint32_t magic, pad;
    uint64_t bytes;          /* the heap's size                         */
    uint64_t bump;           /* offset of the untouched rest            */
    uint64_t head[CLASSES];  /* each class's last freed block (address of
                                its bytes; 0: none)                     */
} HeapHeader;

/* A block's header, the 16 bytes before the address malloc returned. */
typedef struct {
    uint32_t state, cls;     /* BLOCK_*; the size class                 */
    uint64_t link;           /* free: the next freed block of the class;
                                aligned: the block it was cut from      */
} BlockHeader;

#define FIRST_BLOCK ((sizeof(HeapHeader) + 15u) / 16u * 16u)

static uint64_t class_bytes(uint32_t c)
{
    if (c < SMALL_CLASSES) return (uint64_t)(c + 1) * 16;
    uint64_t base = (uint64_t)1024 << ((c - SMALL_CLASSES) / 4);
    return base + base / 4 * ((c - SMALL_CLASSES) % 4 + 1);
}

/* The smallest class that holds n bytes (CLASSES when none does). */
static uint32_t class_of(uint64_t n)
{
    if (n <= 1024) return n ? (uint32_t)((n + 15) / 16 - 1) : 0;
    uint32_t c = SMALL_CLASSES;
    while (c < CLASSES && class_bytes(c) < n) c++;
    return c;
}

uint32_t exec_heap_create(GlobalMem *gmem, uint64_t bytes, Diag *d)
{
    if (bytes < FIRST_BLOCK + BLOCK_HEADER + 16) bytes = FIRST_BLOCK + BLOCK_HEADER + 16;
    uint32_t at = gmem_alloc(gmem, bytes, "device heap (malloc)", d);
    if (!at) return 0;
    HeapHeader h = { .magic = HEAP_MAGIC, .bytes = bytes, .bump = FIRST_BLOCK };
    memcpy(gmem_translate(gmem, at, sizeof h), &h, sizeof h);
    return at;
}

/* The heap's header in host memory, when intact. */
static HeapHeader *heap_header(const ExecBlock *b)
{
    HeapHeader *h = b->heap ? gmem_translate(b->gmem, b->heap, sizeof *h) : NULL;
    return h && h->magic == HEAP_MAGIC && h->bump <= h->bytes ? h : NULL;
}

/* The header of the block whose bytes start at p, or NULL when p is not
** 16 bytes past the start of a block inside the heap. */
static BlockHeader *block_at(const ExecBlock *b, const HeapHeader *h, uint64_t p)
{
    if (p < b->heap + FIRST_BLOCK + BLOCK_HEADER || p > b->heap + h->bump || (p - b->heap) % 16) return NULL;
    return gmem_translate(b->gmem, p - BLOCK_HEADER, sizeof(BlockHeader));
}

/* malloc(n) aligned to `align` (a power of two; 16 or less: malloc's own
** 16): the address, 0 when the heap has no room or align is no power of two;
** false on a damaged heap. */
static bool heap_malloc(const ExecBlock *b, HeapHeader *h, uint64_t n, uint64_t align, uint64_t *p)
{
    *p = 0;
    if (align & (align - 1) || align >= h->bytes) return true;
    uint64_t extra = align > 16 ? align : 0; /* room to move up to the alignment, a header included */
    if (n > h->bytes || n + extra > h->bytes) return true;
    uint32_t c = class_of(n + extra);
    if (c == CLASSES) return true;
    uint64_t at = h->head[c];
    BlockHeader *bh;
    if (at) {
        if (!(bh = block_at(b, h, at)) || bh->state != BLOCK_FREE || bh->cls != c) return false;
        h->head[c] = bh->link;
    } else {
        uint64_t size = BLOCK_HEADER + class_bytes(c);
        if (size > h->bytes - h->bump) return true;
        at = b->heap + h->bump + BLOCK_HEADER;
        h->bump += size;
        bh = gmem_translate(b->gmem, at - BLOCK_HEADER, sizeof *bh);
    }
    *bh = (BlockHeader){ .state = BLOCK_USED, .cls = c };
    *p = at;
    if (extra) {
        uint64_t q = (at + align - 1) & ~(align - 1);
        if (q != at) { /* a second header just below q names the block */
            BlockHeader *ah = gmem_translate(b->gmem, q - BLOCK_HEADER, sizeof *ah);
            *ah = (BlockHeader){ .state = BLOCK_ALIGNED, .link = at };
            *p = q;
        }
    }
    return true;
}

/* free(p); false when p is no block malloc handed out (or the heap is damaged). */
static bool heap_free(const ExecBlock *b, HeapHeader *h, uint64_t p)
{
    if (!p) return true;
    BlockHeader *bh = block_at(b, h, p);
    if (bh && bh->state == BLOCK_ALIGNED) bh = block_at(b, h, p = bh->link);
    if (!bh || bh->state != BLOCK_USED || bh->cls >= CLASSES) return false;
    *bh = (BlockHeader){ .state = BLOCK_FREE, .cls = bh->cls, .link = h->head[bh->cls] };
    h->head[bh->cls] = p;
    return true;
}

bool exec_heap(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    HeapHeader *h = heap_header(b);
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        if (!(m >> lane & 1)) continue;
        uint64_t a = exec_lane64(b, w, &in->src[0], lane), p = 0;
        bool ok = h && (in->op == OP_MALLOC ? heap_malloc(b, h, a, exec_lane64(b, w, &in->src[1], lane), &p)
                                            : heap_free(b, h, a));
        if (!ok) {
            bool bad_free = h && in->op == OP_FREE;
            out->fault = (ExecFault){ .kind = bad_free ? FAULT_BAD_FREE : FAULT_HEAP_DAMAGED, .pc = out->pc,
                                      .lane = lane, .addr = a };
            return false;
        }
        if (in->op == OP_MALLOC) {
            w->r[in->dst[0].index][lane] = (uint32_t)p;
            w->r[in->dst[0].index + 1][lane] = (uint32_t)(p >> 32);
        }
    }
    return true;
}
