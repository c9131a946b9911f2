#include <stdio.h>

/* A toy stack machine with two variables, and a tally of every opcode it runs. */
enum { LOAD, STORE, PUSH, ADD, SUB, JUMP_IF_NONZERO, PRINT, HALT, OPCODE_COUNT };

static const char *const opcode_names[OPCODE_COUNT] = {
    "LOAD", "STORE", "PUSH", "ADD", "SUB", "JUMP_IF_NONZERO", "PRINT", "HALT",
};

int main(void) {
    /* n = 10; sum = 0; do { sum += n; n -= 1; } while (n != 0); print sum */
    const int code[] = {
        PUSH, 10, STORE, 0,                 /*  0: n = 10          */
        PUSH, 0, STORE, 1,                  /*  4: sum = 0         */
        LOAD, 1, LOAD, 0, ADD, STORE, 1,    /*  8: sum = sum + n   */
        LOAD, 0, PUSH, 1, SUB, STORE, 0,    /* 15: n = n - 1       */
        LOAD, 0, JUMP_IF_NONZERO, 8,        /* 22: loop while n    */
        LOAD, 1, PRINT, HALT,               /* 26: print sum       */
    };
    long tally[OPCODE_COUNT] = {0};
    int stack[16], top = 0, vars[2] = {0, 0}, ip = 0;

    for (;;) {
        int op = code[ip++];
        tally[op]++; /* the whole of the instrumentation */
        switch (op) {
        case LOAD: stack[top++] = vars[code[ip++]]; continue;
        case STORE: vars[code[ip++]] = stack[--top]; continue;
        case PUSH: stack[top++] = code[ip++]; continue;
        case ADD: top--; stack[top - 1] += stack[top]; continue;
        case SUB: top--; stack[top - 1] -= stack[top]; continue;
        case JUMP_IF_NONZERO: {
            int target = code[ip++];
            if (stack[--top] != 0)
                ip = target;
            continue;
        }
        case PRINT: printf("%d\n", stack[--top]); continue;
        case HALT: break;
        }
        break;
    }

    long total = 0;
    for (int op = 0; op < OPCODE_COUNT; op++)
        total += tally[op];
    for (int op = 0; op < OPCODE_COUNT; op++)
        printf("%-16s %4ld %6.1f%%\n", opcode_names[op], tally[op], 100.0 * tally[op] / total);
    printf("%-16s %4ld\n", "total", total);
    return 0;
}
