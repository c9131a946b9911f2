/* chunk.h -- a compiled function body: bytecode, line numbers, constants.
 *
 * The instruction set is one list, FOR_EACH_OPCODE, expanded wherever a
 * table per opcode is needed: the enum below, the disassembler's names and
 * operand layouts, the --count report, the code generator's stack effects and
 * the VM's computed-goto jump table. Adding an opcode in one place keeps all
 * of them in step.
 *
 * Operands are one byte (constant index, local slot, argument count) or two
 * bytes big-endian (jump offsets). The granularity is that of clox: a call of
 * fib(n) runs 7 instructions when n < 2 and 17 otherwise, and the workbook's
 * chapter relies on exactly those counts, so the compiler writes no
 * superinstructions. The plain run loop gets some all the same, written over
 * this bytecode at load time without moving a byte (fuse.h); --count and the
 * other reports run the code as compiled.
 *
 * Each byte of code has its source line in a parallel array. That costs four
 * bytes per byte of code, but the VM only reads it on errors, and it keeps
 * the lookup trivial. A chunk is written once, whole, when its function has
 * been compiled, so it never grows: its constants, lines and code share one
 * allocation of exactly their size, which chunk_free() alone may free (the
 * pool's values are the start of that block, not an array of their own). */
#ifndef DRIP_CHUNK_H
#define DRIP_CHUNK_H

#include "common.h"
#include "value.h"

/* A row per opcode: X(NAME, OPERANDS, EFFECT), its operand layout (an
 * Operands, below, without the OPERANDS_ prefix) and what it does to the
 * value stack's height. A call's effect is that of its callee's slot alone;
 * the code generator accounts for the arguments where it emits the call. */
#define FOR_EACH_OPCODE(X)                                                                         \
    X(CONSTANT, CONSTANT, 1)                                                                       \
    X(NIL, NONE, 1)                                                                                \
    X(TRUE, NONE, 1)                                                                               \
    X(FALSE, NONE, 1)                                                                              \
    X(POP, NONE, -1)                                                                               \
    X(GET_LOCAL, BYTE, 1)                                                                          \
    X(SET_LOCAL, BYTE, 0)                                                                          \
    X(GET_GLOBAL, CONSTANT, 1)                                                                     \
    X(DEFINE_GLOBAL, CONSTANT, -1)                                                                 \
    X(SET_GLOBAL, CONSTANT, 0)                                                                     \
    X(GET_UPVALUE, BYTE, 1)                                                                        \
    X(SET_UPVALUE, BYTE, 0)                                                                        \
    X(GET_PROPERTY, CONSTANT, 0)                                                                   \
    X(SET_PROPERTY, CONSTANT, -1)                                                                  \
    X(GET_SUPER, CONSTANT, -1)                                                                     \
    X(EQUAL, NONE, -1)                                                                             \
    X(GREATER, NONE, -1)                                                                           \
    X(LESS, NONE, -1)                                                                              \
    X(ADD, NONE, -1)                                                                               \
    X(SUBTRACT, NONE, -1)                                                                          \
    X(MULTIPLY, NONE, -1)                                                                          \
    X(DIVIDE, NONE, -1)                                                                            \
    X(NOT, NONE, 0)                                                                                \
    X(NEGATE, NONE, 0)                                                                             \
    X(PRINT, NONE, -1)                                                                             \
    X(JUMP, JUMP, 0)                                                                               \
    X(JUMP_IF_FALSE, JUMP, 0)                                                                      \
    X(LOOP, LOOP, 0)                                                                               \
    X(CALL, BYTE, 0)                                                                               \
    X(INVOKE, INVOKE, 0)                                                                           \
    X(SUPER_INVOKE, INVOKE, 0)                                                                     \
    X(CLOSURE, CLOSURE, 1)                                                                         \
    X(CLOSE_UPVALUE, NONE, -1)                                                                     \
    X(RETURN, NONE, -1)                                                                            \
    X(CLASS, CONSTANT, 1)                                                                          \
    X(INHERIT, NONE, -1)                                                                           \
    X(METHOD, CONSTANT, -1)

typedef enum {
#define AS_ENUM(name, operands, effect) OP_##name,
    FOR_EACH_OPCODE(AS_ENUM)
#undef AS_ENUM
        OPCODE_COUNT
} OpCode;

/* How an instruction's operands are laid out after its opcode. */
typedef enum {
    OPERANDS_NONE = 0, /* none */
    OPERANDS_CONSTANT, /* a constant index */
    OPERANDS_BYTE,     /* a slot, an upvalue index or an argument count */
    OPERANDS_JUMP,     /* a forward 16-bit offset */
    OPERANDS_LOOP,     /* a backward 16-bit offset */
    OPERANDS_INVOKE,   /* a method name constant and an argument count */
    OPERANDS_CLOSURE,  /* a function constant, then a pair per upvalue */
} Operands;

typedef struct {
    int count;
    uint8_t *code;
    int *lines; /* lines[i] is the source line of code[i] */
    ValueArray constants;
} Chunk;

void chunk_init(Chunk *chunk);
void chunk_free(Chunk *chunk);
/* Gives an empty chunk its contents, copied into allocations of exactly
 * their size: count bytes of code with their lines, and the constants. The
 * compiler assembles a function elsewhere and calls this once, at its end.
 * It allocates, and so may collect garbage: the constants must be reachable
 * from somewhere else until it returns. */
void chunk_fill(Chunk *chunk, const uint8_t *code, const int *lines, int count,
                const Value *constants, int constant_count);
/* "GET_LOCAL" for OP_GET_LOCAL; "?" for a byte that is no opcode. */
const char *opcode_name(int opcode);
/* The operand layout of an opcode (OPERANDS_NONE for a byte that is none). */
Operands opcode_operands(int opcode);
/* The size in bytes of the instruction with the given opcode at offset: one
 * for the opcode, then its operands. CLOSURE's size depends on its function's
 * captures, read from the constant pool. */
int instruction_size(const Chunk *chunk, int offset, int opcode);

#endif
