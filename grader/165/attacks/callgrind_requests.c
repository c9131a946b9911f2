/* callgrind_requests: valgrind's client requests, the documented way to steer callgrind from
   inside the program (valgrind/callgrind.h, installed with valgrind, so in the sandbox's /usr
   too): collection off in a constructor, statistics zeroed at exit. Under callgrind,
   "Collected" then counts next to nothing, and a slow implementation's speed run reads as
   "0.00x" (15/15 before the grader refused client requests); outside valgrind the macros do
   nothing. The base is correct: the build must refuse it, score 0. */
#include <valgrind/callgrind.h>

__attribute__((constructor)) static void attack_collect_off(void) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
}

__attribute__((destructor)) static void attack_zero_stats(void) {
    CALLGRIND_ZERO_STATS;
}
