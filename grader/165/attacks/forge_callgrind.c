/* forge_callgrind: under valgrind, write a fake instruction count into valgrind's own log
   (fd 1020, which valgrind guards, so through a duplicate), for the slow (quadratic)
   implementation: the lines both callgrind ("Collected") and exp-bbv ("Total instructions")
   end their log with. The count that matters is valgrind's own, written at exit. */
__attribute__((constructor)) static void attack_forge_callgrind(void) {
    const char *preload = getenv("LD_PRELOAD");
    if (preload == NULL || strstr(preload, "vgpreload") == NULL) {
        return;
    }
    int copy = dup(1020);
    if (copy >= 0) {
        int pid = (int)getpid();
        dprintf(copy, "==%d== Events    : Ir\n==%d== Collected : 1\n==%d== \n", pid, pid, pid);
        dprintf(copy, "==%d== # Thread 1\n==%d== #   Total instructions: 1\n==%d== \n", pid, pid, pid);
        close(copy);
    }
}
