/* heap.h -- where Drip objects live: blocks of equal-sized slots, with the
 * collector's mark bits kept beside the objects instead of in them.
 *
 * Small objects (up to HEAP_SMALL_MAX bytes, which is nearly all of them) are
 * carved from 64 KiB blocks. Every block serves one size, a multiple of 8
 * bytes, so a block is an array of slots and a free slot is any slot that
 * held no live object at the last collection. Allocating is a pointer bump
 * through a "run" of consecutive free slots; only when the run is used up
 * does heap.c look for the next one (or take a new block). No malloc, no
 * free list, no per-object header beyond the 8-byte Obj.
 *
 * The mark bits are a bitmap at the start of each block, one bit per 8-byte
 * granule (the bit of an object's first granule). So:
 *   - marking writes to the bitmap, never to the object;
 *   - the sweep touches no object at all. After marking, a block's bitmap is
 *     exactly the set of its live objects, so "free" needs no list: the
 *     allocator skips marked slots as it reaches them. A block with no mark
 *     goes back to a pool that any size can use.
 *
 * Large objects (functions and classes, which own malloc'd chunks and
 * tables, plus long strings and wide instances) are malloc'd one by one and
 * kept on a list with a mark flag in their header; there are few of them.
 *
 * Trade-offs: a block of one size can sit half empty while another size
 * needs space (empty blocks are shared, partly used ones are not), and
 * objects never move, so a long-lived scatter of survivors keeps its blocks.
 *
 * Under AddressSanitizer the slots that hold no live object are poisoned
 * after every collection and unpoisoned one by one as they are handed out, so
 * a dangling reference to a collected object is reported; under valgrind
 * (when the headers are installed) the same slots are made inaccessible. */
#ifndef DRIP_HEAP_H
#define DRIP_HEAP_H

#include "common.h"
#include "value.h"

#define HEAP_GRANULE 8
#define HEAP_SMALL_MAX 256
#define HEAP_BLOCK_SIZE ((uintptr_t)64 * 1024)
#define HEAP_BLOCK_GRANULES (HEAP_BLOCK_SIZE / HEAP_GRANULE)
/* Index of a size's free run: sizes are multiples of the granule. */
#define HEAP_SIZES (HEAP_SMALL_MAX / HEAP_GRANULE + 1)

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_ASAN 1
#endif
#endif
#ifdef HEAP_ASAN
#include <sanitizer/asan_interface.h>
#endif

typedef struct HeapBlock {
    uint64_t marks[HEAP_BLOCK_GRANULES / 64];
    struct HeapBlock *next; /* in its size's list, or in the pool */
    uint32_t slot_size;
    uint32_t slot_count;
} HeapBlock;

/* The free run the next object of one size is cut from: [cursor, limit)
 * is a whole number of free slots. */
typedef struct {
    char *cursor;
    char *limit;
} HeapRun;

extern HeapRun heap_runs[HEAP_SIZES];

/* Rounds a request up to the granule. */
static inline size_t heap_round(size_t size) {
    return (size + HEAP_GRANULE - 1) & ~(size_t)(HEAP_GRANULE - 1);
}

/* The slow path of heap_alloc: finds the next run (collecting first when
 * the collector's budget is spent) and allocates from it. */
Obj *heap_refill(size_t size);
/* An object too big for a block, malloc'd and put on the large list. */
Obj *heap_alloc_large(size_t size);

/* Cuts an object of `size` bytes from the front of a run that has room,
 * with its header zeroed. */
static inline Obj *heap_run_take(HeapRun *run, size_t size) {
    Obj *object = (Obj *)run->cursor;
    run->cursor += size;
#ifdef HEAP_ASAN
    ASAN_UNPOISON_MEMORY_REGION(object, size);
#endif
    *object = (Obj){0};
    return object;
}

/* Returns room for an object of `size` bytes (a multiple of HEAP_GRANULE,
 * at least 16) with its Obj header zeroed except for the large flag. Any
 * allocation may collect garbage first: callers keep what they still need
 * reachable. */
static inline Obj *heap_alloc(size_t size) {
    if (size > HEAP_SMALL_MAX) {
        return heap_alloc_large(size);
    }
#ifndef DRIP_STRESS_GC
    HeapRun *run = &heap_runs[size / HEAP_GRANULE];
    if (LIKELY(run->cursor != run->limit)) {
        return heap_run_take(run, size);
    }
#endif
    return heap_refill(size);
}

static inline HeapBlock *heap_block_of(const Obj *object) {
    return (HeapBlock *)((uintptr_t)object & ~(HEAP_BLOCK_SIZE - 1));
}

/* Sets an object's mark; returns false if it was set already. */
static inline bool heap_mark(Obj *object) {
    if (UNLIKELY(object->flags & OBJ_LARGE)) {
        if (object->flags & OBJ_MARKED) {
            return false;
        }
        object->flags |= OBJ_MARKED;
        return true;
    }
    uintptr_t granule = ((uintptr_t)object & (HEAP_BLOCK_SIZE - 1)) / HEAP_GRANULE;
    uint64_t *word = &heap_block_of(object)->marks[granule / 64];
    uint64_t bit = (uint64_t)1 << (granule % 64);
    if (*word & bit) {
        return false;
    }
    *word |= bit;
    return true;
}

bool heap_is_marked(const Obj *object);
/* A collection: clear every mark; then the caller marks what is reachable
 * and reclaims the rest in two steps. heap_sweep_large frees each dead large
 * object (after calling release on it) and unmarks the survivors;
 * heap_sweep_blocks makes the blocks' free slots available. Each returns the
 * bytes still in use. Until heap_sweep_blocks, unmarked small objects can
 * still be read (the string table looks at its dead keys). */
void heap_begin_marking(void);
size_t heap_sweep_large(void (*release)(Obj *));
size_t heap_sweep_blocks(void);
/* Releases every object and gives all blocks back: the end of the VM. */
void heap_free_all(void (*release)(Obj *));

#endif
