/* run_fused.h -- the handlers of the fused opcodes (fuse.h). Included by
 * run.h into the plain loop alone, inside its dispatch, where ip has just
 * passed the fused opcode.
 *
 * A handler reads the run's operands where the compiler wrote them: ip[0] is
 * the byte after the run's first opcode, ip[2] the operand of a second
 * instruction that follows a one-operand first, and so on. It does the run's
 * work on the operands it was made for and otherwise carries on as the run's
 * first instruction (FALL_BACK), which then runs the compiler's instructions
 * as they stand; no handler reports an error or allocates. Under
 * DRIP_STEP_LIMIT a run counts as its instructions, and one that would pass
 * the limit falls back at once, so the limit stops a program at the same
 * instruction as in the counting loop. */

#ifdef DRIP_STEP_LIMIT
#define FUSED_ENTER(name)                                                                          \
    do {                                                                                           \
        if (steps_taken + FUSED_LENGTH_##name - 1 > DRIP_STEP_LIMIT) {                             \
            EXECUTE_AS(FUSED_FIRST_##name);                                                        \
        }                                                                                          \
        steps_taken += FUSED_LENGTH_##name - 1;                                                    \
    } while (0)
#define FALL_BACK(name)                                                                            \
    do {                                                                                           \
        steps_taken -= FUSED_LENGTH_##name - 1;                                                    \
        EXECUTE_AS(FUSED_FIRST_##name);                                                            \
    } while (0)
#else
#define FUSED_ENTER(name) ((void)0)
#define FALL_BACK(name) EXECUTE_AS(FUSED_FIRST_##name)
#endif

/* Moves ip past the run. */
#define SKIP_RUN(name) (ip += FUSED_BYTES_##name - 1)

/* Ends a FUSE_BRANCH run: past it when condition holds, else to the jump's
 * target, past the POP there. The jump's offset is in the two bytes before
 * the run's last (the POP). */
#define TAKE_BRANCH(name, condition)                                                               \
    do {                                                                                           \
        SKIP_RUN(name);                                                                            \
        if (!(condition)) {                                                                        \
            ip += (uint16_t)(ip[-3] << 8 | ip[-2]);                                                \
        }                                                                                          \
        DISPATCH();                                                                                \
    } while (0)

/* A comparison of two numbers, then the branch. Two numbers that are not NaN
 * compare as doubles; anything else (a non-number reads as a NaN) goes to the
 * run's own comparison, for its error or its NaN. pops values leave the
 * stack. */
#define NUMBERS_BRANCH(name, operands, test) NUMBERS_BRANCH_(name, operands, test)
#define NUMBERS_BRANCH_(name, a, b, pops, test)                                                    \
    CASE(name) {                                                                                   \
        FUSED_ENTER(name);                                                                         \
        double x_ = AS_NUMBER(a);                                                                  \
        double y_ = AS_NUMBER(b);                                                                  \
        bool holds_ = x_ test y_; /* false when unordered, so only then ask */                     \
        if (!holds_ && UNLIKELY(isunordered(x_, y_))) {                                            \
            FALL_BACK(name);                                                                       \
        }                                                                                          \
        sp -= (pops);                                                                              \
        TAKE_BRANCH(name, holds_);                                                                 \
    }

/* A test that any two values pass or fail, then the branch. */
#define VALUES_BRANCH(name, pops, condition)                                                       \
    CASE(name) {                                                                                   \
        FUSED_ENTER(name);                                                                         \
        bool condition_ = (condition);                                                             \
        sp -= (pops);                                                                              \
        TAKE_BRANCH(name, condition_);                                                             \
    }

/* The operands: the two values on top; the top and constant k of CONSTANT k;
 * local a and constant k of GET_LOCAL a, CONSTANT k. */
#define TOP2 sp[-2], sp[-1], 2
#define TOP_K sp[-1], constants[ip[0]], 1
#define LOCAL_K slots[ip[0]], constants[ip[2]], 0

VALUES_BRANCH(BRANCH, 1, !IS_FALSEY(sp[-1]))
VALUES_BRANCH(NOT_BRANCH, 1, IS_FALSEY(sp[-1]))
VALUES_BRANCH(EQUAL_BRANCH, 2, valuesEqual(sp[-2], sp[-1]))
VALUES_BRANCH(EQUAL_NOT_BRANCH, 2, !valuesEqual(sp[-2], sp[-1]))
NUMBERS_BRANCH(LESS_BRANCH, TOP2, <)
NUMBERS_BRANCH(LESS_NOT_BRANCH, TOP2, >=)
NUMBERS_BRANCH(GREATER_BRANCH, TOP2, >)
NUMBERS_BRANCH(GREATER_NOT_BRANCH, TOP2, <=)

/* The constant is a number (FUSE_NUMBER), the top may be anything: a
 * non-number's NaN equals nothing, as valuesEqual has it. */
VALUES_BRANCH(CONSTANT_EQUAL_BRANCH, 1, AS_NUMBER(sp[-1]) == AS_NUMBER(constants[ip[0]]))
VALUES_BRANCH(CONSTANT_EQUAL_NOT_BRANCH, 1, AS_NUMBER(sp[-1]) != AS_NUMBER(constants[ip[0]]))
/* The constant is not a number (FUSE_OTHER): equal means the same value. */
VALUES_BRANCH(CONSTANT_IS_BRANCH, 1, sp[-1] == constants[ip[0]])
VALUES_BRANCH(CONSTANT_IS_NOT_BRANCH, 1, sp[-1] != constants[ip[0]])
NUMBERS_BRANCH(CONSTANT_LESS_BRANCH, TOP_K, <)
NUMBERS_BRANCH(CONSTANT_LESS_NOT_BRANCH, TOP_K, >=)
NUMBERS_BRANCH(CONSTANT_GREATER_BRANCH, TOP_K, >)
NUMBERS_BRANCH(CONSTANT_GREATER_NOT_BRANCH, TOP_K, <=)
VALUES_BRANCH(NIL_EQUAL_BRANCH, 1, sp[-1] == NIL_VAL)
VALUES_BRANCH(NIL_EQUAL_NOT_BRANCH, 1, sp[-1] != NIL_VAL)

VALUES_BRANCH(LOCAL_CONSTANT_EQUAL_BRANCH, 0,
              AS_NUMBER(slots[ip[0]]) == AS_NUMBER(constants[ip[2]]))
VALUES_BRANCH(LOCAL_CONSTANT_EQUAL_NOT_BRANCH, 0,
              AS_NUMBER(slots[ip[0]]) != AS_NUMBER(constants[ip[2]]))
NUMBERS_BRANCH(LOCAL_CONSTANT_LESS_BRANCH, LOCAL_K, <)
NUMBERS_BRANCH(LOCAL_CONSTANT_LESS_NOT_BRANCH, LOCAL_K, >=)
NUMBERS_BRANCH(LOCAL_CONSTANT_GREATER_BRANCH, LOCAL_K, >)
NUMBERS_BRANCH(LOCAL_CONSTANT_GREATER_NOT_BRANCH, LOCAL_K, <=)

/* Number arithmetic with a number constant k: the result, unless it is a NaN
 * (an operand that is no number, or a NaN from the numbers themselves), in
 * which case the run's own instructions work it out. */
#define NUMBER_K_OP(name, a, k, op, pushes)                                                        \
    CASE(name) {                                                                                   \
        FUSED_ENTER(name);                                                                         \
        double result_ = AS_NUMBER(a) op AS_NUMBER(k);                                             \
        if (UNLIKELY(isnan(result_))) {                                                            \
            FALL_BACK(name);                                                                       \
        }                                                                                          \
        sp += (pushes);                                                                            \
        sp[-1] = NUMBER_VAL(result_);                                                              \
        SKIP_RUN(name);                                                                            \
        DISPATCH();                                                                                \
    }

NUMBER_K_OP(LOCAL_CONSTANT_ADD, slots[ip[0]], constants[ip[2]], +, 1)
NUMBER_K_OP(LOCAL_CONSTANT_SUBTRACT, slots[ip[0]], constants[ip[2]], -, 1)
NUMBER_K_OP(CONSTANT_ADD, sp[-1], constants[ip[0]], +, 0)
NUMBER_K_OP(CONSTANT_SUBTRACT, sp[-1], constants[ip[0]], -, 0)

CASE(LOCAL_GET_PROPERTY) {
    /* An instance whose field the name's cache finds in a direct slot;
     * anything else is GET_PROPERTY's. */
    FUSED_ENTER(LOCAL_GET_PROPERTY);
    Value receiver = slots[ip[0]];
    if (UNLIKELY(!IS_INSTANCE(receiver))) {
        FALL_BACK(LOCAL_GET_PROPERTY);
    }
    ObjInstance *instance = AS_INSTANCE(receiver);
    ObjString *name = AS_STRING(constants[ip[2]]);
    uint64_t slot = name->cache_item;
    if (UNLIKELY(name->cache_class != instance->klass || slot >= instance->obj.length ||
                 instance->fields[slot] == ABSENT_VAL)) {
        FALL_BACK(LOCAL_GET_PROPERTY);
    }
    PUSH(instance->fields[slot]);
    SKIP_RUN(LOCAL_GET_PROPERTY);
    DISPATCH();
}
CASE(LOCAL_LOCAL) {
    FUSED_ENTER(LOCAL_LOCAL);
    sp[0] = slots[ip[0]];
    sp[1] = slots[ip[2]];
    sp += 2;
    SKIP_RUN(LOCAL_LOCAL);
    DISPATCH();
}
CASE(LOCAL_RETURN) {
    FUSED_ENTER(LOCAL_RETURN);
    RETURN_WITH(slots[ip[0]]);
}
CASE(NIL_RETURN) {
    FUSED_ENTER(NIL_RETURN);
    RETURN_WITH(NIL_VAL);
}
CASE(GLOBAL_CONSTANT_ADD) {
    /* The lookup is GET_GLOBAL's, by name; a miss or a sum that is not a
     * number goes back to it. */
    FUSED_ENTER(GLOBAL_CONSTANT_ADD);
    Value value;
    if (UNLIKELY(!table_get(&vm.globals, AS_STRING(constants[ip[0]]), &value))) {
        FALL_BACK(GLOBAL_CONSTANT_ADD);
    }
    double sum = AS_NUMBER(value) + AS_NUMBER(constants[ip[2]]);
    if (UNLIKELY(isnan(sum))) {
        FALL_BACK(GLOBAL_CONSTANT_ADD);
    }
    PUSH(NUMBER_VAL(sum));
    SKIP_RUN(GLOBAL_CONSTANT_ADD);
    DISPATCH();
}
CASE(GLOBAL_GLOBAL) {
    FUSED_ENTER(GLOBAL_GLOBAL);
    if (UNLIKELY(!table_get(&vm.globals, AS_STRING(constants[ip[0]]), &sp[0]) ||
                 !table_get(&vm.globals, AS_STRING(constants[ip[2]]), &sp[1]))) {
        FALL_BACK(GLOBAL_GLOBAL);
    }
    sp += 2;
    SKIP_RUN(GLOBAL_GLOBAL);
    DISPATCH();
}
CASE(ADD_RETURN) {
    FUSED_ENTER(ADD_RETURN);
    double sum = AS_NUMBER(sp[-2]) + AS_NUMBER(sp[-1]);
    if (UNLIKELY(isnan(sum))) {
        FALL_BACK(ADD_RETURN);
    }
    RETURN_WITH(NUMBER_VAL(sum));
}

/* A statement's end, then the jump (JUMP) or jump back (LOOP) after it: the
 * jump's offset is in the run's last two bytes. */
#define JUMP_AFTER(name, direction)                                                                \
    do {                                                                                           \
        SKIP_RUN(name);                                                                            \
        ip direction## = (uint16_t)(ip[-2] << 8 | ip[-1]);                                         \
        DISPATCH();                                                                                \
    } while (0)

CASE(SET_LOCAL_POP_LOOP) {
    FUSED_ENTER(SET_LOCAL_POP_LOOP);
    slots[ip[0]] = *--sp;
    JUMP_AFTER(SET_LOCAL_POP_LOOP, -);
}
/* An assignment to a global that exists, its POP, then what `then` does; a
 * global that does not exist goes back to SET_GLOBAL, for the error. */
#define SET_GLOBAL_POP_THEN(name, then)                                                            \
    CASE(name) {                                                                                   \
        FUSED_ENTER(name);                                                                         \
        if (UNLIKELY(!table_replace(&vm.globals, AS_STRING(constants[ip[0]]), sp[-1]))) {          \
            FALL_BACK(name);                                                                       \
        }                                                                                          \
        sp--;                                                                                      \
        then;                                                                                      \
    }

SET_GLOBAL_POP_THEN(SET_GLOBAL_POP_LOOP, JUMP_AFTER(SET_GLOBAL_POP_LOOP, -))
SET_GLOBAL_POP_THEN(SET_GLOBAL_POP_JUMP, JUMP_AFTER(SET_GLOBAL_POP_JUMP, +))
SET_GLOBAL_POP_THEN(SET_GLOBAL_POP, SKIP_RUN(SET_GLOBAL_POP); DISPATCH())
CASE(SET_PROPERTY_POP) {
    FUSED_ENTER(SET_PROPERTY_POP);
    Value target = sp[-2];
    if (UNLIKELY(!IS_INSTANCE(target)) ||
        UNLIKELY(!instance_set_cached(AS_INSTANCE(target), AS_STRING(constants[ip[0]]), sp[-1]))) {
        FALL_BACK(SET_PROPERTY_POP);
    }
    sp -= 2;
    SKIP_RUN(SET_PROPERTY_POP);
    DISPATCH();
}

#undef FUSED_ENTER
#undef FALL_BACK
#undef SKIP_RUN
#undef TAKE_BRANCH
#undef NUMBERS_BRANCH
#undef NUMBERS_BRANCH_
#undef VALUES_BRANCH
#undef TOP2
#undef TOP_K
#undef LOCAL_K
#undef NUMBER_K_OP
#undef JUMP_AFTER
#undef SET_GLOBAL_POP_THEN
