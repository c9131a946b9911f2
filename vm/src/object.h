/* object.h -- heap-allocated Drip values.
 *
 * ObjString and the Obj header are in value.h.
 *
 * Every heap value starts with an Obj header: its type, the mark bit of the
 * collector, and the link of the list of all objects the sweeper walks.
 *
 * Strings keep their characters inline after the header (one allocation, one
 * pointer chase) and their FNV-1a hash, computed once at creation. All strings
 * are interned in vm.strings, so two equal strings are the same object and
 * every hash-table lookup compares keys by pointer.
 *
 * Functions carry the name of the class they were declared in (or NULL) so
 * profiles can say "Zoo.ant" where a stack trace says "ant()". */
#ifndef DRIP_OBJECT_H
#define DRIP_OBJECT_H

#include "chunk.h"
#include "common.h"
#include "table.h"
#include "value.h"

typedef struct {
    Obj obj;
    int arity;
    int upvalueCount;
    /* The most value-stack slots a call can use (locals and temporaries), so
     * a call checks for stack overflow once, when its frame is pushed. */
    int maxSlots;
    /* Index in the profiler's table of names; -1 until first profiled. */
    int profileId;
    Chunk chunk;
    ObjString *name;
    ObjString *className;
} ObjFunction;

typedef Value (*NativeFn)(int argCount, Value *args);

typedef struct {
    Obj obj;
    NativeFn function;
    int arity;
    int profileId;
    ObjString *name;
} ObjNative;

typedef struct ObjUpvalue {
    Obj obj;
    /* Points into the stack while the variable is live there, and at closed
     * once the variable has left the stack. */
    Value *location;
    Value closed;
    /* Open upvalues form a list sorted by stack slot, highest first. */
    struct ObjUpvalue *next;
} ObjUpvalue;

typedef struct {
    Obj obj;
    ObjFunction *function;
    ObjUpvalue **upvalues;
    int upvalueCount;
} ObjClosure;

typedef struct {
    Obj obj;
    ObjString *name;
    /* The class's init method, or nil: looked up once at definition rather
     * than on every instantiation. */
    Value initializer;
    Table methods;
} ObjClass;

typedef struct {
    Obj obj;
    ObjClass *klass;
    Table fields;
} ObjInstance;

typedef struct {
    Obj obj;
    Value receiver;
    ObjClosure *method;
} ObjBoundMethod;

#define OBJ_TYPE(value) (AS_OBJ(value)->type)

#define IS_BOUND_METHOD(value) isObjType(value, OBJ_BOUND_METHOD)
#define IS_CLASS(value) isObjType(value, OBJ_CLASS)
#define IS_CLOSURE(value) HAS_HINT(value, HINT_CLOSURE)
#define IS_FUNCTION(value) isObjType(value, OBJ_FUNCTION)
#define IS_INSTANCE(value) HAS_HINT(value, HINT_INSTANCE)
#define IS_NATIVE(value) isObjType(value, OBJ_NATIVE)
#define IS_STRING(value) isObjType(value, OBJ_STRING)

#define AS_BOUND_METHOD(value) ((ObjBoundMethod *)AS_OBJ(value))
#define AS_CLASS(value) ((ObjClass *)AS_OBJ(value))
#define AS_CLOSURE(value) ((ObjClosure *)AS_OBJ(value))
#define AS_FUNCTION(value) ((ObjFunction *)AS_OBJ(value))
#define AS_INSTANCE(value) ((ObjInstance *)AS_OBJ(value))
#define AS_NATIVE(value) ((ObjNative *)AS_OBJ(value))
#define AS_STRING(value) ((ObjString *)AS_OBJ(value))
#define AS_CSTRING(value) (((ObjString *)AS_OBJ(value))->chars)

static inline bool isObjType(Value value, ObjType type) {
    return IS_OBJ(value) && AS_OBJ(value)->type == type;
}

ObjBoundMethod *bound_method_new(Value receiver, ObjClosure *method);
ObjClass *class_new(ObjString *name);
ObjClosure *closure_new(ObjFunction *function);
ObjFunction *function_new(void);
ObjInstance *instance_new(ObjClass *klass);
ObjNative *native_new(NativeFn function, int arity, ObjString *name);
ObjUpvalue *upvalue_new(Value *slot);

/* Returns the interned string with these characters, copying them if new. */
ObjString *string_copy(const char *chars, int length);
/* Returns the interned concatenation a + b. */
ObjString *string_concat(ObjString *a, ObjString *b);
uint32_t string_hash(const char *chars, int length);

void object_print(Value value);

#endif
