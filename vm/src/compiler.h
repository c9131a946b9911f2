/* compiler.h -- the one-pass compiler from Drip source to bytecode. */
#ifndef DRIP_COMPILER_H
#define DRIP_COMPILER_H

#include "object.h"

/* Compiles a whole program into the function of its top level. Errors go to
 * stderr as "[line N] Error at 'x': message"; then the result is NULL. */
ObjFunction *compile(const char *source, int source_length);
/* Marks the functions being compiled, which are not reachable otherwise. */
void compiler_mark_roots(void);

#endif
