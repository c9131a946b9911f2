/* value.h -- the representation of a Drip value: NaN boxing.
 *
 * Every Drip value fits in one 64-bit word. A number is stored as its IEEE 754
 * double bits unchanged. Everything else hides inside the space of quiet NaNs
 * that arithmetic never produces:
 *
 *   number   any double whose bits are not (QNAN set in full)
 *   false    QNAN | 2        nil   QNAN | 3        true  QNAN | 4
 *   (absent  QNAN | 5, the content of an instance's unset field slot)
 *   object   SIGN | QNAN | hint << 48 | pointer (user-space pointers fit in
 *            48 bits on x86-64 and arm64)
 *
 * The two bits between QNAN and the pointer (48 and 49) hold a hint of the
 * object's type: 1 for a closure, 2 for an instance, 3 for a class, 0 for
 * anything else. The hot questions "is this a closure?" (every call), "is
 * this an instance?" (every method call and property access) and "is this a
 * class?" (every instantiation) then need only the value, one shift and one
 * compare, not a load of the object's header.
 *
 * false and nil differ only in the lowest bit, so "is this falsey?" is one OR
 * and one compare. A real NaN produced by 0/0 is 0xfff8..., which does not have
 * the extra quiet bit 50 that QNAN includes, so it stays a number.
 *
 * Trade-off: the bit tricks are less obvious than a tagged union, but a value
 * moves in one register, the stack is half the size, and type tests are a mask
 * and a compare. */
#ifndef DRIP_VALUE_H
#define DRIP_VALUE_H

#include "common.h"

/* The header every heap object starts with, and strings, live here rather
 * than in object.h because the hash table (keyed by strings) needs them too.
 *
 * The header is one word. The collector's mark bit of most objects is not
 * in it but in their block's bitmap (heap.h); only large objects, malloc'd
 * one by one, keep theirs in flags. `length` counts an object's trailing
 * array, where it has one (upvalues of a closure, slots of an instance,
 * values of an array).
 *
 * The first four types are numbered to match the type hints in a Value
 * (below), so a value's hint is its type when the type is below 4. */
typedef enum {
    OBJ_STRING = 0,
    OBJ_CLOSURE = 1,
    OBJ_INSTANCE = 2,
    OBJ_CLASS = 3,
    OBJ_BOUND_METHOD,
    OBJ_FUNCTION,
    OBJ_NATIVE,
    OBJ_UPVALUE,
    OBJ_ARRAY
} ObjType;

enum {
    OBJ_LARGE = 1,      /* malloc'd on its own, not in a block */
    OBJ_MARKED = 2,     /* a large object's mark */
    OBJ_FIELD_NAME = 4, /* a string some instance has had as a field name */
    OBJ_SPILLED = 8,    /* an instance whose last slot holds more fields */
};

typedef struct Obj {
    uint8_t type;
    uint8_t flags;
    uint16_t unused;
    uint32_t length;
} Obj;

struct ObjClass;

typedef struct ObjString {
    Obj obj;
    int length;
    uint32_t hash;
    /* A one-entry cache of what this string means as a property name in
     * one class: in cache_class, it names the field in slot cache_item (a
     * small integer, FIELD_SLOT) or the method cache_item (a closure).
     * cache_class is NULL when the cache is empty. The collector empties
     * every cache when a class dies, so that a new class at the same address
     * is never mistaken for it. */
    struct ObjClass *cache_class;
    uint64_t cache_item;
    char chars[];
} ObjString;

/* A method call whose name never was a field name cannot be shadowed by a
 * field, so OP_INVOKE skips the field lookup for it. */
static inline bool string_is_field_name(const ObjString *string) {
    return (string->obj.flags & OBJ_FIELD_NAME) != 0;
}

typedef uint64_t Value;

#define SIGN_BIT ((uint64_t)0x8000000000000000)
#define QNAN ((uint64_t)0x7ffc000000000000)

#define TAG_FALSE 2
#define TAG_NIL 3
#define TAG_TRUE 4

#define FALSE_VAL ((Value)(QNAN | TAG_FALSE))
#define NIL_VAL ((Value)(QNAN | TAG_NIL))
#define TRUE_VAL ((Value)(QNAN | TAG_TRUE))
#define BOOL_VAL(b) ((b) ? TRUE_VAL : FALSE_VAL)
#define OBJ_TAG (SIGN_BIT | QNAN)
#define HINT_SHIFT 48
#define POINTER_MASK ((uint64_t)0x0000ffffffffffff)
#define HINT_OTHER 0
#define HINT_CLOSURE OBJ_CLOSURE
#define HINT_INSTANCE OBJ_INSTANCE
#define HINT_CLASS OBJ_CLASS
/* A field slot no value was ever stored in; never seen by a program. */
#define ABSENT_VAL ((Value)(QNAN | 5))

static inline Value objectValue(Obj *object) {
    uint64_t hint = object->type <= OBJ_CLASS ? object->type : HINT_OTHER;
    return OBJ_TAG | hint << HINT_SHIFT | (uint64_t)(uintptr_t)object;
}

#define OBJ_VAL(obj) objectValue((Obj *)(obj))
/* The value's top 16 bits: the object tag plus the type hint. */
#define HAS_HINT(v, hint) (((v) >> HINT_SHIFT) == ((OBJ_TAG >> HINT_SHIFT) | (hint)))

#define IS_NUMBER(v) (((v)&QNAN) != QNAN)
#define IS_NIL(v) ((v) == NIL_VAL)
#define IS_OBJ(v) (((v)&OBJ_TAG) == OBJ_TAG)
/* nil and false are the only falsey values; they differ in bit 0 only. */
#define IS_FALSEY(v) (((v) | 1) == NIL_VAL)

#define AS_BOOL(v) ((v) == TRUE_VAL)
#define AS_OBJ(v) ((Obj *)(uintptr_t)((v)&POINTER_MASK))

static inline double valueToNum(Value value) {
    union {
        Value bits;
        double num;
    } pun = {.bits = value};
    return pun.num;
}

static inline Value numToValue(double num) {
    union {
        Value bits;
        double num;
    } pun = {.num = num};
    return pun.bits;
}

#define AS_NUMBER(v) valueToNum(v)
#define NUMBER_VAL(n) numToValue(n)

/* An array of values: a chunk's constant pool (chunk.h). */
typedef struct {
    int count;
    Value *values;
} ValueArray;

/* Equality is bitwise, except that numbers compare as doubles (NaN != NaN,
 * 0 == -0). Strings are interned, so equal strings are the same object.
 * Every non-number reads as a NaN, so the double comparison holds only for
 * two equal numbers, and two values with the same bits are equal unless they
 * are a NaN number. */
static inline bool valuesEqual(Value a, Value b) {
    return AS_NUMBER(a) == AS_NUMBER(b) || (a == b && !IS_NUMBER(a));
}

void value_print(Value value);

#endif
