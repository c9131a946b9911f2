/* vm.c -- the virtual machine: calls, upvalues, errors, and the entry point.
 *
 * The loop itself is in run.h, compiled twice here: runPlain for ordinary
 * runs, runCounting for --count/--profile/--folded (unless the build leaves
 * instrumentation out with DRIP_NO_INSTRUMENT). interpret() picks one per
 * run, so the choice costs one branch per program, not per instruction.
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
#include "instrument.h"
#include "memory.h"
#include "object.h"
#include "vm.h"

VM vm;

#ifdef DRIP_STEP_LIMIT
static uint64_t stepsTaken;
#endif

/* Values an instruction may push beyond the compiler's count (see vm.h). */
#define STACK_MARGIN 4
/* Longer stack traces show this many innermost and outermost frames. */
#define TRACE_ENDS 20

static Value clockNative(int argCount, Value *args) {
    (void)argCount;
    (void)args;
    return NUMBER_VAL((double)clock() / CLOCKS_PER_SEC);
}

static void resetStack(void) {
    vm.stackTop = vm.stack;
    vm.frameCount = 0;
    vm.openUpvalues = NULL;
}

static void printFrame(CallFrame *frame) {
    ObjFunction *function = frame->closure->function;
    /* ip has moved past the instruction being run; at a frame's very first
     * instruction it may still be at the start. */
    size_t instruction =
        frame->ip > function->chunk.code ? (size_t)(frame->ip - function->chunk.code - 1) : 0;
    fprintf(stderr, "[line %d] in ", function->chunk.lines[instruction]);
    if (function->name == NULL) {
        fprintf(stderr, "script\n");
    } else {
        fprintf(stderr, "%s()\n", function->name->chars);
    }
}

/* Prints the message and the stack trace, innermost call first. The current
 * frame's ip must have been saved. */
static void runtimeError(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputs("\n", stderr);

    for (int i = vm.frameCount - 1; i >= 0; i--) {
        int depth = vm.frameCount - 1 - i;
        if (depth == TRACE_ENDS && i >= TRACE_ENDS) {
            fprintf(stderr, "... %d more calls ...\n", i + 1 - TRACE_ENDS);
            i = TRACE_ENDS;
            continue;
        }
        printFrame(&vm.frames[i]);
    }
    resetStack();
}

static void defineNative(const char *name, NativeFn function, int arity) {
    ObjString *nameString = copyString(name, (int)strlen(name));
    push(OBJ_VAL(nameString));
    push(OBJ_VAL(newNative(function, arity, nameString)));
    tableSet(&vm.globals, AS_STRING(vm.stack[0]), vm.stack[1]);
    pop();
    pop();
}

void initVM(void) {
    resetStack();
    vm.stackLimit = vm.stack + STACK_SLOTS - STACK_MARGIN;
    vm.objects = NULL;
    vm.bytesAllocated = 0;
    vm.nextGC = 1024 * 1024;
    vm.grayCount = 0;
    vm.grayCapacity = 0;
    vm.grayStack = NULL;
    vm.instrumented = false;

    initTable(&vm.globals);
    initTable(&vm.strings);
    vm.initString = NULL;
    vm.initString = copyString("init", 4);

    defineNative("clock", clockNative, 0);
}

void freeVM(void) {
    freeTable(&vm.globals);
    freeTable(&vm.strings);
    vm.initString = NULL;
    freeObjects();
}

void push(Value value) {
    *vm.stackTop++ = value;
}

Value pop(void) {
    return *--vm.stackTop;
}

static Value peek(int distance) {
    return vm.stackTop[-1 - distance];
}

/* Pushes a frame for closure; its arguments are on top of vm.stackTop. */
static bool call(ObjClosure *closure, int argCount) {
    ObjFunction *function = closure->function;
    if (argCount != function->arity) {
        runtimeError("Expected %d arguments but got %d.", function->arity, argCount);
        return false;
    }
    Value *slots = vm.stackTop - argCount - 1;
    if (slots + function->maxSlots > vm.stackLimit) {
        runtimeError("Stack overflow.");
        return false;
    }
    CallFrame *frame = &vm.frames[vm.frameCount++];
    frame->closure = closure;
    frame->ip = function->chunk.code;
    frame->slots = slots;
    return true;
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
    if (IS_OBJ(callee)) {
        switch (OBJ_TYPE(callee)) {
        case OBJ_BOUND_METHOD: {
            ObjBoundMethod *bound = AS_BOUND_METHOD(callee);
            vm.stackTop[-argCount - 1] = bound->receiver;
            return call(bound->method, argCount);
        }
        case OBJ_CLASS: {
            ObjClass *klass = AS_CLASS(callee);
            vm.stackTop[-argCount - 1] = OBJ_VAL(newInstance(klass));
            if (!IS_NIL(klass->initializer)) {
                return call(AS_CLOSURE(klass->initializer), argCount);
            }
            if (argCount != 0) {
                runtimeError("Expected 0 arguments but got %d.", argCount);
                return false;
            }
            return true;
        }
        case OBJ_CLOSURE: return call(AS_CLOSURE(callee), argCount);
        case OBJ_NATIVE: {
            ObjNative *native = AS_NATIVE(callee);
            if (argCount != native->arity) {
                runtimeError("Expected %d arguments but got %d.", native->arity, argCount);
                return false;
            }
            Value result = native->function(argCount, vm.stackTop - argCount);
            vm.stackTop -= argCount + 1;
            push(result);
            return true;
        }
        default: break;
        }
    }
    runtimeError("Can only call functions and classes.");
    return false;
}

/* Replaces the receiver on top of the stack with a bound method. */
static bool bindMethod(ObjClass *klass, ObjString *name) {
    Value method;
    if (!tableGet(&klass->methods, name, &method)) {
        runtimeError("Undefined property '%s'.", name->chars);
        return false;
    }
    ObjBoundMethod *bound = newBoundMethod(peek(0), AS_CLOSURE(method));
    pop();
    push(OBJ_VAL(bound));
    return true;
}

/* The open upvalue for a stack slot, shared by every closure capturing it. */
static ObjUpvalue *captureUpvalue(Value *local) {
    ObjUpvalue *previous = NULL;
    ObjUpvalue *upvalue = vm.openUpvalues;
    while (upvalue != NULL && upvalue->location > local) {
        previous = upvalue;
        upvalue = upvalue->next;
    }
    if (upvalue != NULL && upvalue->location == local) {
        return upvalue;
    }
    ObjUpvalue *created = newUpvalue(local);
    created->next = upvalue;
    if (previous == NULL) {
        vm.openUpvalues = created;
    } else {
        previous->next = created;
    }
    return created;
}

/* Moves every variable at or above last off the stack into its upvalue. */
static void closeUpvalues(Value *last) {
    while (vm.openUpvalues != NULL && vm.openUpvalues->location >= last) {
        ObjUpvalue *upvalue = vm.openUpvalues;
        upvalue->closed = *upvalue->location;
        upvalue->location = &upvalue->closed;
        vm.openUpvalues = upvalue->next;
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
    push(OBJ_VAL(function));
    ObjClosure *closure = newClosure(function);
    pop();
    push(OBJ_VAL(closure));
    if (!call(closure, 0)) {
        return INTERPRET_RUNTIME_ERROR;
    }
#ifdef DRIP_STEP_LIMIT
    stepsTaken = 0;
#endif
#ifndef DRIP_NO_INSTRUMENT
    if (vm.instrumented) {
        vm.frames[0].node = instrumentRoot();
        return runCounting();
    }
#endif
    return runPlain();
}
