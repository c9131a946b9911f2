/* heap.c -- blocks, runs, the pool of empty blocks and the large list.
 *
 * See heap.h for the design. The invariants this file keeps:
 *   - between two collections a size's blocks are visited once, in list
 *     order, by a single scan position (the block in heap.scanning and the
 *     end of the current run), and slots behind that position are never
 *     handed out again; so a block's mark bits (set by the last collection)
 *     are all it takes to tell a free slot from a live one, and objects
 *     allocated since the collection are simply behind the scan;
 *   - a block taken during a cycle goes to the end of its size's list, so
 *     the scan never comes back to a block it has already been through;
 *   - every block of a size list has at least one mark after a collection
 *     (blocks without go to the pool) or was taken since.
 *
 * Memory comes in arenas of blocks (the first in static data, the rest
 * malloc'd), with room to spare so that every block can be aligned to its
 * size (an object's block, and its mark bit, then follow from its address).
 * Pages of an arena that are never used cost address space, not memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "memory.h"
#include "vm.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HEAP_VALGRIND 1
#endif
#endif

#define ARENA_BLOCKS 16
/* The first blocks come from the executable's zeroed data rather than from
 * malloc: a small program then takes no heap memory from the C library at
 * all, and pages of it never used cost nothing. One block's worth of extra
 * room lets the blocks be aligned. */
#define FIRST_ARENA_BLOCKS 8
static char first_arena[(FIRST_ARENA_BLOCKS + 1) * HEAP_BLOCK_SIZE];
/* The first slot starts after the block's header, on a 16-byte boundary. */
#define FIRST_SLOT ((sizeof(HeapBlock) + 15) & ~(size_t)15)

/* What sits in front of a large object: the list link and its size. */
typedef struct LargeObj {
    struct LargeObj *next;
    size_t size;
} LargeObj;

typedef struct Arena {
    struct Arena *next;
    char *raw; /* as malloc returned it */
} Arena;

static struct {
    HeapBlock *first[HEAP_SIZES];    /* each size's blocks, in scan order */
    HeapBlock *last[HEAP_SIZES];     /* where blocks taken this cycle go */
    HeapBlock *scanning[HEAP_SIZES]; /* holds the current run; NULL: none yet */
    HeapBlock *pool;                 /* empty blocks, for any size */
    HeapBlock *resting;              /* emptied by the last collection (poisoning) */
    int poisoning;                   /* -1 until asked */
    char *unused;                    /* blocks of the newest arena never taken */
    char *unused_end;
    bool first_arena_taken;
    Arena *arenas;
    LargeObj *large;
} heap = {.poisoning = -1};

HeapRun heap_runs[HEAP_SIZES];

/* ---- poisoning: dead slots inaccessible under ASan and valgrind ------------ *
 *
 * While poisoning, the heap also delays reuse, so that a dangling reference
 * meets a poisoned slot rather than a new object: free slots in blocks that
 * still hold live objects are not handed out again, and a block emptied by
 * one collection returns to the pool only at the next. Debug builds pay for
 * it in memory. */

static bool poisoning(void) {
    if (heap.poisoning < 0) {
#if defined(HEAP_ASAN)
        heap.poisoning = 1;
#elif defined(HEAP_VALGRIND)
        heap.poisoning = RUNNING_ON_VALGRIND != 0;
#else
        heap.poisoning = 0;
#endif
    }
    return heap.poisoning != 0;
}

static void region_dead(void *start, size_t length) {
#ifdef HEAP_ASAN
    ASAN_POISON_MEMORY_REGION(start, length);
#endif
#ifdef HEAP_VALGRIND
    VALGRIND_MAKE_MEM_NOACCESS(start, length);
#endif
    (void)start;
    (void)length;
}

/* A run is about to be allocated from. ASan unpoisons object by object (in
 * heap_alloc); valgrind sees the run as allocated but not yet written. */
static void region_handed_out(void *start, size_t length) {
#ifdef HEAP_VALGRIND
    VALGRIND_MAKE_MEM_UNDEFINED(start, length);
#endif
    (void)start;
    (void)length;
}

/* ---- blocks ---------------------------------------------------------------- */

static char *slots_begin(HeapBlock *block) {
    return (char *)block + FIRST_SLOT;
}

static char *slots_end(HeapBlock *block) {
    return slots_begin(block) + (size_t)block->slot_count * block->slot_size;
}

static bool marked_at(const HeapBlock *block, const char *at) {
    uintptr_t granule = ((uintptr_t)at & (HEAP_BLOCK_SIZE - 1)) / HEAP_GRANULE;
    return (block->marks[granule / 64] >> (granule % 64)) & 1;
}

