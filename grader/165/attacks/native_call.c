/* native_call: valgrind's VALGRIND_NON_SIMD_CALL1 (valgrind.h) runs a function on the real
   CPU, outside valgrind's instrumentation, whatever the tool: work done there is never
   counted (a loop of 100 million instructions counted as 127 thousand under callgrind and
   exp-bbv alike). The function cannot call malloc (it runs on valgrind's thread state), so a
   real attack would keep only its hot, libc-free loop there, as this one does with a stand-in
   loop; outside valgrind the request does nothing and the loop runs as usual. The base is
   correct: the build must refuse it, score 0. */
#include <valgrind/valgrind.h>

/* The loop as valgrind calls a function natively: with the thread's id first. */
static long attack_native_loop(long tid, long n) {
    (void)tid;
    return (long)attack_hot_loop((unsigned long)n);
}

__attribute__((constructor)) static void attack_native_call(void) {
    if (VALGRIND_NON_SIMD_CALL1(attack_native_loop, 1000000) != 1) {
        attack_hot_loop(1000000); /* not under valgrind: the request answered 0 */
    }
}
