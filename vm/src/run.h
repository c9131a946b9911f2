/* run.h -- the bytecode loop. Included twice by vm.c, never by anything else.
 *
 * vm.c defines RUN_FUNCTION (the function's name) and RUN_COUNTING (0 or 1)
 * and includes this file once for each copy: runPlain, which is the loop
 * every normal run uses, and runCounting, which adds the --count/--profile
 * hooks. One source, two compiled loops: the plain one carries no trace of
 * the instrumentation, not even a flag test per instruction, and the counting
 * one cannot drift out of step with it.
 *
 * Speed notes (vm/PERFORMANCE.md has the measurements):
 *   - ip, the stack top (sp), the frame's slots and its constants live in
 *     local variables, which the compiler keeps in registers, and so does the
 *     current frame, whose place in vm.frames is the frame count. vm.stack_top,
 *     vm.frame_count, frame->ip and frame->constants are written back only
 *     where something else may look at them: before an allocation (the
 *     collector scans the stack and the frames), a slow-path call, or an
 *     error (the stack trace reads each frame's ip). SAVE() does that. A call
 *     saves the caller's ip and constants in its frame, so a return reloads
 *     them with one load each instead of a walk from the closure.
 *   - Dispatch is a computed goto through a table of label addresses where
 *     GCC or Clang compile it (each opcode ends in its own indirect jump,
 *     which the branch predictor tells apart), a switch elsewhere.
 *   - A call of a closure, the common case, is handled inline in CALL and
 *     INVOKE: arity check, one stack-overflow check against the function's
 *     precomputed maxSlots, and a new frame. So is a call of a class with an
 *     init method (make the instance, then call init). Other classes, bound
 *     methods and natives go through callValue().
 *   - GET_PROPERTY, SET_PROPERTY and INVOKE first try the property name's
 *     one-entry cache (object.h): a hit is a compare of the class and an
 *     indexed load or store, with no hash probe.
 *   - RETURN calls upvalues_close() only when an open upvalue points into the
 *     returning frame, which most calls never have.
 *   - The plain loop also runs superinstructions that a pass wrote over the
 *     compiler's bytecode before the program started (fuse.h); their handlers
 *     are in run_fused.h. The counting loop never sees them: its programs are
 *     not fused, so it counts the compiler's instructions one by one. */

#if !RUN_COUNTING && !defined(DRIP_NO_FUSE)
#define RUN_FUSED 1
#else
#define RUN_FUSED 0
#endif

#if RUN_COUNTING
#define COUNT_OP(op)                                                                               \
    do {                                                                                           \
        instrument.opCounts[op]++;                                                                 \
        frame->node->self++;                                                                       \
    } while (0)
#define ENTERED_FRAME()                                                                            \
    (frame->node = instrumentEnterFunction(frame[-1].node, frame->closure->function))
/* After a slow-path call: a new frame, a native, or neither (a class
 * without init, which runs no Drip code). */
#define AFTER_SLOW_CALL(callee, framesBefore)                                                      \
    do {                                                                                           \
        if (vm.frame_count > (framesBefore)) {                                                     \
            ENTERED_FRAME();                                                                       \
        } else if (IS_NATIVE(callee)) {                                                            \
            instrumentEnterNative(frame->node, AS_NATIVE(callee));                                 \
        }                                                                                          \
    } while (0)
#else
#define COUNT_OP(op) ((void)0)
#define ENTERED_FRAME() ((void)0)
#define AFTER_SLOW_CALL(callee, framesBefore) ((void)0)
#endif