/* The first marked object at or after `at`, or `end` if there is none.
 * Only objects' first granules are ever marked, so it is a slot boundary. */
static char *next_marked(const HeapBlock *block, char *at, char *end) {
    uintptr_t granule = ((uintptr_t)at & (HEAP_BLOCK_SIZE - 1)) / HEAP_GRANULE;
    size_t word = granule / 64;
    uint64_t bits = block->marks[word] & (~(uint64_t)0 << (granule % 64));
    while (bits == 0) {
        if (++word == HEAP_BLOCK_GRANULES / 64) {
            return end;
        }
        bits = block->marks[word];
    }
    char *found = (char *)block + (word * 64 + (size_t)__builtin_ctzll(bits)) * HEAP_GRANULE;
    return found < end ? found : end;
}

/* The first run of free slots in block at or after `from`: skip live
 * slots one by one, then stop at the next live one. False if none. */
static bool run_find(HeapBlock *block, char *from, HeapRun *run) {
    char *end = slots_end(block);
    char *at = from;
    while (at < end && marked_at(block, at)) {
        at += block->slot_size;
    }
    if (at >= end) {
        return false;
    }
    run->cursor = at;
    run->limit = next_marked(block, at, end);
    return true;
}

/* An arena is one malloc'd region with room to align its blocks; the pages
 * before the first block and after the last are never touched. (malloc
 * rather than mmap: the C library maps regions this large anyway, and the
 * VM then needs no second way to ask the system for memory.) */
static char *block_align(char *address) {
    return (char *)(((uintptr_t)address + HEAP_BLOCK_SIZE - 1) & ~(HEAP_BLOCK_SIZE - 1));
}

static void arena_new(void) {
    if (!heap.first_arena_taken) {
        heap.first_arena_taken = true;
        heap.unused = block_align(first_arena);
        heap.unused_end = heap.unused + FIRST_ARENA_BLOCKS * HEAP_BLOCK_SIZE;
        return;
    }
    size_t length = ARENA_BLOCKS * HEAP_BLOCK_SIZE;
    Arena *arena = mem_checked(malloc(sizeof *arena));
    char *raw = mem_checked(malloc(length + HEAP_BLOCK_SIZE));
    char *base = block_align(raw);
    if ((uintptr_t)base + length - 1 > POINTER_MASK) {
        /* Never seen on Linux, where user space ends below 2^47. */
        fprintf(stderr, "drip: heap address %p does not fit in 48 bits.\n", (void *)base);
        exit(70);
    }
    *arena = (Arena){.next = heap.arenas, .raw = raw};
    heap.arenas = arena;
    heap.unused = base;
    heap.unused_end = base + length;
}

/* An empty block for objects of `size` bytes, at the end of that size's
 * list and made the one being scanned; its run is all of it. */
static void block_take(size_t index, size_t size) {
    HeapBlock *block = heap.pool;
    if (block != NULL) {
        heap.pool = block->next;
    } else {
        if (heap.unused == heap.unused_end) {
            arena_new();
        }
        block = (HeapBlock *)heap.unused;
        heap.unused += HEAP_BLOCK_SIZE;
        /* malloc'd memory may hold anything; a pooled block has no marks. */
        memset(block->marks, 0, sizeof block->marks);
    }
    block->next = NULL;
    block->slot_size = (uint32_t)size;
    block->slot_count = (uint32_t)((HEAP_BLOCK_SIZE - FIRST_SLOT) / size);
    if (heap.last[index] == NULL) {
        heap.first[index] = block;
    } else {
        heap.last[index]->next = block;
    }
    heap.last[index] = block;
    heap.scanning[index] = block;
    if (poisoning()) {
        region_dead(slots_begin(block), HEAP_BLOCK_SIZE - FIRST_SLOT);
    }
    heap_runs[index] = (HeapRun){slots_begin(block), slots_end(block)};
}

/* Moves the scan of one size to its next free run, in the blocks it has
 * not been through yet this cycle. False when they are full. */
static bool run_next(size_t index) {
    if (poisoning()) {
        return false;
    }
    HeapRun *run = &heap_runs[index];
    HeapBlock *block = heap.scanning[index];
    char *from = run->limit;
    if (block == NULL) {
        block = heap.first[index];
        from = block == NULL ? NULL : slots_begin(block);
    }
    while (block != NULL) {
        heap.scanning[index] = block;
        if (run_find(block, from, run)) {
            return true;
        }
        block = block->next;
        from = block == NULL ? NULL : slots_begin(block);
    }
    return false;
}

