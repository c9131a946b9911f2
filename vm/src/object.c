/* object.c -- making heap objects, instances' fields, printing.
 *
 * Every constructor may collect garbage while it allocates (heap.h), so a
 * caller keeps whatever it still needs reachable (usually by pushing it on
 * the VM stack) across the call. A constructor fills in its object before
 * anything else can allocate, so the collector never sees one half made.
 *
 * Instances get their slot count from their class (object.h). A class's
 * first YOUNG_CLASS_INSTANCES instances are made with room for at least
 * YOUNG_CLASS_SLOTS fields: they are usually made while the class is still
 * numbering its fields (the very first instance always is), and a singleton
 * such as a program's one Zoo would otherwise keep every field spilled.
 *
 * Two bounds keep an instance's size in proportion to the fields it has, not
 * to the names its class has seen: no instance is made with more than
 * MAX_DIRECT_SLOTS slots, and a spilled array holds only the fields the
 * instance has set, as (slot, value) pairs. Without them, a class whose
 * first instance was given 1,000 fields made every later instance 8 KB wide,
 * even with one field set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "memory.h"
#include "object.h"
#include "table.h"
#include "value.h"
#include "vm.h"

#define YOUNG_CLASS_INSTANCES 16
#define YOUNG_CLASS_SLOTS 16
/* A new array of spilled fields has room for this many pairs. */
#define SPILL_MIN 4
/* The most slots an instance is made with; fields numbered above spill. It
 * is the most that keeps an instance a small object (heap.h; 30 slots),
 * bump-allocated in a block rather than malloc'd one by one. */
#define MAX_DIRECT_SLOTS ((HEAP_SMALL_MAX - sizeof(ObjInstance)) / sizeof(Value))
_Static_assert(YOUNG_CLASS_SLOTS <= MAX_DIRECT_SLOTS, "young instances stay within the bound");

static inline Obj *object_new(size_t size, ObjType type) {
    /* Functions and classes own malloc'd memory, which only large objects
     * get the chance to release when they die. */
    bool owner = type == OBJ_FUNCTION || type == OBJ_CLASS;
    Obj *object = owner ? heap_alloc_large(size) : heap_alloc(heap_round(size));
    object->type = (uint8_t)type;
    return object;
}

/* An object of C type `ctype` followed by `extra` bytes of trailing array. */
#define OBJECT_NEW(ctype, tag, extra) ((ctype *)object_new(sizeof(ctype) + (extra), tag))

ObjBoundMethod *bound_method_new(Value receiver, ObjClosure *method) {
    ObjBoundMethod *bound = OBJECT_NEW(ObjBoundMethod, OBJ_BOUND_METHOD, 0);
    *bound = (ObjBoundMethod){.obj = bound->obj, .receiver = receiver, .method = method};
    return bound;
}

ObjClass *class_new(ObjString *name) {
    ObjClass *klass = OBJECT_NEW(ObjClass, OBJ_CLASS, 0);
    *klass = (ObjClass){
        .obj = klass->obj,
        .name = name,
        .initializer = NIL_VAL, /* set by OP_METHOD when it sees init */
        .field_count = 0,
        .instance_slots = 1,
        .instances_made = 0,
    };
    table_init(&klass->methods);
    table_init(&klass->layout);
    return klass;
}

ObjClosure *closure_new(ObjFunction *function) {
    uint32_t count = (uint32_t)function->upvalueCount;
    ObjClosure *closure = OBJECT_NEW(ObjClosure, OBJ_CLOSURE, count * sizeof(ObjUpvalue *));
    closure->obj.length = count;
    closure->function = function;
    /* Traced before OP_CLOSURE fills them in. */
    memset(closure->upvalues, 0, count * sizeof(ObjUpvalue *));
    return closure;
}

ObjFunction *function_new(void) {
    ObjFunction *function = OBJECT_NEW(ObjFunction, OBJ_FUNCTION, 0);
    *function = (ObjFunction){
        .obj = function->obj,
        .maxSlots = 1, /* the callee's own slot */
        .profileId = -1,
    };
    chunk_init(&function->chunk);
    return function;
}

