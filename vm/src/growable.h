/* growable.h -- the VM's private arrays (the compiler's tokens, symbols,
 * syntax tree, forced list, events, scopes, assemblies and constant pools;
 * the collector's gray stack): plain malloc memory that doubles when full.
 *
 * None of it is on the garbage-collected heap: the front end's arrays live only
 * while one program is compiled and the gray stack only holds pointers the
 * collector is tracing, and none of them may start a collection when it
 * grows. Running out of memory ends the process with the VM's message and
 * exit status (see memory.c): neither a compiler half-way through a program
 * nor a collector half-way through marking has anything sensible to fall
 * back to. */
#ifndef DRIP_GROWABLE_H
#define DRIP_GROWABLE_H

#include <stdlib.h>

#include "memory.h"

/* Makes room for at least `needed` items of item_size bytes in *items,
 * which holds *capacity of them; returns the (possibly moved) array. */
static inline void *growable_reserve(void *items, int *capacity, int needed, size_t item_size) {
    if (needed <= *capacity) {
        return items;
    }
    size_t wanted = *capacity < 16 ? 16 : (size_t)*capacity * 2;
    if (wanted < (size_t)needed) {
        wanted = (size_t)needed;
    }
    void *grown =
        mem_checked(wanted > (size_t)0x7fffffff ? NULL : realloc(items, wanted * item_size));
    *capacity = (int)wanted;
    return grown;
}

#endif
