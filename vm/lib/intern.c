/* intern.c: numbering distinct byte strings (see intern.h).
 *
 * Open addressing with linear probing over a power-of-two slot array that is
 * kept at most half full, so probes stay short without tombstones (keys are
 * never removed). Each slot holds a key number + 1; the key bytes live in an
 * arena (arena.h), so adding a million keys costs a few dozen mallocs and the
 * pointers handed out never move. Hash: 64-bit FNV-1a, simple and
 * good enough for names; the full hash is stored to skip most memcmp calls.
 */
#include "intern.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

uint64_t intern_hash(const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    uint64_t hash = 14695981039346656037u;
    for (size_t i = 0; i < length; i++) {
        hash ^= p[i];
        hash *= 1099511628211u;
    }
    return hash;
}

void intern_init(Intern *table) {
    memset(table, 0, sizeof *table); /* the arena's default blocks */
}

void intern_free(Intern *table) {
    arena_free(&table->bytes);
    free(table->keys);
    free(table->slots);
    intern_init(table);
}

static size_t find_slot(const Intern *table, const void *bytes, size_t length, uint64_t hash) {
    size_t mask = table->slot_count - 1;
    size_t i = (size_t)hash & mask;
    for (;;) {
        uint32_t slot = table->slots[i];
        if (slot == 0) {
            return i;
        }
        const InternKey *key = &table->keys[slot - 1];
        if (key->hash == hash && key->length == length && memcmp(key->bytes, bytes, length) == 0) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

static int grow_slots(Intern *table) {
    size_t count = table->slot_count ? table->slot_count * 2 : 256;
    uint32_t *slots = calloc(count, sizeof *slots);
    if (slots == NULL) {
        return -1;
    }
    uint32_t *old = table->slots;
    size_t old_count = table->slot_count;
    table->slots = slots;
    table->slot_count = count;
    for (size_t i = 0; i < old_count; i++) {
        if (old[i] != 0) {
            const InternKey *key = &table->keys[old[i] - 1];
            slots[find_slot(table, key->bytes, key->length, key->hash)] = old[i];
        }
    }
    free(old);
    return 0;
}

int64_t intern_add(Intern *table, const void *bytes, size_t length) {
    if (table->count >= UINT32_MAX - 1) {
        return -1;
    }
    if ((table->count + 1) * 2 > table->slot_count && grow_slots(table) != 0) {
        return -1;
    }
    uint64_t hash = intern_hash(bytes, length);
    size_t i = find_slot(table, bytes, length, hash);
    if (table->slots[i] != 0) {
        return (int64_t)table->slots[i] - 1;
    }
    InternKey *keys = grow(table->keys, &table->key_capacity, table->count + 1, sizeof *keys, 256);
    if (keys == NULL) {
        return -1;
    }
    table->keys = keys;
    char *copy = arena_copy(&table->bytes, bytes, length);
    if (copy == NULL) {
        return -1;
    }
    table->keys[table->count] = (InternKey){.bytes = copy, .length = length, .hash = hash};
    table->slots[i] = (uint32_t)(table->count + 1);
    return (int64_t)table->count++;
}
