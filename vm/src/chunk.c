/* chunk.c -- the storage of chunks: one block for the constant pool, the
 * lines and the code, allocated once at its final size. */
#include <string.h>

#include "chunk.h"
#include "memory.h"
#include "object.h"

/* A chunk's one block: the constants (8-byte values first, for alignment),
 * then a line per code byte, then the code. */
static size_t block_bytes(int code_count, int constant_count) {
    return sizeof(Value) * (size_t)constant_count + (sizeof(int) + 1) * (size_t)code_count;
}

void chunk_init(Chunk *chunk) {
    *chunk = (Chunk){.code = NULL, .lines = NULL, .constants = {.values = NULL}};
}

void chunk_free(Chunk *chunk) {
    mem_resize(chunk->constants.values, block_bytes(chunk->count, chunk->constants.count), 0);
    chunk_init(chunk);
}

void chunk_fill(Chunk *chunk, const uint8_t *code, const int *lines, int count,
                const Value *constants, int constant_count) {
    Value *block = mem_resize(NULL, 0, block_bytes(count, constant_count));
    int *block_lines = (int *)(block + constant_count);
    uint8_t *block_code = (uint8_t *)(block_lines + count);
    if (constant_count > 0) { /* an empty pool may have no array at all */
        memcpy(block, constants, sizeof(Value) * (size_t)constant_count);
    }
    memcpy(block_lines, lines, sizeof(int) * (size_t)count);
    memcpy(block_code, code, (size_t)count);
    chunk->constants.values = block;
    chunk->constants.count = constant_count;
    chunk->lines = block_lines;
    chunk->code = block_code;
    chunk->count = count;
}

const char *opcode_name(int opcode) {
    static const char *const names[] = {
#define AS_NAME(name, operands, effect) #name,
        FOR_EACH_OPCODE(AS_NAME)
#undef AS_NAME
    };
    if (opcode < 0 || opcode >= OPCODE_COUNT) {
        return "?";
    }
    return names[opcode];
}

Operands opcode_operands(int opcode) {
    static const unsigned char operands_of[] = {
#define AS_OPERANDS(name, operands, effect) OPERANDS_##operands,
        FOR_EACH_OPCODE(AS_OPERANDS)
#undef AS_OPERANDS
    };
    return opcode >= 0 && opcode < OPCODE_COUNT ? (Operands)operands_of[opcode] : OPERANDS_NONE;
}

int instruction_size(const Chunk *chunk, int offset, int opcode) {
    switch (opcode_operands(opcode)) {
    case OPERANDS_NONE: return 1;
    case OPERANDS_CONSTANT:
    case OPERANDS_BYTE: return 2;
    case OPERANDS_JUMP:
    case OPERANDS_LOOP:
    case OPERANDS_INVOKE: return 3;
    case OPERANDS_CLOSURE: {
        ObjFunction *function = AS_FUNCTION(chunk->constants.values[chunk->code[offset + 1]]);
        return 2 + 2 * function->upvalueCount;
    }
    }
    return 1;
}
