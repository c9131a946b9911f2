/* symbols.h -- names as small integers, for the compiler's stages.
 *
 * Every name the parser meets (variables, parameters, properties, methods,
 * classes) is interned here once and from then on is a symbol: an index into
 * this table. The resolver compares and indexes names by symbol instead of
 * comparing text, and the code generator asks for a symbol's Drip string,
 * which is made (and interned in the VM) the first time and cached.
 *
 * The table lives for one compilation. Cached strings are ordinary heap
 * objects; symbols_mark() keeps them alive while the table does. */
#ifndef DRIP_SYMBOLS_H
#define DRIP_SYMBOLS_H

#include "common.h"
#include "value.h"

/* Symbols the compiler itself refers to: the receiver, the superclass slot
 * of a subclass's methods, and the name that makes a method an initializer. */
enum { SYMBOL_THIS, SYMBOL_SUPER, SYMBOL_INIT };

typedef struct {
    const char *text; /* not NUL-terminated; points into the source */
    uint32_t length;
    uint32_t hash;
    ObjString *string; /* NULL until symbol_string() is first asked */
} Symbol;

typedef struct {
    Symbol *symbols;
    int count;
    int capacity;
    int32_t *slots; /* open addressing: symbol + 1, or 0 for empty */
    uint32_t mask;
} SymbolTable;

void symbols_init(SymbolTable *table);
void symbols_free(SymbolTable *table);
/* The symbol of text[0 .. length), new or existing. The text must outlive
 * the table. */
int32_t symbol_intern(SymbolTable *table, const char *text, uint32_t length);
/* The same, given the text's hash (FNV-1a, as symbol_hash_step computes it
 * byte by byte from SYMBOL_HASH_START), for a scanner that hashes as it goes. */
int32_t symbol_intern_hashed(SymbolTable *table, const char *text, uint32_t length, uint32_t hash);

#define SYMBOL_HASH_START 2166136261u

static inline uint32_t symbol_hash_step(uint32_t hash, unsigned char byte) {
    return (hash ^ byte) * 16777619u;
}
/* The symbol's interned Drip string (may allocate, and so collect). */
ObjString *symbol_string(SymbolTable *table, int32_t symbol);
/* Marks the cached strings (a garbage-collection root while compiling). */
void symbols_mark(SymbolTable *table);

#endif
