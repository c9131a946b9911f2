/* intern.c: numbering distinct byte strings (see intern.h).
 *
 * Open addressing with linear probing over a power-of-two slot array that is
 * kept at most half full, so probes stay short without tombstones (keys are
 * never removed). Each slot holds a key number + 1; the key bytes live in a
 * chain of arena blocks, so adding a million keys costs a few dozen mallocs
 * and the pointers handed out never move. Hash: 64-bit FNV-1a, simple and
 * good enough for names; the full hash is stored to skip most memcmp calls.
 */
#include "intern.h"

#include <stdlib.h>
#include <string.h>

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
    memset(table, 0, sizeof *table);
}

void intern_free(Intern *table) {
    for (size_t i = 0; i < table->block_count; i++) {
        free(table->blocks[i]);
    }
    free(table->blocks);
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

/* Copies the bytes (plus a NUL) into the arena. */
static char *store_bytes(Intern *table, const void *bytes, size_t length) {
    if (table->block_count == 0 || table->block_size - table->block_used < length + 1) {
        size_t size = length + 1 > 65536 ? length + 1 : 65536;
        char **blocks = realloc(table->blocks, (table->block_count + 1) * sizeof *blocks);
        if (blocks == NULL) {
            return NULL;
        }
        table->blocks = blocks;
        blocks[table->block_count] = malloc(size);
        if (blocks[table->block_count] == NULL) {
            return NULL;
        }
        table->block_count++;
        table->block_size = size;
        table->block_used = 0;
    }
    char *copy = table->blocks[table->block_count - 1] + table->block_used;
    if (length > 0) {
        memcpy(copy, bytes, length);
    }
    copy[length] = '\0';
    table->block_used += length + 1;
    return copy;
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
    if (table->count == table->key_capacity) {
        size_t capacity = table->key_capacity ? table->key_capacity * 2 : 256;
        InternKey *keys = realloc(table->keys, capacity * sizeof *keys);
        if (keys == NULL) {
            return -1;
        }
        table->keys = keys;
        table->key_capacity = capacity;
    }
    char *copy = store_bytes(table, bytes, length);
    if (copy == NULL) {
        return -1;
    }
    table->keys[table->count] = (InternKey){.bytes = copy, .length = length, .hash = hash};
    table->slots[i] = (uint32_t)(table->count + 1);
    return (int64_t)table->count++;
}
