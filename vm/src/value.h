/* value.h -- the representation of a Drip value: NaN boxing.
 *
 * Every Drip value fits in one 64-bit word. A number is stored as its IEEE 754
 * double bits unchanged. Everything else hides inside the space of quiet NaNs
 * that arithmetic never produces:
 *
 *   number   any double whose bits are not (QNAN set in full)
 *   false    QNAN | 2        nil   QNAN | 3        true  QNAN | 4
 *   object   SIGN | QNAN | hint << 48 | pointer (user-space pointers fit in
 *            48 bits on x86-64 and arm64)
 *
 * The two bits between QNAN and the pointer (48 and 49) hold a hint of the
 * object's type: 1 for a closure, 2 for an instance, 0 for anything else. The
 * hot questions "is this a closure?" (every call) and "is this an instance?"
 * (every method call and property access) then need only the value, one
 * shift and one compare, not a load of the object's header.
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
 * than in object.h because the hash table (keyed by strings) needs them too. */
typedef enum {
    OBJ_BOUND_METHOD,
    OBJ_CLASS,
    OBJ_CLOSURE,
    OBJ_FUNCTION,
    OBJ_INSTANCE,
    OBJ_NATIVE,
    OBJ_STRING,
    OBJ_UPVALUE
} ObjType;

typedef struct Obj {
    ObjType type;
    bool isMarked;
    struct Obj *next;
} Obj;

typedef struct ObjString {
    Obj obj;
    int length;
    uint32_t hash;
    /* Set once any instance has had a field of this name. A method call
     * whose name never was a field name cannot be shadowed by a field, so
     * OP_INVOKE skips the field table for it. */
    bool isFieldName;
    char chars[];
} ObjString;

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
#define HINT_CLOSURE 1
#define HINT_INSTANCE 2

static inline Value objectValue(Obj *object) {
    uint64_t hint = object->type == OBJ_CLOSURE    ? HINT_CLOSURE
                    : object->type == OBJ_INSTANCE ? HINT_INSTANCE
                                                   : HINT_OTHER;
    return OBJ_TAG | hint << HINT_SHIFT | (uint64_t)(uintptr_t)object;
}

#define OBJ_VAL(obj) objectValue((Obj *)(obj))
/* The value's top 16 bits: the object tag plus the type hint. */
#define HAS_HINT(v, hint) (((v) >> HINT_SHIFT) == ((OBJ_TAG >> HINT_SHIFT) | (hint)))

#define IS_NUMBER(v) (((v)&QNAN) != QNAN)
#define IS_NIL(v) ((v) == NIL_VAL)
#define IS_BOOL(v) ((v) == TRUE_VAL || (v) == FALSE_VAL)
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

/* A growable array of values: a chunk's constant pool. */
typedef struct {
    int capacity;
    int count;
    Value *values;
} ValueArray;

/* Equality is bitwise, except that numbers compare as doubles (NaN != NaN,
 * 0 == -0). Strings are interned, so equal strings are the same object. */
static inline bool valuesEqual(Value a, Value b) {
    if (IS_NUMBER(a) && IS_NUMBER(b)) {
        return AS_NUMBER(a) == AS_NUMBER(b);
    }
    return a == b;
}

void value_array_init(ValueArray *array);
void value_array_push(ValueArray *array, Value value);
void value_array_free(ValueArray *array);
void value_print(Value value);

#endif