ObjInstance *instance_new(ObjClass *klass) {
    uint32_t slots = klass->instance_slots;
    if (klass->instances_made < YOUNG_CLASS_INSTANCES) {
        klass->instances_made++;
        slots = slots < YOUNG_CLASS_SLOTS ? YOUNG_CLASS_SLOTS : slots;
    }
    ObjInstance *instance = OBJECT_NEW(ObjInstance, OBJ_INSTANCE, slots * sizeof(Value));
    instance->obj.length = slots;
    instance->klass = klass;
    for (uint32_t i = 0; i < slots; i++) {
        instance->fields[i] = ABSENT_VAL;
    }
    return instance;
}

ObjNative *native_new(NativeFn function, int arity, ObjString *name) {
    ObjNative *native = OBJECT_NEW(ObjNative, OBJ_NATIVE, 0);
    native->function = function;
    native->arity = arity;
    native->profileId = -1;
    native->name = name;
    return native;
}

ObjUpvalue *upvalue_new(Value *slot) {
    ObjUpvalue *upvalue = OBJECT_NEW(ObjUpvalue, OBJ_UPVALUE, 0);
    *upvalue = (ObjUpvalue){.obj = upvalue->obj, .location = slot, .closed = NIL_VAL};
    return upvalue;
}

/* ---- fields ----------------------------------------------------------------- */

/* Spilled fields are kept as (slot, value) pairs sorted by slot, so an
 * instance pays for the fields it has set, however far apart their numbers:
 * a lookup is a binary search, and setting fields in the order they were
 * numbered (the usual order) appends. */
#define PAIR_SLOT(array, i) ((array)->values[2 * (i)])
#define PAIR_VALUE(array, i) ((array)->values[2 * (i) + 1])

/* An empty array with room for `pairs` pairs (every value absent, which the
 * collector reads as a number). */
static ObjArray *array_new(uint32_t pairs) {
    ObjArray *array = OBJECT_NEW(ObjArray, OBJ_ARRAY, 2 * pairs * sizeof(Value));
    array->obj.length = 2 * pairs;
    array->used = 0;
    for (uint32_t i = 0; i < 2 * pairs; i++) {
        array->values[i] = ABSENT_VAL;
    }
    return array;
}

static ObjArray *spill_array(const ObjInstance *instance) {
    return AS_ARRAY(instance->fields[instance->obj.length]);
}

/* The index of the first pair whose slot is `slot` or above; *found says
 * whether that pair is slot's own. */
