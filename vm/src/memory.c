/* memory.c -- allocation accounting and a mark-sweep garbage collector.
 *
 * The collector is the classic tri-colour mark-sweep: mark the roots grey,
 * then blacken grey objects one by one (marking what they reference) until
 * none are left, then free every object that was never marked. Roots are the
 * value stack, the call frames' closures, the open upvalues, the globals,
 * the functions the compiler is building, and the string "init". The string
 * table is weak: strings only it references are dropped before the sweep.
 *
 * The grey stack uses plain realloc, not mem_resize(), so growing it can never
 * start a collection in the middle of one. */
#include <stdio.h>
#include <stdlib.h>

#include "compiler.h"
#include "memory.h"
#include "vm.h"

#define GC_HEAP_GROW_FACTOR 2

static _Noreturn void out_of_memory(void) {
    fprintf(stderr, "Out of memory.\n");
    exit(70);
}

void *mem_resize(void *pointer, size_t old_size, size_t new_size) {
    vm.bytes_allocated += new_size;
    vm.bytes_allocated -= old_size;
    if (new_size > old_size) {
#ifdef DRIP_STRESS_GC
        gc_collect();
#else
        if (vm.bytes_allocated > vm.next_gc) {
            gc_collect();
        }
#endif
    }
    if (new_size == 0) {
        free(pointer);
        return NULL;
    }
    void *result = realloc(pointer, new_size);
    if (result == NULL) {
        out_of_memory();
    }
    return result;
}

/* The grey stack doubles like the VM's arrays, but through plain realloc. */
static void gray_push(Obj *object) {
    if (vm.gray_count == vm.gray_capacity) {
        int capacity = GROW_CAPACITY(vm.gray_capacity);
        Obj **grown = (Obj **)realloc(vm.gray_stack, sizeof(Obj *) * (size_t)capacity);
        if (grown == NULL) {
            out_of_memory();
        }
        vm.gray_stack = grown;
        vm.gray_capacity = capacity;
    }
    vm.gray_stack[vm.gray_count++] = object;
}

/* Greys an object the first time it is reached; later reaches are free. */
void gc_mark_object(Obj *object) {
    if (object != NULL && !object->isMarked) {
        object->isMarked = true;
        gray_push(object);
    }
}

void gc_mark_value(Value value) {
    if (IS_OBJ(value)) {
        gc_mark_object(AS_OBJ(value));
    }
}

/* Marks everything a grey object references, which makes it black.
 * A string references nothing, a native only its name. */
static void gc_scan(Obj *object) {
    switch (object->type) {
    case OBJ_STRING: break;
    case OBJ_UPVALUE: gc_mark_value(((ObjUpvalue *)object)->closed); break;
    case OBJ_NATIVE: gc_mark_object((Obj *)((ObjNative *)object)->name); break;
    case OBJ_FUNCTION: {
        ObjFunction *function = (ObjFunction *)object;
        gc_mark_object((Obj *)function->name);
        gc_mark_object((Obj *)function->className);
        const ValueArray *constants = &function->chunk.constants;
        for (int i = 0; i < constants->count; i++) {
            gc_mark_value(constants->values[i]);
        }
        break;
    }
    case OBJ_CLOSURE: {
        ObjClosure *closure = (ObjClosure *)object;
        gc_mark_object((Obj *)closure->function);
        for (int i = 0; i < closure->upvalueCount; i++) {
            gc_mark_object((Obj *)closure->upvalues[i]);
        }
        break;
    }
    case OBJ_CLASS: {
        ObjClass *klass = (ObjClass *)object;
        gc_mark_object((Obj *)klass->name);
        gc_mark_value(klass->initializer);
        table_mark(&klass->methods);
        break;
    }
    case OBJ_INSTANCE: {
        ObjInstance *instance = (ObjInstance *)object;
        gc_mark_object((Obj *)instance->klass);
        table_mark(&instance->fields);
        break;
    }
    case OBJ_BOUND_METHOD: {
        ObjBoundMethod *bound = (ObjBoundMethod *)object;
        gc_mark_value(bound->receiver);
        gc_mark_object((Obj *)bound->method);
        break;
    }
    }
}

/* Releases one object and whatever it owns outside the collected heap
 * (tables, arrays, chunks); the accounting goes through mem_resize. */
static void object_free(Obj *object) {
    switch (object->type) {
    case OBJ_STRING:
        mem_resize(object, sizeof(ObjString) + (size_t)((ObjString *)object)->length + 1, 0);
        return;
    case OBJ_UPVALUE: FREE(ObjUpvalue, object); return;
    case OBJ_NATIVE: FREE(ObjNative, object); return;
    case OBJ_BOUND_METHOD: FREE(ObjBoundMethod, object); return;
    case OBJ_FUNCTION:
        chunk_free(&((ObjFunction *)object)->chunk);
        FREE(ObjFunction, object);
        return;
    case OBJ_CLOSURE: {
        ObjClosure *closure = (ObjClosure *)object;
        FREE_ARRAY(ObjUpvalue *, closure->upvalues, closure->upvalueCount);
        FREE(ObjClosure, object);
        return;
    }
    case OBJ_CLASS:
        table_free(&((ObjClass *)object)->methods);
        FREE(ObjClass, object);
        return;
    case OBJ_INSTANCE:
        table_free(&((ObjInstance *)object)->fields);
        FREE(ObjInstance, object);
        return;
    }
}

/* Phase 1: grey everything the program can reach directly. */
static void gc_mark_roots(void) {
    for (const Value *slot = vm.stack; slot != vm.stack_top; slot++) {
        gc_mark_value(*slot);
    }
    for (int i = 0; i < vm.frame_count; i++) {
        gc_mark_object((Obj *)vm.frames[i].closure);
    }
    for (ObjUpvalue *open = vm.open_upvalues; open != NULL; open = open->next) {
        gc_mark_object((Obj *)open);
    }
    gc_mark_object((Obj *)vm.init_string);
    table_mark(&vm.globals);
    compiler_mark_roots();
}

/* Phase 2: scan grey objects until none are left; all reachable are black. */
static void gc_propagate(void) {
    while (vm.gray_count != 0) {
        vm.gray_count--;
        gc_scan(vm.gray_stack[vm.gray_count]);
    }
}

/* Phase 3: free the unmarked objects and unmark the survivors for next time.
 * link points at the pointer that leads to the current object, so an object
 * is unlinked the same way wherever it sits in the list. */
static void gc_sweep(void) {
    Obj **link = &vm.objects;
    while (*link != NULL) {
        Obj *object = *link;
        if (object->isMarked) {
            object->isMarked = false;
            link = &object->next;
        } else {
            *link = object->next;
            object_free(object);
        }
    }
}

void gc_collect(void) {
    gc_mark_roots();
    gc_propagate();
    /* Interned strings nothing else reached die now, so the table never
     * points at a freed string. */
    table_drop_unmarked(&vm.strings);
    gc_sweep();
    size_t floor = 1024 * 1024;
    size_t next = vm.bytes_allocated * GC_HEAP_GROW_FACTOR;
    vm.next_gc = next < floor ? floor : next;
}

void gc_free_all(void) {
    for (Obj *object = vm.objects; object != NULL;) {
        Obj *next = object->next;
        object_free(object);
        object = next;
    }
    vm.objects = NULL;
    free(vm.gray_stack);
    vm.gray_stack = NULL;
    vm.gray_count = vm.gray_capacity = 0;
}
