/* huge_file: 2 GB into every writable place it can think of (this once left a 64 MB file in
   the repository root). SIGXFSZ is ignored, so the writes simply fail. */
static void attack_fill(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        fprintf(stderr, "attack: %s: %s\n", path, strerror(errno));
        return;
    }
    static char block[1 << 16];
    long long written = 0;
    while (written < (2LL << 30)) {
        ssize_t n = write(fd, block, sizeof block);
        if (n <= 0) {
            break;
        }
        written += n;
    }
    fprintf(stderr, "attack: %s: wrote %lld bytes\n", path, written);
    close(fd);
    unlink(path);
}

__attribute__((constructor)) static void attack_huge_file(void) {
    signal(SIGXFSZ, SIG_IGN);
    attack_fill("big.bin");
    attack_fill("/tmp/drip-attack-big.bin");
    attack_fill(ATTACK_ROOT "/big.bin");
    attack_fill(ATTACK_OUT "/big.bin");
}
