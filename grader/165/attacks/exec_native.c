/* exec_native: under valgrind, write a fake count and re-run the checker by exec, hoping the
   new program escapes valgrind and its count never comes (the slow implementation again). */
__attribute__((constructor)) static void attack_exec_native(void) {
    if (!attack_under_valgrind() || getenv("DRIP_ATTACK_EXECED")) {
        return;
    }
    int copy = dup(1020);
    if (copy >= 0) {
        dprintf(copy, "==%d== Collected : 1\n", (int)getpid());
        close(copy);
    }
    setenv("DRIP_ATTACK_EXECED", "1", 1);
    execv("/proc/self/exe", attack_argv);
    execv(attack_argv[0], attack_argv);
}
