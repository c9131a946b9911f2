/* table.c -- open addressing with linear probing; see table.h for the
 * invariants. Growth doubles the array and reinserts the live entries, which
 * also clears out tombstones. */
#include <string.h>

#include "memory.h"
#include "object.h"
#include "table.h"

ObjString tableTombstoneKey;

/* Shared by every empty table; never written, since tableSet grows first. */
static Entry emptyEntry = {NULL, 0};

void initTable(Table *table) {
    table->count = 0;
    table->capacity = 0;
    table->mask = 0;
    table->entries = &emptyEntry;
}

void freeTable(Table *table) {
    if (table->capacity > 0) {
        FREE_ARRAY(Entry, table->entries, table->capacity);
    }
    initTable(table);
}

/* The slot for key: its entry if present, else the first tombstone passed on
 * the way, else the empty slot that ended the probe. */
static Entry *findSlot(Entry *entries, uint32_t mask, ObjString *key) {
    uint32_t index = key->hash & mask;
    Entry *tombstone = NULL;
    for (;;) {
        Entry *entry = &entries[index];
        if (entry->key == key) {
            return entry;
        }
        if (entry->key == NULL) {
            return tombstone != NULL ? tombstone : entry;
        }
        if (entry->key == TOMBSTONE && tombstone == NULL) {
            tombstone = entry;
        }
        index = (index + 1) & mask;
    }
}

static void growTable(Table *table, int capacity) {
    Entry *entries = ALLOCATE(Entry, capacity);
    for (int i = 0; i < capacity; i++) {
        entries[i].key = NULL;
        entries[i].value = NIL_VAL;
    }
    uint32_t mask = (uint32_t)capacity - 1;
    table->count = 0;
    for (int i = 0; i < table->capacity; i++) {
        Entry *entry = &table->entries[i];
        if (entry->key == NULL || entry->key == TOMBSTONE) {
            continue;
        }
        Entry *dest = findSlot(entries, mask, entry->key);
        *dest = *entry;
        table->count++;
    }
    if (table->capacity > 0) {
        FREE_ARRAY(Entry, table->entries, table->capacity);
    }
    table->entries = entries;
    table->capacity = capacity;
    table->mask = mask;
}

bool tableSet(Table *table, ObjString *key, Value value) {
    /* At most half full, so probes stay short and always end. */
    if ((table->count + 1) * 2 > table->capacity) {
        growTable(table, table->capacity < 8 ? 8 : table->capacity * 2);
    }
    Entry *entry = findSlot(table->entries, table->mask, key);
    bool isNewKey = entry->key != key;
    if (entry->key == NULL) {
        table->count++; /* reusing a tombstone does not change the count */
    }
    entry->key = key;
    entry->value = value;
    return isNewKey;
}

bool tableDelete(Table *table, ObjString *key) {
    if (table->count == 0) {
        return false;
    }
    Entry *entry = findSlot(table->entries, table->mask, key);
    if (entry->key != key) {
        return false;
    }
    entry->key = TOMBSTONE;
    entry->value = NIL_VAL;
    return true;
}

void tableAddAll(Table *from, Table *to) {
    for (int i = 0; i < from->capacity; i++) {
        Entry *entry = &from->entries[i];
        if (entry->key != NULL && entry->key != TOMBSTONE) {
            tableSet(to, entry->key, entry->value);
        }
    }
}

ObjString *tableFindString(Table *table, const char *chars, int length, uint32_t hash) {
    if (table->count == 0) {
        return NULL;
    }
    uint32_t index = hash & table->mask;
    for (;;) {
        Entry *entry = &table->entries[index];
        if (entry->key == NULL) {
            return NULL;
        }
        if (entry->key != TOMBSTONE && entry->key->length == length && entry->key->hash == hash &&
            memcmp(entry->key->chars, chars, (size_t)length) == 0) {
            return entry->key;
        }
        index = (index + 1) & table->mask;
    }
}

void tableRemoveWhite(Table *table) {
    for (int i = 0; i < table->capacity; i++) {
        Entry *entry = &table->entries[i];
        if (entry->key != NULL && entry->key != TOMBSTONE && !entry->key->obj.isMarked) {
            entry->key = TOMBSTONE;
            entry->value = NIL_VAL;
        }
    }
}

void markTable(Table *table) {
    for (int i = 0; i < table->capacity; i++) {
        Entry *entry = &table->entries[i];
        if (entry->key == NULL || entry->key == TOMBSTONE) {
            continue;
        }
        markObject((Obj *)entry->key);
        markValue(entry->value);
    }
}
