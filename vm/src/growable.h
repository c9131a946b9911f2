/* growable.h -- the front end's private arrays (tokens, syntax tree, events,
 * scopes): plain malloc memory that doubles when full (vm/lib/grow.c).
 *
 * None of it is on the garbage-collected heap: it holds no Drip values, lives
 * only while one program is compiled, and must not start a collection when
 * it grows. Running out of memory ends the process with the VM's message and
 * exit status (see memory.c): a compiler half-way through a program has
 * nothing sensible to fall back to. */
#ifndef DRIP_GROWABLE_H
#define DRIP_GROWABLE_H

#include <limits.h>
#include <stdlib.h> /* the arrays are released with free() */

#include "grow.h"
#include "memory.h"

/* Makes room for at least `needed` items of item_size bytes in *items,
 * which holds *capacity of them; returns the (possibly moved) array. The
 * capacity must stay an int: past INT_MAX items counts as out of memory. */
static inline void *growable_reserve(void *items, int *capacity, int needed, size_t item_size) {
    if (needed <= *capacity) {
        return items;
    }
    size_t room = (size_t)*capacity;
    void *grown = grow(items, &room, (size_t)needed, item_size, 16);
    *capacity = (int)room;
    return mem_checked(room > INT_MAX ? NULL : grown);
}

#endif
