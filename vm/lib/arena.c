/* arena.c: a bump allocator for byte strings (see arena.h). */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

void arena_init(Arena *arena, size_t block_size) {
    *arena = (Arena){.block_size = block_size};
}

void arena_free(Arena *arena) {
    for (size_t i = 0; i < arena->block_count; i++) {
        free(arena->blocks[i]);
    }
    free(arena->blocks);
    arena_init(arena, arena->block_size);
}

/* Starts a block with room for at least need bytes. 0, or -1 when out of memory. */
static int new_block(Arena *arena, size_t need) {
    size_t block = arena->block_size ? arena->block_size : ARENA_DEFAULT_BLOCK;
    size_t size = need > block ? need : block;
    char **blocks = realloc(arena->blocks, (arena->block_count + 1) * sizeof *blocks);
    if (blocks == NULL) {
        return -1;
    }
    arena->blocks = blocks;
    blocks[arena->block_count] = malloc(size);
    if (blocks[arena->block_count] == NULL) {
        return -1;
    }
    arena->block_count++;
    arena->size = size;
    arena->used = 0;
    return 0;
}

char *arena_copy(Arena *arena, const void *bytes, size_t length) {
    if ((arena->block_count == 0 || arena->size - arena->used < length + 1) &&
        new_block(arena, length + 1) != 0) {
        return NULL;
    }
    char *copy = arena->blocks[arena->block_count - 1] + arena->used;
    if (length > 0) {
        memcpy(copy, bytes, length);
    }
    copy[length] = '\0';
    arena->used += length + 1;
    return copy;
}
