/* fuse.h -- superinstructions for the plain run loop, chosen once at load time.
 *
 * The compiler writes clox's bytecode, and --count, --profile and --folded run
 * it as written (the chapter's counts are those of that bytecode). Before a
 * program runs in the plain loop, fuse_function() looks at every instruction
 * of every function and, where a run of instructions starting there matches
 * one of the patterns below, overwrites that first opcode byte with the fused
 * opcode, which does the whole run's work in one dispatch. Nothing else is
 * written, so:
 *
 *   - every operand, and every opcode after the first of a run, stays where
 *     the compiler put it: the fused handlers read their operands there, jumps
 *     keep their offsets, and a jump into the middle of a run finds the
 *     compiler's instructions (or a fused opcode that stands for the rest);
 *   - the line table still matches the code byte for byte;
 *   - a fused opcode can always carry on as the first instruction of its run
 *     instead (its operands follow it as they followed that opcode). Its
 *     handler does so whenever its operands are not of the kind it handles (a
 *     string where it expects numbers, an instance whose property cache
 *     misses, ...), so the fused handlers never report errors, allocate or
 *     call: those cases run through the compiler's instructions, with their
 *     own ip, lines and messages.
 *
 * The patterns. Each row is X(NAME, BYTES, NEEDS, OPCODES...): the run's
 * opcodes, its length in bytes, and what else must hold:
 *   FUSE_NUMBER  the run's CONSTANT is a number (so the handler need not test
 *                the constant's type);
 *   FUSE_OTHER   the run's CONSTANT is not a number (equality is then the
 *                identity of the two values: strings are interned);
 *   FUSE_BRANCH  the run ends in JUMP_IF_FALSE, POP and the jump's target is
 *                a POP as well, the shape of every `if` and `while`: the
 *                handler tests the condition and goes past the POP of the
 *                branch it takes, without pushing a boolean.
 * Names say what the run does: LOCAL is GET_LOCAL, BRANCH is a FUSE_BRANCH
 * ending, NOT_BRANCH one with NOT before it (`!=`, `<=` and `>=` compile to a
 * comparison and NOT). vm/PERFORMANCE.md has what each pattern saves. */
#ifndef DRIP_FUSE_H
#define DRIP_FUSE_H

#include "chunk.h"
#include "object.h"

enum { FUSE_NUMBER = 1, FUSE_OTHER = 2, FUSE_BRANCH = 4 };

#define FUSE_NB (FUSE_NUMBER | FUSE_BRANCH)
#define FUSE_OB (FUSE_OTHER | FUSE_BRANCH)

