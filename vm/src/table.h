/* table.h -- the hash table behind globals, methods, field layouts and
 * interning.
 *
 * Keys are interned strings, so a probe compares pointers and never
 * characters; each string caches its hash. Collisions are resolved by linear
 * probing in a power-of-two array (index = hash & mask), which keeps a probe
 * sequence in consecutive cache lines.
 *
 * Invariants that make the lookup loop short:
 *   - the table is never more than half full (tombstones count as full), so
 *     every probe sequence reaches an empty slot and a miss is cheap;
 *   - an entry the collector clears from the string table becomes a tombstone
 *     whose key is the TOMBSTONE sentinel, not NULL, so a lookup only has to
 *     ask "is it my key?" and "is it empty?";
 *   - an empty table points at one shared empty entry with mask 0, so lookups
 *     need no special case for "no storage yet".
 *
 * table_get and table_replace are inline because the VM calls them on every
 * global access (field and method accesses mostly hit the names' caches,
 * object.h, and come here only on a miss). */
#ifndef DRIP_TABLE_H
#define DRIP_TABLE_H

#include "common.h"
#include "value.h"

typedef struct {
    ObjString *key;
    Value value;
} Entry;

typedef struct {
    int count;    /* live entries plus tombstones */
    int capacity; /* 0 while entries is the shared empty entry */
    uint32_t mask;
    Entry *entries;
} Table;

/* Key of deleted entries. Never a real string, never dereferenced for data. */
extern ObjString table_tombstone;
#define TOMBSTONE (&table_tombstone)

void table_init(Table *table);
void table_free(Table *table);
/* Sets key to value; returns true if the key was not there before. */
bool table_set(Table *table, ObjString *key, Value value);
void table_add_all(Table *from, Table *to);
/* Grows the table until every key sits in its home slot, so that every
 * lookup that hits does so at the first probe, while that costs at most
 * TABLE_SPREAD slots per key. For the small tables read on every method
 * call and field access (a class's methods and field layout); growth may
 * collect. */
void table_spread(Table *table);
/* Finds an interned string by its characters (the one lookup that compares
 * characters: it is how strings get interned in the first place). */
ObjString *table_find_chars(Table *table, const char *chars, int length, uint32_t hash);
/* Turns the entries whose key the collector left unmarked into tombstones:
 * the string-interning table holds its keys weakly. */
void table_forget_unmarked(Table *table);

/* Looks key up; on a hit stores the value in *value and returns true. The
 * hit in the key's home slot, by far the most common case, is the
 * straight-line path. */
static inline bool table_get(const Table *table, ObjString *key, Value *value) {
    uint32_t mask = table->mask;
    uint32_t index = key->hash & mask;
    const Entry *entry = &table->entries[index];
    if (LIKELY(entry->key == key)) {
        *value = entry->value;
        return true;
    }
    while (entry->key != NULL) {
        index = (index + 1) & mask;
        entry = &table->entries[index];
        if (entry->key == key) {
            *value = entry->value;
            return true;
        }
    }
    return false;
}

/* Replaces the value of an existing key; returns false (and changes nothing)
 * when the key is absent. Assignment to a global uses this. */
static inline bool table_replace(Table *table, ObjString *key, Value value) {
    uint32_t mask = table->mask;
    uint32_t index = key->hash & mask;
    for (;;) {
        Entry *entry = &table->entries[index];
        if (entry->key == key) {
            entry->value = value;
            return true;
        }
        if (entry->key == NULL) {
            return false;
        }
        index = (index + 1) & mask;
    }
}

#endif
