/* memory.c -- allocation accounting and a mark-sweep garbage collector.
 *
 * The collector is the classic tri-colour mark-sweep: mark the roots grey,
 * then blacken grey objects one by one (marking what they reference) until
 * none are left, then free every object that was never marked. Roots are the
 * value stack, the call frames' closures, the open upvalues, the globals,
 * the functions the compiler is building, and the string "init". The string
 * table is weak: strings only it references are dropped before the sweep.
 *
 * The grey stack uses plain realloc, not reallocate(), so growing it can never
 * start a collection in the middle of one. */
#include <stdio.h>
#include <stdlib.h>

#include "compiler.h"
#include "memory.h"
#include "vm.h"

#define GC_HEAP_GROW_FACTOR 2

static void outOfMemory(void) {
    fprintf(stderr, "Out of memory.\n");
    exit(70);
}

void *reallocate(void *pointer, size_t oldSize, size_t newSize) {
    vm.bytesAllocated += newSize;
    vm.bytesAllocated -= oldSize;
    if (newSize > oldSize) {
#ifdef DRIP_STRESS_GC
        collectGarbage();
#else
        if (vm.bytesAllocated > vm.nextGC) {
            collectGarbage();
        }
#endif
    }
    if (newSize == 0) {
        free(pointer);
        return NULL;
    }
    void *result = realloc(pointer, newSize);
    if (result == NULL) {
        outOfMemory();
    }
    return result;
}

void markObject(Obj *object) {
    if (object == NULL || object->isMarked) {
        return;
    }
    object->isMarked = true;
    if (vm.grayCapacity < vm.grayCount + 1) {
        vm.grayCapacity = GROW_CAPACITY(vm.grayCapacity);
        Obj **grown = (Obj **)realloc(vm.grayStack, sizeof(Obj *) * (size_t)vm.grayCapacity);
        if (grown == NULL) {
            outOfMemory();
        }
        vm.grayStack = grown;
    }
    vm.grayStack[vm.grayCount++] = object;
}

void markValue(Value value) {
    if (IS_OBJ(value)) {
        markObject(AS_OBJ(value));
    }
}

static void markArray(ValueArray *array) {
    for (int i = 0; i < array->count; i++) {
        markValue(array->values[i]);
    }
}

/* Marks everything a grey object references, which makes it black. */
static void blackenObject(Obj *object) {
    switch (object->type) {
    case OBJ_BOUND_METHOD: {
        ObjBoundMethod *bound = (ObjBoundMethod *)object;
        markValue(bound->receiver);
        markObject((Obj *)bound->method);
        break;
    }
    case OBJ_CLASS: {
        ObjClass *klass = (ObjClass *)object;
        markObject((Obj *)klass->name);
        markValue(klass->initializer);
        table_mark(&klass->methods);
        break;
    }
    case OBJ_CLOSURE: {
        ObjClosure *closure = (ObjClosure *)object;
        markObject((Obj *)closure->function);
        for (int i = 0; i < closure->upvalueCount; i++) {
            markObject((Obj *)closure->upvalues[i]);
        }
        break;
    }
    case OBJ_FUNCTION: {
        ObjFunction *function = (ObjFunction *)object;
        markObject((Obj *)function->name);
        markObject((Obj *)function->className);
        markArray(&function->chunk.constants);
        break;
    }
    case OBJ_INSTANCE: {
        ObjInstance *instance = (ObjInstance *)object;
        markObject((Obj *)instance->klass);
        table_mark(&instance->fields);
        break;
    }
    case OBJ_NATIVE: markObject((Obj *)((ObjNative *)object)->name); break;
    case OBJ_UPVALUE: markValue(((ObjUpvalue *)object)->closed); break;
    case OBJ_STRING: break;
    }
}

static void freeObject(Obj *object) {
    switch (object->type) {
    case OBJ_BOUND_METHOD: FREE(ObjBoundMethod, object); break;
    case OBJ_CLASS: {
        ObjClass *klass = (ObjClass *)object;
        table_free(&klass->methods);
        FREE(ObjClass, object);
        break;
    }
    case OBJ_CLOSURE: {
        ObjClosure *closure = (ObjClosure *)object;
        FREE_ARRAY(ObjUpvalue *, closure->upvalues, closure->upvalueCount);
        FREE(ObjClosure, object);
        break;
    }
    case OBJ_FUNCTION: {
        ObjFunction *function = (ObjFunction *)object;
        freeChunk(&function->chunk);
        FREE(ObjFunction, object);
        break;
    }
    case OBJ_INSTANCE: {
        ObjInstance *instance = (ObjInstance *)object;
        table_free(&instance->fields);
        FREE(ObjInstance, object);
        break;
    }
    case OBJ_NATIVE: FREE(ObjNative, object); break;
    case OBJ_STRING: {
        ObjString *string = (ObjString *)object;
        reallocate(object, sizeof(ObjString) + (size_t)string->length + 1, 0);
        break;
    }
    case OBJ_UPVALUE: FREE(ObjUpvalue, object); break;
    }
}

static void markRoots(void) {
    for (Value *slot = vm.stack; slot < vm.stackTop; slot++) {
        markValue(*slot);
    }
    for (int i = 0; i < vm.frameCount; i++) {
        markObject((Obj *)vm.frames[i].closure);
    }
    for (ObjUpvalue *upvalue = vm.openUpvalues; upvalue != NULL; upvalue = upvalue->next) {
        markObject((Obj *)upvalue);
    }
    table_mark(&vm.globals);
    markCompilerRoots();
    markObject((Obj *)vm.initString);
}

static void traceReferences(void) {
    while (vm.grayCount > 0) {
        Obj *object = vm.grayStack[--vm.grayCount];
        blackenObject(object);
    }
}

static void sweep(void) {
    Obj *previous = NULL;
    Obj *object = vm.objects;
    while (object != NULL) {
        if (object->isMarked) {
            object->isMarked = false;
            previous = object;
            object = object->next;
            continue;
        }
        Obj *unreached = object;
        object = object->next;
        if (previous != NULL) {
            previous->next = object;
        } else {
            vm.objects = object;
        }
        freeObject(unreached);
    }
}

void collectGarbage(void) {
    markRoots();
    traceReferences();
    table_drop_unmarked(&vm.strings);
    sweep();
    vm.nextGC = vm.bytesAllocated * GC_HEAP_GROW_FACTOR;
    if (vm.nextGC < 1024 * 1024) {
        vm.nextGC = 1024 * 1024;
    }
}

void freeObjects(void) {
    Obj *object = vm.objects;
    while (object != NULL) {
        Obj *next = object->next;
        freeObject(object);
        object = next;
    }
    vm.objects = NULL;
    free(vm.grayStack);
    vm.grayStack = NULL;
    vm.grayCount = 0;
    vm.grayCapacity = 0;
}