#define FOR_EACH_FUSED(X)                                                                          \
    X(BRANCH, 4, FUSE_BRANCH, OP_JUMP_IF_FALSE, OP_POP)                                            \
    X(NOT_BRANCH, 5, FUSE_BRANCH, OP_NOT, OP_JUMP_IF_FALSE, OP_POP)                                \
    X(EQUAL_BRANCH, 5, FUSE_BRANCH, OP_EQUAL, OP_JUMP_IF_FALSE, OP_POP)                            \
    X(EQUAL_NOT_BRANCH, 6, FUSE_BRANCH, OP_EQUAL, OP_NOT, OP_JUMP_IF_FALSE, OP_POP)                \
    X(LESS_BRANCH, 5, FUSE_BRANCH, OP_LESS, OP_JUMP_IF_FALSE, OP_POP)                              \
    X(LESS_NOT_BRANCH, 6, FUSE_BRANCH, OP_LESS, OP_NOT, OP_JUMP_IF_FALSE, OP_POP)                  \
    X(GREATER_BRANCH, 5, FUSE_BRANCH, OP_GREATER, OP_JUMP_IF_FALSE, OP_POP)                        \
    X(GREATER_NOT_BRANCH, 6, FUSE_BRANCH, OP_GREATER, OP_NOT, OP_JUMP_IF_FALSE, OP_POP)            \
    X(CONSTANT_EQUAL_BRANCH, 7, FUSE_NB, OP_CONSTANT, OP_EQUAL, OP_JUMP_IF_FALSE, OP_POP)          \
    X(CONSTANT_EQUAL_NOT_BRANCH, 8, FUSE_NB, OP_CONSTANT, OP_EQUAL, OP_NOT, OP_JUMP_IF_FALSE,      \
      OP_POP)                                                                                      \
    X(CONSTANT_IS_BRANCH, 7, FUSE_OB, OP_CONSTANT, OP_EQUAL, OP_JUMP_IF_FALSE, OP_POP)             \
    X(CONSTANT_IS_NOT_BRANCH, 8, FUSE_OB, OP_CONSTANT, OP_EQUAL, OP_NOT, OP_JUMP_IF_FALSE, OP_POP) \
    X(CONSTANT_LESS_BRANCH, 7, FUSE_NB, OP_CONSTANT, OP_LESS, OP_JUMP_IF_FALSE, OP_POP)            \
    X(CONSTANT_LESS_NOT_BRANCH, 8, FUSE_NB, OP_CONSTANT, OP_LESS, OP_NOT, OP_JUMP_IF_FALSE,        \
      OP_POP)                                                                                      \
    X(CONSTANT_GREATER_BRANCH, 7, FUSE_NB, OP_CONSTANT, OP_GREATER, OP_JUMP_IF_FALSE, OP_POP)      \
    X(CONSTANT_GREATER_NOT_BRANCH, 8, FUSE_NB, OP_CONSTANT, OP_GREATER, OP_NOT, OP_JUMP_IF_FALSE,  \
      OP_POP)                                                                                      \
    X(NIL_EQUAL_BRANCH, 6, FUSE_BRANCH, OP_NIL, OP_EQUAL, OP_JUMP_IF_FALSE, OP_POP)                \
    X(NIL_EQUAL_NOT_BRANCH, 7, FUSE_BRANCH, OP_NIL, OP_EQUAL, OP_NOT, OP_JUMP_IF_FALSE, OP_POP)    \
    X(LOCAL_CONSTANT_EQUAL_BRANCH, 9, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_EQUAL,                \
      OP_JUMP_IF_FALSE, OP_POP)                                                                    \
    X(LOCAL_CONSTANT_EQUAL_NOT_BRANCH, 10, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_EQUAL, OP_NOT,   \
      OP_JUMP_IF_FALSE, OP_POP)                                                                    \
    X(LOCAL_CONSTANT_LESS_BRANCH, 9, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_LESS,                  \
      OP_JUMP_IF_FALSE, OP_POP)                                                                    \
    X(LOCAL_CONSTANT_LESS_NOT_BRANCH, 10, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_LESS, OP_NOT,     \
      OP_JUMP_IF_FALSE, OP_POP)                                                                    \
    X(LOCAL_CONSTANT_GREATER_BRANCH, 9, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_GREATER,            \
      OP_JUMP_IF_FALSE, OP_POP)                                                                    \
    X(LOCAL_CONSTANT_GREATER_NOT_BRANCH, 10, FUSE_NB, OP_GET_LOCAL, OP_CONSTANT, OP_GREATER,       \
      OP_NOT, OP_JUMP_IF_FALSE, OP_POP)                                                            \
    X(LOCAL_CONSTANT_ADD, 5, FUSE_NUMBER, OP_GET_LOCAL, OP_CONSTANT, OP_ADD)                       \
    X(LOCAL_CONSTANT_SUBTRACT, 5, FUSE_NUMBER, OP_GET_LOCAL, OP_CONSTANT, OP_SUBTRACT)             \
    X(LOCAL_GET_PROPERTY, 4, 0, OP_GET_LOCAL, OP_GET_PROPERTY)                                     \
    X(LOCAL_LOCAL, 4, 0, OP_GET_LOCAL, OP_GET_LOCAL)                                               \
    X(LOCAL_RETURN, 3, 0, OP_GET_LOCAL, OP_RETURN)                                                 \
    X(NIL_RETURN, 2, 0, OP_NIL, OP_RETURN)                                                         \
    X(CONSTANT_ADD, 3, FUSE_NUMBER, OP_CONSTANT, OP_ADD)                                           \
    X(CONSTANT_SUBTRACT, 3, FUSE_NUMBER, OP_CONSTANT, OP_SUBTRACT)                                 \
    X(GLOBAL_CONSTANT_ADD, 5, FUSE_NUMBER, OP_GET_GLOBAL, OP_CONSTANT, OP_ADD)                     \
    X(GLOBAL_GLOBAL, 4, 0, OP_GET_GLOBAL, OP_GET_GLOBAL)                                           \
    X(ADD_RETURN, 2, 0, OP_ADD, OP_RETURN)                                                         \
    X(SET_LOCAL_POP_LOOP, 6, 0, OP_SET_LOCAL, OP_POP, OP_LOOP)                                     \
    X(SET_GLOBAL_POP_LOOP, 6, 0, OP_SET_GLOBAL, OP_POP, OP_LOOP)                                   \
    X(SET_GLOBAL_POP_JUMP, 6, 0, OP_SET_GLOBAL, OP_POP, OP_JUMP)                                   \
    X(SET_GLOBAL_POP, 3, 0, OP_SET_GLOBAL, OP_POP)                                                 \
    X(SET_PROPERTY_POP, 3, 0, OP_SET_PROPERTY, OP_POP)

/* Fused opcodes are numbered after the compiler's. */
typedef enum {
    FUSED_BEFORE_FIRST = OPCODE_COUNT - 1,
#define AS_ENUM(name, bytes, needs, ...) OP_##name,
    FOR_EACH_FUSED(AS_ENUM)
#undef AS_ENUM
        ALL_OPCODE_COUNT
} FusedOpCode;

#define FUSED_FIRST_OF(...) FUSED_FIRST_OF_(__VA_ARGS__, 0)
#define FUSED_FIRST_OF_(first, ...) first
/* Per fused opcode, constants for its handler: FUSED_FIRST_name, the opcode
 * of the run's first instruction; FUSED_BYTES_name, the run's size; and
 * FUSED_LENGTH_name, its number of instructions. */
enum {
#define AS_CONSTANTS(name, bytes, needs, ...)                                                      \
    FUSED_FIRST_##name = FUSED_FIRST_OF(__VA_ARGS__), FUSED_BYTES_##name = (bytes),                \
    FUSED_LENGTH_##name = sizeof((const uint8_t[]){__VA_ARGS__}),
    FOR_EACH_FUSED(AS_CONSTANTS)
#undef AS_CONSTANTS
};

/* Writes the fused opcodes into function's code and that of every function
 * it defines. Only for a program about to run in the plain loop. */
void fuse_function(ObjFunction *function);
/* The opcode the compiler wrote at offset: the first of the run for a fused
 * opcode, the byte itself otherwise. */
int fuse_original(const Chunk *chunk, int offset);
/* A fused opcode's name ("LESS_BRANCH"); NULL for the compiler's opcodes. */
const char *fused_name(int opcode);

#endif
