/* shm_hoard: memory that belongs to no process. In every inclusive() check it fills three
   System V segments of 400 MB one after another, attaching each only while it writes it, so
   that no process ever holds more than 400 MB but the check holds 1.2 GB, more than twice its
   512 MB limit; then it answers as the reference it is built on would. At the user level the
   sandbox counts the uid's System V memory with its processes': those checks fail with a
   memory verdict, the others keep full marks. Inside bubblewrap the segments live in the box's
   own IPC namespace, which ends with it. */
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>

__attribute__((constructor(102))) static void attack_shm_hoard(void) {
    if (strcmp(attack_mode(), "inclusive") != 0) {
        return;
    }
    size_t size = (size_t)400 << 20;
    for (int i = 0; i < 3; i++) {
        int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
        char *p = id < 0 ? (char *)-1 : shmat(id, NULL, 0);
        if (p == (char *)-1) {
            fprintf(stderr, "attack: segment %d: %s\n", i, strerror(errno));
            return;
        }
        if (madvise(p, size, MADV_POPULATE_WRITE) != 0) { /* the kernel fills it, quickly */
            memset(p, 1, size);
        }
        shmdt(p);
    }
    fprintf(stderr, "attack: holding %zu MB outside any process\n", 3 * (size >> 20));
    sleep(1); /* the sandbox samples ten times a second */
}
