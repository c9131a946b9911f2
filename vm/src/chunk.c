/* chunk.c -- growing and freeing chunks of bytecode. */
#include "chunk.h"
#include "memory.h"
#include "vm.h"

void chunk_init(Chunk *chunk) {
    chunk->code = NULL;
    chunk->lines = NULL;
    chunk->count = chunk->capacity = 0;
    value_array_init(&chunk->constants);
}

void chunk_free(Chunk *chunk) {
    FREE_ARRAY(uint8_t, chunk->code, chunk->capacity);
    FREE_ARRAY(int, chunk->lines, chunk->capacity);
    value_array_free(&chunk->constants);
    chunk_init(chunk);
}

/* Code and lines are parallel arrays, so they always grow together. */
static void chunk_grow(Chunk *chunk) {
    int old_capacity = chunk->capacity;
    int new_capacity = GROW_CAPACITY(old_capacity);
    chunk->code = GROW_ARRAY(uint8_t, chunk->code, old_capacity, new_capacity);
    chunk->lines = GROW_ARRAY(int, chunk->lines, old_capacity, new_capacity);
    chunk->capacity = new_capacity;
}

void chunk_write(Chunk *chunk, uint8_t byte, int line) {
    if (chunk->count == chunk->capacity) {
        chunk_grow(chunk);
    }
    int at = chunk->count++;
    chunk->code[at] = byte;
    chunk->lines[at] = line;
}

int chunk_add_constant(Chunk *chunk, Value value) {
    /* The value may be a fresh string that only this chunk will hold; keep it
     * reachable while the pool grows, which may collect. */
    vm_push(value);
    value_array_push(&chunk->constants, value);
    vm.stack_top--;
    return chunk->constants.count - 1;
}

const char *opcode_name(int opcode) {
    static const char *const names[] = {
#define AS_NAME(name) #name,
        FOR_EACH_OPCODE(AS_NAME)
#undef AS_NAME
    };
    if (opcode < 0 || opcode >= OPCODE_COUNT) {
        return "?";
    }
    return names[opcode];
}
