/* fuse.c -- the load-time pass that writes the plain loop's superinstructions
 * (what they are and why the code keeps its shape: fuse.h).
 *
 * One walk over each function's instructions, in the compiler's order. At
 * every instruction the patterns are tried in the order of the list, and the
 * first that matches the run starting there replaces that opcode byte. Runs
 * may overlap: a run's inner instructions are reached only by a jump into the
 * run or by a handler falling back, and a fused opcode there stands for the
 * rest of the run as well as the compiler's instruction did. Matching reads
 * opcodes through fuse_original(), so bytes rewritten earlier in the walk
 * read as what the compiler wrote. */
#include <stdio.h>
#include <stdlib.h>

#include "fuse.h"

#define RUN_MAX 8

typedef struct {
    uint8_t fused;
    uint8_t bytes;
    uint8_t needs;
    uint8_t length;
    uint8_t ops[RUN_MAX];
} Pattern;

static const Pattern patterns[] = {
#define AS_PATTERN(name, bytes, needs, ...)                                                        \
    {OP_##name, bytes, needs, FUSED_LENGTH_##name, {__VA_ARGS__}},
    FOR_EACH_FUSED(AS_PATTERN)
#undef AS_PATTERN
};

#define PATTERN_COUNT ((int)(sizeof patterns / sizeof patterns[0]))

int fuse_original(const Chunk *chunk, int offset) {
    int op = chunk->code[offset];
    return op < OPCODE_COUNT ? op : patterns[op - OPCODE_COUNT].ops[0];
}

const char *fused_name(int opcode) {
    static const char *const names[] = {
#define AS_NAME(name, bytes, needs, ...) #name,
        FOR_EACH_FUSED(AS_NAME)
#undef AS_NAME
    };
    return opcode >= OPCODE_COUNT && opcode < ALL_OPCODE_COUNT ? names[opcode - OPCODE_COUNT]
                                                               : NULL;
}

/* Whether the constant the run's CONSTANT loads is of the kind needed. */
static bool constant_fits(const Chunk *chunk, int index, int needs) {
    bool number = IS_NUMBER(chunk->constants.values[index]);
    return (needs & FUSE_NUMBER ? number : true) && (needs & FUSE_OTHER ? !number : true);
}

/* Whether the run ending at end (a JUMP_IF_FALSE, then a POP) jumps to a
 * POP. The jump's offset counts from the POP after it. */
static bool branch_fits(const Chunk *chunk, int end) {
    const uint8_t *jump = &chunk->code[end - 4];
    int target = end - 1 + (jump[1] << 8 | jump[2]);
    return target < chunk->count && fuse_original(chunk, target) == OP_POP;
}

static bool matches(const Chunk *chunk, int offset, const Pattern *pattern) {
    int at = offset;
    int constant = -1;
    for (int i = 0; i < pattern->length; i++) {
        if (at >= chunk->count || fuse_original(chunk, at) != pattern->ops[i]) {
            return false;
        }
        if (pattern->ops[i] == OP_CONSTANT) {
            constant = chunk->code[at + 1];
        }
        at += instruction_size(chunk, at, pattern->ops[i]);
    }
    if (at - offset != pattern->bytes) {
        /* The list's byte count is what the handler steps over. */
        fprintf(stderr, "drip: internal error: fused %s is %d bytes, not %d\n",
                fused_name(pattern->fused), at - offset, pattern->bytes);
        abort();
    }
    if ((pattern->needs & (FUSE_NUMBER | FUSE_OTHER)) &&
        (constant < 0 || !constant_fits(chunk, constant, pattern->needs))) {
        return false;
    }
    return !(pattern->needs & FUSE_BRANCH) || branch_fits(chunk, at);
}

static void fuse_chunk(Chunk *chunk) {
    for (int offset = 0; offset < chunk->count;) {
        int op = fuse_original(chunk, offset);
        for (int i = 0; i < PATTERN_COUNT; i++) {
            if (patterns[i].ops[0] == op && matches(chunk, offset, &patterns[i])) {
                chunk->code[offset] = patterns[i].fused;
                break;
            }
        }
        offset += instruction_size(chunk, offset, op);
    }
}

void fuse_function(ObjFunction *function) {
    Chunk *chunk = &function->chunk;
    fuse_chunk(chunk);
    for (int i = 0; i < chunk->constants.count; i++) {
        Value constant = chunk->constants.values[i];
        if (IS_OBJ(constant) && OBJ_TYPE(constant) == OBJ_FUNCTION) {
            fuse_function(AS_FUNCTION(constant));
        }
    }
}
