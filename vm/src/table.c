/* table.c -- open addressing with linear probing; see table.h for the
 * invariants. Growth doubles the array and reinserts the live entries, which
 * also clears out tombstones. */
#include <string.h>

#include "heap.h"
#include "memory.h"
#include "object.h"
#include "table.h"

ObjString table_tombstone;

/* Shared by every empty table; never written, since table_set grows first. */
static Entry no_entries = {NULL, 0};

static bool entry_live(const Entry *entry) {
    return entry->key != NULL && entry->key != TOMBSTONE;
}

void table_init(Table *table) {
    *table = (Table){.count = 0, .capacity = 0, .mask = 0, .entries = &no_entries};
}

void table_free(Table *table) {
    if (table->capacity != 0) {
        FREE_ARRAY(Entry, table->entries, table->capacity);
    }
    table_init(table);
}

/* Where key lives or would go: its own entry when present; otherwise the
 * first tombstone met on the way (reusing it keeps chains short), or failing
 * that the empty entry that ended the probe. */
static Entry *slot_for(Entry *entries, uint32_t mask, ObjString *key) {
    Entry *reusable = NULL;
    for (uint32_t at = key->hash & mask;; at = (at + 1) & mask) {
        Entry *entry = &entries[at];
        if (entry->key == key) {
            return entry;
        }
        if (entry->key == NULL) {
            return reusable == NULL ? entry : reusable;
        }
        if (reusable == NULL && entry->key == TOMBSTONE) {
            reusable = entry;
        }
    }
}

/* Moves the live entries into a fresh array of new_capacity (a power of
 * two). Tombstones are left behind, so count drops to the live entries. */
static void table_resize(Table *table, int new_capacity) {
    Entry *fresh = ALLOCATE(Entry, new_capacity);
    for (int i = 0; i < new_capacity; i++) {
        fresh[i] = (Entry){NULL, NIL_VAL};
    }
    uint32_t new_mask = (uint32_t)new_capacity - 1;
    int live = 0;
    for (int i = 0; i < table->capacity; i++) {
        Entry *old = &table->entries[i];
        if (entry_live(old)) {
            *slot_for(fresh, new_mask, old->key) = *old;
            live++;
        }
    }
    table_free(table);
    table->entries = fresh;
    table->capacity = new_capacity;
    table->mask = new_mask;
    table->count = live;
}

bool table_set(Table *table, ObjString *key, Value value) {
    /* At most half full, so probes stay short and always end. */
    if (2 * (table->count + 1) > table->capacity) {
        table_resize(table, table->capacity == 0 ? 8 : 2 * table->capacity);
    }
    Entry *slot = slot_for(table->entries, table->mask, key);
    bool added = slot->key != key;
    /* A reused tombstone was counted already. */
    table->count += slot->key == NULL;
    slot->key = key;
    slot->value = value;
    return added;
}

#define TABLE_SPREAD 16

/* The first live key not in its home slot, or NULL if every key is home. */
static const Entry *entry_displaced(const Table *table) {
    for (uint32_t at = 0; at < (uint32_t)table->capacity; at++) {
        const Entry *entry = &table->entries[at];
        if (entry_live(entry) && (entry->key->hash & table->mask) != at) {
            return entry;
        }
    }
    return NULL;
}

void table_spread(Table *table) {
    while (table->capacity < TABLE_SPREAD * table->count && entry_displaced(table) != NULL) {
        table_resize(table, 2 * table->capacity);
    }
}

void table_add_all(Table *from, Table *to) {
    for (int i = 0; i < from->capacity; i++) {
        if (entry_live(&from->entries[i])) {
            table_set(to, from->entries[i].key, from->entries[i].value);
        }
    }
}

ObjString *table_find_chars(Table *table, const char *chars, int length, uint32_t hash) {
    if (table->count == 0) {
        return NULL;
    }
    for (uint32_t at = hash & table->mask;; at = (at + 1) & table->mask) {
        ObjString *key = table->entries[at].key;
        if (key == NULL) {
            return NULL;
        }
        bool same = key != TOMBSTONE && key->length == length && key->hash == hash &&
                    memcmp(key->chars, chars, (size_t)length) == 0;
        if (same) {
            return key;
        }
    }
}

void table_forget_unmarked(Table *table) {
    Entry *end = table->entries + table->capacity;
    for (Entry *entry = table->entries; entry < end; entry++) {
        bool dead = entry_live(entry) && !heap_is_marked(&entry->key->obj);
        if (dead) {
            *entry = (Entry){TOMBSTONE, NIL_VAL};
        }
    }
}
