/* intern.h: a table that numbers distinct byte strings 0, 1, 2, ...
 *
 * The callgrind reader maps names and (object, function) pairs to dense
 * indices, fold merges identical stacks, costs.c sums costs by name and the
 * VM's own profile (instrument.c) numbers function names: all of them need
 * "give me the number of this key, adding it if new". Keys are byte strings
 * (not NUL-terminated, may contain NUL, so binary keys such as two packed
 * uint32 indices work too). The table copies each key once into an arena
 * (arena.h) and hands out stable pointers.
 */
#ifndef DRIP_LIB_INTERN_H
#define DRIP_LIB_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct {
    const char *bytes; /* stable copy, followed by a NUL */
    size_t length;
    uint64_t hash;
} InternKey;

typedef struct {
    InternKey *keys; /* keys[i] is the key numbered i */
    size_t count;    /* keys numbered so far */
    size_t key_capacity;
    uint32_t *slots;   /* open addressing: index + 1, 0 = empty */
    size_t slot_count; /* a power of two */
    Arena bytes;       /* the keys' copies */
} Intern;

/* An empty table; a zeroed Intern (a static one) is empty too. */
void intern_init(Intern *table);
void intern_free(Intern *table);

/* Number of the key, adding it when new; -1 when out of memory. */
int64_t intern_add(Intern *table, const void *bytes, size_t length);

/* The FNV-1a hash the table uses (handy for deterministic colours). */
uint64_t intern_hash(const void *bytes, size_t length);

#endif
