/* vfork_pause: in every sum_named() check, vfork() a child that pause()s. The parent waits in
   the kernel (state D) until the child execs or exits, which it never does: neither uses the
   CPU, so only the idle rule can end the check soon, whatever state the processes are in. */
__attribute__((constructor)) static void attack_vfork_pause(void) {
    if (strcmp(attack_mode(), "sum_named") != 0) {
        return;
    }
    pid_t child = vfork();
    if (child == 0) {
        pause();
        _exit(0);
    }
}
