/* vm.h -- the virtual machine's state and its entry point.
 *
 * There is one VM per process, a global, as in clox: every part of the
 * interpreter (allocator, collector, compiler roots) reaches it without
 * threading a pointer through every call. The cost is that the VM is not
 * reentrant, which a command-line interpreter does not need. */
#ifndef DRIP_VM_H
#define DRIP_VM_H

#include "object.h"
#include "table.h"
#include "value.h"

struct ProfileNode;

typedef struct {
    ObjClosure *closure;
    /* ip and the closure's constants: saved when another frame is pushed,
     * before an allocation and on errors (run.h keeps both in registers). */
    uint8_t *ip;
    Value *constants;
    Value *slots;
    struct ProfileNode *node; /* used only by the instrumented loop */
} CallFrame;

typedef struct {
    CallFrame frames[FRAMES_MAX];
    int frame_count; /* exact, like stack_top, only outside the run loop and at GC points */

    Value stack[STACK_SLOTS];
    Value *stack_top; /* exact only outside the run loop and at GC points */
    /* A call must fit its function's maxSlots below this. The margin covers
     * the values an instruction pushes for a moment beyond the compiler's
     * count (a new string kept safe from the collector). */
    Value *stack_limit;

    Table globals;
    Table strings;
    ObjString *init_string;
    ObjUpvalue *open_upvalues;

    /* The collector's budget (memory.h): bytes in use, counting whole free
     * runs handed to the allocator, and the total that starts a collection. */
    size_t bytes_allocated;
    size_t next_gc;
    int gray_count;
    int gray_capacity;
    Obj **gray_stack;

    /* True when the instrumented copy of the run loop is to be used. */
    bool instrumented;
} VM;

typedef enum { INTERPRET_OK, INTERPRET_COMPILE_ERROR, INTERPRET_RUNTIME_ERROR } InterpretResult;

extern VM vm;

void vm_init(void);
void vm_free(void);
/* Compiles and runs one program (or one REPL line); globals persist. */
InterpretResult interpret(const char *source, int sourceLength);
void vm_push(Value value);

#endif