static InterpretResult RUN_FUNCTION(void) {
    CallFrame *frame = &vm.frames[vm.frame_count - 1];
    uint8_t *ip = frame->ip;
    Value *slots = frame->slots;
    Value *sp = vm.stack_top;
    Value *constants = frame->closure->function->chunk.constants.values;

#define READ_BYTE() (*ip++)
#define READ_SHORT() (ip += 2, (uint16_t)((ip[-2] << 8) | ip[-1]))
#define READ_CONSTANT() (constants[READ_BYTE()])
#define READ_STRING() AS_STRING(READ_CONSTANT())
#define PUSH(value) (*sp++ = (value))
#define POP() (*--sp)
#define PEEK(distance) (sp[-1 - (distance)])
#define SAVE()                                                                                     \
    (frame->ip = ip, frame->constants = constants, vm.stack_top = sp,                              \
     vm.frame_count = (int)(frame - vm.frames) + 1)
#define LOAD()                                                                                     \
    do {                                                                                           \
        frame = &vm.frames[vm.frame_count - 1];                                                    \
        ip = frame->ip;                                                                            \
        slots = frame->slots;                                                                      \
        sp = vm.stack_top;                                                                         \
        constants = frame->closure->function->chunk.constants.values;                              \
    } while (0)
#define RUNTIME_ERROR(...)                                                                         \
    do {                                                                                           \
        SAVE();                                                                                    \
        vm_error(__VA_ARGS__);                                                                     \
        return INTERPRET_RUNTIME_ERROR;                                                            \
    } while (0)
/* Pushes a frame for closure, whose argCount arguments are on the stack. */
#define CALL_CLOSURE(closureValue, argCount)                                                       \
    do {                                                                                           \
        ObjClosure *callee_ = (closureValue);                                                      \
        ObjFunction *function_ = callee_->function;                                                \
        Value *newSlots_ = sp - (argCount)-1;                                                      \
        if (UNLIKELY((int)(argCount) != function_->arity)) {                                       \
            RUNTIME_ERROR("Expected %d arguments but got %d.", function_->arity, (int)(argCount)); \
        }                                                                                          \
        if (UNLIKELY(newSlots_ + function_->maxSlots > vm.stack_limit)) {                          \
            RUNTIME_ERROR("Stack overflow.");                                                      \
        }                                                                                          \
        frame->ip = ip;                                                                            \
        frame->constants = constants;                                                              \
        frame++;                                                                                   \
        frame->closure = callee_;                                                                  \
        frame->slots = newSlots_;                                                                  \
        slots = newSlots_;                                                                         \
        ip = function_->chunk.code;                                                                \
        constants = function_->chunk.constants.values;                                             \
        ENTERED_FRAME();                                                                           \
    } while (0)
/* Pops the returning frame (closing its upvalues if any point into it) and
 * pushes result for the caller, or ends the run when it was the last. */
#define RETURN_WITH(resultValue)                                                                   \
    do {                                                                                           \
        Value result_ = (resultValue);                                                             \
        if (vm.open_upvalues != NULL && vm.open_upvalues->location >= slots) {                     \
            upvalues_close(slots);                                                                 \
        }                                                                                          \
        if (frame == vm.frames) {                                                                  \
            vm.frame_count = 0;                                                                    \
            vm.stack_top = slots;                                                                  \
            return INTERPRET_OK;                                                                   \
        }                                                                                          \
        sp = slots;                                                                                \
        PUSH(result_);                                                                             \
        frame--;                                                                                   \
        ip = frame->ip;                                                                            \
        slots = frame->slots;                                                                      \
        constants = frame->constants;                                                              \
        DISPATCH();                                                                                \
    } while (0)
/* Arithmetic and comparison check operand types almost for free: every
 * non-number is a NaN when its bits are read as a double, and a NaN operand
 * makes the result NaN (or the comparison unordered). So when the result is
 * not NaN both operands were numbers; only a NaN result needs the real type
 * test, which also lets genuine NaN numbers (0/0) through. */
#define ARITHMETIC_OP(op)                                                                          \
    do {                                                                                           \
        Value b_ = sp[-1];                                                                         \
        Value a_ = sp[-2];                                                                         \
        double result_ = AS_NUMBER(a_) op AS_NUMBER(b_);                                           \
        if (UNLIKELY(isnan(result_)) && (!IS_NUMBER(a_) || !IS_NUMBER(b_))) {                      \
            RUNTIME_ERROR("Operands must be numbers.");                                            \
        }                                                                                          \
        sp--;                                                                                      \
        sp[-1] = NUMBER_VAL(result_);                                                              \
    } while (0)
#define COMPARISON_OP(op)                                                                          \
    do {                                                                                           \
        Value b_ = sp[-1];                                                                         \
        Value a_ = sp[-2];                                                                         \
        double x_ = AS_NUMBER(a_);                                                                 \
        double y_ = AS_NUMBER(b_);                                                                 \
        if (UNLIKELY(isunordered(x_, y_)) && (!IS_NUMBER(a_) || !IS_NUMBER(b_))) {                 \
            RUNTIME_ERROR("Operands must be numbers.");                                            \
        }                                                                                          \
        sp--;                                                                                      \
        sp[-1] = BOOL_VAL(x_ op y_);                                                               \
    } while (0)

/* Checks for debugging builds, compiled in only when asked for:
 * DRIP_CHECK_STACK verifies at every instruction that the stack is no higher
 * than the compiler's computed maximum for the function (the assumption the
 * once-per-call overflow check rests on); DRIP_STEP_LIMIT ends programs that
 * run too long (the fuzzer needs every input to finish). */
#ifdef DRIP_CHECK_STACK
#define CHECK_STACK()                                                                              \
    do {                                                                                           \
        if (sp - slots > frame->closure->function->maxSlots) {                                     \
            fprintf(stderr, "drip: internal error: stack height %d above the computed %d\n",       \
                    (int)(sp - slots), frame->closure->function->maxSlots);                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#else
#define CHECK_STACK() ((void)0)
#endif
#ifdef DRIP_STEP_LIMIT
#define CHECK_STEPS()                                                                              \
    do {                                                                                           \
        if (++steps_taken > DRIP_STEP_LIMIT) {                                                     \
            RUNTIME_ERROR("Step limit reached.");                                                  \
        }                                                                                          \
    } while (0)
#else
#define CHECK_STEPS() ((void)0)
#endif

#if DRIP_COMPUTED_GOTO
    static const void *const dispatchTable[] = {
#define AS_LABEL(name, operands, effect) &&op_##name,
        FOR_EACH_OPCODE(AS_LABEL)
#undef AS_LABEL
#if RUN_FUSED
#define AS_FUSED_LABEL(name, ...) &&op_##name,
            FOR_EACH_FUSED(AS_FUSED_LABEL)
#undef AS_FUSED_LABEL
#endif
    };
#define DISPATCH()                                                                                 \
    do {                                                                                           \
        CHECK_STACK();                                                                             \
        uint8_t next_ = READ_BYTE();                                                               \
        CHECK_STEPS(); /* after the read: an error names the instruction's line */                 \
        COUNT_OP(next_);                                                                           \
        goto *dispatchTable[next_];                                                                \
    } while (0)
#define CASE(name) op_##name:
/* Carries on as the instruction opcode, whose operands follow ip. */
#define EXECUTE_AS(opcode) goto *dispatchTable[opcode]
    DISPATCH();
#else
#define DISPATCH() goto dispatch
#define CASE(name) case OP_##name:
#define EXECUTE_AS(opcode)                                                                         \
    do {                                                                                           \
        instruction = (opcode);                                                                    \
        goto execute;                                                                              \
    } while (0)
dispatch:;
    CHECK_STACK();
    uint8_t instruction = READ_BYTE();
    CHECK_STEPS();
    COUNT_OP(instruction);
#if RUN_FUSED
execute:
#endif
    switch (instruction) {
#endif

    CASE(CONSTANT) {
        PUSH(READ_CONSTANT());
        DISPATCH();
    }
    CASE(NIL) {
        PUSH(NIL_VAL);
        DISPATCH();
    }
    CASE(TRUE) {
        PUSH(TRUE_VAL);
        DISPATCH();
    }
    CASE(FALSE) {
        PUSH(FALSE_VAL);
        DISPATCH();
    }
    CASE(POP) {
        sp--;
        DISPATCH();
    }
    CASE(GET_LOCAL) {
        PUSH(slots[READ_BYTE()]);
        DISPATCH();
    }
    CASE(SET_LOCAL) {
        slots[READ_BYTE()] = PEEK(0);
        DISPATCH();
    }
    CASE(GET_GLOBAL) {
        /* A full hash-table lookup by name, every time. */
        ObjString *name = READ_STRING();
        Value value;
        if (UNLIKELY(!table_get(&vm.globals, name, &value))) {
            RUNTIME_ERROR("Undefined variable '%s'.", name->chars);
        }
        PUSH(value);
        DISPATCH();
    }
    CASE(DEFINE_GLOBAL) {
        ObjString *name = READ_STRING();
        SAVE(); /* the table may grow, and growing may collect */
        table_set(&vm.globals, name, PEEK(0));
        sp--;
        DISPATCH();
    }
    CASE(SET_GLOBAL) {
        ObjString *name = READ_STRING();
        if (UNLIKELY(!table_replace(&vm.globals, name, PEEK(0)))) {
            RUNTIME_ERROR("Undefined variable '%s'.", name->chars);
        }
        DISPATCH();
    }
    CASE(GET_UPVALUE) {
        uint8_t slot = READ_BYTE();
        PUSH(*frame->closure->upvalues[slot]->location);
        DISPATCH();
    }
    CASE(SET_UPVALUE) {
        uint8_t slot = READ_BYTE();
        *frame->closure->upvalues[slot]->location = PEEK(0);
        DISPATCH();
    }
    CASE(GET_PROPERTY) {
        if (UNLIKELY(!IS_INSTANCE(PEEK(0)))) {
            RUNTIME_ERROR("Only instances have properties.");
        }
        ObjInstance *instance = AS_INSTANCE(PEEK(0));
        ObjString *name = READ_STRING();
        Value value = instance_get(instance, name);
        if (LIKELY(value != ABSENT_VAL)) {
            sp[-1] = value;
            DISPATCH();
        }
        SAVE();
        if (!bind_top(instance->klass, name)) {
            return INTERPRET_RUNTIME_ERROR;
        }
        sp = vm.stack_top;
        DISPATCH();
    }
    CASE(SET_PROPERTY) {
        if (UNLIKELY(!IS_INSTANCE(PEEK(1)))) {
            RUNTIME_ERROR("Only instances have fields.");
        }
        ObjInstance *instance = AS_INSTANCE(PEEK(1));
        ObjString *name = READ_STRING();
        if (UNLIKELY(!instance_set_cached(instance, name, PEEK(0)))) {
            SAVE(); /* numbering the field or spilling may allocate */
            instance_set(instance, name, PEEK(0));
        }
        Value value = POP();
        sp[-1] = value;
        DISPATCH();
    }
    CASE(GET_SUPER) {
        ObjString *name = READ_STRING();
        ObjClass *superclass = AS_CLASS(POP());
        SAVE();
        if (!bind_top(superclass, name)) {
            return INTERPRET_RUNTIME_ERROR;
        }
        sp = vm.stack_top;
        DISPATCH();
    }
    CASE(EQUAL) {
        Value b = POP();
        sp[-1] = BOOL_VAL(valuesEqual(sp[-1], b));
        DISPATCH();
    }
    CASE(GREATER) {
        COMPARISON_OP(>);
        DISPATCH();
    }
    CASE(LESS) {
        COMPARISON_OP(<);
        DISPATCH();
    }
    CASE(ADD) {
        Value b = sp[-1];
        Value a = sp[-2];
        double sum = AS_NUMBER(a) + AS_NUMBER(b);
        if (LIKELY(!isnan(sum)) || (IS_NUMBER(a) && IS_NUMBER(b))) {
            sp--;
            sp[-1] = NUMBER_VAL(sum);
            DISPATCH();
        }
        if (!IS_STRING(a) || !IS_STRING(b)) {
            RUNTIME_ERROR("Operands must be two numbers or two strings.");
        }
        SAVE(); /* both operands stay on the stack while the result is made */
        ObjString *result = string_concat(AS_STRING(a), AS_STRING(b));
        if (result == NULL) {
            RUNTIME_ERROR("String too long.");
        }
        sp--;
        sp[-1] = OBJ_VAL(result);
        DISPATCH();
    }
    CASE(SUBTRACT) {
        ARITHMETIC_OP(-);
        DISPATCH();
    }
    CASE(MULTIPLY) {
        ARITHMETIC_OP(*);
        DISPATCH();
    }
    CASE(DIVIDE) {
        ARITHMETIC_OP(/);
        DISPATCH();
    }
    CASE(NOT) {
        sp[-1] = BOOL_VAL(IS_FALSEY(sp[-1]));
        DISPATCH();
    }
    CASE(NEGATE) {
        if (UNLIKELY(!IS_NUMBER(PEEK(0)))) {
            RUNTIME_ERROR("Operand must be a number.");
        }
        sp[-1] = NUMBER_VAL(-AS_NUMBER(sp[-1]));
        DISPATCH();
    }
    CASE(PRINT) {
        value_print(POP());
        putchar('\n');
        DISPATCH();
    }
    CASE(JUMP) {
        uint16_t offset = READ_SHORT();
        ip += offset;
        DISPATCH();
    }
    CASE(JUMP_IF_FALSE) {
        uint16_t offset = READ_SHORT();
        if (IS_FALSEY(PEEK(0))) {
            ip += offset;
        }
        DISPATCH();
    }
    CASE(LOOP) {
        uint16_t offset = READ_SHORT();
        ip -= offset;
        DISPATCH();
    }
    CASE(CALL) {
        size_t argCount = READ_BYTE();
        Value callee = sp[-1 - (ptrdiff_t)argCount];
#ifndef DRIP_OUTLINE_CALLS
        if (LIKELY(IS_CLOSURE(callee))) {
            CALL_CLOSURE(AS_CLOSURE(callee), argCount);
            DISPATCH();
        }
        /* A class with an init method: the new instance takes the callee's
         * slot, as `this`, and init runs like any closure. */
        if (HAS_HINT(callee, HINT_CLASS) && IS_CLOSURE(AS_CLASS(callee)->initializer)) {
            ObjClass *klass = AS_CLASS(callee);
            SAVE(); /* making the instance may collect */
            instance_into_callee_slot(klass, (int)argCount);
            CALL_CLOSURE(AS_CLOSURE(klass->initializer), argCount);
            DISPATCH();
        }
#endif
        SAVE();
#if RUN_COUNTING
        int framesBefore = vm.frame_count;
#endif
        if (!callValue(callee, (int)argCount)) {
            return INTERPRET_RUNTIME_ERROR;
        }
        LOAD();
        AFTER_SLOW_CALL(callee, framesBefore);
        DISPATCH();
    }
    CASE(INVOKE) {
        ObjString *name = READ_STRING();
        int argCount = READ_BYTE();
        Value receiver = PEEK(argCount);
        if (UNLIKELY(!IS_INSTANCE(receiver))) {
            RUNTIME_ERROR("Only instances have methods.");
        }
        ObjInstance *instance = AS_INSTANCE(receiver);
        /* The fast path: a name no instance ever had as a field (so no field
         * can shadow the method) whose cache holds this class's method. */
        Value method = name->cache_item;
        if (UNLIKELY(name->cache_class != instance->klass || string_is_field_name(name))) {
            Value field = ABSENT_VAL;
            if (string_is_field_name(name)) {
                field = instance_get(instance, name);
            }
            if (field != ABSENT_VAL) {
                /* A field holding something callable shadows any method. */
                sp[-argCount - 1] = field;
                SAVE();
#if RUN_COUNTING
                int framesBefore = vm.frame_count;
#endif
                if (!callValue(field, argCount)) {
                    return INTERPRET_RUNTIME_ERROR;
                }
                LOAD();
                AFTER_SLOW_CALL(field, framesBefore);
                DISPATCH();
            }
            if (UNLIKELY(!class_find_method(instance->klass, name, &method))) {
                RUNTIME_ERROR("Undefined property '%s'.", name->chars);
            }
        }
        CALL_CLOSURE(AS_CLOSURE(method), argCount);
        DISPATCH();
    }
    CASE(SUPER_INVOKE) {
        ObjString *name = READ_STRING();
        int argCount = READ_BYTE();
        ObjClass *superclass = AS_CLASS(POP());
        Value method;
        if (UNLIKELY(!table_get(&superclass->methods, name, &method))) {
            RUNTIME_ERROR("Undefined property '%s'.", name->chars);
        }
        CALL_CLOSURE(AS_CLOSURE(method), argCount);
        DISPATCH();
    }
    CASE(CLOSURE) {
        ObjFunction *function = AS_FUNCTION(READ_CONSTANT());
        SAVE();
        ObjClosure *closure = closure_new(function);
        PUSH(OBJ_VAL(closure));
        SAVE(); /* capturing may allocate: keep the closure reachable */
        for (uint32_t i = 0; i < closure->obj.length; i++) {
            uint8_t isLocal = READ_BYTE();
            uint8_t index = READ_BYTE();
            if (isLocal) {
                closure->upvalues[i] = upvalue_capture(slots + index);
            } else {
                closure->upvalues[i] = frame->closure->upvalues[index];
            }
        }
        DISPATCH();
    }
    CASE(CLOSE_UPVALUE) {
        upvalues_close(sp - 1);
        sp--;
        DISPATCH();
    }
    CASE(RETURN) {
        RETURN_WITH(POP());
    }
    CASE(CLASS) {
        ObjString *name = READ_STRING();
        SAVE();
        ObjClass *klass = class_new(name);
        PUSH(OBJ_VAL(klass));
        DISPATCH();
    }
    CASE(INHERIT) {
        Value superclass = PEEK(1);
        if (!IS_CLASS(superclass)) {
            RUNTIME_ERROR("Superclass must be a class.");
        }
        ObjClass *subclass = AS_CLASS(PEEK(0));
        SAVE();
        table_add_all(&AS_CLASS(superclass)->methods, &subclass->methods);
        table_spread(&subclass->methods);
        subclass->initializer = AS_CLASS(superclass)->initializer;
        sp--;
        DISPATCH();
    }
    CASE(METHOD) {
        ObjString *name = READ_STRING();
        Value method = PEEK(0);
        ObjClass *klass = AS_CLASS(PEEK(1));
        SAVE();
        table_set(&klass->methods, name, method);
        table_spread(&klass->methods);
        name->cache_class = NULL; /* it may hold the method this replaces */
        if (name == vm.init_string) {
            klass->initializer = method;
        }
        sp--;
        DISPATCH();
    }

#if RUN_FUSED
#include "run_fused.h"
#endif

#if !DRIP_COMPUTED_GOTO
}
/* Not reached for bytes the compiler wrote. */
RUNTIME_ERROR("Unknown opcode %d.", instruction);
#endif

#undef READ_BYTE
#undef READ_SHORT
#undef READ_CONSTANT
#undef READ_STRING
#undef PUSH
#undef POP
#undef PEEK
#undef SAVE
#undef LOAD
#undef RUNTIME_ERROR
#undef CALL_CLOSURE
#undef RETURN_WITH
#undef EXECUTE_AS
#undef ARITHMETIC_OP
#undef COMPARISON_OP
#undef DISPATCH
#undef CASE
#undef CHECK_STACK
#undef CHECK_STEPS
}

#undef COUNT_OP
#undef ENTERED_FRAME
#undef AFTER_SLOW_CALL
#undef RUN_FUSED
