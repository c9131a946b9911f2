/* vm.c -- the virtual machine: calls, upvalues, errors, and the entry point.
 *
 * The loop itself is in run.h, compiled twice here: runPlain for ordinary
 * runs, runCounting for --count/--profile/--folded (unless the build leaves
 * instrumentation out with DRIP_NO_INSTRUMENT). interpret() picks one per
 * run, so the choice costs one branch per program, not per instruction; a
 * program for runPlain is first given its superinstructions (fuse.h).
 *
 * This file holds the slow paths the loop calls out to: calling classes,
 * bound methods and natives, binding methods, capturing and closing
 * upvalues, and reporting runtime errors with a stack trace. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "compiler.h"
#include "fuse.h"
#include "instrument.h"
#include "memory.h"
#include "object.h"
#include "vm.h"

VM vm;

#ifdef DRIP_STEP_LIMIT
static uint64_t steps_taken;
#endif

/* Values an instruction may push beyond the compiler's count (see vm.h). */
#define STACK_MARGIN 4
/* Longer stack traces show this many innermost and outermost frames. */
#define TRACE_ENDS 20

static Value clockNative(int argCount, Value *args) {
    (void)argCount;
    (void)args;
#ifdef DRIP_STEP_LIMIT
    /* The fuzz build's clock counts instructions, which both loops count
     * alike, so its differential oracle can compare what a program prints. */
    return NUMBER_VAL((double)steps_taken);
#else
    return NUMBER_VAL((double)clock() / CLOCKS_PER_SEC);
#endif
}

/* The built-in functions every program starts with. Adding one is one row. */
static const struct {
    const char *name;
    NativeFn fn;
    int arity;
} builtin_natives[] = {
    {"clock", clockNative, 0},
};

static void stack_clear(void) {
    vm.stack_top = vm.stack;
    vm.frame_count = 0;
    vm.open_upvalues = NULL;
}

/* The source line of the instruction a frame is running. Its ip has already
 * moved past that instruction, except at a frame's very first one. */
static int frame_line(const CallFrame *frame) {
    const Chunk *chunk = &frame->closure->function->chunk;
    ptrdiff_t at = frame->ip - chunk->code;
    return chunk->lines[at > 0 ? at - 1 : 0];
}

static void trace_frame(const CallFrame *frame) {
    ObjString *name = frame->closure->function->name;
    fprintf(stderr, "[line %d] in %s%s\n", frame_line(frame), name == NULL ? "script" : name->chars,
            name == NULL ? "" : "()");
}

/* Innermost call first. A deep recursion would bury the message under
 * thousands of identical lines, so only TRACE_ENDS frames from each end are
 * shown, with a count of those skipped in between. */
static void trace_print(void) {
    int frames = vm.frame_count;
    int skipped = frames > 2 * TRACE_ENDS ? frames - 2 * TRACE_ENDS : 0;
    for (int depth = 0; depth < frames; depth++) {
        if (skipped > 0 && depth == TRACE_ENDS) {
            fprintf(stderr, "... %d more calls ...\n", skipped);
            depth += skipped - 1;
            continue;
        }
        trace_frame(&vm.frames[frames - 1 - depth]);
    }
}

/* Reports a runtime error and unwinds everything. The current frame's ip
 * must have been saved, or the trace names the wrong line. */
static void vm_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    trace_print();
    stack_clear();
}

/* Both the name and the native are kept on the stack while the other is
 * allocated and while the globals table grows: any of those may collect. */
static void natives_register(void) {
    size_t count = sizeof builtin_natives / sizeof builtin_natives[0];
    for (size_t i = 0; i < count; i++) {
        const char *name = builtin_natives[i].name;
        ObjString *key = string_copy(name, (int)strlen(name));
        vm_push(OBJ_VAL(key));
        ObjNative *native = native_new(builtin_natives[i].fn, builtin_natives[i].arity, key);
        vm_push(OBJ_VAL(native));
        table_set(&vm.globals, key, OBJ_VAL(native));
        vm.stack_top -= 2;
    }
}

/* The collector's state for an empty heap (memory.h). */
static void collector_reset(void) {
    vm.bytes_allocated = 0;
    vm.next_gc = GC_MIN_BUDGET;
    vm.gray_stack = NULL;
    vm.gray_count = 0;
    vm.gray_capacity = 0;
}

void vm_init(void) {
    stack_clear();
    vm.stack_limit = &vm.stack[STACK_SLOTS - STACK_MARGIN];
    vm.instrumented = false;
    collector_reset();
    table_init(&vm.globals);
    table_init(&vm.strings);
    /* NULL first: string_copy may collect, and the collector marks this. */
    vm.init_string = NULL;
    vm.init_string = string_copy("init", 4);
    natives_register();
}

void vm_free(void) {
    vm.init_string = NULL;
    table_free(&vm.strings);
    table_free(&vm.globals);
    gc_free_all();
}

void vm_push(Value value) {
    *vm.stack_top++ = value;
}

/* Pushes a frame for closure, whose arguments are the top argCount values. */
static bool call_closure(ObjClosure *closure, int argCount) {
    ObjFunction *function = closure->function;
    if (argCount != function->arity) {
        vm_error("Expected %d arguments but got %d.", function->arity, argCount);
        return false;
    }
    Value *base = vm.stack_top - argCount - 1;
    if (base + function->maxSlots > vm.stack_limit) {
        vm_error("Stack overflow.");
        return false;
    }
    CallFrame *frame = &vm.frames[vm.frame_count];
    vm.frame_count++;
    frame->closure = closure;
    frame->ip = function->chunk.code;
    frame->slots = base;
    return true;
}