static uint32_t pair_find(const ObjArray *array, uint32_t slot, bool *found) {
    uint32_t low = 0, high = array->used;
    while (low < high) {
        uint32_t middle = low + (high - low) / 2;
        if (AS_FIELD_SLOT(PAIR_SLOT(array, middle)) < slot) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    *found = low < array->used && AS_FIELD_SLOT(PAIR_SLOT(array, low)) == slot;
    return low;
}

/* A field in the spilled array, or ABSENT_VAL. */
static Value spilled_get(const ObjInstance *instance, uint32_t slot) {
    if (!(instance->obj.flags & OBJ_SPILLED)) {
        return ABSENT_VAL;
    }
    const ObjArray *array = spill_array(instance);
    bool found;
    uint32_t i = pair_find(array, slot, &found);
    return found ? PAIR_VALUE(array, i) : ABSENT_VAL;
}

/* Makes room for one more pair, doubling the array when it is full. */
static ObjArray *pairs_reserve(ObjInstance *instance, ObjArray *array) {
    if (2 * array->used < array->obj.length) {
        return array;
    }
    ObjArray *grown = array_new(array->used * 2);
    memcpy(grown->values, array->values, 2 * array->used * sizeof(Value));
    grown->used = array->used;
    instance->fields[instance->obj.length] = OBJ_VAL(grown);
    return grown;
}

/* Spills an instance: its last direct slot becomes the reference to a new
 * array of pairs, which takes over that slot's field if it holds one. */
static void spill(ObjInstance *instance) {
    uint32_t last = instance->obj.length - 1;
    ObjArray *array = array_new(SPILL_MIN);
    if (instance->fields[last] != ABSENT_VAL) {
        PAIR_SLOT(array, 0) = FIELD_SLOT(last);
        PAIR_VALUE(array, 0) = instance->fields[last];
        array->used = 1;
    }
    instance->fields[last] = OBJ_VAL(array);
    instance->obj.length = last;
    instance->obj.flags |= OBJ_SPILLED;
}

/* Where field `slot` of an instance without a direct slot for it lives:
 * spills the instance the first time, adds an absent pair for a field it
 * has not had before. */
static Value *spilled_slot(ObjInstance *instance, uint32_t slot) {
    if (!(instance->obj.flags & OBJ_SPILLED)) {
        spill(instance);
    }
    ObjArray *array = spill_array(instance);
    bool found;
    uint32_t i = pair_find(array, slot, &found);
    if (found) {
        return &PAIR_VALUE(array, i);
    }
    array = pairs_reserve(instance, array);
    memmove(&PAIR_SLOT(array, i + 1), &PAIR_SLOT(array, i), 2 * (array->used - i) * sizeof(Value));
    PAIR_SLOT(array, i) = FIELD_SLOT(slot);
    PAIR_VALUE(array, i) = ABSENT_VAL;
    array->used++;
    return &PAIR_VALUE(array, i);
}

/* The slot klass numbered name with, after filling the name's cache with
 * it; false if the class has no field of that name yet. */
static bool layout_find(ObjClass *klass, ObjString *name, uint32_t *slot) {
    Value found;
    if (!table_get(&klass->layout, name, &found)) {
        return false;
    }
    *slot = AS_FIELD_SLOT(found);
    name->cache_class = klass;
    name->cache_item = found;
    return true;
}

bool class_find_method(ObjClass *klass, ObjString *name, Value *method) {
    if (!table_get(&klass->methods, name, method)) {
        return false;
    }
    name->cache_class = klass;
    name->cache_item = *method;
    return true;
}

Value instance_get_slow(const ObjInstance *instance, ObjString *name) {
    uint32_t slot;
    if (!layout_find(instance->klass, name, &slot)) {
        return ABSENT_VAL;
    }
    return slot < instance->obj.length ? instance->fields[slot] : spilled_get(instance, slot);
}

void instance_set(ObjInstance *instance, ObjString *name, Value value) {
    ObjClass *klass = instance->klass;
    uint32_t slot;
    if (!layout_find(klass, name, &slot)) {
        slot = klass->field_count++;
        if (klass->field_count <= MAX_DIRECT_SLOTS && klass->field_count > klass->instance_slots) {
            klass->instance_slots = klass->field_count;
        }
        name->obj.flags |= OBJ_FIELD_NAME;
        table_set(&klass->layout, name, FIELD_SLOT(slot));
        table_spread(&klass->layout);
        name->cache_class = klass;
        name->cache_item = FIELD_SLOT(slot);
    }
    if (slot < instance->obj.length) {
        instance->fields[slot] = value;
    } else {
        *spilled_slot(instance, slot) = value;
    }
}

/* ---- strings ---------------------------------------------------------------- */

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
    ObjString *string = OBJECT_NEW(ObjString, OBJ_STRING, (size_t)length + 1);
    string->hash = hash;
    string->length = length;
    string->cache_class = NULL;
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
    char *buffer = length < sizeof small ? small : ALLOCATE(char, length + 1);
    memcpy(buffer, a->chars, (size_t)a->length);
    memcpy(buffer + a->length, b->chars, (size_t)b->length);
    ObjString *result = string_copy(buffer, (int)length);
    if (buffer != small) {
        FREE_ARRAY(char, buffer, length + 1);
    }
    return result;
}

/* ---- printing --------------------------------------------------------------- */

/* The function a callable object runs, or NULL for a native. */
static const ObjFunction *function_behind(const Obj *object) {
    switch ((ObjType)object->type) {
    case OBJ_FUNCTION: return (const ObjFunction *)object;
    case OBJ_CLOSURE: return ((const ObjClosure *)object)->function;
    case OBJ_BOUND_METHOD: return ((const ObjBoundMethod *)object)->method->function;
    default: return NULL;
    }
}

void object_print(Value value) {
    const Obj *object = AS_OBJ(value);
    const ObjFunction *function = function_behind(object);
    if (function != NULL) {
        const ObjString *name = function->name;
        printf(name == NULL ? "<script>" : "<fn %s>", name == NULL ? "" : name->chars);
    } else if (object->type == OBJ_STRING) {
        /* fwrite, not %s: a string may contain a NUL byte from the source. */
        fwrite(AS_CSTRING(value), 1, (size_t)AS_STRING(value)->length, stdout);
    } else if (object->type == OBJ_INSTANCE) {
        printf("%s instance", AS_INSTANCE(value)->klass->name->chars);
    } else if (object->type == OBJ_CLASS) {
        fputs(AS_CLASS(value)->name->chars, stdout);
    } else {
        fputs(object->type == OBJ_NATIVE ? "<native fn>" : "<internal object>", stdout);
    }
}
