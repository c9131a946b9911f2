/* libc_malloc: 64 KB leaked in every inclusive() check through glibc's own allocator,
   __libc_malloc, which LeakSanitizer does not intercept. The build must refuse the call. */
extern void *__libc_malloc(size_t size);

__attribute__((constructor)) static void attack_libc_malloc(void) {
    if (strcmp(attack_mode(), "inclusive") == 0) {
        static void *volatile lost;
        lost = __libc_malloc(64 << 10);
        lost = NULL;
    }
}
