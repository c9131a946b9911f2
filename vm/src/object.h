/* object.h -- heap-allocated Drip values.
 *
 * ObjString and the Obj header are in value.h.
 *
 * Every heap value starts with the one-word Obj header (value.h) and lives
 * where heap.h puts it. Nearly all objects are small and carry nothing but
 * their fields: trailing arrays (a closure's upvalues, an instance's field
 * slots) are inline, counted by obj.length, so making one is one bump of the
 * allocator. Functions and classes, which own malloc'd bytecode and tables,
 * are the heap's large objects.
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

/* obj.length is the number of upvalues, stored inline. */
typedef struct {
    Obj obj;
    ObjFunction *function;
    ObjUpvalue *upvalues[];
} ObjClosure;

/* Fields are numbered per class: the first time any instance of a class
 * gets a field of some name, the class's layout gives the name the next
 * number, and every instance of the class keeps that field in that slot.
 * An instance is made with as many slots as its class has numbers then
 * (so instances made after a class's first few need no growing), each
 * holding ABSENT_VAL until the instance's own field is set. */
typedef struct ObjClass {
    Obj obj;
    ObjString *name;
    /* The class's init method, or nil: looked up once at definition rather
     * than on every instantiation. */
    Value initializer;
    Table methods;
    Table layout; /* field name -> slot number, as FIELD_SLOT values */
    uint32_t field_count;
    /* Slots a new instance is made with: field_count, but at least 1 (a
     * spill turns the last slot into the array's reference) and at most
     * MAX_DIRECT_SLOTS (object.c). */
    uint32_t instance_slots;
    uint32_t instances_made; /* counted up to YOUNG_CLASS_INSTANCES */
} ObjClass;

/* obj.length slots hold fields directly. An instance made before its class
 * had numbered a field has no slot for it; when such a field is set the
 * instance spills: its last slot becomes a reference to an ObjArray holding
 * that slot's field and every higher-numbered one it sets (flag OBJ_SPILLED, and
 * obj.length counts only the direct slots). The fast paths only look at
 * direct slots; spilled fields take a function call. */
typedef struct {
    Obj obj;
    ObjClass *klass;
    Value fields[];
} ObjInstance;

/* The spilled fields of an instance: `used` (slot, value) pairs sorted by
 * slot, in obj.length values of room (object.c). */
typedef struct {
    Obj obj;
    uint32_t used;
    Value values[];
} ObjArray;

typedef struct {
    Obj obj;
    Value receiver;
    ObjClosure *method;
} ObjBoundMethod;

/* A field's slot number as stored in a class's layout table. */
#define FIELD_SLOT(index) ((Value)(index))
#define AS_FIELD_SLOT(value) ((uint32_t)(value))

#define OBJ_TYPE(value) (AS_OBJ(value)->type)

#define IS_CLASS(value) HAS_HINT(value, HINT_CLASS)
#define IS_CLOSURE(value) HAS_HINT(value, HINT_CLOSURE)
#define IS_INSTANCE(value) HAS_HINT(value, HINT_INSTANCE)
#define IS_NATIVE(value) isObjType(value, OBJ_NATIVE)
#define IS_STRING(value) isObjType(value, OBJ_STRING)

#define AS_ARRAY(value) ((ObjArray *)AS_OBJ(value))
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

/* Slots the collector scans: the direct ones and the spilled array. */
static inline uint32_t instance_slots(const ObjInstance *instance) {
    return instance->obj.length + ((instance->obj.flags & OBJ_SPILLED) != 0);
}

/* The value of an instance's field, or ABSENT_VAL if it has none of that
 * name. The fast path is a hit in the name's cache for a direct slot (a
 * method in the cache is a value far above any slot count, so the bounds
 * check turns it away too); the rest (the layout table, spilled fields) is
 * a call. */
Value instance_get_slow(const ObjInstance *instance, ObjString *name);
static inline Value instance_get(const ObjInstance *instance, ObjString *name) {
    uint64_t slot = name->cache_item;
    if (LIKELY(name->cache_class == instance->klass) && LIKELY(slot < instance->obj.length)) {
        return instance->fields[slot];
    }
    return instance_get_slow(instance, name);
}

/* Sets a field where the name's cache gives a direct slot; false (and
 * nothing changed) otherwise. */
static inline bool instance_set_cached(ObjInstance *instance, ObjString *name, Value value) {
    uint64_t slot = name->cache_item;
    if (LIKELY(name->cache_class == instance->klass) && LIKELY(slot < instance->obj.length)) {
        instance->fields[slot] = value;
        return true;
    }
    return false;
}

/* Looks a method up in the class's table, filling the name's cache. */
bool class_find_method(ObjClass *klass, ObjString *name, Value *method);

/* Sets a field in any case: numbers the name, fills its cache, spills,
 * grows. May collect, so the instance and the value must be reachable (on
 * the VM stack). */
void instance_set(ObjInstance *instance, ObjString *name, Value value);

/* Returns the interned string with these characters, copying them if new. */
ObjString *string_copy(const char *chars, int length);
/* Returns the interned concatenation a + b. */
ObjString *string_concat(ObjString *a, ObjString *b);
uint32_t string_hash(const char *chars, int length);

void object_print(Value value);

#endif
