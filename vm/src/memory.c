/* memory.c -- the collector's marking, its budget, and plain malloc'd memory.
 *
 * Marking is the usual worklist: an object reached for the first time gets
 * its mark (heap_mark) and, if it can reference other objects, goes on the
 * grey stack; the loop pops grey objects and marks what they reference
 * until the stack is empty. Strings reference nothing, so they are marked
 * and never stacked. What is left unmarked the heap reclaims (heap.c): the
 * blocks' free slots need no visit at all, dead large objects are released.
 *
 * The string table is weak: strings only it references are dropped before
 * the heap reclaims them, so it never points at a free slot.
 *
 * The grey stack grows through plain realloc, outside the budget, so that
 * growing it can never start a collection in the middle of one. */
#include <stdio.h>
#include <stdlib.h>

#include "compiler.h"
#include "growable.h"
#include "heap.h"
#include "memory.h"
#include "vm.h"

/* Bytes of plain malloc'd memory in use; they count towards the budget. */
static size_t raw_bytes;
/* Set when a collection frees a class: names' caches may point at it. */
static bool class_freed;

void *mem_checked(void *pointer) {
    if (pointer == NULL) {
        fprintf(stderr, "Out of memory.\n");
        exit(70);
    }
    return pointer;
}

void *mem_resize(void *memory, size_t old_size, size_t new_size) {
    raw_bytes += new_size - old_size;
    vm.bytes_allocated += new_size - old_size; /* unsigned: wraps back exactly */
    if (new_size == 0) {
        free(memory);
        return NULL;
    }
    if (new_size > old_size) {
        gc_collect_if_due();
    }
    return mem_checked(realloc(memory, new_size));
}

void gc_collect_if_due(void) {
#ifdef DRIP_STRESS_GC
    gc_collect();
#else
    if (UNLIKELY(vm.bytes_allocated > vm.next_gc)) {
        gc_collect();
    }
#endif
}

/* ---- marking ---------------------------------------------------------------- */

static void gray_push(Obj *object) {
    vm.gray_stack =
        growable_reserve(vm.gray_stack, &vm.gray_capacity, vm.gray_count + 1, sizeof(Obj *));
    vm.gray_stack[vm.gray_count++] = object;
}

void gc_mark_object(Obj *object) {
    if (object == NULL || !heap_mark(object)) {
        return;
    }
    if (object->type != OBJ_STRING) {
        gray_push(object);
    }
}

void gc_mark_value(Value value) {
    if (IS_OBJ(value)) {
        gc_mark_object(AS_OBJ(value));
    }
}

static void mark_values(const Value *values, size_t count) {
    for (size_t i = 0; i < count; i++) {
        gc_mark_value(values[i]);
    }
}

static void mark_table(const Table *table) {
    const Entry *end = table->entries + table->capacity;
    for (const Entry *entry = table->entries; entry < end; entry++) {
        if (entry->key == NULL || entry->key == TOMBSTONE) {
            continue;
        }
        gc_mark_object(&entry->key->obj);
        gc_mark_value(entry->value);
    }
}

/* Marks what one grey object references, making it black. */
static void gc_scan(Obj *object) {
    switch ((ObjType)object->type) {
    case OBJ_STRING: return;
    case OBJ_ARRAY: {
        const ObjArray *array = (const ObjArray *)object;
        mark_values(array->values, array->obj.length);
        return;
    }
    case OBJ_INSTANCE: {
        const ObjInstance *instance = (const ObjInstance *)object;
        gc_mark_object(&instance->klass->obj);
        mark_values(instance->fields, instance_slots(instance));
        return;
    }
    case OBJ_CLOSURE: {
        ObjClosure *closure = (ObjClosure *)object;
        gc_mark_object(&closure->function->obj);
        for (uint32_t i = 0; i < closure->obj.length; i++) {
            gc_mark_object((Obj *)closure->upvalues[i]);
        }
        return;
    }
    case OBJ_UPVALUE: gc_mark_value(((ObjUpvalue *)object)->closed); return;
    case OBJ_BOUND_METHOD: {
        ObjBoundMethod *bound = (ObjBoundMethod *)object;
        gc_mark_value(bound->receiver);
        gc_mark_object(&bound->method->obj);
        return;
    }
    case OBJ_CLASS: {
        ObjClass *klass = (ObjClass *)object;
        gc_mark_object(&klass->name->obj);
        gc_mark_value(klass->initializer);
        mark_table(&klass->methods);
        mark_table(&klass->layout);
        return;
    }
    case OBJ_FUNCTION: {
        ObjFunction *function = (ObjFunction *)object;
        gc_mark_object((Obj *)function->name);
        gc_mark_object((Obj *)function->className);
        const ValueArray *constants = &function->chunk.constants;
        mark_values(constants->values, (size_t)constants->count);
        return;
    }
    case OBJ_NATIVE: gc_mark_object(&((ObjNative *)object)->name->obj); return;
    }
}

/* Everything the running program (or the compiler) can reach directly. */
static void mark_roots(void) {
    mark_values(vm.stack, (size_t)(vm.stack_top - vm.stack));
    const CallFrame *frames_end = vm.frames + vm.frame_count;
    for (const CallFrame *frame = vm.frames; frame < frames_end; frame++) {
        gc_mark_object(&frame->closure->obj);
    }
    for (ObjUpvalue *open = vm.open_upvalues; open != NULL; open = open->next) {
        gc_mark_object(&open->obj);
    }
    gc_mark_object((Obj *)vm.init_string);
    mark_table(&vm.globals);
    compiler_mark_roots();
}

/* What dies with an object beyond its own memory: functions own their
 * bytecode, classes their tables. Only large objects own anything. */
static void object_release(Obj *object) {
    if (object->type == OBJ_FUNCTION) {
        chunk_free(&((ObjFunction *)object)->chunk);
    } else if (object->type == OBJ_CLASS) {
        class_freed = true;
        table_free(&((ObjClass *)object)->methods);
        table_free(&((ObjClass *)object)->layout);
    }
}

/* Empties every name's property cache (value.h): one of them may name a class
 * just freed, whose address a new class could get. Rare: classes seldom die. */
static void strings_forget_classes(void) {
    const Entry *end = vm.strings.entries + vm.strings.capacity;
    for (const Entry *entry = vm.strings.entries; entry < end; entry++) {
        if (entry->key != NULL && entry->key != TOMBSTONE) {
            entry->key->cache_class = NULL;
        }
    }
}

void gc_collect(void) {
    heap_begin_marking();
    mark_roots();
    while (vm.gray_count > 0) {
        gc_scan(vm.gray_stack[--vm.gray_count]);
    }
    /* The string table lets go of dead strings before the large ones among
     * them are freed and before the blocks' slots can be reused. */
    table_forget_unmarked(&vm.strings);
    class_freed = false;
    size_t live = raw_bytes + heap_sweep_large(object_release);
    if (class_freed) {
        strings_forget_classes();
    }
    live += heap_sweep_blocks();
    vm.bytes_allocated = live;
    vm.next_gc = live < GC_MIN_BUDGET / GC_GROWTH ? GC_MIN_BUDGET : live * GC_GROWTH;
}

void gc_free_all(void) {
    heap_free_all(object_release);
    free(vm.gray_stack);
    vm.gray_stack = NULL;
    vm.gray_count = vm.gray_capacity = 0;
}
