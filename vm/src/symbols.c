/* symbols.c -- the compiler's name table: open addressing over symbol ids.
 *
 * The slot array holds symbol ids (plus one, so zero means empty) and is
 * kept at most half full; the symbols themselves sit in insertion order in
 * their own array, which is what a symbol id indexes. The hash is FNV-1a,
 * which the scanner computes while it reads an identifier; a probe compares
 * hashes and lengths before it compares text. */
#include <string.h>

#include "growable.h"
#include "memory.h"
#include "object.h"
#include "symbols.h"

/* Rebuilds the slot array at twice the size (at least 64). */
static void slots_grow(SymbolTable *table) {
    uint32_t size = table->slots == NULL ? 64 : (table->mask + 1) * 2;
    int32_t *slots = mem_checked(calloc(size, sizeof(int32_t)));
    for (int32_t id = 0; id < table->count; id++) {
        uint32_t at = table->symbols[id].hash & (size - 1);
        while (slots[at] != 0) {
            at = (at + 1) & (size - 1);
        }
        slots[at] = id + 1;
    }
    free(table->slots);
    table->slots = slots;
    table->mask = size - 1;
}

void symbols_init(SymbolTable *table) {
    memset(table, 0, sizeof *table);
    symbol_intern(table, "this", 4);
    symbol_intern(table, "super", 5);
    symbol_intern(table, "init", 4);
}

void symbols_free(SymbolTable *table) {
    free(table->symbols);
    free(table->slots);
    memset(table, 0, sizeof *table);
}

int32_t symbol_intern(SymbolTable *table, const char *text, uint32_t length) {
    uint32_t hash = SYMBOL_HASH_START;
    for (uint32_t i = 0; i < length; i++) {
        hash = symbol_hash_step(hash, (unsigned char)text[i]);
    }
    return symbol_intern_hashed(table, text, length, hash);
}

int32_t symbol_intern_hashed(SymbolTable *table, const char *text, uint32_t length, uint32_t hash) {
    if ((uint32_t)table->count * 2 >= table->mask) {
        slots_grow(table);
    }
    uint32_t at = hash & table->mask;
    for (int32_t id; (id = table->slots[at]) != 0; at = (at + 1) & table->mask) {
        const Symbol *known = &table->symbols[id - 1];
        if (known->hash == hash && known->length == length &&
            memcmp(known->text, text, length) == 0) {
            return id - 1;
        }
    }
    table->symbols =
        growable_reserve(table->symbols, &table->capacity, table->count + 1, sizeof(Symbol));
    table->symbols[table->count] =
        (Symbol){.text = text, .length = length, .hash = hash, .string = NULL};
    table->slots[at] = table->count + 1;
    return table->count++;
}

ObjString *symbol_string(SymbolTable *table, int32_t symbol) {
    Symbol *entry = &table->symbols[symbol];
    if (entry->string == NULL) {
        entry->string = string_copy(entry->text, (int)entry->length);
    }
    return entry->string;
}

void symbols_mark(SymbolTable *table) {
    for (int i = 0; i < table->count; i++) {
        if (table->symbols[i].string != NULL) {
            gc_mark_object((Obj *)table->symbols[i].string);
        }
    }
}
