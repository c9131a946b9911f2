/* debug.h -- a disassembler for chunks (drip --disassemble). */
#ifndef DRIP_DEBUG_H
#define DRIP_DEBUG_H

#include "chunk.h"
#include "object.h"

/* Prints function's bytecode, then that of every function it defines. */
void disassemble_function(ObjFunction *function);
/* Prints the instruction at offset; returns the offset of the next one. */
int disassemble_instruction(Chunk *chunk, int offset);

#endif
