/* memory.h -- every allocation of the VM, and the garbage collector.
 *
 * All heap memory goes through mem_resize(), which keeps a running total of
 * the bytes in use. When the total passes a threshold the collector runs
 * before the allocation is made: mark from the roots, trace, sweep. The
 * threshold then becomes twice what survived, so the work of collecting is
 * proportional to the work of allocating.
 *
 * Running out of memory is reported and ends the process (exit 70): the VM
 * has no way to unwind a half-finished allocation inside an instruction. */
#ifndef DRIP_MEMORY_H
#define DRIP_MEMORY_H

#include "common.h"
#include "object.h"

#define ALLOCATE(type, count) (type *)mem_resize(NULL, 0, sizeof(type) * (count))
#define FREE(type, pointer) mem_resize(pointer, sizeof(type), 0)
#define GROW_CAPACITY(capacity) ((capacity) < 8 ? 8 : (capacity)*2)
#define GROW_ARRAY(type, pointer, oldCount, newCount)                                              \
    (type *)mem_resize(pointer, sizeof(type) * (size_t)(oldCount),                                 \
                       sizeof(type) * (size_t)(newCount))
#define FREE_ARRAY(type, pointer, oldCount)                                                        \
    mem_resize(pointer, sizeof(type) * (size_t)(oldCount), 0)

/* Resizes (or frees, when new_size is 0) a block; may collect garbage first. */
void *mem_resize(void *pointer, size_t old_size, size_t new_size);
void gc_mark_object(Obj *object);
void gc_mark_value(Value value);
/* Runs a full collection now: mark the roots, propagate, sweep. */
void gc_collect(void);
/* Frees every object, reachable or not: the end of the VM. */
void gc_free_all(void);

#endif
