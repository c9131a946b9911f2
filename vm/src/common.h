/* common.h -- settings every part of the Drip VM shares.
 *
 * Drip is the Lox language compiled to bytecode and run on a stack machine.
 * This header holds the few compile-time switches and limits so a reader
 * finds them in one place:
 *
 *   DRIP_STRESS_GC        collect garbage on every allocation (a test build
 *                         that shakes out missing GC roots; very slow).
 *   DRIP_NO_INSTRUMENT    leave out the counting copy of the bytecode loop
 *                         (--count, --profile, --folded). Only used to prove
 *                         that the instrumentation costs nothing when unused.
 *   DRIP_NO_COMPUTED_GOTO use a plain switch for dispatch even where the
 *                         compiler supports labels as values.
 *   DRIP_CHECK_STACK      check the compiler's stack-height bound at every
 *                         instruction (test and fuzz builds).
 *   DRIP_STEP_LIMIT=N     stop a program after N instructions (fuzz build).
 *   DRIP_OUTLINE_CALLS    send every OP_CALL through callValue(), kept out of
 *                         line, so callgrind counts one C call per Drip call
 *                         (for the chapter's profile; slower).
 *
 * The limits are those of Lox: one-byte operands give 256 constants and 256
 * locals per function and 255 arguments per call. */
#ifndef DRIP_COMMON_H
#define DRIP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DRIP_VERSION "1.0.0"

#define UINT8_COUNT (UINT8_MAX + 1)

/* Value-stack slots for the whole program. Every call frame uses at least one
 * slot (the callee), so the frame array can never fill before the stack does
 * and one check per call is enough to detect a stack overflow. */
#define STACK_SLOTS (64 * UINT8_COUNT)
#define FRAMES_MAX STACK_SLOTS

/* How deeply programs may nest. The compiler's stages recurse on nested
 * constructs, so these bound the C stack they use; past them a program gets
 * one error naming the limit instead of a crash. An expression level is an
 * operand, argument, parenthesis or right-hand side ("1 + (" is two); a
 * statement level is a block, a body or a function. */
#define EXPRESSION_DEPTH_MAX 1024
#define STATEMENT_DEPTH_MAX 1024

/* The longest string concatenation may build (a runtime error beyond). */
#ifndef DRIP_MAX_STRING_LENGTH
#define DRIP_MAX_STRING_LENGTH (1 << 28)
#endif

#if !defined(DRIP_NO_COMPUTED_GOTO) && defined(__GNUC__)
#define DRIP_COMPUTED_GOTO 1
#else
#define DRIP_COMPUTED_GOTO 0
#endif

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

#endif
