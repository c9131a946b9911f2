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

/* Every object starts unmarked at the head of vm.objects, the sweeper's
 * list. The tagged Value keeps only 48 bits of address, hence the check. */
static Obj *object_alloc(size_t size, ObjType type) {
    Obj *object = (Obj *)mem_resize(NULL, 0, size);
    if ((uintptr_t)object > POINTER_MASK) {
        /* Never seen on Linux, where user space ends below 2^47. */
        fprintf(stderr, "drip: object address %p does not fit in 48 bits.\n", (void *)object);
        exit(70);
    }
    *object = (Obj){.type = type, .isMarked = false, .next = vm.objects};
    vm.objects = object;
    return object;
}

#define OBJECT_NEW(ctype, tag) ((ctype *)object_alloc(sizeof(ctype), tag))

ObjBoundMethod *bound_method_new(Value receiver, ObjClosure *method) {
    ObjBoundMethod *bound = OBJECT_NEW(ObjBoundMethod, OBJ_BOUND_METHOD);
    bound->method = method;
    bound->receiver = receiver;
    return bound;
}

ObjClass *class_new(ObjString *name) {
    ObjClass *klass = OBJECT_NEW(ObjClass, OBJ_CLASS);
    table_init(&klass->methods);
    klass->initializer = NIL_VAL; /* set by OP_METHOD when it sees init */
    klass->name = name;
    return klass;
}

ObjClosure *closure_new(ObjFunction *function) {
    /* The array first: allocating it may collect, and a closure made before
     * it would then be traced without one. */
    int count = function->upvalueCount;
    ObjUpvalue **upvalues = ALLOCATE(ObjUpvalue *, count);
    for (int i = 0; i < count; i++) {
        upvalues[i] = NULL; /* traced before OP_CLOSURE fills them in */
    }
    ObjClosure *closure = OBJECT_NEW(ObjClosure, OBJ_CLOSURE);
    closure->upvalueCount = count;
    closure->upvalues = upvalues;
    closure->function = function;
    return closure;
}

ObjFunction *function_new(void) {
    ObjFunction *function = OBJECT_NEW(ObjFunction, OBJ_FUNCTION);
    chunk_init(&function->chunk);
    function->name = NULL;
    function->className = NULL;
    function->arity = 0;
    function->upvalueCount = 0;
    function->maxSlots = 1; /* the callee's own slot */
    function->profileId = -1;
    return function;
}

ObjInstance *instance_new(ObjClass *klass) {
    ObjInstance *instance = OBJECT_NEW(ObjInstance, OBJ_INSTANCE);
    table_init(&instance->fields);
    instance->klass = klass;
    return instance;
}

ObjNative *native_new(NativeFn function, int arity, ObjString *name) {
    ObjNative *native = OBJECT_NEW(ObjNative, OBJ_NATIVE);
    native->name = name;
    native->function = function;
    native->arity = arity;
    native->profileId = -1;
    return native;
}

ObjUpvalue *upvalue_new(Value *slot) {
    ObjUpvalue *upvalue = OBJECT_NEW(ObjUpvalue, OBJ_UPVALUE);
    upvalue->location = slot;
    upvalue->closed = NIL_VAL;
    upvalue->next = NULL;
    return upvalue;
}

/* FNV-1a, 32 bits: simple, and good enough for identifiers and short text. */
uint32_t string_hash(const char *chars, int length) {
    const unsigned char *byte = (const unsigned char *)chars;
    const unsigned char *end = byte + length;
    uint32_t hash = 2166136261u;
    while (byte < end) {
        hash = (hash ^ *byte++) * 16777619u;
    }
    return hash;
}

/* A new string, entered in the intern table. Callers have checked that no
 * equal string is interned already. */
static ObjString *string_new_interned(const char *chars, int length, uint32_t hash) {
    size_t size = sizeof(ObjString) + (size_t)length + 1;
    ObjString *string = (ObjString *)object_alloc(size, OBJ_STRING);
    string->hash = hash;
    string->length = length;
    string->isFieldName = false;
    memcpy(string->chars, chars, (size_t)length);
    string->chars[length] = '\0';
    /* Interning may grow the table and so collect: keep the string alive. */
    vm_push(OBJ_VAL(string));
    table_set(&vm.strings, string, NIL_VAL);
    vm.stack_top--;
    return string;
}

ObjString *string_copy(const char *chars, int length) {
    uint32_t hash = string_hash(chars, length);
    ObjString *found = table_find_chars(&vm.strings, chars, length, hash);
    return found != NULL ? found : string_new_interned(chars, length, hash);
}

ObjString *string_concat(ObjString *a, ObjString *b) {
    size_t length = (size_t)a->length + (size_t)b->length;
    if (length > DRIP_MAX_STRING_LENGTH) {
        return NULL;
    }
    /* Build the text outside the collected heap, then intern it. */
    char small[256];
    char *buffer = length < sizeof small ? small : (char *)mem_resize(NULL, 0, length + 1);
    memcpy(buffer, a->chars, (size_t)a->length);
    memcpy(buffer + a->length, b->chars, (size_t)b->length);
    ObjString *result = string_copy(buffer, (int)length);
    if (buffer != small) {
        mem_resize(buffer, length + 1, 0);
    }
    return result;
}

static void function_print(ObjFunction *function) {
    if (function->name == NULL) {
        printf("<script>");
        return;
    }
    printf("<fn %s>", function->name->chars);
}

void object_print(Value value) {
    switch (OBJ_TYPE(value)) {
    case OBJ_BOUND_METHOD: function_print(AS_BOUND_METHOD(value)->method->function); break;
    case OBJ_CLASS: printf("%s", AS_CLASS(value)->name->chars); break;
    case OBJ_CLOSURE: function_print(AS_CLOSURE(value)->function); break;
    case OBJ_FUNCTION: function_print(AS_FUNCTION(value)); break;
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
