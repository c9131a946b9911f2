/* arena.h: stable copies of byte strings, carved from large blocks.
 *
 * The interning table (intern.h) keeps one copy of each key and the flame
 * graph's trie one name per node, millions of short strings that live as long
 * as their table and are never freed one by one. An arena serves them with a
 * few dozen mallocs instead of one per string, and a copy never moves, so
 * pointers to it stay valid while the arena lives.
 */
#ifndef DRIP_LIB_ARENA_H
#define DRIP_LIB_ARENA_H

#include <stddef.h>

/* The size of a block when arena_init named none (a zeroed Arena is an empty one). */
enum { ARENA_DEFAULT_BLOCK = 1 << 16 };

typedef struct {
    char **blocks;
    size_t block_count;
    size_t used;       /* bytes used in the last block */
    size_t size;       /* size of the last block */
    size_t block_size; /* of a new block (0: the default); a longer string gets its own */
} Arena;

void arena_init(Arena *arena, size_t block_size);
void arena_free(Arena *arena);

/* A copy of bytes[0..length) followed by a NUL, valid until arena_free; NULL when out of
 * memory. */
char *arena_copy(Arena *arena, const void *bytes, size_t length);

#endif
