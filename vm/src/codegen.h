/* codegen.h -- the last stage: resolved syntax tree to bytecode.
 *
 * One generator per node kind, chosen from a table, appends the node's
 * instructions to the chunk of the function being generated. Everything
 * about names was decided by the resolver; what is left here is the layout
 * of code (jumps and their patching), the constant pool, and the stack
 * height each instruction leaves, whose maximum becomes the function's
 * maxSlots so the VM can check for stack overflow once per call.
 *
 * The instruction stream is exactly that of the one-pass compiler this front
 * end replaced, byte for byte and line for line: each instruction takes its
 * line from the token the tree recorded for it. The only errors found here
 * are limits of the bytecode format (256 constants, 16-bit jumps). */
#ifndef DRIP_CODEGEN_H
#define DRIP_CODEGEN_H

#include "ast.h"
#include "diagnostics.h"
#include "object.h"
#include "symbols.h"

typedef struct FunctionBuild FunctionBuild;
typedef struct Assembly Assembly;

typedef struct {
    const Ast *ast;
    const TokenList *tokens;
    SymbolTable *symbols;
    Diagnostics *diagnostics;
    FunctionBuild *function; /* innermost function being built */
    FunctionBuild *script;
    Assembly **assemblies; /* one per nesting depth, reused */
    int assembly_count;
    int assembly_capacity;
} Codegen;

/* Where the script's code stands between top-level declarations, to undo
 * one (when it has to be parsed again). */
typedef struct {
    int code_count;
    int constant_count;
    int height;
} CodegenMark;

/* Starts the script function. */
void codegen_begin(Codegen *codegen, const Ast *ast, const TokenList *tokens, SymbolTable *symbols,
                   Diagnostics *diagnostics);
void codegen_declaration(Codegen *codegen, NodeRef declaration);
/* Ends the script with its implicit return; returns it. */
ObjFunction *codegen_end(Codegen *codegen);

CodegenMark codegen_mark(const Codegen *codegen);
void codegen_rewind(Codegen *codegen, CodegenMark mark);

/* Marks the functions being built (a garbage-collection root). */
void codegen_mark_roots(const Codegen *codegen);

#endif
