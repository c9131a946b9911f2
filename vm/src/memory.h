/* memory.h -- every allocation of the VM, and the garbage collector.
 *
 * All heap memory goes through reallocate(), which keeps a running total of
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

#define ALLOCATE(type, count) (type *)reallocate(NULL, 0, sizeof(type) * (count))
#define FREE(type, pointer) reallocate(pointer, sizeof(type), 0)
#define GROW_CAPACITY(capacity) ((capacity) < 8 ? 8 : (capacity)*2)
#define GROW_ARRAY(type, pointer, oldCount, newCount)                                              \
    (type *)reallocate(pointer, sizeof(type) * (size_t)(oldCount),                                 \
                       sizeof(type) * (size_t)(newCount))
#define FREE_ARRAY(type, pointer, oldCount)                                                        \
    reallocate(pointer, sizeof(type) * (size_t)(oldCount), 0)

/* Resizes (or frees, when newSize is 0) a block; may collect garbage first. */
void *reallocate(void *pointer, size_t oldSize, size_t newSize);
void markObject(Obj *object);
void markValue(Value value);
void collectGarbage(void);
void freeObjects(void);

#endif
