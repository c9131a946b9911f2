/* leftovers: things that outlive a process unless someone removes them: System V shared
   memory, files in the shared temporary folders, a FIFO. The base is correct. */
#include <sys/ipc.h>
#include <sys/shm.h>

__attribute__((constructor)) static void attack_leftovers(void) {
    int id = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0666);
    fprintf(stderr, "attack: shmget = %d\n", id);
    const char *files[] = {"/tmp/drip-attack-left", "/var/tmp/drip-attack-left",
                           "/dev/shm/drip-attack-left", NULL};
    for (int i = 0; files[i] != NULL; i++) {
        FILE *f = fopen(files[i], "w");
        fprintf(stderr, "attack: %s: %s\n", files[i], f != NULL ? "created" : strerror(errno));
        if (f != NULL) {
            fclose(f);
        }
    }
    mkfifo("/tmp/drip-attack-fifo", 0666);
}