Obj *heap_refill(size_t size) {
    gc_collect_if_due();
    size_t index = size / HEAP_GRANULE;
    HeapRun *run = &heap_runs[index];
    if (!run_next(index)) {
        block_take(index, size);
    }
    size_t length = (size_t)(run->limit - run->cursor);
    vm.bytes_allocated += length;
    region_handed_out(run->cursor, length);
    return heap_run_take(run, size);
}

Obj *heap_alloc_large(size_t size) {
    gc_collect_if_due();
    LargeObj *large = mem_checked(malloc(sizeof(LargeObj) + size));
    if ((uintptr_t)large + sizeof(LargeObj) + size - 1 > POINTER_MASK) {
        fprintf(stderr, "drip: object address %p does not fit in 48 bits.\n", (void *)large);
        exit(70);
    }
    large->next = heap.large;
    large->size = size;
    heap.large = large;
    vm.bytes_allocated += size;
    Obj *object = (Obj *)(large + 1);
    *object = (Obj){.flags = OBJ_LARGE};
    return object;
}

bool heap_is_marked(const Obj *object) {
    if (object->flags & OBJ_LARGE) {
        return (object->flags & OBJ_MARKED) != 0;
    }
    return marked_at(heap_block_of(object), (const char *)object);
}

void heap_begin_marking(void) {
    for (size_t index = 0; index < HEAP_SIZES; index++) {
        for (HeapBlock *block = heap.first[index]; block != NULL; block = block->next) {
            memset(block->marks, 0, sizeof block->marks);
        }
    }
}

/* Without a popcount instruction (plain x86-64) counting is a library
 * call, so words without marks, the common case in a young block, skip it. */
static size_t marks_in(const HeapBlock *block) {
    size_t count = 0;
    for (size_t i = 0; i < HEAP_BLOCK_GRANULES / 64; i++) {
        if (block->marks[i] != 0) {
            count += (size_t)__builtin_popcountll(block->marks[i]);
        }
    }
    return count;
}

static void poison_free_runs(HeapBlock *block) {
    HeapRun run = {NULL, slots_begin(block)};
    while (run_find(block, run.limit, &run)) {
        region_dead(run.cursor, (size_t)(run.limit - run.cursor));
    }
}

/* Empty blocks leave their size for the pool; the scan of every size starts
 * over. */
size_t heap_sweep_blocks(void) {
    size_t live = 0;
    bool poison = poisoning();
    HeapBlock *resting = NULL;
    while (heap.resting != NULL) {
        HeapBlock *block = heap.resting;
        heap.resting = block->next;
        block->next = heap.pool;
        heap.pool = block;
    }
    for (size_t index = 0; index < HEAP_SIZES; index++) {
        HeapBlock *kept = NULL;
        HeapBlock **tail = &kept;
        HeapBlock *block = heap.first[index];
        while (block != NULL) {
            HeapBlock *following = block->next;
            size_t count = marks_in(block);
            if (count == 0) {
                HeapBlock **empty = poison ? &resting : &heap.pool;
                block->next = *empty;
                *empty = block;
                if (poison) {
                    region_dead(slots_begin(block), HEAP_BLOCK_SIZE - FIRST_SLOT);
                }
            } else {
                live += count * block->slot_size;
                *tail = block;
                tail = &block->next;
                heap.last[index] = block;
                if (poison) {
                    poison_free_runs(block);
                }
            }
            block = following;
        }
        *tail = NULL;
        heap.first[index] = kept;
        if (kept == NULL) {
            heap.last[index] = NULL;
        }
        heap.scanning[index] = NULL;
        heap_runs[index] = (HeapRun){NULL, NULL};
    }
    heap.resting = resting;
    return live;
}

size_t heap_sweep_large(void (*release)(Obj *)) {
    size_t live = 0;
    LargeObj **link = &heap.large;
    for (LargeObj *large = *link; large != NULL; large = *link) {
        Obj *object = (Obj *)(large + 1);
        if (object->flags & OBJ_MARKED) {
            object->flags &= (uint8_t)~OBJ_MARKED;
            live += large->size;
            link = &large->next;
            continue;
        }
        *link = large->next;
        release(object);
        free(large);
    }
    return live;
}

void heap_free_all(void (*release)(Obj *)) {
    while (heap.large != NULL) {
        LargeObj *large = heap.large;
        heap.large = large->next;
        release((Obj *)(large + 1));
        free(large);
    }
    while (heap.arenas != NULL) {
        Arena *arena = heap.arenas;
        heap.arenas = arena->next;
        free(arena->raw);
        free(arena);
    }
    memset(&heap, 0, sizeof heap);
    heap.poisoning = -1;
    memset(heap_runs, 0, sizeof heap_runs);
}
