/* value.c -- value arrays and printing.
 *
 * Numbers print with "%g", as Lox does: 10000000 prints as 1e+07. Printing
 * lives here because it is the only operation every value type supports. */
#include <stdio.h>

#include "memory.h"
#include "object.h"
#include "value.h"

void value_array_init(ValueArray *array) {
    array->count = array->capacity = 0;
    array->values = NULL;
}

void value_array_push(ValueArray *array, Value value) {
    if (array->count == array->capacity) {
        int new_capacity = GROW_CAPACITY(array->capacity);
        array->values = GROW_ARRAY(Value, array->values, array->capacity, new_capacity);
        array->capacity = new_capacity;
    }
    array->values[array->count++] = value;
}

void value_array_free(ValueArray *array) {
    FREE_ARRAY(Value, array->values, array->capacity);
    value_array_init(array);
}

void value_print(Value value) {
    if (IS_OBJ(value)) {
        object_print(value);
    } else if (IS_NUMBER(value)) {
        printf("%g", AS_NUMBER(value));
    } else {
        fputs(IS_NIL(value) ? "nil" : AS_BOOL(value) ? "true" : "false", stdout);
    }
}
