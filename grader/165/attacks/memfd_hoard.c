/* memfd_hoard: in every inclusive() check, hold 600 MB, over the 512 MB limit, in memfds:
   written (not mapped), their pages are no process's resident memory, and a memfd is on no
   file system with a size. Each file stays under the 1 MB file-size limit; 600 of them fit
   under the descriptor limit. The box refuses memfd_create; if the memory were ever held,
   the attack aborts, so that the check shows it. */
#include <sys/mman.h>

__attribute__((constructor)) static void attack_memfd_hoard(void) {
    if (strcmp(attack_mode(), "inclusive") != 0) {
        return;
    }
    static char chunk[1000 * 1000];
    memset(chunk, 'm', sizeof chunk);
    int held = 0;
    for (int i = 0; i < 600; i++) {
        int fd = memfd_create("drip-attack", 0);
        if (fd < 0) {
            fprintf(stderr, "attack: memfd_create refused: %s\n", strerror(errno));
            break;
        }
        if (write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk) {
            held++;
        }
    }
    if (held >= 512) {
        fprintf(stderr, "attack: %d MB held in memfds\n", held);
        abort();
    }
}