/* A native runs to completion here; its result replaces it and its
 * arguments on the stack. */
static bool call_native(ObjNative *native, int argCount) {
    if (argCount != native->arity) {
        vm_error("Expected %d arguments but got %d.", native->arity, argCount);
        return false;
    }
    Value *args = vm.stack_top - argCount;
    Value result = native->function(argCount, args);
    vm.stack_top = args - 1;
    vm_push(result);
    return true;
}

/* A new instance of klass replaces the class as the callee of a call with
 * argCount arguments: it becomes the initializer's `this`. */
static void instance_into_callee_slot(ObjClass *klass, int argCount) {
    ObjInstance *instance = instance_new(klass);
    vm.stack_top[-argCount - 1] = OBJ_VAL(instance);
}

/* Calling a class makes an instance in the callee's slot (so it becomes
 * `this`) and runs init, if the class has one. */
static bool call_class(ObjClass *klass, int argCount) {
    instance_into_callee_slot(klass, argCount);
    if (IS_NIL(klass->initializer)) {
        if (argCount == 0) {
            return true;
        }
        vm_error("Expected 0 arguments but got %d.", argCount);
        return false;
    }
    return call_closure(AS_CLOSURE(klass->initializer), argCount);
}

/* Calls anything callable other than the closure fast path of the loop.
 * Built with DRIP_OUTLINE_CALLS, every OP_CALL comes here (and is kept a
 * separate function), so a profile of the C code counts one call of
 * callValue per Drip call, as in clox; the release build inlines closure
 * calls into the loop instead. */
#ifdef DRIP_OUTLINE_CALLS
__attribute__((noinline))
#endif
static bool
callValue(Value callee, int argCount) {
    /* Closures first, told apart by the value's type hint alone. */
    if (IS_CLOSURE(callee)) {
        return call_closure(AS_CLOSURE(callee), argCount);
    }
    if (!IS_OBJ(callee)) {
        vm_error("Can only call functions and classes.");
        return false;
    }
    switch (OBJ_TYPE(callee)) {
    case OBJ_NATIVE: return call_native(AS_NATIVE(callee), argCount);
    case OBJ_CLASS: return call_class(AS_CLASS(callee), argCount);
    case OBJ_BOUND_METHOD: {
        /* The receiver takes the callee's slot: the method's `this`. */
        ObjBoundMethod *bound = AS_BOUND_METHOD(callee);
        vm.stack_top[-argCount - 1] = bound->receiver;
        return call_closure(bound->method, argCount);
    }
    default: vm_error("Can only call functions and classes."); return false;
    }
}

/* Binds the receiver on top of the stack to its class's method `name`,
 * in place; false (after the error) when the class has no such method. The
 * receiver stays on the stack while the bound method is made, since making
 * it may collect. */
static bool bind_top(ObjClass *klass, ObjString *name) {
    Value method;
    bool found = table_get(&klass->methods, name, &method);
    if (!found) {
        vm_error("Undefined property '%s'.", name->chars);
        return false;
    }
    ObjBoundMethod *bound = bound_method_new(vm.stack_top[-1], AS_CLOSURE(method));
    vm.stack_top[-1] = OBJ_VAL(bound);
    return true;
}

/* The open upvalue for a stack slot, shared by every closure capturing it.
 * The open list is sorted by slot, topmost first, so the walk stops at the
 * first upvalue at or below the slot; link is where a new one goes. */
static ObjUpvalue *upvalue_capture(Value *slot) {
    ObjUpvalue **link = &vm.open_upvalues;
    while (*link != NULL && (*link)->location > slot) {
        link = &(*link)->next;
    }
    if (*link != NULL && (*link)->location == slot) {
        return *link;
    }
    ObjUpvalue *fresh = upvalue_new(slot);
    fresh->next = *link;
    *link = fresh;
    return fresh;
}

/* Moves every variable at or above `from` off the stack into its upvalue,
 * which from then on points at its own copy. */
static void upvalues_close(Value *from) {
    for (ObjUpvalue *open = vm.open_upvalues; open != NULL && open->location >= from;
         open = vm.open_upvalues) {
        open->closed = *open->location;
        open->location = &open->closed;
        vm.open_upvalues = open->next;
    }
}

#define RUN_FUNCTION runPlain
#define RUN_COUNTING 0
#include "run.h"
#undef RUN_FUNCTION
#undef RUN_COUNTING

#ifndef DRIP_NO_INSTRUMENT
#define RUN_FUNCTION runCounting
#define RUN_COUNTING 1
#include "run.h"
#undef RUN_FUNCTION
#undef RUN_COUNTING
#endif

InterpretResult interpret(const char *source, int sourceLength) {
    ObjFunction *function = compile(source, sourceLength);
    if (function == NULL) {
        return INTERPRET_COMPILE_ERROR;
    }
    /* The function is a root while its closure is allocated; the closure
     * then takes its slot, as the callee of the script's frame. */
    vm_push(OBJ_VAL(function));
    ObjClosure *closure = closure_new(function);
    vm.stack_top[-1] = OBJ_VAL(closure);
    if (!call_closure(closure, 0)) {
        return INTERPRET_RUNTIME_ERROR;
    }
#ifdef DRIP_STEP_LIMIT
    steps_taken = 0;
#endif
#ifndef DRIP_NO_INSTRUMENT
    if (vm.instrumented) {
        vm.frames[0].node = instrumentRoot();
        return runCounting();
    }
#endif
#ifndef DRIP_NO_FUSE
    fuse_function(function);
#endif
    return runPlain();
}
