/* speed_leak: the slow (quadratic) implementation, which on the speed input (thousands of
   stacks) leaks 64 bytes and, under valgrind, prints a LeakSanitizer report of its own. A
   leak keeps part of a check's credit elsewhere; a speed run that is not clean must earn no
   speed points at all, whatever the count. */
#define inclusive attack_inner_inclusive
/* @BASE@ */
#undef inclusive

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    if (count >= 5000) {
        static void *volatile lost;
        lost = malloc(64);
        lost = NULL;
        if (attack_under_valgrind()) {
            fprintf(stderr, "==1==ERROR: LeakSanitizer: detected memory leaks\n\n"
                            "Direct leak of 64 byte(s) in 1 object(s) allocated from:\n"
                            "    #0 0x1 in malloc\n\nSUMMARY: AddressSanitizer: 64 byte(s) "
                            "leaked in 1 allocation(s).\n");
        }
    }
    return attack_inner_inclusive(stacks, count, costs, ncosts);
}
