/* memory.h -- the garbage collector, and the VM's plain malloc'd memory.
 *
 * Objects come from heap.h. Everything else the VM allocates (bytecode,
 * constant pools, hash-table arrays) is plain malloc'd memory owned by one
 * object or by the VM, resized through mem_resize() so that its bytes
 * count towards the collector's budget like objects do.
 *
 * The collector is a non-moving mark-sweep: mark what the roots reach (the
 * value stack, the frames' closures, the open upvalues, the globals, the
 * compiler's functions, "init"), then let the heap reclaim the rest. It runs
 * when the bytes in use pass a budget, which is then set to GC_GROWTH times
 * what survived, so collecting costs in proportion to allocating. The least
 * budget is small (256 KiB): a program with little live data then reuses
 * the same few blocks, which stay in the processor's cache.
 *
 * Running out of memory is reported and ends the process (exit 70): the VM
 * has no way to unwind a half-finished allocation inside an instruction. */
#ifndef DRIP_MEMORY_H
#define DRIP_MEMORY_H

#include "common.h"
#include "object.h"

/* The budget after a collection: GC_GROWTH times the bytes that survived,
 * and never less than GC_MIN_BUDGET (which is also the first budget). */
#define GC_GROWTH 2
#define GC_MIN_BUDGET ((size_t)256 * 1024)

#define ALLOCATE(type, count) (type *)mem_resize(NULL, 0, sizeof(type) * (count))
#define FREE_ARRAY(type, pointer, oldCount)                                                        \
    mem_resize(pointer, sizeof(type) * (size_t)(oldCount), 0)

/* Gives a malloc'd block new_size bytes (0 frees it). Growing may collect. */
void *mem_resize(void *memory, size_t old_size, size_t new_size);
/* pointer, as malloc, calloc or realloc returned it; when that is NULL,
 * reports that memory ran out and ends the process (exit 70). */
void *mem_checked(void *pointer);

void gc_mark_object(Obj *object);
void gc_mark_value(Value value);
/* Collects when the budget is spent, or always in the GC-stress build. */
void gc_collect_if_due(void);
/* Runs a full collection now. */
void gc_collect(void);
/* Frees every object, reachable or not: the end of the VM. */
void gc_free_all(void);

#endif
