/* value.c -- printing values.
 *
 * Numbers print with "%g", as Lox does: 10000000 prints as 1e+07. Printing
 * lives here because it is the only operation every value type supports. */
#include <stdio.h>

#include "object.h"
#include "value.h"

void value_print(Value value) {
    if (IS_OBJ(value)) {
        object_print(value);
    } else if (IS_NUMBER(value)) {
        printf("%g", AS_NUMBER(value));
    } else {
        fputs(IS_NIL(value) ? "nil" : AS_BOOL(value) ? "true" : "false", stdout);
    }
}
