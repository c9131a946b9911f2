/* callgrind_requests: valgrind's client requests, the documented way to steer callgrind from
   inside the program (valgrind/callgrind.h, installed with valgrind, so in the sandbox too):
   collection off in a constructor, statistics zeroed at exit, for the slow (quadratic)
   implementation. Under callgrind, "Collected" would then count next to nothing, a 0.00x
   run; outside valgrind the macros do nothing. The count must be one the program cannot
   switch off. */
#include <valgrind/callgrind.h>

__attribute__((constructor)) static void attack_collect_off(void) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
}

__attribute__((destructor)) static void attack_zero_stats(void) {
    CALLGRIND_ZERO_STATS;
}
