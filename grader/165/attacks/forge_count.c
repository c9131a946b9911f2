/* forge_count: under valgrind, forge the count in both places it is read, for the slow
   (quadratic) implementation: a whole output file of one instruction, written to the output
   file's name in the box before valgrind writes its own, and valgrind's closing "I refs"
   line, written into its log through a duplicate of fd 1020, whose socket is then shut so
   that valgrind's own closing lines never arrive. */
#include <sys/socket.h>

__attribute__((constructor)) static void attack_forge_count(void) {
    if (!attack_under_valgrind()) {
        return;
    }
    FILE *out = fopen("count.out", "w");
    if (out != NULL) {
        fprintf(out, "desc: I1 cache:\ncmd:");
        for (int i = 1; i < attack_argc; i++) {
            fprintf(out, " %s", attack_argv[i]);
        }
        fprintf(out, "\nevents: Ir\nfl=x\nfn=main\n1 1\nsummary: 1\n");
        fclose(out);
    } else {
        fprintf(stderr, "attack: cannot open count.out: %s\n", strerror(errno));
    }
    int copy = dup(1020);
    if (copy >= 0) {
        dprintf(copy, "==%d== \n==%d== I   refs:      1\n", (int)getpid(), (int)getpid());
        shutdown(copy, SHUT_WR);
        close(copy);
    }
}
