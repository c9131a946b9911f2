/* cpu_offload_children: in every sum_named() check, spend 4 s of CPU, twice the limit, in 130
   short-lived children while the process itself sleeps. With SIGCHLD ignored the kernel reaps
   each child as it exits, and its CPU time goes with it: a tree sampled a few times a second
   would see little of it. The box refuses to change SIGCHLD's action, so the children wait
   to be reaped and the attack reaps them: their time is the tree's, and those checks time out. */
#include <time.h>

static void attack_spin(double seconds) {
    clock_t end = clock() + (clock_t)(seconds * CLOCKS_PER_SEC);
    while (clock() < end) {
    }
}

__attribute__((constructor)) static void attack_cpu_offload_children(void) {
    if (strcmp(attack_mode(), "sum_named") != 0) {
        return;
    }
    int reaped_by_kernel = signal(SIGCHLD, SIG_IGN) != SIG_ERR;
    fprintf(stderr, "attack: SIGCHLD %s\n", reaped_by_kernel ? "ignored" : "refused");
    for (int i = 0; i < 130; i++) {
        pid_t child = fork();
        if (child == 0) {
            attack_spin(0.03);
            _exit(0);
        }
        if (child > 0 && !reaped_by_kernel) {
            waitpid(child, NULL, 0);
        } else {
            struct timespec nap = {0, 35 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
}
