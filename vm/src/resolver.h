/* resolver.h -- the third stage: scopes and names over the syntax tree.
 *
 * The resolver walks the tree of one top-level declaration in source order
 * and decides, for every use of a name, whether it is a local slot of the
 * function it is in, a variable captured from an enclosing function (an
 * upvalue), or a global looked up by name at run time. It records for each
 * function the variables its closure captures, and for each scope the
 * instructions that drop its locals (POP, or CLOSE_UPVALUE for a captured
 * one). It also makes the checks that need scopes or context: duplicate
 * locals, reading a local in its own initializer, the 256-local and
 * 256-capture limits, and `return`, `this` and `super` where they are not
 * allowed.
 *
 * Bindings. Each declared local is a binding that knows its function, slot
 * and scope depth; each symbol points at its innermost binding, and each
 * binding at the one it shadows. A use is resolved in one step, and leaving
 * a scope pops its bindings and restores what they shadowed. */
#ifndef DRIP_RESOLVER_H
#define DRIP_RESOLVER_H

#include "ast.h"
#include "diagnostics.h"
#include "symbols.h"

typedef struct {
    int32_t symbol;
    int32_t shadowed; /* the binding this one hides, or -1 */
    int32_t level;    /* the function it belongs to (0: the script) */
    int16_t slot;
    int16_t depth; /* scope depth within its function */
    bool ready;    /* its initializer has been compiled */
    bool captured;
} Binding;

typedef struct FunctionScope FunctionScope;

typedef struct {
    Ast *ast;
    SymbolTable *symbols;
    Diagnostics *diagnostics;
    Binding *bindings;
    int binding_count;
    int binding_capacity;
    int32_t *innermost; /* per symbol: its innermost binding, or -1 */
    int innermost_capacity;
    FunctionScope *functions; /* [0] is the script */
    int function_count;
    int function_capacity;
    bool *class_has_superclass; /* per enclosing class, innermost last */
    int class_count;
    int class_capacity;
} Resolver;

void resolver_init(Resolver *resolver, Ast *ast, SymbolTable *symbols, Diagnostics *diagnostics);
void resolver_free(Resolver *resolver);
/* Resolves one top-level declaration in the script's scope. */
void resolve_declaration(Resolver *resolver, NodeRef declaration);

#endif
