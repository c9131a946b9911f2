/* compiler.h -- Drip source to bytecode: the front end's one entry point.
 *
 * The front end runs in four stages, each in its own file:
 *
 *   scanner.c      source -> TokenList          lexical errors become tokens
 *   parser.c       tokens -> syntax tree (ast.h) syntax errors
 *   resolver.c     tree   -> names placed       scope and context errors
 *   codegen.c      tree   -> ObjFunction        bytecode-format limits
 *
 * and diagnostics.c reports every stage's errors in one place, in the order
 * and under the panic-mode rules of a one-pass compiler. compiler.c drives
 * them one top-level declaration at a time. */
#ifndef DRIP_COMPILER_H
#define DRIP_COMPILER_H

#include "object.h"

/* Compiles a whole program (source[source_length] must be a NUL byte) into
 * the function of its top level. Errors go to stderr as clox prints them,
 * "[line N] Error at 'x': message"; then the result is NULL. */
ObjFunction *compile(const char *source, int source_length);
/* Marks what the compiler holds that the collector cannot see: the
 * functions being built and the strings of names. */
void compiler_mark_roots(void);

#endif
