/* files_hoard: memory that belongs to no process, in files. In every inclusive() check it
   writes 900 files of 1 MB (the file-size limit) to /dev/shm, a tmpfs, where their pages are
   in memory: 450 left there, 450 unlinked but kept open, so that no folder names them. The
   check holds 900 MB while no process is large. At the user level the sandbox adds up the
   box's files (its uid's in the shared folders, its own folder's, the unlinked ones its
   processes hold) and holds them to the size of bubblewrap's private /tmp: those checks end
   with an output verdict, the others keep full marks. Inside bubblewrap /dev/shm is not
   writable. */
__attribute__((constructor(102))) static void attack_files_hoard(void) {
    if (strcmp(attack_mode(), "inclusive") != 0) {
        return;
    }
    static char chunk[1000 * 1000];
    memset(chunk, 't', sizeof chunk);
    int held = 0;
    for (int i = 0; i < 900; i++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/shm/drip-attack-%d-%d", (int)getpid(), i);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0) {
            fprintf(stderr, "attack: %s: %s\n", path, strerror(errno));
            break;
        }
        held += write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk;
        if (i % 2 == 1) {
            unlink(path); /* kept open: no folder names it */
        } else {
            close(fd);
        }
    }
    fprintf(stderr, "attack: holding %d MB in /dev/shm\n", held);
    sleep(1); /* the sandbox counts files twice a second */
}
