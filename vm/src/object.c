/* object.c -- creating and printing heap objects.
 *
 * Every constructor links the new object into vm.objects (for the sweeper)
 * and may trigger a collection while allocating, so callers keep any object
 * they still need reachable (usually by pushing it on the VM stack) across
 * the next allocation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "object.h"
#include "table.h"
#include "value.h"
#include "vm.h"

static Obj *allocateObject(size_t size, ObjType type) {
    Obj *object = (Obj *)reallocate(NULL, 0, size);
    if ((uintptr_t)object > POINTER_MASK) {
        /* Never seen on Linux, where user space ends below 2^47. */
        fprintf(stderr, "drip: object address %p does not fit in 48 bits.\n", (void *)object);
        exit(70);
    }
    object->type = type;
    object->isMarked = false;
    object->next = vm.objects;
    vm.objects = object;
    return object;
}

#define ALLOCATE_OBJ(type, objectType) (type *)allocateObject(sizeof(type), objectType)

ObjBoundMethod *newBoundMethod(Value receiver, ObjClosure *method) {
    ObjBoundMethod *bound = ALLOCATE_OBJ(ObjBoundMethod, OBJ_BOUND_METHOD);
    bound->receiver = receiver;
    bound->method = method;
    return bound;
}

ObjClass *newClass(ObjString *name) {
    ObjClass *klass = ALLOCATE_OBJ(ObjClass, OBJ_CLASS);
    klass->name = name;
    klass->initializer = NIL_VAL;
    table_init(&klass->methods);
    return klass;
}

ObjClosure *newClosure(ObjFunction *function) {
    ObjUpvalue **upvalues = ALLOCATE(ObjUpvalue *, function->upvalueCount);
    for (int i = 0; i < function->upvalueCount; i++) {
        upvalues[i] = NULL;
    }
    ObjClosure *closure = ALLOCATE_OBJ(ObjClosure, OBJ_CLOSURE);
    closure->function = function;
    closure->upvalues = upvalues;
    closure->upvalueCount = function->upvalueCount;
    return closure;
}

ObjFunction *newFunction(void) {
    ObjFunction *function = ALLOCATE_OBJ(ObjFunction, OBJ_FUNCTION);
    function->arity = 0;
    function->upvalueCount = 0;
    function->maxSlots = 1;
    function->profileId = -1;
    function->name = NULL;
    function->className = NULL;
    initChunk(&function->chunk);
    return function;
}

ObjInstance *newInstance(ObjClass *klass) {
    ObjInstance *instance = ALLOCATE_OBJ(ObjInstance, OBJ_INSTANCE);
    instance->klass = klass;
    table_init(&instance->fields);
    return instance;
}

ObjNative *newNative(NativeFn function, int arity, ObjString *name) {
    ObjNative *native = ALLOCATE_OBJ(ObjNative, OBJ_NATIVE);
    native->function = function;
    native->arity = arity;
    native->profileId = -1;
    native->name = name;
    return native;
}

ObjUpvalue *newUpvalue(Value *slot) {
    ObjUpvalue *upvalue = ALLOCATE_OBJ(ObjUpvalue, OBJ_UPVALUE);
    upvalue->closed = NIL_VAL;
    upvalue->location = slot;
    upvalue->next = NULL;
    return upvalue;
}

/* FNV-1a, 32 bits: simple, and good enough for identifiers and short text. */
uint32_t hashString(const char *key, int length) {
    uint32_t hash = 2166136261u;
    for (int i = 0; i < length; i++) {
        hash ^= (uint8_t)key[i];
        hash *= 16777619u;
    }
    return hash;
}

static ObjString *allocateString(const char *chars, int length, uint32_t hash) {
    ObjString *string =
        (ObjString *)allocateObject(sizeof(ObjString) + (size_t)length + 1, OBJ_STRING);
    string->length = length;
    string->hash = hash;
    string->isFieldName = false;
    memcpy(string->chars, chars, (size_t)length);
    string->chars[length] = '\0';
    /* Interning may grow the table and so collect: keep the string alive. */
    vm_push(OBJ_VAL(string));
    table_set(&vm.strings, string, NIL_VAL);
    vm_pop();
    return string;
}

ObjString *copyString(const char *chars, int length) {
    uint32_t hash = hashString(chars, length);
    ObjString *interned = table_find_chars(&vm.strings, chars, length, hash);
    if (interned != NULL) {
        return interned;
    }
    return allocateString(chars, length, hash);
}

ObjString *concatStrings(ObjString *a, ObjString *b) {
    size_t length = (size_t)a->length + (size_t)b->length;
    if (length > DRIP_MAX_STRING_LENGTH) {
        return NULL;
    }
    /* Build the text outside the collected heap, then intern it. */
    char small[256];
    char *buffer = length < sizeof small ? small : (char *)reallocate(NULL, 0, length + 1);
    memcpy(buffer, a->chars, (size_t)a->length);
    memcpy(buffer + a->length, b->chars, (size_t)b->length);
    ObjString *result = copyString(buffer, (int)length);
    if (buffer != small) {
        reallocate(buffer, length + 1, 0);
    }
    return result;
}

static void printFunction(ObjFunction *function) {
    if (function->name == NULL) {
        printf("<script>");
        return;
    }
    printf("<fn %s>", function->name->chars);
}

void printObject(Value value) {
    switch (OBJ_TYPE(value)) {
    case OBJ_BOUND_METHOD: printFunction(AS_BOUND_METHOD(value)->method->function); break;
    case OBJ_CLASS: printf("%s", AS_CLASS(value)->name->chars); break;
    case OBJ_CLOSURE: printFunction(AS_CLOSURE(value)->function); break;
    case OBJ_FUNCTION: printFunction(AS_FUNCTION(value)); break;
    case OBJ_INSTANCE: printf("%s instance", AS_INSTANCE(value)->klass->name->chars); break;
    case OBJ_NATIVE: printf("<native fn>"); break;
    case OBJ_STRING: {
        /* fwrite, not %s: a string may contain a NUL byte from the source. */
        ObjString *string = AS_STRING(value);
        fwrite(string->chars, 1, (size_t)string->length, stdout);
        break;
    }
    case OBJ_UPVALUE: printf("upvalue"); break;
    }
}
