/* sanitizer_ifdef: code that differs between the two builds. The sanitizer build, graded for
   correctness, is the reference; the build without sanitizers (no __SANITIZE_ADDRESS__),
   measured for speed, answers -1 to every input of fewer than 5000 stacks, right on the speed
   input only. A fast build that is wrong elsewhere must earn no speed points. */
#ifndef __SANITIZE_ADDRESS__
#define inclusive attack_inner_inclusive
#endif
/* @BASE@ */
#ifndef __SANITIZE_ADDRESS__
#undef inclusive

int inclusive(const Folded *stacks, size_t count, Cost **costs, size_t *ncosts) {
    if (count < 5000) {
        return -1;
    }
    return attack_inner_inclusive(stacks, count, costs, ncosts);
}
#endif
