/* symbols.c -- the compiler's name table: the workbook's interning table
 * (vm/lib/intern.h), which numbers names in the order they are first met,
 * and beside it each symbol's Drip string once it has been asked for. */
#include <string.h>

#include "growable.h"
#include "memory.h"
#include "object.h"
#include "symbols.h"

void symbols_init(SymbolTable *table) {
    memset(table, 0, sizeof *table);
    symbol_intern(table, "this", 4);
    symbol_intern(table, "super", 5);
    symbol_intern(table, "init", 4);
}

void symbols_free(SymbolTable *table) {
    intern_free(&table->names);
    free(table->strings);
    memset(table, 0, sizeof *table);
}

int32_t symbol_intern(SymbolTable *table, const char *text, uint32_t length) {
    int64_t symbol = intern_add(&table->names, text, length);
    if (symbol < 0 || symbol > INT32_MAX) {
        mem_checked(NULL); /* out of memory: says so and exits */
    }
    if (symbol == table->count) {
        table->strings = growable_reserve(table->strings, &table->capacity, table->count + 1,
                                          sizeof(ObjString *));
        table->strings[table->count++] = NULL;
    }
    return (int32_t)symbol;
}

ObjString *symbol_string(SymbolTable *table, int32_t symbol) {
    if (table->strings[symbol] == NULL) {
        const InternKey *name = &table->names.keys[symbol];
        table->strings[symbol] = string_copy(name->bytes, (int)name->length);
    }
    return table->strings[symbol];
}

void symbols_mark(SymbolTable *table) {
    for (int i = 0; i < table->count; i++) {
        gc_mark_object((Obj *)table->strings[i]);
    }
}
