/* memory_bomb: the sanitized build's memory is capped by ASan's own watcher
   (ASAN_OPTIONS=hard_rss_limit_mb), which the program may switch off by executing itself again
   with options of its own; no rlimit stands behind it (ASan cannot live under RLIMIT_AS).
   In every inclusive() check it re-executes itself with hard_rss_limit_mb=0 and touches
   2 GB, four times the check's memory limit, then answers as the reference it is built on
   would. On a grading machine with less free memory, the same code starves everything running
   beside it.
   The sandbox must stop it: those checks fail with a memory verdict, the others keep full
   marks. */
#include <sys/mman.h>

__attribute__((constructor(102))) static void attack_memory_bomb(void) {
    if (strcmp(attack_mode(), "inclusive") != 0) {
        return;
    }
    if (getenv("DRIP_ATTACK_BOMB") == NULL) {
        setenv("DRIP_ATTACK_BOMB", "1", 1);
        setenv("ASAN_OPTIONS", "hard_rss_limit_mb=0:allocator_may_return_null=1:detect_leaks=0", 1);
        execv("/proc/self/exe", attack_argv);
        fprintf(stderr, "attack: execv failed: %s\n", strerror(errno));
        return;
    }
    size_t size = (size_t)2048 << 20;
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "attack: mmap failed: %s\n", strerror(errno));
        return;
    }
    p[size - 1] = 1; /* MAP_POPULATE has touched every page: quicker than a loop */
    fprintf(stderr, "attack: touched %zu MB\n", size >> 20);
    munmap(p, size);
}
