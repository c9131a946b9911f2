/* debug.c -- prints bytecode one instruction per line:
 *
 *   0004    2 GET_GLOBAL          1 'fib'
 *
 * offset, source line ("|" when it repeats the previous one), opcode and
 * operands. Each operand layout has one small printer. */
#include <stdio.h>

#include "debug.h"
#include "value.h"

static int simpleInstruction(const char *name, int offset) {
    printf("%s\n", name);
    return offset + 1;
}

static int byteInstruction(const char *name, Chunk *chunk, int offset) {
    printf("%-16s %4d\n", name, chunk->code[offset + 1]);
    return offset + 2;
}

static int jumpInstruction(const char *name, int sign, Chunk *chunk, int offset) {
    int jump = (chunk->code[offset + 1] << 8) | chunk->code[offset + 2];
    printf("%-16s %4d -> %d\n", name, offset, offset + 3 + sign * jump);
    return offset + 3;
}

static int constantInstruction(const char *name, Chunk *chunk, int offset) {
    uint8_t constant = chunk->code[offset + 1];
    printf("%-16s %4d '", name, constant);
    printValue(chunk->constants.values[constant]);
    printf("'\n");
    return offset + 2;
}

static int invokeInstruction(const char *name, Chunk *chunk, int offset) {
    uint8_t constant = chunk->code[offset + 1];
    uint8_t argCount = chunk->code[offset + 2];
    printf("%-16s (%d args) %4d '", name, argCount, constant);
    printValue(chunk->constants.values[constant]);
    printf("'\n");
    return offset + 3;
}

static int closureInstruction(Chunk *chunk, int offset) {
    uint8_t constant = chunk->code[offset + 1];
    offset += 2;
    printf("%-16s %4d ", "CLOSURE", constant);
    printValue(chunk->constants.values[constant]);
    printf("\n");
    ObjFunction *function = AS_FUNCTION(chunk->constants.values[constant]);
    for (int j = 0; j < function->upvalueCount; j++) {
        int isLocal = chunk->code[offset];
        int index = chunk->code[offset + 1];
        printf("%04d      |                     %s %d\n", offset, isLocal ? "local" : "upvalue",
               index);
        offset += 2;
    }
    return offset;
}

int disassembleInstruction(Chunk *chunk, int offset) {
    printf("%04d ", offset);
    if (offset > 0 && chunk->lines[offset] == chunk->lines[offset - 1]) {
        printf("   | ");
    } else {
        printf("%4d ", chunk->lines[offset]);
    }
    uint8_t instruction = chunk->code[offset];
    const char *name = opcodeName(instruction);
    switch (instruction) {
    case OP_CONSTANT:
    case OP_GET_GLOBAL:
    case OP_DEFINE_GLOBAL:
    case OP_SET_GLOBAL:
    case OP_GET_PROPERTY:
    case OP_SET_PROPERTY:
    case OP_GET_SUPER:
    case OP_CLASS:
    case OP_METHOD: return constantInstruction(name, chunk, offset);
    case OP_GET_LOCAL:
    case OP_SET_LOCAL:
    case OP_GET_UPVALUE:
    case OP_SET_UPVALUE:
    case OP_CALL: return byteInstruction(name, chunk, offset);
    case OP_JUMP:
    case OP_JUMP_IF_FALSE: return jumpInstruction(name, 1, chunk, offset);
    case OP_LOOP: return jumpInstruction(name, -1, chunk, offset);
    case OP_INVOKE:
    case OP_SUPER_INVOKE: return invokeInstruction(name, chunk, offset);
    case OP_CLOSURE: return closureInstruction(chunk, offset);
    default: return simpleInstruction(name, offset);
    }
}

void disassembleFunction(ObjFunction *function) {
    Chunk *chunk = &function->chunk;
    printf("== %s ==\n", function->name != NULL ? function->name->chars : "script");
    for (int offset = 0; offset < chunk->count;) {
        offset = disassembleInstruction(chunk, offset);
    }
    for (int i = 0; i < chunk->constants.count; i++) {
        Value constant = chunk->constants.values[i];
        if (IS_OBJ(constant) && OBJ_TYPE(constant) == OBJ_FUNCTION) {
            printf("\n");
            disassembleFunction(AS_FUNCTION(constant));
        }
    }
}
