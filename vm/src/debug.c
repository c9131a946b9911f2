/* debug.c -- prints bytecode one instruction per line:
 *
 *   0004    2 GET_GLOBAL          1 'fib'
 *
 * offset, source line ("|" when it repeats the previous one), opcode and
 * operands. What follows the opcode depends only on its operand layout, so
 * the opcodes are classified once, in chunk.c's table, and one printer
 * handles every layout; a new opcode needs one row there, not a new
 * function. */
#include <stdio.h>

#include "debug.h"
#include "value.h"

/* Prints a constant as the disassembly quotes it: 'value'. */
static void print_quoted(const Chunk *chunk, uint8_t index) {
    putchar('\'');
    value_print(chunk->constants.values[index]);
    putchar('\'');
}

/* The "local 0" / "upvalue 2" lines after CLOSURE; returns the offset past
 * them. */
static int print_captures(const Chunk *chunk, uint8_t index, int offset) {
    ObjFunction *function = AS_FUNCTION(chunk->constants.values[index]);
    for (int i = 0; i < function->upvalueCount; i++, offset += 2) {
        const char *from = chunk->code[offset] ? "local" : "upvalue";
        printf("%04d      |                     %s %d\n", offset, from, chunk->code[offset + 1]);
    }
    return offset;
}

int disassemble_instruction(Chunk *chunk, int offset) {
    const uint8_t *at = &chunk->code[offset];
    bool same_line = offset > 0 && chunk->lines[offset] == chunk->lines[offset - 1];
    printf("%04d ", offset);
    if (same_line) {
        printf("   | ");
    } else {
        printf("%4d ", chunk->lines[offset]);
    }

    const char *name = opcode_name(at[0]);
    switch (opcode_operands(at[0])) {
    case OPERANDS_NONE: printf("%s\n", name); return offset + 1;
    case OPERANDS_BYTE: printf("%-16s %4d\n", name, at[1]); return offset + 2;
    case OPERANDS_JUMP:
    case OPERANDS_LOOP: {
        int distance = (at[1] << 8) | at[2];
        if (opcode_operands(at[0]) == OPERANDS_LOOP) {
            distance = -distance;
        }
        printf("%-16s %4d -> %d\n", name, offset, offset + 3 + distance);
        return offset + 3;
    }
    case OPERANDS_CONSTANT:
        printf("%-16s %4d ", name, at[1]);
        print_quoted(chunk, at[1]);
        putchar('\n');
        return offset + 2;
    case OPERANDS_INVOKE:
        printf("%-16s (%d args) %4d ", name, at[2], at[1]);
        print_quoted(chunk, at[1]);
        putchar('\n');
        return offset + 3;
    case OPERANDS_CLOSURE:
        printf("%-16s %4d ", name, at[1]);
        value_print(chunk->constants.values[at[1]]);
        putchar('\n');
        return print_captures(chunk, at[1], offset + 2);
    }
    return offset + 1;
}

void disassemble_function(ObjFunction *function) {
    Chunk *chunk = &function->chunk;
    printf("== %s ==\n", function->name != NULL ? function->name->chars : "script");
    for (int offset = 0; offset < chunk->count;) {
        offset = disassemble_instruction(chunk, offset);
    }
    /* Nested functions follow their parent, in constant-pool order. */
    for (int i = 0; i < chunk->constants.count; i++) {
        Value constant = chunk->constants.values[i];
        if (IS_OBJ(constant) && OBJ_TYPE(constant) == OBJ_FUNCTION) {
            putchar('\n');
            disassemble_function(AS_FUNCTION(constant));
        }
    }
}
